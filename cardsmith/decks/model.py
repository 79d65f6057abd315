"""A decklist resolved against a game: what the engine deals and `deck show` describes."""

from __future__ import annotations

from dataclasses import dataclass, field

from cardsmith.dsl import ir
from cardsmith.dsl.diagnostics import Diagnostic, errors_of
from cardsmith.dsl.source import SourceFile


@dataclass(slots=True, unsafe_hash=True)
class DeckEntry:
    """`count` copies of `card` in `section`, from line `line` of the decklist.

    Never changed once made, but not `frozen`: the checker makes one per decklist line,
    thousands of decklists a second, and a frozen dataclass is three times slower to build."""

    section: str
    card: ir.CardDecl
    count: int
    line: int


@dataclass
class Decklist:
    """A decklist whose names are resolved to the game's cards.

    A section declared `within` another (the Garrison, within the Deck) names cards
    already in that section, so `physical()` leaves it out: it is what gets dealt.
    """

    path: str
    game_id: str
    entries: list[DeckEntry]
    within: dict[str, str] = field(default_factory=dict)
    section_order: list[str] = field(default_factory=list)

    def section(self, name: str) -> list[ir.CardDecl]:
        """A section's cards, one item per copy, in decklist order."""
        return [e.card for e in self.entries if e.section == name for _ in range(e.count)]

    def sections(self) -> dict[str, list[ir.CardDecl]]:
        return {name: self.section(name) for name in self.section_order}

    def physical(self) -> list[ir.CardDecl]:
        """Every card of the deck, once per copy (sections `within` another left out)."""
        return [e.card for e in self.entries if e.section not in self.within for _ in range(e.count)]

    def card_names(self) -> list[str]:
        return [c.name for c in self.physical()]


@dataclass
class DeckReport:
    """The result of checking one decklist: the deck, and every problem found."""

    decklist: Decklist
    diagnostics: list[Diagnostic]
    source: SourceFile

    @property
    def errors(self) -> list[Diagnostic]:
        return errors_of(self.diagnostics)

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def sources(self) -> dict[str, SourceFile]:
        return {self.source.path: self.source}
