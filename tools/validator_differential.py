#!/usr/bin/env python3
"""Differential of the two engines' whole-state validators over mutated state strings.

    python tools/validator_differential.py [--inputs N] [--seed S] [--out FILE]

Each input is a state string made by the core (tests/fuzzing.py ``engine_made``) under one of
every rule set of tests/playouts.py (the presets, three-deck and six-player tables), most of them
mutated by ``fuzzing.mutate_state``. Both engines parse it (``Game.from_state_string``): one must
not accept what the other refuses, and when both accept, they must write the same state string
back and list the same legal moves. Far cheaper than the deep checks of
tests/test_fuzz_states.py (no playouts), so it can look at tens of thousands of inputs; every
disagreement is printed (and appended to ``--out`` as JSON lines) with both engines' answers.
Exit status 1 if any was found.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import fuzzing  # noqa: E402
from playouts import RULES_BY_ID  # noqa: E402

ALL_RULES = tuple(RULES_BY_ID)


def _hand(rng: random.Random) -> tuple[str, int, int, str, str]:
    return (rng.choice(ALL_RULES), rng.randrange(2**20),
            rng.randrange(41) if rng.random() < 0.5 else rng.randrange(601),
            rng.choice(fuzzing.POLICY_NAMES), rng.choice(fuzzing.SOURCES))


def _answer(engine, text: str):
    try:
        game = engine.Game.from_state_string(text)
    except engine.InvalidStateError as error:
        return None, f"refused: {error}"
    return game, None


def compare(text: str) -> tuple[str, str | None]:
    """(``'accepted'`` or ``'refused'``, None) if the engines agree on ``text``, else
    (``'split'``, what differs)."""
    core, reference = fuzzing.engines()
    core_game, core_why = _answer(core, text)
    ref_game, ref_why = _answer(reference, text)
    if (core_game is None) != (ref_game is None):
        return "split", f"core {core_why or 'accepts'}; reference {ref_why or 'accepts'}"
    if core_game is None:
        return "refused", None
    if core_game.state_string() != ref_game.state_string():
        return "split", "both accept, but write different state strings"
    if core_game.legal_moves().strings() != ref_game.legal_moves().strings():
        return "split", "both accept, but list different legal moves"
    return "accepted", None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    verdicts = {"accepted": 0, "refused": 0, "split": 0}
    start = time.monotonic()
    for number in range(args.inputs):
        if number and number % 5000 == 0:
            print(f"{number} inputs: {verdicts}, {time.monotonic() - start:.0f} s", flush=True)
        rng = random.Random(f"{args.seed}:{number}")
        made = fuzzing.engine_made(*_hand(rng))[0]
        other = fuzzing.engine_made(*_hand(rng))[0]
        text = made if rng.random() < 1 / 8 else fuzzing.mutate_state(
            fuzzing.RandomDraw(rng), made, other)
        try:
            verdict, why = compare(text)
        except Exception as error:  # noqa: BLE001 - any other exception is a finding too
            verdict, why = "split", f"raised {type(error).__name__}: {error}"
        verdicts[verdict] += 1
        if why is None:
            continue
        print(f"input {number}: {why}\n  {text}", flush=True)
        if args.out:
            with args.out.open("a", encoding="utf-8") as out:
                out.write(json.dumps({"input": text, "why": why}) + "\n")
    print(f"{args.inputs} inputs: {verdicts}, {time.monotonic() - start:.0f} s")
    return 1 if verdicts["split"] else 0


if __name__ == "__main__":
    sys.exit(main())
