"""The ``burraco`` command (src/burraco/cli/, docs/cli.md).

* ``--help`` of the command and of every subcommand.
* ``selfplay`` on both engines: the summary's counts add up, its scores are those of
  ``burraco.playouts`` for the same seed, the ``--out`` records read back and replay to finished
  hands; mixed policies per seat; whole matches.
* ``replay`` of a file written by ``selfplay``, and ``replay --analyze`` (``burraco.review``) of
  records of ``selfplay`` and ``play``; ``perft`` equal to ``burraco.perft``, with a divide;
  the perft-file check and ``tools/perft.py``.
* Error paths (bad preset, missing file, bad ``--game``, no source checkout for ``bench``): a
  nonzero exit status, one line on stderr, never a traceback.
* A person at a real pseudo-terminal (``pexpect``) plays a whole hand of ``burraco play``: asks for
  the moves, plays one (by number or by notation), mistypes, tries an illegal move, and sees the
  result; Ctrl-C and end of input leave cleanly.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import io
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from conftest import ENGINES, load_engine

import burraco
from burraco import _board, cli

ROOT = Path(__file__).resolve().parent.parent
SUBCOMMANDS = ("play", "selfplay", "replay", "perft", "bench", "serve")


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


@pytest.mark.parametrize("engine_name", ENGINES)
def test_selfplay_six_players_three_sides_and_two(engine_name, tmp_path, capsys):
    """Six players (RULES F.7): a column per side, partners every `sides` seats, one policy per
    side, hand i of burraco.playouts, and records that replay."""
    out = tmp_path / "six.jsonl"
    assert cli.main(["selfplay", "--preset", "brazilian", "--players", "6", "--games", "4",
                     "--seed", "7", "--engine", engine_name, "--out", str(out), "--quiet"]) == 0
    rows = summary_rows(capsys.readouterr().out)
    assert rows["seats"].split() == ["0,", "3", "1,", "4", "2,", "5"]
    wins = counts(rows["wins"])
    assert len(wins) == 3 and sum(wins) + counts(rows["draws"])[0] == 4
    batch = burraco.playouts(burraco.Rules("brazilian", players=6), 4, seed=7, policy="greedy")
    assert rows["mean score (hand)"].split() == [
        f"{float(batch['scores'][:, side].mean()):.1f}" for side in range(3)]
    engine = load_engine(engine_name)
    for record, seed in zip(burraco.read_records(out), batch["seed"]):
        game = engine.Game.from_record(record)
        assert game.is_over() and game.seed == int(seed) and game.players == 6

    assert cli.main(["selfplay", "--preset", "brazilian", "--players", "6", "--sides", "2",
                     "--games", "3", "--seed", "7", "--policies", "greedy,random",
                     "--engine", engine_name, "--quiet"]) == 0
    rows = summary_rows(capsys.readouterr().out)
    assert rows["seats"].split() == ["0,", "2,", "4", "1,", "3,", "5"]
    assert rows["policy"].split() == ["greedy/greedy/greedy", "random/random/random"]
    assert len(counts(rows["wins"])) == 2


def test_six_player_command_lines_that_cannot_work_say_why(capsys):
    """A side count the table cannot have, and the arena (two sides only), end with status 2 and
    the reason, never a traceback."""
    assert cli.main(["selfplay", "--preset", "brazilian", "--players", "6", "--sides", "4",
                     "--games", "1"]) == 2
    assert "sides" in capsys.readouterr().err
    assert cli.main(["selfplay", "--preset", "brazilian", "--players", "6",
                     "--policies", "greedy,random", "--games", "1"]) == 2
    assert "expected 6 policies" in capsys.readouterr().err
    assert cli.main(["arena", "--preset", "brazilian", "--players", "6",
                     "--bots", "greedy,random", "--pairs", "1"]) == 2
    assert "two sides" in capsys.readouterr().err


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


# ---- replay --analyze (burraco.review) ---------------------------------------------------------------


def _analyzed(capsys, path, *args: str) -> dict:
    """``burraco replay PATH --analyze --json ARGS``: the JSON it prints, read back."""
    assert cli.main(["replay", str(path), "--analyze", "--json", *args]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""  # no progress bar away from a terminal
    return json.loads(captured.out)


def test_replay_analyze_json_is_the_library_review(records_file, capsys):
    data = _analyzed(capsys, records_file, "--game", "1", "--iterations", "30", "--seed", "3")
    record = list(burraco.read_records(records_file))[1]
    review = burraco.review(record, iterations=30, seed=3)
    assert data == {"file": str(records_file), "record": 1, "rules": "italian-2p",
                    "moves": len(record["moves"]), "iterations": 30, "time_limit": None,
                    "seed": 3, **json.loads(json.dumps(review.to_json()))}
    assert len(data["decisions"]) > 20 and data["seats"] == [0, 1]


def test_replay_analyze_table_biggest_loss_first(records_file, capsys):
    assert cli.main(["replay", str(records_file), "--game", "2", "--analyze", "--seat", "1",
                     "--iterations", "30", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    record = list(burraco.read_records(records_file))[2]
    review = burraco.review(record, seat=1, iterations=30, seed=4)
    header = " ".join(out.split("\n\n")[0].split())
    assert header.endswith(f", {len(record['moves'])} moves; seat 1; 30 iterations a decision, "
                           "seed 4."), header
    rows = [line.split() for line in out.splitlines() if re.match(r"\d+ +1 +", line)]
    assert [int(row[0]) for row in rows] == [d.number for d in review.by_loss()]
    totals = out.splitlines()[-1].split()
    assert totals == ["1", str(len(review.decisions)), str(review.forced[1]),
                      str(sum(d.loss is None for d in review.decisions)),
                      f"{review.total_loss(1):.3f}"]


def test_replay_analyze_six_players_three_decks(tmp_path, capsys):
    path = tmp_path / "six.jsonl"
    assert cli.main(["selfplay", "--preset", "brazilian", "--players", "6", "--games", "1",
                     "--seed", "2", "--quiet", "--out", str(path)]) == 0
    capsys.readouterr()
    data = _analyzed(capsys, path, "--seat", "5", "--iterations", "8")
    assert data["seats"] == [5] and len(data["forced"]) == 6 and data["decisions"]
    assert {row["seat"] for row in data["decisions"]} == {5}
    assert burraco.Game.from_record(next(burraco.read_records(path))).rules.decks == 3


def test_replay_analyze_a_record_of_play(tmp_path, capsys):
    path = tmp_path / "played.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "burraco", "play", "--preset", "italian-2p", "--seed", "4",
         "--seat", "1", "--bots", "greedy", "--out", str(path)],
        input="draw\nquit\n", capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    record = next(burraco.read_records(path))
    assert record["result"] is None and record["moves"][-1] == "draw"
    data = _analyzed(capsys, path, "--iterations", "20")
    assert data["moves"] == len(record["moves"])
    assert data["decisions"][-1]["seat"] == 1 and data["decisions"][-1]["played"] == "draw"


@pytest.mark.parametrize("args, quoted", [
    (["--iterations", "5"], "--iterations needs --analyze"),
    (["--seat", "0"], "--seat needs --analyze"),
    (["--json"], "--json needs --analyze"),
    (["--analyze", "--seat", "2"], "seat 2"),
    (["--analyze", "--iterations", "0"], "iterations 0"),
    (["--analyze", "--engine", "reference"], "--engine reference"),
    (["--analyze", "--list"], "--list does not go with --analyze"),
])
def test_replay_analyze_bad_options(records_file, capsys, args, quoted):
    _refused(capsys, ["replay", str(records_file), *args], quoted, status=2)


@pytest.mark.parametrize("args, quoted", [
    (["--time-limit", "-1"], "'-1': expected seconds > 0"),
    (["--time-limit", "nan"], "'nan'"),
    (["--time-limit", "1", "--iterations", "3"], "not allowed with argument"),
    (["--seed", "-2"], "'-2'"),
    (["--iterations", "many"], "'many'"),
])
def test_replay_analyze_bad_command_lines(records_file, capsys, args, quoted):
    with pytest.raises(SystemExit) as excinfo:
        cli.main(["replay", str(records_file), "--analyze", *args])
    assert excinfo.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("burraco replay: error: ") and quoted in lines[0]


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


def _terminal_env(**extra: str) -> dict[str, str]:
    """The environment of a person's terminal: an xterm, colour not turned off."""
    env = {name: value for name, value in os.environ.items() if name != "NO_COLOR"}
    env.update(TERM="xterm", **extra)
    return env


