"""One seat's page of a match, as data: built from that seat's observation only.

Everything a seat's page (HTML or JSON) shows comes from `match.observation(seat)`, the
legal moves as that seat reads them, the cards each move uses in the seat's own numbers
(engine/moveview.cards_used) and the story written for that seat (play.Entry.seen): never
from the match's cards, its log or its seed. Names are the game's own (agents.Labels), and
each move reads in the game's words (engine/movewords.py) with the log's wording, in the
seat's own card numbers, kept as its tooltip.
"""

from __future__ import annotations

from typing import Any

from cardsmith.engine.moveview import cards_used
from cardsmith.engine.movewords import decision_for
from cardsmith.studio.play import MatchSession
from cardsmith.studio.project import Snapshot
from cardsmith.studio.web import card_image_url

STORY_SHOWN = 300  # the last moves of the story a page lists


def _counters(labels: Any, values: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"name": labels.names.get(k, k), "value": v} for k, v in values.items()]


def _card(labels: Any, snapshot: Snapshot, seen: dict[str, Any]) -> dict[str, Any]:
    if seen.get("hidden"):
        return {"hidden": True}
    name = str(seen.get("name", "?"))
    return {"hidden": False, "number": seen.get("id"), "name": name, "type": seen.get("type"),
            "image": card_image_url(snapshot, name), "marks": labels.marks(seen), "host": seen.get("host"),
            "position": seen.get("position")}


def story_for(session: MatchSession, seat: int) -> list[dict[str, Any]]:
    """The moves so far as `seat` may tell them, newest last."""
    players = session.match.players
    out = []
    for entry in session.story[-STORY_SHOWN:]:
        text = entry.seen[seat]
        who = "you" if entry.seat == seat else players[entry.seat].name
        if text is None:
            text = "made a move you cannot see yet" if entry.seat != seat else "?"
        out.append({"step": entry.step + 1, "turn": entry.turn, "who": who, "text": text,
                    "mine": entry.seat == seat})
    return out


def seat_state(session: MatchSession, seat: int, snapshot: Snapshot) -> dict[str, Any]:
    """What the page of `seat` (0-based) shows (see the module docstring)."""
    match = session.match
    labels = session.labels
    view = match.observation(seat)
    decider = session.decider()
    kinds = session.setup.kinds
    actions: list[dict[str, Any]] = []
    prompt = None
    if decider == seat and kinds[seat] == "person":
        legal = match.legal_actions()
        decision = decision_for(match, seat)  # the moves in the game's words
        prompt = decision.prompt if decision is not None else None
        for index, record in enumerate(view["legal_actions"]):
            words = decision.moves[index] if decision is not None else record
            actions.append({"index": index, "text": words, "record": record,
                            "cards": cards_used(match, seat, legal[index]),
                            "passes": legal[index].payload == "pass"})
    zones = []
    for zone in view["zones"]:
        shown = bool(zone["cards"]) or zone["size"] == 0
        zones.append({"name": labels.zone(zone["zone"]), "owner": zone["owner"], "size": zone["size"],
                      "shown": shown, "mine": zone["owner"] == view["you"],
                      "cards": [_card(labels, snapshot, c) for c in zone["cards"]]})
    zones.sort(key=lambda z: (not z["mine"], z["owner"] is not None))  # yours, then the table's, then the others'
    result = view["result"]
    return {
        "match": session.id, "seat": seat + 1, "you": view["you"], "step": session.step,
        "turn": view["turn"], "current": view["current"], "stage": view["stage"],
        "mode": labels.mode(view["mode"]) if view["mode"] is not None else None,
        "simultaneous": view["simultaneous"],
        "players": [{"name": p["name"], "you": p["name"] == view["you"], "eliminated": p["eliminated"],
                     "kind": kinds[i], "counters": _counters(labels, p["counters"])}
                    for i, p in enumerate(view["players"])],
        "shared": _counters(labels, view["shared"]),
        "zones": zones,
        "waiting": view["waiting"],
        "revealed": view["revealed"],
        "decider": None if decider is None else decider + 1,
        "decider_kind": None if decider is None else kinds[decider],
        "actions": actions,
        "prompt": prompt,
        "story": story_for(session, seat),
        "over": match.is_over,
        "result": result if result is not None else (match.result if match.is_over else None),
        "log_allowed": session.log_allowed() is None,
        "version": session.version,
    }
