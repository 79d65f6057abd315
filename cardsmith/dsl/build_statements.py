"""Statements and phrases: the bodies of procedures, actions, triggers and scenarios.

A block of entries becomes a list of `ir.Stmt`: keyword statements (let, set, if, for,
choose, ...) are read by the expression grammar, and any other head is a phrase,
matched against the patterns every procedure declared (`collect_signatures` gathers
them from all files first) or written as a call `proc(args)`. It is separate from the
declaration modules because every kind of declaration with a body shares it.
"""

from __future__ import annotations

from typing import Any

from lark import Token

from cardsmith.dsl import ir
from cardsmith.dsl.build_common import BuilderBase
from cardsmith.dsl.diagnostics import did_you_mean
from cardsmith.dsl.exprparse import WRONG_BOOL_HINT, ExprSyntaxError, parse_words, unescape, wrong_bool
from cardsmith.dsl.lexer import MAX_DEPTH
from cardsmith.dsl.phrases import Pattern, matches
from cardsmith.dsl.source import Span
from cardsmith.dsl.structure import Entry
from cardsmith.dsl.words import LITERAL_WORDS, REFUSED_LITERAL_WORDS, RESERVED_NAMES

STATEMENT_HEADS = {
    "let", "set", "increase", "decrease", "if", "elif", "else", "for", "repeat", "while",
    "choose", "simultaneously", "emit", "cancel", "return", "perform", "expect",
}
# Reserved words (words.py) that break a phrase's argument when written as a name; the
# literals (`yes`, `no`, `none`) are reserved too, but read as values there, and `true` /
# `false` are answered on their own (see _no_phrase).
_NOT_A_VALUE = RESERVED_NAMES - LITERAL_WORDS - REFUSED_LITERAL_WORDS


