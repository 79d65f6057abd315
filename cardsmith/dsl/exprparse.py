"""Parse the words of a node or property into IR expressions (grammar/expr.lark).

The structural layer hands over a slice of the file; this module parses it with the
start rule the head word calls for and builds IR nodes directly in Lark's inline
transformer (no intermediate tree). Spans are offset back into the whole file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, NoReturn, TypeVar

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from cardsmith.dsl import ir
from cardsmith.dsl.source import SourceFile, Span
from cardsmith.dsl.structure import _grammar
from cardsmith.util.fastmodel import construct, span_of_token
from cardsmith.util.larkcache import cached_lark

START_RULES = [
    "let_tail", "set_tail", "change_tail", "cond_tail", "for_tail", "repeat_tail", "choose_tail",
    "choose_one_tail", "emit_tail", "return_tail", "expr_list", "keyword_list", "range_tail",
    "decl_tail", "proc_tail", "func_tail", "hook_tail", "trigger_tail", "scope_tail", "type_tail",
    "size_tail",
]

UNITS_MM = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72, "px": 25.4 / 300}


class ExprSyntaxError(Exception):
    """The words could not be read as the expected construct."""

    def __init__(self, offset: int, message: str, hint: str | None = None, *,
                 code: str = "CS0101", length: int = 1) -> None:
        super().__init__(message)
        self.offset = offset
        self.message = message
        self.hint = hint
        # Most of these are syntax errors (CS0101); a word the grammar reads but the
        # language refuses (`true` for `yes`) is a wrong value (CS0301), over the word.
        self.code = code
        self.length = length


@dataclass(slots=True)
class _Context:
    source: SourceFile
    base: int
    shift: int = 0  # file offset = shift + offset in the padded text Lark parses


def merge(a: Span, b: Span) -> Span:
    return construct(Span, file=a.file, line=a.line, column=a.column,
                     end_line=b.end_line, end_column=b.end_column)


def _span_of(x: Any) -> Span:
    if isinstance(x, ir.Node):
        return x.span
    if isinstance(x, Token):
        # parse_words pads the text so that token lines and columns are the file's own
        return span_of_token(_CTX.source.path, x, Span)
    if isinstance(x, tuple | list) and x:
        for part in x:
            if isinstance(part, ir.Node | Token):
                return _span_of(part)
    raise TypeError(f"no span for {x!r}")  # pragma: no cover - grammar invariant


def _span(children: list[Any]) -> Span:
    real = [c for c in children if c is not None and not (isinstance(c, list) and not c)]
    first, last = real[0], real[-1]
    if isinstance(first, list):
        first = first[0]
    if isinstance(last, list):
        last = last[-1]
    return merge(_span_of(first), _span_of(last))


_CTX = _Context(SourceFile("<expr>", ""), 0)


# A number literal may have at most this many digits before, and as many after, the
# decimal point. Card games never need more; longer literals cannot be converted (Python
# refuses int strings over 4300 digits) or overflow floats in printing and export.
MAX_NUMBER_DIGITS = 15
TOO_LARGE_HINT = f"numbers have at most {MAX_NUMBER_DIGITS} digits before and after the decimal point"


# `true` and `false` still tokenize, so that writing them is answered with the word meant.
WRONG_BOOL_HINT = "yes/no is the one way to write a flag or a value"
WRONG_BOOL_WORDS = {"true": "yes", "false": "no"}


def wrong_bool(word: str) -> str:
    """The message for `true` or `false` written where a yes/no value is meant."""
    return f"write {WRONG_BOOL_WORDS[word]}, not {word}"


class NumberTooLarge(ValueError):
    """A number literal longer than MAX_NUMBER_DIGITS (see number_too_large)."""


def number_too_large(text: str) -> bool:
    """Does a NUMBER, DIM or dice literal (`12`, `1.5`, `10pt`, `2d6`) have too many digits?"""
    return any(len(run) > MAX_NUMBER_DIGITS for run in re.findall(r"\d+", text))


def parse_number(text: str) -> tuple[int, int]:
    if number_too_large(text):
        raise NumberTooLarge(text)
    if text.isdigit():
        return int(text), 1
    value = Fraction(text)
    return value.numerator, value.denominator


def unescape(raw: str) -> str:
    if raw.startswith('"""'):
        return raw[3:-3]
    body = raw[1:-1]
    if "\\" not in body:
        return body
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append({"n": "\n", "t": "\t", '"': '"', "\\": "\\"}.get(nxt, "\\" + nxt))
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


