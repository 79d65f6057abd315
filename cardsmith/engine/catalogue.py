"""A whole catalogue's copies made in one call: `for each name in catalog() { create every
copy of name in Z }`, the way a game builds its decks (compiler/codegen_stmts.py writes
such a loop as one call of `create_catalog` when the zone and owner do not depend on the
name and nothing hooks `create_copies`).

Why: a setup that makes a deck so spent more on the loop around each card name — the
loop guard's step, the native's keyword call, its look-up of the definition and of the
owner, `make_card`'s tests of the zone for every copy — than on the cards themselves
(UNO: 54 names, 108 cards a match, about a sixth of a random match's work). Made here,
the cards, their ids, their order in the zone, the zone's counts and the log entries are
those the loop made one card at a time; the steps the loop would have counted are
counted too. While a journal records (a probe) or the zone has a capacity, each name
goes through `create_copies` as the loop did.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardsmith.model.state import Card, Zone

if TYPE_CHECKING:
    from cardsmith.engine.match import Match
    from cardsmith.engine.runtime import Ctx

# the loop guard: steps between two decisions before the rules are taken to loop without
# end (kept here, where runtime.MAX_STEPS comes from: runtime imports this module)
MAX_STEPS = 200_000


def create_catalog(m: Match, ctx: Ctx, names: list[Any], zone: Any, owner: Any, line: int) -> None:
    """Every copy of each card named in `names`, in that order, made in `zone` for `owner`
    (None: the zone's owner, as create_copies decides), one loop step counted per name at
    `line`. A name that names no card goes through create_copies, which raises its error
    after the names before it made their cards, as the loop did."""
    by_name = m.game.cards_by_name
    definitions = [by_name.get(str(name).lower()) for name in names]
    if type(zone) is not Zone or m.journal is not None or zone.name in m.capped_zones \
            or m.steps + len(names) > MAX_STEPS or None in definitions:
        create = m.natives["create_copies"]
        for name in names:  # (the loop as written: its step, then the native, per name)
            m.steps += 1
            m.last_line = line
            if m.steps > MAX_STEPS:
                m.step(line)
            create(ctx, card=name, zone=zone, owner=owner)
        return
    if owner is None:  # cards made in a shared zone belong to nobody; in a player's zone, to them
        owner = zone.owner
    counters = m._card_counters
    next_id = m.next_id
    made: list[Card] = []
    entries: list[dict[str, Any]] = []
    title = zone.title
    types, held = zone.types, zone.held
    for definition in definitions:
        assert definition is not None  # (a name that names no card went the loop's way, above)
        copies = definition.copies
        if copies <= 0:
            continue
        card_name, ctype, base = definition.name, definition.type, definition.base
        for card_id in range(next_id, next_id + copies):
            made.append(Card(card_id, card_name, ctype, owner, dict(base), dict(counters), definition, zone))
            entries.append({"card": f"{card_name}#{card_id}", "zone": title, "event": "create"})
        next_id += copies
        types[ctype] += copies  # (Zone.count, for all the copies)
        held[(ctype, owner)] += copies
    m.steps += len(names)
    if names:
        m.last_line = line
    if not made:
        return
    m.next_id = next_id
    zone.controlled[owner] += len(made)
    if zone.ordered:  # each card made on top of the last one
        made.reverse()
        zone.cards[0:0] = made
    else:
        zone.cards.extend(made)
    m._statics_cache = None
    m.version = next(m._versions)  # (the copies are one change: one new state version)
    m.log.extend(entries)