def _default_signals() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


def _spawn(*args: str, dimensions: tuple[int, int] = (40, 140),
           env: dict[str, str] | None = None) -> pexpect.spawn:
    """``python -m burraco ARGS`` at a pseudo-terminal of ``dimensions`` (rows, columns), started
    as a shell starts a foreground job: with Ctrl-C's SIGINT (and SIGQUIT) at their default, even
    when the tests run where they are ignored (a background job of a script ignores both, and its
    children inherit that; a Ctrl-C typed at the terminal would then do nothing)."""
    child = pexpect.spawn(sys.executable, ["-m", "burraco", *args], cwd=str(ROOT),
                          encoding="utf-8", timeout=60, dimensions=dimensions,
                          env=env if env is not None else _terminal_env(),
                          preexec_fn=_default_signals)
    child.logfile_read = io.StringIO()  # the whole transcript, for checks at the end
    return child


def _spawn_play(seed: int, *extra: str, dimensions: tuple[int, int] = (40, 140)) -> pexpect.spawn:
    return _spawn("play", "--preset", "italian-2p", "--seed", str(seed), "--hands", "1",
                  "--no-color", *extra, dimensions=dimensions)


def _transcript(child: pexpect.spawn) -> str:
    """Everything the child printed, lines ended by newlines only."""
    return child.logfile_read.getvalue().replace("\r\n", "\n")


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


