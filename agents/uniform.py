"""The uniform random baseline: every legal action equally likely."""

from __future__ import annotations

import random
from collections.abc import Sequence

from cwenv.agent import ANY_RULESET, DecisionView
from cwenv.engine.actions import Action


class RandomAgent:
    """Uniform over the legal actions."""

    name = "random"
    description = "wählt gleichverteilt unter den legalen Aktionen"
    rulesets = (ANY_RULESET,)  # it reads nothing but the legal actions: plays every ruleset

    def act(self, view: DecisionView, legal: Sequence[Action], rng: random.Random) -> Action:
        return legal[rng.randrange(len(legal))]
