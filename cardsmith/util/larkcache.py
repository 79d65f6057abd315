"""Where Lark may keep a parser's tables between runs.

Lark's own `cache=` option writes the analysed grammar to a file and, on the next run,
loads it if a hash of the grammar, the options, Lark's and Python's versions matches, or
builds the tables again (an unreadable file included). The file lives in cardsmith's
cache folder, named by the grammar's hash so versions side by side do not overwrite each
other. With no writable cache folder, the parser is simply built every time.
"""

from __future__ import annotations

import contextlib
import hashlib

from cardsmith.compiler.cache import cache_dir


def lark_cache_file(name: str, grammar: str) -> str | bool:
    folder = cache_dir()
    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
    if not folder.is_dir():
        return False
    digest = hashlib.sha256(grammar.encode()).hexdigest()[:16]
    return str(folder / f"lark-{name}-{digest}.bin")
