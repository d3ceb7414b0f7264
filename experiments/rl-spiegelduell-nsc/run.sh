#!/usr/bin/env bash
# Study rl-spiegelduell-nsc (issue #6): train, export and evaluate the mirrored-duel policy.
# Usage from the repository root:  bash experiments/rl-spiegelduell-nsc/run.sh [train|eval|all]
# `eval` needs the exported bundle in agents/policies/spiegelduell-nsc.
set -euo pipefail
HERE=experiments/rl-spiegelduell-nsc
POLICY=policy:agents/policies/spiegelduell-nsc
step=${1:-all}

if [[ $step == train || $step == all ]]; then
  python experiments/rl-duell-nsc/imitate.py configs/training/spiegelduell-nsc.yaml \
    --teacher schuetze --opponents schuetze,schuetze,taktiker,stuermer --games 600
  cwenv train configs/training/spiegelduell-nsc.yaml --resume
  # the best point of the in-training curve (curve.csv): 100k frames
  cwenv export runs/spiegelduell-nsc --out agents/policies/spiegelduell-nsc --checkpoint 100000
fi

sim() {  # sim RUNNER NSC GAMES -> results/R-<runner>_N-<nsc>.json (N-policy for the bundle)
  local name=$2; [[ $2 == "$POLICY" ]] && name=policy
  cwenv simulate spiegelduell --runners "$1" --nscs "$2" --games "$3" --seed 1 --json \
    > "$HERE/results/R-$1_N-$name.json"
}

if [[ $step == eval || $step == all ]]; then
  for nsc in schuetze stuermer taktiker "$POLICY"; do sim schuetze "$nsc" 2000; done
  for runner in stuermer taktiker random; do
    for nsc in schuetze stuermer taktiker "$POLICY"; do sim "$runner" "$nsc" 500; done
  done
  for nsc in schuetze "$POLICY"; do sim mcts-spiegel "$nsc" 100; done
  python experiments/rl-duell-nsc/summarize.py --results "$HERE/results" \
    schuetze stuermer taktiker random mcts-spiegel
fi
