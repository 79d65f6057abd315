"""The terminal table: a person plays a match at the terminal (`cardsmith play --human N`).

What the person sees is built from their seat's view only (SeatView: the observation and
the moves in the game's words, engine/movewords.py) and the story of the match as their
seat may tell it (moveview.seen_by, fed move by move by `play_at_table`): zones as
labelled panels with card names and printed stats, counters by their labels, the stack,
whose turn and which stage, and the moves numbered. Between moves the person may type
`? NAME` for a card's full text (the card list is public), `log` for the last moves and
`undo` to take back their last decision (the match is played again from its seed up to
it, as the studio's undo does).

This module builds rich renderables and hands them to `show`; the CLI prints them, so
the CLI stays the only layer that writes to the terminal.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cardsmith.engine.agents import Labels, ask
from cardsmith.engine.moveview import seen_by

if TYPE_CHECKING:
    from rich.console import RenderableType

    from cardsmith.engine.flow import PlayedMatch
    from cardsmith.engine.game import CompiledGame
    from cardsmith.engine.seatview import SeatView

STORY_SHOWN = 20  # moves `log` lists
HELP = ("a number picks that move · ? NAME shows a card's text · log shows the last moves · "
        "undo takes back your last move")


class UndoRequested(Exception):
    """The person asked to take back their last decision (play_at_table replays)."""


def _stats(game: CompiledGame, name: str) -> str:
    """A card's printed numbers, `cost 3 · attack 2`, from its definition (public)."""
    definition = game.cards_by_name.get(name.lower())
    if definition is None:
        return ""
    cardtype = game.cardtypes.get(definition.type)
    fields = [f.name for f in cardtype.stats] if cardtype is not None else []
    shown = [f"{field.replace('_', ' ')} {definition.base[field]}" for field in fields
             if isinstance(definition.base.get(field), int | float) and not isinstance(definition.base[field], bool)]
    return " · ".join(shown)


class TableView:
    """A seat's view of the table as rich renderables."""

    def __init__(self, game: CompiledGame) -> None:
        self.game = game
        self.labels = Labels(game.ir)

    def _card(self, seen: dict[str, Any]) -> str:
        from rich.markup import escape

        if seen.get("hidden"):
            return "[dim](face down)[/dim]"
        name = str(seen.get("name", "?"))
        marks = self.labels.marks(seen)
        stats = _stats(self.game, name)
        # the seat's own number for the card: a move tells two cards of one name apart by it
        line = f"[bold]{escape(name)}[/bold] [dim]#{seen.get('id', '?')}[/dim]"
        if stats:
            line += f"  [cyan]{escape(stats)}[/cyan]"
        if marks:
            line += f"  [yellow]({escape(', '.join(marks))})[/yellow]"
        return line

    def board(self, view: dict[str, Any]) -> RenderableType:
        from rich.columns import Columns
        from rich.console import Group
        from rich.markup import escape
        from rich.panel import Panel
        from rich.rule import Rule
        from rich.table import Table

        labels = self.labels
        stage = f" · stage {escape(str(view['stage']))}" if view["stage"] else ""
        mode = f" · mode {escape(labels.mode(view['mode']))}" if view["mode"] is not None else ""
        head = Rule(f"turn {view['turn']} · {escape(str(view['current']))} to play{stage}{mode} · "
                    f"you are {escape(view['you'])}")
        players = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
        players.add_column("player")
        players.add_column("counters")
        for p in view["players"]:
            who = p["name"] + (" (you)" if p["name"] == view["you"] else "") + (" — out" if p["eliminated"] else "")
            players.add_row(escape(who), escape(labels.counters(p["counters"])))
        if view["shared"]:
            players.add_row("table", escape(labels.counters(view["shared"])))
        panels = []
        zones = sorted(view["zones"], key=lambda z: (z["owner"] != view["you"], z["owner"] is not None))
        for zone in zones:
            title = labels.zone(zone["zone"]) + (f" — {zone['owner']}" if zone["owner"] else "")
            if zone["owner"] == view["you"]:
                title += " (yours)"
            if zone["cards"]:
                body = "\n".join(self._card(c) for c in zone["cards"])
            else:
                body = "[dim]empty[/dim]" if zone["size"] == 0 else f"[dim]{zone['size']} card(s), hidden[/dim]"
            panels.append(Panel(body, title=escape(title), title_align="left", expand=False))
        parts: list[Any] = [head, players, Columns(panels)]
        if view["waiting"]:
            waiting = "\n".join(f"{escape(w['effect'])} ({escape(str(w['player']))})" for w in view["waiting"])
            parts.append(Panel(waiting, title="waiting on the stack", title_align="left", expand=False))
        if view["revealed"]:
            shown = ", ".join(f"{r['card']} (from {r['from']})" for r in view["revealed"])
            parts.append(f"shown to you: {escape(shown)}")
        return Group(*parts)

    def decision(self, prompt: str, moves: list[str], simultaneous: bool) -> RenderableType:
        from rich.console import Group
        from rich.markup import escape
        from rich.text import Text

        lines: list[Any] = [Text(prompt, style="bold")]
        if simultaneous:
            lines.append(Text("everyone picks at once: the others' picks stay hidden until all have picked",
                              style="dim"))
        width = len(str(len(moves) - 1))
        lines += [f"  [bold]\\[{i:>{width}}][/bold] {escape(words)}" for i, words in enumerate(moves)]
        lines.append(Text(HELP, style="dim"))
        return Group(*lines)

    def card_text(self, asked: str) -> RenderableType:
        """`? NAME`: a card's name, type, printed stats and full rules text."""
        from rich.markup import escape
        from rich.panel import Panel

        from cardsmith.compiler.text import card_text

        by_name = {c.name.lower(): c for c in self.game.ir.cards}
        card = by_name.get(asked.strip().lower())
        if card is None:
            close = difflib.get_close_matches(asked.strip().lower(), list(by_name), n=3)
            hint = f"; did you mean {', '.join(repr(by_name[c].name) for c in close)}?" if close else ""
            return f"no card is named {escape(repr(asked.strip()))}{escape(hint)}"
        stats = _stats(self.game, card.name)
        keywords = ", ".join(k.name.replace("_", " ") for k in card.keywords)
        body = "\n".join(part for part in (f"[dim]{escape(card.type)}[/dim]", escape(stats), escape(keywords),
                                           escape(card_text(self.game.ir, card))) if part)
        return Panel(body, title=escape(card.name), title_align="left", expand=False)


