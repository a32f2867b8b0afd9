"""Fuzzing helpers shared by tests/test_fuzz_states.py, tests/test_random_rules.py and
tools/fuzz_atheris.py: engine-made inputs, their mutations, the deep checks, and a worker process.

* **Engine-made inputs** (:func:`engine_made`): a hand of a rule set of :data:`FUZZ_RULES_IDS`
  (the presets of ``playouts.GAME_RULES``, the three-deck tables and both six-player tables, each
  family with a fair share: :func:`random_hand`), dealt from a seed (or from a deck order, or
  read from a state string in mid hand), played by a seeded policy of ``playouts.PICK`` (or
  uniformly) to some depth on the core; its state string, its record (``game.record()``) and its
  whole-state JSON view (``game.to_json()``).
* **Mutations** (:func:`mutate_state`, :func:`mutate_record`, :func:`mutate_view`): fields
  spliced from another state, numbers replaced by edge values (``0``, ``-1``, ``2**31``,
  ``2**63``, ``2**64``, leading zeros, ``+1``, Unicode digits), cards moved from one place to
  another, a field erased or duplicated, turn-flag letters added or removed, the turn or the phase
  changed, a hand sent to the stock, the stock cut near the threshold, a packet's status
  changed; for records and views also ints replaced by bools, floats and strings, moves dropped,
  repeated or joined into the multi-card lay-off sugar, deep nesting and a UTF-8 BOM. Each takes
  a :class:`Draw` (a seeded ``random.Random``, or libFuzzer's bytes in atheris), so the same
  mutations serve Hypothesis and atheris.
* **Hypothesis strategies**: :func:`states`, :func:`records`, :func:`views` (engine-made) and
  :func:`mutated_states`, :func:`mutated_records`, :func:`mutated_views`, and
  :func:`rule_sets` (random *valid* knob values, every knob, every allowed value).
* **Deep checks** (:func:`deep_check`): the input goes to both engines; either both refuse it with
  the same documented error class, or both accept it and then: the state string round trips, the
  cards are conserved, the position is over or has a legal move, the engines agree on the state,
  the legal moves and the result, stay in step for a few random moves, and random and greedy
  playouts from it end (the 100,000-move cap raising ``InvalidStateError`` is a failure here)
  with the same moves and the same final state in both engines.
* **Random rule sets** (:func:`rules_hand`): one hand under one rule set in lock step, core
  against reference, every move chosen by both engines' ``policy_move`` and compared, then
  ``playout`` and ``playouts`` compared.
* :class:`Worker`: the checks run in a child process, so that a crash (SIGSEGV) or a hang (a loop
  holding the GIL) of an engine is reported as a failure with its input, not a dead or stuck test
  run. ``FUZZ_TIMEOUT`` (seconds, default 90) bounds one request (the reference plays a hand
  with 30-card hands at a few milliseconds a move: the bound is generous so that a busy machine
  is no hang); ``FUZZ_MEMORY_LIMIT_MB`` (default 4096, 0 for none; not set under ASan) bounds
  the child's address space, so an endless playout that grows the history fails fast.

Nothing here reads an engine's internals: only the public API of docs/game.md, docs/records.md and
docs/search.md.
"""

from __future__ import annotations

import ast
import copy
import functools
import json
import os
import random
import re
import select
import subprocess
import sys
import tempfile
import traceback
from collections import Counter
from collections.abc import Callable
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import burraco
from differential import CARD_KINDS
from playouts import (
    GAME_RULES,
    PICK,
    RULES_BY_ID,
    RULES_IDS,
    SIX_PLAYER_RULES,
    THREE_DECK_RULES,
    accessor_view,
    result_view,
)

#: The tables the engine-made inputs come from, by family: the two-deck presets (2, 3 and 4
#: players), the three-deck tables with 2, 3 and 4 players, and the six-player tables (three sides
#: of two and two sides of three, three decks). :func:`random_hand` draws the family first, so
#: six-player and three-deck positions are a fair share of every run, not 2 and 3 ids in 11.
FUZZ_FAMILIES: dict[str, tuple[str, ...]] = {
    "two decks": RULES_IDS,
    "three decks": tuple(rules_id for rules_id, _, _ in THREE_DECK_RULES),
    "six players": tuple(rules_id for rules_id, _, _ in SIX_PLAYER_RULES),
}
#: How often each family is drawn: half of the hands have three decks, a quarter six players.
FUZZ_FAMILY_WEIGHTS = {"two decks": 2, "three decks": 1, "six players": 1}
FUZZ_RULES_IDS = tuple(rules_id for ids in FUZZ_FAMILIES.values() for rules_id in ids)

#: The move cap of docs/game.md (the same constant in both engines): a playout, a policy loop, an
#: ISMCTS rollout or a Match stops with InvalidStateError past this many moves in one hand.
MAX_HAND_MOVES = 100_000

#: Moves played in lock step on both engines from an accepted input before the playouts.
LOCKSTEP_MOVES = 30

#: The 22 fields of a version-1 state string, in order (docs/game.md).
STATE_FIELDS = ("v", "rules", "seed", "first", "scores", "turn", "phase", "hands", "known",
                "stock", "pile", "top", "melds", "pozzetti", "hold", "opened", "need",
                "deadlock", "turnflags", "split", "end", "cut")

#: What each kind of input may be refused with (docs/game.md, docs/records.md, decisions 1 and 7:
#: a mistyped record or view field is the records module's InvalidNotationError, never TypeError).
REFUSALS = {
    "state": ("InvalidStateError",),
    "record": ("InvalidNotationError", "IllegalMoveError", "InvalidStateError"),
    "json": ("InvalidNotationError", "InvalidStateError"),
}

#: Numbers a mutation puts in place of a number (or of a ``-``).
EDGE_NUMBERS = ("0", "-1", "1", "2", "3", "4", str(2**31 - 1), str(2**31), str(-(2**31)),
                str(2**63 - 1), str(2**63), str(2**64 - 1), str(2**64), str(10**30), "00",
                "-0", "+1", "1_0", "\u0663", "\uff11", "1.0", "1e3", "", " 1", "1 ")

#: Ints a mutation puts in place of an int in a record or a view (JSON values).
EDGE_VALUES: tuple[Any, ...] = (0, -1, 1, 2, 3, 2**31 - 1, 2**31, -(2**31), 2**63 - 1, 2**63,
                                2**64 - 1, 2**64, 10**30, True, False, 0.0, 1.0, 2.5, -0.0,
                                "1", "", None, [], {}, [1])

TURN_FLAG_LETTERS = "pdlfb"

# ---- engines -------------------------------------------------------------------------------------


@functools.cache
def engines() -> tuple[Any, Any]:
    """(the core, the reference)."""
    import burraco
    from burraco import reference

    return burraco, reference


def make_rules(engine, rules_id: str):
    preset, knobs = RULES_BY_ID[rules_id]
    return engine.Rules(preset, **knobs)


# ---- engine-made inputs --------------------------------------------------------------------------

SOURCES = ("seed", "deck", "start")
POLICY_NAMES = ("meld", "draw", "uniform")


def _pick(policy: str, rng: random.Random, moves: list[str]) -> int:
    if policy == "uniform":
        return rng.randrange(len(moves))
    return PICK[policy](rng, moves)


def _play(game, depth: int, policy: str, rng: random.Random) -> None:
    for _ in range(depth):
        if game.is_over():
            return
        moves = game.legal_moves().strings()
        game.push_index(_pick(policy, rng, moves))


