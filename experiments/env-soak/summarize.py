"""Add up the ten range summaries of the env soak (``run.sh``) into ``summary.json``.

Exits 1 unless all ten ranges are present, every episode ended (terminated or truncated)
and no check failed.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
RANGES = 10


def main() -> int:
    parts = [json.loads((HERE / f"range-{k}.json").read_text()) for k in range(RANGES)]
    winners: Counter[str] = Counter()
    for part in parts:
        winners.update(part["winners"])
    total = {
        "episodes": sum(p["episodes"] for p in parts),
        "errors": sum(p["errors"] for p in parts),
        "terminated": sum(p["terminated"] for p in parts),
        "truncated": sum(p["truncated"] for p in parts),
        "steps": sum(p["steps"] for p in parts),
        "max_episode_steps": max(p["max_episode_steps"] for p in parts),
        "winners": dict(sorted(winners.items())),
    }
    (HERE / "summary.json").write_text(json.dumps(total, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps({k: v for k, v in total.items() if k != "winners"}))
    ended = total["terminated"] + total["truncated"] == total["episodes"]
    return 0 if total["episodes"] == RANGES * 1000 and not total["errors"] and ended else 1


if __name__ == "__main__":
    sys.exit(main())
