"""``cwenv train`` with encoding 2: the candidate scorer over a pool of fights (issue #18).

One tiny run (``configs/training/scorer-smoke.yaml``: two shipped duels and 50 generated
fights, both sides, a league with self-play) is trained once for the module; the tests
read its folder, resume it, export it and play its bundle.
"""

from __future__ import annotations

import json
import shutil
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

pytest.importorskip("sb3_contrib")

from agents.policy.agent import PolicyMismatchWarning
from agents.policy.scorer_agent import ScorerAgent
from agents.policy.scorer_bundle import load_scorer_bundle, write_scorer_bundle
from agents.training.checkpoint import CheckpointError, read_checkpoint
from agents.training.config import load_training_config
from agents.training.pool import PoolEnv, draw_fight, pool_of
from agents.training.restore import restore_model
from agents.training.runs import export_run, load_run_config
from agents.training.train import build_model, latest_checkpoint, train
from cwenv.agent import DecisionView
from cwenv.content import load_scenario
from cwenv.content.generate import generate_game
from cwenv.yamlio import ConfigError

ROOT = Path(__file__).resolve().parents[1]
SMOKE = ROOT / "configs" / "training" / "scorer-smoke.yaml"


@pytest.fixture(scope="module")
def scorer_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return train(SMOKE, runs=tmp_path_factory.mktemp("runs"))


def _config(tmp_path: Path, **changes: Any) -> Path:
    data = yaml.safe_load(SMOKE.read_text(encoding="utf-8"))
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    path = tmp_path / "run.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def test_the_run_trains_the_scorer_and_exports_a_scorer_bundle(scorer_run: Path) -> None:
    cfg = load_run_config(scorer_run)  # the resolved file reads back
    assert cfg.encoding == 2 and cfg.pool is not None and cfg.scorer.hidden == 32
    ckpt = read_checkpoint(latest_checkpoint(scorer_run))  # type: ignore[arg-type]
    assert ckpt.state.network == "scorer" and ckpt.timesteps == 256 and not ckpt.state.actor
    bundle = load_scorer_bundle(scorer_run / "bundle")
    on = bundle.manifest.trained_on
    assert on is not None and on.scenarios == ["duell", "spiegelduell"]
    assert on.generated is not None and (on.generated.first, on.generated.count) == (0, 50)
    assert on.sides == ["gegner", "runner"]
    assert on.held_out["scenarios"] == ["feuergefecht", "strassenschlacht", "boss", "hinterhalt"]
    assert bundle.manifest.training["timesteps"] == 256
    rows = (scorer_run / "eval.csv").read_text(encoding="utf-8").splitlines()
    assert rows[0].startswith("timesteps,opponent") and [r.split(",")[0] for r in rows[1:]] == [
        "128",
        "256",
    ]


def test_the_bundle_is_the_trained_network(scorer_run: Path) -> None:
    """The numpy bundle's logits and value equal the torch policy restored from the final
    checkpoint on observations of every kind of fight in the pool."""
    import torch
    from stable_baselines3.common.vec_env import DummyVecEnv

    cfg = load_run_config(scorer_run)
    env = PoolEnv(pool_of(cfg), opponent="random", k=cfg.scorer.k)
    model = build_model(cfg, DummyVecEnv([lambda: env]))
    restore_model(model, read_checkpoint(latest_checkpoint(scorer_run)))  # type: ignore[arg-type]
    bundle = load_scorer_bundle(scorer_run / "bundle")
    rng = np.random.default_rng(5)
    obs, info = env.reset(seed=5)
    seen = set()
    for _ in range(120):
        seen.add(info["scenario"].split(":")[0])
        ours, value = bundle.evaluate(obs)
        with torch.no_grad():
            t_obs = {k: torch.as_tensor(v)[None] for k, v in obs.items()}
            logits, t_value = model.policy.scorer(t_obs)
        mask = env.action_masks()
        np.testing.assert_allclose(ours[mask], logits[0].numpy()[mask], rtol=1e-4, atol=1e-4)
        assert value == pytest.approx(float(t_value[0]), abs=1e-4)
        obs, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        if term or trunc:
            obs, info = env.reset()
    assert "generated" in seen


