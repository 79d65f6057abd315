"""The Play pages through HTTP: a whole match, every game's board, refused requests,
hidden cards kept hidden, undo, the log and replays."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardsmith.engine.replay import replay
from cardsmith.engine.seatview import visible_to
from cardsmith.studio.play import MatchSession
from cardsmith.studio.project import Project
from cardsmith.studio.server import create_app

GAMES = ["combat_cards", "kingdom_cards", "kingdom_combat", "construct_and_combat", "two_kingdoms"]


@cache
def client_for(game: str) -> TestClient:
    return TestClient(create_app(Project(game), watch=False))


def start(client: TestClient, **fields: Any) -> str:
    """A new match's id (the form posted as JSON)."""
    body = {"seed": 1, "seat1": "person", "seat2": "random", **fields}
    answer = client.post("/play", json=body)
    assert answer.status_code == 200, answer.text
    return str(answer.json()["next"].split("/")[2])


def session_of(client: TestClient, match_id: str) -> MatchSession:
    session: MatchSession = client.app.state.play_matches.get(match_id)  # type: ignore[attr-defined]
    return session


def state(client: TestClient, match_id: str, seat: int) -> dict[str, Any]:
    answer = client.get(f"/play/{match_id}/seat/{seat}/state")
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def act(client: TestClient, match_id: str, seat: int, index: int, step: int) -> Any:
    return client.post(f"/play/{match_id}/act", json={"seat": seat, "index": index, "step": step})


def play_hot_seat(client: TestClient, match_id: str, moves: int, rng: random.Random | None = None) -> None:
    """`moves` moves of a match of persons: whoever decides picks the first move (or one
    at random)."""
    for _ in range(moves):
        session = session_of(client, match_id)
        decider = session.decider()
        if decider is None:
            return
        seen = state(client, match_id, decider + 1)
        count = len(seen["actions"])
        assert count, seen
        index = rng.randrange(count) if rng is not None else 0
        assert act(client, match_id, decider + 1, index, seen["step"]).status_code == 200


def test_a_whole_match_person_against_random_through_http() -> None:
    client = client_for("combat_cards")
    match_id = start(client, seed=3)
    for _ in range(2000):
        seen = state(client, match_id, 1)
        if seen["over"]:
            break
        assert seen["decider"] == 1 and seen["actions"]
        answer = act(client, match_id, 1, 0, seen["step"])
        assert answer.status_code == 200, answer.text
    assert seen["over"] and seen["result"]["over"]
    html = client.get(f"/play/{match_id}/seat/1").text
    assert "The match is over" in html and "Download the log" in html
    # the log, downloaded, replays without a mismatch
    log = client.get(f"/play/{match_id}/log")
    assert log.status_code == 200 and "attachment" in log.headers["content-disposition"]
    lines = [line for line in log.text.splitlines() if line.strip()]
    verdict = replay(lines)
    assert verdict.ok, verdict.message
    # ... and reads back in the replay page, step by step
    page = client.post("/play/replay", files={"log": ("m.log", log.content)}, follow_redirects=True)
    assert page.status_code == 200 and "omniscient" in page.text and "verified" in page.text
    assert client.get(page.url.path + "?step=5").status_code == 200


@pytest.mark.parametrize("game", GAMES)
def test_every_game_shows_a_board_for_each_seat_and_takes_moves(game: str) -> None:
    client = client_for(game)
    match_id = start(client, seat2="person")
    play_hot_seat(client, match_id, 4)
    session = session_of(client, match_id)
    assert session.step >= 4 or session.match.is_over
    for seat in (1, 2):
        seen = state(client, match_id, seat)
        assert seen["you"] == f"player{seat}" and seen["zones"]
        html = client.get(f"/play/{match_id}/seat/{seat}")
        assert html.status_code == 200
        decider = session.decider()
        if decider is None or decider + 1 == seat:
            assert 'id="board"' in html.text
        else:  # hot seat: the screen is passed, no board shown
            assert "Pass the screen to" in html.text and 'id="board"' not in html.text


def test_illegal_requests_are_refused_with_a_message() -> None:
    client = client_for("combat_cards")
    match_id = start(client)
    seen = state(client, match_id, 1)
    step = seen["step"]
    for body, status in [({"seat": 2, "index": 0, "step": step}, 409),  # an agent's seat
                         ({"seat": 1, "index": 0, "step": step + 1}, 409),  # stale step
                         ({"seat": 1, "index": 9999, "step": step}, 422),  # no such move
                         ({"seat": 3, "index": 0, "step": step}, 422),  # no such seat
                         ({"seat": 1, "index": -1, "step": step}, 422),
                         ({"seat": "x", "index": 0, "step": step}, 422)]:
        answer = client.post(f"/play/{match_id}/act", json=body)
        assert answer.status_code == status, (body, answer.text)
        assert answer.json()["detail"]
    assert session_of(client, match_id).step == step  # nothing was applied
    assert act(client, match_id, 1, 0, step).status_code == 200
    assert act(client, match_id, 1, 0, step).status_code == 409  # the same click twice
    assert client.get(f"/play/{match_id}/seat/2").status_code == 403  # the agent's board is its own
    assert client.get("/play/abcdef/seat/1").status_code == 404
    assert client.post("/play/abcdef/act", json={"seat": 1, "index": 0, "step": 0}).status_code == 404
    assert client.get(f"/play/{match_id}/seat/0").status_code == 422
    assert client.get(f"/play/{match_id}/log").status_code == 409  # hidden cards while a person plays
    for bad in ({"seed": -1}, {"players": 99}, {"seat2": "smart"}, {"seat2": "search", "budget2": "0"},
                {"mode": "nonesuch"}):
        answer = client.post("/play", json={"seat1": "person", "seat2": "random", **bad})
        assert answer.status_code == 422, (bad, answer.text)
    form = client.post("/play", data={"seed": "-1", "seat1": "person"})
    assert form.status_code == 422 and "seed" in form.text
    # over: no move is taken
    session = session_of(client, match_id)
    while not session.match.is_over:
        seen = state(client, match_id, 1)
        act(client, match_id, 1, 0, seen["step"])
    answer = act(client, match_id, 1, 0, session.step)
    assert answer.status_code == 409 and "over" in answer.json()["detail"]


