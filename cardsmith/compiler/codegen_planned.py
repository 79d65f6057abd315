"""A query planned by zone (queryplan.py), written in line as a comprehension over the zones.

`a friendly unit where not it.exhausted and can_move_to(it, z)` is planned: the part of
its condition that reads a card only by its zone (`in_play(it)`) is asked once per zone
and remembered for the match under the query's site, the part that reads only the zone
and controller (`it.zone is not z`, ...) once per zone at each query, and the rest of each
card of the zones that pass. q.query (engine/queries.py) did that with a call of its own,
a call of _query_by_zone, three or four closures made per query and a call of the rest
per card: Kingdom Combat asks ~10 such queries an action (its move actions, who may
attack, which cards are at 0 HP) and they were a third of its bytecode.

Here the same work is one comprehension: the site's live zones (q.live_site, refreshed as
q.query refreshes them), each skipped by its counts as _query_by_zone skips it (no card of
the type, none of yours for `friendly`), its remembered zone answer read in line (asked
through q.zone_passes, which catches an error as q.query does, only when not yet known),
the zone-and-controller part asked through q.group_mine / q.group_of (an error makes the
zone's cards be asked the whole condition, as in q.query), and the per-card part written
in line. The zones, the cards and the tests come in q.query's order and each test is asked
exactly when q.query would ask it, so the answers, their order and any rules error raised
are the same; a query for one card (`any`, `first`) is the same comprehension as a
generator, stopping at its first find as q.query's `one` does.

Only queries over every zone (no `in` part) with a remembered zone test and no adjective
but a leading `friendly` are written so; q.query answers the rest. Nothing here writes user
text: the noun's card type is written with repr(), the conditions come from the
expression writer, already made safe there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from cardsmith.compiler import queryplan
from cardsmith.compiler.codegen_scan import Scan, card_type
from cardsmith.dsl import ir

if TYPE_CHECKING:
    from cardsmith.compiler.codegen_exprs import ExprWriter, Scope


@dataclass(frozen=True)
class Plan:
    """A query's condition split by queryplan: the zone test remembered per zone for the
    match (`constant`), the zone-and-controller test asked at every query (`varying`), the
    part asked of each card (`rest`); None where there is no such part."""

    constant: ir.Expr | None
    varying: ir.Expr | None
    rest: ir.Expr | None


def plan_of(w: ExprWriter, e: ir.Query, inner: Scope) -> Plan | None:
    """The query's plan by zone, None when it has none (no condition, a player noun, an
    impure condition, or no part that reads a card only by its zone)."""
    if e.where is None or e.noun.lower() in ir.PLAYER_NOUNS or not w.gen.planner.pure_expr(e.where):
        return None
    by_zone, rest = w.gen.planner.split(e.where, inner.locals)
    if not by_zone:
        return None
    constant, varying = queryplan.split_constant(by_zone, w.gen.match_constant, w.gen.function_decls)
    return Plan(queryplan.join(constant), queryplan.join(varying), queryplan.join(rest))


def plan_args(w: ExprWriter, plan: Plan | None, inner: Scope) -> str:
    """Extra arguments of q.query for a planned query: the zone test, asked once per zone,
    and the rest, asked per card; with a site when the zone test (or part of it) is the
    same all match long, and the part that is not."""
    if plan is None:
        return ""
    card_test = f"(lambda v_it: {w.apart(plan.rest, inner)})" if plan.rest is not None else "None"
    joined = plan.constant or plan.varying
    assert joined is not None
    zone_test = f"(lambda v_it: {w.apart(joined, inner)})"
    if plan.constant is None:
        return f", {zone_test}, {card_test}"
    # one answer per zone for the whole match: q.query remembers it under this site,
    # and asks the part that is not (`it.zone is not z`) at every query
    w.gen.zone_sites += 1
    also_test = f", (lambda v_it: {w.apart(plan.varying, inner)})" if plan.varying is not None else ""
    return f", {zone_test}, {card_test}, {w.gen.zone_sites!r}{also_test}"


def in_line(w: ExprWriter, e: ir.Query, adjectives: list[str], plan: Plan | None) -> bool:
    """Is the planned query written as a comprehension (planned_scan)? Over every zone,
    with a zone test remembered per zone, and no adjective but `friendly` for a card type."""
    if plan is None or plan.constant is None or e.zone is not None:
        return False
    if not adjectives:
        return True
    return adjectives == ["friendly"] and card_type(w.gen.game, e.noun) is not None


def planned_scan(w: ExprWriter, e: ir.Query, adjectives: list[str], plan: Plan, inner: Scope,
                 where: str) -> Scan:
    """The planned query as a Scan whose comprehension walks the site's live zones, then
    each zone's cards (see the module's docstring). `where`: the whole condition's code,
    asked of a zone's cards when a zone test raised. Written while the writer hoists the
    table reads (ExprWriter.hoisted), as a scan's condition is."""
    assert plan.constant is not None
    gen = w.gen
    type_name = card_type(gen.game, e.noun)
    friendly = bool(adjectives)

    def temp() -> str:
        gen.inline_temps += 1
        return f"_i{gen.inline_temps}"

    gen.zone_sites += 1
    site, known, answer = temp(), temp(), temp()
    before = [f"({site} := q.live_site(m, {gen.zone_sites!r}))", f"({known} := {site}.known)"]
    tests = ["_z.cards"]  # (as _query_by_zone: an empty zone, then one without a candidate, is skipped)
    card_tests = []
    if friendly:
        mine = temp()
        before.append(f"({mine} := ({type_name!r}, ctx.you))")
        tests.append(f"_z.held[{mine}]")
        card_tests.append(f"v_it.type == {type_name!r} and v_it.controller is ctx.you")
    elif type_name is not None:
        tests.append(f"_z.types[{type_name!r}]")
        card_tests.append(f"v_it.type == {type_name!r}")
    zone_test = w.apart(plan.constant, inner)
    tests.append(f"({answer} := (q.zone_passes({known}, _z, (lambda v_it: {zone_test})) "
                 f"if ({answer} := {known}.get(_z)) is None else {answer})) is not False")
    rest = f"({w.apart(plan.rest, inner)})" if plan.rest is not None else "True"
    if plan.varying is None:
        card_tests.append(f"({rest} if {answer} else ({where}))")
    else:
        group = temp()
        before.append(f"({group} := (lambda v_it: {w.apart(plan.varying, inner)}))")
        if friendly:  # (asked of the zone's first card of yours: every candidate's answer)
            tests.append(f"({answer} is None or ({answer} := q.group_mine({group}, _z.cards, ctx.you)) is not False)")
            card_tests.append(f"({rest} if {answer} else ({where}))")
        else:  # (True: every controller's cards pass; a set: those of these controllers)
            tests.append(f"({answer} is None or ({answer} := q.group_of({group}, _z)) is not False)")
            card_tests.append(f"({rest} if {answer} is True else ({where}) if {answer} is None "
                              f"else (v_it.controller in {answer} and {rest}))")
    before.extend(f"({t} := {code})" for code, t in (w.hoisted or {}).items())
    return Scan("_z.cards", " and ".join(card_tests), before, zones=f"for _z in {site}.live if {' and '.join(tests)} ")
