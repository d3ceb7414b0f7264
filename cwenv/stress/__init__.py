"""Stress-testing the rules: rule-variant sweeps, restricted-play tactic ablation and
RL exploit search (``cwenv stress``)."""
