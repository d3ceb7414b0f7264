"""Help at the prompt: the advisor's proposal (the ``cwenv advise`` core), the choice Enter
takes, the short attack command ``a N``, and what a searching agent is about to spend.

Enter takes the advisor's choice; without an advisor it repeats the last choice made at
this kind of decision (the same action if it is legal again, else one of the same kind
against the same target, else one of the same kind). ``a N`` attacks target ``N`` of the
"Ziele" list with the advisor's weapon for it, or else the weapon with the highest expected
QS (the exact preview); its own Mumm prompts are answered for it (no Mumm, or Probe
verbessern with ``a N +``; a successful roll is taken), so an attack costs one input, two
when the roll failed and a reroll is possible.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cwenv.agent import Agent
from cwenv.engine.actions import Action, ActionKind, DecisionKind
from cwenv.engine.payloads import AfterRoll, BeforeRoll, CheckPurpose
from cwenv.engine.preview import preview_attack
from cwenv.engine.state import Combat
from cwenv.play.advise import Advice, advise
from cwenv.play.menu import MOVE_KINDS
from cwenv.play.prompt_odds import pct

DEFAULT_ADVISOR = "greedy"
"""The advisor of ``cwenv play`` unless ``--advisor`` names another (``cwenv advise``'s)."""
NO_ADVISOR = "none"

QUICK_KINDS = (ActionKind.ATTACK,)
"""What ``a N`` chooses from: weapon attacks (manoeuvres and hacks stay menu lines)."""


def search_budget(agent: Agent) -> str | None:
    """What a searching agent spends on one decision (its configured budget), or None for
    an agent that does not search. Read off its configuration, whatever its class."""
    config = getattr(agent, "config", None)
    iterations = getattr(config, "iterations", None)
    if isinstance(iterations, int):
        return f"{iterations} Iterationen"
    rollouts = getattr(config, "rollouts", None)
    if isinstance(rollouts, int):
        return f"{rollouts} Rollouts je Kandidat"
    return None


def searches_now(agent: Agent, c: Combat) -> str | None:
    """The budget line when ``agent`` will search this decision (a turn with a choice)."""
    d = c.decision
    if d is None or d.kind is not DecisionKind.TURN or len(c.legal_actions()) < 2:
        return None
    return search_budget(agent)


def quick_targets(
    c: Combat, legal: Sequence[Action], advised: Action | None
) -> list[tuple[int, Action]]:
    """``a N``'s list: each target of a weapon attack with the attack ``a N`` makes."""
    best: dict[int, tuple[tuple[float, float], Action]] = {}
    for action in legal:
        if action.kind not in QUICK_KINDS:
            continue
        preview = preview_attack(c, action)
        key = (preview.expected_qs, preview.hit) if preview is not None else (0.0, 0.0)
        if action == advised:
            key = (float("inf"), 0.0)  # the advisor's weapon for this target
        held = best.get(action.target)
        if held is None or key > held[0]:
            best[action.target] = (key, action)
    return [(target, action) for target, (_, action) in best.items()]


def quick_label(c: Combat, action: Action) -> str:
    """``Pistole, Treffer 52 %``: the weapon ``a N`` uses and its exact hit chance."""
    weapon = c.fighters[action.actor].weapons[action.arg].name
    preview = preview_attack(c, action)
    return f"{weapon}, Treffer {pct(preview.hit)}" if preview is not None else weapon


@dataclass
class QuickAttack:
    """An ``a N`` in progress: its attacker and whether to improve the roll."""

    actor: int
    improve: bool

    def answer(self, c: Combat, legal: Sequence[Action]) -> tuple[Action | None, bool]:
        """The answer to the pending prompt if it is this attack's own roll (and whether
        the quick attack is over)."""
        d = c.decision
        about = d.payload if d is not None else None
        if d is None or d.fighter != self.actor:
            return None, d is not None and d.kind is DecisionKind.TURN
        if not isinstance(about, BeforeRoll | AfterRoll):
            return None, d.kind is DecisionKind.TURN
        ref = about.check.attack
        if about.check.purpose is not CheckPurpose.ATTACK or ref is None:
            return None, False
        if ref.attacker != self.actor:
            return None, False
        if isinstance(about, BeforeRoll):
            want = ActionKind.PRE_IMPROVE if self.improve else ActionKind.PRE_NONE
            return _first(legal, want) or _first(legal, ActionKind.PRE_NONE), False
        if about.roll.success:
            return _first(legal, ActionKind.POST_ACCEPT), True
        return None, True  # a miss (or a Patzer): the player decides about the reroll


def _first(legal: Sequence[Action], kind: ActionKind) -> Action | None:
    return next((a for a in legal if a.kind is kind), None)


class Assistant:
    """The advisor (optional) and the memory behind Enter."""

    def __init__(self, advisor: Agent | None, seed: int = 0) -> None:
        self.advisor = advisor
        self.seed = seed
        self.last: dict[DecisionKind, Action] = {}
        self._cached: tuple[tuple[int, int], Advice] | None = None

    @staticmethod
    def _key(c: Combat) -> tuple[int, int]:
        return len(c.history), len(c.events)  # one pending decision

    def has_advice(self, c: Combat) -> bool:
        """Whether the proposal for the pending decision is known already."""
        return self._cached is not None and self._cached[0] == self._key(c)

    def advice(self, c: Combat) -> Advice | None:
        """The advisor's proposal for the pending decision (None without an advisor)."""
        if self.advisor is None or c.decision is None:
            return None
        key = self._key(c)
        if self._cached is not None and self._cached[0] == key:
            return self._cached[1]
        found = advise(c, self.advisor, top=3, seed=self.seed * 1_000_003 + len(c.history))
        self._cached = (key, found)
        return found

    def default(self, c: Combat, legal: Sequence[Action]) -> tuple[Action, str] | None:
        """The choice Enter takes, and where it comes from."""
        found = self.advice(c)
        if found is not None and found.recommended.action in legal:
            return found.recommended.action, "Vorschlag des Beraters"
        d = c.decision
        last = self.last.get(d.kind) if d is not None else None
        if last is None:
            return None
        kin = [a for a in legal if a.kind is last.kind]
        if last.kind in MOVE_KINDS:  # any other cell would be a guess
            kin = [a for a in kin if a.cell == last.cell]
        for same in (
            lambda a: a.target == last.target and a.arg == last.arg,
            lambda a: a.target == last.target,
            lambda a: True,
        ):
            match = next((a for a in kin if same(a)), None)
            if match is not None:
                return match, "wie zuletzt"
        return None


def hint_lines(found: Advice, name: str) -> list[str]:
    """``--hint``: the advisor's proposal with its reason and the next best choices."""

    def score(value: float | None) -> str:
        return f" ({found.score_kind} {value:.2f})" if value is not None else ""

    rec = found.recommended
    lines = [f"Tipp ({name}): {rec.label}{score(rec.score)}"]
    if rec.reason:
        lines.append(f"  Grund: {rec.reason}")
    for i, o in enumerate(found.alternatives, 2):
        lines.append(f"  {i}. {o.label}{score(o.score)}{' — ' + o.reason if o.reason else ''}")
    return lines
