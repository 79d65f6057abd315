"""The engine's native procedures: the core prelude's `native` declarations, as a table.

`cardsmith/prelude/core.cards` declares every primitive a rule can call (`native
move_cards(...)`); this module is their only implementation, one function per name in
`NATIVES`. A function takes the match first, then the call's `ctx` and arguments:
`Match.natives` binds each to its match once, so generated code calls
`m.natives["move_cards"](ctx, cards, zone)` as it always has. Keeping the primitives
apart from the match core means the core (journal, RNG, versions) does not grow with
every primitive, and the table says at a glance what the prelude can rely on.

A native either acts at once (returns None) or returns a generator that the caller
runs with `yield from` (when it sets off events, which may ask decisions). Every change
goes through the match's journaled setters, so a probed move rolls back in place.

The scenario statements (`P passes`, `everyone passes`, `run stage`) and `end the turn`
hand over to match methods a scenario match overrides (engine/scenario_flow.py).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from cardsmith.dsl import ir
from cardsmith.engine import runtime as rt
from cardsmith.model.state import Card, Player, Zone

if TYPE_CHECKING:
    from cardsmith.engine.match import Match


def _cards(value: Any) -> list[Card]:
    """The cards a `cards` argument names: one card, a zone's cards, or a list's cards."""
    kind = type(value)  # (by type: nothing subclasses Card or Zone, and a list is the usual argument)
    if kind is Card:
        return [value]
    if kind is Zone:
        return list(value.cards)
    if isinstance(value, list):
        return [c for c in value if type(c) is Card]
    return []


# ---------------------------------------------------------------- moving cards
def _move(m: Match, ctx: rt.Ctx, cards: Any, zone: Any, top: bool) -> Iterator[Any]:
    if not isinstance(zone, Zone):
        raise rt.RulesError(f"cannot move cards to {zone!r}")
    capped = zone.name in m.capped_zones  # (m.room_in's first question, asked once)
    # `left` and `entered` that nothing hears and no tally counts are logged here as
    # m.emit logs them, without its call (two a card moved, in every game)
    heard = m.game.heard
    quiet = m.tally is None and type(zone) is Zone
    left_quiet, entered_quiet = quiet and "left" not in heard, quiet and "entered" not in heard
    # (one card, the usual move, without _cards; the log entry as m.record makes it, without the call)
    for card in (cards,) if type(cards) is Card else _cards(cards):
        old = card.zone
        if old is zone or (capped and not m.room_in(zone, card)):
            continue
        named = _placed(m, card, zone, top or zone.ordered)
        if old is not None:
            if left_quiet and type(old) is Zone:
                m.log.append({"name": "left", "args": [named, old.title], "event": "emit"})
            else:
                yield from m.emit(ctx, "left", [card, old])
        _entered_with(m, card, zone)
        if entered_quiet:
            m.log.append({"name": "entered", "args": [named, zone.title], "event": "emit"})
        else:
            yield from m.emit(ctx, "entered", [card, zone])


def _placed(m: Match, card: Card, zone: Zone, top: bool) -> str:
    """The card put in `zone` and its move logged (as m.record makes the entry, without the
    call): the part of a move both _move and _move_quietly make. Its name as logged."""
    m._place(card, zone, top=top)
    named = f"{card.name}#{card.id}"
    m.log.append({"card": named, "to": zone.title, "event": "move"})
    return named


def _entered_with(m: Match, card: Card, zone: Zone) -> None:
    """The statuses the card's type enters `zone` with (`enters ... with`)."""
    ctype = m.game.cardtypes.get(card.type)
    if ctype is not None and ctype.enters == zone.name:
        for status in ctype.enters_with:
            m.set_status(card, status, True)


def _move_quietly(m: Match, ctx: rt.Ctx, cards: Any, zone: Zone, top: bool) -> None:
    """_move where nothing can hear the moves (`left` and `entered` unheard, no tally
    counting, a plain zone): the same moves and log entries, made at once instead of by a
    generator the caller runs (three moves an action in Combat Cards, all of them quiet)."""
    capped = zone.name in m.capped_zones
    log = m.log
    on_top = top or zone.ordered
    for card in (cards,) if type(cards) is Card else _cards(cards):
        old = card.zone
        if old is zone or (capped and not m.room_in(zone, card)):
            continue
        named = _placed(m, card, zone, on_top)
        if old is not None:
            if type(old) is Zone:
                log.append({"name": "left", "args": [named, old.title], "event": "emit"})
            else:
                m.emit(ctx, "left", [card, old])  # (logged; unheard: nothing to run)
        _entered_with(m, card, zone)
        log.append({"name": "entered", "args": [named, zone.title], "event": "emit"})


