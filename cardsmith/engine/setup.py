"""What a match may be asked to start with: a number of players and a mode the game
declares. Asked by every command that starts matches (play, simulate, replay), before
any match starts, so a bad request is a usage error with the allowed values — never a
match with no players that runs forever, nor a mode silently ignored."""

from __future__ import annotations

from cardsmith.dsl import ir
from cardsmith.dsl.diagnostics import did_you_mean
from cardsmith.engine.game import CompiledGame


def match_problems(game: CompiledGame, players: object, mode: object) -> list[str]:
    """Why a match of `game` cannot start with these players and mode (empty: it can)."""
    problems: list[str] = []
    modes = [m.name for m in game.ir.modes]
    if mode is not None and (not isinstance(mode, str) or mode not in modes):
        hint = did_you_mean(str(mode), modes) if isinstance(mode, str) else None
        listed = ", ".join(f"{m.name} ({m.label})" if m.label and m.label != m.name else m.name
                           for m in game.ir.modes) if modes else "none"
        problems.append(f"{game.ir.game.name} has no mode {mode!r} (its modes: {listed})"
                        + (f"; {hint}" if hint else ""))
        mode = None
    if players is not None:
        low, high = ir.seat_range(game.ir, mode if isinstance(mode, str) else None)
        if not isinstance(players, int) or isinstance(players, bool) or not low <= players <= high:
            allowed = f"{low}" if low == high else f"{low} to {high}"
            where = f" in mode {mode}" if mode is not None else ""
            problems.append(f"{game.ir.game.name} is played by {allowed} players{where}, not {players!r}")
    return problems


def default_players(game: CompiledGame, mode: str | None) -> int:
    """How many players a match has when the command line does not say: the fewest the
    mode allows — the named one, or the default mode (the first declared) without one."""
    return ir.seat_range(game.ir, mode if mode is not None else ir.default_mode(game.ir, None))[0]
