"""Self-play sharded over Ray (burraco.distributed, ``burraco selfplay --ray``; docs/rl.md), on a
local Ray of two CPUs: the shards play exactly the games of a local run, resume skips finished
shards, a folder of another run is refused, and the Parquet table holds one row per hand.

Under ``-m slow`` (``.ci/run`` runs them): a local Ray takes 12 to 15 seconds to start in each
test worker that runs one of these tests, the largest fixed cost of the default run."""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
import ray

import burraco
from burraco import Rules, cli, distributed, playouts, read_records
from burraco._errors import BurracoError, InvalidNotationError
from burraco._tally import unit_scores

pytestmark = pytest.mark.slow

@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def lines(folder: Path) -> list[str]:
    """Every record line of a run's folder, shard by shard."""
    out: list[str] = []
    for path in sorted((folder / "records").glob("shard-*.jsonl")):
        out.extend(path.read_text(encoding="utf-8").splitlines())
    return out


def test_shards_play_the_games_of_a_local_run(tmp_path):
    # 45 hands in shards of 16: three shards, the last one short.
    summary = distributed.selfplay("italian-2p", 45, tmp_path / "run", policies="greedy", seed=7,
                                   shard_size=16)
    assert (summary.shards_played, summary.shards_skipped, summary.hands_played) == (3, 0, 45)
    batch = playouts(Rules("italian-2p"), 45, seed=7, policy="greedy")
    table = pq.read_table(tmp_path / "run" / "hands")
    assert table.column_names == list(distributed.HAND_COLUMNS)
    rows = table.to_pydict()
    assert rows["game"] == list(range(45))
    assert np.array_equal(np.array(rows["seed"], dtype=np.uint64), batch["seed"])
    assert np.array_equal(np.array(rows["scores"]), batch["scores"])
    assert np.array_equal(np.array(rows["moves"]), batch["moves"])
    reasons = [burraco.END_REASONS[code - 1] for code in batch["end_reason"]]
    assert rows["end_reason"] == reasons
    assert set(rows["preset"]) == {"italian-2p"} and rows["policies"][0] == ["greedy", "greedy"]
    assert rows["match_scores"] == [None] * 45 and rows["match_winner"] == [None] * 45
    # The records are those of the local command, line for line.
    local = tmp_path / "local.jsonl"
    assert cli.main(["selfplay", "--preset", "italian-2p", "--games", "45", "--seed", "7",
                     "--policy", "greedy", "--out", str(local), "--quiet", "--no-color"]) == 0
    assert lines(tmp_path / "run") == local.read_text(encoding="utf-8").splitlines()
    # The summary is the batch's.
    side0, side1 = batch["scores"][:, 0], batch["scores"][:, 1]
    assert summary.wins == [int((side0 > side1).sum()), int((side1 > side0).sum())]
    assert summary.draws == int((side0 == side1).sum())
    assert summary.score_sums == [int(side0.sum()), int(side1.sum())]
    assert summary.moves == int(batch["moves"].sum())
    assert summary.reasons == {r: reasons.count(r) for r in set(reasons)}
    stored = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert stored["summary"]["wins"] == summary.wins and stored["summary"]["hands"] == 45


def test_a_run_resumes_where_it_stopped(tmp_path):
    folder = tmp_path / "run"
    whole = distributed.selfplay("italian", 20, tmp_path / "whole", policies="random", seed=3,
                                 shard_size=5)
    # A run stopped after its first finished shard (the callback is the driver's, so the error
    # stops the driver as a kill would), and a shard file left half-written.
    calls = []

    def stop_after_one(done: int, total: int) -> None:
        calls.append(done)
        if done > 0:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        distributed.selfplay("italian", 20, folder, policies="random", seed=3, shard_size=5,
                             progress=stop_after_one)
    assert calls == [0, 5]
    (folder / "hands" / "shard-00003.parquet.tmp").write_bytes(b"half a file")
    assert len(list((folder / "hands").glob("*.parquet"))) == 1
    seen = []
    resumed = distributed.selfplay("italian", 20, folder, policies="random", seed=3, shard_size=5,
                                   progress=lambda done, total: seen.append((done, total)))
    assert (resumed.shards_played, resumed.shards_skipped, resumed.hands_played) == (3, 1, 15)
    assert seen[0] == (5, 20) and seen[-1] == (20, 20)
    assert not list(folder.rglob("*.tmp"))
    assert lines(folder) == lines(tmp_path / "whole")
    assert pq.read_table(folder / "hands").equals(pq.read_table(tmp_path / "whole" / "hands"))
    assert (resumed.wins, resumed.score_sums, resumed.reasons) == (whole.wins, whole.score_sums,
                                                                   whole.reasons)
    # Once finished, a run again plays nothing; restart plays everything.
    again = distributed.selfplay("italian", 20, folder, policies="random", seed=3, shard_size=5)
    assert (again.shards_played, again.shards_skipped, again.hands) == (0, 4, 20)
    fresh = distributed.selfplay("italian", 20, folder, policies="random", seed=3, shard_size=5,
                                 resume=False)
    assert (fresh.shards_played, fresh.shards_skipped) == (4, 0)
    assert lines(folder) == lines(tmp_path / "whole")