@functools.lru_cache(maxsize=2048)
def engine_made(rules_id: str, seed: int, depth: int, policy: str = "meld",
                source: str = "seed") -> tuple[str, str, str]:
    """A hand played by the core: (its state string, its record as JSON text, its whole-state
    JSON view). ``source``: dealt from ``seed``; from a deck order shuffled by ``seed`` (the record
    has ``deck``); or read with ``from_state_string`` after ``depth // 2`` moves and played on (the
    record has ``start``)."""
    core, _ = engines()
    rules = make_rules(core, rules_id)
    rng = random.Random(f"{rules_id}:{seed}:{depth}:{policy}:{source}")
    if source == "deck":
        deck = [kind for kind in CARD_KINDS[:-1] for _ in range(rules.decks)]
        deck += ["Jk"] * rules.jokers
        rng.shuffle(deck)
        game = core.Game(rules, deck=" ".join(deck), first_player=seed % rules.players)
    else:
        game = core.Game(rules, seed=seed, first_player=seed % rules.players)
    if source == "start":
        _play(game, depth // 2, policy, rng)
        game = core.Game.from_state_string(game.state_string())
        depth -= depth // 2
    _play(game, depth, policy, rng)
    return game.state_string(), json.dumps(game.record()), game.to_json()


# ---- state strings as fields ---------------------------------------------------------------------


def split_state(text: str) -> list[list[str]]:
    """A state string as its ``[name, value]`` pairs, in order (a part without ``=`` is
    ``[part]``)."""
    return [part.split("=", 1) for part in text.split(";")]


def join_state(fields: list[list[str]]) -> str:
    return ";".join("=".join(pair) for pair in fields)


def _field_index(fields: list[list[str]], name: str) -> int | None:
    for index, pair in enumerate(fields):
        if pair[0] == name and len(pair) == 2:
            return index
    return None


_MELD_TOKEN = re.compile(r"\(=[^)]*\)|@\d+|[A2-9TJQK][cdhs]|Jk|.", re.DOTALL)


def _cards(text: str) -> list[str]:
    """A state-string card list as 2-character tokens (``-`` is empty)."""
    if text == "-":
        return []
    return [text[i : i + 2] for i in range(0, len(text), 2)]


def _list_text(cards: list[str]) -> str:
    return "".join(cards) or "-"


def _canonical(cards: list[str]) -> list[str]:
    order = {kind: number for number, kind in enumerate(CARD_KINDS)}
    return sorted(cards, key=lambda card: order.get(card, 99))


class _Places:
    """The card lists of a state string, editable: hands and known per seat, the stock, the pile,
    each packet, each meld (as tokens: cards, wild tags, ``@n``), and the single cards ``top`` and
    ``hold``."""

    LISTS = ("hands", "known", "stock", "pile", "pozzetti", "melds")

    def __init__(self, fields: list[list[str]]):
        self.fields = fields
        self.places: dict[tuple, list[str]] = {}
        self.packet_status: dict[int, str] = {}
        for name in self.LISTS:
            index = _field_index(fields, name)
            if index is None:
                continue
            value = fields[index][1]
            if name in ("hands", "known"):
                for seat, part in enumerate(value.split("/")):
                    self.places[(name, seat)] = _cards(part)
            elif name in ("stock", "pile"):
                self.places[(name,)] = _cards(value)
            elif name == "pozzetti":
                for number, packet in enumerate(value.split("/")):
                    status, _, cards = packet.partition(":")
                    self.packet_status[number] = status
                    self.places[(name, number)] = _cards(cards)
            else:
                for slot, part in enumerate(value.split("/")):
                    melds = [] if part == "-" else part.split("+")
                    for number, meld in enumerate(melds):
                        self.places[(name, slot, number)] = _MELD_TOKEN.findall(meld)
                    if not melds:
                        self.places[(name, slot, 0)] = []

    def card_places(self) -> list[tuple]:
        return [key for key, cards in self.places.items()
                if any(len(c) == 2 and c[0] not in "(@" for c in cards)]

    def write(self) -> list[list[str]]:
        fields = [list(pair) for pair in self.fields]
        for name in self.LISTS:
            index = _field_index(fields, name)
            if index is None:
                continue
            keys = sorted(key for key in self.places if key[0] == name)
            if name in ("hands", "known"):
                value = "/".join(_list_text(self.places[key]) for key in keys)
            elif name in ("stock", "pile"):
                value = _list_text(self.places[(name,)])
            elif name == "pozzetti":
                value = "/".join(f"{self.packet_status[key[1]]}:{_list_text(self.places[key])}"
                                 for key in keys)
            else:
                slots: dict[int, list[str]] = {}
                for key in keys:
                    slots.setdefault(key[1], [])
                    if self.places[key]:
                        slots[key[1]].append("".join(self.places[key]))
                value = "/".join("+".join(melds) or "-" for _, melds in sorted(slots.items()))
            fields[index][1] = value
        return fields


# ---- mutations -----------------------------------------------------------------------------------
# A mutation asks its ``Draw`` for ``choice(seq)``, ``integer(lo, hi)`` and ``boolean(p)`` only:
# a RandomDraw over a ``random.Random`` (from Hypothesis's ``st.randoms()``: uniform choices), or
# libFuzzer's bytes in tools/fuzz_atheris.py.


class Draw:
    """The random choices a mutation makes (:class:`RandomDraw`; tools/fuzz_atheris.py reads them
    from libFuzzer's bytes)."""

    def choice(self, items):  # pragma: no cover - interface
        raise NotImplementedError

    def integer(self, low: int, high: int) -> int:  # pragma: no cover - interface
        raise NotImplementedError

    def boolean(self, p: float = 0.5) -> bool:
        return self.integer(0, 999) < int(p * 1000)


class RandomDraw(Draw):
    def __init__(self, rng: random.Random):
        self.rng = rng

    def choice(self, items):
        items = list(items)
        return items[self.rng.randrange(len(items))]

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)


_NUMBER_CONTEXTS: dict[str, re.Pattern] = {
    "rules": re.compile(r"(?<=[=(,])\d+"),
    "seed": re.compile(r"^(?:\d+|-)$"),
    "first": re.compile(r"^\d+$"),
    "scores": re.compile(r"-?\d+"),
    "turn": re.compile(r"^\d+$"),
    "melds": re.compile(r"(?<=@)\d+|(?<=\(=)[2-9]"),
    "pozzetti": re.compile(r"(?<=[fsh])\d+"),
    "opened": re.compile(r"\d+"),
    "need": re.compile(r"\d+"),
    "deadlock": re.compile(r"^\d+$"),
    "split": re.compile(r"^(?:\d+|-)$"),
    "end": re.compile(r"(?<=closed:)\d+"),
    "cut": re.compile(r"^(?:\d+|-)$"),
    "v": re.compile(r"^\d+$"),
}


def _edge_number(draw: Draw, fields: list[list[str]], other: list[list[str]]) -> None:
    spots = []
    for index, pair in enumerate(fields):
        if len(pair) == 2 and pair[0] in _NUMBER_CONTEXTS:
            for match in _NUMBER_CONTEXTS[pair[0]].finditer(pair[1]):
                spots.append((index, match.start(), match.end()))
    if not spots:
        return
    index, start, end = draw.choice(spots)
    value = fields[index][1]
    old = value[start:end]
    choices = list(EDGE_NUMBERS)
    if old.isdigit():
        choices += ["0" + old, "+" + old, str(int(old) + 1), str(max(int(old) - 1, 0)),
                    "-" + old, old + "0"]
    fields[index][1] = value[:start] + draw.choice(choices) + value[end:]


def _splice(draw: Draw, fields: list[list[str]], other: list[list[str]]) -> None:
    index = draw.integer(0, len(fields) - 1)
    other_index = _field_index(other, fields[index][0])
    if other_index is not None:
        fields[index] = list(other[other_index])


def _move_card(draw: Draw, fields: list[list[str]], other: list[list[str]]) -> None:
    places = _Places(fields)
    sources = places.card_places()
    if not sources:
        return
    source = draw.choice(sources)
    tokens = places.places[source]
    spots = [i for i, token in enumerate(tokens) if len(token) == 2 and token[0] not in "(@"]
    spot = draw.choice(spots)
    card = tokens.pop(spot)
    if spot < len(tokens) and tokens[spot].startswith("(=") and draw.boolean():
        tokens.pop(spot)  # the wild's tag goes with it
    target = draw.choice(list(places.places) + ["top", "hold"])
    if target in ("top", "hold"):
        index = _field_index(fields, target)
        if index is not None:
            places.fields[index][1] = card
    else:
        cards = places.places[target]
        if target[0] in ("hands", "known", "pile") and draw.boolean(0.7):
            places.places[target] = _canonical(cards + [card])
        else:
            cards.insert(draw.integer(0, len(cards)), card)
    fields[:] = places.write()


def _replace_card(draw: Draw, fields: list[list[str]], other: list[list[str]]) -> None:
    """A card of some place becomes another card kind (conservation broken, or a kind too many)."""
    places = _Places(fields)
    sources = places.card_places()
    if not sources:
        return
    source = draw.choice(sources)
    tokens = places.places[source]
    spots = [i for i, token in enumerate(tokens) if len(token) == 2 and token[0] not in "(@"]
    tokens[draw.choice(spots)] = draw.choice(CARD_KINDS + ("1c", "Xx", "jk", "JK", "10"))
    fields[:] = places.write()


