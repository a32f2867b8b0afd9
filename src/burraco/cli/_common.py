"""What the commands of ``burraco`` share: the user error, the engine and rules of a command line,
seeds, the bots of ``--bots`` and ``--policies`` (through :mod:`burraco.bots`), the ``--out``
file, the progress bar, and the options several subcommands take."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterator, Sequence
from importlib.metadata import PackageNotFoundError, version
from types import ModuleType
from typing import Any, TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from .. import _perft_tool, bots
from .._errors import BurracoError
from .._policy import seat_policies as seat_list

ENGINES = _perft_tool.ENGINES
_MASK = (1 << 64) - 1
MAX_GAMES = 10**9  # the games (or matches) of one selfplay run, as burraco.distributed takes
MAX_PERFT_DEPTH = 64  # the engines' perft depth limit: a deeper --depth is refused before counting


class CliError(Exception):
    """A user error: its message is printed on one line and the command exits with ``status``."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


def package_version() -> str:
    """The installed distribution's version (``importlib.metadata``)."""
    try:
        return version("burraco")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def load_engine(name: str) -> ModuleType:
    """``burraco`` for ``'core'``, ``burraco.reference`` for ``'reference'``."""
    return _perft_tool.load_engine(name)


def make_rules(engine: ModuleType, preset: str, players: int | None = None,
               sides: int | None = None) -> Any:
    """``Rules(preset)`` of an engine, with ``players`` and ``sides`` (six players: 3 sides of two
    or 2 of three) overridden when given; a bad preset, player count or side count is a
    :class:`CliError` quoting it (status 2: a bad command line)."""
    knobs = {name: value for name, value in (("players", players), ("sides", sides))
             if value is not None}
    try:
        return engine.Rules(preset, **knobs)
    except BurracoError as error:
        raise CliError(str(error), 2) from None


def seed_or_random(seed: int | None) -> int:
    """The given seed, or a fresh one from ``os.urandom`` (printed by the callers, so that any
    run can be repeated)."""
    if seed is None:
        return int.from_bytes(os.urandom(8), "little")
    return seed


def open_out(path: str | None, stack: contextlib.ExitStack) -> TextIO | None:
    """The records file of ``--out`` opened for writing, or None. A path that cannot be opened,
    and a write or close that fails later (a full disk), is a :class:`CliError` quoting it."""
    if not path:
        return None
    stack.enter_context(_out_errors(path))  # entered first, so it also sees the file's close
    return stack.enter_context(open(path, "w", encoding="utf-8", newline="\n"))


@contextlib.contextmanager


def _out_errors(path: str) -> Iterator[None]:
    """An OSError of the ``--out`` file as a :class:`CliError` quoting the path (a broken pipe
    excepted: ``main`` ends quietly on that; so is an error naming another file)."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as error:
        if error.filename not in (None, path):
            raise
        raise CliError(f"--out {path!r}: {error.strerror or error}") from None


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def seat_policies(policy: str, policies: str | None, players: int, sides: int = 2) -> list[str]:
    """One policy spec per seat: ``--policies a,b,...`` (one per seat, or where seats have
    partners one per side: seat k plays entry ``k mod sides``, as ``burraco.Match.play_hand``
    takes them), else ``--policy`` for every seat."""
    if policies is None:
        chosen = [policy] * players
    else:
        names = [name.strip() for name in policies.split(",")]
        try:
            chosen = seat_list(names, players, sides)
        except BurracoError:
            per_side = f", or {sides}, one per side" if sides < players else ""
            raise CliError(f"--policies {policies!r}: expected {players} policies, one per seat"
                           + per_side, 2) from None
    for name in chosen:
        try:
            bots.parse(name)
        except BurracoError as error:
            raise CliError(str(error), 2) from None
    return chosen


def load_policy(engine: ModuleType, spec: str, option: str) -> Any:
    """The bot a command-line spec names (:func:`burraco.bots.make` for the engine), a
    ``module:attribute`` imported with the current folder first on the path (as ``python -m``
    would). Any failure is a :class:`CliError` quoting the spec (status 2)."""
    try:
        parsed = bots.parse(spec)
    except BurracoError as error:
        raise CliError(f"{option}: {error}", 2) from None
    if parsed.kind == "ismcts" and not hasattr(engine, "ISMCTS"):
        raise CliError(f"{option} {spec!r}: ISMCTS is the core engine's only "
                       "(drop --engine reference)", 2)
    if parsed.kind == "module":
        current_folder_on_path()
    try:
        return bots.make(parsed, engine=engine)
    except BurracoError as error:
        raise CliError(f"{option}: {error}", 2) from None


def current_folder_on_path() -> None:
    """The current folder first on ``sys.path`` (as ``python -m`` puts it), so that a
    ``module:attribute`` bot may live there."""
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())


def load_policies(engine: ModuleType, specs: Sequence[str], option: str) -> list[Any]:
    """The bots of ``specs``, each distinct spec made once (so equal specs are one bot)."""
    loaded: dict[str, Any] = {}
    for spec in specs:
        if spec not in loaded:
            loaded[spec] = load_policy(engine, spec, option)
    return [loaded[spec] for spec in specs]


def progress_bar(total: int, unit: str, enabled: bool = True) -> Progress:
    """A ``rich`` progress bar on stderr (done/total, rate, elapsed and remaining time); drawn only
    when stderr is a terminal, so a piped run's stderr stays empty."""
    stream = Console(stderr=True, highlight=False, markup=False, emoji=False)
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(unit),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=stream,
        disable=not (enabled and stream.is_terminal),
        transient=False,
    )


def input_file(path: str, what: str) -> None:
    """A :class:`CliError` quoting ``path`` unless it names something to read: not a missing path
    nor a folder (a device or a pipe is read as it is)."""
    if os.path.isdir(path):
        raise CliError(f"{path!r}: is a folder, not {what}")
    if not os.path.exists(path):
        raise CliError(f"{path!r}: no such file")


def nonnegative_seed(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if not 0 <= value <= _MASK:
        raise argparse.ArgumentTypeError(f"{text!r}: expected an integer in [0, 2**64)")
    return value


def engine_option(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--engine", choices=ENGINES, default="core",
                     help="core: the C++ engine (default); reference: the pure-Python one")


def color_option(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--no-color", action="store_true",
                     help="plain text even on a terminal (also: the NO_COLOR variable; piped "
                     "output is always plain)")


def rules_options(sub: argparse.ArgumentParser, default: str | None = "italian") -> None:
    from .._core import Rules  # the presets are the engine's

    sub.add_argument("--preset", default=default, metavar="PRESET",
                     help=f"rules preset: {', '.join(Rules.PRESETS)} (default: {default})")
    sub.add_argument("--players", type=int, metavar="N",
                     help="override the preset's number of players (2, 3, 4, or 6 with "
                     "brazilian)")
    sub.add_argument("--sides", type=int, metavar="N",
                     help="six players: 3 sides of two (default) or 2 sides of three")
