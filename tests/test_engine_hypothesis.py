"""A Hypothesis stateful test: drawn legal actions never break the engine's invariants."""

from __future__ import annotations

from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from cwenv.engine.state import Combat
from tests.invariants import check_invariants
from tests.zoo import ALL_GAMES, VARIANTS

GAMES = sorted(ALL_GAMES)
OPTION_SETS = sorted(VARIANTS)


class CombatMachine(RuleBasedStateMachine):
    """Hypothesis picks the fight, the rules, the seed and every choice."""

    combat: Combat

    @initialize(
        game=st.sampled_from(GAMES),
        variant=st.sampled_from(OPTION_SETS),
        seed=st.integers(0, 2**31 - 1),
    )
    def start(self, game: str, variant: str, seed: int) -> None:
        self.combat = ALL_GAMES[game](VARIANTS[variant]).new_combat(seed)

    @precondition(lambda self: not self.combat.is_terminal())
    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        legal = self.combat.legal_actions()
        action = data.draw(st.sampled_from(legal), label="action")
        self.combat.apply(action)

    @precondition(lambda self: not self.combat.is_terminal())
    @rule(data=st.data())
    def clone_and_continue(self, data: st.DataObject) -> None:
        """A clone given the same action stays identical to the original."""
        twin = self.combat.clone()
        action = data.draw(st.sampled_from(self.combat.legal_actions()), label="action")
        self.combat.apply(action)
        twin.apply(action)
        assert twin.events == self.combat.events

    @precondition(lambda self: self.combat.is_terminal())
    @rule(seed=st.integers(0, 2**31 - 1))
    def next_fight(self, seed: int) -> None:
        """After the end, the same fight again with another seed (keeps the run going)."""
        self.combat = self.combat.game.new_combat(seed)

    @invariant()
    def holds(self) -> None:
        if hasattr(self, "combat"):
            check_invariants(self.combat)


TestCombatMachine = CombatMachine.TestCase
TestCombatMachine.settings = settings(
    max_examples=30,
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
