"""Prove, at compile time, that a game's deck rules can be met at all.

If every eligible card at its copy limit still cannot fill the minimum deck size, no
player can ever build a legal deck: that is a contradiction in the rules (CS0801),
reported where the size is declared, with the numbers that show it.
"""

from __future__ import annotations

from typing import Any

from cardsmith.compiler.static_eval import NotStatic, StaticEnv, as_bounds
from cardsmith.dsl import ir
from cardsmith.dsl.diagnostics import DiagnosticSink
from cardsmith.values import OperationError


def eligible_cards(game: ir.Game, env: StaticEnv, factions: list[Any] | None,
                   enough: int | None = None) -> list[tuple[ir.CardDecl, int]]:
    """Cards a main deck may hold, with each card's copy limit, for the given factions.

    `factions` is None when no section heads the deck; a rule that reads it is then not
    decidable at compile time (NotStatic). With `enough`, stops once the copy limits
    found add up to that many cards (all a satisfiability proof needs).
    """
    rules = game.deck
    assert rules is not None
    side_types = {t for s in rules.sections if not s.counts_toward_size for t in s.types}
    out: list[tuple[ir.CardDecl, int]] = []
    for card in game.cards:
        if card.type in side_types:
            continue
        scope: dict[str, Any] = {"card": card}
        if factions is not None:
            scope["factions"] = factions
        if rules.excluded is not None and env.eval(rules.excluded, scope):
            continue
        if rules.allow is not None and not env.eval(rules.allow, scope):
            continue
        limit = env.eval(rules.copies, scope) if rules.copies is not None else None
        out.append((card, int(limit) if limit is not None else 10**6))
        if enough is not None:
            enough -= out[-1][1]
            if enough <= 0:
                break
    return out


def main_size(rules: ir.DeckRules) -> ir.Expr | None:
    """The main deck's size rule: `size:` of the deck, or of its main section.

    The main section is the one that counts toward the size and is not limited to some
    card types (a Fortress or Garrison section is limited; the Deck section is not).
    """
    if rules.size is not None:
        return rules.size
    for section in rules.sections:
        if section.counts_toward_size and not section.types and not section.within:
            return section.count
    return None


def check_deck_satisfiable(game: ir.Game, sink: DiagnosticSink) -> None:
    rules = game.deck
    size = main_size(rules) if rules is not None else None
    if rules is None or size is None:
        return
    env = StaticEnv(game)
    try:
        low, _high = as_bounds(env.eval(size, {}))
    except (NotStatic, OperationError):  # (a rule that fails is reported by the deck checker)
        return
    if low is None or low <= 0:
        return
    best: tuple[int, str] | None = None
    try:
        # (a head card's faction the checker faulted, e.g. a misspelt enum value, is
        # not static: its error is already reported where it is written)
        choices = _faction_choices(game, env)
        for label, factions in choices:
            capacity = sum(limit for _card, limit in eligible_cards(game, env, factions, enough=low))
            if best is None or capacity > best[0]:
                best = (capacity, label)
            if capacity >= low:
                return
    except (NotStatic, OperationError):  # (a rule that fails is reported by the deck checker)
        return
    if best is None:
        return
    capacity, label = best
    where = f" (best case: {label})" if label else ""
    sink.error(size.span, "CS0801",
               f"no legal deck exists: the rules ask for at least {low} cards but at most "
               f"{capacity} eligible cards are allowed{where}",
               "add cards, raise copy limits, or lower the minimum size")


def _faction_choices(game: ir.Game, env: StaticEnv) -> list[tuple[str, list[Any] | None]]:
    """One entry per card that can head the deck's first section (e.g. each fortress)."""
    rules = game.deck
    assert rules is not None
    first = rules.sections[0] if rules.sections else None
    if first is None or not first.types or first.counts_toward_size:
        return [("", None)]
    heads = [c for c in game.cards if c.type in first.types]
    if not heads:
        return [("", None)]
    out: list[tuple[str, list[Any] | None]] = []
    for head in heads:
        faction = env.card_value(head, "faction")
        out.append((head.name, [faction] if faction is not None else []))
    return out
