"""cardsmith's version: one home, below every layer that records it (caches, exports)."""

VERSION = "0.1.0"
