#!/usr/bin/env bash
# The main job: set up a virtual environment, install cardsmith, and check every game
# of the standard library (later issues add: build the PDFs, play a sample match).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e .
.venv/bin/cardsmith check kingdom_combat combat_cards kingdom_cards construct_and_combat two_kingdoms
