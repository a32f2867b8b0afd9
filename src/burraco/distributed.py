"""Self-play sharded over Ray tasks (docs/rl.md "Self-play on Ray"): ``burraco selfplay --ray``.

A run plays ``games`` hands (or matches) exactly as ``burraco selfplay`` plays them on one machine
(both through :func:`burraco.bots.play_games`), game ``i`` dealt from output ``i`` of
``burraco.bots.seeds(seed)``, and cuts them into shards of
``shard_size`` consecutive games. Each shard is one Ray task: it loads the policies by their specs
(native policies run inside the task, in C++), plays its games, and sends back its game records
and a table of one row per hand. The driver writes each finished shard into the run's folder::

    DIR/run.json                     what the run is (rules, policies, seed, games, shard size)
    DIR/records/shard-00000.jsonl    the shard's game records (docs/records.md), in game order
    DIR/hands/shard-00000.parquet    the shard's hands, one row each (HAND_COLUMNS)
    DIR/summary.json                 the merged summary, written when every shard is there

A shard's two files are each written under a temporary name, synced to disk and renamed, the
table last, so a kill leaves a shard either whole or without its table. Running again into the
same folder with the same run checks each shard whose table exists (the table reads, its rows
are the records', one each, and the records parse) and skips it, plays the missing shards and
plays a damaged one again (a killed run resumes); a folder holding another run is refused,
quoting what differs. ``pyarrow.parquet.read_table(DIR / "hands")`` reads every shard as
one table.

Ray and pyarrow are the ``ray`` extra (``pip install 'burraco[ray]'``); nothing here imports them
before a run starts.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from . import bots
from ._errors import BurracoError, InvalidNotationError
from ._records import read_records
from ._tally import Tally, hand_winner, unit_scores, units_of

__all__ = [
    "HAND_COLUMNS",
    "RUN_FORMAT",
    "Run",
    "RunSummary",
    "play_shard",
    "selfplay",
    "summarize",
]

#: The ``format`` tag of ``run.json`` and ``summary.json``.
RUN_FORMAT = "burraco-selfplay-run"
RUN_VERSION = 1

#: The columns of the hands table, in order, with what each holds.
HAND_COLUMNS: dict[str, str] = {
    "preset": "the rule set's preset name (its knobs are in run.json and in each record)",
    "game": "the game's number in the run: the hand's, or with matches the match's",
    "hand": "the hand's number in its match (0 without matches)",
    "seed": "the seed the hand was dealt from (uint64)",
    "first_player": "the seat that played first",
    "policies": "the policy spec of each seat, in seat order (with rotate, as the hand seated them)",
    "scores": "the hand's score per side (per seat, in half points, with three players), sides "
              "and seats as the hand seated them",
    "winner": "the side (seat with three players) with the best hand score, or -1 for a tie",
    "end_reason": "closed, stock_exhausted or deadlock",
    "moves": "the moves played",
    "match_scores": "with matches, on a match's last hand: the final match scores; else null",
    "match_winner": "with matches, on a match's last hand: the winner, or -1; else null",
}

_MASK = (1 << 64) - 1
_MAX_GAMES = 10**9


@dataclass(frozen=True)
class Run:
    """What a run is: everything that decides its games. Two runs with equal fields play the same
    games, whatever machine or cluster plays them.

    ``rules`` is the rule set's canonical text (``Rules.text``), ``policies`` one spec per seat.
    """

    rules: str
    policies: tuple[str, ...]
    seed: int
    games: int
    shard_size: int
    matches: bool = False
    max_hands: int = 1000
    rotate: bool = False

    @property
    def shards(self) -> int:
        """How many shards the games are cut into."""
        return -(-self.games // self.shard_size)

    def bounds(self, shard: int) -> tuple[int, int]:
        """The games ``[first, stop)`` of shard ``shard``."""
        first = shard * self.shard_size
        return first, min(first + self.shard_size, self.games)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["policies"] = list(self.policies)
        if not self.rotate:
            del data["rotate"]  # the run file of a run without rotation is as it always was
        return {"format": RUN_FORMAT, "version": RUN_VERSION, **data}


@dataclass(kw_only=True)
class RunSummary(Tally):
    """The merged result of a run: its ``Tally`` (per unit, side or seat with three players, wins
    and score sums, draws, end reasons, moves, over every finished shard, those of an earlier run
    included); and how this call went: shards played and found finished, the hands it played, its
    seconds. ``damaged`` says, for each shard of an earlier run found damaged and played again
    (counted in ``shards_played``), its file and what was wrong."""

    run: Run
    shards_played: int = 0
    shards_skipped: int = 0
    damaged: list[str] = field(default_factory=list)
    hands_played: int = 0
    seconds: float = 0.0
    folder: str = ""

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["run"] = self.run.to_json()
        return {"format": RUN_FORMAT, "version": RUN_VERSION, "summary": data}


def make_run(
    rules: Any,
    games: int,
    *,
    policies: str | Sequence[str] = "greedy",
    seed: int = 0,
    shard_size: int = 1000,
    matches: bool = False,
    max_hands: int = 1000,
    rotate: bool = False,
) -> Run:
    """The :class:`Run` of these arguments, each checked (InvalidNotationError quoting it)."""
    from . import Rules

    if isinstance(rules, str):
        rules = Rules(rules)  # Rules quotes an unknown preset itself
    if not isinstance(rules, Rules):
        raise InvalidNotationError(f"rules {rules!r}: expected a burraco.Rules or a preset name")
    for name, value, low, high in (("games", games, 0, _MAX_GAMES),
                                   ("shard_size", shard_size, 1, _MAX_GAMES),
                                   ("max_hands", max_hands, 1, 10**6),
                                   ("seed", seed, 0, _MASK)):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise InvalidNotationError(f"{name} {value!r}: expected an integer from {low} to {high}")
    if isinstance(policies, str):
        specs = (policies,) * rules.players
    else:
        specs = tuple(policies)
    if len(specs) != rules.players or not all(isinstance(s, str) and s for s in specs):
        raise InvalidNotationError(f"policies {policies!r}: expected one spec, or one spec per "
                                   f"seat ({rules.players}), each a non-empty string")
    for spec in specs:
        bots.parse(spec)  # a spec that names no bot is refused here, quoted
    return Run(rules=rules.text, policies=specs, seed=seed, games=games, shard_size=shard_size,
               matches=bool(matches), max_hands=max_hands, rotate=bool(rotate))


# ---- one shard (runs inside a Ray task, or anywhere) ----------------------------------------------


def _load(run: Run) -> tuple[Any, list[Any]]:
    """The run's rules and seat bots, made where the shard plays (each distinct spec once)."""
    from . import Rules

    rules = Rules.from_text(run.rules)
    made: dict[str, Any] = {}
    for spec in run.policies:
        if spec not in made:
            made[spec] = bots.make(spec, rules)
    return rules, [made[spec] for spec in run.policies]


