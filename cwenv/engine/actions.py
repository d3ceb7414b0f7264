"""Decisions and actions: who must decide now, and what they may choose.

Every choice the rules give a player is a decision point (:class:`Decision`); the choices
are :class:`Action` values, small immutable tuples that compare and hash by value, so a
legal-action list can be searched, masked and replayed.
"""

from __future__ import annotations

from enum import Enum, IntEnum
from typing import TYPE_CHECKING, NamedTuple

from cwenv.model.types import CheckValue, Condition, Maneuver

if TYPE_CHECKING:
    from cwenv.engine.payloads import Payload


class DecisionKind(IntEnum):
    TURN = 0  # H00: movement and the Handlung of the active fighter
    ORDER = 1  # I04/I13, X16: the side picks which of its tied fighters acts
    PRE_CHECK = 2  # M02, M09 (and a declared Actionbonus, P03) before a check
    POST_CHECK = 3  # M03, M01 after a check
    KEEP = 4  # M03: which of the two results stands
    DEFEND = 5  # A02, R02, R03, A03 (with M05)
    NIEDERWERFEN = 6  # R06 when targeted
    BLOCKADE = 7  # R04
    STURZ = 8  # R05, B06
    DAMAGE = 9  # M06
    DEATH = 10  # M04
    DRAG = 11  # K03 Mitzerren: where to drag the target

    @property
    def label(self) -> str:
        return _DECISION_LABELS[self]


_DECISION_LABELS = {
    DecisionKind.TURN: "Zug",
    DecisionKind.ORDER: "Reihenfolge",
    DecisionKind.PRE_CHECK: "Mumm vor der Probe",
    DecisionKind.POST_CHECK: "Mumm nach der Probe",
    DecisionKind.KEEP: "Ergebnis wählen",
    DecisionKind.DEFEND: "Verteidigung",
    DecisionKind.NIEDERWERFEN: "Niederwerfen",
    DecisionKind.BLOCKADE: "Blockadeangriff",
    DecisionKind.STURZ: "Sturz abfangen",
    DecisionKind.DAMAGE: "Treffer wegstecken",
    DecisionKind.DEATH: "Dem Tod von der Schippe springen",
    DecisionKind.DRAG: "Mitzerren",
}


class ActionKind(IntEnum):
    # -- the turn (H00–H12, M07, M08) -----------------------------------------------------
    END_TURN = 0
    MOVE = 1  # cell
    ATTACK = 2  # target, arg = weapon
    MANEUVER = 3  # target, arg = Maneuver
    ZIELEN = 4  # target
    SPRINT = 5
    AUFSTEHEN = 6
    UPLOAD = 7  # arg = hack
    HACK = 8  # target, arg = hack
    DOOR = 9  # cell
    DRAW = 10  # arg = weapon
    PICK_UP = 11  # cell, arg = weapon
    USE_ITEM = 12  # arg = item slot in hand
    RELOAD = 13  # arg = weapon
    RUCKSACK = 14  # arg = backpack slot
    SCHWIERIG = 15  # cell: a Schwierige Bewegung
    CYBERWARE = 16  # arg = cyberware
    SHAKE = 17  # arg = Condition, with a check (H12)
    STABILISE = 18  # target (D09)
    HELFEN = 19  # target = ally (P08)
    FREE_WEAPON = 20  # arg = weapon (A08 Waffe blockiert)
    MUMM_PROBE = 21  # the forced action while benommen (Z02)
    MUMM_EXTRA_ACTION = 22  # M07
    MUMM_SHAKE = 23  # M08, arg = Condition or ZEHREND_ARG + Zehrend slot
    # -- order ------------------------------------------------------------------------
    CHOOSE_ACTOR = 24  # target = fighter
    # -- prompts --------------------------------------------------------------------------
    PRE_NONE = 25
    PRE_IMPROVE = 26  # M02
    PRE_GROSSER_WURF = 27  # M09
    POST_ACCEPT = 28
    POST_REROLL = 29  # M03
    POST_AVERT = 30  # M01
    KEEP_FIRST = 31
    KEEP_SECOND = 32
    DEFEND = 33  # arg = CheckValue, mumm = 1 for M05
    NO_DEFENCE = 34
    DROP_PRONE = 35  # mumm = 1 for M05
    STAY_UP = 36
    BLOCKADE_ATTACK = 37  # target = mover, arg = weapon, mumm = 1 for M05
    LET_PASS = 38
    CATCH_FALL = 39  # mumm = 1 for M05
    NO_CATCH = 40
    HALVE_DAMAGE = 41  # M06
    TAKE_DAMAGE = 42
    AVERT_DEATH = 43  # M04
    ACCEPT_DEATH = 44
    DRAG_TO = 45  # cell
    DRAG_STOP = 46
    PRE_ACTIONBONUS = 47  # P03, X14: claim the Actionbonus (+2) on this check

    @property
    def label(self) -> str:
        """The German name of this kind of choice (tables, statistics)."""
        return _ACTION_LABELS[self]


