# Types of the native core (src/bind.cpp, docs/native.md), for mypy and editors.
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from cwenv.engine.actions import Action
from cwenv.engine.state import Combat
from cwenv.engine.turn import TurnFrame

ACT_NAMES: tuple[str, ...]
STATUS_NAMES: tuple[str, ...]
"""The Act members the kept state applies, in src/sync.hpp ActKind order."""

class Lines:
    """Lines of fire and terrain cover on one battle map (C01, C02)."""

    def __init__(self, width: int, height: int, terrain: bytes) -> None: ...
    @property
    def size(self) -> int: ...
    def blocked(self, opaque: bytearray, a: int, b: int) -> bool: ...
    def terrain_cover(self, opaque: bytearray, a: int, b: int) -> int: ...
    def cells(self, a: int, b: int) -> list[int]: ...
    def terrain_covers(
        self, opaque: bytearray, a: int, cells: npt.NDArray[np.int32]
    ) -> npt.NDArray[np.int8]: ...

def supercover(width: int, a: int, b: int) -> tuple[tuple[int, ...], ...]: ...

class Moves:
    """The terrain steps of one map for one MoveProfile, and the movement search over
    them (B01-B06, R04, X43, X48, X49)."""

    def __init__(
        self, width: int, height: int, offsets: list[int], edges: list[int], alternate: bool
    ) -> None: ...
    @property
    def size(self) -> int: ...
    def search(
        self,
        blocked: bytearray,
        start: int,
        budget: int,
        occupied: Iterable[int],
        passable: Iterable[int],
        guards: list[tuple[int, int, int]] | None,
        geometry: int,
        difficult: bool,
        parity: int,
        after_free: bool = True,
    ) -> Routes: ...

_RoutesState = tuple[int, int, int, bool, list[int], list[int], list[int], list[int], list[int]]

class Routes:
    """The result of one movement search (paths.py Reach)."""

    @property
    def dests(self) -> list[int]: ...
    def route(
        self, cell: int
    ) -> tuple[tuple[int, ...], int, int, int, int, int, int, tuple[int, ...]]: ...
    def __getstate__(self) -> _RoutesState: ...
    def __setstate__(self, state: _RoutesState) -> None: ...

class Kampf:
    """A compiled game description and one combat's state (src/kampf.hpp);
    cwenv/engine/offers_core.py builds it once per Game."""

    def __init__(
        self,
        lines: Lines,
        width: int,
        height: int,
        terrain: bytes,
        elevation: list[int],
        specs: list[tuple[Any, ...]],
        options: tuple[Any, ...],
        maneuvers: list[int],
        shakeable: list[tuple[int, int]],
        turn_rules: tuple[int, int, int, bool],
        spec_objects: list[Any],
        action: type,
        kinds: list[Any],
        heal: object,
        fire: str,
    ) -> None: ...
    def load(self, combat: Combat, turn: TurnFrame | None) -> bool: ...
    def handlung_actions(self, combat: Combat, fighter: int) -> list[Action] | None: ...
    def cover_against(
        self, combat: Combat, attacker: int, target: int, ranged: bool, area: bool
    ) -> tuple[int, bool, int, int] | None: ...
    def turn_actions(
        self,
        combat: Combat,
        turn: TurnFrame,
        fighter: int,
        moves: Moves,
        slow_cost: int,
        geometry: int,
    ) -> tuple[list[Action], Routes | None, Routes | None] | None: ...
    # The state kept across calls from the events (src/sync.hpp, cwenv/engine/sync_core.py).
    def sync_tables(
        self,
        classes: list[type],
        labels: dict[str, int],
        rules: tuple[bool, bool, bool, int, int, bool, bool],
        extra_action: object,
        acts: list[str],
        statuses: list[str],
    ) -> None: ...
    def sync_check(self, combat: Combat) -> str | None: ...
    def clone_state(self, token: KampfState) -> KampfState | None: ...
    sync_on: bool
    @property
    def sync_counts(self) -> tuple[int, int, int, int, int, str, int]: ...
    @property
    def state_bytes(self) -> int: ...

class KampfState:
    """One combat's native state kept across decisions (src/sync.hpp Held)."""

    def __init__(self) -> None: ...

