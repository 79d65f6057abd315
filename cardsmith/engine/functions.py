"""The prelude's native functions (`count`, `sum`, `first`, `distance`, `catalog`, ...).

The core prelude declares them (`native function ...` in prelude/core.cards) and the
generated code calls them here as `fn.fn_NAME(m, ctx, ...)`. They only read the match
(compiler/purity.py relies on that: their results may be remembered). Apart from
runtime.py, the generic mechanisms every rule uses, because they are the language's
library, not its machinery: adding one is adding a function here and a line to the prelude.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardsmith.engine.runtime import Ctx, _cell_of, attr, players
from cardsmith.model import values
from cardsmith.model.state import Card, Number, Player, Zone

if TYPE_CHECKING:
    from cardsmith.engine.match import Match


_items = values.items


def fn_count(m: Match, ctx: Ctx, items: Any) -> int:
    t = type(items)
    if t is list or t is tuple:
        return len(items)
    if t is Zone:
        return len(items.cards)
    return len(_items(items))


def fn_sum(m: Match, ctx: Ctx, items: Any, field: Any = None) -> Number:
    if field is None:
        return values.total(_items(items))
    return values.total([item if values.is_number(item) else attr(m, item, field) for item in _items(items)])


def fn_min(m: Match, ctx: Ctx, a: Any, b: Any = None) -> Any:
    if type(a) is int and type(b) is int:  # min(a, b) of two numbers: what rules write most
        return a if a <= b else b
    return values.smallest(values.extreme_args(a, b))


def fn_max(m: Match, ctx: Ctx, a: Any, b: Any = None) -> Any:
    if type(a) is int and type(b) is int:
        return a if a >= b else b
    return values.largest(values.extreme_args(a, b))


def fn_any(m: Match, ctx: Ctx, items: Any) -> bool:
    return values.any_true(_items(items))


def fn_size(m: Match, ctx: Ctx, zone: Any) -> int:
    return fn_count(m, ctx, zone)


def fn_first(m: Match, ctx: Ctx, items: Any) -> Any:
    found = _items(items)
    return found[0] if found else None


def fn_last(m: Match, ctx: Ctx, items: Any) -> Any:
    found = _items(items)
    return found[-1] if found else None


def fn_values(m: Match, ctx: Ctx, items: Any, field: Any) -> list[Any]:
    return [attr(m, x, field) for x in _items(items)]


def fn_abs(m: Match, ctx: Ctx, x: Any) -> Number:
    if type(x) is int:
        return -x if x < 0 else x
    return values.absolute(x)


def fn_floor(m: Match, ctx: Ctx, x: Any) -> int:
    return values.floor(x)


def fn_ceil(m: Match, ctx: Ctx, x: Any) -> int:
    return values.ceil(x)


def fn_distance(m: Match, ctx: Ctx, a: Any, b: Any) -> int | None:
    """King-move distance between two cells (or the cells of two cards)."""
    ca, cb = _cell_of(m, a), _cell_of(m, b)
    if ca is None or cb is None:
        return m.zone_distance(a, b)
    return max(abs(ca[0] - cb[0]), abs(ca[1] - cb[1]))


def fn_cell(m: Match, ctx: Ctx, x: Any, y: Any) -> tuple[int, int]:
    return (int(x), int(y))


def fn_position(m: Match, ctx: Ctx, card: Any) -> tuple[int, int] | None:
    if type(card) is Card and card.position is not None:  # a card on a board: its own cell
        return card.position
    return _cell_of(m, card)


def fn_card_at(m: Match, ctx: Ctx, zone: Any, cell: Any) -> Card | None:
    target = _cell_of(m, cell)
    for card in _items(zone):
        if isinstance(card, Card) and card.position == target:
            return card
    return None


def fn_has_keyword(m: Match, ctx: Ctx, card: Any, keyword: Any) -> bool:
    """keywords_of's answer read without its list (Kingdom Combat asks ~16 an action, of
    cards that almost never have the keyword): the printed keywords, then what the statics
    reaching the card grant it, each such static counted for the dead-rule report as
    keywords_of counts it. With no report, the statics' grants are read from the cards
    each keyword is granted to now (events.py `_grants` keeps them with its list, for the
    same state), its cache checked here in line: one lookup instead of a call and a walk
    of every granting static."""
    if type(card) is not Card and not isinstance(card, Card):
        return False
    tally = m.tally
    definition = card.definition
    if tally is None:
        if definition is not None:
            for k, _ in definition.keywords:
                if k == keyword:
                    return True
        if m._in_statics:
            return False
        cached = m._grants_cache
        if cached is None or cached[0] != m.version or cached[1] is not m.current \
                or cached[2] != m.turn_number or cached[3] != m.round_number:
            m._grants()
            cached = m._grants_cache
            assert cached is not None
        granted = cached[5].get(keyword)
        return granted is not None and id(card) in granted
    found = False
    if definition is not None:
        for k, _ in definition.keywords:
            if k == keyword:
                found = True
                break
    if not m._in_statics:
        for key, reached, granted_now in m._grants():
            if id(card) in reached:
                tally.static(key)
                if not found:
                    found = any(k == keyword for k, _ in granted_now)
    if found:
        tally.read(keyword)
    return found


def fn_keyword_value(m: Match, ctx: Ctx, card: Any, keyword: Any, position: Any = 1) -> Any:
    if not isinstance(card, Card):
        return None
    for k, args in m.keywords_of(card):
        if k == keyword:
            if m.tally is not None:
                m.tally.read(keyword)
            i = int(position) - 1
            return args[i] if 0 <= i < len(args) else None
    return None


def fn_opponents(m: Match, ctx: Ctx, who: Any) -> list[Player]:
    return [p for p in players(m) if p is not who]


def fn_next_player(m: Match, ctx: Ctx, who: Any) -> Player | None:
    """The player after `who` in the turn order (which `reverse the turn order` flips)."""
    if type(who) is Player and not who.eliminated and who in m.players:  # (the usual: no list of the living)
        return m.following(who)
    living = players(m)
    if who not in living:
        return living[0] if living else None
    return m.following(who)


def fn_create(m: Match, ctx: Ctx, card: Any, zone: Any, owner: Any = None) -> Card:
    return m.create_card(str(card), zone, owner if owner is not None else ctx.you)


def fn_in_region(m: Match, ctx: Ctx, thing: Any, region: Any) -> bool:
    cell = _cell_of(m, thing)
    decl = m.game.regions.get(str(region))
    return cell is not None and decl is not None and cell in decl.cells


def fn_cells(m: Match, ctx: Ctx, region: Any) -> list[tuple[int, int]]:
    decl = m.game.regions.get(str(region))
    return sorted(decl.cells) if decl is not None else []


def fn_catalog(m: Match, ctx: Ctx, type_name: Any = None) -> list[str]:
    return [c.name for c in m.game.ir.cards if type_name is None or c.type == type_name]


def fn_copies_of(m: Match, ctx: Ctx, card: Any) -> int:
    definition = m.game.cards_by_name.get(str(card).lower())
    return definition.copies if definition is not None else 0


def fn_rank(m: Match, ctx: Ctx, who: Any) -> int | None:
    return m.rank_of(who)
