"""How a rule's name is spelt in a `coverage { }` block and in the dead-rule report.

The builder reads a block's keys with `rule_name`; compiler/rulenames.py names every rule
of a game with `quoted` and the same kinds — so a key copied from `cardsmith simulate`'s
report into the game's files matches the rule it names, byte for byte.
"""

from __future__ import annotations

# the kinds of rule the report counts, as the first word of a name
KINDS = ("action", "ability", "keyword", "trigger", "event", "stage")


def quoted(text: str) -> str:
    """A card name or label as the .cards source writes it: in double quotes."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def rule_name(words: list[tuple[str, bool]]) -> str:
    """A key as written — (text, was it a quoted string) per word — in the catalog's
    spelling: words joined by one space, strings quoted again, `a . b` as `a.b`."""
    out = ""
    for text, is_string in words:
        piece = quoted(text) if is_string else text
        if not out or piece == "." or out.endswith("."):
            out += piece
        else:
            out += " " + piece
    return out