class StatementBuilder(BuilderBase):
    """Blocks of entries → statements, with phrase resolution."""

    def body(self, entry: Entry) -> list[ir.Stmt]:
        if entry.block is None:
            self.error(entry.span(), "CS0204", f"'{entry.name}' needs a {{ }} block")
            return []
        return self.statements(entry.block, entry)

    def statements(self, entries: list[Entry], parent: Entry, depth: int = 0) -> list[ir.Stmt]:
        if depth > MAX_DEPTH:
            self.error(parent.span(), "CS0105", f"nesting is too deep (more than {MAX_DEPTH} levels)")
            return []
        out: list[ir.Stmt] = []
        pending_if: list[Any] | None = None  # [span, branches, orelse]
        for entry in entries:
            head = entry.name
            if head in ("elif", "else"):
                if pending_if is None or pending_if[2] is not None:
                    self.error(entry.head_span(), "CS0205", f"'{head}' without an 'if' before it")
                    continue
                try:
                    if head == "elif" or (entry.items and str(entry.items[0]) == "if"):
                        start = 1 if head == "else" else 0
                        cond = self.parse_tail(entry, "cond_tail", start)
                        pending_if[1].append(ir.Branch(span=entry.span(), condition=cond,
                                                       body=self._sub(entry, depth)))
                    else:
                        pending_if[2] = self._sub(entry, depth)
                except ExprSyntaxError as exc:
                    self._expr_error(exc, entry, f"'{head}'")
                continue
            if pending_if is not None:
                out.append(ir.If(span=pending_if[0], branches=pending_if[1], orelse=pending_if[2]))
                pending_if = None
            if head == "if" and not entry.is_prop:
                try:
                    cond = self.parse_tail(entry, "cond_tail")
                except ExprSyntaxError as exc:
                    self._expr_error(exc, entry, "'if'")
                    continue
                pending_if = [entry.span(), [ir.Branch(span=entry.span(), condition=cond,
                                                       body=self._sub(entry, depth))], None]
                continue
            stmt = self.statement(entry, depth)
            if stmt is not None:
                out.append(stmt)
        if pending_if is not None:
            out.append(ir.If(span=pending_if[0], branches=pending_if[1], orelse=pending_if[2]))
        return out

    def _sub(self, entry: Entry, depth: int) -> list[ir.Stmt]:
        if entry.block is None:
            self.error(entry.span(), "CS0204", f"'{entry.name}' needs a {{ }} block")
            return []
        return self.statements(entry.block, entry, depth + 1)

    def statement(self, entry: Entry, depth: int = 0) -> ir.Stmt | None:
        head = entry.name
        span = entry.span()
        if entry.is_prop:
            self.error(entry.head_span(), "CS0205", f"'{head}:' is a property, not a statement",
                       "properties go at the top of the block they configure")
            return None
        try:
            if head not in STATEMENT_HEADS:
                return self.phrase(entry, depth)
            if entry.block is not None and head not in ("for", "repeat", "while", "choose",
                                                       "simultaneously"):
                self.error(entry.span(), "CS0205", f"'{head}' takes no {{ }} block")
            if head == "let":
                name, value = self.parse_tail(entry, "let_tail")
                return ir.Let(span=span, name=str(name), value=value)
            if head in ("set", "increase", "decrease"):
                target, value, duration = self.parse_tail(entry, "set_tail" if head == "set" else "change_tail")
                return ir.Assign(span=span, op=head, target=target, value=value, duration=duration)
            if head == "for":
                var, source = self.parse_tail(entry, "for_tail")
                return ir.ForEach(span=span, var=str(var), source=source, body=self._sub(entry, depth))
            if head == "repeat":
                count = self.parse_tail(entry, "repeat_tail")
                return ir.Repeat(span=span, count=count, body=self._sub(entry, depth))
            if head == "while":
                cond = self.parse_tail(entry, "cond_tail")
                return ir.While(span=span, condition=cond, body=self._sub(entry, depth))
            if head == "choose":
                return self.choose(entry, depth)
            if head == "simultaneously":
                return ir.Simultaneously(span=span, body=self._sub(entry, depth))
            if head == "emit":
                event, args = self.parse_tail(entry, "emit_tail")
                return ir.Emit(span=span, event=str(event), args=args)
            if head == "cancel":
                return ir.Cancel(span=span)
            if head == "return":
                return ir.Return(span=span, value=self.parse_tail(entry, "return_tail"))
            if head == "expect":
                return self.expect(entry)
            if head == "perform":
                return self.perform(entry)
        except ExprSyntaxError as exc:
            self._expr_error(exc, entry, f"'{head}'")
            return None
        return None  # pragma: no cover - every head is handled above

    def choose(self, entry: Entry, depth: int) -> ir.Stmt:
        span = entry.span()
        if entry.items and str(entry.items[0]) == "one":
            by = self.parse_tail(entry, "choose_one_tail")
            options: list[ir.Option] = []
            for sub in entry.block or []:
                label = self._string_item(sub)
                if sub.name != "option" or label is None:
                    self.error(sub.head_span(), "CS0205", 'choose one holds option "Label" { ... } entries')
                    continue
                options.append(ir.Option(span=sub.span(), label=label, body=self._sub(sub, depth)))
            if not options:
                self.error(span, "CS0204", "choose one needs at least one option")
            return ir.ChooseOne(span=span, by=by, options=options)
        parts = self.parse_tail(entry, "choose_tail")
        mode, n = parts["count"]
        count = ir.ChooseCount(span=span, mode=mode, n=n)
        return ir.Choose(span=span, var=str(parts["var"]), source=parts["source"], count=count,
                         condition=parts.get("where"), by=parts.get("by"), hidden=bool(parts.get("hidden")),
                         optional=bool(parts.get("optional")))

    def expect(self, entry: Entry) -> ir.Stmt:
        items = entry.items
        if items and str(items[0]) == "illegal":
            perform = self.perform(entry, start=1)
            return perform.model_copy(update={"expect_illegal": True})
        message = None
        if len(items) >= 2 and items[-1].type in ("STRING", "LONG_STRING"):
            message = unescape(str(items[-1]))
            items = items[:-1]
        if not items:
            self.error(entry.span(), "CS0204", "expect needs a condition")
            return ir.Expect(span=entry.span(), condition=ir.Bool(span=entry.span(), value=True))
        cond = self.tokens_expr(entry, items)
        return ir.Expect(span=entry.span(), condition=cond, message=message)

    def perform(self, entry: Entry, start: int = 0) -> ir.Perform:
        # perform ACTION by PLAYER [choosing a, b, c]
        items = entry.items[start:]
        if len(items) < 3 or items[0].type != "WORD" or str(items[1]) != "by":
            self.error(entry.span(), "CS0204", "write perform action_name by player choosing a, b")
            return ir.Perform(span=entry.span(), action="", by=ir.Ref(span=entry.span(), name="you"))
        action = str(items[0])
        rest = items[2:]
        split = next((i for i, t in enumerate(rest) if str(t) == "choosing"), None)
        by_tokens = rest if split is None else rest[:split]
        by = self.tokens_expr(entry, by_tokens)
        choosing: list[ir.Expr] = []
        if split is not None and split + 1 < len(rest):
            src = entry.source
            assert src is not None
            tail = rest[split + 1:]
            choosing = parse_words(src, tail[0].start_pos or 0, tail[-1].end_pos or 0, "expr_list")
        return ir.Perform(span=entry.span(), action=action, by=by, choosing=choosing)

    def phrase(self, entry: Entry, depth: int) -> ir.Stmt | None:
        tokens = [entry.head, *entry.items]
        head = entry.name
        span = entry.span()
        if entry.block is not None:
            self.error(span, "CS0205", f"'{head} ...' is a phrase and takes no {{ }} block",
                       did_you_mean(head, STATEMENT_HEADS) or
                       "only if, for, repeat, while, choose and simultaneously take blocks")
        found: list[tuple[Pattern, dict[str, ir.Expr]]] = []
        best = -1
        for pattern in self.patterns.candidates(head):
            if pattern.literal_count < best:
                break
            args = self._bind(entry, pattern, tokens)
            if args is not None:
                found.append((pattern, args))
                best = pattern.literal_count
        if not found:
            call = self._named_call(entry)
            if call is not None:
                return self._invoke_call(call, span)
            self._no_phrase(entry, tokens)
            return None
        if len(found) > 1 and len({p.procedure for p, _ in found}) > 1:
            names = ", ".join(f'"{p.text}"' for p, _ in found)
            self.error(span, "CS0603", f"this phrase matches several patterns: {names}",
                       "add a word to one of the patterns, or parenthesise an argument")
        pattern, args = found[0]
        return ir.Invoke(span=span, procedure=pattern.procedure, args=args, phrase=pattern.text)

    def _named_call(self, entry: Entry) -> ir.Call | None:
        """`proc(args)` covering the whole statement, for a known procedure."""
        if entry.name not in self.signatures or not entry.items or entry.items[0].type != "LPAR":
            return None
        src = entry.source
        assert src is not None
        try:
            call = parse_words(src, entry.head.start_pos or 0, entry.items[-1].end_pos or 0, "cond_tail")
        except ExprSyntaxError:
            return None
        return call if isinstance(call, ir.Call) and call.func == entry.name else None

    def _bind(self, entry: Entry, pattern: Pattern, tokens: list[Token]) -> dict[str, ir.Expr] | None:
        for slices in matches(pattern, tokens):
            args: dict[str, ir.Expr] = {}
            try:
                for param, (start, end) in slices.items():
                    args[param] = self.tokens_expr(entry, tokens[start:end])
            except ExprSyntaxError:
                continue
            return args
        return None

    def _invoke_call(self, call: ir.Call, span: Span) -> ir.Invoke | None:
        sig = self.signatures[call.func]
        args: dict[str, ir.Expr] = {}
        names = [p.name for p in sig.params]
        if len(call.args) > len(names):
            self.error(span, "CS0602", f"'{call.func}' takes {len(names)} arguments, "
                       f"{len(call.args)} given")
            return None
        for name, value in zip(names, call.args, strict=False):
            args[name] = value
        for name, value in call.kwargs.items():
            if name not in names:
                self.error(value.span, "CS0202", f"'{call.func}' has no parameter '{name}'",
                           did_you_mean(name, names))
                continue
            args[name] = value
        return ir.Invoke(span=span, procedure=call.func, args=args, phrase="")

    def _no_phrase(self, entry: Entry, tokens: list[Token]) -> None:
        head = entry.name
        span = entry.span()
        if head in self.broken:
            return  # `proc(args)` of a procedure whose declaration failed (reported there)
        refused = next((t for t in tokens[1:] if t.type == "WORD" and str(t) in REFUSED_LITERAL_WORDS), None)
        if refused is not None:
            # an argument written `true` fails every pattern; say why, not "no phrase fits"
            self.error(self._tok_span(entry, refused), "CS0301", wrong_bool(str(refused)), WRONG_BOOL_HINT)
            return
        candidates = [p for p in self.patterns.candidates(head) if p.first_literal == head.lower()]
        if candidates:
            literals = set().union(*(p.literals for p in candidates))
            reserved = next((str(t) for t in tokens[1:] if t.type == "WORD" and str(t) in _NOT_A_VALUE
                             and str(t).lower() not in literals), None)
            if reserved is not None:
                self.error(span, "CS0601", f"'{reserved}' is a reserved word and cannot name a value here",
                           f"rename it (e.g. '{reserved}_card'); reserved: " + ", ".join(sorted(RESERVED_NAMES)))
                return
            shown = "; ".join(f'"{p.text}"' for p in candidates[:4])
            self.error(span, "CS0601", f"'{head} ...' does not fit any phrase that starts with '{head}'",
                       f"known forms: {shown}")
            return
        firsts = list(self.patterns.by_first) + list(STATEMENT_HEADS)
        hint = did_you_mean(head, firsts)
        self.error(span, "CS0601", f"unknown statement '{head}'",
                   hint or "a statement is a keyword (let, set, if, for, choose, ...) "
                   "or a phrase declared by a procedure")

