"""Replaying a match log and re-verifying it, event by event.

A log starts with a `match` event (game, seed, players, mode) and records every action
with its id among the legal actions; replaying those ids with the same seed must give
the same log, byte for byte. The first difference — a tampered or corrupted log, or
rules that changed — is reported with its line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from cardsmith.engine.flow import PlayedMatch
from cardsmith.engine.game import CompiledGame, load
from cardsmith.engine.runtime import RulesError
from cardsmith.engine.setup import match_problems


@dataclass
class ReplayResult:
    ok: bool
    message: str
    line: int  # among the log's non-blank lines, 1-based
    hint: str | None = None


_NOT_A_LOG = "a match log is one JSON object per line, as `cardsmith play --log` writes it"
_HEADER = "the first line names the game, seed, players, mode and decks to replay"
_CHANGED = ("the log was edited after it was written, or the rules changed since (a log replays on the "
            "rules that wrote it)")


def encode(entry: dict[str, Any]) -> str:
    return json.dumps(entry, default=str, sort_keys=True)


def log_lines(match: PlayedMatch, actions: int) -> list[str]:
    """A played match's log as written to a file: every event, then the result — what
    `cardsmith replay` re-runs and compares, line by line."""
    result = {**match.result, "actions": actions, "seed": match.seed}
    return [*(encode(entry) for entry in match.log), encode({"event": "result", **result})]


def replay(lines: list[str], game_override: str | None = None) -> ReplayResult:
    """Replay a log's lines against the game it names (or `game_override`)."""
    entries, problem = parse_log(lines)
    if problem is not None:
        return problem
    return replay_entries(entries, load(game_override or str(entries[0].get("game"))))


def parse_log(lines: list[str]) -> tuple[list[dict[str, Any]], ReplayResult | None]:
    """A log's lines as JSON objects, or why they are not a log (with its line)."""
    entries: list[dict[str, Any]] = []
    for number, line in enumerate(lines, 1):
        try:
            entry = json.loads(line)
        except RecursionError:
            return [], ReplayResult(False, "this line is nested too deeply to read", number, _NOT_A_LOG)
        except ValueError:
            return [], ReplayResult(False, "this line is not JSON", number, _NOT_A_LOG)
        if not isinstance(entry, dict):
            return [], ReplayResult(False, "each line must be a JSON object", number, _NOT_A_LOG)
        entries.append(entry)
    if not entries or entries[0].get("event") != "match":
        return [], ReplayResult(False, "the log does not start with a 'match' event", 1, _HEADER)
    return entries, None


def _header_problem(game: CompiledGame, head: dict[str, Any]) -> str | None:
    """What is wrong with a log's `match` event for this game (None: nothing)."""
    seed, players, decks = head.get("seed"), head.get("players"), head.get("decks")
    if type(seed) is not int:
        return f"its seed must be a whole number, not {seed!r}"
    if type(players) is not int:
        return f"its number of players must be a whole number, not {players!r}"
    problems = match_problems(game, players, head.get("mode"))
    if problems:
        return problems[0]
    if decks is not None and not (isinstance(decks, list) and len(decks) == players and all(
            isinstance(deck, list) and all(isinstance(name, str) for name in deck) for deck in decks)):
        return "its decks must be a list of card names for each player"
    stops = head.get("stops", [])
    if not (isinstance(stops, list) and all(type(seat) is int and 0 <= seat < players for seat in stops)):
        return "its stops must be a list of seat numbers (0-based) of the match"
    return None


def replay_entries(entries: list[dict[str, Any]], game: CompiledGame) -> ReplayResult:
    """Replay parsed log entries (parse_log) against a compiled game."""
    head = entries[0]
    problem = _header_problem(game, head)
    if problem is not None:
        return ReplayResult(False, f"bad 'match' event: {problem}", 1, _HEADER)
    try:
        match = PlayedMatch(game, seed=head["seed"], players=head["players"], mode=head.get("mode"),
                            decks=head.get("decks"), stops=head.get("stops", ()))
    except RulesError as exc:
        return ReplayResult(False, f"bad 'match' event: {exc}", 1, _HEADER)
    for entry in entries[1:]:
        if entry.get("event") == "action":
            actions = match.legal_actions()
            action_id = entry.get("id")
            if not isinstance(action_id, int) or not 0 <= action_id < len(actions):
                return ReplayResult(False, f"action {action_id!r} is not legal at this point",
                                    _line_of(entries, entry), _CHANGED)
            match.apply(actions[action_id])
    produced = [encode(e) for e in match.log]
    produced.append(encode({"event": "result", **match.result, "actions": len(match.history),
                            "seed": match.seed}))
    expected = [encode(e) for e in entries]
    for number, (got, want) in enumerate(zip(produced, expected, strict=False), 1):
        if got != want:
            return ReplayResult(False, f"diverges: expected {want[:200]} but replay gives {got[:200]}", number,
                                _CHANGED)
    if len(produced) != len(expected):
        return ReplayResult(False, f"the log has {len(expected)} events, the replay {len(produced)}",
                            min(len(produced), len(expected)) + 1, "the log was cut short or added to")
    return ReplayResult(True, f"verified {len(expected)} events", len(expected))


def _line_of(entries: list[dict[str, Any]], entry: dict[str, Any]) -> int:
    return next(i for i, e in enumerate(entries, 1) if e is entry)
