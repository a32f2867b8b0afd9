"""Fuzz the state-string, record and JSON-view parsers of both engines with atheris (libFuzzer).

Every input goes to ``Game.from_state_string``, ``Game.from_record`` or ``Game.from_json`` of the
core and of the reference, with the deep checks of tests/fuzzing.py (``deep_check``): refused by
both with the same documented error class, or accepted by both and then round trip, cards
conserved, a legal move unless over, equal states, legal moves and results, 30 moves in lock step,
and random and greedy playouts that end alike. A problem raises ``AssertionError`` (libFuzzer
saves the input as ``crash-*``); a segfault or an abort of the core is caught by libFuzzer itself.

Run it from the repository root, in an environment with burraco installed (``pip install -e .``)
and atheris (``pip install atheris``)::

    python tools/fuzz_atheris.py -max_total_time=600            # ten minutes, all three parsers
    python tools/fuzz_atheris.py --kind state -max_total_time=600 -timeout=60 corpus/
    python tools/fuzz_atheris.py -runs=1 crash-1234abcd          # replay one saved input

Own options: ``--kind state|record|json|all`` (default all), ``--seeds N`` (engine-made seed
inputs written to a new corpus directory when none is given, default 200; a quarter of them from
six-player tables, three sides of two and two sides of three, and half from three-deck tables, six
players included: ``fuzzing.random_rules_id``). Everything else goes to
libFuzzer (``-max_total_time``, ``-timeout`` (seconds for one input: pass it, a hang is a
defect), ``-runs``, ``-dict``, a corpus directory, ...). The harness runs in one process: the
fork modes (``-fork``, ``-jobs``) do not work with it. It stops at the first input the checks
flag, whatever the problem; add that input to the regressions file together with the fix of its
defect (docs/fuzzing.md "Kept inputs"), and run again.

The first byte of an input chooses what the rest is: the text of a state string, of a record (one
JSON line) or of a view, read as UTF-8; or (one value in four) the choices of the structured
mutations of tests/fuzzing.py applied to an engine-made input, so libFuzzer also mutates the
decisions "which field, which edge value, which card". Coverage guidance reaches the Python code
(the reference engine, the records module); the C++ core is exercised but not instrumented unless
it was built with ``-fsanitize=fuzzer-no-link`` (and with ``-fsanitize=address,undefined`` for
the sanitizer run: then run with the sanitizer runtime preloaded, as the sanitizer CI job does).
An input the checks flag is added to tests/data/regressions/fuzz.jsonl (one JSON line
``{"kind", "input", "why"}``, docs/fuzzing.md "Kept inputs"), where
tests/test_fuzz_states.py::test_regression replays it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))

import atheris
import fuzzing

import burraco
import burraco._records
import burraco.reference  # noqa: F401

atheris.instrument_all()  # coverage of the Python code: the reference, the records module

KINDS = ("state", "record", "json")


class ProviderDraw(fuzzing.Draw):
    """The mutations' choices read from libFuzzer's bytes (the low end once they run out)."""

    def __init__(self, provider: atheris.FuzzedDataProvider):
        self.provider = provider

    def choice(self, items):
        items = list(items)
        return items[self.provider.ConsumeIntInRange(0, len(items) - 1)]

    def integer(self, low: int, high: int) -> int:
        return self.provider.ConsumeIntInRange(low, high)


def _sources(count: int) -> list[tuple[str, str, str]]:
    """``count`` engine-made inputs: the tables of ``fuzzing.FUZZ_RULES_IDS`` by their families'
    shares (a quarter six players, three sides of two and two sides of three; a quarter three
    decks with 2, 3 or 4 players; half the two-deck presets), at depths from the deal to the end
    of a hand."""
    rng = random.Random(2026)
    made = []
    for number in range(count):
        rules_id = fuzzing.random_rules_id(rng)
        depths = (0, 5, 40, 120, 300, 600)
        if rules_id in fuzzing.FUZZ_FAMILIES["six players"]:
            depths += (900, 1200)
        made.append(fuzzing.engine_made(
            rules_id, rng.randrange(2**20), rng.choice(depths), fuzzing.POLICY_NAMES[number % 3],
            fuzzing.SOURCES[(number // 3) % 3]))
    return made


def main() -> None:
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--kind", choices=KINDS + ("all",), default="all")
    parser.add_argument("--seeds", type=int, default=200)
    options, rest = parser.parse_known_args()
    kinds = KINDS if options.kind == "all" else (options.kind,)
    sources = _sources(max(options.seeds // 4, 12))

    if not [arg for arg in rest if not arg.startswith("-")]:
        corpus = tempfile.mkdtemp(prefix="burraco-fuzz-corpus-")
        for number, made in enumerate(_sources(options.seeds)):
            for code, kind in enumerate(KINDS):
                if kind in kinds:
                    with open(os.path.join(corpus, f"{kind}-{number}"), "wb") as seed_file:
                        seed_file.write(bytes([code]) + made[code].encode())
        rng = random.Random(7)
        for number in range(max(options.seeds // 4, 4)):  # structured mutations (mode 3)
            with open(os.path.join(corpus, f"mutation-{number}"), "wb") as seed_file:
                seed_file.write(bytes([3]) + rng.randbytes(64))
        print(f"seed corpus: {corpus}", file=sys.stderr)
        rest.append(corpus)

    def test_one_input(data: bytes) -> None:
        if not data:
            return
        mode = data[0] % 4
        if mode < 3:
            kind = KINDS[mode]
            if kind not in kinds:
                return
            value = data[1:].decode("utf-8", "replace")
        else:
            provider = atheris.FuzzedDataProvider(data[1:])
            draw = ProviderDraw(provider)
            kind = draw.choice(kinds)
            base, other = draw.choice(sources), draw.choice(sources)
            if kind == "state":
                value = fuzzing.mutate_state(draw, base[0], other[0])
            elif kind == "record":
                value = fuzzing.mutate_record(draw, base[1], other[1], other[0])
            else:
                value = fuzzing.mutate_view(draw, base[2], other[2], other[0],
                                            fuzzing.reference_view)
        answer = fuzzing.deep_check(kind, value, seed=len(data))
        if answer["problems"]:
            raise AssertionError(json.dumps({"kind": kind, "input": value})[:20000] + "\n"
                                 + "\n".join(answer["problems"]))

    if not any(arg.startswith("-max_len=") for arg in rest):
        rest.insert(0, "-max_len=65536")  # records and views are longer than libFuzzer's 4096
    atheris.Setup([sys.argv[0]] + rest, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
