"""What changed on one card between two versions of a game, in the card's own words.

A card is known by its name: a renamed card is one card removed and one added. The
changes come in the order a printed card reads: type, stats and properties, keywords,
copies, rules text, abilities, then flavour and art — so "Bone Archer: cost 3 → 2;
attack 1 → 2" reads like the errata a designer would write by hand.
"""

from __future__ import annotations

from collections import Counter

from cardsmith.compiler.text import ability_text, card_text, render_expr
from cardsmith.dsl import ir
from cardsmith.versions.words import ARROW, Change, same, shape, value_change


def card_changes(old_game: ir.Game, old: ir.CardDecl, new_game: ir.Game, new: ir.CardDecl) -> list[Change]:
    out: list[Change] = []
    if old.type != new.type:
        out.append(value_change("type", old.type, new.type))
    out += _values(old.stats, new.stats)
    out += _values(old.properties, new.properties)
    out += _keywords(old.keywords, new.keywords)
    if old.copies != new.copies:
        out.append(value_change("copies", old.copies, new.copies))
    out += _text(old_game, old, new_game, new)
    out += _abilities(old_game, old.abilities, new_game, new.abilities)
    if not same(old.play_condition, new.play_condition):
        out.append(value_change("play condition", old.play_condition, new.play_condition))
    for name in ("flavour", "art", "expansion"):
        a, b = getattr(old, name), getattr(new, name)
        if a != b:
            out.append(_quoted(name, a, b) if name == "flavour" else value_change(name, a, b))
    return out


def _values(old: dict[str, ir.Expr], new: dict[str, ir.Expr]) -> list[Change]:
    """Stats or properties, by name: one missing on a side reads `none`."""
    keys = list(new) + [k for k in old if k not in new]
    return [value_change(k.replace("_", " "), old.get(k), new.get(k))
            for k in keys if not same(old.get(k), new.get(k))]


def keyword_words(use: ir.KeywordUse) -> str:
    """A keyword as printed: `Ranged 2`, `Dual Wield`."""
    return use.name.replace("_", " ") + "".join(f" {render_expr(a)}" for a in use.args)


def _keywords(old: list[ir.KeywordUse], new: list[ir.KeywordUse]) -> list[Change]:
    """Keywords gained and lost; the same keyword with other arguments reads `keyword
    Ranged 2 → 3`; the same keywords in another order (a printed section each, on some
    cards) read `keywords reordered`."""
    if same(old, new):
        return []
    left = Counter(shape(k) for k in new)
    removed = []
    for k in old:
        if left[shape(k)]:
            left[shape(k)] -= 1
        else:
            removed.append(k)
    right = Counter(shape(k) for k in old)
    added = []
    for k in new:
        if right[shape(k)]:
            right[shape(k)] -= 1
        else:
            added.append(k)
    out: list[Change] = []
    for k in added:
        twin = next((r for r in removed if r.name == k.name), None)
        if twin is not None:
            removed.remove(twin)
            out.append(Change(f"keyword {k.name}", keyword_words(twin), keyword_words(k),
                              f"keyword {keyword_words(twin)} {ARROW} {keyword_words(k)}"))
        else:
            out.append(Change(f"keyword {k.name}", None, keyword_words(k), f"keyword {keyword_words(k)} added"))
    out += [Change(f"keyword {k.name}", keyword_words(k), None, f"keyword {keyword_words(k)} removed")
            for k in removed]
    if not out:
        before, after = ", ".join(map(keyword_words, old)), ", ".join(map(keyword_words, new))
        out.append(Change("keywords", before, after, "keywords reordered"))
    return out


def _quoted(name: str, old: str | None, new: str | None) -> Change:
    def q(text: str | None) -> str:
        return "none" if text is None else f'"{text}"'
    return Change(name, old, new, f"{name} {q(old)} {ARROW} {q(new)}")


def _text(old_game: ir.Game, old: ir.CardDecl, new_game: ir.Game, new: ir.CardDecl) -> list[Change]:
    """The designer's text when it changed. Generated text is told only when the card's
    own keywords and abilities did not change (they are told already): then it is the
    rules around the card — a keyword's reminder, a phrase — that reprint it."""
    if old.text is not None or new.text is not None:
        if old.text == new.text:
            return []
        gen = "(generated)"
        before = f'"{old.text}"' if old.text is not None else gen
        after = f'"{new.text}"' if new.text is not None else gen
        return [Change("text", card_text(old_game, old), card_text(new_game, new), f"text {before} {ARROW} {after}")]
    if not same(old.keywords, new.keywords) or not same(old.abilities, new.abilities):
        return []
    a, b = card_text(old_game, old), card_text(new_game, new)
    return [] if a == b else [_quoted("printed text", a, b)]


def _ability_words(game: ir.Game, a: ir.Ability) -> str:
    text = ability_text(a, {p.name: p for p in game.procedures})
    return text or (f"on {a.event}" if isinstance(a, ir.Trigger) else a.kind)


def _abilities(old_game: ir.Game, old: list[ir.Ability], new_game: ir.Game, new: list[ir.Ability]) -> list[Change]:
    """Abilities gained, lost, or rewritten (paired in order), quoted as printed."""
    if same(old, new):
        return []
    new_shapes = [shape(a) for a in new]
    old_shapes = [shape(a) for a in old]
    removed = [a for a, s in zip(old, old_shapes, strict=True) if s not in new_shapes]
    added = [a for a, s in zip(new, new_shapes, strict=True) if s not in old_shapes]
    out: list[Change] = []
    while removed and added:
        was, now = _ability_words(old_game, removed.pop(0)), _ability_words(new_game, added.pop(0))
        text = f'ability "{was}" {ARROW} "{now}"' if was != now else f'ability changed: "{now}"'
        out.append(Change("ability", was, now, text))
    for ability in added:
        now = _ability_words(new_game, ability)
        out.append(Change("ability", None, now, f'ability added: "{now}"'))
    for ability in removed:
        was = _ability_words(old_game, ability)
        out.append(Change("ability", was, None, f'ability removed: "{was}"'))
    if not out:
        out.append(Change("abilities", None, None, "abilities reordered"))
    return out
