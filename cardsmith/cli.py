"""The cardsmith command line (typer): the only layer that prints.

Data goes to stdout, diagnostics and progress to stderr. Exit codes: 0 clean
(warnings allowed), 1 errors in the input, 2 bad usage. Colour follows the terminal
and honours NO_COLOR. No input ever produces a Python traceback: anything unexpected
is reported as an internal error with a request to file a bug.
"""

from __future__ import annotations

import json
import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from cardsmith.compiler.api import CheckResult
    from cardsmith.compiler.loader import LoadError
    from cardsmith.dsl.diagnostics import Diagnostic

from cardsmith.util.version import VERSION as __version__

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False, rich_markup_mode=None,
                  help="cardsmith: write card games as text; check, play and print them.")

EXIT_OK, EXIT_INPUT, EXIT_USAGE = 0, 1, 2


class OutputFormat(StrEnum):
    text = "text"
    json = "json"


def _color() -> bool:
    return "NO_COLOR" not in os.environ and sys.stderr.isatty()


def _err(message: str) -> None:
    typer.echo(message, err=True)


def _usage_error(exc: LoadError) -> typer.Exit:
    from cardsmith.dsl.diagnostics import problem
    _err(problem(exc.message, exc.hint))
    return typer.Exit(EXIT_USAGE)


def _print_diagnostics(result: CheckResult) -> None:
    from cardsmith.dsl.diagnostics import render_all
    if result.diagnostics:
        _err(render_all(result.diagnostics, result.sources, color=_color()))
        _err("")


def _summary(label: str, diagnostics: list[Diagnostic]) -> str:
    from cardsmith.dsl.diagnostics import Severity
    errors = sum(1 for d in diagnostics if d.severity is Severity.ERROR)
    warnings = len(diagnostics) - errors
    if errors:
        return f"{label}: {errors} error(s), {warnings} warning(s)"
    return f"{label}: ok" + (f", {warnings} warning(s)" if warnings else "")


@app.command()
def check(
    targets: Annotated[list[str], typer.Argument(help="game folders, .cards files or library game names")],
    output: Annotated[OutputFormat, typer.Option("--format", help="text or json")] = OutputFormat.text,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="ignore the result cache")] = False,
) -> None:
    """Check games: every error in one run, with locations and hints."""
    from cardsmith.compiler.api import check_game
    from cardsmith.compiler.loader import LoadError
    all_diagnostics: list[Diagnostic] = []
    failed = False
    for target in targets:
        try:
            result = check_game(target, use_cache=not no_cache)
        except LoadError as exc:
            raise _usage_error(exc) from None
        all_diagnostics.extend(result.diagnostics)
        if output is OutputFormat.text:
            _print_diagnostics(result)
            _err(_summary(target, result.diagnostics))
        failed = failed or not result.ok
    if output is OutputFormat.json:
        typer.echo(json.dumps([d.to_json() for d in all_diagnostics], indent=2))
    raise typer.Exit(EXIT_INPUT if failed else EXIT_OK)


@app.command()
def schema() -> None:
    """Print the JSON Schema of `cardsmith export`."""
    from cardsmith.compiler.export import export_schema

    typer.echo(json.dumps(export_schema(), indent=2))


