#!/usr/bin/env python3
"""Who closes, and how fast each side gets there, in the arena's games of two bots.

    python tools/closing_races.py                        # heuristic against greedy, italian
    python tools/closing_races.py --bots ismcts:300,greedy --pairs 50 --preset italian-2p

Plays ``--pairs`` duplicate pairs of the two bots (``burraco.arena.duel``, the moves kept), replays
every game and prints, for the first bot's side and the other's (docs/bots.md "How strong each
bot is"):

* the games each side closed, and how many of them it won;
* the median turn of the table (a draw or a pile take by any seat) at which each side took its
  pozzetto and laid its first burraco (a side that never did counts the hand's last turn);
* of the games the second bot's side closed, those in which the first bot's side had already taken
  its pozzetto and laid a burraco, how many table turns before, and the cards then in its hands.

Two sides only (two or four players).
"""

from __future__ import annotations

import argparse
import statistics
import sys

import burraco
from burraco.arena import duel


def replay(rules: burraco.Rules, games: dict, i: int, side_a: int) -> dict:
    """The figures of game ``i`` of a duel, the first bot on side ``side_a``."""
    game = burraco.Game(rules, seed=int(games["hand_seed"][i]),
                        first_player=int(games["first_player"][i]))
    turns = 0
    pozzetto: dict[int, int] = {}
    burraco_at: dict[int, int] = {}
    for move in games["history"][i]:
        if move in ("draw", "pile"):
            turns += 1
        game.push(move)
        for status, owner, _cards in game.pozzetti:
            if owner is not None and status != "untaken":
                pozzetto.setdefault(game.side_of(owner), turns)
        for side in (0, 1):
            if side not in burraco_at and any(len(m.cards) >= 7 for m in game.melds(side)):
                burraco_at[side] = turns
    result = game.result()
    totals = {s.side: s.total for s in result.sides}
    if [totals[0], totals[1]] != [int(x) for x in games["scores"][i]]:
        raise SystemExit(f"game {i}: the replay scored {totals}, the arena {games['scores'][i]}")
    ready = max(pozzetto.get(side_a, turns + 1), burraco_at.get(side_a, turns + 1))
    return {
        "closer": None if result.closing_side is None else ("a" if result.closing_side == side_a else "b"),
        "a_won": totals[side_a] > totals[1 - side_a],
        "b_won": totals[1 - side_a] > totals[side_a],
        "pozzetto": (pozzetto.get(side_a, turns), pozzetto.get(1 - side_a, turns)),
        "burraco": (burraco_at.get(side_a, turns), burraco_at.get(1 - side_a, turns)),
        "a_ready_for": turns - ready if ready <= turns else None,
        "a_cards": [len(game.hand(q)) for q in range(game.players) if game.side_of(q) == side_a],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="italian")
    parser.add_argument("--bots", default="heuristic,greedy")
    parser.add_argument("--pairs", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    bots = args.bots.split(",")
    if len(bots) != 2:
        parser.error(f"--bots {args.bots!r}: expected two bots, A,B")
    rules = burraco.Rules(args.preset)
    if rules.players == 3:
        parser.error(f"--preset {args.preset}: two sides only (two or four players)")
    played = duel(rules, bots[0], bots[1], pairs=args.pairs, seed=args.seed, threads=args.threads,
                  keep_moves=True).games
    rows = [replay(rules, played, i, 0 if played["game"][i] == 0 else 1)
            for i in range(len(played["pair"]))]
    a, b = bots
    print(f"{args.preset}: {a} against {b}, {args.pairs} pairs (seed {args.seed}), {len(rows)} games")
    for who, name in (("a", a), ("b", b)):
        closed = [r for r in rows if r["closer"] == who]
        won = sum(r[f"{who}_won"] for r in closed)
        print(f"{name}'s side closed {len(closed)} games and won {won} of them")
    for key in ("pozzetto", "burraco"):
        print(f"median table turn of the first {key}: {a} {statistics.median(r[key][0] for r in rows)}, "
              f"{b} {statistics.median(r[key][1] for r in rows)}")
    late = [r for r in rows if r["closer"] == "b" and r["a_ready_for"] is not None]
    if late:
        cards = [statistics.mean(r["a_cards"]) for r in late]
        print(f"{b} closed {len(late)} games after {a}'s side could have (its pozzetto and a burraco "
              f"taken): a median of {statistics.median(r['a_ready_for'] for r in late)} table turns "
              f"before, {statistics.mean(cards):.1f} cards a hand of {a}'s side then; "
              f"{b} won {sum(r['b_won'] for r in late)} of them")
    return 0


if __name__ == "__main__":
    sys.exit(main())