def test_a_terminal_session_plays_a_whole_hand(tmp_path):
    out = tmp_path / "played.jsonl"
    child = _spawn_play(11, "--out", str(out))
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
    totals = [int(child.match.group(1)), int(child.match.group(2))]
    child.expect(r"Stopped after 1 hand\.")
    child.expect(rf"wrote 1 record to {re.escape(str(out))}")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    # One line says that the hand is over; the board's pile is in pile order.
    text = _transcript(child)
    assert len(re.findall(r"hand over|hand is over", text, re.IGNORECASE)) == 1
    # The record of the hand replays, on both engines, to the result the session showed.
    (record,) = burraco.read_records(out)
    assert record["seed"] == burraco.Match(burraco.Rules("italian-2p"), seed=11).new_game().seed
    for engine_name in ENGINES:
        game = load_engine(engine_name).Game.from_record(record)
        assert game.is_over()
        assert [side.total for side in game.result().sides] == totals
    order = " ".join(str(card) for card in _board.pile_order(game)[0])
    final = text[text.rindex("(final) =="):]
    assert re.sub(r"\n    ", " ", final).count(f"bottom to top): {order} (top)") == 1
    done = run("replay", str(out), "--all")
    assert done.returncode == 0
    for side, total in enumerate(totals):
        assert re.search(rf"^side {side} \(seat {side}\)(\s+-?\d+){{6}}\s+{total}$", done.stdout,
                         re.MULTILINE)


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


def test_up_arrow_recalls_the_last_command_and_tab_completes():
    child = _spawn_play(7)
    child.expect(PROMPT)
    child.sendline("moves")
    child.expect(r"2 legal moves:")
    child.expect(PROMPT)
    child.send("\x1b[A")  # Up: the last command again, not the escape sequence
    child.send("\r")
    child.expect([r"2 legal moves:", r"Not played"])
    assert child.match.group(0) == "2 legal moves:"
    child.expect(PROMPT)
    child.send("dr\t\r")  # Tab completes a legal move
    child.expect(r"You played: (\S+?);")
    assert child.match.group(1) == "draw"
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Not played" not in _transcript(child)


def test_the_header_and_the_board_fit_in_80_columns():
    child = _spawn_play(7, dimensions=(24, 80))
    child.expect(PROMPT)
    child.sendline("moves")
    child.expect(PROMPT)
    child.sendline("draw")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    lines = _transcript(child).splitlines()
    assert lines[0].startswith("burraco play: Rules('italian-2p'), match seed 7")
    assert any(line.startswith("== italian-2p, hand 1 ==") for line in lines)
    assert max(len(line) for line in lines) <= 80
    assert "Discard pile (1, bottom to top): " in "\n".join(lines)