def test_matches_with_a_policy_per_seat(tmp_path):
    summary = distributed.selfplay("italian-2p", 3, tmp_path / "run", policies=["greedy", "random"],
                                   seed=11, shard_size=2, matches=True, max_hands=4)
    local = tmp_path / "local.jsonl"
    assert cli.main(["selfplay", "--preset", "italian-2p", "--games", "3", "--seed", "11",
                     "--policies", "greedy,random", "--matches", "--max-hands", "4",
                     "--out", str(local), "--quiet", "--no-color"]) == 0
    assert lines(tmp_path / "run") == local.read_text(encoding="utf-8").splitlines()
    rows = pq.read_table(tmp_path / "run" / "hands").to_pydict()
    hands = len(rows["game"])
    assert summary.hands == hands and summary.games == 3
    assert sorted(set(rows["game"])) == [0, 1, 2]
    # One final row per match, on its last hand, and the hands of a match numbered from 0.
    finals = [i for i in range(hands) if rows["match_scores"][i] is not None]
    assert [rows["game"][i] for i in finals] == [0, 1, 2]
    for i in finals:
        assert i == hands - 1 or rows["game"][i + 1] != rows["game"][i]
    for i in range(hands):
        assert rows["hand"][i] == (0 if i == 0 or rows["game"][i - 1] != rows["game"][i]
                                   else rows["hand"][i - 1] + 1)
    # The match score is the sum of its hands' scores.
    for i in finals:
        game = rows["game"][i]
        own = [rows["scores"][k] for k in range(hands) if rows["game"][k] == game]
        assert rows["match_scores"][i] == [sum(s[0] for s in own), sum(s[1] for s in own)]
    records = list(read_records(local))
    assert [r["seed"] for r in records] == rows["seed"]


@pytest.mark.parametrize("preset", Rules.PRESETS)
@pytest.mark.parametrize("matches", [False, True])
def test_a_shards_lines_and_rows_are_those_of_its_hands(preset, matches):
    # Each line a shard writes is the record of the hand it played, as game.record() writes it:
    # replayed by Game.from_record (which checks the recorded result), the hand's record gives the
    # line back byte for byte. Each row is that hand's.
    rules = Rules(preset)
    run = distributed.make_run(rules, 5, policies="greedy", seed=5, shard_size=3, matches=matches,
                               max_hands=3)
    numbers = []
    for shard in range(run.shards):
        text, columns = distributed.play_shard(run, shard)
        records = text.splitlines()
        assert text == "".join(line + "\n" for line in records)
        assert len(records) == len(columns["game"]) and set(columns) == set(distributed.HAND_COLUMNS)
        for i, line in enumerate(records):
            game = burraco.Game.from_record(line)
            assert json.dumps(game.record(), separators=(",", ":")) == line
            scores = unit_scores(rules, game.result())
            winner = max(range(len(scores)), key=scores.__getitem__)
            assert columns["seed"][i] == game.seed and columns["first_player"][i] == game.first_player
            assert columns["moves"][i] == len(game.moves)
            assert columns["scores"][i] == scores
            assert columns["winner"][i] == (-1 if scores.count(scores[winner]) > 1 else winner)
            assert columns["end_reason"][i] == game.result().end_reason
            assert columns["preset"][i] == preset and columns["policies"][i] == list(run.policies)
        numbers += columns["game"]
    if matches:
        assert sorted(set(numbers)) == list(range(5)) and numbers == sorted(numbers)
    else:
        assert numbers == list(range(5))


