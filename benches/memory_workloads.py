"""The memory row of tools/bench_table.py: peak RSS growth over many playouts after a warm-up,
measured in a process of its own (``bench_table.py --rss-child ENGINE``) so that nothing the table
measured before counts."""

from __future__ import annotations

import resource
from typing import Any

import search_workloads as W

RSS_HANDS = {"full": (20_000, 20, 200), "smoke": (200, 2, 4)}  # playout() hands, batches, gin hands
RSS_BATCH_HANDS = 1_000  # hands per burraco.playouts call in the memory row (smoke: 100)


def _peak_kib() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


def rss_child(engine: str, mode: str) -> dict[str, Any]:
    """Peak RSS growth over many playouts after a warm-up (runs in its own process)."""
    hands, batches, gin_hands = RSS_HANDS[mode]
    if engine == "open_spiel":
        pyspiel = W.load("open_spiel")
        game = pyspiel.load_game("gin_rummy")
        bots = [pyspiel.make_uniform_random_bot(p, p) for p in (0, 1)]

        def play(count: int, first: int) -> None:
            for seed in range(first, first + count):
                state = game.new_initial_state()
                pyspiel.evaluate_bots(state, bots, seed)
                assert state.is_terminal()

        warm = max(1, gin_hands // 10)
        play(warm, 0)
        before = _peak_kib()
        play(gin_hands, warm)
        return {
            "hands": gin_hands,
            "what": "evaluate_bots",
            "before_kib": before,
            "growth_kib": _peak_kib() - before,
        }
    core = W.load("core")
    rules = W.make_rules(core, "italian")
    batch_hands = RSS_BATCH_HANDS if mode == "full" else 100
    has_batch = hasattr(core, "playouts")

    def play(count: int, first: int, calls: int) -> int:
        moves = 0
        for seed in range(first, first + count):
            moves += core.Game(rules, seed=seed).playout("random", seed)
        for call in range(calls if has_batch else 0):
            result = core.playouts(rules, batch_hands, seed=first + call, threads=1)
            assert len(result["moves"]) == batch_hands
            moves += int(result["moves"].sum())
        return moves

    play(max(1, hands // 10), 0, 1)  # warm-up
    before = _peak_kib()
    moves = play(hands, 10**6, batches)
    assert moves > hands
    total = hands + (batches * batch_hands if has_batch else 0)
    what = f"{hands:,} Game.playout" + (
        f" + {batches} x playouts({batch_hands:,})" if has_batch else " (playouts missing)"
    )
    return {"hands": total, "what": what, "before_kib": before, "growth_kib": _peak_kib() - before}
