"""A checked game as the deck tools need it, loaded once per process.

Everything the deck checker knows about a game comes from its IR: the `deck { }` rules,
the cards (indexed by their normalised name), and the rules' source text (quoted in
hints). Loading a game means checking it, so contexts are cached by target; the other
library games are only loaded when a decklist names a card this game lacks, to say
which game that card belongs to.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardsmith.compiler.api import CheckResult, check_game
from cardsmith.compiler.deckrules import head_section, main_size
from cardsmith.compiler.expansions import collector_numbers
from cardsmith.compiler.loader import library_games
from cardsmith.compiler.static_eval import DeckValue, StaticEnv
from cardsmith.decks.decklist import normalize_name
from cardsmith.decks.plan import DeckPlan, walk
from cardsmith.dsl import ir
from cardsmith.dsl.source import SourceFile, Span


class GameNotReady(Exception):
    """The game does not check cleanly, or declares no deck rules."""

    def __init__(self, message: str, result: CheckResult | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.result = result


@dataclass
class GameContext:
    target: str
    game: ir.Game
    rules: ir.DeckRules
    sources: dict[str, SourceFile]
    env: StaticEnv
    cards: dict[str, ir.CardDecl] = field(default_factory=dict)
    sections: dict[str, ir.DeckSection] = field(default_factory=dict)
    # per-card rule results (excluded, allowed, copies) keyed by the values of the deck's
    # `let` names those rules read (see per_card_key), then by id(card)
    memo: dict[tuple[Any, ...], dict[int, tuple[bool, bool | None, int | None]]] = field(
        default_factory=dict)
    # the `let` names the per-card rules (allow, excluded, copies) read
    per_card_names: tuple[str, ...] = ()
    _plan: DeckPlan | None = None
    _texts: dict[int, tuple[ir.Node | Span, str]] = field(default_factory=dict)

    @property
    def plan(self) -> DeckPlan:
        """The deck rules compiled for checking many decklists (built on first use)."""
        if self._plan is None:
            self._plan = DeckPlan(self.env, self.rules)
        return self._plan

    @property
    def game_id(self) -> str:
        return self.game.game.id

    @property
    def name(self) -> str:
        return self.game.game.name

    def section(self, name: str) -> ir.DeckSection | None:
        return self.sections.get(normalize_name(name))

    def main_section(self) -> ir.DeckSection | None:
        """The section that counts toward the size and is not limited to some types."""
        for s in self.rules.sections:
            if s.counts_toward_size and not s.types and s.within is None:
                return s
        for s in self.rules.sections:
            if s.counts_toward_size and s.within is None:
                return s
        return None

    def head_section(self) -> ir.DeckSection | None:
        """The first section when it is limited to some types and stands apart from the
        deck: `deck new` picks its cards first, as the compile-time proof does."""
        return head_section(self.rules)

    def bindings(self, deck: DeckValue) -> dict[str, Any]:
        """The deck block's `let` names over this deck (unknown ones left out)."""
        return self.plan.bindings(deck)

    def per_card_key(self, scope: dict[str, Any]) -> tuple[Any, ...]:
        """What a per-card verdict depends on besides the card: the values of the `let`
        names the per-card rules read, so decks that agree on them share verdicts."""
        return tuple((name, _frozen(scope[name]) if name in scope else None) for name in self.per_card_names)

    def size_rule(self) -> ir.Expr | None:
        return main_size(self.rules)

    def text(self, node: ir.Node | Span) -> str:
        """The source text of a rule, on one line, for hints (worked out once per rule)."""
        hit = self._texts.get(id(node))
        if hit is not None and hit[0] is node:
            return hit[1]
        text = self._text(node)
        self._texts[id(node)] = (node, text)
        return text

    def _text(self, node: ir.Node | Span) -> str:
        span = node if isinstance(node, Span) else node.span
        source = self.sources.get(span.file)
        if source is None:
            return ""
        lines = [source.line_text(n) for n in range(span.line, span.end_line + 1)]
        if not lines:
            return ""
        if len(lines) == 1:
            lines[0] = lines[0][span.column - 1:span.end_column - 1]
        else:
            lines[0] = lines[0][span.column - 1:]
            lines[-1] = lines[-1][:span.end_column - 1]
        text = " ".join(" ".join(lines).split())
        # a call's span may stop before its closing parenthesis: take those from the source
        rest = source.line_text(span.end_line)[span.end_column - 1:]
        while text.count("(") > text.count(")") and rest.startswith(")"):
            text, rest = text + ")", rest[1:]
        return text

    def value(self, card: ir.CardDecl, name: str) -> Any:
        return self.env.card_value(card, name)