_ACTION_LABELS = {
    ActionKind.END_TURN: "Zug beenden",
    ActionKind.MOVE: "Bewegen",
    ActionKind.ATTACK: "Angriff",
    ActionKind.MANEUVER: "Kampfmanöver",
    ActionKind.ZIELEN: "Zielen",
    ActionKind.SPRINT: "Sprinten",
    ActionKind.AUFSTEHEN: "Aufstehen",
    ActionKind.UPLOAD: "Hack hochladen",
    ActionKind.HACK: "Hacken",
    ActionKind.DOOR: "Tür öffnen/schliessen",
    ActionKind.DRAW: "Waffe ziehen",
    ActionKind.PICK_UP: "Aufheben",
    ActionKind.USE_ITEM: "Gegenstand benutzen",
    ActionKind.RELOAD: "Nachladen",
    ActionKind.RUCKSACK: "Aus dem Rucksack holen",
    ActionKind.SCHWIERIG: "Schwierige Bewegung",
    ActionKind.CYBERWARE: "Cyberware einsetzen",
    ActionKind.SHAKE: "Zustand abschütteln (Probe)",
    ActionKind.STABILISE: "Stabilisieren",
    ActionKind.HELFEN: "Helfen",
    ActionKind.FREE_WEAPON: "Waffe freimachen",
    ActionKind.MUMM_PROBE: "Mumm-Probe (benommen)",
    ActionKind.MUMM_EXTRA_ACTION: "Zusätzliche Aktion (Mumm)",
    ActionKind.MUMM_SHAKE: "Zustand abschütteln (Mumm)",
    ActionKind.CHOOSE_ACTOR: "Reihenfolge wählen",
    ActionKind.PRE_NONE: "Kein Mumm vor der Probe",
    ActionKind.PRE_IMPROVE: "Probe verbessern",
    ActionKind.PRE_GROSSER_WURF: "Den grossen Wurf landen",
    ActionKind.POST_ACCEPT: "Ergebnis annehmen",
    ActionKind.POST_REROLL: "Probe wiederholen",
    ActionKind.POST_AVERT: "Patzer abwenden",
    ActionKind.KEEP_FIRST: "Ersten Wurf behalten",
    ActionKind.KEEP_SECOND: "Zweiten Wurf behalten",
    ActionKind.DEFEND: "Verteidigen",
    ActionKind.NO_DEFENCE: "Nicht verteidigen",
    ActionKind.DROP_PRONE: "Niederwerfen",
    ActionKind.STAY_UP: "Stehen bleiben",
    ActionKind.BLOCKADE_ATTACK: "Blockadeangriff",
    ActionKind.LET_PASS: "Vorbeilassen",
    ActionKind.CATCH_FALL: "Sturz abfangen",
    ActionKind.NO_CATCH: "Sturz nicht abfangen",
    ActionKind.HALVE_DAMAGE: "Treffer wegstecken",
    ActionKind.TAKE_DAMAGE: "Schaden nehmen",
    ActionKind.AVERT_DEATH: "Dem Tod von der Schippe springen",
    ActionKind.ACCEPT_DEATH: "Den Tod annehmen",
    ActionKind.DRAG_TO: "Mitzerren nach",
    ActionKind.DRAG_STOP: "Mitzerren beenden",
    ActionKind.PRE_ACTIONBONUS: "Actionbonus nehmen",
}
if set(_ACTION_LABELS) != set(ActionKind):  # a new kind needs its German name here
    raise ImportError(
        "ActionKind without a label: "
        + ", ".join(k.name for k in ActionKind if k not in _ACTION_LABELS)
    )


HANDLUNG_KINDS = frozenset(
    {
        ActionKind.ATTACK,
        ActionKind.MANEUVER,
        ActionKind.ZIELEN,
        ActionKind.SPRINT,
        ActionKind.AUFSTEHEN,
        ActionKind.UPLOAD,
        ActionKind.HACK,
        ActionKind.DOOR,
        ActionKind.DRAW,
        ActionKind.PICK_UP,
        ActionKind.USE_ITEM,
        ActionKind.RELOAD,
        ActionKind.RUCKSACK,
        ActionKind.SCHWIERIG,
        ActionKind.CYBERWARE,
        ActionKind.SHAKE,
        ActionKind.STABILISE,
        ActionKind.HELFEN,
        ActionKind.FREE_WEAPON,
        ActionKind.MUMM_PROBE,
    }
)
"""Turn actions that use up the Handlung (H00)."""