def move_cards(m: Match, ctx: rt.Ctx, cards: Any, zone: Any) -> Iterator[Any] | None:
    # (nothing can hear the move: made at once; the test in line, not a call: every move)
    if m.tally is None and type(zone) is Zone and not m.game.hears_moves:
        _move_quietly(m, ctx, cards, zone, top=False)
        return None
    return _move(m, ctx, cards, zone, top=False)


def put_on_top(m: Match, ctx: rt.Ctx, cards: Any, zone: Any) -> Iterator[Any] | None:
    if m.tally is None and type(zone) is Zone and not m.game.hears_moves:
        _move_quietly(m, ctx, cards, zone, top=True)
        return None
    return _move(m, ctx, cards, zone, top=True)


def put_on_bottom(m: Match, ctx: rt.Ctx, cards: Any, zone: Any) -> Iterator[Any]:
    def go() -> Iterator[Any]:
        for card in _cards(cards):
            yield from _move(m, ctx, card, zone, top=False)
            if isinstance(zone, Zone) and card in zone.cards:
                m._place(card, zone, top=False)  # to the bottom, journaled
    return go()


def shuffle(m: Match, ctx: rt.Ctx, zone: Any) -> None:
    if not isinstance(zone, Zone):
        raise rt.RulesError(f"cannot shuffle {zone!r}")
    before = list(zone.cards)
    m.use_rng()
    m.rng.shuffle(zone.cards)
    m.undoable(lambda: zone.cards.__setitem__(slice(None), before))
    m.record("shuffle", zone=m.describe(zone), order=[c.id for c in zone.cards])


def shuffle_into(m: Match, ctx: rt.Ctx, cards: Any, zone: Any) -> Iterator[Any] | None:
    if m.tally is None and type(zone) is Zone and not m.game.hears_moves:
        _move_quietly(m, ctx, cards, zone, top=False)
        shuffle(m, ctx, zone)
        return None

    def go() -> Iterator[Any]:
        yield from _move(m, ctx, cards, zone, top=False)
        shuffle(m, ctx, zone)
    return go()


def place(m: Match, ctx: rt.Ctx, card: Any, zone: Any, cell: Any) -> Iterator[Any]:
    def go() -> Iterator[Any]:
        yield from _move(m, ctx, card, zone, top=False)
        if isinstance(card, Card) and card.zone is zone:  # (not when the zone was full)
            m.set_attr(card, "position", _on_board(m, zone, rt._cell_of(m, cell)))
    return go()


def move_to_cell(m: Match, ctx: rt.Ctx, card: Any, cell: Any) -> None:
    if isinstance(card, Card):
        m.set_attr(card, "position", _on_board(m, card.zone, rt._cell_of(m, cell)))
        m.record("move", card=m.describe(card), cell=card.position)


def _on_board(m: Match, zone: Any, cell: tuple[int, int] | None) -> tuple[int, int] | None:
    """The cell, when it lies on the board of the zone (`size: W x H`: [0, 0] to
    [W - 1, H - 1]); a rules error otherwise — no card stands off the board."""
    decl = m.game.zones.get(zone.name) if isinstance(zone, Zone) else None
    board = m.game.boards.get(decl.board) if decl is not None and decl.board is not None else None
    if board is not None and cell is not None and not (0 <= cell[0] < board.width and 0 <= cell[1] < board.height):
        raise rt.RulesError(f"cell [{cell[0]}, {cell[1]}] is outside board '{board.name}' of zone '{zone.name}' "
                            f"({board.width} x {board.height}: [0, 0] to [{board.width - 1}, {board.height - 1}])")
    return cell


def remove_from_game(m: Match, ctx: rt.Ctx, cards: Any) -> None:
    for c in _cards(cards):
        m._place(c, None, top=False)
        m.removed_cards += 1
        m.undoable(m._unremove)
        m.record("removed", card=m.describe(c))


