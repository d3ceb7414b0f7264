"""Rollout policies in C++ (agents/native/rollouts.cpp; agents/native_rollouts.py)."""

from typing import Any

def greedy() -> Any:
    """agents/greedy.py's GreedyAgent as a native rollout policy (a capsule)."""