@app.command()
def fmt(
    paths: Annotated[list[Path], typer.Argument(help=".cards files or folders")],
    check_only: Annotated[bool, typer.Option("--check", help="exit 1 if a file would change")] = False,
    stdout: Annotated[bool, typer.Option("--stdout", help="print the result instead of writing")] = False,
) -> None:
    """Rewrite .cards files in canonical form, keeping comments (idempotent)."""
    from cardsmith.compiler.loader import cards_files
    from cardsmith.dsl.diagnostics import DiagnosticSink, render
    from cardsmith.dsl.format import format_source
    from cardsmith.dsl.structure import decode_source
    from cardsmith.util.atomic import write_text_atomic

    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            found = cards_files(p)
            if not found:
                _err(f"error: no .cards files in {p}")
                raise typer.Exit(EXIT_USAGE)
            files.extend(found)
        elif p.is_file():
            files.append(p)
        else:
            _err(f"error: no such file or folder: {p}")
            raise typer.Exit(EXIT_USAGE)
    changed = 0
    failed = False
    for f in files:
        sink = DiagnosticSink()
        source = decode_source(str(f), f.read_bytes(), sink)
        formatted = format_source(source, sink) if source is not None else None
        if formatted is None or sink.has_errors:
            failed = True
            for d in sink.items:
                _err(render(d, {str(f): source} if source else {}, color=_color()))
            continue
        assert source is not None
        if stdout and not check_only:
            typer.echo(formatted, nl=False)
        elif formatted != source.text:
            changed += 1
            if check_only:
                _err(f"would reformat {f}")
            else:
                write_text_atomic(f, formatted)
                _err(f"formatted {f}")
    if failed:
        raise typer.Exit(EXIT_INPUT)
    if check_only and changed:
        raise typer.Exit(EXIT_INPUT)


def _checked(target: str) -> Any:
    """The checked game's IR, or the reason it is not one: bad usage (exit 2) or a game
    with errors (its diagnostics, exit 1)."""
    from cardsmith.compiler.api import check_game
    from cardsmith.compiler.loader import LoadError
    try:
        result = check_game(target)
    except LoadError as exc:
        raise _usage_error(exc) from None
    if not result.ok or result.game is None:
        _print_diagnostics(result)
        _err(_summary(target, result.diagnostics))
        raise typer.Exit(EXIT_INPUT)
    return result.game


def _compiled(target: str) -> Any:
    """The compiled game, or the reason it is not one: bad usage (exit 2) or a game with
    errors (its diagnostics, exit 1)."""
    from cardsmith.compiler.api import GameError
    from cardsmith.compiler.loader import LoadError
    from cardsmith.engine.game import load

    try:
        return load(target)
    except LoadError as exc:
        raise _usage_error(exc) from None
    except GameError as exc:
        _print_diagnostics(exc.result)
        _err(_summary(target, exc.result.diagnostics))
        raise typer.Exit(EXIT_INPUT) from None


class Emit(StrEnum):
    python = "python"


@app.command(name="compile")
def compile_game(
    target: Annotated[str, typer.Argument(help="a game folder or library game name")],
    emit: Annotated[Emit, typer.Option("--emit", help="what to print")] = Emit.python,
) -> None:
    """Print the Python module a game compiles to (readable, with .cards line references)."""
    typer.echo(_compiled(target).source, nl=False)


@app.command(name="test")
def test_game(
    target: Annotated[str, typer.Argument(help="a game folder or library game name")],
    output: Annotated[OutputFormat, typer.Option("--format", help="text or json")] = OutputFormat.text,
    name: Annotated[str | None, typer.Option("--name", "-k", help="only scenarios whose name contains this")]
    = None,
) -> None:
    """Run a game's scenarios; exit 1 if any fails."""
    from cardsmith.engine.scenarios import run_scenarios

    game = _compiled(target)  # report a game that does not check, or bad usage
    results = run_scenarios(target, name)
    if name is not None and not results:
        _err(f"error: no scenario of {game.ir.game.name} has a name containing '{name}'")
        names = [s.name for s in game.ir.scenarios]
        listed = "; ".join(f"'{n}'" for n in names[:5]) + ("; ..." if len(names) > 5 else "")
        _err(f"  = hint: its scenarios: {listed}" if names else "  = hint: the game has no scenarios")
        raise typer.Exit(EXIT_USAGE)
    failed = [r for r in results if not r.passed]
    if output is OutputFormat.json:
        typer.echo(json.dumps([{"name": r.name, "passed": r.passed, "message": r.message, "path": r.file,
                                "line": r.line} for r in results], indent=2))
    else:
        for r in results:
            mark = "PASS" if r.passed else "FAIL"
            where = "" if r.passed else f"  ({r.file}:{r.line}: {r.message})"
            typer.echo(f"{mark}  {r.name}{where}")
        _err(f"{target}: {len(results) - len(failed)} passed, {len(failed)} failed")
    raise typer.Exit(EXIT_INPUT if failed else EXIT_OK)


