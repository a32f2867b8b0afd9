"""The command names a missing optional dependency before it starts the work that needs it
(src/burraco/_extras.py): ``arena --plot`` without matplotlib is one error line quoting the
package and the extra, and no hand is played."""

from __future__ import annotations

import sys

import pytest

import burraco.arena
from burraco import cli

ARGV = ["arena", "--preset", "italian-2p", "--bots", "random,greedy", "--pairs", "1", "--seed", "1",
        "--quiet", "--plot"]


@pytest.fixture
def no_matplotlib(monkeypatch):
    # A None entry in sys.modules makes the import raise ImportError, as an absent package does.
    for name in [name for name in sys.modules if name.split(".")[0] == "matplotlib"]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)


def test_arena_plot_without_matplotlib_is_refused_before_playing(monkeypatch, capsys, tmp_path,
                                                                 no_matplotlib):
    def played(*args, **kwargs):
        raise AssertionError("the arena played before it found matplotlib missing")

    monkeypatch.setattr(burraco.arena, "tournament", played)
    plot = tmp_path / "plot.png"
    assert cli.main([*ARGV, str(plot)]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith(f"burraco arena: error: --plot {plot}: the plot needs the package "
                               "'matplotlib', the extra 'plot' (pip install 'burraco[plot]'): ")
    assert captured.out == "" and not plot.exists()