# Test only (src/faults.hpp, tests/test_native_faults.py): plant one deviation from the
# reference ("provocation_tie", "cover_level", "melee_reach_edge", "guard_reach",
# "extra_action_twice", "living_cover_tie", "sync_lp", "last_reaction", "sync_aim",
# "plan_prone" or "strike_armour"), and take it back.
def _fault(name: str) -> None: ...
def _faults_off() -> None: ...

class Pcg32:
    """PCG32 (XSH-RR 64/32) seeded as cwenv/rules/stream.py; W10s without bias."""

    def __init__(self, seed: int) -> None: ...
    @staticmethod
    def from_srandom(initstate: int, initseq: int) -> Pcg32: ...
    @staticmethod
    def from_state(state: int, inc: int) -> Pcg32: ...
    @property
    def state(self) -> int: ...
    @property
    def inc(self) -> int: ...
    def next_u32(self) -> int: ...
    def bounded(self, bound: int) -> int: ...
    def d10(self) -> int: ...
    def d10s(self, n: int) -> npt.NDArray[np.int8]: ...
    def clone(self) -> Pcg32: ...

class Encoder2:
    """Encoding 2's encoder natively (src/encode2.hpp) for one game;
    cwenv/envs/encode_core.py builds it beside the game's Kampf."""

    def __init__(
        self,
        kampf: Kampf,
        scale_map: float,
        max_weapons: int,
        n_conditions: int,
        n_decisions: int,
        round_limit: int,
        handlung_kinds: list[int],
        exit_distance: list[float],
        has_exits: bool,
        doors: list[int],
        lp_max: list[float],
        other_static: list[tuple[float, float, float, float, float]],
        weapons: list[list[tuple[bool, float, float, float, float]]],
    ) -> None: ...
    def entities(
        self,
        combat: Combat,
        decider: int,
        rows: list[int],
        n_allies: int,
        legal: Sequence[Action],
        decision: tuple[int, bool, int, int, int, int],
        k: int,
        terrain: npt.NDArray[np.float32],
        ents: npt.NDArray[np.float32],
        emask: npt.NDArray[np.float32],
        glob: npt.NDArray[np.float32],
        cmap: npt.NDArray[np.float32],
    ) -> bool: ...
    def candidate_tables(
        self, cell_move: list[int], odds: list[int], weapon_arg: list[int], prices: list[int]
    ) -> None: ...
    def candidates(
        self,
        combat: Combat,
        decider: int,
        rows: list[int],
        legal: Sequence[Action],
        feats: npt.NDArray[np.float32],
        kind: npt.NDArray[np.float32],
        target: npt.NDArray[np.float32],
        vs: npt.NDArray[np.float32],
    ) -> list[int] | None: ...
    def previews(
        self,
        combat: Combat,
        inputs: list[int],
        rules: tuple[bool, int, int, int, bool],
        chances: Callable[[int, int | None], tuple[float, float, float]],
        feats: npt.NDArray[np.float32],
    ) -> bool: ...

# Test only (tests/test_native_encoder.py): plant a deviation in the native encoder
# ("threat_edge", "vs_distance", "preview_range"), or take it back ("off").
def _encode2_fault(name: str) -> None: ...

class Prompts:
    """The prompts' legality (src/prompts.hpp), built once per Game beside its Kampf
    (cwenv/engine/prompts_core.py)."""

    def __init__(
        self,
        kampf: Kampf,
        rules: list[int],
        part_condition: int,
        part_actionbonus: int,
        action: Callable[..., Action],
        kinds: list[Any],
        fire: object,
    ) -> None: ...
    def shakes(self, combat: Combat, order: bool, fighter: int) -> list[Action]: ...
    def pre_check(self, combat: Combat, frame: object) -> tuple[Action, ...]: ...
    def post_check(self, combat: Combat, frame: object) -> tuple[Action, ...]: ...
    def keep(self, frame: object) -> tuple[Action, ...]: ...
    def niederwerfen(self, combat: Combat, target: int, attacker: int) -> tuple[Action, ...]: ...
    def defence(
        self, combat: Combat, target: int, attacker: int, mode: int, index: int
    ) -> tuple[Action, ...]: ...
    def blockade(
        self, combat: Combat, guard: int, mover: int, start: int, end: int
    ) -> tuple[Action, ...]: ...
    def catch_fall(self, combat: Combat, fighter: int) -> tuple[Action, ...]: ...