def test_a_piped_session_shows_the_pozzetto_as_new_cards(tmp_path):
    """A person who always plays move 1 empties their hand and takes a pozzetto face down: at their
    next turn it joins the hand, announced, and the board lists its cards as new."""
    out = tmp_path / "hand.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "burraco", "play", "--preset", "italian-2p", "--seed", "12",
         "--hands", "1", "--out", str(out)],
        input="1\n" * 3000, capture_output=True, text=True, timeout=120, check=False, cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout  # piped: plain text
    lines = done.stdout.splitlines()
    joined = [i for i, line in enumerate(lines) if line.startswith("Your pozzetto joined")]
    assert len(joined) == 1, done.stdout[-3000:]
    announced = re.fullmatch(r"Your pozzetto joined your hand: (\d+) cards\.", lines[joined[0]])
    assert announced
    board = lines[joined[0] + 1:lines.index("Turn: seat 0 (you), draw phase", joined[0])]
    (new,) = [line for line in board if line.startswith("  new in your hand: ")]
    (record,) = burraco.read_records(out)
    game = burraco.Game.from_record(record)
    (packet,) = [index for index, (status, owner, _) in enumerate(game.pozzetti) if owner == 0]
    dealt = burraco.Game(game.rules, seed=record["seed"]).pozzetti[packet][2]
    assert new == f"  new in your hand: {dealt}" and int(announced.group(1)) == len(dealt)
    assert len(re.findall(r"hand over|hand is over", done.stdout, re.IGNORECASE)) == 1


def test_play_out_to_an_unwritable_path():
    _one_line_error(run("play", "--out", "/nonexistent-dir/x.jsonl"), "/nonexistent-dir/x.jsonl")


# ---- replay, step by step ---------------------------------------------------------------------------

REPLAY_PROMPT = r"replay \[(\d+)/(\d+)\]> "


def test_replay_steps_at_a_terminal(records_file):
    record = list(burraco.read_records(records_file))[1]
    moves, total = record["moves"], len(record["moves"])
    child = _spawn("replay", str(records_file), "--game", "1", "--no-color")
    child.expect(r"== record 1: the start =")
    assert " ".join(child.before.split()) == (  # the header, wrapped to 80 columns
        f"burraco replay: {records_file}: record 1, Rules('italian-2p'), seed {record['seed']}, "
        f"{total} moves.")
    child.expect(REPLAY_PROMPT)
    assert child.match.groups() == ("0", str(total))
    assert "Stock:" in child.before and "== move" not in child.before
    for number in (1, 2):
        child.sendline("")
        child.expect(rf"== move {number}: seat \d {re.escape(moves[number - 1])} =")
        child.expect(REPLAY_PROMPT)
        assert child.match.group(1) == str(number)
    for number in (10, 3):  # forward and back
        child.sendline(str(number))
        child.expect(rf"== move {number}: seat \d {re.escape(moves[number - 1])} =")
        child.expect(REPLAY_PROMPT)
        assert child.match.group(1) == str(number)
    child.sendline("nonsense")
    child.expect(r"Not understood: 'nonsense'")
    child.expect(REPLAY_PROMPT)
    child.sendline("q")
    child.expect(rf"Stopped at move 3 of {total}\.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert _transcript(child).count("Stock:") == 5


def test_replay_from_a_move_to_the_end(records_file):
    record = list(burraco.read_records(records_file))[2]
    total = len(record["moves"])
    child = _spawn("replay", str(records_file), "--game", "2", "--move", str(total - 3),
                   "--no-color")
    child.expect(rf"== move {total - 3}: seat ")
    child.expect(REPLAY_PROMPT)
    assert child.match.group(1) == str(total - 3)
    child.sendline("")
    child.expect(rf"== move {total - 2}: ")
    child.expect(REPLAY_PROMPT)
    child.sendline("a")  # the rest at once
    child.expect(rf"== move {total}: ")
    child.expect(r"Hand over: ")
    child.expect(r"side 1 \(seat 1\)(\s+-?\d+){7}")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = _transcript(child)
    assert text.count("Stock:") == 4 and text.count("replay [") == 2


def test_replay_reads_its_answers_from_a_pipe(records_file):
    def replay(answers: str, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "burraco", "replay", str(records_file), *args],
            input=answers, capture_output=True, text=True, timeout=120, check=False, cwd=ROOT,
        )
        assert done.returncode == 0 and done.stderr == "", done.stderr
        return done.stdout

    total = len(next(burraco.read_records(records_file))["moves"])
    out = replay("\n\nq\n", "--move", "5")
    assert re.findall(r"^== move (\d+):", out, re.MULTILINE) == ["5", "6", "7"]
    assert f"Stopped at move 7 of {total}." in out
    out = replay("", "--move", "5")  # end of input: stops where it is
    assert re.findall(r"^== move (\d+):", out, re.MULTILINE) == ["5"]
    assert f"Stopped at move 5 of {total}." in out
    out = replay("", "--all")  # no answers read
    assert out.count("Stock:") == total + 1 and "replay [" not in out and "Hand over:" in out