_K = ActionKind
_PROMPT_ANSWERS: dict[DecisionKind, frozenset[ActionKind]] = {
    DecisionKind.ORDER: frozenset({_K.CHOOSE_ACTOR}),
    DecisionKind.PRE_CHECK: frozenset(
        {_K.PRE_NONE, _K.PRE_IMPROVE, _K.PRE_GROSSER_WURF, _K.PRE_ACTIONBONUS}
    ),
    DecisionKind.POST_CHECK: frozenset({_K.POST_ACCEPT, _K.POST_REROLL, _K.POST_AVERT}),
    DecisionKind.KEEP: frozenset({_K.KEEP_FIRST, _K.KEEP_SECOND}),
    DecisionKind.DEFEND: frozenset({_K.DEFEND, _K.NO_DEFENCE}),
    DecisionKind.NIEDERWERFEN: frozenset({_K.DROP_PRONE, _K.STAY_UP}),
    DecisionKind.BLOCKADE: frozenset({_K.BLOCKADE_ATTACK, _K.LET_PASS}),
    DecisionKind.STURZ: frozenset({_K.CATCH_FALL, _K.NO_CATCH}),
    DecisionKind.DAMAGE: frozenset({_K.HALVE_DAMAGE, _K.TAKE_DAMAGE}),
    DecisionKind.DEATH: frozenset({_K.AVERT_DEATH, _K.ACCEPT_DEATH}),
    DecisionKind.DRAG: frozenset({_K.DRAG_TO, _K.DRAG_STOP}),
}
_unanswered = [
    d.name for d in DecisionKind if d not in _PROMPT_ANSWERS and d is not DecisionKind.TURN
]
if _unanswered:  # a new prompt needs the choices that answer it listed above
    raise ImportError("DecisionKind without answers in actions.py: " + ", ".join(_unanswered))
_M08_AT = frozenset(d for d in DecisionKind if d is not DecisionKind.ORDER)
DECISIONS_OF: dict[ActionKind, frozenset[DecisionKind]] = {
    kind: _M08_AT
    if kind is ActionKind.MUMM_SHAKE
    else frozenset(d for d, kinds in _PROMPT_ANSWERS.items() if kind in kinds)
    or frozenset({DecisionKind.TURN})
    for kind in ActionKind
}
"""The decisions each kind of choice answers: a kind listed for no prompt is a turn
choice; M08 answers the turn and, under X38 'sofort', every prompt but ORDER."""


class ArgKind(Enum):
    """What an action's ``arg`` names. Each kind of action gives it at most one meaning
    (:data:`ARG_OF`), read through the accessor of that name (``action.weapon``,
    ``action.condition`` …), which refuses a kind whose ``arg`` means something else."""

    NONE = "none"
    WEAPON = "weapon"  # the actor's weapon slot
    MANEUVER = "maneuver"  # a Maneuver (K01–K05)
    HACK = "hack"  # the actor's hack slot
    ITEM = "item"  # the item slot in hand
    BACKPACK = "backpack"  # the backpack slot (H06)
    CYBERWARE = "cyberware"  # the actor's cyberware slot
    CONDITION = "condition"  # a Condition (H12, M08), or a Zehrend (M08, ZEHREND_ARG)
    SKILL = "skill"  # the CheckValue a defence is rolled with (A03)


_A = ArgKind
_ARG_KINDS = {
    _A.WEAPON: (
        ActionKind.ATTACK,
        ActionKind.DRAW,
        ActionKind.PICK_UP,
        ActionKind.RELOAD,
        ActionKind.FREE_WEAPON,
        ActionKind.BLOCKADE_ATTACK,
    ),
    _A.MANEUVER: (ActionKind.MANEUVER,),
    _A.HACK: (ActionKind.UPLOAD, ActionKind.HACK),
    _A.ITEM: (ActionKind.USE_ITEM,),
    _A.BACKPACK: (ActionKind.RUCKSACK,),
    _A.CYBERWARE: (ActionKind.CYBERWARE,),
    _A.CONDITION: (ActionKind.SHAKE, ActionKind.MUMM_SHAKE),
    _A.SKILL: (ActionKind.DEFEND,),
}
ARG_OF: dict[ActionKind, ArgKind] = {
    kind: next((arg for arg, kinds in _ARG_KINDS.items() if kind in kinds), _A.NONE)
    for kind in ActionKind
}
"""The one meaning of ``Action.arg`` for each kind of action (NONE: it stays −1)."""


