"""A seat's legal moves in the game's own words: what a person at the table reads.

A move's description is the referee's record (`choose Dragon Swipe#25 (c)`): it names
cards by engine id and a choice by its variable, and it goes into the log byte for byte.
A person deciding needs other words: what is being decided ("Choose a card — play
cards"), and each move by what the designer called things — the action's label, the
card's name, a board cell as the language writes it (`[3, 4]`), `you` for the seat itself.

Everything here is read from what the seat may know: cards are named through the seat's
own names (engine/seatview.SeatNames), so a card out of view stays "a hidden card, 2nd in
…", and a blind pick of cards stays a position. Two moves that would read the same are
told apart by where their cards lie, then by the seat's own card numbers. Nothing here is
logged or hashed, so it may change without touching a seeded log.
"""

from __future__ import annotations

import weakref
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardsmith.dsl import ir
from cardsmith.engine import runtime as rt
from cardsmith.model.state import Card, EnumValue, Player, Zone

if TYPE_CHECKING:
    from cardsmith.engine.flow import PlayedMatch
    from cardsmith.engine.game import CompiledGame
    from cardsmith.engine.moves import Action, ActionWindow
    from cardsmith.engine.seatview import SeatNames

# the longest list of values a move's words spell out before summarising the rest
_LISTED = 12


@dataclass(frozen=True)
class Decision:
    """What `seat` is deciding now, and its moves in the game's words (in the order and
    with the indexes of `legal_actions()` filtered to the seat)."""

    prompt: str
    moves: list[str]


def humanised(name: str) -> str:
    """An identifier as words: `play_cards` → "play cards"."""
    return name.replace("_", " ").strip()


def _article(noun: str) -> str:
    return f"an {noun}" if noun[:1].lower() in "aeiou" else f"a {noun}"


# ---------------------------------------------------------------- where a choice is asked

_contexts: weakref.WeakKeyDictionary[CompiledGame, dict[int, str | None]] = weakref.WeakKeyDictionary()


def _chooses(node: Any) -> list[ir.Choose]:
    """Every `choose` statement inside a declaration's statements."""
    found: list[ir.Choose] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, ir.Choose):
            found.append(item)
        if isinstance(item, ir.Node):
            stack.extend(getattr(item, name) for name in type(item).model_fields if name != "span")
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
    return found


def _procedure_words(decl: ir.ProcedureDecl) -> str:
    """A procedure as its writer described it: a description with no blanks to fill,
    else its name as words."""
    for pattern in decl.patterns:
        if "{" not in pattern:
            return pattern
    return humanised(decl.name)


def _declared_contexts(game: ir.Game) -> list[tuple[str, Any]]:
    """Each declaration that may ask a choice, with the words that name it."""
    found: list[tuple[str, Any]] = [(a.label or humanised(a.name), a) for a in game.actions]
    found += [(_procedure_words(p), p) for p in game.procedures if not p.native]
    for card in game.cards:
        for ability in card.abilities:
            label = getattr(ability, "label", "")
            found.append((f"{card.name}: {label}" if label else card.name, ability))
    for keyword in game.keywords:
        found += [(humanised(keyword.name), ability) for ability in keyword.abilities]
    if game.setup is not None:
        found.append(("setting up", game.setup))
    for flow in game.flows:
        found += [(stage.label or humanised(stage.name), stage) for stage in flow.stages]
    found += [("", item) for item in (*game.triggers, *game.hooks)]
    return found


def choice_contexts(game: CompiledGame) -> dict[int, str | None]:
    """The words for where each choice is asked, by the line of its `choose` (the line is
    all a running choice carries). A line that holds choices of two declarations (in two
    files, say) names none of them: None, and the prompt goes without."""
    known = _contexts.get(game)
    if known is None:
        known = {}
        for words, decl in _declared_contexts(game.ir):
            for choose in _chooses(decl):
                line = choose.span.line
                known[line] = words if known.get(line, words) == words else None
        _contexts[game] = known
    return known