# ---------------------------------------------------------------- faces, attachments, control
def attach(m: Match, ctx: rt.Ctx, card: Any, host: Any) -> None:
    if isinstance(card, Card) and isinstance(host, Card):
        if host.zone is not None and card.zone is not host.zone and not m.room_in(host.zone, card):
            return  # no room by the host: the card stays where it is, unattached
        detach(m, ctx, card)
        if host.zone is not None and card.zone is not host.zone:
            m._place(card, host.zone, top=False)  # an attached card comes into play with its host
        m.set_attr(card, "host", host)
        host.attached.append(card)
        m.undoable(lambda: host.attached.remove(card))
        m.record("attach", card=m.describe(card), host=m.describe(host))


def detach(m: Match, ctx: rt.Ctx, card: Any) -> None:
    if isinstance(card, Card) and card.host is not None:
        host = card.host
        if card in host.attached:
            index = host.attached.index(card)
            host.attached.pop(index)
            m.undoable(lambda: host.attached.insert(index, card))
        m.set_attr(card, "host", None)


def give_control(m: Match, ctx: rt.Ctx, card: Any, player: Any) -> None:
    for c in _cards(card):
        m.set_attr(c, "controller", player)


def turn_face_down(m: Match, ctx: rt.Ctx, cards: Any) -> None:
    for c in _cards(cards):
        m.set_attr(c, "face_down", True)


def turn_face_up(m: Match, ctx: rt.Ctx, cards: Any) -> None:
    for c in _cards(cards):
        m.set_attr(c, "face_down", False)


def reveal(m: Match, ctx: rt.Ctx, cards: Any, player: Any = None) -> None:
    """Show cards to one player (or all): the log says so, and each seat it was shown
    to finds it in its observation until its next move (`reveals`, seatview.observe)."""
    shown = _cards(cards)
    m.record("reveal", cards=m.describe(shown), to=m.describe(player))
    to = player if isinstance(player, Player) else None
    for card in shown:
        m.reveals.append((card.name, m.describe(card.zone), to))
        m.undoable(functools.partial(_unreveal, m))


def _unreveal(m: Match) -> None:
    m.reveals.pop()


def reset_cards(m: Match, ctx: rt.Ctx, cards: Any) -> None:
    """Cards become the printed card again (as when a card leaves play in most card
    games): printed stats and properties, card counters at their start, no statuses,
    no lasting changes, controlled by their owner. Journaled like every change."""
    for card in _cards(cards):
        definition = card.definition
        if definition is not None:
            for field, value in definition.base.items():
                if card.base.get(field) != value or type(card.base.get(field)) is not type(value):
                    m.set_base(card, field, value)
        for name, start in m._card_counters.items():
            m.set_card_counter(card, name, start)
        for status in sorted(card.statuses):
            m.set_status(card, status, False)
        if card.modifiers:
            _clear_modifiers(m, card)
        if card.controller is not card.owner:
            m.set_attr(card, "controller", card.owner)
        m.record("reset", card=m.describe(card))


def _clear_modifiers(m: Match, card: Card) -> None:
    kept = card.modifiers
    card.modifiers = []

    def undo() -> None:
        card.modifiers = kept
    m.undoable(undo)


# ---------------------------------------------------------------- creating cards, effects
def create_copies(m: Match, ctx: rt.Ctx, card: Any, zone: Any, owner: Any = None) -> None:
    definition = m.game.cards_by_name.get(str(card).lower())
    if definition is None:
        raise rt.RulesError(f"there is no card named {card!r}")
    if owner is None:  # cards made in a shared zone belong to nobody; in a player's zone, to them
        owner = zone.owner if isinstance(zone, Zone) else ctx.you
    if definition.copies > 0:
        m.make_card(definition, zone, owner, copies=definition.copies)


def perform_effect(m: Match, ctx: rt.Ctx, card: Any) -> Iterator[Any]:
    """The card's `effect { }` blocks, then those of its keywords (a keyword such as
    "Draw Two" is an effect written once). `you` is the player resolving the card —
    who played it — also for a card from a shared deck that nobody controls."""
    def go() -> Iterator[Any]:
        if not isinstance(card, Card) or card.definition is None:
            return
        resolver = ctx.you or card.controller
        for index, ability in card.definition.abilities:
            if isinstance(ability, ir.Effect):
                yield from m.guarded(m.game.card_handler(card.name, index)(m, rt.Ctx(resolver, card)))
        for keyword, kargs in m.keywords_of(card):
            decl = m.game.keywords.get(keyword)
            for index_k, kw_ability in enumerate(decl.abilities if decl is not None else []):
                if isinstance(kw_ability, ir.Effect):
                    handler = m.game.keyword_handler(keyword, str(index_k))
                    yield from m.guarded(handler(m, rt.Ctx(resolver, card, keyword, kargs)))
                    if m.tally is not None:
                        m._fired(handler)
    return go()