N = TypeVar("N", bound=ir.Node)


def _c(cls: type[N], span: Span, **fields: Any) -> N:
    return construct(cls, span=span, **fields)


def _check_size(tok: Any) -> None:
    """Refuse a literal with too many digits, at its place in the file."""
    if number_too_large(str(tok)):
        offset = _CTX.shift + (tok.start_pos or 0) if isinstance(tok, Token) else _CTX.base
        raise ExprSyntaxError(offset, "this number is too large", TOO_LARGE_HINT)


def _refuse_bool(tok: Any) -> NoReturn:
    """`true` / `false`: yes/no is the one spelling, so the other is refused where it is."""
    offset = _CTX.shift + (tok.start_pos or 0) if isinstance(tok, Token) else _CTX.base
    raise ExprSyntaxError(offset, wrong_bool(str(tok)), WRONG_BOOL_HINT, code="CS0301", length=len(str(tok)))


class _ToIR(Transformer[Token, Any]):
    # ---- atoms
    def number(self, c: list[Any]) -> ir.Num:
        _check_size(c[0])
        num, den = parse_number(str(c[0]))
        return _c(ir.Num, _span(c), num=num, den=den)

    def string(self, c: list[Any]) -> ir.Text:
        return _c(ir.Text, _span(c), value=unescape(str(c[0])))

    long_string = string

    def dice(self, c: list[Any]) -> ir.Dice:
        _check_size(c[0])
        text = str(c[0])
        count, _, sides = text.partition("d")
        return _c(ir.Dice, _span(c), count=int(count or 1), sides=int(sides))

    def dim(self, c: list[Any]) -> ir.Dim:
        _check_size(c[0])
        text = str(c[0])
        unit = text[-2:]
        return _c(ir.Dim, _span(c), mm=float(text[:-2]) * UNITS_MM[unit], written=text)

    def yes(self, c: list[Any]) -> ir.Bool:
        return _c(ir.Bool, _span(c), value=True)

    def no(self, c: list[Any]) -> ir.Bool:
        return _c(ir.Bool, _span(c), value=False)

    def true(self, c: list[Any]) -> NoReturn:
        _refuse_bool(c[0])

    false = true

    def none(self, c: list[Any]) -> ir.NoneLit:
        return _c(ir.NoneLit, _span(c))

    def name(self, c: list[Any]) -> Token:
        tok: Token = c[0]
        return tok

    def qword(self, c: list[Any]) -> Token:
        tok: Token = c[0]
        return tok

    def ref(self, c: list[Any]) -> ir.Ref:
        return _c(ir.Ref, _span(c), name=str(c[0]))

    def list_expr(self, c: list[Any]) -> ir.ListExpr:
        items = [x for x in c if x is not None]
        span = _span(items) if items else _CTX.source.span(_CTX.base, _CTX.base)
        return _c(ir.ListExpr, span, items=items)

    def roll(self, c: list[Any]) -> ir.Roll:
        return _c(ir.Roll, _span(c), dice=c[0])

    def your(self, c: list[Any]) -> ir.Attr:
        span = _span(c)
        return _c(ir.Attr, span, obj=_c(ir.Ref, span, name="you"), name=str(c[0]))

    def of(self, c: list[Any]) -> ir.Attr:
        return _c(ir.Attr, _span(c), obj=c[1], name=str(c[0]))

    def top(self, c: list[Any]) -> ir.TopOf:
        return _c(ir.TopOf, _span(c), count=c[1], zone=c[2], bottom=False)

    def bottom(self, c: list[Any]) -> ir.TopOf:
        return _c(ir.TopOf, _span(c), count=c[1], zone=c[2], bottom=True)

    def query(self, c: list[Any]) -> ir.Query:
        det = str(c[0]).lower()
        count = None
        up_to = False
        words: list[str] = []
        zone = None
        where = None
        for child in c[1:]:
            if isinstance(child, tuple):
                tag, value = child
                if tag == "count":
                    count = value
                elif tag == "up_to":
                    count, up_to = value, True
                elif tag == "zone":
                    zone = value
                elif tag == "where":
                    where = value
            elif isinstance(child, Token):
                words.append(str(child))
        return _c(ir.Query, _span(c), det=det, count=count, up_to=up_to,
                  adjectives=words[:-1], noun=words[-1], zone=zone, where=where)

    def qcount_exact(self, c: list[Any]) -> tuple[str, Any]:
        _check_size(c[0])
        num, den = parse_number(str(c[0]))
        return ("count", _c(ir.Num, _span(c), num=num, den=den))

    def qcount_up_to(self, c: list[Any]) -> tuple[str, Any]:
        return ("up_to", c[0])

    def zone_clause(self, c: list[Any]) -> tuple[str, Any]:
        return ("zone", c[-1])

    def where_clause(self, c: list[Any]) -> tuple[str, Any]:
        return ("where", c[-1])

    # ---- operators
    def _bin(self, op: str, c: list[Any]) -> ir.BinOp:
        return _c(ir.BinOp, _span(c), op=op, left=c[0], right=c[-1])

    def add(self, c: list[Any]) -> ir.BinOp:
        return self._bin("+", c)

    def sub(self, c: list[Any]) -> ir.BinOp:
        return self._bin("-", c)

    def mul(self, c: list[Any]) -> ir.BinOp:
        return self._bin("*", c)

    def div(self, c: list[Any]) -> ir.BinOp:
        return self._bin("/", c)

    def floordiv(self, c: list[Any]) -> ir.BinOp:
        return self._bin("//", c)

    def mod(self, c: list[Any]) -> ir.BinOp:
        return self._bin("%", c)

    def neg(self, c: list[Any]) -> ir.Node:
        operand = c[0]
        if isinstance(operand, ir.Num):
            return _c(ir.Num, operand.span, num=-operand.num, den=operand.den)
        return _c(ir.Neg, _span(c), operand=operand)

    def pos(self, c: list[Any]) -> Any:
        return c[0]

    def compare(self, c: list[Any]) -> ir.Compare:
        return _c(ir.Compare, _span(c), op=str(c[1]), left=c[0], right=c[2])

    def and_op(self, c: list[Any]) -> ir.Logic:
        return _c(ir.Logic, _span(c), op="and", left=c[0], right=c[-1])

    def or_op(self, c: list[Any]) -> ir.Logic:
        return _c(ir.Logic, _span(c), op="or", left=c[0], right=c[-1])

    def not_op(self, c: list[Any]) -> ir.Not:
        return _c(ir.Not, _span(c), operand=c[-1])  # the span starts at the `not` keyword

    def contains(self, c: list[Any]) -> ir.Contains:
        return _c(ir.Contains, _span(c), item=c[0], collection=c[-1], negated=False)

    def not_contains(self, c: list[Any]) -> ir.Contains:
        return _c(ir.Contains, _span(c), item=c[0], collection=c[-1], negated=True)

    def typeref(self, c: list[Any]) -> list[Token]:
        return list(c)

    def is_test(self, c: list[Any]) -> ir.IsTest:
        return _c(ir.IsTest, _span([c[0], c[1][-1]]), value=c[0], words=[str(w) for w in c[1]],
                  negated=False)

    def is_not_test(self, c: list[Any]) -> ir.IsTest:
        return _c(ir.IsTest, _span([c[0], c[1][-1]]), value=c[0], words=[str(w) for w in c[1]],
                  negated=True)

    def conditional(self, c: list[Any]) -> ir.Conditional:
        return _c(ir.Conditional, _span(c), condition=c[0], then=c[1], otherwise=c[2])

    def range_closed(self, c: list[Any]) -> ir.RangeExpr:
        return _c(ir.RangeExpr, _span(c), low=c[0], high=c[-1])

    def range_from(self, c: list[Any]) -> ir.RangeExpr:
        return _c(ir.RangeExpr, _span(c), low=c[0], high=None)

    def range_to(self, c: list[Any]) -> ir.RangeExpr:
        return _c(ir.RangeExpr, _span(c), low=None, high=c[-1])

    def attr(self, c: list[Any]) -> ir.Attr:
        return _c(ir.Attr, _span(c), obj=c[0], name=str(c[1]))

    def index(self, c: list[Any]) -> ir.Index:
        return _c(ir.Index, _span(c), obj=c[0], index=c[1])

    def args(self, c: list[Any]) -> list[Any]:
        return list(c)

    def kwarg(self, c: list[Any]) -> tuple[str, Any]:
        return (str(c[0]), c[1])

    def call(self, c: list[Any]) -> ir.Call:
        func = c[0]
        raw_args = c[1] or []
        if not isinstance(func, ir.Ref):
            raise ExprSyntaxError(_span_offset(func), "only named functions can be called",
                                  "write name(arguments)")
        args = [a for a in raw_args if not isinstance(a, tuple)]
        kwargs = {k: v for k, v in (a for a in raw_args if isinstance(a, tuple))}
        return _c(ir.Call, _span(c), func=func.name, args=args, kwargs=kwargs)

    # ---- tails (return plain tuples; the builder makes statements of them)
    def let_tail(self, c: list[Any]) -> tuple[Any, ...]:
        return (c[0], c[1])

    def set_tail(self, c: list[Any]) -> tuple[Any, ...]:
        return (c[0], c[1], c[2] if len(c) > 2 else None)

    change_tail = set_tail

    def cond_tail(self, c: list[Any]) -> Any:
        return c[0]

    def for_tail(self, c: list[Any]) -> tuple[Any, ...]:
        rest = [x for x in c if not (isinstance(x, Token) and x.type == "QDET")]
        return (rest[0], rest[1])

    def repeat_tail(self, c: list[Any]) -> Any:
        return c[0]

    def count_exact(self, c: list[Any]) -> tuple[str, Any]:
        _check_size(c[0])
        num, den = parse_number(str(c[0]))
        return ("exact", _c(ir.Num, _span(c), num=num, den=den))

    def count_up_to(self, c: list[Any]) -> tuple[str, Any]:
        return ("up_to", c[0])

    def count_any(self, c: list[Any]) -> tuple[str, Any]:
        if str(c[0]) != "any":
            raise ExprSyntaxError(_CTX.base, f"write 'any number of', not '{c[0]} number of'")
        return ("any", None)

    def opt_by(self, c: list[Any]) -> tuple[str, Any]:
        return ("by", c[0])

    def opt_hidden(self, c: list[Any]) -> tuple[str, Any]:
        return ("hidden", True)

    def opt_optional(self, c: list[Any]) -> tuple[str, Any]:
        return ("optional", True)

    def opt_simultaneous(self, c: list[Any]) -> tuple[str, Any]:
        return ("simultaneous", True)

    def opt_where(self, c: list[Any]) -> tuple[str, Any]:
        return ("where", c[0])

    def choose_tail(self, c: list[Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"count": ("one", None)}
        rest = list(c)
        if rest and isinstance(rest[0], tuple) and rest[0][0] in ("exact", "up_to", "any"):
            out["count"] = rest.pop(0)
        out["var"] = rest.pop(0)
        out["source"] = rest.pop(0)
        for tag, value in rest:
            out[tag] = value
        return out

    def choose_one_tail(self, c: list[Any]) -> Any:
        return c[0] if c else None

    def emit_tail(self, c: list[Any]) -> tuple[Any, ...]:
        args = c[1] if len(c) > 1 and c[1] is not None else []
        return (c[0], [a for a in args if not isinstance(a, tuple)])

    def return_tail(self, c: list[Any]) -> Any:
        return c[0] if c else None

    def expr_list(self, c: list[Any]) -> list[Any]:
        return list(c)

    def keyword_use(self, c: list[Any]) -> tuple[Token, list[Any]]:
        return (c[0], list(c[1:]))

    def keyword_list(self, c: list[Any]) -> list[Any]:
        return list(c)

    def range_tail(self, c: list[Any]) -> Any:
        return c[0]

    def params(self, c: list[Any]) -> list[Any]:
        return [p for p in c if p is not None]

    def param(self, c: list[Any]) -> ir.Param:
        name = c[0]
        type_name = "any"
        default = None
        for child in c[1:]:
            if isinstance(child, list):
                type_name = " ".join(str(t) for t in child)
            elif child is not None:
                default = child
        return _c(ir.Param, _span(c), name=str(name), type=type_name, default=default)

    def decl_tail(self, c: list[Any]) -> tuple[Any, ...]:
        return (c[0], c[1] if len(c) > 1 and c[1] is not None else [])

    def proc_tail(self, c: list[Any]) -> tuple[Any, ...]:
        params = c[1] if len(c) > 1 and isinstance(c[1], list) else []
        patterns = [t for t in c[1:] if isinstance(t, Token) and t.type == "STRING"]
        return (c[0], params, patterns)

    def func_tail(self, c: list[Any]) -> tuple[Any, ...]:
        params = c[1] if len(c) > 1 and isinstance(c[1], list) else []
        expr = c[2] if len(c) > 2 else None
        return (c[0], params, expr)

    def hook_tail(self, c: list[Any]) -> tuple[Any, ...]:
        return (c[0], c[1] if len(c) > 1 else None)

    def trigger_tail(self, c: list[Any]) -> tuple[Any, ...]:
        name = c[0]
        binds = [x for x in c[1:] if isinstance(x, Token)]
        cond = next((x for x in c[1:] if isinstance(x, ir.Node)), None)
        return (name, binds, cond)

    def scope_per(self, c: list[Any]) -> str:
        return str(c[0])

    def scope_shared(self, c: list[Any]) -> str:
        return "shared"

    def scope_tail(self, c: list[Any]) -> tuple[Any, ...]:
        return (c[0], c[1] if len(c) > 1 else None)

    def type_tail(self, c: list[Any]) -> tuple[Any, ...]:
        return (" ".join(str(t) for t in c[0]), c[1] if len(c) > 1 else None)

    def size_tail(self, c: list[Any]) -> tuple[Any, ...]:
        return (c[0], c[1])

    def until_end(self, c: list[Any]) -> ir.Duration:
        return _c(ir.Duration, _span(c), kind="until_end", period=str(c[0]), condition=None)

    def until_next(self, c: list[Any]) -> ir.Duration:
        return _c(ir.Duration, _span(c), kind="until_next", period=str(c[0]), condition=None)

    def permanently(self, c: list[Any]) -> ir.Duration:
        return _c(ir.Duration, _CTX.source.span(_CTX.base, _CTX.base), kind="permanently",
                  period=None, condition=None)

    def while_duration(self, c: list[Any]) -> ir.Duration:
        return _c(ir.Duration, _span(c), kind="while", period=None, condition=c[0])


def _span_offset(node: Any) -> int:
    return _CTX.base


@lru_cache(maxsize=1)
def expr_parser() -> Lark:
    """The expression parser. Building its LALR tables is a fifth of a command's start-up,
    so they are kept in cardsmith's cache folder, sealed (util/larkcache.py: a planted
    file is never unpickled)."""
    grammar = _grammar("expr.lark")
    return cached_lark("expr", grammar, parser="lalr", lexer="contextual", start=START_RULES,
                       transformer=_ToIR(), maybe_placeholders=True)


_TOKEN_WORDS = {
    "NAME": "a name", "NUMBER": "a number", "STRING": "a string", "LPAR": "'('", "RPAR": "')'",
    "LSQB": "'['", "RSQB": "']'", "COMMA": "','", "DOT": "'.'", "COMPOP": "a comparison",
    "$END": "the end", "QDET": "'a', 'each' or 'every'", "SOFTDET": "'target', 'all' or 'any'",
}


def parse_words(source: SourceFile, start: int, end: int, rule: str) -> Any:
    """Parse source.text[start:end] with the given start rule; offsets are file offsets.

    The slice is prefixed with as many newlines and spaces as precede it in the file, so
    Lark's own token line/column numbers are already those of the file (cheaper than
    translating every offset afterwards).
    """
    global _CTX
    line, column = source.line_col(start)
    pad = "\n" * (line - 1) + " " * (column - 1)
    text = pad + source.text[start:end]
    shift = start - len(pad)
    saved = _CTX
    _CTX = _Context(source, start, shift)
    try:
        return expr_parser().parse(text, start=rule)
    except UnexpectedToken as exc:
        token = exc.token
        if token.type == "$END":
            raise ExprSyntaxError(end, "this is incomplete", _expected(exc.expected)) from None
        pos = shift + (token.start_pos or 0)
        raise ExprSyntaxError(pos, f"unexpected '{token}'", _expected(exc.expected)) from None
    except UnexpectedCharacters as exc:
        at = int(exc.pos_in_stream or 0)
        pos = shift + at
        char = text[at] if at < len(text) else ""
        raise ExprSyntaxError(pos, f"unexpected character {char!r}") from None
    except UnexpectedEOF:
        raise ExprSyntaxError(end, "this is incomplete") from None
    except UnexpectedInput:  # pragma: no cover
        raise ExprSyntaxError(start, "cannot read this") from None
    except RecursionError:
        raise ExprSyntaxError(start, "this expression is nested too deeply") from None
    except ExprSyntaxError:
        raise
    except Exception as exc:
        raise ExprSyntaxError(start, f"cannot read this (internal: {type(exc).__name__})",
                              "please report this input as a cardsmith bug") from None
    finally:
        _CTX = saved


def _expected(expected: set[str] | frozenset[str]) -> str | None:
    names = sorted({_TOKEN_WORDS.get(e, repr(e.lower())) for e in expected
                    if not e.startswith("__")})
    if not names or len(names) > 8:
        return None
    return "expected " + ", ".join(names)
