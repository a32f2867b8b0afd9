"""Perft files and the perft runner, shared by ``burraco perft`` and ``tools/perft.py``.

A perft file holds positions, each a record of lines::

    id italian-dealt
    state v=1;rules=italian;seed=1;...        (a version-1 state string, docs/game.md)
    perft 1 2
    perft 2 55

``perft d n``: the number of legal move sequences of ``d`` moves from the position, a finished
hand being a leaf whatever depth is left (``burraco.perft``). Blank lines separate records; ``#``
starts a comment line. The counts in ``tests/data/perft`` are produced by the reference engine and
frozen.

Checking a position computes every count on one engine (a module: ``burraco`` or
``burraco.reference``); a mismatch prints a divide of BOTH engines at that depth: every root move
with its node count below it in each engine (``-`` where an engine does not list the move), the
first row that differs marked ``<--``.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, TextIO

ENGINES = ("core", "reference")


def load_engine(name: str) -> ModuleType:
    """The module that implements the public API: ``burraco`` (``'core'``) or the reference."""
    if name not in ENGINES:
        raise ValueError(f"unknown engine {name!r} (engines: {', '.join(ENGINES)})")
    return importlib.import_module("burraco" if name == "core" else "burraco.reference")


# ---- the file format ----------------------------------------------------------------------------


@dataclass
class Position:
    """One record of a perft file: an id, a state string and its (depth, nodes) counts."""

    id: str
    state: str
    counts: list[tuple[int, int]] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    line: int = 0


class PerftFileError(ValueError):
    """A perft file that does not follow the format; the message names the file and line."""


def parse(text: str, name: str = "<perft>") -> list[Position]:
    """The positions of a perft file, in file order."""
    positions: list[Position] = []
    current: Position | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            current = None
            continue
        if line.startswith("#"):
            if current is not None:
                current.comments.append(line[1:].strip())
            continue
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        if word == "id":
            if current is not None:
                raise PerftFileError(f"{name}:{number}: 'id' inside record {current.id!r}")
            if not rest or any(p.id == rest for p in positions):
                raise PerftFileError(f"{name}:{number}: missing or repeated id {rest!r}")
            current = Position(rest, "", line=number)
            positions.append(current)
        elif current is None:
            raise PerftFileError(f"{name}:{number}: {word!r} before any 'id'")
        elif word == "state":
            if current.state:
                raise PerftFileError(f"{name}:{number}: a second 'state' in {current.id!r}")
            current.state = rest
        elif word == "perft":
            parts = rest.split()
            if len(parts) != 2 or not all(p.isdigit() for p in parts):
                raise PerftFileError(f"{name}:{number}: expected 'perft <depth> <nodes>'")
            depth, nodes = int(parts[0]), int(parts[1])
            if current.counts and depth <= current.counts[-1][0]:
                raise PerftFileError(f"{name}:{number}: depths must increase")
            current.counts.append((depth, nodes))
        else:
            raise PerftFileError(f"{name}:{number}: unknown line {word!r}")
    for position in positions:
        if not position.state or not position.counts:
            raise PerftFileError(f"{name}:{position.line}: {position.id!r} needs a state and counts")
    return positions


def parse_file(path: str | Path) -> list[Position]:
    """The positions of the perft file at ``path`` (UTF-8); PerftFileError quoting the path when
    it cannot be read, is not UTF-8 text or holds no position."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise PerftFileError(f"{str(path)!r}: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise PerftFileError(f"{str(path)!r}: not a perft file (not UTF-8 text: {error.reason} "
                             f"at byte {error.start})") from None
    positions = parse(text, str(path))
    if not positions:
        raise PerftFileError(f"{str(path)!r}: not a perft file (no position in it)")
    return positions


def format_positions(positions: Sequence[Position], header: Sequence[str]) -> str:
    """The text of a perft file: the header as comment lines, then one record per position."""
    lines = [f"# {text}" if text else "#" for text in header]
    for position in positions:
        lines.append("")
        lines.append(f"id {position.id}")
        lines.extend(f"# {text}" for text in position.comments)
        lines.append(f"state {position.state}")
        lines.extend(f"perft {depth} {nodes}" for depth, nodes in position.counts)
    return "\n".join(lines) + "\n"


# ---- counting -----------------------------------------------------------------------------------


def count(engine: ModuleType, state: str, depth: int) -> int:
    """``perft`` of a state string on one engine (a module: ``burraco`` or the reference)."""
    return int(engine.perft(engine.Game.from_state_string(state), depth))