def _erase(draw: Draw, fields: list[list[str]], other: list[list[str]]) -> None:
    index = draw.integer(0, len(fields) - 1)
    how = draw.integer(0, 3)
    if how == 0:
        del fields[index]
    elif how == 1 and len(fields[index]) == 2:
        fields[index][1] = "-"
    elif how == 2 and len(fields[index]) == 2:
        fields[index][1] = ""
    else:
        fields[index] = [fields[index][0]]


def _duplicate(draw: Draw, fields: list[list[str]], other: list[list[str]]) -> None:
    index = draw.integer(0, len(fields) - 1)
    pair = list(fields[index])
    if draw.boolean():
        other_index = _field_index(other, pair[0])
        if other_index is not None:
            pair = list(other[other_index])
    fields.insert(index + draw.integer(0, 1), pair)


def _swap_fields(draw: Draw, fields: list[list[str]], other: list[list[str]]) -> None:
    a, b = draw.integer(0, len(fields) - 1), draw.integer(0, len(fields) - 1)
    fields[a], fields[b] = fields[b], fields[a]


def _flags(draw: Draw, fields: list[list[str]], other: list[list[str]]) -> None:
    index = _field_index(fields, "turnflags")
    if index is None:
        return
    flags = fields[index][1].replace("-", "")
    how = draw.integer(0, 3)
    if how == 0 or not flags:  # add a letter (in the documented order, or anywhere)
        letter = draw.choice(TURN_FLAG_LETTERS + "xP")
        if draw.boolean(0.8):
            flags = "".join(c for c in TURN_FLAG_LETTERS if c in flags + letter)
        else:
            at = draw.integer(0, len(flags))
            flags = flags[:at] + letter + flags[at:]
    elif how == 1:  # remove one
        at = draw.integer(0, len(flags) - 1)
        flags = flags[:at] + flags[at + 1 :]
    elif how == 2:  # any subset
        flags = "".join(c for c in TURN_FLAG_LETTERS if draw.boolean())
    else:  # repeated or reversed
        flags = flags[::-1] if draw.boolean() else flags + flags[-1]
    fields[index][1] = flags or "-"


def _turn_phase(draw: Draw, fields: list[list[str]], other: list[list[str]]) -> None:
    name = draw.choice(("turn", "phase", "split", "hold", "end", "cut", "first", "deadlock",
                        "top"))
    index = _field_index(fields, name)
    if index is None:
        return
    values = {  # seats up to 6 and sides up to 3 (six players), and one past each
        "turn": ["0", "1", "2", "3", "4", "5", "6", "-1", "-"],
        "phase": ["draw", "meld", "over", "Draw", "MELD", "-", ""],
        "split": ["-", "0", "1", "2", "3"],
        "hold": ["-"] + list(CARD_KINDS),
        "end": ["-", "closed:0", "closed:1", "closed:2", "closed:3", "stock_exhausted",
                "deadlock", "closed"],
        "cut": ["-", "0", "1", "2", "3"],
        "first": ["0", "1", "2", "3", "4", "5", "6"],
        "deadlock": ["0", "1", "2", "3", "4", "5", "6", "100"],
        "top": ["-"] + list(CARD_KINDS),
    }[name]
    fields[index][1] = draw.choice(values)


def _case_or_space(draw: Draw, fields: list[list[str]], other: list[list[str]]) -> None:
    index = draw.integer(0, len(fields) - 1)
    pair = fields[index]
    value = pair[-1]
    how = draw.integer(0, 3)
    if how == 0:
        pair[-1] = value.upper()
    elif how == 1:
        pair[-1] = value.lower()
    else:
        at = draw.integer(0, len(value))
        pair[-1] = value[:at] + draw.choice((" ", "\t", "\u00a0", "\u2003", "\n", ";", "/", "+",
                                             ":", "=")) + value[at:]


def _players(places: _Places) -> int:
    return len([key for key in places.places if key[0] == "hands"])


def _hand_to_stock(draw: Draw, fields: list[list[str]], other: list[list[str]]) -> None:
    """Some or all cards of one hand go to the stock (or the pile), cards conserved; the seat's
    known cards are cut to what it still holds."""
    places = _Places(fields)
    seats = [key for key in places.places if key[0] == "hands" and places.places[key]]
    if not seats:
        return
    has_stock, has_pile = ("stock",) in places.places, ("pile",) in places.places
    if not (has_stock or has_pile):  # an earlier mutation took both fields away
        return
    seat = draw.choice(seats)
    hand = places.places[seat]
    count = draw.choice((len(hand), len(hand) - 1, 1, draw.integer(1, len(hand))))
    moved = [hand.pop(draw.integer(0, len(hand) - 1)) for _ in range(max(count, 0))]
    if has_stock and (draw.boolean(0.8) or not has_pile):
        stock = places.places[("stock",)]
        places.places[("stock",)] = stock + moved if draw.boolean() else moved + stock
    else:
        places.places[("pile",)] = _canonical(places.places[("pile",)] + moved)
    known = places.places.get(("known", seat[1]))
    if known is not None:
        left = Counter(hand)
        kept = []
        for card in known:
            if left[card]:
                left[card] -= 1
                kept.append(card)
        places.places[("known", seat[1])] = kept
    fields[:] = places.write()


def _stock_to_pile(draw: Draw, fields: list[list[str]], other: list[list[str]]) -> None:
    """The stock cut to a few cards (0 to 12), the rest put in the pile: around the
    threshold."""
    places = _Places(fields)
    stock = places.places.get(("stock",))
    if not stock or ("pile",) not in places.places:
        return
    keep = draw.integer(0, min(12, len(stock)))
    places.places[("pile",)] = _canonical(places.places[("pile",)] + stock[keep:])
    del stock[keep:]
    fields[:] = places.write()


def _packet_status(draw: Draw, fields: list[list[str]], other: list[list[str]]) -> None:
    """A packet's status changed (untaken, face down for a seat, seen, in a hand, the stock),
    its cards kept with it, or sent to the stock or taken from it."""
    places = _Places(fields)
    packets = [key for key in places.places if key[0] == "pozzetti"]
    if not packets:
        return
    packet = draw.choice(packets)
    seat = draw.integer(0, max(_players(places) - 1, 0))
    status = draw.choice(("u", f"f{seat}", f"s{seat}", f"h{seat}", "x"))
    places.packet_status[packet[1]] = status
    cards = places.places[packet]
    stock = places.places.setdefault(("stock",), [])
    if status[0] in "hx" and cards:
        places.places[("stock",)] = stock + cards
        places.places[packet] = []
    elif status[0] in "ufs" and not cards and stock:
        count = draw.integer(1, min(len(stock), 18))
        places.places[packet] = stock[-count:]
        del stock[-count:]
    fields[:] = places.write()


#: The state mutations, each once; those that keep the syntax and change the play (cards moved,
#: flags, turn and phase, a hand sent to the stock, the stock cut, a packet's status) three times,
#: since they reach the validator's invariants where the others mostly meet the parser.
STATE_MUTATIONS: tuple[Callable[[Draw, list, list], None], ...] = (
    _edge_number, _splice, _replace_card, _erase, _duplicate, _swap_fields, _case_or_space,
) + 3 * (_move_card, _flags, _turn_phase, _hand_to_stock, _stock_to_pile, _packet_status)


def mutate_state(draw: Draw, text: str, other: str, count: int | None = None) -> str:
    """``text`` with ``count`` (default 1 to 3) mutations; ``other`` is the state fields are
    spliced from."""
    fields = split_state(text)
    other_fields = split_state(other)
    for _ in range(draw.integer(1, 3) if count is None else count):
        if not fields:
            break
        draw.choice(STATE_MUTATIONS)(draw, fields, other_fields)
    return join_state(fields)


# -- JSON values (records and views)


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    """Every path (keys and indexes) into a JSON value, the root excluded."""
    found = []
    if isinstance(value, dict):
        for key, item in value.items():
            found.append(path + (key,))
            found += _paths(item, path + (key,))
    elif isinstance(value, list):
        for number, item in enumerate(value):
            found.append(path + (number,))
            found += _paths(item, path + (number,))
    return found


def _get(value: Any, path: tuple) -> Any:
    for key in path:
        value = value[key]
    return value


def _set(value: Any, path: tuple, item: Any) -> None:
    _get(value, path[:-1])[path[-1]] = item


def _delete(value: Any, path: tuple) -> None:
    del _get(value, path[:-1])[path[-1]]


_NEST = "<<nest>>"  # a placeholder replaced by a deeply nested list in the JSON text


