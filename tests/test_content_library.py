"""The shipped content library (issue #3): every file validates, the starter library is
complete, archetypes merge as documented, and docs/scenarios.md stays in step."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cwenv.battlemap.grid import Terrain
from cwenv.content import (
    KINDS,
    Library,
    library_files,
    list_content,
    list_scenarios,
    load_cyberware,
    load_fighter,
    load_map,
    load_scenario,
    read_scenario,
    validate_file,
)
from cwenv.content.api import MODELS
from cwenv.content.equipment import AbilityModel, ItemModel, RangeBandModel
from cwenv.content.fields import DAMAGE_FORMS
from cwenv.content.fighters import FighterModel, FighterPatch
from cwenv.content.scenarios import PLACEMENT_FIELDS, ScenarioFighter
from cwenv.engine.game import Game, VictoryKind
from cwenv.model.specs import AbilityKind, ItemKind
from cwenv.model.types import ArmourMode, Side, Size, Skill, WeaponKind
from cwenv.rules.options import InitiativeSystem, Surprise

DOCS = Path(__file__).resolve().parents[1] / "docs" / "scenarios.md"
SCENARIOS = list_scenarios()


def _games() -> dict[str, Game]:
    return {name: load_scenario(name) for name in SCENARIOS}


@pytest.mark.parametrize("path", list(library_files()), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_shipped_file_validates(path: Path) -> None:
    assert validate_file(path) == path.parent.name


def test_starter_library_is_complete() -> None:
    required = {"duell", "feuergefecht", "korridor", "hinterhalt", "dach", "tiefgarage"}
    required |= {"boss", "strassenschlacht"}
    assert required <= set(SCENARIOS)
    assert len(SCENARIOS) >= 8
    assert len(list_content("fighters")) >= 12
    assert len(list_content("weapons")) >= 15
    assert len(list_content("cyberware")) >= 4


def test_feuergefecht_is_a_4v4_on_about_20_by_14() -> None:
    game = load_scenario("feuergefecht")
    sides = [spec.side for spec in game.roster]
    assert sides.count(Side.RUNNER) == 4 and sides.count(Side.GEGNER) == 4
    assert (game.battlemap.width, game.battlemap.height) == (20, 14)


def test_strassenschlacht_is_6v6_and_duell_1v1() -> None:
    games = _games()
    for name, n in (("strassenschlacht", 6), ("duell", 1)):
        sides = [spec.side for spec in games[name].roster]
        assert sides.count(Side.RUNNER) == n and sides.count(Side.GEGNER) == n
    assert all(w.kind is WeaponKind.MELEE for f in games["duell"].roster for w in f.weapons)


def test_archetypes_cover_the_required_roles() -> None:
    lib = Library()
    specs = {name: lib.fighter(name) for name in lib.names("fighters")}
    drone = specs["sicherheitsdrohne"]
    assert not drone.humanoid and drone.size is Size.KLEIN
    assert specs["konzern-vollstrecker"].armour >= 6
    assert specs["zivilist"].side is Side.NEUTRAL
    for name, level in (("lehrling", 10), ("profi", 12), ("veteran", 14), ("meister", 16)):
        runner = specs[f"runner-{name}"]
        best = max(runner.skills)
        assert level - 1 <= best <= level + 1, (name, best)
        assert 3 <= runner.mumm <= 5
    for spec in specs.values():
        if spec.side is not Side.RUNNER and "elite" not in spec.tags and "boss" not in spec.tags:
            assert spec.mumm == 0, spec.name  # NSC mooks carry no Mumm
        if spec.humanoid and "boss" not in spec.tags:
            assert 20 <= spec.lp <= 40, spec.name
            assert spec.ruestung <= 4, spec.name


def test_weapons_cover_every_damage_type() -> None:
    lib = Library()
    weapons = [lib.weapon(name) for name in lib.names("weapons")]
    modes = {w.armour_mode for w in weapons}
    assert modes == set(ArmourMode)
    assert any(w.zehrend == "Feuer" and w.armour_mode is ArmourMode.BRECHEND for w in weapons)
    assert any(w.zehrend and w.zehrend != "Feuer" for w in weapons)
    assert any(w.non_lethal and w.kind is WeaponKind.RANGED for w in weapons)
    assert any(w.area_radius > 0 for w in weapons)
    assert any(w.improvised for w in weapons)
    pistol = lib.weapon("pistole")
    assert (pistol.bonus, pistol.magazine, pistol.nachladen) == (2, 12, 1)
    assert pistol.range_modifier(10) == 0 and pistol.range_modifier(30) == -2


def test_raptor_booster_reproduces_the_book_example() -> None:
    """I01/I02: Reflexe 13 + Raptor-Booster 6 = Grundwert 19."""
    booster = load_cyberware("raptor-booster")
    assert booster.initiative_bonus == 6
    spec = load_fighter("runner-profi")
    base = spec.skill(Skill.REFLEXE)
    assert spec.initiative_grundwert == base
    from dataclasses import replace

    boosted = replace(
        spec,
        skills=tuple(
            13 if s is Skill.REFLEXE else v for s, v in zip(Skill, spec.skills, strict=True)
        ),
        cyberware=(booster,),
    )
    assert boosted.initiative_grundwert == 19


def test_cyberware_covers_abilities_weapons_and_bonuses() -> None:
    lib = Library()
    ware = [lib.cyberware(name) for name in lib.names("cyberware")]
    kinds = {w.ability.kind for w in ware if w.ability is not None}
    assert kinds == set(AbilityKind)
    assert any(w.weapon is not None for w in ware)
    assert any(w.armour_bonus for w in ware)
    assert any(w.skill_bonuses for w in ware)
    assert any(w.movement_bonus for w in ware)


def test_scenarios_together_exercise_every_rule_family() -> None:
    games = _games().values()
    maps = [g.battlemap for g in games]
    terrain = {t for bm in maps for t in bm.terrain}
    assert set(Terrain) <= terrain  # cover, water, climbing, doors
    assert any(max(bm.elevation) - min(bm.elevation) >= 8 for bm in maps)  # gaps and falls
    assert any(bm.exits for bm in maps)
    specs = [s for g in games for s in g.roster]
    hacks = [h for s in specs for h in s.hacks]
    assert any(h.area_radius for h in hacks) and any(h.upload for h in hacks)
    assert any(h.condition is not None for h in hacks) and any(h.zehrend for h in hacks)
    assert any(not h.deals_damage for h in hacks)
    weapons = [w for s in specs for w in s.all_weapons]
    assert {w.armour_mode for w in weapons} == set(ArmourMode)
    assert any(w.zehrend for w in weapons) and any(w.non_lethal for w in weapons)
    assert any(w.area_radius and w.durchdringung for w in weapons)
    assert any(s.resistances for s in specs) and any(s.immunities for s in specs)
    assert any(s.vulnerabilities for s in specs)
    assert {i.kind for s in specs for i in (*s.items, *s.backpack)} == set(ItemKind)
    assert any(s.backpack for s in specs)
    assert {s.side for s in specs} == set(Side)
    assert any(not s.humanoid for s in specs) and any(s.size is Size.GROSS for s in specs)
    victory = {v.kind for g in games for v in g.victory}
    assert victory == set(VictoryKind)
    ambushes = [g for g in games if g.ambushed]
    assert ambushes and all(g.options.surprise is Surprise.REFLEXE_CHECK for g in ambushes)


def test_counted_fighters_get_unique_names_and_zone_cells_in_index_order() -> None:
    game = load_scenario("feuergefecht")
    assert game.names[-3:] == ("Konzernwache 1", "Konzernwache 2", "Konzernwache 3")
    zone = sorted(game.battlemap.spawns["gegner"])
    assert list(game.positions[4:]) == zone
    assert len(set(game.names)) == len(game.names)
    assert load_scenario("feuergefecht").positions == game.positions


def test_overrides_merge_skills_and_replace_lists() -> None:
    game = load_scenario("feuergefecht")
    base = load_fighter("konzernwache")
    chief = game.roster[game.names.index("Schichtleiterin Brandt")]
    assert chief.skills[Skill.FERNKAMPF] == 12 and chief.skills[Skill.REFLEXE] == 11
    assert chief.skills[Skill.WAHRNEHMUNG] == base.skills[Skill.WAHRNEHMUNG]  # merged
    assert [w.name for w in chief.weapons] == ["Sturmgewehr", "Pistole"]  # replaced
    assert chief.mumm == 1 and chief.archetype == "konzernwache"
    assert chief.items == base.items


def test_skill_overrides_ignore_case(tmp_path: Path) -> None:
    text = (
        "name: T\nmap: lagerhof\nfighters:\n"
        "  - {archetype: runner-profi, spawn: runner, skills: {fernkampf: 15}}\n"
        "  - {archetype: konzernwache, spawn: gegner}\n"
    )
    path = tmp_path / "t.yaml"
    path.write_text(text, encoding="utf-8")
    runner = load_scenario(path).roster[0]
    assert runner.skills[Skill.FERNKAMPF] == 15
    assert runner.skills[Skill.REFLEXE] == load_fighter("runner-profi").skills[Skill.REFLEXE]


def test_rule_variant_by_name_and_override() -> None:
    assert load_scenario("duell").options.initiative is InitiativeSystem.STEPS
    passes = load_scenario("duell", rules="passes")
    assert passes.options.initiative is InitiativeSystem.PASSES
    ambush = load_scenario("hinterhalt", rules="passes")
    assert ambush.options.surprise is Surprise.REFLEXE_CHECK  # inline options stay on top


def test_map_legend_spawn_chars_and_exits() -> None:
    bm = load_map("hafenausgang")
    assert len(bm.exits) == 3 and all(bm.terrain[i] is Terrain.FLOOR for i in bm.exits)
    garage = load_map("tiefgarage")
    assert Terrain.COVER_HALF in garage.terrain and Terrain.WATER in garage.terrain
    roof = load_map("dach")
    assert max(roof.elevation) == 9 and min(roof.elevation) == 0


def _doc_example() -> str:
    text = DOCS.read_text(encoding="utf-8")
    match = re.search(r"<!-- example-scenario -->\n```yaml\n(.*?)```", text, re.S)
    assert match is not None, "docs/scenarios.md lost its example scenario"
    return match.group(1)


def test_docs_example_scenario_loads_and_plays(tmp_path: Path) -> None:
    path = tmp_path / "hinterhof.yaml"
    path.write_text(_doc_example(), encoding="utf-8")
    sc = read_scenario(path)
    assert sc.name == "Hinterhof"
    assert sc.game.names == ("Mara", "Ratte", "Dealer", "Leibwächter")
    combat = sc.game.new_combat(3)
    assert combat.legal_actions()


def test_docs_name_every_field() -> None:
    text = DOCS.read_text(encoding="utf-8")
    models = [*MODELS.values(), RangeBandModel, AbilityModel, ItemModel]
    for model in models:
        for field in model.model_fields:
            assert f"`{field}`" in text, f"docs/scenarios.md does not explain {field!r}"
    for field in PLACEMENT_FIELDS:
        assert f"`{field}`" in text
    for kind in KINDS:
        assert f"{kind}/" in text
    for form in DAMAGE_FORMS:
        assert f"`{form}`" in text, f"docs/scenarios.md does not list the damage form {form}"


def test_fighter_patch_mirrors_fighter_model() -> None:
    """Every stat-block field can be overridden in a scenario entry."""
    assert set(FighterPatch.model_fields) == set(FighterModel.model_fields)
    assert set(ScenarioFighter.model_fields) == set(FighterModel.model_fields) | set(
        PLACEMENT_FIELDS
    )