@app.command()
def play(
    target: Annotated[str, typer.Argument(help="a game folder or library game name")],
    seed: Annotated[int, typer.Option("--seed", help="the match's RNG seed")] = 1,
    players: Annotated[int | None, typer.Option("--players", help="number of players")] = None,
    mode: Annotated[str | None, typer.Option("--mode", help="a mode the game declares")] = None,
    log: Annotated[Path | None, typer.Option("--log", help="write the match log here (JSON lines)")] = None,
    max_actions: Annotated[int, typer.Option("--max-actions", help="stop after this many actions")] = 20_000,
    agents_spec: Annotated[str, typer.Option(
        "--agents", help="agents by seat: random, variety, greedy, search[:N|:MSms] (search:50,random)")] = "random",
    deck: Annotated[list[Path] | None, typer.Option("--deck", help="a decklist per seat (default: library decks)")]
    = None,
    human: Annotated[int | None, typer.Option("--human", help="seat (1, 2, ...) played by you at the terminal")]
    = None,
    stop_everywhere: Annotated[bool, typer.Option(
        "--stop-everywhere", help="with --human: be asked at every window, also where passing is all you could do")]
    = False,
) -> None:
    """Play one match between agents (or you) and print the result (JSON)."""
    from cardsmith.engine.agents import make_agent, play_out
    from cardsmith.engine.flow import PlayedMatch
    from cardsmith.engine.setup import default_players
    from cardsmith.engine.table import TablePlayer, play_at_table
    from cardsmith.terminal import ask_line, show
    from cardsmith.util.atomic import write_text_atomic

    if max_actions < 1:
        _err("error: --max-actions must be at least 1")
        raise typer.Exit(EXIT_USAGE)
    game = _compiled(target)
    _refuse_bad_setup(game, players, mode)
    count = players if players is not None else default_players(game, mode)
    kinds = [k.strip() for k in agents_spec.split(",") if k.strip()] or ["random"]
    _refuse_extra_agents(kinds, count)
    kinds = [kinds[i] if i < len(kinds) else kinds[-1] for i in range(count)]
    if human is not None:
        if not 1 <= human <= count:
            _err(f"error: --human must be a seat from 1 to {count}")
            raise typer.Exit(EXIT_USAGE)
        kinds[human - 1] = "human"
    try:
        agents = [TablePlayer(show, ask_line, game) if kind == "human" else make_agent(kind, seed * 1000 + i)
                  for i, kind in enumerate(kinds)]
    except ValueError as exc:
        _err(f"error: {exc}")
        raise typer.Exit(EXIT_USAGE) from None
    if stop_everywhere and human is None:
        _err("error: --stop-everywhere goes with --human")
        raise typer.Exit(EXIT_USAGE)
    decks = _decks(game, count, deck)
    stops = [human - 1] if human is not None and stop_everywhere else []
    played = [PlayedMatch(game, seed=seed, players=count, mode=mode, decks=decks, stops=stops)]
    try:  # people at the table are told each move, and may take theirs back (engine/table.py)
        applied = play_out(played[0], agents, max_actions=max_actions) if "human" not in kinds \
            else play_at_table(played, agents, max_actions)
    except (typer.Abort, KeyboardInterrupt) as stop:  # end of the human's input, or Ctrl-C
        why = "the input ended before the match did" if isinstance(stop, typer.Abort) else "interrupted"
        _err(f"\nstopped: {why} (after {len(played[-1].moves)} moves; no log is written for an unfinished match)")
        raise typer.Exit(EXIT_INPUT) from None
    match = played[-1]
    result = {**match.result, "actions": applied, "seed": seed}
    if log is not None:
        from cardsmith.engine.replay import log_lines

        lines = log_lines(match, applied)
        write_text_atomic(log, "\n".join(lines) + "\n")
        _err(f"wrote {log} ({len(lines)} events)")
    typer.echo(json.dumps(result, default=str))
    raise typer.Exit(EXIT_INPUT if match.error else EXIT_OK)