def _mutate_json_value(draw: Draw, value: dict, other: dict, state_key: str,
                       other_state: str) -> None:
    how = draw.integer(0, 9)
    paths = _paths(value)
    if how <= 2:  # an int (or anything) replaced by an edge value: a bool, a float, a huge int
        ints = [p for p in paths if isinstance(_get(value, p), int)]
        path = draw.choice(ints or paths)
        item = _get(value, path)
        choices = list(EDGE_VALUES)
        if isinstance(item, int) and not isinstance(item, bool):
            choices += [item + 1, item - 1, float(item), str(item), -item]
        _set(value, path, draw.choice(choices))
    elif how == 3:  # the state string mutated
        if isinstance(value.get(state_key), str):
            value[state_key] = mutate_state(draw, value[state_key], other_state)
    elif how == 4:  # a field spliced from another record or view
        key = draw.choice(list(value))
        if key in other:
            value[key] = copy.deepcopy(other[key])
    elif how == 5:  # a field or an item removed, an unknown field added
        path = draw.choice(paths)
        if draw.boolean(0.8):
            _delete(value, path)
        else:
            container = _get(value, path[:-1])
            if isinstance(container, dict):
                container["extra"] = 1
            else:
                container.append(copy.deepcopy(container[-1]) if container else 0)
    elif how == 6:  # a list item repeated, or two swapped
        lists = [p for p in paths if isinstance(_get(value, p), list) and _get(value, p)]
        if lists:
            items = _get(value, draw.choice(lists))
            a, b = draw.integer(0, len(items) - 1), draw.integer(0, len(items) - 1)
            if draw.boolean():
                items.insert(a, copy.deepcopy(items[b]))
            else:
                items[a], items[b] = items[b], items[a]
    elif how == 7:  # deep nesting in place of some value
        _set(value, draw.choice(paths), _NEST)
    elif how == 8:  # a string changed: case, a space, a Unicode space, emptied
        strings = [p for p in paths if isinstance(_get(value, p), str)]
        if strings:
            path = draw.choice(strings)
            text = _get(value, path)
            at = draw.integer(0, len(text))
            _set(value, path, draw.choice((text.upper(), text.lower(), "",
                                           text[:at] + draw.choice((" ", "\u00a0", "\t"))
                                           + text[at:])))
    else:  # a number inside a string (a rules text, a move, a state) replaced by an edge value
        strings = [p for p in paths if isinstance(_get(value, p), str)
                   and re.search(r"\d", _get(value, p))]
        if strings:
            path = draw.choice(strings)
            text = _get(value, path)
            spots = [m.span() for m in re.finditer(r"\d+", text)]
            start, end = draw.choice(spots)
            _set(value, path, text[:start] + draw.choice(EDGE_NUMBERS) + text[end:])


def _json_text(draw: Draw, value: Any) -> str:
    text = json.dumps(value, indent=draw.choice((None, None, 2)))
    if _NEST in text:
        depth = draw.choice((10, 100, 1000, 10_000, 100_000))
        text = text.replace(json.dumps(_NEST), "[" * depth + "]" * depth, 1)
    how = draw.integer(0, 9)
    if how == 0:
        text = "\ufeff" + text
    elif how == 1:  # a key written twice (JSON allows it; the last wins in Python)
        text = text.replace("{", '{"turn": 0, ', 1) if draw.boolean() else text + " "
    elif how == 2:
        text = text + draw.choice(("x", "\n", "\n{}", "\x00"))
    return text


def _moves_mutation(draw: Draw, record: dict, other: dict) -> None:
    moves = record.get("moves")
    if not isinstance(moves, list):
        return
    how = draw.integer(0, 5)
    if how == 0 and moves:
        del moves[draw.integer(0, len(moves) - 1)]
    elif how == 1 and moves:
        at = draw.integer(0, len(moves) - 1)
        moves.insert(at, moves[at])
    elif how == 2:
        del moves[draw.integer(0, len(moves)):]
    elif how == 3:  # two lay-offs onto one meld joined into the multi-card sugar
        pairs = [i for i in range(len(moves) - 1)
                 if isinstance(moves[i], str) and isinstance(moves[i + 1], str)
                 and moves[i].startswith("add ") and moves[i + 1].startswith("add ")
                 and moves[i].split()[1] == moves[i + 1].split()[1]]
        if pairs:
            at = draw.choice(pairs)
            moves[at : at + 2] = [moves[at] + " " + moves[at + 1].split()[2]]
        else:
            moves.append(draw.choice(("add 1 7c Jc", "add 0 8h 9h", "meld 5h 6h 7h", "draw")))
    elif how == 4:
        other_moves = other.get("moves") or ["draw"]
        moves.insert(draw.integer(0, len(moves)), draw.choice(other_moves))
    else:
        if moves:
            at = draw.integer(0, len(moves) - 1)
            moves[at] = draw.choice((moves[at].upper() if isinstance(moves[at], str) else "draw",
                                     " " + str(moves[at]), str(moves[at]).replace(" ", "\u00a0"),
                                     "", "pass", ["draw"], 0))


def mutate_record(draw: Draw, record_text: str, other_text: str, other_state: str) -> Any:
    """An engine-made record (JSON text) with 1 to 3 mutations: a dict, or its JSON text."""
    record = json.loads(record_text)
    other = json.loads(other_text)
    for _ in range(draw.integer(1, 3)):
        how = draw.integer(0, 3)
        if how == 0:
            _moves_mutation(draw, record, other)
        elif how == 1 and isinstance(record, dict):  # the hand starts from a (mutated) state
            start = other_state if draw.boolean(0.3) else record.get("start") or other_state
            record["start"] = mutate_state(draw, start, other_state, draw.integer(0, 2))
            if draw.boolean(0.7):
                record["seed"] = record["deck"] = None
            if draw.boolean(0.5):
                record["moves"] = []
                record["result"] = None
        else:
            _mutate_json_value(draw, record, other, "start", other_state)
        if not isinstance(record, dict):
            break
    if draw.boolean(0.4):
        return _json_text(draw, record)
    if _NEST in json.dumps(record):
        return _json_text(draw, record)
    return record


def mutate_view(draw: Draw, view_text: str, other_text: str, other_state: str,
                state_view: Callable[[str], str | None] | None = None) -> str:
    """An engine-made whole-state view (JSON text) with 1 to 3 mutations. With ``state_view``
    (a state string -> the reference's view of it, or None if refused), a mutated state gets the
    fields the reference writes for it now and then, so the view reaches the state validator."""
    view = json.loads(view_text)
    other = json.loads(other_text)
    if state_view is not None and draw.boolean(0.3):
        text = state_view(mutate_state(draw, view["state"], other_state))
        if text is not None:
            return text
    for _ in range(draw.integer(1, 3)):
        _mutate_json_value(draw, view, other, "state", other_state)
    return _json_text(draw, view)


def reference_view(state: str) -> str | None:
    """The reference's whole-state view of ``state``, or None if it refuses the state."""
    _, reference = engines()
    try:
        return reference.Game.from_state_string(state).to_json()
    except Exception:  # noqa: BLE001 - any refusal: the mutation falls back
        return None


# ---- Hypothesis strategies -----------------------------------------------------------------------


def _strategies():
    from hypothesis import strategies as st

    return st


def random_rules_id(rng: random.Random) -> str:
    """A table of :data:`FUZZ_RULES_IDS`: its family drawn by :data:`FUZZ_FAMILY_WEIGHTS` (a
    quarter six players, a quarter three decks with 2 to 4 players, half the two-deck presets),
    then a table of the family, uniform."""
    families = [name for name, weight in FUZZ_FAMILY_WEIGHTS.items() for _ in range(weight)]
    return rng.choice(FUZZ_FAMILIES[rng.choice(families)])


def random_hand(rng: random.Random) -> tuple[str, int, int, str, str]:
    """(rules id, seed, depth, policy, source) of an engine-made hand: the table from
    :func:`random_rules_id`, the rest uniform, the depth half of the time up to 40 moves (the
    deal, the first turns), else up to 600 (any point of a hand; a six-player hand lasts longer,
    so its depth goes up to 1,200)."""
    rules_id = random_rules_id(rng)
    longest = 1200 if rules_id in FUZZ_FAMILIES["six players"] else 600
    return (rules_id, rng.randrange(2**20),
            rng.randrange(41) if rng.random() < 0.5 else rng.randrange(longest + 1),
            rng.choice(POLICY_NAMES), rng.choice(SOURCES))


