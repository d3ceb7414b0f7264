"""Der Stürmer: closes to melee and fights there.

As a game master would run it: the Stürmer charges the nearest foe (sprinting, H08, when it
cannot strike this turn), strikes with its best melee weapon, and uses Kampfmanöver when
the exact odds favour them — Festsetzen (K02, the foe is benommen: it loses its turn and
its reactions, Z02, X24) or Umreissen (K04, niedergeworfen: −2 on its defences, Z05) —
over a plain blow. Every enemy that walks past it draws a Blockadeangriff (R04) while it
has a reaction. It barely cares for cover and never drops prone (R06).
"""

from __future__ import annotations

from typing import Literal, cast

from pydantic import Field

from agents.board import Board
from agents.doctrine import Doctrine, DoctrineConfig, TurnChoices
from agents.estimates import maneuver_chance
from agents.worth import maneuver_worth
from cwenv.engine.actions import Action, ActionKind
from cwenv.engine.fighter import FighterState
from cwenv.engine.turn import _maneuver_allowed as maneuver_allowed
from cwenv.model.specs import WeaponSpec
from cwenv.model.types import Maneuver, WeaponKind

ManeuverName = Literal["Entwaffnen", "Festsetzen", "Mitzerren", "Umreissen", "Wegstossen"]


class StuermerConfig(DoctrineConfig):
    kind: Literal["stuermer"] = "stuermer"
    aim_weight: float = Field(default=0.0, ge=0, le=1, description="It charges, it does not aim.")
    maneuvers: tuple[ManeuverName, ...] = Field(
        default=("Festsetzen", "Umreissen"),
        description="Kampfmanöver it considers (K01–K05).",
        strict=False,  # a YAML list becomes the tuple; each name is still matched exactly
    )
    maneuver_weight: float = Field(default=1.0, ge=0, description="Weight on a manoeuvre's worth.")
    min_maneuver_chance: float = Field(
        default=0.3, ge=0, le=1, description="A manoeuvre must succeed at least this often."
    )
    melee_bonus: float = Field(
        default=2.0, ge=0, description="Worth of ending a move in melee reach of an enemy."
    )
    ranged_weight: float = Field(
        default=0.5, ge=0, description="Discount on shooting (it wants melee)."
    )
    sprint_value: float = Field(
        default=3.0, ge=0, description="Worth of sprinting at a foe out of reach this turn."
    )


class Stuermer(Doctrine):
    kind = "stuermer"
    default_description = (
        "Doktrin Stürmer: stürmt in den Nahkampf, Kampfmanöver und Blockadeangriffe"
    )
    config: StuermerConfig

    def __init__(self, config: StuermerConfig | None = None) -> None:
        super().__init__(config or StuermerConfig())
        self._allowed = frozenset(m for m in Maneuver if m.label in self.config.maneuvers)

    @property
    def allowed(self) -> frozenset[Maneuver]:
        """The Kampfmanöver it considers (its config's names)."""
        return self._allowed

    def target_weight(self, board: Board, t: FighterState) -> float:
        return 1.0

    def cell_bonus(self, board: Board, cell: int, acting: bool) -> float:
        reach = self._close(board)[0]
        if any(board.dist(cell, e.pos) <= reach for e in board.enemies):
            return self.config.melee_bonus
        return 0.0

    def attack_from(self, board: Board, cell: int) -> float:
        """Melee (and manoeuvres) where adjacent, discounted shots elsewhere."""
        best = super().attack_from(board, cell)
        if self._allowed:
            worth = self._close(board)[1]
            for t in board.enemies:
                if board.dist(cell, t.pos) <= 1:
                    w = worth.get(t.idx)
                    if w is None:  # the best manoeuvre on t, the same from every cell
                        w = worth[t.idx] = max(self._maneuver(board, t, m) for m in self._allowed)
                    best = max(best, w)
        return best

    def _close(self, board: Board) -> tuple[int, dict[int, float]]:
        """This decision's reach and best manoeuvre per enemy (filled as cells need it)."""
        key = ("close", id(self))
        hit = board.tables.get(key)
        if hit is None:
            hit = board.tables[key] = (max(board.me.melee_reach, 1), {})
        return cast(tuple[int, dict[int, float]], hit)

    def _maneuver(self, board: Board, t: FighterState, m: Maneuver) -> float:
        me = board.me
        if not maneuver_allowed(me, t, m):
            return 0.0
        key = ("mchance", t.idx, int(m))
        p = board.cache.get(key)
        if p is None:
            p = maneuver_chance(board, me, t, m)
            board.cache[key] = p
        if p < self.config.min_maneuver_chance:
            return 0.0
        cfg = self.config
        worth = maneuver_worth(board, me, t, m, cfg.condition_horizon, cfg.mumm_value)
        return p * worth * cfg.maneuver_weight

    def handlung_value(self, board: Board, a: Action) -> float:
        if a.kind is ActionKind.MANEUVER:
            m = a.maneuver
            if m not in self._allowed:
                return 0.0
            return self._maneuver(board, board.fighters[a.target], m)
        return super().handlung_value(board, a)

    def weapon_weight(self, board: Board, w: WeaponSpec) -> float:
        return self.config.ranged_weight if w.kind is WeaponKind.RANGED else 1.0

    def plan_first(self, board: Board, ch: TurnChoices) -> Action | None:
        """Charge: sprint first when no foe can be struck in melee this turn."""
        if ch.sprint is None or not board.enemies:
            return None
        me = board.me
        reach = max(me.melee_reach, 1)
        for cell in (me.pos, *ch.moves):
            if any(board.dist(cell, e.pos) <= reach for e in board.enemies):
                return None
        best_shot = max(
            (
                self.handlung_value(board, a)
                for a in ch.handlungen
                if a.kind in (ActionKind.ATTACK, ActionKind.DRAW, ActionKind.PICK_UP)
            ),
            default=0.0,
        )
        return ch.sprint if self.config.sprint_value >= best_shot else None