def test_resume_continues_and_keeps_the_network(scorer_run: Path, tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    shutil.copytree(scorer_run, runs / "scorer-smoke")
    longer = _config(tmp_path, total_timesteps=384)
    with pytest.raises(FileExistsError):
        train(longer, runs=runs)
    run = train(longer, runs=runs, resume=True)
    ckpt = read_checkpoint(latest_checkpoint(run))  # type: ignore[arg-type]
    first = read_checkpoint(latest_checkpoint(scorer_run))  # type: ignore[arg-type]
    assert ckpt.timesteps == 384 and ckpt.state.n_updates > first.state.n_updates
    meta = json.loads((run / "meta.json").read_text(encoding="utf-8"))
    assert meta["resume"] is True and len(meta["resumes"]) == 1
    assert load_scorer_bundle(run / "bundle").manifest.training["timesteps"] == 384
    wider = _config(tmp_path, total_timesteps=512, scorer={"k": 512, "hidden": 48})
    with pytest.raises(CheckpointError, match="scorer"):
        train(wider, runs=runs, resume=True)


def test_export_and_warm_start_from_the_bundle(scorer_run: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cwenv.cli.main import app

    early = load_scorer_bundle(export_run(scorer_run, tmp_path / "early", timesteps=128))
    assert early.manifest.training["checkpoint"] == "step_0000000128"
    out = tmp_path / "cli"
    result = CliRunner().invoke(app, ["export", str(scorer_run), "--out", str(out)])
    assert result.exit_code == 0 and f"play it as scorer:{out}" in result.output
    assert load_scorer_bundle(out).manifest.training["checkpoint"] == "step_0000000256"
    data = yaml.safe_load(SMOKE.read_text(encoding="utf-8"))
    data.update(name="warm", init_policy=str(scorer_run / "bundle"), total_timesteps=64)
    data["hyperparams"].update(learning_rate=1e-30, n_steps=32, batch_size=64)
    data["league"]["self_play"] = 0.0
    data["evaluation"]["every"] = 10_000
    path = tmp_path / "warm.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    run = train(path, runs=tmp_path / "runs")
    start, end = load_scorer_bundle(scorer_run / "bundle"), load_scorer_bundle(run / "bundle")
    for name, array in start.tensors.items():
        np.testing.assert_allclose(array, end.tensors[name], rtol=0, atol=1e-20)
    data["scorer"] = {"k": 512, "hidden": 40}
    path.write_text(yaml.safe_dump({**data, "name": "warm2"}), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"init_policy: .*scorer\.hidden"):
        train(path, runs=tmp_path / "runs")


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"hyperparams": {"net_arch": [32]}}, r"hyperparams\.net_arch: the MLP's"),
        ({"move_radius": 12}, r"move_radius: only for encoding 1"),
        ({"scenario": "duell"}, r"scenario: not used with a pool"),
        ({"pool": {"scenarios": ["duell", "feuergefecht"]}},
         r"pool\.scenarios\.1: 'feuergefecht' is held out"),
        ({"pool": {"scenarios": ["configs/scenarios/boss.yaml"]}},
         r"pool\.scenarios\.0: .*held out \(as 'boss'\)"),
        ({"pool": {"generated": {"first": 999_990, "count": 20}}},
         r"pool\.generated: .*overlaps the held-out"),
        ({"pool": {"scenarios": ["generated:1000003"]}},
         r"pool\.scenarios\.0: generated:1000003 is held out"),
        ({"pool": {"scenarios": ["duell", "generated:7"]},
          "held_out": {"scenarios": ["generated:7"]}},
         r"pool\.scenarios\.1: generated:7 is held out"),
        ({"held_out": {"scenarios": ["generated:7"]}},
         r"pool\.generated: generated:0…49 holds the held-out generated:7"),
        ({"pool": {"generated": {"first": 2**31 - 10, "count": 20}}},
         r"pool\.generated: .*the last seed is 2147483647"),
        ({"pool": {"scenarios": ["nirgendwo"]}}, r"pool\.scenarios\.0: cannot load 'nirgendwo'"),
        ({"pool": {"scenarios": ["generated:x"]}},
         r"pool\.scenarios\.0: cannot load 'generated:x'"),
        ({"pool": {}}, r"pool: names no fight"),
        ({"encoding": 1, "scorer": None, "hyperparams": None}, r"pool: only for encoding 2"),
    ],
)  # fmt: skip
def test_config_mistakes_name_the_field(
    tmp_path: Path, changes: dict[str, Any], message: str
) -> None:
    path = _config(tmp_path, **changes)
    with pytest.raises(ConfigError, match=message):
        load_training_config(path)