def test_replay_move_out_of_range(records_file):
    total = len(next(burraco.read_records(records_file))["moves"])
    _one_line_error(run("replay", str(records_file), "--move", str(total + 1)),
                    f"--move {total + 1}", f"0 to {total}")


def test_colour_on_a_terminal_and_plain_text_otherwise(records_file):
    red = re.compile(r"\x1b\[31m[A2-9TJQK][hd]\x1b\[0m")

    def board_at_a_terminal(*extra: str, env: dict[str, str] | None = None) -> str:
        child = _spawn("replay", str(records_file), "--move", "30", *extra, env=env)
        child.expect(r"Enter: the next move")  # the table is above the help
        board = child.before
        child.expect(REPLAY_PROMPT)
        child.sendline("q")
        child.expect(pexpect.EOF)
        return board

    coloured = board_at_a_terminal()
    assert red.search(coloured) and "\x1b[1m== move 30: " in coloured
    plain = re.sub(r"\x1b\[[0-9;]*m", "", coloured)
    for text in (board_at_a_terminal("--no-color"),
                 board_at_a_terminal(env=_terminal_env(NO_COLOR="1"))):
        assert "\x1b" not in text
        assert text == plain
    piped = run("replay", str(records_file), "--move", "30", "--all").stdout
    assert "\x1b" not in piped and piped.startswith(plain.replace("\r\n", "\n"))


# ---- bench and version ----------------------------------------------------------------------------


def _bench_table():
    spec = importlib.util.spec_from_file_location("bench_table", ROOT / "tools" / "bench_table.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_a_time_below_the_measurement_floor_is_a_bound_not_a_negative_time():
    bench = _bench_table()
    # One cold call of copy + legal_moves can come out faster than one of the copy alone.
    figure = bench.Figure(seconds=10e-6, baseline=16.7e-6, items=1, unit="call",
                          samples=[10e-6], floor=bench.measurement_floor([10e-6], [16.7e-6]))
    assert figure.below_floor and figure.per_item == pytest.approx(16.7e-6)
    assert bench.fmt_per_item(figure) == "< 16.7 us"
    assert figure.as_json()["seconds_per_item"] > 0 and figure.as_json()["below_floor"]
    # Repeats that agree: a difference above their spread is measured.
    floor = bench.measurement_floor([3.0e-6, 3.1e-6, 3.05e-6], [1.0e-6, 1.02e-6, 1.01e-6])
    assert floor == pytest.approx(0.06e-6)
    measured = bench.Figure(seconds=3.05e-6, baseline=1.01e-6, items=1, floor=floor)
    assert not measured.below_floor and bench.fmt_per_item(measured) == "2.04 us"
    close = bench.Figure(seconds=1.05e-6, baseline=1.01e-6, items=1, floor=floor)
    assert close.below_floor and bench.fmt_per_item(close) == "< 0.06 us"


@pytest.mark.slow  # ten seconds of every bench row in smoke mode; CI's slow step runs it
def test_bench_smoke_prints_no_negative_time():
    done = run("bench", "--smoke", "--quiet")
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if re.search(r"\d (us|ms|s)\b", line)]
    assert len(rows) > 20
    assert len([line for line in rows if line.startswith("legal_moves(), ")]) == 3
    for line in rows:
        assert not re.search(r"(?<![\w-])-\d", line), line


def test_version():
    done = run("--version")
    assert done.returncode == 0
    assert done.stdout == f"burraco {importlib.metadata.version('burraco')}\n"


