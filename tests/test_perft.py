"""Perft: move counts from fixed positions, frozen in ``tests/data/perft/`` (docs/architecture.md §7).

Each rule set of ``playouts.GAME_RULES`` has a file ``<rules id>.perft`` (format and runner:
``tools/perft.py``) with the positions the "game" issue asks for, as state strings found by
playing seeded hands: just dealt (``-dealt``), a hand of 30+ cards right after a pile take
(``-pile-take``), a hand one card from the pozzetto, that card fitting a meld (``-one-card``), a
position two moves from closing (``-closing``) and, brazilian, a side whose opening is still
provisional (``-opening``). The counts were produced by the reference engine (``python
tools/perft.py --build tests/data/perft``) and frozen.

* The core is checked on every count of every file (26 positions, 145 counts, about 3 million
  nodes in all; about a second), and the six-player tables' files (``brazilian-6p``, three sides
  of two, and ``brazilian-6p-2s``, two sides of three: just dealt, a hand of 40+ cards after a pile
  take, a side that can close; 6 positions, 31 counts, 544,991 nodes), built the same
  way (``--rules brazilian-6p --rules brazilian-6p-2s``).
* The reference is checked on the counts of at most ``REFERENCE_MAX_NODES`` nodes (the slow run:
  all of them), so that a change in the reference that moves a frozen count is caught too.
* On a mismatch the failure message holds the divide of both engines at that depth (every root
  move with its count in each engine, the first difference marked), from the runner itself.
"""

from __future__ import annotations

import importlib.util
import io
import sys
from pathlib import Path

import playouts
import pytest
from conftest import load_engine

ROOT = Path(__file__).resolve().parent.parent
PERFT_DIR = ROOT / "tests" / "data" / "perft"
REFERENCE_MAX_NODES = 5000
KINDS = ("dealt", "pile-take", "one-card", "closing")


