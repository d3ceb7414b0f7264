#!/usr/bin/env bash
# Reproduces this study (run from the repository root; resumable: run again after a kill).
set -euo pipefail
D=experiments/initiative-steps-vs-passes
python $D/make_scenarios.py
ALL=$(ls $D/scenarios/*.yaml | sort | paste -sd, -)
RAPTOR=$(ls $D/scenarios/*-raptor.yaml | sort | paste -sd, -)
# 1. steps (the book, I01–I04) against passes (online rules, I10–I13) at every Reflexe level
nice -n 10 cwenv stress variants --base default --variant passes \
  --scenarios "$ALL" --agents greedy --games 2000 --seed 2026 \
  --db $D/results.sqlite --out $D/report-steps-vs-passes --jobs 2
# 2. X36 under passes: does the Raptor-Booster's +6 count for the actions per round?
#    (the passes games are the same games as in 1 and are read from the database)
nice -n 10 cwenv stress variants --base passes --variant $D/rules/passes-x36.yaml \
  --scenarios "$RAPTOR" --agents greedy --games 2000 --seed 2026 \
  --db $D/results.sqlite --out $D/report-passes-x36 --jobs 2
python $D/plot.py