# The Probenwert and the attack plan (src/attack_plan.hpp, cwenv/engine/plan_core.py).
_Means = tuple[int, int, bool]  # (check, modifier, Durchdringung)
_AttackSpec = tuple[list[int], int, list[_Means], list[_Means], list[tuple[int, int]]]
_PartTriple = tuple[int, int, int]  # (PartKind, ref, value)

def attack_tables(
    kampf: Kampf,
    malus_order: list[int],
    sorts: list[list[tuple[int, bool]]],
    specs: list[_AttackSpec],
    unarmed: _Means,
    maneuvers: list[int],
    rules: tuple[bool, bool, int, int, int, int, int],
) -> None: ...

_ProbeRow = tuple[int, bool, bool, bool, bool, bool]
_ProbeFields = tuple[int, int, int, bool, int, bool, bool]

def resolve_probe(rules: _ProbeRow, probenwert: int, d1: int, d2: int) -> _ProbeFields: ...
def forced_volltreffer(rules: _ProbeRow, probenwert: int) -> _ProbeFields: ...
def hit_qs(rules: _ProbeRow, attack: _ProbeFields, defence: _ProbeFields) -> int: ...
def check_parts(
    kampf: Kampf,
    combat: Combat,
    fighter: int,
    check: int,
    attack: bool,
    reaction: bool,
    defence: bool,
) -> tuple[_PartTriple, ...] | None: ...
def plan_attack(
    kampf: Kampf, combat: Combat, attacker: int, target: int, mode: int, index: int
) -> (
    tuple[
        tuple[_PartTriple, ...],
        tuple[int, bool, int, int],
        bool,
        tuple[int, ...],
        int,
        int,
        int,
    ]
    | None
): ...

# The native combat (src/combat.hpp, cwenv/native/combat.py).
class Unported(NotImplementedError):
    """A rule the native frames do not run yet."""

class CoreCombat:
    """A combat the core runs itself."""

    def __init__(
        self,
        kampf: Kampf,
        prompts: Prompts,
        start: Combat,
        setup: list[tuple[int, int, int]],
        moves: list[tuple[Moves, int, Moves, int]],
        rules: tuple[bool, int, int, bool, bool, bool, bool, int, int, int, bool, bool],
        survive: list[tuple[int, int]],
        exits: bytes,
        strike: dict[str, int],
        substitute: list[int],
        on_gain: list[int],
        crits: list[tuple[int, int, bool, int, int]],
        fumbles: list[int],
        specs: list[tuple[Any, ...]],
        victory: list[tuple[int, int, int, int]],
        zehrend: list[tuple[bool, int, int, int]],
        maneuvers: list[tuple[int, int]],
        state: int,
        inc: int,
    ) -> None: ...
    def legal(self) -> list[Action]: ...
    def apply(self, kind: int, actor: int, target: int, cell: int, arg: int, mumm: int) -> None: ...
    def clone(self) -> CoreCombat: ...
    def mirrored(self, kinds: list[str], catalogues: list[list[Any]]) -> None: ...
    def sync(self, mirror: Combat) -> None: ...
    def reimport(self, mirror: Combat) -> bool: ...
    def mark_dirty(self) -> None: ...
    def payload(self) -> tuple[Any, ...] | None: ...
    def choices(self) -> list[Action]: ...
    def frames(self) -> list[tuple[Any, ...]]: ...
    def counters(self) -> list[tuple[int, int, int]]: ...
    @property
    def queue(self) -> list[tuple[int, int]]: ...
    @property
    def turn_fighter(self) -> int: ...
    def history_from(self, start: int) -> list[tuple[int, int, int, int, int, int]]: ...
    def rollout(
        self,
        policies: list[Any],
        stop_round: int,
        stop_turns: int,
        max_steps: int,
        exact: bool = False,
    ) -> int: ...
    @property
    def deferred(self) -> bool: ...
    def choose(self, policy: Any) -> int: ...
    def restrict(self, mirror: Combat) -> None: ...
    def refresh(self) -> None: ...
    def reseed(self, state: int, inc: int) -> None: ...
    @property
    def decision(self) -> tuple[int, int, int] | None: ...
    def events_from(self, start: int) -> list[tuple[Any, ...]]: ...
    @property
    def outcome(self) -> tuple[int, int, int, int] | None: ...
    @property
    def round(self) -> int: ...
    @property
    def history(self) -> int: ...
    @property
    def forced(self) -> int: ...
    @property
    def dice_state(self) -> tuple[int, int]: ...
