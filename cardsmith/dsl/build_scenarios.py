"""Declarations that test a game rather than define it: scenarios and coverage exclusions.

A scenario is a scripted match (setup, moves, `expect` lines) run by `cardsmith test`;
a coverage block names rules the dead-rule report may find never happening. Neither
changes how a match plays, so they are built apart from the rules.
"""

from __future__ import annotations

from typing import Any

from cardsmith.dsl import ir
from cardsmith.dsl.build_statements import StatementBuilder
from cardsmith.dsl.diagnostics import did_you_mean
from cardsmith.dsl.exprparse import unescape
from cardsmith.dsl.rulekeys import KINDS, rule_name
from cardsmith.dsl.structure import Entry


class ScenarioDecls(StatementBuilder):
    """`scenario` and `coverage` declarations."""

    def top_scenario(self, entry: Entry) -> None:
        name = self._string_item(entry)
        if name is None or not self._needs_block(entry):
            self.error(entry.span(), "CS0204", 'write scenario "What it shows" { ... }')
            return
        fields: dict[str, Any] = {"name": name, "setup": []}
        rest: list[Entry] = []
        for sub in entry.block or []:
            if sub.is_prop and sub.name == "players":
                value = self.integer(sub)
                if value is not None:
                    fields["players"] = value
            elif sub.is_prop and sub.name == "seed":
                value = self.integer(sub)
                if value is not None:
                    fields["seed"] = value
            elif sub.is_prop and sub.name == "mode":
                fields["mode"] = self.word(sub)
            elif sub.name == "setup" and not sub.is_prop:
                fields["setup"] = self.body(sub)
            elif sub.is_prop and sub.name == "setup":
                if self.word(sub) == "game":
                    fields["game_setup"] = True
                else:
                    self.error(sub.items_span(), "CS0301", "'setup:' takes the word 'game'",
                               "write 'setup: game' to begin with the game's own setup, or a 'setup { ... }' block")
            else:
                rest.append(sub)
        fields["body"] = self.statements(rest, entry)
        self.parts.add("scenarios", ir.ScenarioDecl(span=entry.span(), **fields))

    def top_coverage(self, entry: Entry) -> None:
        """`coverage { action concede: "random agents never concede" }`: rules the
        dead-rule report may find never happening, each with its reason. The keys are
        checked against the game's rules by the checker (they may name a card or keyword
        of any file)."""
        if entry.items:
            self.error(entry.items_span(), "CS0205", "a coverage block takes no name", "write coverage { ... }")
        if not self._needs_block(entry):
            return
        for sub in entry.block or []:
            exclusion = self._coverage_line(sub)
            if exclusion is not None:
                self.parts.add("coverage", exclusion)

    def _coverage_line(self, sub: Entry) -> ir.CoverageExclusion | None:
        example = 'write KIND NAME: "why simulated matches never see it", e.g. action concede: "agents never concede"'
        if sub.is_prop or sub.block is not None:
            self.error(sub.head_span(), "CS0205", f"'{sub.name}' does not name a rule here", example)
            return None
        colons = [i for i, t in enumerate(sub.items) if t.type == "PCOLON"]
        key_tokens = sub.items[:colons[-1]] if colons else sub.items
        words: list[tuple[str, bool]] = [(sub.name, False)]
        for tok in key_tokens:
            if tok.type in ("STRING", "LONG_STRING"):
                words.append((unescape(str(tok)), True))
            elif tok.type in ("WORD", "NUMBER") or str(tok) == ".":
                words.append((str(tok), False))
            else:
                self.error(self._tok_span(sub, tok), "CS0301", f"'{tok}' cannot be part of a rule's name", example)
                return None
        name = rule_name(words)
        src = sub.source
        assert src is not None
        last = key_tokens[-1] if key_tokens else sub.head
        span = src.span(sub.head.start_pos or 0, last.end_pos or 0)
        if sub.name not in KINDS:
            self.error(sub.head_span(), "CS0202", f"unknown kind of rule '{sub.name}'",
                       did_you_mean(sub.name, KINDS) or "a rule is one of: " + ", ".join(KINDS))
            return None
        reason_tokens = sub.items[colons[-1] + 1:] if colons else []
        reason = "".join(unescape(str(t)) for t in reason_tokens) \
            if reason_tokens and all(t.type in ("STRING", "LONG_STRING") for t in reason_tokens) else None
        if not reason or not reason.strip():
            self.error(span if not reason_tokens else self._tok_span(sub, reason_tokens[0]), "CS0204",
                       f"'{name}' is excluded without a reason",
                       f'say why simulated matches never see it: {name}: "..."')
            return None
        return ir.CoverageExclusion(span=span, rule=name, reason=reason)

