"""cardsmith studio: a local web app to see the cards, play the game and read its balance.

`cardsmith studio GAME` serves it (uvicorn, 127.0.0.1). It sits above `cardsmith.app` and
calls only the public APIs the CLI calls; no game rule lives here. Its dependencies are the
`studio` extra (`pip install cardsmith[studio]`), imported only when the studio starts.
"""
