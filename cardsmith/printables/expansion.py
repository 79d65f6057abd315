"""What `cardsmith build` prints for an expansion: its own cards, not the base game's.

A designer printing an expansion already owns the base game; twenty pages of it with two
new cards mixed in is paper wasted and new cards hard to find. So an expansion prints its
own cards (and the sheets and references declared in its own files), plus a reference
sheet of the keywords it adds — the rules a player of the base game does not know yet.
`--with-base` prints everything, the base game's pages included, as a game is printed.
"""

from __future__ import annotations

from pathlib import Path

from cardsmith.compiler.expansions import expansion_cards, expansion_keywords, owner_of
from cardsmith.dsl import ir
from cardsmith.printables.build import BuildResult, Output, Progress, render, write_result
from cardsmith.printables.imposition import Options
from cardsmith.printables.sheets import keyword_rows, reference_sheet

ACTION_SHEETS = "action-sheets.pdf"


def printed_game(game: ir.Game, with_base: bool = False) -> ir.Game:
    """The game as far as it is printed: an expansion without `with_base` keeps only the
    cards, sheets and references of its own files; the rules (and the base game's
    keywords, which its cards' text may name) stay whole."""
    if with_base or not game.expansions:
        return game
    return game.model_copy(update={
        "cards": expansion_cards(game),
        "sheets": [s for s in game.sheets if owner_of(game, s.span.file) is not None],
        "references": [r for r in game.references if owner_of(game, r.span.file) is not None],
    })


def render_printables(game: ir.Game, opts: Options, progress: Progress | None = None,
                      with_base: bool = False) -> BuildResult:
    """render() of the printed game; an expansion's action sheets are its new keywords
    (the base game's turn order and keyword list are in the base game's print)."""
    view = printed_game(game, with_base)
    result = render(view, opts, progress)
    if view is game or not result.ok:
        return result
    result.outputs = [o for o in result.outputs if o.path.name != ACTION_SHEETS]
    result.files.pop(ACTION_SHEETS, None)
    new = expansion_keywords(game)
    if new:
        names = " + ".join(e.name for e in game.expansions)
        data, pages = reference_sheet(f"{names} — new keywords",
                                      f"Keywords this expansion adds to {game.game.name}, with their reminder text.",
                                      keyword_rows(new), opts)
        result.files[ACTION_SHEETS] = data
        result.outputs.append(Output(Path(ACTION_SHEETS), pages, "action sheets"))
    return result


def build_printables(game: ir.Game, out: Path, opts: Options, progress: Progress | None = None,
                     with_base: bool = False) -> BuildResult:
    """build() for a game or an expansion: everything written together, or nothing."""
    return write_result(render_printables(game, opts, progress, with_base), out)
