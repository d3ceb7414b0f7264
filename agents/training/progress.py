"""Progress lines of a training run: frames, speed, recent results, time left."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from stable_baselines3.common.callbacks import BaseCallback

from agents.training.config import TrainingConfig

WINDOW = 100
"""Episodes behind the win rate and mean reward of a line."""
EVERY_SECONDS = 60.0
MIN_SECONDS = 10.0
"""A 5 % step prints only this long after the previous line (short runs stay quiet)."""


def _clock(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


_WINNER = {"gegner": "Gegner", "runner": "Runner"}  # info["winner"] names the side so


class Progress(BaseCallback):
    """Emits a line every 5 % of the run's frames (at most one per 10 s), at least one a
    minute, and one at the end."""

    def __init__(self, cfg: TrainingConfig, emit: Callable[[str], None]) -> None:
        super().__init__()
        self.cfg = cfg
        self.emit = emit
        self.wins: deque[bool] = deque(maxlen=WINDOW)
        self.rewards: deque[float] = deque(maxlen=WINDOW)
        self.stride = max(cfg.total_timesteps // 20, 1)
        self.started = self.last = time.monotonic()
        self.first = self.next_frames = 0

    def _on_training_start(self) -> None:
        self.started = self.last = time.monotonic()
        self.first = self.num_timesteps
        self.next_frames = self.first + self.stride

    def _on_step(self) -> bool:
        for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
            if done:
                # the learner's side: the episode's (a pool of encoding 2), else the run's
                side = info.get("side", self.cfg.side)
                self.wins.append(info.get("winner") == _WINNER[side])
                episode = info.get("episode")
                if isinstance(episode, dict) and "r" in episode:
                    self.rewards.append(float(episode["r"]))
        now = time.monotonic()
        since = now - self.last
        step_due = self.num_timesteps >= self.next_frames and since >= MIN_SECONDS
        if step_due or since >= EVERY_SECONDS:
            self.emit(self.line(now))
            self.last = now
            while self.next_frames <= self.num_timesteps:
                self.next_frames += self.stride
        return True

    def _on_training_end(self) -> None:
        self.emit(self.line(time.monotonic()))

    def line(self, now: float) -> str:
        frames, total = self.num_timesteps, self.cfg.total_timesteps
        elapsed = max(now - self.started, 1e-9)
        fps = (frames - self.first) / elapsed
        eta = _clock((total - frames) / fps) if fps > 0 and frames < total else "0:00:00"
        if self.wins:
            results = (
                f"win rate {sum(self.wins) / len(self.wins):.2f}, reward "
                f"{sum(self.rewards) / max(len(self.rewards), 1):+.2f} "
                f"(last {len(self.wins)} episodes)"
            )
        else:
            results = "no episode finished yet"
        return (
            f"{self.cfg.name}: {frames:,}/{total:,} frames ({100 * frames / total:.0f} %), "
            f"{fps:,.0f} fps, {results}, ETA {eta}"
        )
