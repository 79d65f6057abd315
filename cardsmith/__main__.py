"""`python -m cardsmith ...`: the same command-line tool as `cardsmith ...`."""

from cardsmith.cli import main

main()
