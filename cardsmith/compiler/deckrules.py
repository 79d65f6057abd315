"""Prove, at compile time, that a game's deck rules can be met at all.

If every eligible card at its copy limit still cannot fill the minimum deck size, no
player can ever build a legal deck: that is a contradiction in the rules (CS0801),
reported where the size is declared, with the numbers that show it.

The deck block's `let` names are evaluated here too (`deck_bindings`), for the proof and
for the deck tools alike, so a name means the same whether a rule is proved or checked.
"""

from __future__ import annotations

from typing import Any

from cardsmith.compiler.static_eval import DeckValue, NotStatic, StaticEnv, as_bounds
from cardsmith.dsl import ir
from cardsmith.dsl.diagnostics import DiagnosticSink
from cardsmith.model.values import OperationError

_UNKNOWN = (NotStatic, ArithmeticError, TypeError, ValueError)


def deck_bindings(env: StaticEnv, rules: ir.DeckRules, deck: DeckValue) -> dict[str, Any]:
    """The deck block's `let` names over one deck, in order (each may read those before).

    A name whose value cannot be computed for this deck, or is `none` (the first card of
    a section the deck leaves empty), is left out: a rule that reads it is then not
    judged for this deck (NotStatic), as for any value that is not known yet.
    """
    scope: dict[str, Any] = {"deck": deck}
    out: dict[str, Any] = {}
    for binding in rules.bindings:
        try:
            value = env.eval(binding.value, scope)
        except _UNKNOWN:
            continue
        if value is not None:
            scope[binding.name] = out[binding.name] = value
    return out


def head_section(rules: ir.DeckRules) -> ir.DeckSection | None:
    """The first section when it is limited to some types and stands apart from the deck
    (a leader, a hero, the cards a deck is built around): the deck is chosen around it."""
    first = rules.sections[0] if rules.sections else None
    return first if first is not None and first.types and not first.counts_toward_size else None


def eligible_cards(game: ir.Game, env: StaticEnv, bound: dict[str, Any],
                   enough: int | None = None) -> list[tuple[ir.CardDecl, int]]:
    """Cards a main deck may hold, with each card's copy limit, given the deck's `let` names.

    A rule that reads a name missing from `bound` is not decidable at compile time
    (NotStatic). With `enough`, stops once the copy limits found add up to that many
    cards (all a satisfiability proof needs).
    """
    rules = game.deck
    assert rules is not None
    side_types = {t for s in rules.sections if not s.counts_toward_size for t in s.types}
    out: list[tuple[ir.CardDecl, int]] = []
    for card in game.cards:
        if card.type in side_types:
            continue
        scope: dict[str, Any] = {**bound, "card": card}
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
    card types (a section of leading cards is limited; the main one is not).
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
        # (a head card's value the checker faulted, e.g. a misspelt enum value, is
        # not static: its error is already reported where it is written)
        for label, bound in _head_choices(game, env):
            capacity = sum(limit for _card, limit in eligible_cards(game, env, bound, enough=low))
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


def _head_choices(game: ir.Game, env: StaticEnv) -> list[tuple[str, dict[str, Any]]]:
    """The deck's `let` names for each card that can head the deck's first section alone
    (the deck holding only that card), or for an empty deck when no section heads it."""
    rules = game.deck
    assert rules is not None
    head = head_section(rules)
    heads = [c for c in game.cards if head is not None and c.type in head.types]
    if head is None or not heads:
        return [("", deck_bindings(env, rules, DeckValue({}, 0, [])))]
    return [(card.name, deck_bindings(env, rules, DeckValue({head.name: [card]}, 0, [card])))
            for card in heads]
