"""The native encoder's Python side (issue #16, docs/native.md "The native encoder").

Under the native engine encoding 2's entity rows, global row and coarse map are computed
by the core (``_core.Encoder2``, src/encode2.hpp), and so are the candidates' standpoints
(their cover and distance against every entity row, and the summary over the standing
enemies) and the attacks' previews (:mod:`cwenv.envs.previews_core`), from the
Kampfrunde state that :mod:`cwenv.engine.offers_core` compiles per game, written straight
into the numpy arrays; ``CWENV_ENGINE=python`` (or a combat the core cannot take) keeps
:mod:`cwenv.envs.entities` and :mod:`cwenv.envs.candidates`, which stay the statement of
the encoding (tests/test_native_encoder.py checks both write the same bytes). What the
Kampfrunde state lacks, the encoder's static tables
(:class:`~cwenv.envs.tables.GameTables`), is handed over once per game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from cwenv.battlemap import los
from cwenv.engine.actions import HANDLUNG_KINDS, Action, ActionKind, mumm_price
from cwenv.engine.offers_core import kampf_of
from cwenv.engine.payloads import AttackPrompt
from cwenv.envs.capacity import MAX_CONDITIONS, MAX_WEAPONS
from cwenv.envs.observe import _context_fighter
from cwenv.envs.previews_core import NativePreviews
from cwenv.envs.tables import F32, SCALE_MAP, GameTables

if TYPE_CHECKING:
    from types import ModuleType

    from cwenv._core import Encoder2, Kampf
    from cwenv.engine.state import Combat


def _decision(c: Combat) -> tuple[int, bool, int, int, int, int]:
    """What entities.py ``_global`` reads off the prompt: (kind or −1, has an attack total,
    the total, the context fighter, the turn's fighter, the round)."""
    d = c.decision
    kind, has_total, total = -1, False, 0
    if d is not None:
        kind = int(d.kind)
        about = d.payload
        if isinstance(about, AttackPrompt) and about.attack.roll is not None:
            has_total, total = True, about.attack.roll.total
    return kind, has_total, total, _context_fighter(c), c.turn_fighter, c.round


def _prices() -> list[int]:
    """M01-M09: the Mumm price of every (kind, pays Mumm), at ``kind * 2 + pays`` (a price
    reads the kind and whether the action pays Mumm only; −1 past the kinds)."""
    prices = [-1] * 128
    for kind in ActionKind:
        for pays in (0, 1):
            prices[int(kind) * 2 + pays] = mumm_price(Action(kind, 0, mumm=pays))
    return prices


class NativeEncoder:
    """One game's ``_core.Encoder2``, built on first use for the core in force."""

    def __init__(
        self,
        tables: GameTables,
        n_decisions: int,
        kinds: tuple[Iterable[int], Iterable[int], Iterable[int]] | None = None,
    ) -> None:
        self.t = tables
        self.n_decisions = n_decisions
        self.kinds = kinds  # candidates.py's cell-move, odds and weapon-arg kinds
        self._built: tuple[ModuleType | None, Kampf | None, Encoder2 | None] = (None, None, None)
        self.answered = 0  # calls the core answered (the tests check it is not the reference)
        self.enabled = True  # False: always the reference (the tests' and benchmarks' twin)
        self.previews_enabled = True  # False: the previews in Python (the benchmarks' twin)
        self._previews = NativePreviews()

    def encoder(self, c: Combat) -> Encoder2 | None:
        """The native encoder for ``c``; None where the reference must encode (the Python
        engine, another game, options not the game's, a game the core cannot take)."""
        core = los._core
        if (
            core is None
            or not self.enabled
            or c.game is not self.t.game
            or c.options is not c.game.options
        ):
            return None
        compiled = kampf_of(core, c)
        if compiled is None:
            return None
        kampf = compiled.kampf
        built_core, built_kampf, built = self._built
        if built_core is core and built_kampf is kampf:
            return built
        t = self.t
        enc: Encoder2 = core.Encoder2(
            kampf,
            SCALE_MAP,
            MAX_WEAPONS,
            MAX_CONDITIONS,
            self.n_decisions,
            t.round_limit,
            sorted(int(kind) for kind in HANDLUNG_KINDS),
            list(t.exit_distance),
            len(t.exit_xy) > 0,
            list(t.doors),
            list(t.lp_max_list),
            list(t.other_static),
            [
                [(melee, reach, damage, *t.weapon_static[i][k]) for k, melee, reach, damage in rows]
                for i, rows in enumerate(t.weapon_rows)
            ],
        )
        if self.kinds is not None:
            cell_move, odds, weapon_arg = (sorted(int(k) for k in ks) for ks in self.kinds)
            enc.candidate_tables(cell_move, odds, weapon_arg, _prices())
        self._built = (core, kampf, enc)
        return enc

    def entities(
        self,
        c: Combat,
        decider: int,
        rows: Sequence[int],
        n_allies: int,
        legal: Sequence[Action],
        k: int,
        terrain: F32,
        out: tuple[F32, F32, F32, F32],
    ) -> bool:
        """Fill ``out`` (entities, entity_mask, global, map) natively; False where the
        reference must encode (nothing written)."""
        enc = self.encoder(c)
        if enc is None:
            return False
        ents, mask, glob, cmap = out
        done = enc.entities(
            c, decider, list(rows), n_allies, legal, _decision(c), k, terrain, ents, mask, glob,
            cmap,
        )  # fmt: skip
        self.answered += done
        return done

    def candidates(
        self,
        c: Combat,
        decider: int,
        rows: Sequence[int],
        legal: Sequence[Action],
        out: tuple[F32, F32, F32, F32],
    ) -> list[int] | None:
        """candidates.py ``encode`` natively but the odds, into ``out`` (candidates, kind,
        target, vs): the candidates whose previews the caller adds; None where the
        reference must encode (nothing written)."""
        enc = self.encoder(c)
        if enc is None or self.kinds is None:
            return None
        feats, kind, target, vs = out
        odds = enc.candidates(c, decider, list(rows), legal, feats, kind, target, vs)
        self.answered += odds is not None
        return odds

    @property
    def previews_answered(self) -> int:
        """Candidates whose previews the core wrote (the tests check it is not Python)."""
        return self._previews.answered

    def previews(self, c: Combat, legal: Sequence[Action], feats: F32, odds: list[int]) -> bool:
        """candidates.py ``_previews`` natively (src/previews2.cpp, previews_core.py) into
        ``feats``; False where Python must preview (nothing written)."""
        enc = self.encoder(c)
        if enc is None or not self.previews_enabled:
            return False
        return self._previews.fill(enc, c, legal, feats, odds)
