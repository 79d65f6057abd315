#!/usr/bin/env bash
# The main job: set up a virtual environment, install cardsmith, check every game of the
# standard library, build each game's print-and-play PDFs into out/, and play a sample
# match of Kingdom Combat and of Combat Cards between random agents.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --quiet --disable-pip-version-check -e .
GAMES="kingdom_combat combat_cards kingdom_cards construct_and_combat two_kingdoms"
.venv/bin/cardsmith check $GAMES
for game in $GAMES; do
  # layout warnings (text shrunk to fit, ...) go to a file; the terminal gets one line counting them
  .venv/bin/cardsmith build "$game" --out "out/$game" --warnings-to "out/$game/warnings.txt"
done
# seed 2: a sample that ends with a winner (random agents take seed 1 to the 20,000-action cap)
.venv/bin/cardsmith play kingdom_combat --seed 2 --log out/kingdom_combat/sample-match.jsonl
.venv/bin/cardsmith play combat_cards --seed 1 --log out/combat_cards/sample-match.jsonl
