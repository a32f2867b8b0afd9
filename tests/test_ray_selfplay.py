"""Self-play sharded over Ray (burraco.distributed, ``burraco selfplay --ray``; docs/rl.md), on a
local Ray of two CPUs: the shards play exactly the games of a local run, resume skips finished
shards, a folder of another run is refused, and the Parquet table holds one row per hand."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
import ray

import burraco
from burraco import Rules, cli, distributed, playouts, read_records
from burraco._errors import BurracoError, InvalidNotationError


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
            scores = cli.unit_scores(rules, game.result())
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
    for bad, message in ((dict(policies="nonsense"), "policies 'nonsense': unknown policy"),
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