def hands():
    """Engine-made hands (:func:`random_hand` from a Hypothesis-drawn generator)."""
    st = _strategies()
    return st.randoms(use_true_random=True).map(random_hand)


def states():
    return hands().map(lambda hand: engine_made(*hand)[0])


def records():
    return hands().map(lambda hand: json.loads(engine_made(*hand)[1]))


def views():
    return hands().map(lambda hand: engine_made(*hand)[2])


def _mutated(kind: str, rng: random.Random) -> Any:
    """One engine-made input of ``kind``, one in eight unchanged, the others mutated; every
    choice from ``rng``."""
    made, other = engine_made(*random_hand(rng)), engine_made(*random_hand(rng))
    draw = RandomDraw(rng)
    unchanged = rng.random() < 1 / 8
    if kind == "state":
        return made[0] if unchanged else mutate_state(draw, made[0], other[0])
    if kind == "record":
        return json.loads(made[1]) if unchanged else mutate_record(draw, made[1], other[1],
                                                                   other[0])
    return made[2] if unchanged else mutate_view(draw, made[2], other[2], other[0],
                                                 reference_view)


def mutated_states():
    """Engine-made state strings, one in eight unchanged, the others mutated (the choices come
    from a ``random.Random`` that Hypothesis seeds and replays, so they are uniform)."""
    return _strategies().randoms(use_true_random=True).map(lambda rng: _mutated("state", rng))


def mutated_records():
    """Engine-made records (dicts, or JSON text), one in eight unchanged, the others mutated."""
    return _strategies().randoms(use_true_random=True).map(lambda rng: _mutated("record", rng))


def mutated_views():
    """Engine-made whole-state views (JSON text), one in eight unchanged, the others mutated."""
    return _strategies().randoms(use_true_random=True).map(lambda rng: _mutated("json", rng))


# -- random valid rule sets

_POINTS = 1_000_000
_SET_RANK_LETTERS = "A3456789TJQK"

#: Every knob (docs/rules.md, in table order) and what a valid value is: ``('choice', values)``,
#: ``('int', low, high)`` (both included), ``('pair', low, high)``, ``('float', low, high)``, or a
#: special: ``'set_ranks'``, ``'opening_minimum'``, ``'optional_points'``. Taken from the Rules
#: validation of both engines (cpp/src/rules.cpp, src/burraco/reference/rules.py);
#: tests/test_random_rules.py checks both engines accept every bound and refuse past it.
KNOB_DOMAINS: dict[str, tuple] = {
    "players": ("choice", (2, 3, 4, 6)),
    "decks": ("choice", (2, 3)),
    "jokers": ("choice", (0, 2, 4)),
    "card_values": ("choice", ("italian", "pagat_brazil")),
    "hand_size": ("int", 1, 20),
    "pozzetto_sizes": ("pair", 1, 30),
    "initial_upcard": ("choice", (False, True)),
    "first_draw_rule": ("choice", ("none", "may_reject_first_card")),
    "pile_take_requires_meld": ("choice", (False,)),
    "forbid_discard_of_single_pile_card": ("choice", (False, True)),
    "natural_two_in_run": ("choice", (False, True)),
    "max_wild_per_meld": ("choice", (1,)),
    "sets_allowed": ("choice", (False, True)),
    "set_ranks": ("set_ranks",),
    "max_sets_per_rank_per_side": ("choice", (1,)),
    "max_set_size": ("int", 3, 9),
    "ace_low_or_high": ("choice", ("low_or_high", "low_only", "high_only")),
    "allow_both_aces_in_run": ("choice", (False, True)),
    "allow_orphan_wild_14": ("choice", (False, True)),
    "max_run_size": ("int", 3, 14),
    "run_wraparound": ("choice", (False,)),
    "wild_display_end": ("choice", ("low",)),
    "free_end_wild_may_move": ("choice", (True,)),
    "wild_replaced_only_by_its_card": ("choice", (True,)),
    "wild_swap_allowed": ("choice", (False,)),
    "low_natural_two_may_convert": ("choice", (False, True)),
    "opening_minimum": ("opening_minimum",),
    "opening_fail_increment": ("int", 0, _POINTS),
    "pozzetto_reveal": ("choice", ("after_partner_turn", "next_own_turn", "immediately")),
    "closing_requires_pozzetto": ("choice", (True,)),
    "closing_requires_burraco": ("choice", ("any", "clean")),
    "closing_discard": ("choice", ("required", "optional")),
    "closing_discard_wild_allowed": ("choice", (False, True)),
    "closing_bonus": ("int", 0, _POINTS),
    "clean_burraco_bonus": ("int", 0, _POINTS),
    "dirty_burraco_bonus": ("int", 0, _POINTS),
    "semi_clean_burraco_bonus": ("optional_points",),
    "semi_clean_rule": ("choice", ("longest_natural_block", "wild_at_end")),
    "no_pozzetto_penalty": ("int", 0, _POINTS),
    "unplayed_pozzetto_rule": ("choice", ("count_as_hand", "min_of_value_and_100",
                                          "as_not_taken")),
    "stock_end_threshold": ("int", 0, 10),
    "pozzetto_becomes_stock": ("choice", (False, True)),
    "deadlock_rule": ("choice", ("end_hand", "force_draw")),
    "cut_bonus": ("int", 0, _POINTS),
    "cut_exact_probability": ("float", 0.0, 1.0),
    "score_split": ("choice", ("none", "halves_for_pair")),
    "match_target": ("int", 1, _POINTS),
    "compare": ("choice", (">", ">=")),
    "tie_policy": ("choice", ("play_on", "draw")),
    "pile_take": ("choice", ("whole_pile",)),
    "wild_cards": ("choice", ("jokers_and_twos",)),
    "pozzetto_pickup": ("choice", ("on_the_fly_or_after_discard",)),
    "pozzetti_per_side": ("choice", (1,)),
    "discard_pile_public": ("choice", (True,)),
    "dealer_rotation": ("choice", ("left",)),
}

#: The presets, from the one list of them.
PRESETS = burraco.Rules.PRESETS


def _random_int(rng: random.Random, low: int, high: int) -> int:
    """An int from low to high: a bound (or next to one) a third of the time, a small value a
    third, any value a third."""
    pick = rng.randrange(3)
    if pick == 0:
        return rng.choice(sorted({low, high, min(low + 1, high), max(high - 1, low)}))
    if pick == 1:
        return rng.randint(low, min(high, low + 40))
    return rng.randint(low, high)


def random_knob_value(rng: random.Random, name: str) -> Any:
    """A valid value of one knob (``KNOB_DOMAINS``)."""
    domain = KNOB_DOMAINS[name]
    kind = domain[0]
    if kind == "choice":
        return rng.choice(domain[1])
    if kind == "int":
        return _random_int(rng, domain[1], domain[2])
    if kind == "pair":
        return (_random_int(rng, domain[1], domain[2]), _random_int(rng, domain[1], domain[2]))
    if kind == "float":
        return rng.choice((0.0, 1.0, 0.5)) if rng.random() < 0.4 else rng.uniform(0.0, 1.0)
    if kind == "set_ranks":
        letters = rng.sample(_SET_RANK_LETTERS, rng.randint(1, len(_SET_RANK_LETTERS)))
        return "".join(letters)  # any order: the engines store the canonical one
    if kind == "optional_points":
        return None if rng.random() < 0.25 else _random_int(rng, 0, _POINTS)
    if kind == "opening_minimum":
        if rng.random() < 0.3:
            return None
        count = rng.randint(1, 4)
        scores = [0] + sorted(rng.sample(range(1, _POINTS + 1), count - 1))
        return tuple((score, rng.choice((0, 1, 50, 75, 200)) if rng.random() < 0.6
                      else _random_int(rng, 0, _POINTS)) for score in scores)
    raise AssertionError(name)


#: How :func:`random_rules` lays out the table, each entry an equal share: one rule set in four
#: has six players (half of them three sides of two, half two sides of three), one in four three
#: decks with 2, 3 or 4 players, the rest the players and decks of the knob table's draw (among
#: them a few more six-player and three-deck tables).
TABLES = ("six players", "three decks", "drawn", "drawn")