def divide_game(engine: ModuleType, game: Any, depth: int) -> dict[str, int]:
    """The count below each root move of ``game`` (as a string), in the engine's move order.

    ``depth`` >= 1; the game is left as it was found."""
    counts: dict[str, int] = {}
    for move in list(game.legal_moves()):
        game.push(move)
        try:
            counts[str(move)] = int(engine.perft(game, depth - 1))
        finally:
            game.pop()
    return counts


def divide(engine: ModuleType, state: str, depth: int) -> dict[str, int]:
    """The count below each root move of a state string, in the engine's move order."""
    return divide_game(engine, engine.Game.from_state_string(state), depth)


def divide_table(state: str, depth: int) -> list[str]:
    """Both engines' divides side by side, the first differing root move marked."""
    core = divide(load_engine("core"), state, depth)
    reference = divide(load_engine("reference"), state, depth)
    moves = list(reference) + [move for move in core if move not in reference]
    width = max([len(move) for move in moves] + [9])
    lines = [f"  divide at depth {depth}:", f"    {'move':<{width}} {'core':>10} {'reference':>10}"]
    marked = False
    for move in moves:
        got, want = core.get(move), reference.get(move)
        mark = ""
        if got != want and not marked:
            mark, marked = "  <-- first difference", True
        shown_got = "-" if got is None else str(got)
        shown_want = "-" if want is None else str(want)
        lines.append(f"    {move:<{width}} {shown_got:>10} {shown_want:>10}{mark}")
    if not marked and list(core) != list(reference):
        lines.append("    (same counts, but the engines list the root moves in different orders)")
    lines.append(f"    {'total':<{width}} {sum(core.values()):>10} {sum(reference.values()):>10}")
    return lines


@dataclass
class Check:
    """One count of one position checked (``got`` None: skipped)."""

    position: Position
    depth: int
    expected: int
    got: int | None
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """Whether the count matched (a skipped count is not a failure)."""
        return self.got is None or self.got == self.expected


def check_position(
    engine: ModuleType,
    position: Position,
    max_nodes: int | None = None,
    out: TextIO | None = None,
) -> list[Check]:
    """Every count of one position (those of at most ``max_nodes`` nodes); after a mismatch the
    deeper counts are skipped. Prints a line per count, and the divide on a mismatch, to ``out``."""
    checks: list[Check] = []
    failed = False
    for depth, expected in position.counts:
        if failed or (max_nodes is not None and expected > max_nodes):
            checks.append(Check(position, depth, expected, None))
            continue
        start = time.perf_counter()
        got = count(engine, position.state, depth)
        check = Check(position, depth, expected, got, time.perf_counter() - start)
        checks.append(check)
        if out is not None:
            verdict = "ok" if check.ok else f"MISMATCH (got {got})"
            print(
                f"{position.id:<28} perft {depth} {expected:>10}  {verdict}  "
                f"{check.seconds:.2f}s",
                file=out,
            )
        if not check.ok:
            failed = True
            if out is not None:
                print(f"  state {position.state}", file=out)
                print("\n".join(divide_table(position.state, depth)), file=out)
    return checks


def check_files(
    files: Sequence[str | Path],
    engine_name: str = "core",
    *,
    ids: Sequence[str] | None = None,
    max_nodes: int | None = None,
    show_divide: bool = False,
    out: TextIO,
) -> int:
    """Checks every position of the perft files (only ``ids`` if given) on one engine, printing
    to ``out``; ``show_divide`` prints both engines' divide at the deepest checked count of every
    position that matched. Returns the exit status: 1 on any mismatch, else 0."""
    engine = load_engine(engine_name)
    bad = 0
    total = 0
    parsed = [(name, parse_file(name)) for name in files]
    unknown = [i for i in ids or () if not any(p.id == i for _, ps in parsed for p in ps)]
    if unknown:
        raise PerftFileError(f"--id {unknown[0]!r}: no position of {', '.join(map(str, files))} "
                             "has that id")
    for name, positions in parsed:
        if ids:
            positions = [p for p in positions if p.id in ids]
        print(f"{name}: {len(positions)} positions, engine {engine_name}", file=out)
        for position in positions:
            checks = check_position(engine, position, max_nodes, out=out)
            total += sum(1 for c in checks if c.got is not None)
            bad += sum(1 for c in checks if not c.ok)
            if show_divide:
                done = [c for c in checks if c.got is not None]
                if done and all(c.ok for c in done):
                    print("\n".join(divide_table(position.state, done[-1].depth)), file=out)
    print(f"{total - bad} of {total} counts match" + (f", {bad} MISMATCH" if bad else ""), file=out)
    return 1 if bad else 0
