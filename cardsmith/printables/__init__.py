"""Printables: a checked game's IR in, print-ready PDFs (and PNG / Tabletop Simulator images) out.

One job per module: geometry (sizes, grid, crop marks, duplex), fonts, textfit (wrap and
shrink), evaluate (card expressions), layout (declared and default layouts), draw
(shapes and shared forms), cards (card faces), imposition (pages of cards), sheets
(unit and action sheets), build (orchestration and atomic writes), exports (PNG, TTS),
png (rasterising) and cli (`cardsmith build`).
"""