def test_a_yaml_of_a_held_out_generated_seed_is_refused(tmp_path: Path) -> None:
    from cwenv.content.generate import generate_yaml

    fight = tmp_path / "zufall.yaml"
    fight.write_text(generate_yaml(1_000_007), encoding="utf-8")
    path = _config(tmp_path, pool={"scenarios": ["duell", str(fight)]})
    with pytest.raises(ConfigError, match=r"pool\.scenarios\.1: .*as 'generated:1000007'"):
        load_training_config(path)


def test_a_renamed_yaml_of_a_held_out_generated_seed_is_refused(tmp_path: Path) -> None:
    """A generated fight of the held-out range saved with another scenario name (so its
    name no longer says the seed) is still that fight: refused by its fingerprint, naming
    the seed and the held-out range. Another seed's fight outside the range is not."""
    from cwenv.content.generate import generate_yaml

    def renamed(seed: int) -> Path:
        data = yaml.safe_load(generate_yaml(seed))
        data["name"] = "Mein Zufall"
        fight = tmp_path / f"mein-{seed}.yaml"
        fight.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
        return fight

    fight = renamed(1_000_013)
    assert load_scenario(str(fight)).name == "Mein Zufall"
    path = _config(tmp_path, pool={"scenarios": ["duell", str(fight)]})
    with pytest.raises(ConfigError) as caught:
        load_training_config(path)
    assert (
        f"pool.scenarios.1: '{fight}' is a copy of the held-out 'generated:1000013' "
        "(held_out.generated generated:1000000…1000199)"
    ) in str(caught.value)
    load_training_config(_config(tmp_path, pool={"scenarios": ["duell", str(renamed(5))]}))
    # a held-out range too large to compare a file with is refused, not checked in part
    big = {"generated": {"first": 1_000_000, "count": 5001}}
    with pytest.raises(ConfigError, match=r"held_out\.generated\.count: 5001 held-out seeds"):
        load_training_config(_config(tmp_path, held_out=big, pool={"scenarios": [str(fight)]}))


def _boss_copy(folder: Path, **changes: Any) -> Path:
    """configs/scenarios/boss.yaml saved elsewhere with ``changes`` to its top level."""
    data = yaml.safe_load((ROOT / "configs" / "scenarios" / "boss.yaml").read_text("utf-8"))
    data.update(changes)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "myboss.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def test_a_renamed_copy_of_a_held_out_fight_is_refused(tmp_path: Path) -> None:
    """A copy of boss.yaml under another file name, scenario name, description and
    fighter names is the same fight: refused, naming the entry, the fight it copies and
    where that one is held out. A copy that changes the fight is not."""
    data = yaml.safe_load((ROOT / "configs" / "scenarios" / "boss.yaml").read_text("utf-8"))
    fighters = [{**f, "name": f"Kopie {i}"} if "name" in f else f
                for i, f in enumerate(data["fighters"])]  # fmt: skip
    copy = _boss_copy(tmp_path / "x", name="Mein Boss", description="anders", fighters=fighters)
    assert load_scenario(str(copy)).name == "Mein Boss"
    path = _config(tmp_path, pool={"scenarios": ["duell", str(copy)]})
    with pytest.raises(ConfigError) as caught:
        load_training_config(path)
    assert (
        f"pool.scenarios.1: '{copy}' is a copy of the held-out 'boss' (held_out.scenarios.2)"
        in str(caught.value)
    )
    # the fingerprint is not the map alone: the boss on another cell, or one guard fewer,
    # is a fight of its own and may be trained on
    moved = [{**f, "at": [13, 5]} if "at" in f else f for f in data["fighters"]]
    fewer = [{**f, "count": 1} if f.get("count") == 2 else f for f in data["fighters"]]
    for i, other in enumerate((moved, fewer)):
        copy = _boss_copy(tmp_path / str(i), name="Mein Boss", fighters=other)
        load_training_config(_config(tmp_path, pool={"scenarios": ["duell", str(copy)]}))


