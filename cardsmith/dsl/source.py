"""Source files and spans.

Offsets are what the parsers produce; line/column pairs are what people read. A
`SourceFile` keeps the line table so every node's span can be turned into
`path:line:col` cheaply (bisect), without re-scanning the text.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict

from cardsmith.util.fastmodel import construct


class Span(BaseModel):
    """A region of one source file, 1-based lines and columns, end exclusive."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    file: str
    line: int
    column: int
    end_line: int
    end_column: int


@dataclass(slots=True)
class SourceFile:
    """The text of one `.cards` file and its line table."""

    path: str
    text: str
    line_starts: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.line_starts:
            starts = [0]
            find = self.text.find
            pos = find("\n")
            while pos != -1:
                starts.append(pos + 1)
                pos = find("\n", pos + 1)
            self.line_starts = starts

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of a character offset."""
        offset = max(0, min(offset, len(self.text)))
        index = bisect_right(self.line_starts, offset) - 1
        return index + 1, offset - self.line_starts[index] + 1

    def span(self, start: int, end: int) -> Span:
        starts = self.line_starts
        limit = len(self.text)
        start = 0 if start < 0 else (limit if start > limit else start)
        end = start if end < start else (limit if end > limit else end)
        index = bisect_right(starts, start) - 1
        line, column = index + 1, start - starts[index] + 1
        if index + 1 < len(starts) and end >= starts[index + 1]:
            index = bisect_right(starts, end) - 1
        end_line, end_column = index + 1, end - starts[index] + 1
        return construct(Span, file=self.path, line=line, column=column, end_line=end_line,
                         end_column=end_column)

    def line_text(self, line: int) -> str:
        if line < 1 or line > len(self.line_starts):
            return ""
        start = self.line_starts[line - 1]
        end = self.line_starts[line] - 1 if line < len(self.line_starts) else len(self.text)
        return self.text[start:end].rstrip("\r")


BUILTIN_SPAN = Span(file="<builtin>", line=1, column=1, end_line=1, end_column=1)
