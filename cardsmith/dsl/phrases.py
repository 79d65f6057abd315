"""Phrase patterns: how `deal 3 damage to target unit` finds its procedure.

A procedure declares patterns such as "deal {amount} damage to {target}". A phrase
statement is a list of tokens; literal pattern words must match word tokens exactly
(case-insensitive) and each placeholder takes one or more tokens (balanced brackets),
later read as an expression. Patterns are indexed by their first literal word, so
matching stays cheap however large the vocabulary grows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from lark import Token

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


@dataclass(frozen=True, slots=True)
class Segment:
    literal: str | None = None
    param: str | None = None


@dataclass(frozen=True, slots=True)
class Pattern:
    procedure: str
    text: str
    segments: tuple[Segment, ...]
    literals: frozenset[str] = frozenset()
    literal_count: int = 0

    @property
    def first_literal(self) -> str | None:
        first = self.segments[0] if self.segments else None
        return first.literal if first is not None else None


class PatternError(ValueError):
    pass


def compile_pattern(procedure: str, text: str, params: set[str]) -> Pattern:
    segments: list[Segment] = []
    pos = 0
    for match in _PLACEHOLDER.finditer(text):
        for word in text[pos:match.start()].split():
            segments.append(Segment(literal=word.lower()))
        name = match.group(1)
        if name not in params:
            raise PatternError(f"pattern names '{{{name}}}', which is not a parameter")
        segments.append(Segment(param=name))
        pos = match.end()
    for word in text[pos:].split():
        segments.append(Segment(literal=word.lower()))
    if "{" in _PLACEHOLDER.sub("", text) or "}" in _PLACEHOLDER.sub("", text):
        raise PatternError("a placeholder is written {name}")
    if not segments:
        raise PatternError("a pattern needs at least one word")
    if all(s.param is not None for s in segments):
        raise PatternError("a pattern needs at least one literal word")
    literals = [seg.literal for seg in segments if seg.literal is not None]
    return Pattern(procedure, text, tuple(segments), frozenset(literals), len(literals))


class PatternTable:
    def __init__(self) -> None:
        self.by_first: dict[str, list[Pattern]] = {}
        self.leading_param: list[Pattern] = []
        self.words: set[str] = set()
        self._candidates: dict[str, list[Pattern]] = {}

    def add(self, pattern: Pattern) -> None:
        self._candidates.clear()
        first = pattern.first_literal
        if first is None:
            self.leading_param.append(pattern)
        else:
            self.by_first.setdefault(first, []).append(pattern)
        self.words.update(s.literal for s in pattern.segments if s.literal)

    def candidates(self, head: str) -> list[Pattern]:
        """Patterns a phrase starting with `head` may fit, most specific first."""
        key = head.lower()
        found = self._candidates.get(key)
        if found is None:
            found = sorted(self.by_first.get(key, []) + self.leading_param, key=lambda p: -p.literal_count)
            self._candidates[key] = found
        return found

    def all_patterns(self) -> list[Pattern]:
        out = [p for ps in self.by_first.values() for p in ps] + self.leading_param
        return out


_OPEN = {"LPAR": "RPAR", "LSQB": "RSQB"}


def _balanced(tokens: list[Token], start: int, end: int) -> bool:
    depth = 0
    for token in tokens[start:end]:
        if token.type in ("LPAR", "LSQB"):
            depth += 1
        elif token.type in ("RPAR", "RSQB"):
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def matches(pattern: Pattern, tokens: list[Token]) -> Iterator[dict[str, tuple[int, int]]]:
    """Every way the tokens fit the pattern: param -> (start, end) token slices."""
    segments = pattern.segments
    n = len(tokens)
    if pattern.literal_count > 1 or pattern.first_literal is None:
        words = {str(t).lower() for t in tokens if t.type == "WORD"}
        if not pattern.literals <= words:
            return  # a literal word of the pattern is missing: no way to fit

    def walk(si: int, ti: int) -> Iterator[dict[str, tuple[int, int]]]:
        if si == len(segments):
            if ti == n:
                yield {}
            return
        seg = segments[si]
        if seg.literal is not None:
            if ti < n and tokens[ti].type == "WORD" and str(tokens[ti]).lower() == seg.literal:
                yield from walk(si + 1, ti + 1)
            return
        assert seg.param is not None
        last = si == len(segments) - 1
        ends = [n] if last else range(ti + 1, n)
        for end in ends:
            if end <= ti or not _balanced(tokens, ti, end):
                continue
            nxt = segments[si + 1] if not last else None
            if nxt is not None and nxt.literal is not None and (
                    end >= n or str(tokens[end]).lower() != nxt.literal):
                continue
            for rest in walk(si + 1, end):
                yield {seg.param: (ti, end), **rest}

    yield from walk(0, 0)
