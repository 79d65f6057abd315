"""The structural layer: entries, continuation lines, recovery, hostile input."""

from __future__ import annotations

from cardsmith.dsl.diagnostics import DiagnosticSink
from cardsmith.dsl.lexer import MAX_DEPTH
from cardsmith.dsl.source import SourceFile
from cardsmith.dsl.structure import MAX_FILE_BYTES, Entry, decode_source, parse_entries


def parse(text: str) -> tuple[list[Entry], DiagnosticSink]:
    sink = DiagnosticSink()
    return parse_entries(SourceFile("t.cards", text), sink), sink


def codes(sink: DiagnosticSink) -> list[str]:
    return [d.code for d in sink.items]


def test_properties_nodes_and_blocks() -> None:
    entries, sink = parse('game "G" {\n  id: g\n  players: 2..4\n}\nenum F { A; B }\n')
    assert not sink.items
    game, enum = entries
    assert game.name == "game" and [str(t) for t in game.items] == ['"G"']
    assert [(e.name, e.is_prop) for e in game.block or []] == [("id", True), ("players", True)]
    assert [e.name for e in enum.block or []] == ["A", "B"]


def test_last_entry_of_a_block_needs_no_separator() -> None:
    entries, sink = parse("a { b }\nc { d: 1 }\n")
    assert not sink.items
    assert [e.name for e in entries] == ["a", "c"]


def test_newlines_inside_brackets_do_not_end_an_entry() -> None:
    entries, sink = parse("if (x and\n    y) {\n  z\n}\n")
    assert not sink.items
    assert len(entries) == 1 and [str(t) for t in entries[0].items] == ["(", "x", "and", "y", ")"]


def test_continuation_lines_start_with_string_or_brace() -> None:
    entries, sink = parse('procedure p(n: number)\n    "do {n}"\n    "also {n}"\n{\n  x\n}\n')
    assert not sink.items
    (proc,) = entries
    assert [t.type for t in proc.items if t.type == "STRING"] == ["STRING", "STRING"]
    assert proc.block is not None


def test_colons_after_the_head_word_are_words() -> None:
    entries, sink = parse('deck {\n  require "msg": x > 1\n}\nparam p: number = 3\n')
    assert not sink.items
    require = (entries[0].block or [])[0]
    assert not require.is_prop and any(t.type == "PCOLON" for t in require.items)
    assert not entries[1].is_prop


def test_else_may_follow_a_closing_brace() -> None:
    entries, sink = parse("s {\n  if x { a } else { b }\n}\n")
    assert not sink.items
    assert [e.name for e in entries[0].block or []] == ["if", "else"]


def test_every_broken_declaration_is_reported_and_good_ones_are_kept() -> None:
    text = 'ok1 { a: 1 }\nbad1 { a: 1 } }\nok2 { b: 2 }\nbad2 "unterminated\nok3 { c: 3 }\n'
    entries, sink = parse(text)
    assert [e.name for e in entries] == ["ok1", "ok2", "ok3"]  # a broken declaration is dropped
    assert codes(sink) == ["CS0101", "CS0101"]
    assert [d.span.line for d in sink.items] == [2, 4]


def test_an_unclosed_bracket_does_not_swallow_the_rest_of_the_file() -> None:
    entries, sink = parse("a { x: (1 }\nb { y: 2 }\nc { z: 3 }\n")
    assert not sink.items  # the bracket is the expression parser's to report
    assert [e.name for e in entries] == ["a", "b", "c"]


def test_unclosed_block_is_reported_at_end_of_file() -> None:
    _entries, sink = parse("a {\n  b: 1\n")
    assert codes(sink) == ["CS0101"]
    assert sink.items[0].hint and "not closed" in sink.items[0].hint


def test_stray_closing_brace_has_a_hint() -> None:
    _entries, sink = parse("a: 1 }\n")
    assert sink.items and sink.items[0].hint == "this '}' has no matching '{'"


def test_deep_nesting_is_a_diagnostic_not_a_crash() -> None:
    depth = 1000
    for text in ("a " + "{ b " * depth + "}" * depth + "\n", "a: " + "(" * depth + "1" + ")" * depth + "\n"):
        _entries, sink = parse(text)
        assert codes(sink) == ["CS0105"], text[:40]
        assert str(MAX_DEPTH) in sink.items[0].message


def test_binary_non_utf8_and_huge_files_are_diagnostics() -> None:
    sink = DiagnosticSink()
    assert decode_source("bin.cards", b"game \x00\x01\x02", sink) is None
    assert decode_source("latin.cards", 'card "Caf\xe9"'.encode("latin-1"), sink) is None
    assert decode_source("huge.cards", b"# x\n" * (MAX_FILE_BYTES // 4 + 10), sink) is None
    assert codes(sink) == ["CS0102", "CS0102", "CS0103"]
    assert sink.items[1].span.line == 1 and sink.items[1].span.column == 10


def test_byte_order_mark_is_accepted() -> None:
    sink = DiagnosticSink()
    source = decode_source("bom.cards", "\ufeffa: 1\n".encode(), sink)
    assert source is not None and not sink.items
    entries = parse_entries(source, sink)
    assert [e.name for e in entries] == ["a"]


def test_spans_point_at_the_source() -> None:
    entries, _sink = parse('\n\ncard "X" {\n  cost: 3\n}\n')
    card = entries[0]
    span = card.span()
    assert (span.line, span.column, span.end_line, span.end_column) == (3, 1, 3, 9)
    cost = (card.block or [])[0]
    assert (cost.head_span().line, cost.head_span().column) == (4, 3)


def test_ir_nodes_are_built_without_validation_but_refuse_wrong_field_names() -> None:
    """Node(...) skips pydantic's validators (start-up cost) yet still refuses a field it
    does not have, or one it needs, as a builder bug must not pass silently."""
    import subprocess
    import sys

    import pytest

    from cardsmith.dsl import ir
    from cardsmith.dsl.source import Span

    span = Span(file="x.cards", line=1, column=1, end_line=1, end_column=2)
    ref = ir.Ref(name="gold", span=span)
    assert ref == ir.Ref(name="gold", span=span) and ref.kind == "ref"
    assert ir.Query(det="each", noun="unit", span=span).adjectives == []  # defaults filled
    with pytest.raises(TypeError, match="no field 'nmae'"):
        ir.Ref(nmae="gold", span=span)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="needs 'name'"):
        ir.Ref(span=span)  # type: ignore[call-arg]
    # checking a whole game in a fresh process never builds an IR validator
    probe = ("from cardsmith.compiler.api import load_game_ir; from cardsmith.dsl import ir; "
             "assert load_game_ir('kingdom_combat').cards; "
             "print(any(getattr(c, '__pydantic_complete__', False) for c in vars(ir).values() "
             "if isinstance(c, type) and issubclass(c, ir.Node)))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "False", out.stderr