@app.command()
def replay(
    log: Annotated[Path, typer.Argument(help="a match log written by `cardsmith play --log`")],
    game: Annotated[str | None, typer.Option("--game", help="the game (default: the one the log names)")] = None,
) -> None:
    """Replay a match log and verify it, event by event; exit 1 at the first divergence."""
    from cardsmith.compiler.loader import is_library_game
    from cardsmith.dsl.diagnostics import Diagnostic, Severity, render
    from cardsmith.dsl.source import SourceFile, Span
    from cardsmith.engine.replay import parse_log, replay_entries

    try:
        text = log.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        _err(f"error: {log} is not a match log: it is not UTF-8 text")
        raise typer.Exit(EXIT_INPUT) from None
    except OSError as exc:
        _err(f"error: cannot read {log}: {exc.strerror or exc}")
        raise typer.Exit(EXIT_USAGE) from None
    numbered = [(number, line) for number, line in enumerate(text.splitlines(), 1) if line.strip()]
    lines = [line for _, line in numbered]
    entries, problem = parse_log(lines)
    if problem is None:
        target = game or str(entries[0].get("game"))
        if game is None and not is_library_game(target):
            # the log names its game by id: a game outside the library needs --game
            _err(f"error: the log's game {target!r} is not in the library")
            _err("  = hint: a log names its game by id; for a game folder, pass --game FOLDER")
            raise typer.Exit(EXIT_USAGE)
        problem = replay_entries(entries, _compiled(target))
    result = problem
    if result.ok:
        _err(f"{log}: {result.message}")
        raise typer.Exit(EXIT_OK)
    # the result counts non-blank lines; the diagnostic points at the file's own line
    line = numbered[result.line - 1][0] if 1 <= result.line <= len(numbered) else \
        (numbered[-1][0] + 1 if numbered else 1)
    source = SourceFile(str(log), text)
    width = len(source.line_text(line)) if line <= len(source.line_starts) else 0
    span = Span(file=str(log), line=line, column=1, end_line=line, end_column=max(2, width + 1))
    diagnostic = Diagnostic(span=span, severity=Severity.ERROR, code="CS3001", message=result.message,
                            hint=result.hint)
    _err(render(diagnostic, {str(log): source}, color=_color()))
    raise typer.Exit(EXIT_INPUT)


class RulesShown(StrEnum):
    """How much of the dead-rule report `simulate` prints."""

    all = "all"
    never = "never"
    none = "none"