def forbidden_names(session: MatchSession, seat: int) -> set[str]:
    """Names of cards only in places `seat` cannot see and not its own: not on view to it
    anywhere, not in its own zones (its own draw pile: it knows what its deck holds), nor
    in its decklist."""
    match = session.match
    viewer = match.players[seat]
    sealed = match.sealed_cards(viewer)
    hidden: set[str] = set()
    known: set[str] = set(session.setup.decks[seat]) if session.setup.decks else set()
    for zone in match.zones.values():
        for card in zone.cards:
            if visible_to(card, viewer, sealed) or zone.owner is viewer:
                known.add(card.name)
            else:
                hidden.add(card.name)
    return hidden - known


@pytest.mark.parametrize("game", ["combat_cards", "kingdom_cards", "kingdom_combat"])
def test_a_seat_never_sees_the_name_of_a_card_hidden_from_it(game: str) -> None:
    client = client_for(game)
    match_id = start(client, seed=2, seat2="person")
    session = session_of(client, match_id)
    rng = random.Random(5)
    checked = 0
    for _ in range(6):
        play_hot_seat(client, match_id, 5, rng)
        for _ in range(50):  # on to seat 1's decision, so its page shows its board
            if session.decider() in (None, 0):
                break
            play_hot_seat(client, match_id, 1, rng)
        if session.match.is_over:
            break
        forbidden = forbidden_names(session, 0)
        assert forbidden, "the test would prove nothing: no card is hidden from seat 1"
        seen = client.get(f"/play/{match_id}/seat/1/state").text
        html = client.get(f"/play/{match_id}/seat/1").text
        assert 'id="board"' in html
        for name in forbidden:
            assert name not in seen, f"{name!r} reached seat 1's state"
            assert name not in html, f"{name!r} reached seat 1's page"
        checked += 1
    assert checked


def test_undo_restores_an_earlier_board_exactly() -> None:
    client = client_for("kingdom_cards")
    match_id = start(client, seed=4, seat2="person")
    play_hot_seat(client, match_id, 6)
    session = session_of(client, match_id)
    step = session.step
    before = [session.match.observation(seat) for seat in (0, 1)]
    story = state(client, match_id, 1)["story"]
    play_hot_seat(client, match_id, 8)
    assert session.step > step
    answer = client.post(f"/play/{match_id}/undo", json={"step": step, "seat": 1})
    assert answer.status_code == 200, answer.text
    assert session.step == step
    assert [session.match.observation(seat) for seat in (0, 1)] == before
    assert state(client, match_id, 1)["story"] == story
    assert client.post(f"/play/{match_id}/undo", json={"step": step + 5}).status_code == 422
    assert client.post(f"/play/{match_id}/undo", json={"step": 0}).status_code == 200 and session.step == 0


def test_agents_only_and_a_search_agent_with_a_budget() -> None:
    client = client_for("combat_cards")
    match_id = start(client, seat1="random", seat2="search", budget2="20")
    session = session_of(client, match_id)
    assert session.setup.kinds == ("random", "search:20")
    while not session.match.is_over:  # bounded by the agents' request limits
        assert client.post(f"/play/{match_id}/continue", json={}).status_code == 200
    log = client.get(f"/play/{match_id}/log")
    assert log.status_code == 200 and replay(log.text.splitlines()).ok
    assert client.get(f"/play/{match_id}/seat/2").status_code == 200  # no person to hide from


def test_a_broken_log_or_another_games_log_is_a_readable_error() -> None:
    client = client_for("combat_cards")
    for content, words in [(b"not json\n", "not JSON"), (b"\xff\xfe", "UTF-8"),
                           (b'{"event": "match", "game": "kingdom_cards", "seed": 1, "players": 2}\n', "kingdom_cards"),
                           (b'{"event": "match", "game": "combat_cards", "seed": "x", "players": 2}\n', "seed"),
                           (b'{"event": "action"}\n', "match")]:
        answer = client.post("/play/replay", files={"log": ("bad.log", content)})
        assert answer.status_code == 422, answer.text
        assert words in answer.text
    assert client.get("/play/replay/abcdef").status_code == 404
    assert client.get("/play/replay").status_code == 200


def test_a_running_match_keeps_the_rules_it_began_with(tmp_path: Any) -> None:
    from tests.studio.conftest import copy_game

    folder = copy_game("combat_cards", tmp_path)
    project = Project(str(folder))
    client = TestClient(create_app(project, watch=False))
    form = client.post("/play", data={"seed": "2", "seat1": "person", "seat2": "random"}, follow_redirects=False)
    assert form.status_code == 303
    match_id = form.headers["location"].split("/")[2]
    seen = state(client, match_id, 1)
    source = folder / "cards" / "fantasy.cards"
    source.write_text(source.read_text() + "\ncard \"Broken\" { nonsense }\n")
    assert not project.reload().ok
    assert act(client, match_id, 1, 0, seen["step"]).status_code == 200  # the match goes on
    page = client.get(f"/play/{match_id}/seat/1")
    assert page.status_code == 200 and "rules of version 1" in page.text
    assert "The game has errors" in client.get("/play").text
    assert client.post("/play", json={"seat1": "person"}).status_code == 409