def play_shard(run: Run, shard: int) -> tuple[str, dict[str, list[Any]]]:
    """Plays shard ``shard`` of ``run``: its records as JSON Lines text and its hands as columns
    (``HAND_COLUMNS``). The same games as ``burraco selfplay`` with the run's seed plays at those
    positions: this is the body of each Ray task, and can be called directly."""
    rules, players = _load(run)
    first, stop = run.bounds(shard)
    columns: dict[str, list[Any]] = {name: [] for name in HAND_COLUMNS}
    lines: list[str] = []
    count = rules.players

    def add(game_number: int, hand: int, game: Any, rotation: int, ended: Any | None) -> None:
        """A hand's record and row; ``ended`` the match it ended, if it is a match's last."""
        # The record's JSON line and its number of moves from the core in one call: the text of
        # json.dumps(game.record(), separators=(",", ":")), without the record's dict (that was
        # most of what a shard added to playing its hands).
        line, moves = game._record_line()
        lines.append(line)
        result = game.result()
        scores = unit_scores(rules, result)
        columns["preset"].append(rules.preset)
        columns["game"].append(game_number)
        columns["hand"].append(hand)
        columns["seed"].append(game.seed)
        columns["first_player"].append(game.first_player)
        columns["policies"].append([run.policies[(seat - rotation) % count]
                                    for seat in range(count)])
        columns["scores"].append(scores)
        winner = hand_winner(scores)
        columns["winner"].append(-1 if winner is None else winner)
        columns["end_reason"].append(str(result.end_reason))
        columns["moves"].append(moves)
        if ended is not None:
            columns["match_scores"].append(list(ended.scores))
            columns["match_winner"].append(-1 if ended.winner is None else int(ended.winner))
        else:
            columns["match_scores"].append(None)
            columns["match_winner"].append(None)

    for played in bots.play_games(rules, players, run.seed, first, stop, matches=run.matches,
                                  max_hands=run.max_hands, rotate=run.rotate):
        for hand, game in enumerate(played.hands):
            last = hand == len(played.hands) - 1
            add(played.number, hand, game, played.rotation, played.match if last else None)
    return "".join(line + "\n" for line in lines), columns


