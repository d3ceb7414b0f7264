"""The native encoder's Python side (issue #16, docs/native.md "The native encoder").

Under the native engine encoding 2's entity rows, global row and coarse map are computed
by the core (``_core.Encoder2``, src/encode2.hpp), and so are the candidates' standpoints
(their cover and distance against every entity row, and the summary over the standing
enemies), from the Kampfrunde state that :mod:`cwenv.engine.offers_core` compiles per
game, written straight into the numpy arrays; ``CWENV_ENGINE=python`` (or a combat the
core cannot take) keeps :mod:`cwenv.envs.entities` and :mod:`cwenv.envs.candidates`,
which stay the statement of the encoding (tests/test_native_encoder.py checks both write
the same bytes). What the Kampfrunde
state lacks, the encoder's static tables (:class:`~cwenv.envs.tables.GameTables`), is
handed over once per game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from cwenv.battlemap import los
from cwenv.engine.actions import HANDLUNG_KINDS, Action
from cwenv.engine.offers_core import kampf_of
from cwenv.engine.payloads import AttackPrompt
from cwenv.envs.capacity import MAX_CONDITIONS, MAX_WEAPONS
from cwenv.envs.observe import _context_fighter
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


class NativeEncoder:
    """One game's ``_core.Encoder2``, built on first use for the core in force."""

    def __init__(self, tables: GameTables, n_decisions: int) -> None:
        self.t = tables
        self.n_decisions = n_decisions
        self._built: tuple[ModuleType | None, Kampf | None, Encoder2 | None] = (None, None, None)
        self.answered = 0  # calls the core answered (the tests check it is not the reference)
        self.enabled = True  # False: always the reference (the tests' and benchmarks' twin)

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

    def standpoints(
        self,
        c: Combat,
        decider: int,
        rows: Sequence[int],
        stand: npt.NDArray[np.int64],
        vs: F32,
        feats: F32,
        col0: int,
    ) -> bool:
        """candidates.py ``_standpoints`` natively for the legal actions' standpoints
        ``stand``: their vs rows and summary columns (from ``col0``) of ``vs`` and ``feats``;
        False where the reference must encode (nothing written)."""
        enc = self.encoder(c)
        if enc is None:
            return False
        done = enc.standpoints(c, decider, list(rows), stand, vs, feats, col0)
        self.answered += done
        return done
