#!/usr/bin/env bash
# Reproduces this study (run from the repository root; resumable: run again after a kill).
set -euo pipefail
D=experiments/zielen-and-reactions
# 1. X03, Zielen: the aiming Schütze (Runner side) against the greedy baseline, which never
#    aims; zielen-entfesselt is the planted degenerate reference, not a reading of the text
nice -n 10 cwenv stress variants --base default \
  --variant zielen-stapelbar --variant $D/rules/zielen-unbegrenzt.yaml \
  --variant $D/rules/zielen-rundenende.yaml --variant $D/rules/zielen-bewegung.yaml \
  --variant $D/rules/zielen-entfesselt.yaml \
  --scenarios $D/scenarios/fernduell.yaml --agents schuetze,greedy --games 2000 --seed 2026 \
  --db $D/results.sqlite --out $D/report-zielen --jobs 2
# 2. X01, reactions per round: greedy on both sides (always defends while it can), 1 vs 1
#    and 1 vs 3, where three attackers spend the lone Runner's reactions
nice -n 10 cwenv stress variants --base default \
  --variant reaktionen-grundwert --variant $D/rules/reaktionen-reflexe.yaml \
  --scenarios $D/scenarios/fernduell.yaml,$D/scenarios/uebermacht.yaml --agents greedy \
  --games 2000 --seed 2026 --db $D/results.sqlite --out $D/report-reaktionen --jobs 2
# 3. The same with the Runner never defending (restricted play, VERTEIDIGEN forbidden):
#    what defending is worth under each reading (paired with 2 game by game)
nice -n 10 cwenv stress variants --base default \
  --variant reaktionen-grundwert --variant $D/rules/reaktionen-reflexe.yaml \
  --scenarios $D/scenarios/uebermacht.yaml --agents 'greedy!VERTEIDIGEN,greedy' \
  --games 2000 --seed 2026 --db $D/results.sqlite --out $D/report-ohne-verteidigung --jobs 2
# 4. What aiming itself is worth: the Schütze with Zielen forbidden, default rules
nice -n 10 cwenv simulate $D/scenarios/fernduell.yaml --runners 'schuetze!ZIELEN' \
  --nscs greedy --games 2000 --seed 2026 --jobs 2 --json --no-progress > $D/ohne-zielen.json
