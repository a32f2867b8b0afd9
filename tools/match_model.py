#!/usr/bin/env python3
"""The figures of the ISMCTS match-equity reward (docs/search.md "Search options"), measured.

    python tools/match_model.py                     # 20,000 heuristic hands per preset
    python tools/match_model.py --hands 2000 --policy greedy --presets italian-2p

Per preset (two sides: two or four players), plays ``--hands`` hands with one policy on every
seat (``burraco.playouts``, hand i dealt from batch seed i of ``--seed``, seat 0 first) and prints
``sigma``, the standard deviation of one hand's margin (side 0's total less side 1's), and
``points``, the mean total a side scores in a hand: the two numbers ``ISMCTS(reward='equity',
equity_sigma=..., equity_points=...)`` takes. Also the standard errors of both and the hands a
match to the preset's target would last at that pace (target / points, rounded up).
"""

from __future__ import annotations

import argparse
import math
import sys

import numpy as np

import burraco


def measure(preset: str, hands: int, seed: int, policy: str, threads: int) -> dict[str, float]:
    """sigma, points and their standard errors over ``hands`` self-play hands of ``preset``."""
    rules = burraco.Rules(preset)
    table = burraco.playouts(rules, hands, seed=seed, policy=policy, threads=threads)
    scores = table["scores"].astype(np.float64)
    margin = scores[:, 0] - scores[:, 1]
    per_hand = scores[:, :2].mean(axis=1)  # a side's points, both sides of a hand averaged
    sigma = float(margin.std(ddof=1))
    points = float(per_hand.mean())
    return {
        "sigma": sigma,
        "sigma_se": sigma / math.sqrt(2 * (hands - 1)),
        "points": points,
        "points_se": float(per_hand.std(ddof=1)) / math.sqrt(hands),
        "target": rules.match_target,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", default="heuristic")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--presets", default="italian-2p,italian,online-2p,brazilian")
    args = parser.parse_args(argv)
    if args.hands < 2:
        parser.error(f"--hands {args.hands}: expected at least 2")
    print(f"{args.hands:,} hands per preset, policy {args.policy}, seed {args.seed}")
    print("| preset | sigma (points) | points a side a hand | hands to the target |")
    print("|---|---|---|---|")
    for preset in args.presets.split(","):
        m = measure(preset.strip(), args.hands, args.seed, args.policy, args.threads)
        hands = math.ceil(m["target"] / m["points"]) if m["points"] > 0 else float("inf")
        print(f"| {preset} | {m['sigma']:.0f} ± {m['sigma_se']:.0f} | "
              f"{m['points']:.0f} ± {m['points_se']:.0f} | {hands} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