def random_rules(rng: random.Random, table: str | None = None) -> tuple[str, dict[str, Any]]:
    """(preset, overrides): a preset and about half of the knobs drawn from their valid values,
    on a ``table`` of :data:`TABLES` (drawn from ``rng`` if not given; six players take three
    decks, six jokers unless drawn otherwise, three pozzetti and ``sides`` 2 or 3). Most rule
    sets can be dealt (hands and pozzetti fit the pack; three players without an opening minimum
    or a cut, which the engines refuse); a few cannot, and both engines must then refuse them
    alike."""
    preset = rng.choice(PRESETS)
    overrides: dict[str, Any] = {}
    for name in KNOB_DOMAINS:
        if rng.random() < 0.5:
            overrides[name] = random_knob_value(rng, name)
    if table is None:
        table = rng.choice(TABLES)
    if table == "six players":
        overrides["players"] = 6
        overrides["sides"] = rng.choice((2, 3))
        overrides.pop("decks", None)  # three decks, the six-player default
        if "pozzetto_sizes" in overrides:  # three packets
            overrides["pozzetto_sizes"] += (_random_int(rng, 1, 30),)
    elif table == "three decks":
        overrides["decks"] = 3
        if overrides.get("players") == 6:
            overrides["players"] = rng.choice((2, 3, 4))
    elif overrides.get("players") == 6:  # the knob table drew six: either number of sides
        overrides["sides"] = rng.choice((2, 3))
        if "pozzetto_sizes" in overrides:
            overrides["pozzetto_sizes"] += (_random_int(rng, 1, 30),)
    players = overrides.get("players", 4 if preset in ("italian", "brazilian")
                            else 3 if preset == "italian-3p" else 2)
    if players == 6 and "jokers" in overrides and rng.random() < 0.5:
        overrides["jokers"] = 6  # the six-player pack's jokers (the knob table draws 0, 2 or 4)
    if players == 3 and rng.random() < 0.9:
        overrides["opening_minimum"] = None
        overrides["cut_exact_probability"] = 0.0
    if rng.random() < 0.9:  # make the deal fit the pack
        decks = overrides.get("decks", 3 if players == 6 else 2)
        jokers = overrides.get("jokers", 6 if players == 6 else 2 if preset == "online-2p" else 4)
        room = 52 * decks + jokers - 1 - 2  # the pack less a start card, and a stock of two
        hand = overrides.get("hand_size", 11)
        if hand * players > room - 2:
            hand = overrides["hand_size"] = (room - 2) // players
        sizes = overrides.get("pozzetto_sizes", (11, 11, 11) if players == 6
                              else (18, 11) if preset == "italian-3p" else (11, 11))
        left = room - hand * players
        if sum(sizes) > left:
            share = max(1, left // len(sizes))
            overrides["pozzetto_sizes"] = tuple(max(1, min(size, share)) for size in sizes)
    return preset, overrides


def rule_sets():
    """Hypothesis strategy of :func:`random_rules` (from a ``random.Random`` that Hypothesis
    seeds and replays, on a table of :data:`TABLES` that Hypothesis draws)."""
    st = _strategies()
    return st.tuples(st.randoms(use_true_random=True), st.sampled_from(TABLES)).map(
        lambda drawn: random_rules(*drawn))


def rules_from_text(text: str):
    """(preset, overrides) from their ``repr`` (what the worker receives)."""
    preset, overrides = ast.literal_eval(text)
    return preset, overrides


# ---- deep checks ---------------------------------------------------------------------------------


def _short(error: BaseException) -> str:
    return f"{type(error).__name__}: {str(error)[:300]}"


def _outcome(call: Callable[[], Any]) -> tuple[Any, BaseException | None]:
    try:
        return call(), None
    except Exception as error:  # noqa: BLE001 - every exception is an answer to judge
        return None, error


def build_game(engine, kind: str, value: Any):
    if kind == "state":
        return engine.Game.from_state_string(value)
    if kind == "record":
        return engine.Game.from_record(value)
    if kind == "json":
        return engine.Game.from_json(value)
    raise ValueError(kind)


def _strings(moves) -> list[str]:
    return [str(move) for move in moves]


def _conservation(engine, game) -> list[str]:
    """Every card is in exactly one place (hands, melds, pile, stock, packets) and the places add
    up to the deck of the rules; known cards are in their hands."""
    problems = []
    rules = game.rules
    found: Counter = Counter()
    slots = 4 if game.players == 3 else rules.sides  # six players: two or three sides
    for player in range(game.players):
        hand = Counter(str(card) for card in game.hand(player))
        known = Counter(str(card) for card in game.known(player))
        if known - hand:
            problems.append(f"seat {player} knows {sorted((known - hand).elements())} that are "
                            f"not in its hand")
        found += hand
    for side in range(slots):
        for meld in game.melds(side):
            found.update(str(card) for card in meld.cards)
    found.update(str(card) for card in game.discard_pile)
    found.update(str(card) for card in game.stock)
    for _status, _owner, cards in game.pozzetti:
        found.update(str(card) for card in cards)
    deck = Counter({kind: rules.decks for kind in CARD_KINDS[:-1]})
    deck["Jk"] = rules.jokers
    if found != deck:
        problems.append(f"cards not conserved: too many {sorted((found - deck).elements())}, "
                        f"missing {sorted((deck - found).elements())}")
    if len(game.stock) != game.stock_size:
        problems.append(f"stock_size {game.stock_size} but {len(game.stock)} stock cards")
    return problems


_MELD_TEXT = re.compile(r"meld((?: (?:[A2-9TJQK][cdhs]|Jk))+)")


def _move_text(engine, text: Any, decks: int) -> str:
    """A record move read as one move, in its canonical text: ``Move(text)``, which reads a
    two-deck pack; a meld that holds a third copy of a card (three decks, docs/game.md "Three
    decks in the core") is read with the game's pack instead, its cards sorted as ``Move``
    sorts them."""
    try:
        return str(engine.Move(text))
    except Exception:
        found = _MELD_TEXT.fullmatch(text) if isinstance(text, str) and decks == 3 else None
        if found is None:
            raise
        return "meld " + str(engine.Cards(found.group(1).strip(), decks=3))


def _static_checks(engine, game, kind: str, value: Any) -> list[str]:
    """Round trip, conservation, liveness on one engine's accepted game."""
    problems = []
    text = game.state_string()
    if kind == "state" and text != value:
        problems.append(f"state_string() does not round trip:\n  given   {value}\n  written {text}")
    again, error = _outcome(lambda: engine.Game.from_state_string(text))
    if error is not None:
        problems.append(f"its own state string is refused: {_short(error)}")
    elif again.state_string() != text:
        problems.append("its own state string does not round trip")
    if kind == "record":
        record = value if isinstance(value, dict) else json.loads(value.lstrip("\ufeff"))
        moves = record.get("moves")
        if not isinstance(moves, list) or len(moves) != len(game.moves):
            problems.append(f"the record lists {len(moves) if isinstance(moves, list) else moves!r}"
                            f" moves, the game has {len(game.moves)}: each record move must be "
                            f"exactly one move (strict parsing, docs/records.md)")
        else:
            given_moves, error = _outcome(
                lambda: [_move_text(engine, m, game.rules.decks) for m in moves])
            if error is not None:
                problems.append(f"accepted a record move that is not one move: {_short(error)}")
            elif given_moves != _strings(game.moves):
                problems.append(f"the record's moves {given_moves} are not the game's "
                                f"{_strings(game.moves)}")
        written = _outcome(game.record)[0] or {}
        for name in ("format", "version", "rules", "first", "scores", "result"):
            if json.dumps(record.get(name), sort_keys=True) != json.dumps(written.get(name),
                                                                           sort_keys=True):
                problems.append(f"accepted the record field {name}={record.get(name)!r}, but "
                                f"the game's record has {written.get(name)!r} (an int field "
                                f"takes no bool or float: strict parsing, docs/records.md)")
        if record.get("seed") is not None and json.dumps(record["seed"]) != json.dumps(game.seed):
            problems.append(f"accepted seed={record['seed']!r}, the game's seed is {game.seed!r}")
        replayed, error = _outcome(lambda: engine.Game.from_record(game.record()))
        if error is not None:
            problems.append(f"its own record is refused: {_short(error)}")
        elif (replayed.state_string(), _strings(replayed.moves)) != (text, _strings(game.moves)):
            problems.append("its own record does not replay to the same game")
    if kind == "json":
        written, error = _outcome(lambda: json.loads(game.to_json()))
        if error is not None:
            problems.append(f"to_json() raised {_short(error)}")
        elif json.dumps(written, sort_keys=True) != json.dumps(json.loads(value.lstrip("\ufeff")),
                                                             sort_keys=True):
            problems.append("the accepted view is not what to_json() writes for its game (an "
                            "int field takes no bool or float: strict parsing, docs/records.md)")
    problems += _conservation(engine, game)
    moves = _strings(game.legal_moves())
    if game.is_over():
        if moves:
            problems.append(f"over, yet legal moves {moves}")
        _, error = _outcome(game.result)
        if error is not None:
            problems.append(f"over, yet result() raised {_short(error)}")
    elif not moves:
        problems.append("not over, yet no legal move")
    return problems


def compare_games(core_game, ref_game, accessors: bool = True) -> list[str]:
    """The two engines' games of one input agree on everything public (the accessors of
    docs/game.md only with ``accessors``: the state string already holds what they show)."""
    problems = []
    a, b = core_game.state_string(), ref_game.state_string()
    if a != b:
        fields_a, fields_b = dict(split_state(a)), dict(split_state(b))  # type: ignore[arg-type]
        differ = "; ".join(f"{name}: core {fields_a.get(name)!r}, reference {value!r}"
                           for name, value in fields_b.items() if fields_a.get(name) != value)
        problems.append(f"state strings differ in {differ}\n  core      {a}\n  reference {b}")
    a, b = _strings(core_game.legal_moves()), _strings(ref_game.legal_moves())
    if a != b:
        slots = 4 if core_game.players == 3 else core_game.rules.sides
        melds = sum(len(ref_game.melds(slot)) for slot in range(slots))
        only_core = [move for move in a if move not in b]
        only_reference = [move for move in b if move not in a]
        problems.append(f"legal moves differ ({melds} melds on the table): only the core lists "
                        f"{only_core}, only the reference {only_reference}; core {a}, "
                        f"reference {b}\n  in {ref_game.state_string()}")
    if accessors:
        view_a, error_a = _outcome(lambda: accessor_view(core_game))
        view_b, error_b = _outcome(lambda: accessor_view(ref_game))
        if (error_a is None) != (error_b is None) or view_a != view_b:
            problems.append(f"accessors differ: core {view_a or _short(error_a)}, "
                            f"reference {view_b or _short(error_b)}")
    if core_game.is_over() and ref_game.is_over():
        a, b = _outcome(lambda: result_view(core_game.result()))[0], \
            _outcome(lambda: result_view(ref_game.result()))[0]
        if a != b:
            problems.append(f"results differ: core {a}, reference {b}")
    return problems


def _lockstep_from(core_game, ref_game, seed: int, moves: int) -> list[str]:
    """A few random moves on both engines: the same legal moves and states after each."""
    rng = random.Random(seed)
    core_game, ref_game = core_game.copy(), ref_game.copy()
    for number in range(moves):
        if core_game.is_over() or ref_game.is_over():
            if core_game.is_over() != ref_game.is_over():
                return [f"after {number} lockstep moves one engine is over, the other not"]
            return []
        legal = _strings(core_game.legal_moves())
        if not legal:
            return [(f"not over, yet no legal move after {number} lockstep moves: "
                     f"{core_game.state_string()}")]
        move = legal[rng.randrange(len(legal))]
        for name, game in (("core", core_game), ("reference", ref_game)):
            _, error = _outcome(lambda game=game, move=move: game.push(move))
            if error is not None:
                return [(f"{name}: push({move!r}) after {number} lockstep moves raised "
                         f"{_short(error)}")]
        problems = compare_games(core_game, ref_game, accessors=number % 8 == 7)
        if problems:
            return [f"after lockstep move {number + 1} ({move}): " + p for p in problems]
    return []


def _playouts_from(core_game, ref_game, seed: int) -> list[str]:
    """Random and greedy playouts from the position end, within the cap, alike in both engines."""
    problems = []
    for policy in ("random", "greedy"):
        results = []
        for name, game in (("core", core_game), ("reference", ref_game)):
            copy_ = game.copy()
            played, error = _outcome(lambda copy_=copy_, policy=policy: copy_.playout(policy, seed))
            if error is not None:
                problems.append(f"{name}: playout({policy!r}, {seed}) raised {_short(error)}")
                results.append(None)
                continue
            if not copy_.is_over():
                problems.append(f"{name}: playout({policy!r}, {seed}) returned but the hand "
                                f"is not over")
            results.append((played, copy_.state_string()))
        if None not in results and results[0] != results[1]:
            problems.append(f"playout({policy!r}, {seed}) differs: core {results[0][0]} moves "
                            f"to {results[0][1]}, reference {results[1][0]} moves to "
                            f"{results[1][1]}")
    return problems


def deep_check(kind: str, value: Any, seed: int = 0) -> dict[str, Any]:
    """Both engines on one input (docs/game.md, docs/records.md): ``{"verdict": 'accepted' or
    'refused <class>', "problems": [...]}``; no problem means the input is handled as
    documented."""
    core, reference = engines()
    problems: list[str] = []
    games = {}
    errors = {}
    for name, engine in (("core", core), ("reference", reference)):
        given = copy.deepcopy(value)
        game, error = _outcome(lambda engine=engine, given=given: build_game(engine, kind, given))
        if given != value:
            problems.append(f"{name}: from_{kind} changed its argument")
        if error is not None:
            errors[name] = error
            if type(error).__name__ not in REFUSALS[kind]:
                problems.append(f"{name}: refused with {_short(error)} (expected one of "
                                f"{', '.join(REFUSALS[kind])})\n"
                                + "".join(traceback.format_exception(error)[-3:]))
        else:
            games[name] = game
    if len(games) == 1:
        (accepted,) = games
        refused = "reference" if accepted == "core" else "core"
        problems.append(f"{accepted} accepts, {refused} refuses with {_short(errors[refused])}")
    if len(errors) == 2 and type(errors["core"]) is not type(errors["reference"]):
        problems.append(f"refused with different classes: core {_short(errors['core'])}, "
                        f"reference {_short(errors['reference'])}")
    for name, game in games.items():
        engine = core if name == "core" else reference
        found, error = _outcome(
            lambda engine=engine, game=game: _static_checks(engine, game, kind, value))
        if error is not None:
            found = [f"a public call on the accepted game raised {_short(error)}\n"
                     + "".join(traceback.format_exception(error)[-3:])]
        problems += [f"{name}: {p}" for p in found]
    if len(games) == 2:
        problems += compare_games(games["core"], games["reference"])
        if not problems:
            problems += _lockstep_from(games["core"], games["reference"], seed, LOCKSTEP_MOVES)
        if not problems:
            problems += _playouts_from(games["core"], games["reference"], seed)
    if errors and not games:
        verdict = "refused " + type(errors["core"]).__name__
    elif len(games) == 2:
        verdict = "accepted"
    else:
        verdict = "split"
    return {"verdict": verdict, "problems": problems}


# ---- one hand under random rules, core against reference -----------------------------------------


def _policy_seed(seed: int, step: int) -> int:
    return (seed * 1_000_003 + step) % 2**64


def rules_hand(rules_text: str, seed: int, policy: str, batch: bool = False) -> dict[str, Any]:
    """One hand of ``Rules(preset, **overrides)`` (``rules_text`` is their repr) on both engines:

    * the Rules, then the deal, are accepted by both or refused by both with the same class
      (then the verdict is 'refused' and nothing else is compared);
    * every move: the state strings and the legal moves are equal, both engines'
      ``policy_move(policy, s)`` give the same move (``s`` a fresh seed per move for
      ``'random'``), it is legal, and it does not return to a position of this turn (RULES H-38
      leaves no legal move that could: docs/search.md "Candidates"); the hand ends within
      MAX_HAND_MOVES;
    * at the end the results are equal; then ``playout(policy, seed)`` from the deal, and with
      ``batch`` ``playouts(rules, 3, seed=seed, policy=policy)``, are equal in both engines.
    """
    core, reference = engines()
    preset, overrides = rules_from_text(rules_text)
    problems: list[str] = []
    counts = {"hands": 0, "moves": 0}
    rules = {}
    errors = {}
    for name, engine in (("core", core), ("reference", reference)):
        made, error = _outcome(lambda engine=engine: engine.Rules(preset, **overrides))
        if error is None:
            rules[name] = made
            made, error = _outcome(lambda engine=engine, r=made: engine.Game(r, seed=seed))
        if error is not None:
            errors[name] = error
    if errors:
        if len(errors) == 2 and type(errors["core"]) is type(errors["reference"]):
            return {"verdict": "refused", "problems": [], **counts,
                    "why": _short(errors["core"])}
        return {"verdict": "split", **counts, "problems": [
            f"{name}: {_short(error)}" for name, error in errors.items()]
            + [f"{name} accepts" for name in ("core", "reference") if name not in errors]}
    a, b = rules["core"].knobs(), rules["reference"].knobs()
    if a != b:
        problems.append(f"knobs differ: core {a}, reference {b}")
    games = {name: engine.Game(rules[name], seed=seed)
             for name, engine in (("core", core), ("reference", reference))}
    turn_positions: set[str] = set()
    step = 0
    while True:
        state = games["core"].state_string()
        diffs = compare_games(games["core"], games["reference"],
                              accessors=step % 8 == 0 or games["core"].is_over())
        if diffs:
            problems += [f"move {step}: {d}" for d in diffs]
            break
        if games["core"].phase == "draw":  # a turn begins: its positions so far
            turn_positions = {state}
        else:
            turn_positions.add(state)
        if games["core"].is_over():
            counts["hands"] = 1
            break
        legal = _strings(games["core"].legal_moves())
        if not legal:
            problems.append(f"move {step}: not over, yet no legal move: {state}")
            break
        if step >= MAX_HAND_MOVES:
            problems.append(f"not over after {MAX_HAND_MOVES} moves: {state}")
            break
        policy_seed = _policy_seed(seed, step)
        chosen = {}
        for name, game in games.items():
            move, error = _outcome(lambda game=game, policy_seed=policy_seed: str(
                game.policy_move(policy, policy_seed)))
            if error is not None:
                problems.append(f"move {step}: {name}: policy_move({policy!r}, {policy_seed}) "
                                f"raised {_short(error)}")
            chosen[name] = move
        if problems:
            break
        if chosen["core"] != chosen["reference"]:
            problems.append(f"move {step}: policy_move({policy!r}, {policy_seed}) differs: core "
                            f"{chosen['core']!r}, reference {chosen['reference']!r} in {state}")
            break
        move = chosen["core"]
        if move not in legal:
            problems.append(f"move {step}: policy_move chose {move!r}, not legal in {state}")
            break
        for name, game in games.items():
            _, error = _outcome(lambda game=game, move=move: game.push(move))
            if error is not None:
                problems.append(f"move {step}: {name}: push({move!r}) raised {_short(error)}")
        if problems:
            break
        step += 1
        counts["moves"] += 1
        after = games["core"].state_string()
        if games["core"].phase == "meld" and after in turn_positions:
            problems.append(f"move {step}: {policy} chose {move!r}, which returns to a "
                            f"position of this turn (RULES H-38 makes no such move legal): "
                            f"{state}")
            break
    if not problems:
        problems += _whole_playouts(core, reference, rules, seed, policy, batch)
    return {"verdict": "played", "problems": problems, **counts}


def _whole_playouts(core, reference, rules, seed: int, policy: str, batch: bool) -> list[str]:
    problems = []
    ends = []
    for name, engine in (("core", core), ("reference", reference)):
        game = engine.Game(rules[name], seed=seed)
        played, error = _outcome(lambda game=game: game.playout(policy, seed))
        if error is not None:
            problems.append(f"{name}: Game(rules, seed={seed}).playout({policy!r}, {seed}) "
                            f"raised {_short(error)}")
            ends.append(None)
        else:
            ends.append((played, game.state_string(),
                         _outcome(lambda game=game: result_view(game.result()))[0]))
    if None not in ends and ends[0] != ends[1]:
        problems.append(f"playout({policy!r}, {seed}) differs: core {ends[0][0]} moves to "
                        f"{ends[0][1]}, reference {ends[1][0]} moves to {ends[1][1]}")
    if batch and not problems:
        tables = []
        for name, engine in (("core", core), ("reference", reference)):
            table, error = _outcome(lambda engine=engine, name=name: engine.playouts(
                rules[name], 3, seed=seed, policy=policy))
            if error is not None:
                problems.append(f"{name}: playouts(rules, 3, seed={seed}, policy={policy!r}) "
                                f"raised {_short(error)}")
                return problems
            tables.append({key: [list(map(int, row)) if hasattr(row, "__len__") else int(row)
                                 for row in value] for key, value in table.items()})
        if tables[0] != tables[1]:
            problems.append(f"playouts(rules, 3, seed={seed}, policy={policy!r}) differ: core "
                            f"{tables[0]}, reference {tables[1]}")
    return problems


# ---- the worker process --------------------------------------------------------------------------


def handle(request: dict[str, Any]) -> dict[str, Any]:
    op = request["op"]
    try:
        if op == "check":
            return deep_check(request["kind"], request["input"], request.get("seed", 0))
        if op == "rules_hand":
            return rules_hand(request["rules"], request["seed"], request["policy"],
                              request.get("batch", False))
        if op == "parse":  # each engine's answer to one input: 'accepted' or the error class
            core, reference = engines()
            answers = {}
            for name, engine in (("core", core), ("reference", reference)):
                _, error = _outcome(lambda engine=engine: build_game(
                    engine, request["kind"], copy.deepcopy(request["input"])))
                answers[name] = "accepted" if error is None else type(error).__name__
            return {"answers": answers, "problems": []}
        if op == "call":  # a snippet run with both engines in scope (explicit examples)
            core, reference = engines()
            scope = {"core": core, "reference": reference, "result": None}
            exec(request["code"], scope)  # noqa: S102 - test code written in this repository
            return {"result": scope["result"], "problems": []}
    except Exception as error:  # noqa: BLE001 - a bug of the checker itself is a problem too
        return {"verdict": "checker error", "problems": [
            "the checker raised: " + "".join(traceback.format_exception(error))]}
    raise ValueError(f"unknown op {op!r}")


def serve() -> None:
    """The worker's loop: one JSON request per line on stdin, one JSON answer per line on
    stdout."""
    import faulthandler

    faulthandler.enable()
    limit = int(os.environ.get("FUZZ_MEMORY_LIMIT_MB", "4096"))
    sanitized = "asan" in os.environ.get("LD_PRELOAD", "") or "ASAN_OPTIONS" in os.environ
    if limit and not sanitized:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (limit << 20, limit << 20))
    out = sys.stdout
    sys.stdout = sys.stderr  # stray prints must not break the protocol
    for line in sys.stdin:
        answer = handle(json.loads(line))
        out.write(json.dumps(answer) + "\n")
        out.flush()