def _schema() -> Any:
    """The hands table's column types, the same in every shard's file (an empty one included)."""
    import pyarrow as pa

    return pa.schema([
        ("preset", pa.string()),
        ("game", pa.int64()),
        ("hand", pa.int32()),
        ("seed", pa.uint64()),
        ("first_player", pa.int8()),
        ("policies", pa.list_(pa.string())),
        ("scores", pa.list_(pa.int32())),
        ("winner", pa.int8()),
        ("end_reason", pa.string()),
        ("moves", pa.int32()),
        ("match_scores", pa.list_(pa.int32())),
        ("match_winner", pa.int8()),
    ])


def _table(columns: dict[str, list[Any]]) -> Any:
    """The hands table of a shard's columns."""
    import pyarrow as pa

    return pa.table(columns, schema=_schema())


def _shard_task(run: Run, shard: int) -> tuple[int, str, Any]:
    """The Ray task: ``play_shard`` with its table built where it was played."""
    text, columns = play_shard(run, shard)
    return shard, text, _table(columns)


# ---- the run's folder ----------------------------------------------------------------------------


def _name(shard: int) -> str:
    return f"shard-{shard:05d}"


def _paths(folder: Path, shard: int) -> tuple[Path, Path]:
    return folder / "records" / f"{_name(shard)}.jsonl", folder / "hands" / f"{_name(shard)}.parquet"


def _prepare(folder: Path, run: Run, resume: bool) -> None:
    """Creates the folder (or checks it holds this run), and removes unfinished shard files."""
    manifest = folder / "run.json"
    wanted = run.to_json()
    if manifest.exists():
        try:
            found = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise BurracoError(f"{manifest}: not a run file of burraco selfplay ({error})") from None
        if found != wanted:
            keys = sorted(set(found) | set(wanted)) if isinstance(found, dict) else ["run"]
            diff = ", ".join(
                f"{key} {found.get(key)!r} there, {wanted.get(key)!r} now"
                for key in keys if not isinstance(found, dict) or found.get(key) != wanted.get(key))
            raise BurracoError(f"{folder}: holds another run ({diff}); use another folder or "
                               "remove it")
        if not resume:
            for shard in range(run.shards):
                for path in _paths(folder, shard):
                    _remove(path)
            _remove(folder / "summary.json")
    else:
        try:
            if folder.exists() and not folder.is_dir():
                raise BurracoError(f"{folder}: not a folder; name a new folder for the run")
            if folder.exists() and any(folder.iterdir()):
                raise BurracoError(f"{folder}: not empty and not a run's folder; use a new folder")
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise BurracoError(f"{folder}: cannot make the run's folder ({_reason(error)})") from None
        _write_atomic(manifest, (json.dumps(wanted, indent=2) + "\n").encode("utf-8"))
    for sub in ("records", "hands"):
        try:
            (folder / sub).mkdir(exist_ok=True)
            stale = list((folder / sub).glob("*.tmp"))
        except OSError as error:
            raise BurracoError(f"{folder / sub}: cannot make or list it ({_reason(error)})") from None
        for path in stale:
            _remove(path)


def _reason(error: OSError) -> str:
    """What went wrong, without the path the message quotes already."""
    return error.strerror or str(error)


def _remove(path: Path) -> None:
    try:
        path.unlink(missing_ok=True)
    except OSError as error:
        raise BurracoError(f"{path}: cannot remove it ({_reason(error)})") from None


def _sync_folder(folder: Path) -> None:
    """Makes a rename in ``folder`` durable (where the system can open a folder to sync it)."""
    try:
        handle = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return  # e.g. Windows, which cannot open a folder; its renames are durable by themselves
    try:
        os.fsync(handle)
    except OSError:
        pass  # some file systems cannot sync a folder; the file itself was synced
    finally:
        os.close(handle)