# ---- docs/cli.md ------------------------------------------------------------------------------------


def _same_lines(expected: list[str], got: list[str]) -> None:
    """``got`` has the ``expected`` lines in order; ``...`` skips lines, and the rate of a
    ``hands per second`` row (the machine's) is not compared."""
    position = 0
    skipping = False
    for want in expected:
        if want == "...":
            skipping = True
            continue
        while True:
            assert position < len(got), f"missing {want!r}"
            line = got[position].rstrip()
            position += 1
            if want.startswith("hands per second"):
                same = line.startswith("hands per second")
            else:
                same = line == want.rstrip()
            if same:
                break
            assert skipping, f"expected {want!r}, got {line!r}"
        skipping = False


def test_the_examples_of_docs_cli_md_are_the_real_output(tmp_path):
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    blocks = [body for info, body in
              re.findall(r"^```(\w*)\n(.*?)^```$", text, re.MULTILINE | re.DOTALL) if not info]
    board = next(block for block in blocks if block.startswith("Stock: "))
    assert board.splitlines() == _board.draw(
        burraco.Game(burraco.Rules("italian-2p"), seed=7)).splitlines()
    sessions = [block for block in blocks if block.startswith("$ ")]
    assert len(sessions) == 4
    made = run("selfplay", "--preset", "italian-2p", "--games", "3", "--seed", "9", "--policies",
               "greedy,random", "--out", str(tmp_path / "games.jsonl"))  # the replay's example
    assert made.returncode == 0
    for block in sessions:
        command, *expected = block.splitlines()
        shell = command[2:].replace("burraco ", f"{sys.executable} -m burraco ")
        done = subprocess.run(shell, shell=True, cwd=tmp_path, capture_output=True, text=True,
                              timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        _same_lines(expected, done.stdout.splitlines())


def test_play_against_an_ismcts_bot():
    """--bots takes a search spec: the bot (seat 0 here, first to act) plays its turn by ISMCTS,
    then the human at seat 1 draws and leaves."""
    done = subprocess.run(
        [sys.executable, "-m", "burraco", "play", "--preset", "italian-2p", "--seed", "4",
         "--seat", "1", "--bots", "ismcts:40"],
        input="draw\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert "seat 0 (ismcts:40 bot) played:" in done.stdout
    assert "You played: draw" in done.stdout and "Leaving the match (quit)" in done.stdout


def test_play_refuses_a_bad_ismcts_spec():
    status = cli.main(["play", "--preset", "italian-2p", "--bots", "ismcts:40:depth=2"])
    assert status == 2


# ---- hostile command lines: one line on stderr, a non-zero status, nothing half done ---------------


def _refused(capsys, argv: list[str], *quoted: str, status: int | None = None) -> str:
    """``burraco ARGV`` in this process: a non-zero status and one error line quoting ``quoted``."""
    done = cli.main(argv)
    captured = capsys.readouterr()
    assert done != 0 and (status is None or done == status), (done, captured.err)
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"burraco {argv[0]}: error: "), captured.err
    for text in quoted:
        assert text in lines[0], (text, lines[0])
    return lines[0]


@pytest.fixture
def unwritable_folder(tmp_path):
    """A folder this process may not create files in (root ignores modes: then sysfs's root,
    where no one may create a file)."""
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    candidates = [folder, Path("/sys")]
    for candidate in candidates:
        try:
            (candidate / "probe").touch()
        except OSError:
            yield candidate
            break
        (candidate / "probe").unlink()
    else:
        pytest.fail("no folder here refuses to be written to")
    folder.chmod(0o700)


def test_selfplay_out_on_a_full_disk_is_one_line(capsys):
    _refused(capsys, ["selfplay", "--preset", "italian-2p", "--games", "3", "--seed", "1",
                      "--out", "/dev/full", "--quiet"], "--out '/dev/full': No space left on device",
             status=1)


def test_arena_out_on_a_full_disk_is_one_line(capsys):
    _refused(capsys, ["arena", "--preset", "italian-2p", "--bots", "random,greedy", "--pairs", "1",
                      "--seed", "1", "--out", "/dev/full", "--quiet"],
             "--out '/dev/full': No space left on device")


def test_out_in_a_folder_that_cannot_be_written_is_one_line(capsys, tmp_path, unwritable_folder):
    out = str(unwritable_folder / "x.jsonl")
    _refused(capsys, ["selfplay", "--preset", "italian-2p", "--games", "1", "--out", out,
                      "--quiet"], f"--out {out!r}: Permission denied")
    missing = str(tmp_path / "no-folder" / "x.jsonl")
    _refused(capsys, ["selfplay", "--preset", "italian-2p", "--games", "1", "--out", missing,
                      "--quiet"], f"--out {missing!r}: No such file or directory")


def test_replay_says_what_is_wrong_with_the_file(capsys, tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    blank = tmp_path / "blank.jsonl"
    blank.write_text("\n\n", encoding="utf-8")
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage\n")
    for path, what in (("/dev/null", "empty, not a records file"),
                       (str(empty), "empty, not a records file"),
                       (str(blank), "empty, not a records file"),
                       (str(tmp_path), "is a folder, not a records file"),
                       (str(binary), "not a records file (not UTF-8 text: invalid start byte at "
                                     "byte 0)"),
                       (str(tmp_path / "none.jsonl"), "no such file")):
        for extra in ([], ["--list"]):
            _refused(capsys, ["replay", path, *extra], f"{path!r}: {what}", status=1)


def test_perft_says_what_is_wrong_with_the_file(capsys, tmp_path):
    binary = tmp_path / "binary.perft"
    binary.write_bytes(b"\xff\xfe\n")
    for path, what in (("/dev/null", "not a perft file (no position in it)"),
                       (str(tmp_path), "is a folder, not a perft file"),
                       (str(binary), "not a perft file (not UTF-8 text")):
        _refused(capsys, ["perft", path], f"{path!r}: {what}")
    perft_file = str(ROOT / "tests" / "data" / "perft" / "italian-2p.perft")
    _refused(capsys, ["perft", perft_file, "--id", "no-such-id"],
             "--id 'no-such-id': no position of", "has that id")


@pytest.mark.parametrize("argv, quoted", [
    (["selfplay", "--games", str(10**23)], f"--games {10**23}: expected 0 to 1,000,000,000"),
    (["selfplay", "--games", "1000000001"], "--games 1000000001: expected 0 to 1,000,000,000"),
    (["perft", "--depth", str(10**20)], f"--depth {10**20}: expected 0 to 64"),
    (["perft", "--depth", "65"], "--depth 65: expected 0 to 64"),
    (["arena", "--bots", "random,greedy", "--pairs", str(10**14)],
     f"--pairs {10**14}: expected 1 to 10,000,000"),
    (["selfplay", "--games", "1", "--policy", "\udcff\udcfe"], "unknown bot '\\udcff\\udcfe'"),
    (["selfplay", "--games", "1", "--preset", "\udcff"], "'\\udcff' is not valid text"),
    (["replay", "/tmp/\udcffnone.jsonl"], "'/tmp/\\udcffnone.jsonl': no such file"),
    (["selfplay", "--games", "1", "--policy", "ismcts:10:c=nan"], "exploration nan"),
])
def test_hostile_arguments_are_refused_at_once(capsys, argv, quoted):
    # A count far beyond what a run takes used to start a run that never ends (a perft depth
    # beyond the engines' 64 failed only after counting every depth below it).
    _refused(capsys, [*argv, "--quiet"] if argv[0] == "selfplay" else argv, quoted)


def test_arena_plot_goes_to_the_path_asked_for(capsys, tmp_path):
    # Without a suffix matplotlib wrote path + '.png' while the command said it wrote the path.
    plot = tmp_path / "plot"
    argv = ["arena", "--preset", "italian-2p", "--bots", "random,greedy", "--pairs", "1",
            "--seed", "1", "--quiet", "--plot"]
    assert cli.main([*argv, str(plot)]) == 0
    assert f"wrote the plot to {plot}" in capsys.readouterr().out
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and sorted(tmp_path.iterdir()) == [plot]
    _refused(capsys, [*argv, "/dev/full"], "--plot /dev/full:", "No space left on device")
    _refused(capsys, [*argv, str(tmp_path / "plot.nope")], "the suffix 'nope' is not an image "
                                                            "format matplotlib writes")
    assert not Path("/dev/full.png").exists()
