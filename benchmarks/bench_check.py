"""Benchmark: checking a 10,000-card expansion.

Prints, from one run on this machine:
  * cold check / bare Lark parse of the same text   (target <= 1.5)
  * warm re-check of unchanged files / cold check    (target <= 0.1)

"Bare Lark parse" is Lark parsing every file of the check (base game and expansion)
with cardsmith's structural grammar into an ordinary Lark tree, with Lark's own lexer
and the reference post-lexer (tests/structure_reference.py) — the cost of reading the text at all. "Cold" is the full
front end (parse, IR build with phrase resolution, semantic checks, deck
satisfiability) with no cache; "warm" is the same command with the content-hash cache
populated. The front end pauses the cyclic garbage collector while it builds (see
cardsmith/util/gcpause.py); the baseline is timed with it paused too, so neither side
gets that advantage. Each figure is the best of N repetitions.

Usage: python benchmarks/bench_check.py [--cards 10000] [--base kingdom_combat] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the reference post-lexer

from gen_expansion import generate, write
from structure_reference import bare_structure_parser

from cardsmith.compiler.api import check_game, load_game_ir, read_files
from cardsmith.compiler.loader import resolve
from cardsmith.util.gcpause import paused_gc


def best(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", type=int, default=10_000)
    parser.add_argument("--base", default="kingdom_combat")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    base = load_game_ir(args.base)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "bench_expansion"
        files = generate(base, args.cards)
        write(files, folder)
        os.environ["CARDSMITH_CACHE_DIR"] = str(Path(tmp) / "cache")
        texts = [data.decode("utf-8") for _path, data in read_files(resolve(str(folder)))]
        size = sum(len(t) for t in texts)
        bare = bare_structure_parser()

        def bare_parse() -> None:
            with paused_gc():
                for text in texts:
                    bare.parse(text if text.endswith("\n") else text + "\n")

        def cold() -> None:
            result = check_game(str(folder), use_cache=False)
            assert result.ok, [d.message for d in result.errors[:5]]

        check_game(str(folder), use_cache=True)  # populate the cache

        def warm() -> None:
            result = check_game(str(folder), use_cache=True)
            assert result.cached and result.ok

        t_bare = best(bare_parse, args.repeat)
        t_cold = best(cold, args.repeat)
        t_warm = best(warm, args.repeat)
    print(f"expansion: {args.cards} cards over {len(files) - 1} files + base '{args.base}', "
          f"{size / 1e6:.2f} MB of text")
    print(f"bare Lark parse      {t_bare:8.3f} s")
    print(f"cold check           {t_cold:8.3f} s")
    print(f"warm re-check        {t_warm:8.3f} s")
    print(f"cold / bare parse    {t_cold / t_bare:8.2f}   (target <= 1.5)")
    print(f"warm / cold          {t_warm / t_cold:8.3f}   (target <= 0.1)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
