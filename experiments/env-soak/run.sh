#!/usr/bin/env bash
# 10,000 random masked episodes of cwenv/Kampfrunde-v0 in ten ranges of 1,000 (each range's
# JSON summary is kept, so an interrupted soak resumes at the first missing range).
set -euo pipefail
cd "$(dirname "$0")/../.."
SCENARIOS="boss dach duell eskorte feuergefecht flucht hinterhalt korridor strassenschlacht tiefgarage"
args=()
for s in $SCENARIOS; do args+=(--scenario "$s"); done
for k in ${RANGES:-0 1 2 3 4 5 6 7 8 9}; do
  out="experiments/env-soak/range-$k.json"
  [ -s "$out" ] && continue
  python -m cwenv.envs.soak --episodes 1000 --first $((k * 1000)) --workers 1 \
    --opponent random "${args[@]}" > "$out.tmp" 2> "experiments/env-soak/range-$k.log"
  mv "$out.tmp" "$out"
done