class Worker:
    """A child process running :func:`serve`; :meth:`call` sends one request and waits at most
    ``timeout`` seconds. A crash or a timeout becomes an answer with a problem (the child is then
    restarted), so an engine that segfaults or hangs fails a test instead of ending the run."""

    def __init__(self, timeout: float | None = None):
        self.timeout = timeout or float(os.environ.get("FUZZ_TIMEOUT", "90"))
        self.process: subprocess.Popen | None = None
        self.stderr = None
        self.calls = 0

    def _start(self) -> None:
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115 - open as long as the child
        code = f"import sys; sys.path.insert(0, {HERE!r}); import fuzzing; fuzzing.serve()"
        self.process = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=self.stderr, text=True,
                                        bufsize=1)

    def _stderr_tail(self) -> str:
        assert self.stderr is not None
        self.stderr.seek(0)
        return self.stderr.read().decode("utf-8", "replace")[-3000:]

    def call(self, request: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        if self.process is None or self.process.poll() is not None:
            self._start()
        assert self.process is not None and self.process.stdin and self.process.stdout
        self.calls += 1
        limit = timeout or self.timeout
        try:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            pass
        ready, _, _ = select.select([self.process.stdout], [], [], limit)
        if not ready:
            self.process.kill()
            self.process.wait()
            self.process = None
            return {"verdict": "hang", "problems": [
                f"no answer within {limit:.0f} s: a hang (a loop that never ends?)"]}
        line = self.process.stdout.readline()
        if not line:
            code = self.process.wait()
            tail = self._stderr_tail()
            self.process = None
            return {"verdict": "crash", "problems": [
                f"the engine process died (exit status {code}"
                + (f", signal {-code}" if code < 0 else "") + f"):\n{tail}"]}
        return json.loads(line)

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.stdin.close()  # type: ignore[union-attr]
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


def describe_input(kind: str, value: Any) -> str:
    return json.dumps({"kind": kind, "input": value})[:20000]


__all__ = [
    "GAME_RULES", "KNOB_DOMAINS", "MAX_HAND_MOVES", "REFUSALS", "Worker", "deep_check",
    "engine_made", "mutate_record", "mutate_state", "mutate_view", "mutated_records",
    "mutated_states", "mutated_views", "records", "rule_sets", "rules_hand", "states", "views",
]