# ---------------------------------------------------------------- values in words


def _is_window(request: Any) -> bool:
    """Is this pending request a stage's action window (moves.ActionWindow, known by its
    stage: moves imports seatview, which asks this module, so it is not imported here)?"""
    return isinstance(getattr(request, "stage", None), ir.StageDecl)


def _cell(value: Any) -> bool:
    return type(value) is tuple and len(value) == 2 and all(type(v) is int for v in value)


class _Speaker:
    """Values named as one seat reads them."""

    def __init__(self, match: PlayedMatch, seat: int) -> None:
        self.match = match
        self.names: SeatNames = match.seat_names(seat)
        self.viewer = match.players[seat]
        zone_labels = {z.name: z.label for z in match.game.ir.zones if z.label}
        self.zone_labels = zone_labels

    def player(self, player: Player) -> str:
        return "you" if player is self.viewer else player.name

    def zone(self, zone: Zone) -> str:
        label = self.zone_labels.get(zone.name, humanised(zone.name))
        if zone.owner is None:
            return label
        return f"your {label}" if zone.owner is self.viewer else f"{label} of {zone.owner.name}"

    def card(self, card: Card) -> str:
        return card.name if self.names.sees(card) else self.names.card(card)

    def where(self, card: Card) -> str:
        """Where a card lies, to tell two cards of one name apart."""
        zone = card.zone
        if zone is None:
            return "out of the game"
        if card.position is not None:
            return f"at [{card.position[0]}, {card.position[1]}]"
        return f"in {self.zone(zone)}"

    def value(self, value: Any) -> str:
        if isinstance(value, Card):
            return self.card(value)
        if isinstance(value, Player):
            return self.player(value)
        if isinstance(value, Zone):
            return self.zone(value)
        if isinstance(value, EnumValue):
            return humanised(value.name)
        if isinstance(value, bool):
            return "yes" if value else "no"
        if _cell(value):
            return f"[{value[0]}, {value[1]}]"
        if isinstance(value, list):
            if not value:
                return "nothing"
            shown = [self.value(v) for v in value[:_LISTED]]
            more = len(value) - len(shown)
            return ", ".join(shown) + (f" and {more} more" if more > 0 else "")
        return str(value)

    def noun(self, options: list[Any]) -> str:
        """What a choice's options are, as a noun: a card, a space, a player, ..."""
        kinds = {type(o) for o in options}
        if all(isinstance(o, Card) for o in options):
            return "card"
        if all(_cell(o) for o in options):
            return "space"
        if all(isinstance(o, Player) for o in options):
            return "player"
        if all(isinstance(o, Zone) for o in options):
            return "zone"
        if kinds <= {int} and options:
            return "number"
        return "option"


# ---------------------------------------------------------------- moves in words


def _choice_prompt(speaker: _Speaker, request: rt.Choose, game: CompiledGame) -> str:
    var = request.label
    noun = speaker.noun(request.options)
    context = choice_contexts(game).get(request.line)
    tail = f" — {context}" if context else ""
    if request.paying:  # a question the cost of a move asks, while it is paid: say which move
        action = game.actions.get(request.paying)
        tail = f" — paying for {action.label if action is not None else request.paying}"
    if " " in var:  # a question the engine words itself ("who takes the first turn")
        return f"Choose {var}{tail}"
    if request.mode == "one":
        what = humanised(var) if len(var) > 2 else noun
        what = _article(what)
    elif request.mode == "exact" and request.n is not None:
        what = f"{request.n} {humanised(var) if len(var) > 2 else noun + 's'}"
    else:
        what = f"any {humanised(var) if len(var) > 2 else noun + 's'}"
    if request.hidden and noun == "card":
        what += ", face down"
    return f"Choose {what}{tail}"


