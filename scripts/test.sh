#!/usr/bin/env bash
# The whole test suite: set up a virtual environment with the test extras, then pytest.
# Extra arguments go to pytest (e.g. --runslow for the soak tests).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
exec .venv/bin/python -m pytest "$@"