class TablePlayer:
    """A person at the terminal: shown the table as their seat sees it, answers a number
    (or `?`, `log`, `undo`). `show` prints a renderable, `ask` reads a line."""

    name = "human"

    def __init__(self, show: Callable[[Any], None], ask: Callable[[str], str], game: CompiledGame) -> None:
        self.show = show
        self.ask = ask
        self.table = TableView(game)
        self.story: list[str] = []
        self.told = 0  # how much of the story the person has been shown

    def witness(self, text: str) -> None:
        """A move, as this seat may tell it (play_at_table feeds every move)."""
        self.story.append(text)

    def choose(self, seat_view: SeatView) -> int:
        view = seat_view.observation
        decision = seat_view.decision()
        prompt = decision.prompt if decision is not None else "Your move"
        moves = decision.moves if decision is not None else [c.description for c in seat_view.choices]
        since = self.story[self.told:]
        self.told = len(self.story)
        if since:  # what happened since the person last decided
            self.show("\n".join(since[-STORY_SHOWN:]))
        self.show(self.table.board(view))
        self.show(self.table.decision(prompt, moves, bool(view["simultaneous"])))
        count = seat_view.size
        while True:
            answer = self.ask("your choice")
            if answer.isdigit() and int(answer) < count:
                return int(answer)
            if answer.startswith("?") and answer[1:].strip():
                self.show(self.table.card_text(answer[1:]))
            elif answer == "log":
                self.show("\n".join(self.story[-STORY_SHOWN:]) or "nothing has happened yet")
            elif answer == "undo":
                raise UndoRequested()
            elif answer in ("?", "help"):
                self.show(HELP)
            else:
                self.show(f"please answer a number from 0 to {count - 1}, or ? NAME, log, undo")


def _told(match: PlayedMatch, seat: int, action: Any) -> str:
    text = seen_by(match, seat, action)
    who = "you" if action.player == seat else match.players[action.player].name
    return f"{who}: {text}" if text is not None else f"{who} made a move you cannot see yet"


def play_at_table(played: list[PlayedMatch], agents: list[Any], max_actions: int) -> int:
    """Play `played[-1]` to its end with people at the table (TablePlayer agents): each
    person is told every move as their seat may know it; `undo` plays the match again from
    its seed up to the person's previous decision, appended to `played` (so a caller
    interrupted halfway knows the match in play). Returns how many moves the match took."""
    people = {seat: agent for seat, agent in enumerate(agents) if isinstance(agent, TablePlayer)}
    match = played[-1]
    while not match.is_over and len(match.history) < max_actions:
        actions = match.legal_actions()
        if not actions:
            break
        try:
            chosen = ask(agents[actions[0].player % len(agents)], match, actions)
        except UndoRequested:
            match = _undone(match, actions[0].player, people)
            played.append(match)
            continue
        for seat, person in people.items():
            person.witness(_told(match, seat, chosen))
        match.apply(chosen)
    return len(match.history)


def _undone(match: PlayedMatch, seat: int, people: dict[int, TablePlayer]) -> PlayedMatch:
    """The match played again from its seed (as copies.replica starts one), up to `seat`'s last
    decision before this one — the moves between are taken again as they were; the same
    match when there is none."""
    deciders = [player for _id, player, *_rest in match.moves]
    earlier = [i for i, player in enumerate(deciders) if player == seat]
    if not earlier:
        people[seat].show("there is no earlier move of yours to take back")
        return match
    history = match.history[:earlier[-1]]
    again = type(match)(match.game, seed=match.seed, players=len(match.players), mode=match.mode,
                        decks=match.decks, stops=match.stops)
    for person in people.values():
        person.story.clear()
        person.told = 0
    for action_id in history:
        action = next(a for a in again.legal_actions() if a.id == action_id)
        for viewer, person in people.items():
            person.witness(_told(again, viewer, action))
        again.apply(action)
    for person in people.values():
        person.told = len(person.story)  # (`log` still lists them)
    people[seat].show(f"took back your move {len(earlier)}: back to move {len(history) + 1}")
    return again