def _window_prompt(match: PlayedMatch, speaker: _Speaker, window: ActionWindow) -> str:
    stage = window.stage
    stage_words = stage.label or humanised(stage.name)
    if window.sealed:
        return f"Pick your move ({stage_words}); the others pick at the same time"
    current = match.current
    if current is None or current is speaker.viewer:
        return f"Your turn — {stage_words}"
    return f"It is {current.name}'s turn — {stage_words}: you may respond"


def _window_move(speaker: _Speaker, match: PlayedMatch, action: Action) -> str:
    payload = action.payload
    if payload == "pass":
        return "Pass"
    move, choices = payload
    if isinstance(move, str):
        decl = match.game.actions[move]
        head = decl.label or humanised(move)
    else:
        _kind, card, key = move
        head = f"{speaker.card(card)}: {_ability_label(card, key, match)}"
    if not choices:
        return head
    return f"{head}: " + ", ".join(speaker.value(c) for c in choices)


def _ability_label(card: Card, key: Any, match: PlayedMatch) -> str:
    from cardsmith.engine import offers

    found = offers.find_activation(match, card, key)
    return found.ability.label if found is not None else str(key)


def _choice_move(speaker: _Speaker, request: rt.Choose, action: Action, noun: str) -> str:
    if action.payload is None:
        return "Choose nothing"
    if request.hidden and noun == "card":
        return f"Card {action.id + 1} of {len(request.options)} (face down)"
    return speaker.value(action.payload)


def _told_apart(speaker: _Speaker, actions: list[Action], words: list[str]) -> list[str]:
    """Moves that read the same get where their cards lie, then the seat's card numbers."""
    for attempt in (0, 1):
        counts = Counter(words)
        if all(n == 1 for n in counts.values()):
            break
        for i, action in enumerate(actions):
            if counts[words[i]] < 2:
                continue
            cards = [v for v in _values(action.payload) if isinstance(v, Card) and speaker.names.sees(v)]
            if not cards:
                continue
            if attempt == 0:
                words[i] += " (" + ", ".join(speaker.where(c) for c in cards) + ")"
            else:
                words[i] += " #" + ", #".join(str(speaker.names.number(c)) for c in cards)
    return words


def _values(payload: Any) -> list[Any]:
    if isinstance(payload, tuple):
        move, choices = payload if len(payload) == 2 else (payload, [])
        found = [move[1]] if isinstance(move, tuple) and len(move) > 1 else []
        return found + [v for c in choices for v in (c if isinstance(c, list) else [c])]
    if isinstance(payload, list):
        return list(payload)
    return [payload]


def words_of(match: PlayedMatch, viewer: int, actions: list[Action]) -> list[str]:
    """`actions` — moves of the decision pending now, whoever makes them — as `viewer`
    reads them, in the game's words. Ask before any of them is applied."""
    request = match.pending
    speaker = _Speaker(match, viewer)
    if _is_window(request):
        words = [_window_move(speaker, match, a) for a in actions]
    elif isinstance(request, rt.ChooseOption):
        words = [request.labels[a.payload] for a in actions]
    elif isinstance(request, rt.Choose):
        noun = speaker.noun(request.options)
        words = [_choice_move(speaker, request, a, noun) for a in actions]
    else:
        words = [a.seen_as(speaker.names.describe) for a in actions]
    return _told_apart(speaker, actions, words)


def decision_for(match: PlayedMatch, seat: int) -> Decision | None:
    """What `seat` decides now, in the game's words; None when it is not deciding. Ask
    after the seat has looked at the table (seatview.observe, or SeatNames.look)."""
    request = match.pending
    actions = [a for a in match.legal_actions() if a.player == seat]
    if request is None or not actions:
        return None
    speaker = _Speaker(match, seat)
    if _is_window(request):
        prompt = _window_prompt(match, speaker, request)
    elif isinstance(request, rt.ChooseOption):
        prompt = "Choose one"
    elif isinstance(request, rt.Choose):
        prompt = _choice_prompt(speaker, request, match.game)
    else:
        prompt = "Your move"
    return Decision(prompt, words_of(match, seat, actions))