def _load_tool():
    spec = importlib.util.spec_from_file_location("perft_tool", ROOT / "tools" / "perft.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


tool = _load_tool()
FILES = sorted(PERFT_DIR.glob("*.perft"))
POSITIONS = [position for path in FILES for position in tool.parse_file(path)]
IDS = [position.id for position in POSITIONS]
RULES_OF = {position.id: path.stem for path in FILES for position in tool.parse_file(path)}


def _check(engine_name: str, position, max_nodes=None) -> None:
    out = io.StringIO()
    checks = tool.check_position(load_engine(engine_name), position, max_nodes, out=out)
    done = [check for check in checks if check.got is not None]
    assert done, f"{position.id}: no count of at most {max_nodes} nodes to check"
    assert all(check.ok for check in done), f"{engine_name} perft mismatch:\n{out.getvalue()}"


@pytest.mark.parametrize("position", POSITIONS, ids=IDS)
def test_core_matches_every_frozen_count(position):
    _check("core", position)


@pytest.mark.parametrize("position", POSITIONS, ids=IDS)
def test_reference_matches_the_small_counts(position):
    _check("reference", position, REFERENCE_MAX_NODES)


@pytest.mark.slow
@pytest.mark.parametrize("position", POSITIONS, ids=IDS)
def test_reference_matches_every_frozen_count(position):
    _check("reference", position)


# ---- the files themselves -----------------------------------------------------------------------


# Six-player tables (RULES F.7) have three positions each: just dealt, a hand of 40+ cards right
# after a pile take, and a side that can close within two moves.
SIX_PLAYER_IDS = tuple(rules_id for rules_id, _, _ in playouts.SIX_PLAYER_RULES)
SIX_PLAYER_KINDS = ("dealt", "pile-take", "closing")


def test_every_rule_set_has_its_positions():
    assert sorted(path.stem for path in FILES) == sorted(playouts.RULES_IDS + SIX_PLAYER_IDS)
    for rules_id in playouts.RULES_IDS:
        ids = {position.id for position in tool.parse_file(PERFT_DIR / f"{rules_id}.perft")}
        for kind in KINDS:
            assert f"{rules_id}-{kind}" in ids
    for rules_id in SIX_PLAYER_IDS:
        ids = {position.id for position in tool.parse_file(PERFT_DIR / f"{rules_id}.perft")}
        assert ids == {f"{rules_id}-{kind}" for kind in SIX_PLAYER_KINDS}


@pytest.mark.parametrize("position", POSITIONS, ids=IDS)
def test_positions_are_what_their_ids_say(engine, position):
    """Each state is canonical on both engines, of its file's rule set, and of its kind."""
    game = engine.Game.from_state_string(position.state)
    assert game.state_string() == position.state
    assert game.rules == playouts.make_rules(engine, RULES_OF[position.id])
    assert position.id.startswith(RULES_OF[position.id] + "-")
    hand = len(game.hand(game.turn))
    kinds = {move.kind for move in game.legal_moves()}
    if position.id.endswith("-dealt"):
        assert game.phase == "draw" and hand == 11 and game.stock_size == game.rules.initial_stock
    elif position.id.endswith("-pile-take"):
        assert game.phase == "meld" and hand >= 30 and len(game.discard_pile) == 0
        if game.players == 6:
            assert hand >= 40
    elif position.id.endswith("-one-card"):
        assert game.phase == "meld" and hand == 1 and {"add", "discard"} <= kinds
        assert "untaken" in [status for status, _, _ in game.pozzetti]
    elif position.id.endswith("-closing"):
        assert game.phase == "meld" and 2 <= hand <= 6 and tool._closes_within(game, 2)
    elif position.id.endswith("-opening"):
        side = game.side_of(game.turn)
        opened = playouts.state_fields(position.state)["opened"].split(",")
        assert game.phase == "meld" and opened[side] == "0" and len(game.melds(side)) > 0
    else:
        raise AssertionError(f"unknown kind of position {position.id!r}")
    assert [depth for depth, _ in position.counts] == list(range(1, len(position.counts) + 1))


# ---- the runner ---------------------------------------------------------------------------------


def test_runner_prints_both_divides_on_a_mismatch(tmp_path, capsys):
    position = POSITIONS[0]
    depth, nodes = position.counts[1]
    wrong = tmp_path / "wrong.perft"
    wrong.write_text(
        f"# a wrong count\nid wrong\nstate {position.state}\nperft 1 {position.counts[0][1]}\n"
        f"perft {depth} {nodes + 1}\nperft {depth + 1} 1\n",
        encoding="utf-8",
    )
    assert tool.main([str(wrong)]) == 1
    out = capsys.readouterr().out
    assert f"MISMATCH (got {nodes})" in out
    assert f"divide at depth {depth}:" in out and "core" in out and "reference" in out
    assert "total" in out and "1 of 2 counts match, 1 MISMATCH" in out
    game = load_engine("core").Game.from_state_string(position.state)
    for move in game.legal_moves():
        assert str(move) in out


def test_runner_divide_flag_and_a_clean_run(capsys):
    path = PERFT_DIR / "italian.perft"
    assert tool.main([str(path), "--id", "italian-one-card", "--divide"]) == 0
    out = capsys.readouterr().out
    assert "divide at depth" in out and "MISMATCH" not in out


@pytest.mark.parametrize(
    "text",
    [
        "perft 1 2\n",  # before any id
        "id a\nstate v=1\n",  # no counts
        "id a\nperft 1 2\n",  # no state
        "id a\nstate v=1\nperft 2 5\nperft 1 2\n",  # depths not increasing
        "id a\nstate v=1\nperft one 2\n",
        "id a\nstate v=1\nperft 1 2\n\nid a\nstate v=1\nperft 1 2\n",  # repeated id
        "id a\nstate v=1\nnodes 1 2\n",
    ],
)
def test_malformed_perft_files_are_refused(text):
    with pytest.raises(tool.PerftFileError):
        tool.parse(text)
