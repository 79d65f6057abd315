"""A query's condition written in line, as a comprehension over the cards it looks at.

`all cards in hand of p where it.face == f` is `q.query(m, ctx, 'cards', [], zone,
(lambda v_it: ...))`: the engine finds the cards to look at, then calls the condition
once per card. Most queries name no adjective and need no plan by zone (queryplan.py),
and for them the engine's part is only the pool of cards (rt.query_pool: a zone's cards,
of the noun's type); the condition is then asked in a comprehension, without a call per
card — the legality predicates of a game like UNO ask such queries of every card in a
hand several times a decision. The answers, and their order, are q.query's.

Nothing here writes user text: the noun is written with repr(), the zone and the
condition come from the expression writer, already made safe there.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cardsmith.compiler.inline import VARIABLE
from cardsmith.compiler.queryplan import SPECIAL_WORDS
from cardsmith.dsl import ir

if TYPE_CHECKING:
    from cardsmith.compiler.codegen import CodeGenerator
    from cardsmith.compiler.codegen_exprs import ExprWriter, Scope


@dataclass(frozen=True)
class Scan:
    """A query as a pool of cards and the condition asked of each (`v_it`). `before`: what
    is evaluated first, each into the temporary the pool or the condition reads — the zone
    when it is more than a variable (Python allows no assignment expression in a
    comprehension's iterable), and the table reads the condition makes (ExprWriter.hoist)."""

    pool: str
    condition: str | None  # (None: every card of the pool, Combat Cards' `all cards in hand of p`)
    before: list[str]
    # the comprehension's clauses before its `for v_it in pool` (a planned query's walk of
    # its zones, codegen_planned.py: `for _z in ... if ... `); the pool reads them
    zones: str = ""

    def every(self) -> str:
        """The cards where the condition holds, in order: a new list (as q.query's)."""
        if self.condition is None and not self.zones:
            return self._after(f"list({self.pool})")
        return self._after(f"[{self._clauses()}]")

    def first(self) -> str:
        """The first card where the condition holds, or None: the cards after it are not asked."""
        if self.condition is None and not self.zones:
            return self._after(f"next(iter({self.pool}), None)")
        return self._after(f"next(({self._clauses()}), None)")

    def _clauses(self) -> str:
        test = f" if ({self.condition})" if self.condition is not None else ""
        return f"v_it {self.zones}for v_it in {self.pool}{test}"

    def _after(self, code: str) -> str:
        return f"({', '.join(self.before)}, {code})[-1]" if self.before else code


# the player nouns whose pool is every player still in the game (`opponents` leaves you out)
_EVERY_PLAYER = frozenset({"player", "players"})

# adjectives a scan of cards tests in line, as queries.narrow tests them (a game's status of
# the same name is what narrow asks first, as here). Two Kingdoms asks "enemy unattached
# unit ... where reaches(striker, it)" for every striker.
_IN_LINE_WORDS = {
    "friendly": "v_it.controller is ctx.you",
    "enemy": "v_it.controller is not None and v_it.controller is not ctx.you",
    "unattached": "v_it.host is None",
    "attached": "v_it.host is not None",
}


def scans(game: ir.Game, e: ir.Query, adjectives: list[str], plan: bool) -> bool:
    """Is the query written as a Scan? When q.query would only filter its pool by the
    condition (and adjectives tested in line: _word_kind), or take it whole: cards, or
    every player (no zone), with no plan by zone."""
    noun = e.noun.lower()
    if plan:
        return False
    if noun in ir.PLAYER_NOUNS:
        return not adjectives and noun in _EVERY_PLAYER and e.zone is None
    return all(_word_kind(game, word) is not None for word in adjectives)


def _word_kind(game: ir.Game, word: str) -> str | None:
    """How narrow reads an adjective, in its order: a status, one of _IN_LINE_WORDS, an enum
    value's name (Two Kingdoms' "friendly unattached Horse unit", asked for every unit that
    may ride, every window); None: a word left to q.query (a keyword, a card type, `other`...)."""
    if word in {s.name for s in game.statuses}:
        return "status"
    if word in _IN_LINE_WORDS:
        return "word"
    if word not in SPECIAL_WORDS and any(v.name == word for en in game.enums for v in en.values):
        return "enum"
    return None


def with_adjectives(gen: CodeGenerator, adjectives: list[str], condition: str | None,
                    before: list[str]) -> str | None:
    """The condition asked of each card after the adjectives' tests, in their order (as
    narrow narrows by each in turn, then asks the condition of the cards left). An enum
    value's word reads narrow's answers per card (kept while no card's printed values
    change: q.enum_word_answers, taken into a temporary added to `before`), and works out
    only a card not answered yet."""
    tests = []
    for word in adjectives:
        kind = _word_kind(gen.game, word)
        if kind == "status":
            tests.append(f"{word!r} in v_it.statuses")
        elif kind == "enum":
            gen.inline_temps += 1
            known = f"_i{gen.inline_temps}"
            before.append(f"({known} := q.enum_word_answers(m, {word!r}))")
            answer = f"q.enum_word_answer({known}, v_it, {word!r})"
            tests.append(f"({known}.get(v_it) or (v_it not in {known} and {answer}))")
        else:
            tests.append(_IN_LINE_WORDS[word])
    if condition is not None:
        tests.append(f"({condition})")
    return " and ".join(tests) if tests else None


def pool(game: ir.Game, noun: str, zone: str) -> str:
    """The cards a scan looks at (`zone`: a variable): rt.query_pool's, read straight off a
    zone where the noun names no card type (`card`, `cards`: every card it holds, as the
    engine's table of nouns says, engine/game.py), or where every card it holds is of the
    noun's type."""
    noun = noun.lower()
    if noun in _EVERY_PLAYER:  # (the players still in the game: a new list, as q.query's pool)
        return "rt.players(m)"
    nouns = _nouns(game)
    if VARIABLE.match(zone) and noun in nouns:
        type_name = nouns[noun]
        if type_name is None:
            return f"({zone}.cards if type({zone}) is rt.Zone else rt.query_pool(m, {noun!r}, {zone}))"
        # a zone's cards when all are of the type (Kingdom Cards' figures in a kingdom), as rt.query_pool
        return (f"({zone}.cards if type({zone}) is rt.Zone and {zone}.types[{type_name!r}] == len({zone}.cards) "
                f"else rt.query_pool(m, {noun!r}, {zone}))")
    return f"rt.query_pool(m, {noun!r}, {zone})"


def scan(game: ir.Game, noun: str, zone: str, condition: str | None, before: list[str]) -> Scan:
    """The query as a Scan of its pool (`pool`). A condition on the cards of a type in a
    zone held in a variable is asked in the one comprehension over the zone's cards, after
    the test of the card's type (as rt.query_pool picks them out first): Kingdom Cards'
    `all figures in kingdom of p where ...`, asked of a kingdom that holds treasures too,
    without a list of its figures made first."""
    type_name = _nouns(game).get(noun.lower())
    if zone == "None" and noun.lower() not in ir.PLAYER_NOUNS:
        # every zone's cards of the type, walked in the comprehension itself (as
        # rt.cards_outside_a_zone gathers them, skipping a zone without one by its count)
        # rather than gathered into a list first: Kingdom Combat's battle asks `all units
        # where it.attacking ...` several times an action
        if type_name is None:
            return Scan("_z.cards", condition, before, zones="for _z in m.zones.values() ")
        typed = f"v_it.type == {type_name!r}"
        return Scan("_z.cards", f"{typed} and ({condition})" if condition is not None else typed, before,
                    zones=f"for _z in m.zones.values() if _z.types[{type_name!r}] ")
    if condition is not None and type_name is not None and VARIABLE.match(zone):
        return Scan(f"({zone}.cards if type({zone}) is rt.Zone else rt.query_pool(m, {noun.lower()!r}, {zone}))",
                    f"v_it.type == {type_name!r} and ({condition})", before)
    return Scan(pool(game, noun, zone), condition, before)


def counted(w: ExprWriter, e: ir.Call, scope: Scope) -> str | None:
    """`count(all ...)`: the length of the new list a query written as a scan makes
    (Scan.every), without fn_count's call (Kingdom Combat's `enemies_in`, ~3 an action);
    fn_count of anything else. None: not such a call."""
    if not w.stops_at_first(e, ("count",)):
        return None
    code = w.expr(e.args[0], scope, decide=False)
    return f"len({code})" if lists_all(ast.parse(code, mode="eval").body) else f"fn.fn_count(m, ctx, {code})"


def card_type(game: ir.Game, noun: str) -> str | None:
    """The card type a query's noun names (None: any card), as engine/game.py's table."""
    return _nouns(game).get(noun.lower())


def _nouns(game: ir.Game) -> dict[str, str | None]:
    """Each noun's card type (None: any card), as engine/game.py's table."""
    nouns: dict[str, str | None] = {"card": None, "cards": None}
    for t in game.cardtypes:
        for name in (t.name.lower(), t.singular.lower(), t.plural.lower()):
            nouns[name] = t.name
    return nouns


def lists_all(tree: ast.expr) -> bool:
    """Is this parsed code Scan.every()'s: a comprehension or list(pool), after its zone maybe (a new list)?"""
    if isinstance(tree, ast.Subscript) and isinstance(tree.value, ast.Tuple) and tree.value.elts:
        tree = tree.value.elts[-1]
    return isinstance(tree, ast.ListComp) or (isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name)
                                              and tree.func.id == "list")