# ---------------------------------------------------------------- counters
def _counter_owner(m: Match, ctx: rt.Ctx, counter: Any, player: Any) -> Player | None:
    """Whose `counter` a gain, loss or payment changes: nobody's for a shared counter."""
    return None if m.game.counters[str(counter)].scope == "shared" else (player or ctx.you)


def gain(m: Match, ctx: rt.Ctx, amount: Any, counter: Any, player: Any = None) -> None:
    owner = _counter_owner(m, ctx, counter, player)
    m.set_counter(owner, str(counter), rt.arith("+", m.get_counter(owner, str(counter)), amount))


def lose(m: Match, ctx: rt.Ctx, amount: Any, counter: Any, player: Any = None) -> None:
    owner = _counter_owner(m, ctx, counter, player)
    m.set_counter(owner, str(counter), rt.arith("-", m.get_counter(owner, str(counter)), amount))


def _payment(m: Match, ctx: rt.Ctx, amount: Any, counter: Any, player: Any) -> tuple[Player | None, Any]:
    """Whose counter a payment takes from and what it leaves, or CannotPay: one test for
    paying (`pay`) and for asking whether one could (`can_pay`, the legality predicates)."""
    owner = _counter_owner(m, ctx, counter, player)
    have = m.get_counter(owner, str(counter))
    if rt.compare("<", have, amount):
        raise rt.CannotPay()
    return owner, rt.arith("-", have, amount)


def pay(m: Match, ctx: rt.Ctx, amount: Any, counter: Any, player: Any = None) -> None:
    owner, left = _payment(m, ctx, amount, counter, player)
    m.set_counter(owner, str(counter), left)


def can_pay(m: Match, ctx: rt.Ctx, amount: Any, counter: Any, player: Any = None) -> bool:
    """Could `pay` pay this now? (It changes nothing: a compiled legality predicate asks
    it where probing would run the payment and roll it back.)"""
    try:
        _payment(m, ctx, amount, counter, player)
    except rt.CannotPay:
        return False
    return True


# ---------------------------------------------------------------- turns and turn order
def end_turn(m: Match, ctx: rt.Ctx) -> Iterator[Any] | None:
    """In a played match the flow ends the turn; in a scenario the next turn begins
    and runs up to its first action window."""
    m.record("end_turn")
    m.end_turn_requested = True
    if m.flow_active:
        return None
    return m.advance_turn()


def end_stage(m: Match, ctx: rt.Ctx) -> None:
    m.record("end_stage")
    m.end_stage_requested = True


def set_next_player(m: Match, ctx: rt.Ctx, player: Any) -> None:
    if isinstance(player, Player):
        m.set_attr(m, "next_override", player)
    m.record("next_player", player=m.describe(player))


def extra_turn(m: Match, ctx: rt.Ctx, player: Any) -> None:
    if isinstance(player, Player):
        m.set_attr(m, "extra_turns", [*m.extra_turns, player])
    m.record("extra_turn", player=m.describe(player))


def reverse_order(m: Match, ctx: rt.Ctx) -> None:
    m.set_attr(m, "direction", -m.direction)
    m.record("reverse_order", direction=m.direction)


def skip_next(m: Match, ctx: rt.Ctx) -> None:
    skip_turn(m, ctx, m.following(ctx.you or m.current))


def skip_turn(m: Match, ctx: rt.Ctx, player: Any) -> None:
    if isinstance(player, Player):
        m.set_attr(m, "skipped", [*m.skipped, player])
    m.record("skip_turn", player=m.describe(player))


# ---------------------------------------------------------------- the end of the game
def win(m: Match, ctx: rt.Ctx, player: Any) -> None:
    if isinstance(player, Player) and player.eliminated:
        # a player who lost is out of the game: they cannot win it any more
        m.record("win_refused", player=m.describe(player))
        return
    m.over, m.winner, m.winners = True, player, [player]
    m.record("win", player=m.describe(player))


def share_win(m: Match, ctx: rt.Ctx, players: Any) -> None:
    given = [p for p in (players if isinstance(players, list) else [players]) if isinstance(p, Player)]
    group = [p for p in given if not p.eliminated]  # those who lost share nothing
    if not group and given:
        m.record("win_refused", players=m.describe(given))
        return
    m.over, m.winners = True, group
    m.winner = group[0] if len(group) == 1 else None
    m.record("win", players=m.describe(group))


