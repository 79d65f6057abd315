"""The generated module's line table: which .cards line each generated Python line runs.

A rules error names the .cards line the rules had reached. Rather than have the
generated code store that line in the match before every statement (an attribute store
on most of its lines, paid on every run), the code generator records it once, Jinja2
style: the module ends with a table `{python line: .cards line}` for every line written
for a rule statement. Only when an error escapes does the engine look: the innermost
frame of the generated module in the error's traceback, at its line, names the .cards
line. The writer (codegen.py) and the reader (the engine's error reports) share this
module so the two agree on the table's name and meaning.
"""

from __future__ import annotations

from types import TracebackType

# the module-level name the table is bound to in the generated module
TABLE = "CARDS_LINES"


def table_source(lines: dict[int, int]) -> str:
    """The table as a line of Python: a dict literal of int pairs (no user text)."""
    return f"{TABLE} = {{{', '.join(f'{py!r}: {cards!r}' for py, cards in sorted(lines.items()))}}}"


def line_of(error: BaseException, fallback: int) -> int:
    """The .cards line the rules were at when `error` was raised: the line of the
    innermost generated frame (in its traceback) that runs a rule statement. A frame of
    the generated module that is not in a statement (a trigger's condition, a static
    ability's value) is passed over for the statement that set it off, further out.
    `fallback` (the match's last counted step) when no generated frame is in it."""
    found = fallback
    tb: TracebackType | None = error.__traceback__
    while tb is not None:
        table = tb.tb_frame.f_globals.get(TABLE)
        if type(table) is dict:
            line = table.get(tb.tb_lineno)
            if type(line) is int:
                found = line
        tb = tb.tb_next
    return found