def test_the_command(tmp_path, capsys):
    folder = tmp_path / "run"
    argv = ["selfplay", "--preset", "italian-2p", "--games", "12", "--seed", "2", "--policy",
            "heuristic", "--ray", "--out", str(folder), "--shard-size", "5", "--quiet", "--no-color"]
    assert cli.main(argv) == 0
    shown = capsys.readouterr().out
    assert "engine core on Ray" in shown
    assert "shards: 3 played now (12 hands), 0 finished before (of 3)" in shown
    assert f"wrote 12 records to {folder}/records" in shown
    assert cli.main(argv) == 0
    assert "shards: 0 played now (0 hands), 3 finished before (of 3)" in capsys.readouterr().out
    batch = playouts(Rules("italian-2p"), 12, seed=2, policy="heuristic")
    assert pq.read_table(folder / "hands").column("moves").to_pylist() == batch["moves"].tolist()


def test_refusals(tmp_path, capsys):
    run = tmp_path / "run"
    distributed.selfplay("italian-2p", 4, run, policies="random", seed=1, shard_size=2)
    with pytest.raises(BurracoError, match=r"holds another run \(seed 1 there, 2 now\)"):
        distributed.selfplay("italian-2p", 4, run, policies="random", seed=2, shard_size=2)
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    with pytest.raises(BurracoError, match="not empty and not a run's folder"):
        distributed.selfplay("italian-2p", 4, other, policies="random")
    assert sorted(p.name for p in other.iterdir()) == ["notes.txt"]
    for bad, message in ((dict(policies="nonsense"), "unknown bot 'nonsense'"),
                         (dict(policies=["random"]), "expected one spec, or one spec per seat"),
                         (dict(shard_size=0), "shard_size 0"),
                         (dict(seed=-1), "seed -1"),
                         (dict(max_hands=True), "max_hands True")):
        with pytest.raises(InvalidNotationError, match=message):
            distributed.selfplay("italian-2p", 4, tmp_path / "never", **bad)
        assert not (tmp_path / "never").exists()
    with pytest.raises(InvalidNotationError, match="games 'many'"):
        distributed.selfplay("italian-2p", "many", tmp_path / "never")
    assert cli.main(["selfplay", "--preset", "italian-2p", "--games", "2", "--ray"]) == 2
    assert "--ray needs --out DIR" in capsys.readouterr().err
    assert cli.main(["selfplay", "--preset", "italian-2p", "--games", "2", "--shard-size", "3"]) == 2
    assert "--shard-size and --restart go with --ray" in capsys.readouterr().err


# ---- six players ---------------------------------------------------------------------------------


@pytest.mark.parametrize("sides", [3, 2])
@pytest.mark.parametrize("matches", [False, True])
def test_six_players_have_one_unit_per_side(tmp_path, sides, matches):
    # Three sides of two used to be summed into two units (an IndexError on the third score).
    rules = Rules("brazilian", players=6, sides=sides)
    summary = distributed.selfplay(rules, 3, tmp_path / "run", policies="random", seed=4,
                                   shard_size=2, matches=matches, max_hands=2)
    assert summary.units == [f"side {side}" for side in range(sides)]
    rows = pq.read_table(tmp_path / "run" / "hands").to_pydict()
    column = "match_scores" if matches else "scores"
    finals = [scores for scores in rows[column] if scores is not None]
    assert len(finals) == 3 and all(len(scores) == sides for scores in rows["scores"])
    assert summary.score_sums == [sum(scores[side] for scores in finals) for side in range(sides)]
    assert sum(summary.wins) + summary.draws == summary.games == 3
    for i, line in enumerate(lines(tmp_path / "run")):
        assert rows["scores"][i] == unit_scores(rules, burraco.Game.from_record(line).result())
    stored = json.loads((tmp_path / "run" / "summary.json").read_text())["summary"]
    assert stored["units"] == summary.units and len(stored["score_sums"]) == sides


def _summary_rows(text: str) -> list[str]:
    """The rows of a selfplay summary that do not depend on the machine or on where it ran."""
    return [line for line in text.splitlines()
            if line.startswith(("games", "seats", "policy", "wins", "mean", "draws", "end"))]


@pytest.mark.slow
def test_the_command_plays_six_players_on_ray(tmp_path, capsys):
    """burraco selfplay --ray --preset brazilian --players 6: the shards play the games of the
    local run (three sides of two, a policy per side), line for line, with its summary."""
    argv = ["selfplay", "--preset", "brazilian", "--players", "6", "--games", "4", "--seed", "5",
            "--policies", "greedy,random,heuristic", "--quiet", "--no-color"]
    assert cli.main([*argv, "--ray", "--out", str(tmp_path / "run"), "--shard-size", "2"]) == 0
    on_ray = capsys.readouterr().out
    assert "shards: 2 played now (4 hands), 0 finished before (of 2)" in on_ray
    local = tmp_path / "local.jsonl"
    assert cli.main([*argv, "--threads", "2", "--out", str(local)]) == 0
    here = capsys.readouterr().out
    assert lines(tmp_path / "run") == local.read_text(encoding="utf-8").splitlines()
    assert _summary_rows(on_ray) == _summary_rows(here)
    assert "side 2" in on_ray and "greedy/greedy" in on_ray


