"""Benchmark: validating 10,000 Kingdom Combat decklists.

Prints, from one run on this machine (CPU time of this process, time.process_time):
  * decks per second of `check_decklist` (the generic checker: parse the text, resolve
    names, evaluate the game's `deck { }` rules, build diagnostics with hints), and its
    ratio to the target of issue 18 (10,000 decklists per second);
  * the split between its two stages: parsing the text (`parse_decklist`) and checking
    the parsed decklist against the rules (`validate`), each timed on its own;
  * the same for a BASELINE: a minimal hand-written Python check of the same Kingdom
    Combat rules (fortress count and factions, faction/Mercenary, border limits, size,
    garrison budget and 0-cost units) on the same decklist texts, with no diagnostics,
    no hints and no tolerance beyond case — the least work that answers "legal?";
  * generic time / baseline time, and how often both agree on legal/illegal.

The decklists are random: about half legal, the rest with the mistakes players make
(a card over its border limit, a card of another faction, a token, too few cards, an
over-budget garrison). The game is loaded once before timing (its deck rules compiled
once, as a process checking decklists does); the checker's memories (per-card rule
verdicts, where a line goes, what a line of text means) start empty in every
repetition. Each figure is the least CPU time of N repetitions.

With --profile N, also prints the N functions the checker spends most time in (cProfile,
one more run; its times are inflated by the profiler, only their shares matter).

Usage: python benchmarks/bench_decks.py [--decks 10000] [--repeat 3] [--seed 1] [--profile N]
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardsmith.decks.decklist import forget_lines, parse_decklist
from cardsmith.decks.games import GameContext, game_context
from cardsmith.decks.validate import check_decklist, validate

TARGET = 10_000  # decklists per second (issue 18)

COPIES = {"gold": 1, "silver": 2, "black": 4, "green": 0}


def card_table(ctx: GameContext) -> dict[str, dict[str, Any]]:
    """name → the printed values the baseline needs (read once, outside the timing)."""
    table: dict[str, dict[str, Any]] = {}
    for card in ctx.game.cards:
        table[card.name.lower()] = {
            "type": card.type,
            **{k: (str(v) if v is not None and not isinstance(v, int) else v)
               for k in ("faction", "border", "cost", "starting_gold")
               for v in [ctx.value(card, k)]},
        }
    return table


def generate(ctx: GameContext, n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    fortresses = [c for c in ctx.game.cards if c.type == "Fortress"]
    decks: list[str] = []
    for _ in range(n):
        heads = rng.sample(fortresses, 2 if rng.random() < 0.3 else 1)
        factions = {str(ctx.value(h, "faction")) for h in heads} | {"Mercenary"}
        pool = [c for c in ctx.game.cards if c.type != "Fortress" and str(ctx.value(c, "faction")) in factions
                and str(ctx.value(c, "border")) != "green"]
        in_pool = {id(c) for c in pool}
        others = [c for c in ctx.game.cards if c.type != "Fortress" and id(c) not in in_pool]
        picked: dict[str, int] = {}
        while sum(picked.values()) < 30:
            card = rng.choice(pool)
            limit = COPIES[str(ctx.value(card, "border"))]
            if picked.get(card.name, 0) < limit:
                picked[card.name] = picked.get(card.name, 0) + 1
        mistake = rng.random()
        if mistake < 0.1:
            picked[rng.choice(others).name] = 1
        elif mistake < 0.2:
            name = rng.choice(list(picked))
            picked[name] += 4
        elif mistake < 0.3:
            name = rng.choice(list(picked))
            picked[name] -= 1
        garrison: list[str] = []
        units = [name for name in picked if ctx.cards[name.lower()].type == "Unit" and picked[name] > 0]
        for name in rng.sample(units, min(len(units), rng.randint(0, 3))):
            garrison.append(name)
        lines = ["Fortress:", *(f"1 {h.name}" for h in heads)]
        if garrison:
            lines += ["Garrison:", *(f"1 {g}" for g in garrison)]
        lines += ["Deck:", *(f"{k} {name}" for name, k in picked.items() if k > 0)]
        decks.append("\n".join(lines) + "\n")
    return decks


def baseline_legal(text: str, table: dict[str, dict[str, Any]]) -> bool:
    """BASELINE: the Kingdom Combat rules written by hand for this one game."""
    sections: dict[str, list[tuple[int, dict[str, Any]]]] = {"fortress": [], "garrison": [], "deck": []}
    section = "deck"
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.endswith(":"):
            section = line[:-1].strip().lower()
            if section not in sections:
                return False
            continue
        count_text, _, name = line.partition(" ")
        if not count_text.isdigit():
            count_text, name = "1", line
        card = table.get(name.strip().lower())
        if card is None:
            return False
        sections[section].append((int(count_text), card))
    heads = [c for n, c in sections["fortress"] for _ in range(n)]
    if not 1 <= len(heads) <= 2 or any(c["type"] != "Fortress" for c in heads):
        return False
    if len(heads) == 2 and heads[0]["faction"] == heads[1]["faction"]:
        return False
    factions = {c["faction"] for c in heads}
    totals: dict[int, int] = {}
    size = 0
    for n, card in sections["deck"]:
        if card["type"] == "Fortress" or card["border"] == "green":
            return False
        if card["faction"] not in factions and card["faction"] != "Mercenary":
            return False
        totals[id(card)] = totals.get(id(card), 0) + n
        if totals[id(card)] > COPIES[card["border"]]:
            return False
        size += n
    if size < 30:
        return False
    budget = heads[0]["starting_gold"]
    spent = 0
    used: dict[int, int] = {}
    for n, card in sections["garrison"]:
        if card["type"] != "Unit" or card["cost"] == 0:
            return False
        used[id(card)] = used.get(id(card), 0) + n
        if used[id(card)] > totals.get(id(card), 0):
            return False
        spent += n * card["cost"]
    return bool(spent <= budget)


def best(fn: Any, repeat: int) -> tuple[float, Any]:
    """The least CPU time of `repeat` runs (other processes on the machine do not count)."""
    times, result = [], None
    for _ in range(repeat):
        start = time.process_time()
        result = fn()
        times.append(time.process_time() - start)
    return min(times), result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decks", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", type=int, default=0, metavar="N")
    args = parser.parse_args()

    ctx = game_context("kingdom_combat")
    table = card_table(ctx)
    decks = generate(ctx, args.decks, args.seed)

    def cold() -> None:
        # every per-game memory of the checker starts empty in each repetition: the
        # per-card rule verdicts, where a (header, card) line goes, what a line of text means
        ctx.memo.clear()
        ctx.plan.placed.clear()
        forget_lines()

    def generic() -> list[bool]:
        cold()
        return [check_decklist(f"d{i}.deck", text, ctx).ok for i, text in enumerate(decks)]

    def baseline() -> list[bool]:
        return [baseline_legal(text, table) for text in decks]

    names = [s.name for s in ctx.rules.sections]

    def parse_only() -> int:
        forget_lines()
        # (results dropped as they come, as check_decklist drops them: keeping 10,000 parsed
        # decklists alive would bill this stage for the garbage collector scanning them)
        return sum(len(parse_decklist(f"d{i}.deck", text, names).lines) for i, text in enumerate(decks))

    parsed = [parse_decklist(f"d{i}.deck", text, names) for i, text in enumerate(decks)]
    gc.freeze()  # (the same for the parsed decklists the validate stage reads)

    def validate_only() -> list[bool]:
        cold()
        return [validate(p, ctx).ok for p in parsed]

    t_generic, verdicts = best(generic, args.repeat)
    t_parse, _ = best(parse_only, args.repeat)
    t_validate, _ = best(validate_only, args.repeat)
    t_base, base_verdicts = best(baseline, args.repeat)
    agree = sum(a == b for a, b in zip(verdicts, base_verdicts, strict=True))
    n = len(decks)
    print(f"{n} Kingdom Combat decklists, {sum(verdicts)} legal; CPU time, best of {args.repeat}")
    print(f"generic checker        {t_generic:8.3f} s   {n / t_generic:10.0f} decks/s")
    print(f"  target {TARGET}/s      {n / t_generic / TARGET:8.2f}x of the target")
    print(f"  stage: parse         {t_parse:8.3f} s   {n / t_parse:10.0f} decks/s   "
          f"({100 * t_parse / (t_parse + t_validate):.0f}% of parse + validate)")
    print(f"  stage: validate      {t_validate:8.3f} s   {n / t_validate:10.0f} decks/s   "
          f"({100 * t_validate / (t_parse + t_validate):.0f}%)")
    print(f"BASELINE hand-written  {t_base:8.3f} s   {n / t_base:10.0f} decks/s   (KC rules only, no diagnostics)")
    print(f"generic / baseline     {t_generic / t_base:8.2f}x time")
    print(f"verdicts agree         {agree}/{n}")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(generic)
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(args.profile)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
