"""Rosters for generated scenarios: shipped archetypes with seeded variations.

The Runner side draws from the Runner archetypes, the Gegner from the enemy archetypes of
``configs/fighters/``; each entry is ``archetype:`` plus overrides, so the content models
merge and check it like any hand-written scenario. Variations: melee or ranged loadouts,
extra cyberware, a hacker with a different set of hacks, drones, a boss (the
Konzern-Vollstrecker or an elite with doubled LP), a VIP, civilians as living cover.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any

from cwenv.content.library import Library

RUNNERS = (
    ("runner-lehrling", 3.0),
    ("runner-profi", 3.0),
    ("runner-veteran", 2.0),
    ("runner-meister", 1.0),
    ("runner-sanitaeter", 1.0),
)
ENEMIES = (
    ("konzernwache", 3.0),
    ("gangmitglied", 3.0),
    ("schlaeger", 2.0),
    ("scharfschuetze", 1.0),
    ("cyber-samurai", 1.0),
)
RUNNER_HACKER, ENEMY_HACKER = "runner-hackerin", "netrunner"
DRONES = ("sicherheitsdrohne", "kampfdrohne")
BOSS, ELITES = "konzern-vollstrecker", ("cyber-samurai", "schlaeger", "konzernwache")
VIP, CIVILIAN = "vip", "zivilist"
HACKS = (
    "blackout",
    "sensorblende",
    "synapsenbrand",
    "systemschock",
    "todesspirale",
    "ueberhitzung",
)
CYBERWARE = (
    "adrenalinpumpe",
    "kortex-koprozessor",
    "mantis-klingen",
    "nanomed-injektor",
    "raptor-booster",
    "reaktivpanzer",
    "reflexbooster",
    "smartlink",
    "subdermalpanzer",
)
FAST_LEGS = "kybernetische-beine"  # +2 m Bewegung: only for fighters without M07 (below)
MELEE = (
    ("katana",),
    ("vibroklinge", "messer"),
    ("monofilament-peitsche",),
    ("elektroschlagstock", "messer"),
    ("eisenrohr", "schlagstock"),
    ("katana", "pistole"),
)
RANGED = (
    ("sturmgewehr", "messer"),
    ("maschinenpistole", "schlagstock"),
    ("schrotflinte", "pistole"),
    ("schwere-pistole", "messer"),
    ("pistole", "splittergranate"),
    ("scharfschuetzengewehr", "pistole"),
    ("flammenwerfer", "messer"),
    ("saeurespritze", "pistole"),
    ("taser", "pistole"),
    ("sturmgewehr", "emp-granate"),
)
HANDLES = (
    "Mara", "Jax", "Nox", "Kira", "Vex", "Rook", "Zed", "Lynx", "Juno", "Sable",
    "Echo", "Raze", "Nyx", "Flint", "Ash", "Kestrel", "Mika", "Ozzy", "Tesla", "Wren",
)  # fmt: skip
MAX_CYBERWARE = 6  # the env's per-fighter slots (cwenv.envs.capacity.MAX_CYBERWARE)


class GeneratorError(ValueError):
    """The generator could not make a scenario from the shipped library (a library file
    it relies on is missing or says something else than it expects)."""


@dataclass
class Roster:
    """Scenario ``fighters`` entries by spawn zone, and what the roster holds."""

    runner: list[dict[str, Any]] = field(default_factory=list)
    gegner: list[dict[str, Any]] = field(default_factory=list)
    neutral: list[dict[str, Any]] = field(default_factory=list)
    vip: str | None = None
    features: list[str] = field(default_factory=list)


def _pick(rng: random.Random, table: tuple[tuple[str, float], ...]) -> str:
    names = [n for n, _ in table]
    return rng.choices(names, weights=[w for _, w in table])[0]


class _Builder:
    def __init__(self, rng: random.Random, lib: Library) -> None:
        self.rng, self.lib = rng, lib
        self.counts: dict[str, int] = {}

    def data(self, archetype: str) -> dict[str, Any]:
        try:
            raw = self.lib.document("fighters", archetype).data
            self.lib.fighter_model(archetype)  # the archetype must be valid by itself
        except ValueError as exc:
            raise GeneratorError(f"the generator's archetype {archetype!r}: {exc}") from None
        if not isinstance(raw, dict):
            raise GeneratorError(f"the generator's archetype {archetype!r} is not a mapping")
        return raw

    def entry(
        self, archetype: str, side: str, zone: str, name: str | None = None
    ) -> dict[str, Any]:
        data = self.data(archetype)
        if data.get("side") != side:
            raise GeneratorError(
                f"archetype {archetype!r} is side {data.get('side')!r}; the generator uses "
                f"it for {side!r}"
            )
        if name is None:
            display = str(data.get("name", archetype))
            k = self.counts[display] = self.counts.get(display, 0) + 1
            name = f"{display} {k}"
        return {"archetype": archetype, "name": name, "spawn": zone}

    def vary(self, e: dict[str, Any], humanoid: bool = True) -> None:
        """Loadout, cyberware and a skill: the seeded differences between two copies."""
        rng, data = self.rng, self.data(e["archetype"])
        roll = rng.random()
        if humanoid and roll < 0.3:
            e["weapons"] = list(rng.choice(MELEE))
        elif humanoid and roll < 0.55:
            e["weapons"] = list(rng.choice(RANGED))
        if rng.random() < 0.3:
            have = [c for c in data.get("cyberware", []) if isinstance(c, str)]
            inline = [copy.deepcopy(c) for c in data.get("cyberware", []) if not isinstance(c, str)]
            pool = [c for c in CYBERWARE if c not in have]
            # M07 doubles the moves of a Runner (or NSC) with Mumm 2+: +2 m Bewegung on top
            # would carry a turn past the env's 24-cell move window (capacity.py).
            if int(e.get("mumm_max", data.get("mumm_max", data.get("mumm", 0)))) < 2:
                pool.append(FAST_LEGS)
            room = MAX_CYBERWARE - len(have) - len(inline)
            extra = rng.sample(pool, k=min(room, len(pool), 1 if rng.random() < 0.7 else 2))
            if extra:
                e["cyberware"] = have + inline + extra
        skills = data.get("skills", {})
        if isinstance(skills, dict) and skills and rng.random() < 0.3:
            skill = rng.choice(sorted(skills))
            e["skills"] = {skill: max(0, min(30, int(skills[skill]) + rng.choice((-1, 1))))}

    def hacker(self, e: dict[str, Any]) -> None:
        if self.rng.random() < 0.5:
            e["hacks"] = self.rng.sample(list(HACKS), k=self.rng.randint(2, 4))

    def boss(self) -> dict[str, Any]:
        rng = self.rng
        if rng.random() < 0.5:
            return self.entry(BOSS, "gegner", "gegner", name="Konzern-Vollstrecker (Boss)")
        archetype = rng.choice(ELITES)
        data = self.data(archetype)
        e = self.entry(archetype, "gegner", "gegner", name=f"{data.get('name', archetype)} (Boss)")
        e["lp"] = 2 * int(data["lp"])
        e["ruestung"] = int(data.get("ruestung", 0)) + 2
        e["mumm"], e["mumm_max"] = 2, 2
        e["tags"] = ["nsc", "boss"]
        return e


def build_roster(
    rng: random.Random,
    runners: int,
    gegner: int,
    *,
    vip: bool,
    civilians: int,
    lib: Library | None = None,
) -> Roster:
    """``runners`` Runner and ``gegner`` Gegner entries (plus the VIP and civilians)."""
    b = _Builder(rng, lib or Library())
    out = Roster()
    handles = list(HANDLES)
    rng.shuffle(handles)
    hacker = runners >= 2 and rng.random() < 0.3
    for i in range(runners):
        archetype = RUNNER_HACKER if hacker and i == runners - 1 else _pick(rng, RUNNERS)
        e = b.entry(archetype, "runner", "runner", name=handles[i])
        b.vary(e)
        if archetype == RUNNER_HACKER:
            b.hacker(e)
        out.runner.append(e)
    if vip:
        data = b.data(VIP)
        out.vip = str(data.get("name", VIP))
        out.runner.append(b.entry(VIP, "runner", "runner", name=out.vip))
        out.features.append("vip")
    slots = gegner
    if gegner >= 2 and rng.random() < 0.25:
        out.gegner.append(b.boss())
        out.features.append("boss")
        slots -= 1
    if gegner >= 2 and slots >= 2 and rng.random() < 0.3:
        e = b.entry(ENEMY_HACKER, "gegner", "gegner")
        b.hacker(e)
        out.gegner.append(e)
        slots -= 1
    drones = rng.randint(1, min(2, slots - 1)) if slots >= 2 and rng.random() < 0.35 else 0
    for _ in range(drones):
        e = b.entry(rng.choice(DRONES), "gegner", "gegner")
        b.vary(e, humanoid=False)
        out.gegner.append(e)
    if drones:
        out.features.append("drones")
    for _ in range(slots - drones):
        e = b.entry(_pick(rng, ENEMIES), "gegner", "gegner")
        b.vary(e)
        out.gegner.append(e)
    for _ in range(civilians):
        out.neutral.append(b.entry(CIVILIAN, "neutral", "neutral"))
    if civilians:
        out.features.append("civilians")
    if any(e["archetype"] in (RUNNER_HACKER, ENEMY_HACKER) for e in out.runner + out.gegner):
        out.features.append("hacks")
    return out
