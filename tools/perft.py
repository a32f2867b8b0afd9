#!/usr/bin/env python3
"""Perft runner: check the frozen move counts of a perft file on one engine, with a divide.

    python tools/perft.py FILE [FILE ...] [--engine core|reference] [--divide]
                          [--max-nodes N] [--id ID]
    python tools/perft.py --build DIR [--rules RULES_ID ...]

A perft file (docs/contributing.md "Tests"; docs/architecture.md §7) holds positions, each a record of lines::

    id italian-dealt
    state v=1;rules=italian;seed=1;...        (a version-1 state string, docs/game.md)
    perft 1 2
    perft 2 55

``perft d n``: the number of legal move sequences of ``d`` moves from the position, a finished
hand being a leaf whatever depth is left (``burraco.reference.perft``). Blank lines separate
records; ``#`` starts a comment line. The counts are produced by the reference engine and frozen.

The file format, the checking and the divide live in the package (``burraco._perft_tool``, also
behind ``burraco perft FILE ...``); this script adds the building, which needs the test helpers of
a source checkout (``tests/playouts.py``).

Checking: every count of every position is computed on the chosen engine (default ``core``);
``--max-nodes N`` checks only the counts of at most N nodes (the reference is slow). A mismatch
prints a divide of BOTH engines at that depth: every root move with its node count below it in
each engine (``-`` where an engine does not list the move), the first row that differs marked
``<--``; deeper counts of that position are then skipped. ``--divide`` prints that table for the
deepest checked count of every position even when it matches. Exit status 1 on any mismatch.

Building (``--build DIR``): writes ``DIR/<rules id>.perft`` for each rule set of
``tests/playouts.py``: positions found by playing seeded hands (just dealt; a hand of 30+ cards
right after a pile take; a hand one card from the pozzetto; a position where a move closes the
hand; brazilian: a side whose opening is still provisional), depths chosen from the core's counts
so that the reference can count them, counts from the reference.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from burraco._perft_tool import (  # noqa: F401  (the names tests and scripts use from here)
    ENGINES,
    Check,
    PerftFileError,
    Position,
    check_files,
    check_position,
    count,
    divide,
    divide_table,
    format_positions,
    load_engine,
    parse,
    parse_file,
)


def main_check(args) -> int:
    return check_files(args.files, args.engine, ids=args.id, max_nodes=args.max_nodes,
                       show_divide=args.divide, out=sys.stdout)


# ---- building the files -------------------------------------------------------------------------

# Depth limits for building: the deepest depth whose count stays within LEAVES for the core and
# whose interior (the count one level up, about the reference's legal_moves calls) within INTERIOR.
LEAVES = 400_000
INTERIOR = 40_000
MAX_DEPTH = 12


def _find(core, reference, rules_id: str, policy: str, wanted, seeds=range(400), take_at=20):
    """The first state (as a state string) of a seeded hand, played on the core with a policy
    (``'hoard'`` or one of tests/playouts.py), for which ``wanted(game)`` holds, and that both
    engines write alike."""
    import playouts

    for seed in seeds:
        game = core.Game(playouts.make_rules(core, rules_id), seed=seed)
        rng = playouts.policy_rng(policy, rules_id, seed)
        while not game.is_over():
            if wanted(game):
                state = game.state_string()
                if reference.Game.from_state_string(state).state_string() == state:
                    return seed, state
            moves = [str(m) for m in game.legal_moves()]
            if policy == "hoard":
                index = _hoard(rng, moves, len(game.discard_pile), take_at)
            else:
                index = playouts.PICK[policy](rng, moves)
            game.push(moves[index])
    raise SystemExit(f"{rules_id}: no position found for {wanted.__doc__}")


def _hoard(rng, moves: list[str], pile_size: int, take_at: int = 20) -> int:
    """Draw and discard without melding until the pile holds ``take_at`` (20) or more cards, then
    take it."""
    if "pile" in moves and pile_size >= take_at:
        return moves.index("pile")
    for kind in ("draw", "keep"):
        if kind in moves:
            return moves.index(kind)
    discards = [i for i, m in enumerate(moves) if m.startswith("discard")]
    return rng.choice(discards or range(len(moves)))


def _say(function) -> str:
    return " ".join(function.__doc__.split())


def _positions(core, reference, rules_id: str) -> list[tuple[str, str, int]]:
    """(id, comment, state) for each position of one rule set."""
    import playouts

    found = []
    rules = playouts.make_rules(core, rules_id)
    found.append((f"{rules_id}-dealt", "just dealt (seed 1), first player to draw",
                  core.Game(rules, seed=1).state_string()))

    def big_hand(game):
        """a hand of 30+ cards right after a pile take"""
        return (game.phase == "meld" and game.moves and str(game.moves[-1]) == "pile"
                and len(game.hand(game.turn)) >= 30)

    def bigger_hand(game):
        """a hand of 40+ cards right after a pile take"""
        return (game.phase == "meld" and game.moves and str(game.moves[-1]) == "pile"
                and len(game.hand(game.turn)) >= 40)

    six = rules.players == 6
    # Six players (RULES F.7): the pile grows faster; a hand of about 40 cards after a pile take
    # of 30+, then only a position where a side can close (no one-card or opening position).
    wanted = bigger_hand if six else big_hand
    seed, state = _find(core, reference, rules_id, "hoard", wanted, take_at=30 if six else 20)
    found.append((f"{rules_id}-pile-take", f"seed {seed}: {_say(wanted)}", state))
    if six:
        seed, state = _find(core, reference, rules_id, "meld", _closing)
        found.append((f"{rules_id}-closing", f"seed {seed}: {_say(_closing)}", state))
        return found

    def one_card(game):
        """meld phase, one card in hand that can be laid off (pozzetto on the fly) or discarded
        (pozzetto face down)"""
        if game.phase != "meld" or len(game.hand(game.turn)) != 1:
            return False
        kinds = {move.kind for move in game.legal_moves()}
        if not {"add", "discard"} <= kinds:
            return False
        statuses = [status for status, _, _ in game.pozzetti]
        side = game.side_of(game.turn)
        taken = [owner for status, owner, _ in game.pozzetti if status != "untaken"
                 and owner is not None and game.side_of(owner) == side]
        return "untaken" in statuses and not taken

    seed, state = _find(core, reference, rules_id, "meld", one_card)
    found.append((f"{rules_id}-one-card", f"seed {seed}: {_say(one_card)}", state))

    seed, state = _find(core, reference, rules_id, "meld", _closing)
    found.append((f"{rules_id}-closing", f"seed {seed}: {_say(_closing)}", state))

    if rules.opening_minimum is not None:
        def provisional(game):
            """meld phase, the side not open yet with cards down this turn, 3+ cards in hand"""
            if game.phase != "meld" or len(game.hand(game.turn)) < 3:
                return False
            fields = playouts.state_fields(game.state_string())
            side = game.side_of(game.turn)
            return fields["opened"].split(",")[side] == "0" and len(game.melds(side)) > 0

        seed, state = _find(core, reference, rules_id, "meld", provisional)
        found.append((f"{rules_id}-opening", f"seed {seed}: {_say(provisional)}", state))
    return found


def _closes_within(game, moves: int) -> bool:
    """Whether the seat to act can close the hand within ``moves`` moves of its meld phase
    (tests/test_perft.py checks the frozen closing positions with it)."""
    for move in game.legal_moves():
        game.push(move)
        closed = game.end_reason == "closed" or (
            moves > 1 and game.phase == "meld" and _closes_within(game, moves - 1))
        game.pop()
        if closed:
            return True
    return False


def _closing(game):
    """meld phase, 2 to 6 cards in hand, the hand can be closed within two moves"""
    return (game.phase == "meld" and 2 <= len(game.hand(game.turn)) <= 6
            and _closes_within(game, 2))


def _depth_for(core, state: str) -> int:
    game = core.Game.from_state_string(state)
    depth = 1
    while depth < MAX_DEPTH:
        if core.perft(game, depth) > INTERIOR or core.perft(game, depth + 1) > LEAVES:
            break
        depth += 1
    return depth


def main_build(args) -> int:
    here = Path(__file__).resolve().parent
    sys.path.insert(0, str(here.parent / "tests"))
    import playouts

    core, reference = load_engine("core"), load_engine("reference")
    out_dir = Path(args.build)
    out_dir.mkdir(parents=True, exist_ok=True)
    for rules_id in args.rules or playouts.RULES_IDS:
        positions = []
        for position_id, comment, state in _positions(core, reference, rules_id):
            depth = _depth_for(core, state)
            counts = []
            for d in range(1, depth + 1):
                start = time.perf_counter()
                nodes = count(reference, state, d)
                seconds = time.perf_counter() - start
                core_nodes = count(core, state, d)
                print(f"{position_id:<28} perft {d} {nodes:>10} (reference, {seconds:.1f}s; "
                      f"core {'agrees' if core_nodes == nodes else f'says {core_nodes}'})")
                counts.append((d, nodes))
            positions.append(Position(position_id, state, counts, [comment]))
        preset, knobs = playouts.RULES_BY_ID[rules_id]
        rules_text = f"Rules({preset!r}" + "".join(f", {k}={v!r}" for k, v in knobs.items()) + ")"
        header = [
            f"burraco perft positions for {rules_text} (format: tools/perft.py).",
            "Counts by the reference engine (burraco.reference.perft), frozen.",
            f"Built by: python tools/perft.py --build tests/data/perft --rules {rules_id}",
        ]
        path = out_dir / f"{rules_id}.perft"
        path.write_text(format_positions(positions, header), encoding="utf-8")
        print(f"wrote {path}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", help="perft files to check")
    parser.add_argument("--engine", choices=ENGINES, default="core")
    parser.add_argument("--divide", action="store_true",
                        help="print both engines' divide at the deepest checked depth")
    parser.add_argument("--max-nodes", type=int, default=None,
                        help="check only the counts of at most this many nodes")
    parser.add_argument("--id", action="append", help="check only this position (repeatable)")
    parser.add_argument("--build", metavar="DIR", help="(re)build the perft files into DIR")
    parser.add_argument("--rules", action="append", help="with --build: only this rule set id")
    args = parser.parse_args(argv)
    if args.build:
        return main_build(args)
    if not args.files:
        parser.error("give a perft file, or --build DIR")
    return main_check(args)


if __name__ == "__main__":
    sys.exit(main())