def test_a_rotating_run_on_ray_is_the_local_one(tmp_path, capsys):
    """--rotate moves the policies a seat on from game to game, on Ray as here: the same records,
    each row naming the policies as its hand seated them, and the summary per policy."""
    argv = ["selfplay", "--preset", "italian-2p", "--games", "6", "--seed", "3", "--policies",
            "heuristic,random", "--rotate", "--quiet", "--no-color"]
    assert cli.main([*argv, "--ray", "--out", str(tmp_path / "run"), "--shard-size", "4"]) == 0
    on_ray = capsys.readouterr().out
    local = tmp_path / "local.jsonl"
    assert cli.main([*argv, "--out", str(local)]) == 0
    assert _summary_rows(capsys.readouterr().out) == _summary_rows(on_ray)
    assert lines(tmp_path / "run") == local.read_text(encoding="utf-8").splitlines()
    rows = pq.read_table(tmp_path / "run" / "hands").to_pydict()
    assert rows["policies"] == [["heuristic", "random"], ["random", "heuristic"]] * 3
    run = json.loads((tmp_path / "run" / "run.json").read_text())
    assert run["rotate"] is True
    # A run without rotation writes the run file it always wrote, so its folder still resumes.
    assert "rotate" not in distributed.make_run("italian-2p", 6, policies="random").to_json()


# ---- damaged shards on resume --------------------------------------------------------------------


RUN = dict(policies="random", seed=9, shard_size=2)


@pytest.fixture(scope="module")
def whole_run(tmp_path_factory) -> tuple[Path, distributed.RunSummary]:
    """A finished run of three shards of two hands, the one each damaged copy must come back to."""
    folder = tmp_path_factory.mktemp("whole") / "run"
    return folder, distributed.selfplay("italian-2p", 6, folder, **RUN)


def _records(folder: Path, shard: int) -> Path:
    return folder / "records" / f"shard-{shard:05d}.jsonl"


def _hands(folder: Path, shard: int) -> Path:
    return folder / "hands" / f"shard-{shard:05d}.parquet"


