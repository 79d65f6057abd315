#!/usr/bin/env bash
# The whole test suite: set up a virtual environment with the test extras, then pytest.
# Extra arguments go to pytest (e.g. --runslow for the soak tests).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --quiet --disable-pip-version-check -e '.[test,studio,lsp]'
# The studio's browser tests drive the system's Chromium (Playwright cannot download its own
# here). As root with apt-get (CI), install it when missing; elsewhere those tests say why they
# skip — except under CI=true, where a missing browser fails them.
if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  (apt-get install -y -qq chromium >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq chromium >/dev/null 2>&1; }) \
    || echo "warning: could not install chromium; the studio's browser tests will not run" >&2
fi
# The VS Code extension's tests build it with npm (Node.js 20+; tests/test_vscode_extension.py).
if ! command -v npm >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  (apt-get install -y -qq nodejs npm >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq nodejs npm >/dev/null 2>&1; }) \
    || echo "warning: could not install Node.js; the VS Code extension's tests will not run" >&2
fi
exec .venv/bin/python -m pytest "$@"
