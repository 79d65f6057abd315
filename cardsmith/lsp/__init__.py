"""`cardsmith lsp`: a language server for `.cards` files (Language Server Protocol over stdio).

Editors get the checker's diagnostics while a designer types, plus hover, go to
definition, references, completion, an outline, formatting and quick fixes. Everything
is answered from the same checked IR as `cardsmith check`, so the editor and the CLI
never disagree. The protocol stack (pygls) is the optional `lsp` extra; only
`server.py` imports it, the analysis modules are plain functions a test can call.
"""
