"""A Lark parser whose analysed tables are kept between runs, sealed against tampering.

Building the expression parser's LALR tables is a fifth of a command's start-up, so they
are saved in cardsmith's cache folder. Lark's own `cache=` option is not used: it
unpickles whatever file sits under the expected name, and unpickling runs code, so a file
planted in the cache folder would run. Here the saved tables are sealed with the
per-user HMAC key of compiler/cache.py and only unpickled when the seal verifies; a
missing, foreign or damaged file is rebuilt. The file is named by a hash of the grammar,
the options and Lark's and Python's versions, so versions side by side do not overwrite
each other. With no writable cache folder, the parser is simply built every time.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import sys
from pathlib import Path
from typing import Any

import lark
from lark import Lark

from cardsmith.util.sealed import cache_dir, load_sealed, store_sealed

# options that are not saved with the tables but given again on loading (as Lark's cache does)
RUNTIME_OPTIONS = frozenset({"postlex", "transformer", "lexer_callbacks", "use_bytes", "debug", "g_regex_flags",
                             "regex", "propagate_positions", "tree_class", "_plugins"})


def lark_cache_file(name: str, grammar: str, options: str = "") -> Path | None:
    folder = cache_dir()
    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
    if not folder.is_dir():
        return None
    text = "\0".join((grammar, options, lark.__version__, str(sys.version_info[:2])))
    return folder / f"lark-{name}-{hashlib.sha256(text.encode()).hexdigest()[:16]}.bin"


def cached_lark(name: str, grammar: str, **options: Any) -> Lark:
    """`Lark(grammar, **options)` (LALR only), its tables loaded from a sealed cache file
    when one verifies, else built and saved sealed."""
    runtime = {k: v for k, v in options.items() if k in RUNTIME_OPTIONS}
    fixed = repr(sorted((k, repr(v)) for k, v in options.items() if k not in RUNTIME_OPTIONS))
    path = lark_cache_file(name, grammar, fixed)
    data = load_sealed(path) if path is not None else None
    if data is not None:
        try:
            return Lark.__new__(Lark)._load(io.BytesIO(data), **runtime)
        except Exception:  # sealed by us yet unreadable (another Lark version): rebuild
            pass
    parser = Lark(grammar, **options)
    if path is not None:
        buffer = io.BytesIO()
        parser.save(buffer, RUNTIME_OPTIONS)
        store_sealed(path, buffer.getvalue())
    return parser