def lose_game(m: Match, ctx: rt.Ctx, player: Any) -> None:
    if isinstance(player, Player):
        m.set_attr(player, "eliminated", True)
        if player is m.turn_player:
            # their turn ends here, as with `end the turn` (restored with the rest when
            # a probe rolls back): a player out of the game decides nothing more
            m.end_turn_requested = True
    m.record("lose", player=m.describe(player))
    # who is left standing is judged after the whole step (run_checks): several
    # players may lose at once


def eliminate(m: Match, ctx: rt.Ctx, player: Any) -> None:
    lose_game(m, ctx, player)


def draw_game(m: Match, ctx: rt.Ctx) -> None:
    m.over, m.drawn, m.winner = True, True, None
    m.record("draw")


def end_game(m: Match, ctx: rt.Ctx) -> None:
    """The game ends: players are ranked by the game's `scoring` (score, then each
    tiebreak); those tied at the top share the win."""
    m.over = True
    m.record("end_game")
    if m.winners or m.game.ir.scoring is None:
        return
    m.ranking = rank_players(m)
    # those still in the game are ranked first (a player who lost cannot win)
    top = [p for p, key in m.ranking if key == m.ranking[0][1] and not p.eliminated] if m.ranking else []
    m.winners = top
    m.winner = top[0] if len(top) == 1 else None
    m.record("ranking", order=[[m.describe(p), [rt._plain(k) for k in key]] for p, key in m.ranking])


def rank_players(m: Match) -> list[tuple[Player, tuple[Any, ...]]]:
    """Every player with their `scoring` key (score, then each tiebreak), best first."""
    scoring = m.game.ir.scoring
    assert scoring is not None
    score = m.game.handlers[("score",)]
    tiebreaks = [m.game.handlers[("tiebreak", str(i))] for i in range(len(scoring.tiebreak))]
    keyed = []
    for p in m.players:
        ctx = rt.Ctx(p, None)
        key = tuple(fn(m, ctx, p) or 0 for fn in [score, *tiebreaks])
        keyed.append((p, key))
    # a player who lost comes after every player still in the game, whatever their score
    return sorted(keyed, key=lambda item: (not item[0].eliminated, item[1]), reverse=True)


# ---------------------------------------------------------------- scenario statements, messages
def pass_priority(m: Match, ctx: rt.Ctx, player: Any) -> None:
    m.pass_by(player, m.scenario_line)


def everyone_passes(m: Match, ctx: rt.Ctx) -> None:
    m.everyone_passes(m.scenario_line)


def run_stage(m: Match, ctx: rt.Ctx, stage: Any, answers: Any = None) -> None:
    m.run_stage_choosing(stage, answers, m.scenario_line)


def say(m: Match, ctx: rt.Ctx, message: Any) -> None:
    m.record("say", message=str(message))


# the core prelude's native procedures, by the name it declares them with
NATIVES: dict[str, Callable[..., Any]] = {
    "move_cards": move_cards,
    "put_on_top": put_on_top,
    "put_on_bottom": put_on_bottom,
    "shuffle": shuffle,
    "shuffle_into": shuffle_into,
    "place": place,
    "move_to_cell": move_to_cell,
    "remove_from_game": remove_from_game,
    "attach": attach,
    "detach": detach,
    "give_control": give_control,
    "turn_face_down": turn_face_down,
    "turn_face_up": turn_face_up,
    "reveal": reveal,
    "reset_cards": reset_cards,
    "create_copies": create_copies,
    "perform_effect": perform_effect,
    "gain": gain,
    "lose": lose,
    "pay": pay,
    "end_turn": end_turn,
    "end_stage": end_stage,
    "set_next_player": set_next_player,
    "extra_turn": extra_turn,
    "reverse_order": reverse_order,
    "skip_next": skip_next,
    "skip_turn": skip_turn,
    "win": win,
    "share_win": share_win,
    "lose_game": lose_game,
    "eliminate": eliminate,
    "draw_game": draw_game,
    "end_game": end_game,
    "pass_priority": pass_priority,
    "everyone_passes": everyone_passes,
    "run_stage": run_stage,
    "say": say,
}

# Natives that may refuse (raise CannotPay), with the test that says whether they would:
# the compiled legality predicates (compiler/legality.py) ask these instead of running them.
CHECKS: dict[str, Callable[..., bool]] = {"pay": can_pay}