@app.command()
def simulate(
    target: Annotated[str, typer.Argument(help="a game folder or library game name")],
    games: Annotated[int, typer.Option("--games", "-n", help="how many seeds (each played in every seat order)")]
    = 100,
    seed: Annotated[int, typer.Option("--seed", help="seed of the first match (then +1 each)")] = 1,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="worker processes")] = 1,
    players: Annotated[int | None, typer.Option("--players", help="number of players")] = None,
    mode: Annotated[str | None, typer.Option("--mode", help="a mode the game declares")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="the same as --format json")] = False,
    output: Annotated[OutputFormat, typer.Option("--format", help="text or json")] = OutputFormat.text,
    rules: Annotated[RulesShown, typer.Option("--rules", help="the dead-rule report: every rule with its "
                                              "counts (all), only those that never happened (never), or none")]
    = RulesShown.all,
    agents_spec: Annotated[str, typer.Option("--agents", help="agents by seat: random, variety, greedy, search[:N]")]
    = "variety",  # engine/agents.DEFAULT_AGENT (written out: the CLI starts without the engine)
    deck: Annotated[list[Path] | None, typer.Option("--deck", help="a decklist per seat (default: the game's "
                                                    "decks/); more than seats: every pairing")] = None,
    all_decks: Annotated[bool, typer.Option("--all-decks", help="every ready deck against every other")] = False,
    no_rotate: Annotated[bool, typer.Option("--no-rotate", help="deal the decks only in the order given")] = False,
    max_actions: Annotated[int | None, typer.Option("--max-actions", help="a match's action cap (20,000)")] = None,
    compare: Annotated[str | None, typer.Option("--compare", help="another version of the game to compare")]
    = None,
    overrides: Annotated[list[str] | None, typer.Option("--set", help='compare with a card stat changed: '
                                                        '"Card Name.stat=value" (repeatable)')] = None,
    matches_out: Annotated[Path | None, typer.Option("--matches-out", help="write every match (.jsonl or .csv)")]
    = None,
    plots: Annotated[Path | None, typer.Option("--plots", help="write charts (SVG) into this folder")] = None,
    traces: Annotated[Path, typer.Option("--traces", help="where the logs of failing matches are saved")]
    = Path("cardsmith-traces"),
    leave_out: Annotated[bool, typer.Option("--leave-out/--no-leave-out", help="when a deck wins nearly every "
                                            "match, replay its seeds without each of its cards")] = True,
    leave_out_untested: Annotated[bool, typer.Option("--leave-out-untested", help="also replay the seeds without "
                                                     "each card card impact could not test")] = False,
) -> None:
    """Play many matches between agents; print their balance statistics and the dead-rule report.

    Outcomes, seat and deck win rates with 95% intervals, matchups, card impact with flags
    (docs/simulate.md), then how often each rule happened. --compare FOLDER or --set compare
    two versions on the same seeds, paired. A failing match's log is saved under --traces
    for `cardsmith replay`. A rules error, or a match stopped at the game's `turn_limit` or
    the action cap, makes the exit status 1; a rule that never happened does not."""
    import tempfile

    from rich.console import Console
    from rich.progress import Progress

    from cardsmith.engine.agents import agent_problem
    from cardsmith.engine.setup import default_players
    from cardsmith.engine.simreport import summary_lines, turn_limit_note, warnings
    from cardsmith.engine.simrun import Version, simulate_versions
    from cardsmith.engine.simulate import MAX_ACTIONS, MAX_ACTIONS_LIMIT, seat_orders
    from cardsmith.engine.whatif import OverrideError, apply_overrides

    cap = MAX_ACTIONS if max_actions is None else max_actions
    kinds = [k.strip() for k in agents_spec.split(",") if k.strip()] or ["variety"]
    problems = [p for p in (agent_problem(k) for k in kinds) if p is not None]
    problems += ["--compare and --set cannot be used together"] if compare is not None and overrides else []
    if not 1 <= games <= MAX_SIMULATED or not 1 <= jobs <= MAX_JOBS or not 1 <= cap <= MAX_ACTIONS_LIMIT:
        problems.append(f"--games must be from 1 to {MAX_SIMULATED:,}, --jobs from 1 to {MAX_JOBS} and "
                        f"--max-actions from 1 to {MAX_ACTIONS_LIMIT:,}")
    for problem in problems:
        _err(f"error: {problem}")
    if problems:
        raise typer.Exit(EXIT_USAGE)
    game = _compiled(target)
    _refuse_bad_setup(game, players, mode)
    count = players if players is not None else default_players(game, mode)
    _refuse_extra_agents(kinds, count)
    lineups = _decks(game, count, deck, all_decks, lineups=True)
    orders = len(seat_orders(lineups, not no_rotate))
    if games * orders > MAX_SIMULATED:
        raise _usage_error(OverrideError(f"{games:,} seeds in {orders} seat orders is over {MAX_SIMULATED:,} matches"))
    with tempfile.TemporaryDirectory(prefix="cardsmith-whatif-") as scratch:
        changes, other = ([f"{target} → {compare}"], compare) if compare else ([], None)
        try:
            changes, other = apply_overrides(target, game.ir, overrides, Path(scratch)) if overrides else \
                (changes, other)
        except OverrideError as exc:
            raise _usage_error(exc) from None
        versus = Version(other, _decks(_compiled(other), count, deck, all_decks, lineups=True)) if other else None
        console = Console(stderr=True, no_color="NO_COLOR" in os.environ)
        with Progress(console=console, transient=True, disable=not console.is_terminal) as bar:
            tasks = {v: bar.add_task(f"simulating {v}", total=games * orders) for v in (target, other) if v}

            def advance(label: str, n: int) -> None:  # a label not planned: a dominant deck's cards left out
                if label not in tasks:
                    tasks[label] = bar.add_task(label, total=None)
                bar.advance(tasks[label], n)

            done = simulate_versions(Version(target, lineups), versus, changes, games, seed, count, mode, jobs, cap,
                                     kinds, not no_rotate, traces, game.ir.game.turn_limit, advance, matches_out,
                                     plots, players, leave_out, leave_out_untested)
    stats = done.stats
    note = turn_limit_note(stats["turn_limit"]["matches"], stats["matches"], game.ir.game.turn_limit)
    if as_json or output is OutputFormat.json:
        typer.echo(json.dumps(done.as_json(orders, cap), indent=2))
    else:
        for line in summary_lines(done, target, seed, games, orders, cap, count, note):
            typer.echo(line)
        if rules is not RulesShown.none:
            _print_coverage(done.report, only_dead=rules is RulesShown.never)
    for line in warnings(done, traces, plots, cap, note):
        _err(line)
    failed = stats["error_count"] or stats["turn_limit"]["matches"] or stats["unfinished"]
    raise typer.Exit(EXIT_INPUT if failed else EXIT_OK)


