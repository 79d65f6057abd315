"""Generate a large, valid expansion for a base game, for benchmarks.

The generator reads the base game's checked IR — its card types, stat schemas, enums and
keywords — so the cards it writes are valid for whichever game is named, and exercise
the checker realistically: stats, enum properties, keywords with arguments, rules text,
flavour, and for a share of the cards a small effect block using the base game's own
phrases.
"""

from __future__ import annotations

import random
from pathlib import Path

from cardsmith.dsl import ir

ADJECTIVES = ["Iron", "Silent", "Burning", "Hollow", "Gilded", "Storm", "Ashen", "Verdant", "Grim",
              "Radiant", "Crimson", "Frost", "Shadow", "Golden", "Wild", "Ancient"]
NOUNS = ["Warden", "Lancer", "Bastion", "Herald", "Raider", "Oracle", "Sentinel", "Marauder",
         "Keep", "Ballad", "Pact", "Banner", "Charm", "Vanguard", "Harbinger", "Forge"]


def _value(field: ir.FieldDef, enums: dict[str, ir.EnumDecl], rng: random.Random) -> str | None:
    if field.type == "number":
        return str(rng.randint(0, 9))
    if field.type == "text":
        return '"' + rng.choice(NOUNS) + '"'
    if field.type == "bool":
        return rng.choice(["yes", "no"])
    if field.type == "dice":
        return rng.choice(["d4", "d6", "d8"])
    enum = enums.get(field.type)
    if enum is not None and enum.values:
        return rng.choice(enum.values).name
    return None


VARIABLES = ["c", "u", "x", "foe", "ally", "it_card", "other", "pick", "mark", "piece"]
COMPARISONS = ["<", "<=", ">", ">=", "==", "!="]


def _effect(game: ir.Game, rng: random.Random) -> list[str]:
    """One to three varied statements built from the base game's own vocabulary.

    Numbers, variable names, stats, zones, counters and statuses are all drawn at random,
    so the statements are as varied as a real expansion's and no cache can win by
    repetition.
    """
    player_counters = [c.name for c in game.counters if c.scope == "player"]
    card_counters = [c.name for c in game.counters if c.scope == "card"]
    statuses = [st.name for st in game.statuses]
    zones = [f"your {z.name}" if z.scope == "player" else z.name for z in game.zones if not z.stack]
    stats = sorted({f.name for t in game.cardtypes for f in t.stats if f.type == "number"}) or ["id"]
    nouns = [t.plural for t in game.cardtypes] + ["cards"]
    lines: list[str] = []
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(5)
        var = rng.choice(VARIABLES)
        zone = rng.choice(zones) if zones else "none"
        stat = rng.choice(stats)
        if kind == 0 and player_counters:
            lines.append(f"gain {rng.randint(1, 4)} {rng.choice(player_counters)}")
        elif kind == 1 and card_counters:
            lines.append(f"for each {var} in all {rng.choice(nouns)} in {zone} where it.{stat} "
                         f"{rng.choice(COMPARISONS)} {rng.randint(0, 9)} {{")
            lines.append(f"  increase {var}.{rng.choice(card_counters)} by {rng.randint(1, 3)}")
            lines.append("}")
        elif kind == 2 and player_counters:
            lines.append(f"if count(all {rng.choice(nouns)} in {zone}) {rng.choice(COMPARISONS)} "
                         f"{rng.randint(0, 6)} {{")
            lines.append(f"  gain {rng.randint(1, 3)} {rng.choice(player_counters)}")
            lines.append("}")
        elif kind == 3 and statuses:
            lines.append(f"choose {var} from target {rng.choice(nouns)} in {zone} where it.{stat} "
                         f"{rng.choice(COMPARISONS)} {rng.randint(0, 9)}")
            lines.append(f"set {var}.{rng.choice(statuses)} to {rng.choice(['yes', 'no'])}")
        else:
            lines.append(f"let {var} = sum(all {rng.choice(nouns)} in {zone}, {stat}) + {rng.randint(0, 5)}")
            lines.append(f'say "{rng.choice(ADJECTIVES)} {rng.choice(NOUNS).lower()}"')
    return lines


def generate(game: ir.Game, count: int, seed: int = 7, per_file: int = 1000) -> dict[str, str]:
    """Return {file name: text} for an expansion of `count` cards."""
    rng = random.Random(seed)
    enums = {e.name: e for e in game.enums}
    types = [t for t in game.cardtypes if t.name]
    keywords = [k for k in game.keywords if k.span.file != "<core>/core.cards"]
    files: dict[str, str] = {
        "expansion.cards": (f'expansion "Benchmark {count}" {{\n  base: {game.game.id}\n'
                            '  version: "0.0.1"\n}\n')
    }
    chunk: list[str] = []
    index = 0
    for n in range(count):
        ctype = types[n % len(types)]
        name = f"{rng.choice(ADJECTIVES)} {rng.choice(NOUNS)} {n}"
        lines = [f'card "{name}" {{', f"  type: {ctype.name}"]
        for f in (*ctype.stats, *ctype.properties):
            if f.default is not None and rng.random() < 0.3:
                continue
            value = _value(f, enums, rng)
            if value is not None:
                lines.append(f"  {f.name}: {value}")
        usable = [k for k in keywords if all(p.type == "number" or p.default is not None for p in k.params)]
        if usable and rng.random() < 0.6:
            picks = rng.sample(usable, k=min(len(usable), rng.randint(1, 2)))
            uses = []
            for k in picks:
                args = " ".join(str(rng.randint(1, 3)) for p in k.params if p.default is None)
                uses.append(f"{k.name} {args}".strip())
            lines.append("  keywords: " + ", ".join(uses))
        lines.append(f'  flavour: "Forged in the {rng.choice(ADJECTIVES).lower()} age."')
        if rng.random() < 0.3:
            lines.append("  effect {")
            lines.extend("    " + line for line in _effect(game, rng))
            lines.append("  }")
        else:
            lines.append(f'  text: "When this enters play, gain {rng.randint(1, 3)}."')
        lines.append("}")
        chunk.append("\n".join(lines))
        if len(chunk) == per_file:
            files[f"cards_{index:03d}.cards"] = "\n\n".join(chunk) + "\n"
            chunk = []
            index += 1
    if chunk:
        files[f"cards_{index:03d}.cards"] = "\n\n".join(chunk) + "\n"
    return files


def write(files: dict[str, str], folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.cards"):
        old.unlink()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
