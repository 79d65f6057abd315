"""cardsmith: a language and toolchain for tabletop card-game designers.

A designer writes cards and rules in `.cards` files; cardsmith parses them into a typed
IR, checks them like a compiler, and hands the checked IR to the engine and printables.
"""

from cardsmith.util.version import VERSION as __version__

__all__ = ["__version__", "load"]


def load(game: str):  # type: ignore[no-untyped-def]
    """A compiled game (by library name or path): `cardsmith.load("kingdom_combat")`."""
    from cardsmith.app import load as _load

    return _load(game)