def _print_coverage(report: Any, only_dead: bool) -> None:
    """The dead-rule report as a table on stdout: every rule (or only those that never
    happened) with the counts that mean something for its kind, and what never happened."""
    from rich.console import Console
    from rich.table import Table

    from cardsmith.engine.coverage import measures_of

    columns = ("offered", "taken", "fired", "read", "run", "skipped", "passed over")
    console = Console(no_color="NO_COLOR" in os.environ, width=None if sys.stdout.isatty() else 132,
                      highlight=False)
    shown = [r for r in report.rules if not only_dead or not r.happened]
    dead = report.dead
    title = (f"Rules in {report.matches} matches: {len(dead)} of {len(report.rules)} never happened"
             + (f", {len(report.excused)} excused by the game's coverage block" if report.excused else ""))
    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    table.add_column("rule", overflow="fold")
    for column in columns:
        table.add_column(column, justify="right")
    table.add_column("never happened", overflow="fold")
    for r in shown:
        meaningful = measures_of(r.kind)
        cells = [f"{r.counts.get(m, 0):,}" if m in meaningful else "" for m in columns]
        note = r.verdict
        if note and r.excluded is not None:
            note = f"{note} (excused: {r.excluded})"
        elif r.happened and r.excluded is not None:
            note = "happened, but the coverage block excuses it: drop the exclusion"
        table.add_row(r.name, *cells, f"[bold]{note}[/bold]" if note and r.excluded is None else note)
    typer.echo("")
    console.print(table)
    if dead:
        typer.echo(f"\n{len(dead)} rule(s) never happened: each is a rule that never runs as written, or one the "
                   "agents never reach. Fix it, or list it with the reason in the game's `coverage { }` block:")
        for r in dead:
            typer.echo(f"  {r.file}:{r.line}: {r.name} ({r.verdict})")


