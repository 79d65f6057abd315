"""Start-up of the command line: `cardsmith --version` and `--help`, against bare Python.

Prints CPU time (user + system of the child, best of N) for each, and its ratio to
`python -c pass` and to `python -c "import typer"` (the floor any typer CLI pays). The
target (issue 18) is <= 0.15 s on this machine: the CLI imports a command's modules only
when that command runs (tests/test_cli_startup.py keeps it so, without timing anything).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
from pathlib import Path

CARDSMITH = [sys.executable, "-m", "cardsmith"]


def cpu_seconds(argv: list[str], runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                       env={**os.environ, "NO_COLOR": "1"})
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    os.chdir(Path(__file__).resolve().parents[1])
    bare = cpu_seconds([sys.executable, "-c", "pass"], runs)
    typer_floor = cpu_seconds([sys.executable, "-c", "import typer"], runs)
    print(f"python -c pass:      {bare:.3f} s")
    print(f"python -c 'import typer': {typer_floor:.3f} s")
    for args in (["--version"], ["--help"]):
        t = cpu_seconds([*CARDSMITH, *args], runs)
        print(f"cardsmith {args[0]:<10} {t:.3f} s   {t / bare:5.1f}x bare python   {t / typer_floor:4.2f}x typer alone")


if __name__ == "__main__":
    main()
