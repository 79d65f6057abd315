"""Build the typed IR from raw entries.

One pass per file turns entries into IR declarations according to their head word.
Property values are parsed per their declared kind; unknown properties, misplaced
entries and bad words become diagnostics (with "did you mean"), and building goes on
so that one run reports everything. Phrase statements are resolved against the
pattern table that `collect_signatures` gathered from every file first.

`Builder` is only the two passes and the dispatch on a declaration's head word: each
kind of declaration is built by a mixin in its own module (build_game, build_cards,
build_rules, build_deck, build_printables, build_scenarios), over the statements
(build_statements), abilities (build_abilities) and shared readers (build_common).
"""

from __future__ import annotations

from collections.abc import Iterable

from cardsmith.dsl.build_cards import CardDecls
from cardsmith.dsl.build_common import PLACEHOLDER, CardTypeInfo, Signature
from cardsmith.dsl.build_deck import DeckDecls
from cardsmith.dsl.build_game import GameDecls
from cardsmith.dsl.build_printables import PrintableDecls
from cardsmith.dsl.build_rules import RuleDecls
from cardsmith.dsl.build_scenarios import ScenarioDecls
from cardsmith.dsl.build_tables import TableDecls
from cardsmith.dsl.diagnostics import did_you_mean
from cardsmith.dsl.exprparse import ExprSyntaxError, unescape
from cardsmith.dsl.phrases import PatternError, compile_pattern
from cardsmith.dsl.structure import Entry

TOP_LEVEL = (
    "game", "expansion", "param", "mode", "enum", "counter", "status", "zone", "board", "cardtype",
    "card", "keyword", "event", "procedure", "native", "function", "setup", "turn", "round",
    "action", "check", "scoring", "heuristic", "deck", "layout", "sheet", "reference", "scenario",
    "on", "before", "after", "instead", "coverage", "cards",
)


class Builder(GameDecls, CardDecls, TableDecls, RuleDecls, DeckDecls, PrintableDecls, ScenarioDecls):
    """Entries of all files → IR declarations.

    A declaration `NAME ...` is built by the method `top_NAME` of whichever mixin
    declares it.
    """

    # ------------------------------------------------------------ signatures (pass 1)

    def collect_signatures(self, entries: Iterable[Entry]) -> None:
        """Gather procedure signatures and card type schemas before building bodies."""
        for entry in entries:
            self.source = entry.source or self.source
            head = entry.name
            if entry.is_prop:
                continue
            if head in ("procedure", "native"):
                self._collect_procedure(entry)
            elif head == "cardtype" and entry.block is not None:
                name = self._first_word(entry)
                if name:
                    self.cardtype_entries.setdefault(name, entry)
                    info = CardTypeInfo(set(), set())
                    for sub in entry.block:
                        if sub.name in ("stats", "properties") and sub.block:
                            target = info.stats if sub.name == "stats" else info.properties
                            target.update(s.name for s in sub.block)
                    self.cardtypes.setdefault(name, info)

    def _collect_procedure(self, entry: Entry) -> None:
        try:
            name, params, pattern_tokens = self.parse_tail(entry, "proc_tail")
        except ExprSyntaxError:
            self._salvage_phrases(entry)  # the error is reported when declarations are built
            return
        proc = str(name)
        if proc in self.signatures:
            return  # the duplicate is reported when declarations are built
        self.signatures[proc] = Signature(proc, params, entry.name == "native")
        param_names = {p.name for p in params}
        for tok in pattern_tokens:
            text = unescape(str(tok))
            try:
                self.patterns.add(compile_pattern(proc, text, param_names))
            except PatternError as exc:
                self.error(self._tok_span(entry, tok), "CS0602", f"bad phrase pattern: {exc}")

    def _salvage_phrases(self, entry: Entry) -> None:
        """A procedure whose header does not parse is still known by name, and its phrase
        patterns (the quoted strings of the header) still match its uses: so those uses
        neither become "unknown statement" errors nor bind to some other procedure."""
        name = self._first_word(entry)
        if name is None or name in self.signatures:
            return
        self.broken.add(name)
        for tok in entry.items:
            if tok.type == "STRING":
                text = unescape(str(tok))
                try:
                    self.patterns.add(compile_pattern(name, text, set(PLACEHOLDER.findall(text))))
                except PatternError:
                    continue

    # ------------------------------------------------------------ files (pass 2)

    def build_file(self, entries: list[Entry]) -> None:
        for entry in entries:
            self.source = entry.source or self.source
            self.build_top(entry)

    def build_top(self, entry: Entry) -> None:
        builder = getattr(self, f"top_{entry.name}", None)
        if builder is None or entry.is_prop:
            hint = did_you_mean(entry.name, TOP_LEVEL)
            if entry.is_prop:
                hint = hint or "properties belong inside a declaration's { } block"
            self.error(entry.head_span(), "CS0205",
                       f"'{entry.name}' cannot start a declaration", hint or
                       "declarations start with: " + ", ".join(TOP_LEVEL[:14]) + ", ...")
            return
        try:
            builder(entry)
        except ExprSyntaxError as exc:
            self._declaration_failed(entry, exc)
            self._expr_error(exc, entry, f"the {entry.name} declaration")