def test_a_resume_keeps_the_held_out_fights(scorer_run: Path, tmp_path: Path) -> None:
    """A run that trained on a fight cannot resume calling it held out (the bundle's
    manifest would then claim a fight the policy saw was unseen)."""
    runs = tmp_path / "runs"
    shutil.copytree(scorer_run, runs / "scorer-smoke")
    narrower = _config(tmp_path, total_timesteps=384, held_out={"scenarios": ["boss"]})
    with pytest.raises(CheckpointError, match="held_out"):
        train(narrower, runs=runs, resume=True)


def _first_fights(cfg: Any, run: Path, ckpt: Any) -> list[Any]:
    from agents.training.train import _start

    vec, _, _, _ = _start(cfg, run, ckpt, ckpt is not None)
    try:
        fights = []
        for _ in range(3):
            vec.reset()
            fights += vec.get_attr("fight")
        return fights
    finally:
        vec.close()


def test_a_resumed_run_draws_new_fights(scorer_run: Path, tmp_path: Path) -> None:
    """A resume continues the stream of fights, sides and dice instead of replaying the
    first start's (a run resumed many times would train on one prefix of its pool)."""
    runs = tmp_path / "runs"
    shutil.copytree(scorer_run, runs / "scorer-smoke")
    cfg = load_run_config(scorer_run)
    ckpt = read_checkpoint(latest_checkpoint(scorer_run))  # type: ignore[arg-type]
    fresh = _first_fights(cfg, tmp_path / "fresh", None)
    assert fresh == _first_fights(cfg, tmp_path / "again", None)  # a start replays
    resumed = _first_fights(cfg, runs / "scorer-smoke", ckpt)
    assert resumed != fresh and len(set(fresh) | set(resumed)) > len(set(fresh))


def test_pool_env_draws_every_kind_of_fight_reproducibly() -> None:
    cfg = load_training_config(SMOKE)
    pool = pool_of(cfg)
    draws = [draw_fight(pool, np.random.default_rng(3)) for _ in range(2)]
    assert draws[0] == draws[1]
    rng = np.random.default_rng(0)
    fights = [draw_fight(pool, rng) for _ in range(400)]
    generated = sum(f.ref.startswith("generated:") for f in fights)
    # generated_share 0.5 over 400 draws: 200 ± 4σ (σ = 10)
    assert 160 <= generated <= 240
    assert {f.side for f in fights} == {"gegner", "runner"}
    assert {f.ref for f in fights} >= {"duell", "spiegelduell"}
    assert all(0 <= int(f.ref[10:]) < 50 for f in fights if f.ref.startswith("generated:"))
    a, b = PoolEnv(pool, opponent="random"), PoolEnv(pool, opponent="random")
    for seed in range(3):
        (oa, ia), (ob, ib) = a.reset(seed=seed), b.reset(seed=seed)
        assert (ia["scenario"], ia["side"]) == (ib["scenario"], ib["side"])
        for key in oa:
            np.testing.assert_array_equal(oa[key], ob[key])


def test_pool_env_passes_the_env_checker() -> None:
    from gymnasium.utils.env_checker import check_env

    cfg = load_training_config(SMOKE)
    check_env(
        PoolEnv(pool_of(cfg), opponent="random", illegal_action="fallback"),
        skip_render_check=True,
    )


def _play_one_decision(agent: ScorerAgent, game: Any) -> None:
    import random

    combat = game.new_combat(0)
    view = DecisionView(combat)
    agent.act(view, combat.legal_actions(), random.Random(0))


def _zero_bundle(
    folder: Path, network: Any, trained: dict[str, Any], training: dict[str, Any] | None = None
) -> Path:
    """A zero-weight scorer bundle of ``network``'s sizes trained on ``trained``."""
    from agents.policy.manifest import EncodingRecord
    from agents.policy.scorer import param_shapes
    from agents.policy.scorer_bundle import ScorerManifest, scorer_dims
    from cwenv.envs.encoding2 import ENCODING2_VERSION, encoding2_record

    shapes = param_shapes(
        scorer_dims(
            ScorerManifest(
                observation_encoding=ENCODING2_VERSION,
                action_encoding=ENCODING2_VERSION,
                encoding=EncodingRecord.model_validate(encoding2_record(512)),
                network=network, scenario="pool", side="gegner", weights_sha256="0" * 64,
            )
        )
    )  # fmt: skip
    tensors = {k: np.zeros(v, dtype=np.float32) for k, v in shapes.items()}
    return write_scorer_bundle(folder, tensors, scenario="pool", side="gegner", network=network,
                               trained_on=trained, training=training)  # fmt: skip