def _write_atomic(path: Path, content: bytes | Callable[[Any], object]) -> None:
    """Writes ``content`` (bytes, or a function that writes into a binary file) to ``path``: under
    a temporary name, synced to disk, then renamed, so ``path`` holds the old file or the whole
    new one whenever the process stops. BurracoError quoting the path when it cannot."""
    temporary = path.with_name(path.name + ".tmp")
    try:
        with open(temporary, "wb") as file:
            if isinstance(content, bytes):
                file.write(content)
            else:
                content(file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except OSError as error:
        try:
            temporary.unlink(missing_ok=True)
        except OSError:
            pass  # the error below says what matters
        raise BurracoError(f"{path}: cannot write it ({_reason(error)})") from None
    _sync_folder(path.parent)


def _store(folder: Path, shard: int, text: str, table: Any) -> None:
    """Writes a finished shard: its records, then its table (the mark of a complete shard)."""
    import pyarrow.parquet as pq

    records, hands = _paths(folder, shard)
    _write_atomic(records, text.encode("utf-8"))
    _write_atomic(hands, lambda file: pq.write_table(table, file))


def _check(folder: Path, run: Run, shard: int) -> Any | None:
    """The table of shard ``shard`` if it is finished and whole; None if it is not finished (no
    table). A damaged one raises _Damaged saying what is wrong: no records, a table that does not
    read or has other columns, records that do not parse, or rows that are not the records'
    hands, one row per record in order (game numbers, seeds, moves)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    records, hands = _paths(folder, shard)
    if not hands.exists():
        return None
    try:
        table = pq.read_table(hands)
    except (OSError, pa.ArrowException) as error:
        raise _Damaged(hands, f"the table does not read ({error})") from None
    if not table.schema.equals(_schema()):
        raise _Damaged(hands, "the table's columns are not those of a hands table")
    if not records.exists():
        raise _Damaged(records, "missing, while the shard's table is there")
    try:
        parsed = list(read_records(records))
    except (OSError, UnicodeDecodeError, InvalidNotationError) as error:
        raise _Damaged(records, f"not the shard's records ({error})") from None
    if len(parsed) != table.num_rows:
        raise _Damaged(records, f"{len(parsed)} records for the {table.num_rows} rows of {hands}")
    rows = table.select(["game", "seed", "moves"]).to_pydict()
    first, stop = run.bounds(shard)
    games = rows["game"]
    expected = set(range(first, stop))
    if (games != sorted(games) or set(games) != expected
            or (not run.matches and len(games) != len(expected))):
        raise _Damaged(hands, f"its games are not the shard's games {first} to {stop - 1}")
    for number, (record, seed, moves) in enumerate(zip(parsed, rows["seed"], rows["moves"]), 1):
        recorded = record["moves"]  # a list of moves: read_records checked it
        if record["seed"] != seed or not isinstance(recorded, list) or len(recorded) != moves:
            raise _Damaged(records, f"record {number} is not the hand of row {number} of {hands}")
    return table


class _Damaged(Exception):
    """A finished shard's file that is not what the driver wrote."""

    def __init__(self, path: Path, what: str) -> None:
        super().__init__(f"{path}: {' '.join(what.splitlines())}")  # one line, whatever it quotes


def _finished(folder: Path, run: Run) -> tuple[list[int], dict[int, str]]:
    """The finished shards that check whole, and the damaged ones with what is wrong."""
    whole: list[int] = []
    damaged: dict[int, str] = {}
    for shard in range(run.shards):
        try:
            if _check(folder, run, shard) is not None:
                whole.append(shard)
        except _Damaged as error:
            damaged[shard] = str(error)
    return whole, damaged


def summarize(folder: str | os.PathLike[str]) -> RunSummary:
    """The summary of a run's folder from its finished shards, each checked as a resume checks it
    (BurracoError quoting a damaged shard's file and what is wrong: run the same selfplay again
    to play it again)."""
    folder = Path(folder)
    run = _read_run(folder)
    tables = []
    for shard in range(run.shards):
        try:
            table = _check(folder, run, shard)
        except _Damaged as error:
            raise BurracoError(f"{error}; the same selfplay run again plays that shard again") \
                from None
        if table is not None:
            tables.append(table)
    return _summary(folder, run, tables)


def _summary(folder: Path, run: Run, tables: Iterable[Any]) -> RunSummary:
    """The summary of these shard tables, in shard order."""
    from . import Rules

    rules = Rules.from_text(run.rules)
    summary = RunSummary(units_of(rules), run=run, folder=str(folder))
    units = len(summary.units)
    for table in tables:
        rows = table.to_pydict()
        for i, reason in enumerate(rows["end_reason"]):
            summary.add_hand(rows["moves"][i], reason)
            if run.matches:
                if rows["match_scores"][i] is None:
                    continue
                scores, winner = rows["match_scores"][i], rows["match_winner"][i]
            else:
                scores, winner = rows["scores"][i], rows["winner"][i]
            # Per unit of the run's seating: with rotate, game g moved the policies g mod
            # players seats on (burraco.bots.Played).
            turn = rows["game"][i] % rules.players if run.rotate else 0
            scores = [scores[(unit + turn) % units] for unit in range(units)]
            summary.add_game(scores, None if winner == -1 else (winner - turn) % units)
    return summary


def _read(folder: Path, shard: int) -> Any:
    """The table of a shard this run has checked or written."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    hands = _paths(folder, shard)[1]
    try:
        return pq.read_table(hands)
    except (OSError, pa.ArrowException) as error:
        raise BurracoError(f"{hands}: the table does not read ({error})") from None


def _read_run(folder: Path) -> Run:
    manifest = folder / "run.json"
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
        if data.pop("format") != RUN_FORMAT or data.pop("version") != RUN_VERSION:
            raise ValueError("another format or version")
        data["policies"] = tuple(data["policies"])
        return Run(**data)  # a run file without "rotate" is a run without rotation
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise BurracoError(f"{manifest}: not a run file of burraco selfplay ({error})") from None


# ---- the driver ----------------------------------------------------------------------------------


def selfplay(
    rules: Any,
    games: int,
    out: str | os.PathLike[str],
    *,
    policies: str | Sequence[str] = "greedy",
    seed: int = 0,
    shard_size: int = 1000,
    matches: bool = False,
    max_hands: int = 1000,
    rotate: bool = False,
    address: str | None = None,
    resume: bool = True,
    progress: Callable[[int, int], object] | None = None,
) -> RunSummary:
    """Plays a self-play run on Ray and returns its merged summary (also in ``out/summary.json``).

    ``rules`` is a ``burraco.Rules`` or a preset name; ``policies`` one policy spec of the command
    (``random``, ``greedy``, ``heuristic``, ``ismcts:1000``, ``module:attribute``) or one per seat;
    ``games`` hands, or matches with ``matches=True`` (each stopped after ``max_hands`` hands);
    ``rotate=True`` moves the policies one seat on from game to game (``burraco.bots.play_games``).
    Ray is started with ``ray.init(address=address)`` unless it is already initialised (then
    that cluster is used as it is). A shard an earlier run finished is checked (its table reads,
    has one row per record, in order, and its records parse) and skipped, or played again if it
    is damaged (``RunSummary.damaged`` says why). ``resume=False`` plays every shard again.
    ``progress`` is called with (games done, games) as shards finish, finished shards of an
    earlier run first. A file that cannot be written or removed raises BurracoError quoting it.
    """
    import ray

    run = make_run(rules, games, policies=policies, seed=seed, shard_size=shard_size,
                   matches=matches, max_hands=max_hands, rotate=rotate)
    _load(run)  # a bad rule text or policy spec is refused here, before any task starts
    folder = Path(out)
    _prepare(folder, run, resume)
    started = time.perf_counter()
    finished, damaged = _finished(folder, run)
    for shard in damaged:
        for path in _paths(folder, shard):
            _remove(path)
    done_games = sum(run.bounds(s)[1] - run.bounds(s)[0] for s in finished)
    if progress is not None:
        progress(done_games, run.games)
    skipped = set(finished)
    pending = [shard for shard in range(run.shards) if shard not in skipped]
    played_hands = 0
    if pending:
        if not ray.is_initialized():
            ray.init(address=address, include_dashboard=False, log_to_driver=False,
                     configure_logging=False)
        task = ray.remote(num_cpus=1, max_retries=2)(_shard_task)
        waiting = [task.remote(run, shard) for shard in pending]
        try:
            while waiting:
                ready, waiting = ray.wait(waiting, num_returns=1)
                try:
                    shard, text, table = ray.get(ready[0])
                except ray.exceptions.RayTaskError as error:
                    cause = error.cause if isinstance(error.cause, Exception) else error
                    if isinstance(cause, BurracoError):
                        raise cause from None
                    raise BurracoError(f"a self-play shard failed: {cause}") from None
                _store(folder, shard, text, table)
                played_hands += table.num_rows
                first, stop = run.bounds(shard)
                done_games += stop - first
                if progress is not None:
                    progress(done_games, run.games)
        finally:
            for rest in waiting:  # a run that stops leaves no task playing for nothing
                ray.cancel(rest)
    summary = _summary(folder, run, (_read(folder, shard) for shard in range(run.shards)))
    summary.shards_played = len(pending)
    summary.shards_skipped = len(finished)
    summary.damaged = [damaged[shard] for shard in sorted(damaged)]
    summary.hands_played = played_hands
    summary.seconds = time.perf_counter() - started
    _write_atomic(folder / "summary.json",
                  (json.dumps(summary.to_json(), indent=2) + "\n").encode("utf-8"))
    return summary
