"""The rules of play: events, procedures, functions, setup, turn and round structure,
actions, checks, scoring, heuristics, and game-level triggers and hooks.

These are the declarations that carry statements (built by `build_statements`) and
drive the engine's flow; the game's static pieces are in `build_game`.
"""

from __future__ import annotations

from typing import Any

from cardsmith.dsl import ir
from cardsmith.dsl.build_abilities import AbilityBuilder
from cardsmith.dsl.diagnostics import did_you_mean
from cardsmith.dsl.exprparse import ExprSyntaxError, unescape
from cardsmith.dsl.structure import Entry


class RuleDecls(AbilityBuilder):
    """Declarations of the rules a match runs."""

    def top_event(self, entry: Entry) -> None:
        name, params = self.parse_tail(entry, "decl_tail")
        if entry.block is not None:
            self.error(entry.span(), "CS0205", "an event has no block", f"write event {name}(...)")
        self.parts.add("events", ir.EventDecl(span=entry.span(), name=str(name), params=params))

    def top_procedure(self, entry: Entry) -> None:
        name, params, patterns = self.parse_tail(entry, "proc_tail")
        native = entry.name == "native"
        if native and entry.block is not None:
            self.error(entry.span(), "CS0205", "a native procedure has no body")
        if not native and entry.block is None:
            self.error(entry.span(), "CS0204", f"procedure '{name}' needs a {{ }} body")
        body = [] if native else self.body(entry)
        self.parts.add("procedures", ir.ProcedureDecl(
            span=entry.span(), name=str(name), params=params,
            patterns=[unescape(str(p)) for p in patterns], body=body, native=native))

    top_native = top_procedure

    def top_function(self, entry: Entry) -> None:
        name, params, expr = self.parse_tail(entry, "func_tail")
        native = expr is None and entry.block is None
        body = self.body(entry) if entry.block is not None else []
        if expr is not None and entry.block is not None:
            self.error(entry.span(), "CS0205", "a function is either '= expression' or a { } body")
        self.parts.add("functions", ir.FunctionDecl(span=entry.span(), name=str(name), params=params,
                                                    expr=expr, body=body, native=native))

    def top_setup(self, entry: Entry) -> None:
        self.parts.add("setup", ir.SetupDecl(span=entry.span(), body=self.body(entry)))

    def top_turn(self, entry: Entry) -> None:
        if not self._needs_block(entry):
            return
        stages = [self.stage(sub) for sub in entry.block or [] if self._is_stage(sub, "stage")]
        self.parts.add("flows", ir.FlowDecl(span=entry.span(), scope=entry.name, stages=stages))

    top_round = top_turn

    def _is_stage(self, sub: Entry, head: str) -> bool:
        if sub.name != head or sub.is_prop:
            self.error(sub.head_span(), "CS0205", f"expected '{head} name {{ ... }}' here",
                       did_you_mean(sub.name, (head,)))
            return False
        return True

    def stage(self, entry: Entry) -> ir.StageDecl:
        name = self._first_word(entry) or "stage"
        fields: dict[str, Any] = {"name": name, "steps": [], "actions": []}
        rest: list[Entry] = []
        for sub in entry.block or []:
            if sub.name == "step" and not sub.is_prop:
                fields["steps"].append(self.stage(sub))
            elif sub.is_prop and sub.name == "actions":
                fields["actions"] = self.words(sub)
            elif sub.name in ("responses", "simultaneous", "always") and not sub.block:
                fields[sub.name] = self.flag(sub)
            elif sub.name == "automated" and not sub.block:
                # removed: it only restated "no actions: line" and nothing read it
                self.error(sub.head_span(), "CS0206", "'automated' is not part of the language any more",
                           "remove it: a stage without an 'actions:' line runs by itself")
            elif sub.is_prop and sub.name == "pass":
                fields["passing"] = self.flag(sub)
            elif sub.is_prop and sub.name == "skip":
                fields["skip"] = self.expr(sub, "'skip'")
            elif sub.is_prop and sub.name == "label":
                fields["label"] = self.text(sub) or ""
            else:
                rest.append(sub)
        fields["body"] = self.statements(rest, entry)
        return ir.StageDecl(span=entry.span(), **fields)

    def top_action(self, entry: Entry) -> None:
        name = self._first_word(entry)
        if name is None:
            self.error(entry.span(), "CS0204", 'write action name "Label" { ... }')
            return
        label = self._string_item(entry, 1) or name.replace("_", " ").capitalize()
        fields: dict[str, Any] = {"name": name, "label": label, "cost": []}
        rest: list[Entry] = []
        for sub in entry.block or []:
            if sub.is_prop and sub.name == "by":
                value = self.word(sub)
                if value in ("current", "any", "responder"):
                    fields["by"] = value
                elif value is not None:
                    self.error(sub.items_span(), "CS0301", f"unknown actor '{value}'",
                               "use current, any or responder")
            elif sub.is_prop and sub.name == "during":
                # removed: it restated the stages' 'actions:' lists, and nothing checked they agreed
                self.error(sub.head_span(), "CS0206", "'during:' is not part of the language any more",
                           f"list '{name}' in the 'actions:' line of each stage where it may be taken")
            elif sub.is_prop and sub.name == "speed":
                self._speed(sub, fields)
            elif sub.is_prop and sub.name in ("condition", "limit"):
                fields[sub.name] = self.expr(sub, f"'{sub.name}'")
            elif sub.name == "cost" and not sub.is_prop:
                fields["cost"] = self.body(sub)
            else:
                rest.append(sub)
        fields["body"] = self.statements(rest, entry)
        self.parts.add("actions", ir.ActionDecl(span=entry.span(), **fields))

    def top_check(self, entry: Entry) -> None:
        label = self._string_item(entry) or "check"
        self.parts.add("checks", ir.CheckDecl(span=entry.span(), name=label, body=self.body(entry)))

    def top_scoring(self, entry: Entry) -> None:
        score: ir.Expr | None = None
        tiebreak: list[ir.Expr] = []
        for sub in entry.block or []:
            if sub.is_prop and sub.name == "score":
                score = self.expr(sub, "'score'")
            elif sub.is_prop and sub.name == "tiebreak":
                value = self.expr(sub, "'tiebreak'")
                if value is not None:
                    tiebreak.append(value)
            else:
                self.unknown(sub, "scoring", ("score", "tiebreak"))
        if score is None:
            self.error(entry.span(), "CS0204", "scoring needs a 'score:' expression")
            return
        self.parts.scoring.append(ir.ScoringDecl(span=entry.span(), score=score, tiebreak=tiebreak))

    def top_heuristic(self, entry: Entry) -> None:
        value: ir.Expr | None = None
        for sub in entry.block or []:
            if sub.is_prop and sub.name == "value":
                value = self.expr(sub, "'value'")
            else:
                self.unknown(sub, "heuristic", ("value",))
        if value is None:
            self.error(entry.span(), "CS0204", "a heuristic needs a 'value:' expression")
            return
        self.parts.heuristic.append(ir.HeuristicDecl(span=entry.span(), value=value))

    # game-level triggers and hooks (the same readers as a card's abilities)

    def top_on(self, entry: Entry) -> None:
        try:
            self.parts.add("triggers", self.trigger(entry))
        except ExprSyntaxError as exc:
            self._expr_error(exc, entry, "the trigger")

    def top_before(self, entry: Entry) -> None:
        self.parts.add("hooks", self.hook(entry))

    top_after = top_before
    top_instead = top_before

