"""The fast structural lexer yields exactly what Lark's own lexer + the reference
post-lexer yield: same token types, values and positions, same errors."""

from __future__ import annotations

from conftest import LIBRARY, MINI_CARDS, MINI_RULES
from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Lark
from lark.exceptions import LarkError
from structure_reference import NewlinesInBrackets

from cardsmith.dsl.lexer import tokenize
from cardsmith.dsl.structure import _grammar

_REFERENCE = Lark(_grammar("structure.lark"), parser="lalr", lexer="basic")


def reference_tokens(text: str) -> list[tuple[str, str, int, int, int, int, int]]:
    stream = _REFERENCE.lex(text, dont_ignore=False)
    return [(t.type, str(t), t.start_pos or 0, t.line or 0, t.column or 0, t.end_line or 0, t.end_column or 0)
            for t in NewlinesInBrackets().process(iter(stream))]


def fast_tokens(text: str) -> list[tuple[str, str, int, int, int, int, int]]:
    return [(t.type, str(t), t.start_pos or 0, t.line or 0, t.column or 0, t.end_line or 0, t.end_column or 0)
            for t in tokenize(text)]


def outcome(fn, text: str):  # type: ignore[no-untyped-def]
    try:
        return fn(text)
    except LarkError as exc:
        return ("error", type(exc).__name__, getattr(exc, "pos_in_stream", None))
    except Exception as exc:
        return ("error", "depth", getattr(getattr(exc, "token", None), "start_pos", None))


def corpus() -> list[str]:
    texts = [MINI_RULES, MINI_CARDS]
    if LIBRARY.is_dir():
        texts += [p.read_text(encoding="utf-8") for p in sorted(LIBRARY.rglob("*.cards"))]
    return texts


def test_library_files_lex_identically() -> None:
    for text in corpus():
        assert fast_tokens(text) == reference_tokens(text)


ALPHABET = st.sampled_from(['a', 'card', '"s"', '"""x\ny"""', '1', '2.5', '4mm', '{', '}', '(', ')', '[',
                            ']', ':', ';', ',', '.', '..', '==', '-', '+', '\n', '  ', '# c', 'and', 'or',
                            '\t', "'", '"open', '@'])


@settings(max_examples=500, deadline=None)
@given(st.lists(ALPHABET, max_size=40))
def test_random_input_lexes_identically(parts: list[str]) -> None:
    text = " ".join(parts)
    assert outcome(fast_tokens, text) == outcome(reference_tokens, text)