ZEHREND_ARG = 8
"""M08 ends a Zehrend too (X55): a MUMM_SHAKE's arg from here on names one, as ZEHREND_ARG
+ its position in ``FighterState.zehrend``; below it a :class:`Condition` (7 today). The
condition index holds 16 values (the env's ``MAX_CONDITIONS``), so the first
:data:`ZEHREND_SLOTS` Zehrend kinds a fighter holds can be shaken."""
ZEHREND_SLOTS = 8
if max(Condition) >= ZEHREND_ARG:  # a new condition needs ZEHREND_ARG (and the index) moved
    raise ImportError("Condition values reach ZEHREND_ARG in actions.py")


class ActionArgError(ValueError):
    """An accessor asked an action for an ``arg`` its kind does not carry."""


class Action(NamedTuple):
    """One choice. Unused fields are −1 (0 for ``mumm``).

    ``arg`` is the one thing besides target and cell a choice names; what it names depends
    on the kind (:data:`ARG_OF`: a weapon slot, a :class:`Maneuver`, a hack slot, an item
    or backpack or cyberware slot, a :class:`Condition`, a defence's :class:`CheckValue`).
    Code reads it through the accessor of its meaning, which checks the kind.
    """

    kind: ActionKind
    actor: int
    target: int = -1
    cell: int = -1
    arg: int = -1
    mumm: int = 0

    def _arg(self, meaning: ArgKind) -> int:
        if ARG_OF[self.kind] is not meaning:
            raise ActionArgError(
                f"{self.kind.name} carries no {meaning.value} "
                f"(its arg is {ARG_OF[self.kind].value})"
            )
        return self.arg

    @property
    def weapon(self) -> int:
        """The actor's weapon slot (ATTACK, DRAW, PICK_UP, RELOAD, FREE_WEAPON, BLOCKADE)."""
        return self._arg(_A.WEAPON)

    @property
    def maneuver(self) -> Maneuver:
        """The Kampfmanöver of a MANEUVER action (K01–K05)."""
        return Maneuver(self._arg(_A.MANEUVER))

    @property
    def hack(self) -> int:
        """The actor's hack slot (UPLOAD, HACK)."""
        return self._arg(_A.HACK)

    @property
    def item(self) -> int:
        """The item slot in hand (USE_ITEM)."""
        return self._arg(_A.ITEM)

    @property
    def backpack_slot(self) -> int:
        """The backpack slot (RUCKSACK, H06)."""
        return self._arg(_A.BACKPACK)

    @property
    def cyberware(self) -> int:
        """The actor's cyberware slot (CYBERWARE)."""
        return self._arg(_A.CYBERWARE)

    @property
    def condition(self) -> Condition:
        """The condition shaken off (SHAKE, H12; MUMM_SHAKE, M08); refuses an arg that
        names a Zehrend (:attr:`zehrend_slot`)."""
        arg = self._arg(_A.CONDITION)
        if arg >= ZEHREND_ARG:
            raise ActionArgError(
                f"{self.kind.name} arg {arg} names Zehrend {arg - ZEHREND_ARG}, no condition"
            )
        return Condition(arg)

    @property
    def zehrend_slot(self) -> int | None:
        """The position in ``FighterState.zehrend`` of the Zehrend a MUMM_SHAKE ends (M08,
        X55); None when its arg names a condition."""
        arg = self._arg(_A.CONDITION)
        return arg - ZEHREND_ARG if arg >= ZEHREND_ARG else None

    @property
    def skill(self) -> CheckValue:
        """The value a DEFEND is rolled with (A03)."""
        return CheckValue(self._arg(_A.SKILL))


class Decision(NamedTuple):
    """A pending decision: its kind, the fighter who decides, for prompts the choices, and
    what it is about.

    ``actions`` is None for TURN decisions, whose choices are computed by the turn
    legality function; prompts carry their (few) choices ready-made. ``payload`` is the
    frozen record of the situation (:mod:`cwenv.engine.payloads`: the attack a defence
    answers, the check a Mumm prompt belongs to, the damage rolled …), of the type
    ``PAYLOAD_OF[kind]``.
    """

    kind: DecisionKind
    fighter: int
    actions: tuple[Action, ...] | None = None
    payload: Payload | None = None


def mumm_price(action: Action) -> int:
    """The Mumm an action costs (M01–M09), read off
    :data:`cwenv.engine.tables.mumm.MUMM_SPENDS` (imported here late: the table needs the
    action kinds defined above)."""
    from cwenv.engine.tables.mumm import mumm_price as price

    return price(action)