_CHECKED: dict[str, CheckResult] = {}
_CONTEXTS: dict[str, GameContext] = {}
_OTHER_CARDS: dict[str, dict[str, tuple[str, str, str]]] = {}


def checked(target: str) -> CheckResult:
    """Check a game once per process (library id or folder)."""
    if target not in _CHECKED:
        _CHECKED[target] = check_game(target)
    return _CHECKED[target]


def game_context(target: str | ir.Game) -> GameContext:
    """The deck context of a game given by library id, folder, or an already checked IR."""
    if isinstance(target, ir.Game):
        key = f"<ir>{id(target)}"
        if key not in _CONTEXTS:
            _CONTEXTS[key] = _context(target.game.id, target, {})
        return _CONTEXTS[key]
    if target not in _CONTEXTS:
        result = checked(target)
        if not result.ok or result.game is None:
            raise GameNotReady(f"the game '{target}' has errors; fix them before checking decks", result)
        _CONTEXTS[target] = _context(target, result.game, result.sources)
    return _CONTEXTS[target]


def context_for(game: ir.Game, sources: dict[str, SourceFile]) -> GameContext:
    """The deck context of a checked game and its sources, not cached: for a game being
    edited (the studio), whose every saved version is a new IR."""
    return _context(game.game.id, game, sources)


def _context(target: str, game: ir.Game, sources: dict[str, SourceFile]) -> GameContext:
    if game.deck is None:
        raise GameNotReady(f"{game.game.name} declares no deck rules (no `deck {{ }}` block)")
    ctx = GameContext(target, game, game.deck, sources, StaticEnv(game))
    for card in game.cards:
        ctx.cards.setdefault(normalize_name(card.name), card)
    by_name = {card.name: card for card in game.cards}
    for name, collector in collector_numbers(game).items():  # `2 ASH 12` (or `ASH 12/40`) names a card too
        for key in (f"{collector.set_code} {collector.number}", collector.label()):
            ctx.cards.setdefault(normalize_name(key), by_name[name])
    for s in game.deck.sections:
        ctx.sections.setdefault(normalize_name(s.name), s)
    read = {n.name for rule in (game.deck.allow, game.deck.excluded, game.deck.copies) if rule is not None
            for n in walk(rule) if isinstance(n, ir.Ref)}
    ctx.per_card_names = tuple(b.name for b in game.deck.bindings if b.name in read)
    return ctx


def _frozen(value: Any) -> Any:
    """A hashable stand-in for a `let` value: cards by name, lists as tuples."""
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, ir.CardDecl):
        return ("card", value.name)
    if isinstance(value, DeckValue):
        return ("deck", id(value))
    return (type(value).__name__, str(value))


def other_game_of(ctx: GameContext, key: str) -> tuple[str, str, str] | None:
    """(game name, card name, game id) of another library game that has this card."""
    if ctx.game_id not in _OTHER_CARDS:
        index: dict[str, tuple[str, str, str]] = {}
        for game_id in sorted(library_games()):
            if game_id == ctx.game_id:
                continue
            other = checked(game_id).game
            if other is None:
                continue
            for card in other.cards:
                index.setdefault(normalize_name(card.name), (other.game.name, card.name, game_id))
        _OTHER_CARDS[ctx.game_id] = index
    return _OTHER_CARDS[ctx.game_id].get(key)