# simulate's bounds: every match's statistics are kept in memory until the report, and
# a worker process per job
MAX_SIMULATED = 1_000_000
MAX_JOBS = 64


def _refuse_bad_setup(game: Any, players: int | None, mode: str | None) -> None:
    """A player count or mode the game does not declare: a usage error, before any match."""
    from cardsmith.engine.setup import match_problems

    problems = match_problems(game, players, mode)
    for problem in problems:
        _err(f"error: {problem}")
    if problems:
        raise typer.Exit(EXIT_USAGE)


def _refuse_extra_agents(kinds: list[str], seats: int) -> None:
    """More agents than seats is a mistake (the last seat's agent fills any seats left)."""
    if len(kinds) > seats:
        _err(f"error: --agents names {len(kinds)} agents for {seats} seats")
        raise typer.Exit(EXIT_USAGE)


def _decks(game: Any, players: int, files: list[Path] | None, every: bool = False, lineups: bool = False) -> Any:
    """The decks a match deals (or with `lineups`, the lineups a simulation deals:
    app.deck_lineups); an illegal decklist is reported like `deck check` (exit 1)."""
    from cardsmith.app import DecksNotDealt, deck_lineups, decks_for
    from cardsmith.decks.library import DeckError
    from cardsmith.dsl.diagnostics import problem, render

    try:
        return deck_lineups(game, players, files, every) if lineups else decks_for(game, players, files)
    except DecksNotDealt as exc:
        _err(problem(str(exc), exc.hint))
        raise typer.Exit(EXIT_USAGE) from None
    except DeckError as exc:
        report = exc.report
        for d in report.diagnostics:
            _err(render(d, {report.source.path: report.source}, color=_color()))
        raise typer.Exit(EXIT_INPUT) from None
    except OSError as exc:
        _err(f"error: cannot read a decklist: {exc}")
        raise typer.Exit(EXIT_USAGE) from None


def version_callback(value: bool) -> None:
    if value:
        typer.echo(f"cardsmith {__version__}")
        raise typer.Exit(EXIT_OK)


@app.callback()
def _main(
    version: Annotated[bool, typer.Option("--version", callback=version_callback, is_eager=True,
                                          help="show the version")] = False,
) -> None:
    """cardsmith: write card games as text; check, play and print them."""


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        _err("interrupted")
        sys.exit(130)
    except SystemExit:
        raise
    except RecursionError:
        _err("error: the input is nested too deeply to process")
        sys.exit(EXIT_INPUT)
    except OSError as exc:  # a file or folder the command was pointed at cannot be read or written
        what = exc.strerror or str(exc)
        _err(f"error: cannot use {exc.filename}: {what}" if exc.filename else f"error: {what}")
        _err("  = hint: check the path given on the command line (a folder, a full disk, no permission?)")
        sys.exit(EXIT_USAGE)
    except Exception as exc:
        _err(f"internal error: {type(exc).__name__}: {exc}")
        _err("  = hint: this is a bug in cardsmith; please report it with the input that caused it")
        sys.exit(70)


def _mount_subcommands() -> None:
    """Commands that live with their own packages: `deck ...`, `build`, `studio` and `new`."""
    from cardsmith.decks.cli import deck_app
    from cardsmith.lsp.cli import lsp_command
    from cardsmith.newgame.cli import new_command
    from cardsmith.printables.cli import build_command
    from cardsmith.studio.cli import studio_command
    from cardsmith.versions.cli import diff_command

    app.add_typer(deck_app, name="deck", help="Check, show and build decklists against a game's rules.")
    for name, command in (("build", build_command), ("studio", studio_command), ("new", new_command)):
        app.command(name)(command)
    app.command("diff")(diff_command)
    from cardsmith.cardtext_cli import export, text
    app.command("export")(export)
    app.command("text")(text)
    app.command("lsp")(lsp_command)


_mount_subcommands()


if __name__ == "__main__":
    main()
