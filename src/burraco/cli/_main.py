"""The ``burraco`` argument parser and :func:`main`: the subcommands' modules register
themselves, in the order ``burraco --help`` lists them."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from .._errors import BurracoError
from . import arena, bench, perft, play, replay, selfplay, serve
from ._common import CliError, package_version

COMMANDS = (play, selfplay, arena, replay, perft, bench, serve)


class _OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (``burraco play: error: ...``), status 2."""

    def error(self, message: str) -> Any:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The ``burraco`` argument parser with its subcommands."""
    from .._core import Rules  # the presets are the engine's

    parser = _OneLineParser(
        prog="burraco",
        description="Burraco / Buraco rules engine: play, self-play, arena, replay, perft, "
        "benchmarks, the table server.",
        epilog=f"Every subcommand has --help. Presets: {', '.join(Rules.PRESETS)}.",
    )
    parser.add_argument("--version", action="version", version=f"burraco {package_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_OneLineParser)
    for command in COMMANDS:
        command.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the ``burraco`` command; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "run", None) is None:
        parser.print_help()
        return 2
    prog = f"burraco {args.command}"
    try:
        status: int = args.run(args)
        return status
    except CliError as error:
        print(f"{prog}: error: {error}", file=sys.stderr)
        return error.status
    except BurracoError as error:
        print(f"{prog}: error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"\n{prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (``burraco replay x | head``): no message, and none at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
