"""Resumable procedures: the engine's explicit call stack.

A rule procedure that may stop for a decision (an attack waiting for the defender's
choice, a check waiting for a Mumm spend) is a :class:`Frame` with a ``stage``: where it
stands, a member of the frame's own ``IntEnum`` (``AttackStage``, ``CheckStage``,
``TurnStage`` …; 0, the first member, when it starts). Modules compare against plain
module-level aliases of the members (``_ROLL``), since looking a member up on its enum
class costs about ten times an integer comparison in the engine's inner loop.
``step(combat, value)`` runs it until it

* returns a :class:`~cwenv.engine.actions.Decision` — the combat pauses; the chosen action
  comes back as ``value`` on the next call;
* returns another :class:`Frame` — a sub-procedure runs first; its result comes back as
  ``value``;
* returns :class:`Return` — the frame is done and hands ``value`` to its caller.

Frames hold only immutable values, so a combat clones by copying each frame shallowly;
generators could not be copied, which is why the flow is not written as coroutines.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

if TYPE_CHECKING:
    from cwenv.engine.actions import Decision
    from cwenv.engine.state import Combat
    from cwenv.model.types import Condition


class Return(NamedTuple):
    value: Any = None


DONE = Return(None)


class Frame:
    __slots__ = ("stage",)
    _all_slots: ClassVar[tuple[str, ...]] = ("stage",)

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        names: list[str] = []
        for klass in reversed(cls.__mro__):
            for name in getattr(klass, "__slots__", ()):
                if name not in names:
                    names.append(name)
        cls._all_slots = tuple(names)

    def __init__(self) -> None:
        self.stage = 0

    def step(self, c: Combat, value: Any) -> Decision | Frame | Return:
        raise NotImplementedError

    def copy(self) -> Frame:
        twin = object.__new__(type(self))
        for name in self._all_slots:
            object.__setattr__(twin, name, getattr(self, name))
        return twin

    def reprompt(self, c: Combat, decision: Decision, shaken: Condition | None) -> Decision | None:
        """``decision`` again after the fighter shook ``shaken`` off at it (M08, X38; None:
        a Zehrend, X55): by
        default the same choices less those it can no longer pay for. Frames whose choices
        depend on the fighter's conditions rebuild them; ``None`` means: run the frame on
        with no answer (it then asks again itself, or goes on)."""
        from cwenv.engine.actions import mumm_price
        from cwenv.engine.checks import can_spend_mumm

        f = c.fighters[decision.fighter]
        kept = tuple(
            a
            for a in decision.actions or ()
            if not mumm_price(a) or can_spend_mumm(c, f, mumm_price(a))
        )
        return decision._replace(actions=kept)

    def describe(self) -> str:
        """A short label of what is being resolved (table-dice prompts, debugging)."""
        return type(self).__name__