def _cut_records(folder: Path) -> None:
    data = _records(folder, 1).read_bytes()
    _records(folder, 1).write_bytes(data[:len(data) // 2])


def _drop_last_record(folder: Path) -> None:
    first = _records(folder, 1).read_text(encoding="utf-8").splitlines()[0]
    _records(folder, 1).write_text(first + "\n", encoding="utf-8")


def _other_shards_records(folder: Path) -> None:
    _records(folder, 1).write_bytes(_records(folder, 0).read_bytes())


def _garbage_table(folder: Path) -> None:
    _hands(folder, 1).write_bytes(b"PAR1" + b"\x00" * 64 + b"PAR1")


def _cut_table(folder: Path) -> None:
    data = _hands(folder, 1).read_bytes()
    _hands(folder, 1).write_bytes(data[:len(data) // 2])


def _fewer_rows(folder: Path) -> None:
    pq.write_table(pq.read_table(_hands(folder, 1)).slice(0, 1), _hands(folder, 1))


def _other_columns(folder: Path) -> None:
    pq.write_table(pq.read_table(_hands(folder, 1)).drop_columns(["moves"]), _hands(folder, 1))


def _other_shards_table(folder: Path) -> None:
    _hands(folder, 1).write_bytes(_hands(folder, 0).read_bytes())


def _records_gone(folder: Path) -> None:
    _records(folder, 1).unlink()


@pytest.mark.parametrize("damage, where, what", [
    (_cut_records, "records", r"not the shard's records \(line \d: .* is not a JSON game record"),
    (_drop_last_record, "records", r"1 records for the 2 rows of .*shard-00001\.parquet"),
    (_other_shards_records, "records", r"record 1 is not the hand of row 1 of"),
    (lambda folder: _records(folder, 1).write_bytes(b"\xff\xfe{}\n"), "records",
     r"not the shard's records \("),
    (_records_gone, "records", r"missing, while the shard's table is there"),
    (_garbage_table, "hands", r"the table does not read \("),
    (_cut_table, "hands", r"the table does not read \("),
    (_fewer_rows, "records", r"2 records for the 1 rows of"),
    (_other_columns, "hands", r"the table's columns are not those of a hands table"),
    (_other_shards_table, "hands", r"its games are not the shard's games 2 to 3"),
])
def test_a_damaged_shard_is_played_again(tmp_path, whole_run, damage, where, what):
    whole, summary = whole_run
    folder = tmp_path / "run"
    shutil.copytree(whole, folder)
    damage(folder)
    damaged = (_records if where == "records" else _hands)(folder, 1)
    # Reading the folder names the damaged file and what is wrong, in one line.
    with pytest.raises(BurracoError) as raised:
        distributed.summarize(folder)
    message = str(raised.value)
    assert "\n" not in message and message.startswith(f"{damaged}: ")
    assert re.search(what, message), message
    # Resuming plays that shard again, and the run is the whole run's, file for file.
    resumed = distributed.selfplay("italian-2p", 6, folder, **RUN)
    assert (resumed.shards_played, resumed.shards_skipped, resumed.hands_played) == (1, 2, 2)
    assert len(resumed.damaged) == 1 and re.search(what, resumed.damaged[0])
    assert resumed.damaged[0].startswith(f"{damaged}: ")
    assert lines(folder) == lines(whole)
    assert pq.read_table(folder / "hands").equals(pq.read_table(whole / "hands"))
    assert (resumed.wins, resumed.score_sums, resumed.reasons, resumed.hands, resumed.moves) == (
        summary.wins, summary.score_sums, summary.reasons, summary.hands, summary.moves)
    assert distributed.summarize(folder).score_sums == summary.score_sums
    assert not list(folder.rglob("*.tmp"))


def test_a_shard_without_its_table_is_played_again_as_unfinished(tmp_path, whole_run):
    whole, summary = whole_run
    folder = tmp_path / "run"
    shutil.copytree(whole, folder)
    _hands(folder, 2).unlink()  # a kill between the records and the table
    assert distributed.summarize(folder).hands == 4
    resumed = distributed.selfplay("italian-2p", 6, folder, **RUN)
    assert (resumed.shards_played, resumed.shards_skipped, resumed.damaged) == (1, 2, [])
    assert lines(folder) == lines(whole) and resumed.score_sums == summary.score_sums


def test_the_command_says_which_shard_it_played_again(tmp_path, whole_run, capsys):
    whole, _ = whole_run
    folder = tmp_path / "run"
    shutil.copytree(whole, folder)
    _cut_records(folder)
    argv = ["selfplay", "--preset", "italian-2p", "--games", "6", "--seed", "9", "--policy",
            "random", "--ray", "--out", str(folder), "--shard-size", "2", "--quiet", "--no-color"]
    assert cli.main(argv) == 0
    shown = capsys.readouterr().out
    assert "shards: 1 played now (2 hands), 2 finished before (of 3)" in shown
    assert f"played again, as it was damaged: {_records(folder, 1)}: not the shard's records" \
        in " ".join(shown.split())
    assert lines(folder) == lines(whole)


def test_a_shard_that_cannot_be_written_leaves_nothing_and_resumes(tmp_path, whole_run,
                                                                    monkeypatch):
    # The disk fills while the second table is written: the run stops with one line naming the
    # file, and leaves that shard without a table and no temporary file; the run then resumes.
    whole, summary = whole_run
    folder = tmp_path / "run"
    real = pq.write_table
    tables = []

    def fill_the_disk(table, where, **kwargs):
        tables.append(table)
        if len(tables) == 2:
            where.write(b"PAR1 half a table")
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(table, where, **kwargs)

    monkeypatch.setattr(pq, "write_table", fill_the_disk)
    with pytest.raises(BurracoError) as raised:
        distributed.selfplay("italian-2p", 6, folder, **RUN)
    message = str(raised.value)
    assert re.fullmatch(r".*/hands/shard-0000\d\.parquet: cannot write it \(No space left on "
                        r"device\)", message), message
    assert len(list((folder / "hands").glob("*.parquet"))) == 1
    assert not list(folder.rglob("*.tmp"))
    monkeypatch.setattr(pq, "write_table", real)
    resumed = distributed.selfplay("italian-2p", 6, folder, **RUN)
    assert (resumed.shards_played, resumed.shards_skipped, resumed.damaged) == (2, 1, [])
    assert lines(folder) == lines(whole) and resumed.score_sums == summary.score_sums


def test_an_out_folder_that_cannot_be_made_is_one_line(tmp_path):
    for out, message in (("/dev/full", "/dev/full: not a folder"),
                         ("/dev/full/run", "/dev/full/run: cannot make the run's folder \\(")):
        with pytest.raises(BurracoError, match=message):
            distributed.selfplay("italian-2p", 2, out, **RUN)