def _pool_bundle(folder: Path, sides: list[str]) -> Any:
    """A zero-weight scorer bundle trained on duell and generated seeds 0…9."""
    from agents.policy.scorer_bundle import Network

    trained = {"scenarios": ["duell"], "generated": {"first": 0, "count": 10},
               "sides": sides, "held_out": {}}  # fmt: skip
    return load_scorer_bundle(
        _zero_bundle(folder, Network(hidden=8, vs_hidden=4, cand_hidden=8), trained)
    )


def test_a_pool_bundle_warns_once_outside_its_fights(tmp_path: Path) -> None:
    bundle = _pool_bundle(tmp_path / "b", ["gegner", "runner"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for game in (load_scenario("duell"), generate_game(4)):  # trained on: silent
            _play_one_decision(ScorerAgent(bundle), game)
        assert not [w for w in caught if issubclass(w.category, PolicyMismatchWarning)]
        outside = generate_game(12)
        for _ in range(2):
            _play_one_decision(ScorerAgent(bundle), outside)
    said = [str(w.message) for w in caught if issubclass(w.category, PolicyMismatchWarning)]
    assert len(said) == 1 and "generated seeds 0…9" in said[0] and "Zufall 12" in said[0]


def test_a_pool_bundle_warns_once_for_a_side_it_never_played(tmp_path: Path) -> None:
    bundle = _pool_bundle(tmp_path / "b", ["gegner"])
    game = load_scenario("duell")
    combat = game.new_combat(0)
    import random

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        agent = ScorerAgent(bundle)
        for _ in range(40):
            if combat.is_terminal():
                break
            combat.apply(agent.act(DecisionView(combat), combat.legal_actions(), random.Random(0)))
    said = [str(w.message) for w in caught if issubclass(w.category, PolicyMismatchWarning)]
    assert said == [f"{bundle.path}: trained for the gegner side, plays the runner side"]


def _history(trained: Any) -> list[tuple[list[str], Any, list[str], int]]:
    return [
        (p.scenarios, None if p.generated is None else (p.generated.first, p.generated.count),
         p.sides, p.frames)
        for p in trained.history
    ]  # fmt: skip


def test_a_bundle_records_every_pool_it_trained_on(scorer_run: Path, tmp_path: Path) -> None:
    """A run resumed on another pool (a curriculum) records both pools in order with
    their frames, a further resume on the same pool adds to the last one; the bundle plays
    a fight of the first pool without a warning and names both pools for one of neither."""
    runs = tmp_path / "runs"
    shutil.copytree(scorer_run, runs / "scorer-smoke")
    dach = {"scenarios": ["dach"], "sides": ["gegner"]}
    train(_config(tmp_path, total_timesteps=384, pool=dach), runs=runs, resume=True)
    run = train(_config(tmp_path, total_timesteps=512, pool=dach), runs=runs, resume=True)
    smoke = (["duell", "spiegelduell"], (0, 50), ["gegner", "runner"], 256)
    wanted = [smoke, (["dach"], None, ["gegner"], 256)]
    bundle = load_scorer_bundle(run / "bundle")
    on = bundle.manifest.trained_on
    assert on is not None and on.scenarios == ["dach"] and _history(on) == wanted
    ckpt = read_checkpoint(latest_checkpoint(run))  # type: ignore[arg-type]
    assert [p.frames for p in ckpt.state.history] == [256, 256]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _play_one_decision(ScorerAgent(bundle), load_scenario("spiegelduell"))
        _play_one_decision(ScorerAgent(bundle), load_scenario("korridor"))
    said = [str(w.message) for w in caught if issubclass(w.category, PolicyMismatchWarning)]
    assert said == [
        f"{bundle.path}: trained on 'duell', 'spiegelduell', 'dach', generated seeds 0…49; "
        "plays 'Korridor', not among them"
    ]


def _init_bundle(folder: Path, trained: dict[str, Any], *, v1: bool = False) -> Path:
    """A zero-weight scorer bundle of the smoke run's sizes, trained on ``trained``, 300
    frames; ``v1``: its manifest as written before ``history`` (format_version 1)."""
    from agents.policy.files import MANIFEST, sealed_manifest
    from agents.policy.scorer_bundle import Network, ScorerManifest

    network = Network(hidden=32, vs_hidden=8, cand_hidden=32)
    _zero_bundle(folder, network, trained, {"timesteps": 300})
    if v1:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        data["format_version"] = 1
        del data["trained_on"]["history"]
        (folder / MANIFEST).write_bytes(sealed_manifest(data, ScorerManifest))
    return folder


def _warm_run(tmp_path: Path, name: str, init: Path) -> Path:
    data = yaml.safe_load(SMOKE.read_text(encoding="utf-8"))
    data.update(name=name, init_policy=str(init), total_timesteps=64)
    data["hyperparams"].update(n_steps=32, batch_size=64)
    data["league"]["self_play"] = 0.0
    data["evaluation"]["every"] = 10_000
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return train(path, runs=tmp_path / "runs")


def test_a_warm_start_continues_the_history_of_its_bundle(tmp_path: Path) -> None:
    """``init_policy``'s pools come first in the new bundle's history, then the run's own;
    a bundle written before the history (format_version 1) still loads and counts as its
    one pool with the frames it records."""
    earlier = [{"scenarios": ["dach"], "sides": ["gegner"], "frames": 200},
               {"scenarios": ["tiefgarage"], "sides": ["runner"], "frames": 100}]  # fmt: skip
    trained = {"scenarios": ["tiefgarage"], "sides": ["runner"], "history": earlier}
    smoke = (["duell", "spiegelduell"], (0, 50), ["gegner", "runner"], 64)
    run = _warm_run(tmp_path, "warm", _init_bundle(tmp_path / "b", trained))
    on = load_scorer_bundle(run / "bundle").manifest.trained_on
    assert on is not None and _history(on) == [
        (["dach"], None, ["gegner"], 200),
        (["tiefgarage"], None, ["runner"], 100),
        smoke,
    ]
    old = _init_bundle(tmp_path / "old", {"scenarios": ["eskorte"], "sides": ["gegner"]}, v1=True)
    assert load_scorer_bundle(old).manifest.format_version == 1
    run = _warm_run(tmp_path, "warm-old", old)
    on = load_scorer_bundle(run / "bundle").manifest.trained_on
    assert on is not None and _history(on) == [(["eskorte"], None, ["gegner"], 300), smoke]


def test_a_warm_start_from_a_bundle_that_saw_a_held_out_fight_is_refused(
    tmp_path: Path,
) -> None:
    """Its weights saw 'boss' in an earlier pool: a bundle of this run, whose held_out
    names 'boss', would call that fight unseen."""
    earlier = [{"scenarios": ["duell", "boss"], "sides": ["gegner"], "frames": 200},
               {"scenarios": ["duell"], "sides": ["gegner"], "frames": 100}]  # fmt: skip
    init = _init_bundle(tmp_path / "b", {"scenarios": ["duell"], "sides": ["gegner"],
                                         "history": earlier})  # fmt: skip
    path = _config(tmp_path, init_policy=str(init))
    with pytest.raises(ConfigError, match=r"init_policy: the bundle was trained on a fight "
                       r"this run holds out \(pool 1 of its history, 200 frames, "
                       r"scenarios\.1: 'boss' is held out"):  # fmt: skip
        load_training_config(path)


def test_a_decision_above_k_in_the_pool_is_chosen_in_stages_and_an_error_names_the_fight(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A pool fight with decisions above K plays on (in stages, cwenv/envs/stages.py: no
    action is dropped, none raises); an EncodingError the encoder still raises names the
    pool's fight and side (the encoder alone names only the fighter)."""
    from agents.training.config import Pool
    from cwenv.envs.errors import EncodingError

    env = PoolEnv(Pool(scenarios=["dach"], sides=["runner"]), opponent="random", k=2)
    env.reset(seed=0)
    stages = set()
    for _ in range(50):
        info = env.step(int(np.flatnonzero(env.action_masks())[0]))[4]
        stages.add(info["stage"])
    assert {1, 2} <= stages
    inner = env._env
    assert inner is not None

    def fail(c: object) -> None:
        raise EncodingError("TURN of fighter 0 has no legal action")

    monkeypatch.setattr(inner.session, "encode", fail)
    with pytest.raises(EncodingError, match=r"pool fight dach \(runner\): TURN of fighter 0"):
        for _ in range(200):
            if env.step(int(np.flatnonzero(env.action_masks())[0]))[2]:
                env.reset()
