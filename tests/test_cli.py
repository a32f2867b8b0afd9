"""The ``burraco`` command (src/burraco/cli.py, docs/cli.md).

* ``--help`` of the command and of every subcommand.
* ``selfplay`` on both engines: the summary's counts add up, its scores are those of
  ``burraco.playouts`` for the same seed, the ``--out`` records read back and replay to finished
  hands; mixed policies per seat; whole matches.
* ``replay`` of a file written by ``selfplay``; ``perft`` equal to ``burraco.perft``, with a divide;
  the perft-file check and ``tools/perft.py``.
* Error paths (bad preset, missing file, bad ``--game``, no source checkout for ``bench``): a
  nonzero exit status, one line on stderr, never a traceback.
* A person at a real pseudo-terminal (``pexpect``) plays a whole hand of ``burraco play``: asks for
  the moves, plays one (by number or by notation), mistypes, tries an illegal move, and sees the
  result; Ctrl-C and end of input leave cleanly.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from conftest import ENGINES, load_engine

import burraco
from burraco import cli

ROOT = Path(__file__).resolve().parent.parent
SUBCOMMANDS = ("play", "selfplay", "replay", "perft", "bench")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m burraco ARGS`` in a child process."""
    return subprocess.run(
        [sys.executable, "-m", "burraco", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=ROOT,
    )


def summary_rows(text: str) -> dict[str, str]:
    """The selfplay summary's rows: label -> the rest of the line."""
    rows = {}
    for line in text.splitlines():
        match = re.match(r"(\S+(?: \S+)*(?: \([a-z]+\))?)\s{2,}(.*)$", line)
        if match:
            rows[match.group(1)] = match.group(2)
    return rows


def counts(cell_text: str) -> list[int]:
    """The leading integers of ``'14 (70.0%)    6 (30.0%)'``."""
    return [int(n) for n in re.findall(r"(-?\d+) \(\d+\.\d%\)", cell_text)]


# ---- help -----------------------------------------------------------------------------------------


def test_help_of_the_command():
    done = run("--help")
    assert done.returncode == 0
    for name in SUBCOMMANDS:
        assert name in done.stdout


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_help_of_every_subcommand(command, capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main([command, "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: burraco {command}")
    if command != "bench":
        assert "--engine" in out


def test_no_subcommand_prints_the_help(capsys):
    assert cli.main([]) == 2
    assert "selfplay" in capsys.readouterr().out


# ---- selfplay ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("engine_name", ENGINES)
def test_selfplay_summary_adds_up_and_the_records_replay(engine_name, tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    games = 6
    status = cli.main(["selfplay", "--preset", "italian-2p", "--games", str(games), "--seed", "3",
                       "--engine", engine_name, "--out", str(out)])
    text = capsys.readouterr().out
    assert status == 0, text
    rows = summary_rows(text)
    assert rows["games"] == f"{games} hands"
    wins = counts(rows["wins"])
    draws = counts(rows["draws"])
    assert len(wins) == 2 and len(draws) == 1 and sum(wins) + draws[0] == games
    reasons = re.findall(r"([a-z_]+) (\d+) \(", rows["end reasons"])
    assert [name for name, _ in reasons] == list(burraco.END_REASONS)
    assert sum(int(n) for _, n in reasons) == games
    assert float(rows["mean moves per hand"]) > 0
    assert float(rows["hands per second"].split()[0].replace(",", "")) > 0

    # One policy for all seats: hand i is hand i of burraco.playouts with the same seed.
    batch = burraco.playouts(burraco.Rules("italian-2p"), games, seed=3, policy="greedy")
    means = rows["mean score (hand)"].split()
    assert means == [f"{float(batch['scores'][:, side].mean()):.1f}" for side in (0, 1)]
    assert rows["mean moves per hand"] == f"{float(batch['moves'].mean()):.1f}"

    engine = load_engine(engine_name)
    records = list(burraco.read_records(out))
    assert len(records) == games
    for record, seed in zip(records, batch["seed"]):
        game = engine.Game.from_record(record)
        assert game.is_over() and game.seed == int(seed)


@pytest.mark.parametrize("engine_name", ENGINES)
def test_selfplay_mixed_policies_per_seat(engine_name, tmp_path, capsys):
    out = tmp_path / "mixed.jsonl"
    status = cli.main(["selfplay", "--preset", "italian-2p", "--games", "3", "--seed", "5",
                       "--policies", "greedy,random", "--engine", engine_name, "--out", str(out)])
    text = capsys.readouterr().out
    assert status == 0
    rows = summary_rows(text)
    assert rows["policy"].split() == ["greedy", "random"]
    engine = load_engine(engine_name)
    for record in burraco.read_records(out):
        game = engine.Game.from_record(record)
        assert game.is_over()
        # Replayed move by move, every seat-0 move is the greedy policy's.
        start = game.copy()
        moves = list(start.moves)
        while start.moves:
            start.pop()
        for move in moves:
            if start.turn == 0:
                assert start.policy_move("greedy", 0) == move
            start.push(move)


def test_selfplay_matches_four_players_and_three(capsys):
    assert cli.main(["selfplay", "--preset", "italian", "--games", "1", "--seed", "2",
                     "--matches", "--quiet"]) == 0
    rows = summary_rows(capsys.readouterr().out)
    assert re.fullmatch(r"1 matches \(\d+ hands\)", rows["games"])
    assert sum(counts(rows["wins"])) + counts(rows["draws"])[0] == 1
    assert rows["seats"].split() == ["0,", "2", "1,", "3"]

    assert cli.main(["selfplay", "--preset", "italian-3p", "--games", "4", "--seed", "2",
                     "--quiet"]) == 0
    text = capsys.readouterr().out
    rows = summary_rows(text)
    assert len(counts(rows["wins"])) == 3
    assert "seat 0" in text and "seat 2" in text


# ---- replay -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def records_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("records") / "games.jsonl"
    done = run("selfplay", "--preset", "italian-2p", "--games", "3", "--seed", "9",
               "--policies", "greedy,random", "--out", str(path))
    assert done.returncode == 0, done.stderr
    assert f"wrote 3 records to {path}" in done.stdout
    return path


@pytest.mark.parametrize("engine_name", ENGINES)
def test_replay_of_a_selfplay_file(records_file, engine_name, capsys):
    assert cli.main(["replay", str(records_file), "--game", "1", "--engine", engine_name,
                     "--all"]) == 0
    out = capsys.readouterr().out
    record = list(burraco.read_records(records_file))[1]
    for number, move in enumerate(record["moves"], 1):
        assert f"== move {number}: seat " in out and f" {move} ==" in out
    assert out.count("Stock:") == len(record["moves"]) + 1
    assert "Hand over:" in out
    for side in record["result"]["sides"]:
        assert re.search(rf"side {side['side']} \(seat.*\s{side['total']}$", out, re.MULTILINE)


def test_replay_list(records_file, capsys):
    assert cli.main(["replay", str(records_file), "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    records = list(burraco.read_records(records_file))
    assert len(lines) == len(records)
    for index, (line, record) in enumerate(zip(lines, records)):
        assert line.split()[0] == str(index)
        assert f"{len(record['moves'])} moves" in line
        assert record["result"]["end_reason"] in line


# ---- perft ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("engine_name,depth", [("core", 4), ("reference", 2)])
def test_perft_equals_the_engines_perft(engine_name, depth, capsys):
    assert cli.main(["perft", "--preset", "italian-2p", "--seed", "7", "--depth", str(depth),
                     "--divide", "--engine", engine_name]) == 0
    out = capsys.readouterr().out
    engine = load_engine(engine_name)
    game = engine.Game(engine.Rules("italian-2p"), seed=7)
    got = {int(d): int(n) for d, n in re.findall(r"^perft (\d+) (\d+)$", out, re.MULTILINE)}
    assert got == {d: engine.perft(game, d) for d in range(1, depth + 1)}
    divide = dict(re.findall(r"^  (\S+(?: \S+)*?) +(\d+)$", out, re.MULTILINE))
    assert int(divide.pop("total")) == got[depth]
    assert list(divide) == [str(move) for move in game.legal_moves()]
    for move, nodes in divide.items():
        child = game.copy()
        child.push(move)
        assert int(nodes) == engine.perft(child, depth - 1)


def test_perft_from_a_state_string(capsys):
    game = burraco.Game(burraco.Rules("brazilian"), seed=4)
    game.push(game.legal_moves()[0])
    assert cli.main(["perft", "--state", game.state_string(), "--depth", "2"]) == 0
    out = capsys.readouterr().out
    assert f"perft 2 {burraco.perft(game, 2)}" in out.splitlines()


def test_perft_checks_perft_files(capsys):
    path = ROOT / "tests" / "data" / "perft" / "italian-2p.perft"
    assert cli.main(["perft", str(path), "--max-nodes", "2000"]) == 0
    out = capsys.readouterr().out
    assert "MISMATCH" not in out and re.search(r"(\d+) of \1 counts match", out)


def test_tools_perft_is_still_a_working_runner():
    path = ROOT / "tests" / "data" / "perft" / "italian-2p.perft"
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "perft.py"), str(path),
                           "--max-nodes", "200"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "counts match" in done.stdout


# ---- errors -----------------------------------------------------------------------------------------


def _one_line_error(done: subprocess.CompletedProcess[str], *quoted: str) -> None:
    assert done.returncode != 0
    assert "Traceback" not in done.stderr + done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    for text in quoted:
        assert text in lines[0]


def test_bad_preset():
    _one_line_error(run("selfplay", "--preset", "italain", "--games", "1"), "'italain'")


def test_missing_records_file(tmp_path):
    _one_line_error(run("replay", str(tmp_path / "none.jsonl")), "none.jsonl")


def test_bad_game_index(records_file):
    _one_line_error(run("replay", str(records_file), "--game", "7"), "--game 7", "3 records")


def test_bad_record(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"format": "something else"}\n', encoding="utf-8")
    _one_line_error(run("replay", str(path)), "bad.jsonl")


@pytest.mark.parametrize(
    "args,quoted",
    [
        (("perft", "--state", "v=1;nonsense"), "--state"),
        (("perft", "no-such.perft"), "no-such.perft"),
        (("selfplay", "--policies", "greedy,clever", "--games", "1"), "'clever'"),
        (("play", "--preset", "italian-2p", "--seat", "5"), "--seat 5"),
        (("bench", "--source", "/nonexistent-checkout"), "source checkout"),
        (("selfplay", "--games", "many"), "many"),
    ],
)
def test_other_errors(args, quoted):
    _one_line_error(run(*args), quoted)


# ---- a person at a terminal -------------------------------------------------------------------------

PROMPT = r"\[(draw|meld)\] your move> "


def _spawn_play(seed: int) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable,
        ["-m", "burraco", "play", "--preset", "italian-2p", "--seed", str(seed), "--hands", "1",
         "--no-color"],
        cwd=str(ROOT),
        encoding="utf-8",
        timeout=60,
        dimensions=(40, 140),
    )


def _legal_moves(child: pexpect.spawn) -> list[str]:
    """Asks for the moves at the prompt and reads the numbered list back."""
    child.sendline("moves")
    child.expect(r"(\d+) legal moves:")
    expected = int(child.match.group(1))
    child.expect(PROMPT)
    listed = sorted((int(number), move)
                    for number, move in re.findall(r"(\d+)\. (\S+(?: \S+)*)", child.before))
    assert [number for number, _ in listed] == list(range(1, expected + 1))  # in columns
    return [move for _, move in listed]


def test_a_terminal_session_plays_a_whole_hand():
    child = _spawn_play(seed=11)
    child.expect(r"match seed 11")
    child.expect(PROMPT)
    assert child.match.group(1) == "draw"

    child.sendline("drwa")  # a typo: explained, and asked again
    child.expect(r"Not played: 'drwa' is not a move")
    child.expect(PROMPT)
    child.sendline("discard Ah")  # well formed but illegal now
    child.expect(r"Not played: illegal move 'discard Ah'")
    child.expect(PROMPT)
    child.sendline("999")  # no such move number
    child.expect(r"No move number 999")
    child.expect(PROMPT)
    child.sendline("help")
    child.expect(r"Commands:")
    child.expect(PROMPT)

    played = 0
    by_number = True
    for _ in range(1000):
        moves = _legal_moves(child)
        # A simple person: never the pile; the first listed move (draw, a meld, a lay-off, a
        # discard), alternately typed as its number and as its notation.
        choice = next((i for i, move in enumerate(moves) if move != "pile"), 0)
        child.sendline(str(choice + 1) if by_number else moves[choice])
        by_number = not by_number
        child.expect(r"You played: ([^;\r\n]+)")
        assert child.match.group(1).strip() == moves[choice]
        played += 1
        which = child.expect([PROMPT, r"Hand over: "])
        if which == 1:
            break
    else:
        raise AssertionError("the hand did not end")
    assert played > 5
    child.expect(r"side 0 \(seat 0; you\)\s+(-?\d+\s+){6}(-?\d+)")
    child.expect(r"Match scores after 1 hand: side 0 (-?\d+), side 1 (-?\d+)")
    child.expect(r"Stopped after 1 hand\.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_ctrl_c_and_end_of_input_leave_cleanly():
    child = _spawn_play(seed=12)
    child.expect(PROMPT)
    child.sendintr()
    child.expect(r"burraco play: interrupted")
    child.expect(pexpect.EOF)
    assert "Traceback" not in child.before
    child.close()
    assert child.exitstatus == 130

    child = _spawn_play(seed=12)
    child.expect(PROMPT)
    child.sendline("draw")
    child.expect(PROMPT)
    child.sendeof()
    child.expect(r"Leaving the match \(end of input\)")
    child.expect(pexpect.EOF)
    assert "Traceback" not in child.before
    child.close()
    assert child.exitstatus == 0


def test_quit_from_a_piped_session():
    done = subprocess.run(
        [sys.executable, "-m", "burraco", "play", "--preset", "italian-2p", "--seed", "1"],
        input="?\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0
    assert "legal moves:" in done.stdout and "Leaving the match (quit)" in done.stdout
    assert done.stderr == ""
