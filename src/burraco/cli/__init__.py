"""The ``burraco`` command: play against bots, self-play, the arena, replay records, perft,
benchmarks and the table server.

    burraco play --preset italian [--seat 0] [--seed S] [--bots greedy|ismcts:N|module:attr]
                 [--hands N] [--out FILE]
    burraco selfplay --preset P --games N [--policy greedy | --policies greedy,module:attr]
                     [--seed S] [--out games.jsonl] [--matches] [--engine core|reference]
                     [--threads N] [--rotate]
                     [--ray [ADDRESS] --out DIR [--shard-size N] [--restart]]
    burraco arena --bots A,B[,C...] [--pairs N] [--seed S] [--threads N] [--matches]
    burraco replay FILE [--game K | --list] [--move N] [--all] [--engine core|reference]
    burraco perft [--preset P --seed S | --state STATE] --depth D [--divide]
    burraco perft FILE [FILE ...] [--id ID] [--max-nodes N] [--divide]
    burraco bench [--smoke] [--json FILE]
    burraco serve [--host 127.0.0.1] [--port 8000] [--db FILE] [--seed S]
    burraco --version

Also ``python -m burraco``. Every subcommand has ``--help``; docs/cli.md describes them. One
module a subcommand (``play``, ``selfplay``, ``arena``, ``replay``, ``perft``, ``bench``,
``serve``), each a thin layer over the library: its options (``register``) and its ``run``; what
they share is in ``_common`` (the user error, engines, rules, bots, seeds) and ``_screen`` (the
terminal). The terminal output goes through ``rich``: coloured on a terminal, plain text when
piped, under ``NO_COLOR`` or with ``--no-color``; the board itself is drawn by
:mod:`burraco._board` (also ``str(game)``). User errors (a bad preset, a missing file, an illegal
move typed at the prompt) print one line and never a traceback: exit status 2 for a bad command
line, 1 for a failure, 130 after Ctrl-C. Nothing in the library imports this package.
"""

from ._common import CliError
from ._main import build_parser, main

__all__ = ["CliError", "build_parser", "main"]
