"""The engine never imports Gymnasium; ``cwenv/Kampfrunde-v0`` is registered whichever of
``cwenv`` and ``gymnasium`` is imported first (issue #4)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest


def _run(code: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def test_engine_does_not_load_gymnasium() -> None:
    out = _run(
        """
        import sys
        import cwenv.engine.state, cwenv.content, cwenv.rules.odds, agents.registry
        print("gymnasium" in sys.modules, "pettingzoo" in sys.modules)
        """
    )
    assert out == "False False"


@pytest.mark.parametrize(
    "imports",
    [
        "import cwenv; import gymnasium",
        "import gymnasium; import cwenv",
        "import cwenv.engine.state; import gymnasium.spaces",
        "import cwenv.envs; import gymnasium",
    ],
)
def test_registered_in_either_import_order(imports: str) -> None:
    out = _run(
        f"""
        {imports}
        import sys, gymnasium
        env = gymnasium.make("cwenv/Kampfrunde-v0")
        obs, info = env.reset(seed=0)
        hooks = [f for f in sys.meta_path if type(f).__name__ == "_GymnasiumHook"]
        print(env.spec.id, type(gymnasium.__spec__.loader).__name__, len(hooks))
        """
    )
    assert out == "cwenv/Kampfrunde-v0 SourceFileLoader 0"


@pytest.mark.parametrize(
    "first", ["import cwenv; import gymnasium", "import gymnasium; import cwenv"]
)
def test_encoding_2_registered_with_v0_in_either_import_order(first: str) -> None:
    # issue #18: encoding 2's env is made by id like v0, without importing cwenv.envs.env2
    out = _run(
        f"""
        {first}
        import sys
        print("cwenv.envs.env2" in sys.modules)
        env = gymnasium.make("cwenv/Kampfrunde2-v0", scenario="duell", k=128)
        obs, info = env.reset(seed=1)
        mask = env.unwrapped.action_masks()
        env.step(int(mask.nonzero()[0][0]))
        print(env.spec.id, type(env.unwrapped).__name__, env.action_space.n, int(mask.sum()))
        """
    )
    before, after = out.splitlines()
    env_id, cls, n, legal = after.split()
    assert (before, env_id, cls, n) == ("False", "cwenv/Kampfrunde2-v0", "KampfrundeEnv2", "128")
    assert 0 < int(legal) <= 128


def test_module_prefix_make_without_importing_cwenv() -> None:
    out = _run(
        """
        import gymnasium
        env = gymnasium.make("cwenv:cwenv/Kampfrunde-v0", scenario="duell")
        print(type(env.unwrapped).__name__)
        """
    )
    assert out == "KampfrundeEnv"


def test_defaults_are_the_documented_ones() -> None:
    out = _run(
        """
        import gymnasium, cwenv
        from cwenv.envs.opponents import default_opponent_name
        env = gymnasium.make("cwenv/Kampfrunde-v0").unwrapped
        s = env.session
        print(len(s.game.roster), s.game.battlemap.width, s.game.battlemap.height, env.side.name,
              env.opponent_name, env.opponent_name == default_opponent_name(), s.max_steps,
              env.action_space.n)
        """
    )
    n, w, h, side, opp, same, steps, size = out.split()
    assert (n, w, h, side, same, steps, size) == ("8", "20", "14", "GEGNER", "True", "3000", "6324")
    assert opp in ("taktiker", "greedy")


def test_making_v0_is_not_called_out_of_date() -> None:
    """Encoding 2 has a name of its own: gymnasium calls a name's lower version "out of
    date" whenever a higher one is registered, and v0 is not superseded by another
    encoding (it warned on every make, so in every ``cwenv train`` run)."""
    import warnings

    import gymnasium

    import cwenv

    cwenv.register_envs()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gymnasium.make(cwenv.ENV_ID, scenario="duell")
        env.close()
