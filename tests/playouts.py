"""Seeded random playouts of whole hands, shared by the game-level differential and invariant tests
and by ``tools/perft.py --build`` (docs/game.md; docs/architecture.md §7).

* :data:`GAME_RULES`: the rule sets every game-level test plays: each preset of ``Rules.PRESETS``
  (the core's, read here) and ``Rules('brazilian', players=2)``, with a readable id.
* Policies pick a move from a list of move *strings* with a seeded ``random.Random``, so that the
  same choice can be made for both engines (their lists must be equal anyway):

  - ``'draw'`` (:func:`pick_mostly_draw`): draws from the stock nine times in ten and otherwise
    plays uniformly at random. With uniform random moves most two-player hands end in deadlock
    within a few dozen moves (a one-card pile taken and a card discarded, again and again).
  - ``'meld'`` (:func:`pick_melds_first`): takes the pile now and then (sometimes hands of 30+
    cards), and in the meld phase prefers lay-offs and long new melds to discarding, so that long
    melds, burraco, pozzetti (on the fly and by discarding), short brazilian openings, deadlocks
    and closings are reached often.

* :func:`lockstep` plays one hand on both engines at once, comparing at every step the state
  string, the legal moves (as strings), the public accessors and, at the end, the result, and
  returns a :class:`Playout` with the first disagreement (if any) and what the hand went through
  (:class:`Events`), read off the reference's state strings.

Nothing here knows either engine's internals: only the public API of docs/game.md.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import burraco

# (id, preset, knobs): every rule set the game-level tests play.
GAME_RULES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    *((preset, preset, {}) for preset in burraco.Rules.PRESETS),
    ("brazilian-2p", "brazilian", {"players": 2}),
)
RULES_IDS = tuple(rules_id for rules_id, _, _ in GAME_RULES)
# Three-deck tables with 2, 3 and 4 players (162 cards, six jokers; docs/game.md "Six players"),
# which tests/test_three_decks.py plays in lockstep; not in GAME_RULES, whose tests pin two decks.
THREE_DECK_RULES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("brazilian-2p-3d", "brazilian", {"players": 2, "decks": 3, "jokers": 6}),
    ("italian-3p-3d", "italian-3p", {"decks": 3, "jokers": 6}),
    ("brazilian-3d", "brazilian", {"decks": 3, "jokers": 6}),
)
# Six-player tables (RULES F.7): three sides of two and two sides of three, which
# tests/test_six_players.py plays in lockstep.
SIX_PLAYER_RULES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("brazilian-6p", "brazilian", {"players": 6}),
    ("brazilian-6p-2s", "brazilian", {"players": 6, "sides": 2}),
)
RULES_BY_ID = {rules_id: (preset, knobs)
               for rules_id, preset, knobs in GAME_RULES + THREE_DECK_RULES + SIX_PLAYER_RULES}

POLICIES = ("draw", "meld")

# A hand that has not ended after this many moves is reported (D.4 makes every hand finite; the
# longest seeded hands here take about a thousand moves).
MAX_MOVES = 5000

# The public accessors are compared at the start, at the end and every this many moves (the state
# string, compared at every step, already holds everything they show).
ACCESSORS_EVERY = 8

DRAW_KINDS = ("draw", "pile", "keep", "reject")


def make_rules(engine, rules_id: str):
    preset, knobs = RULES_BY_ID[rules_id]
    return engine.Rules(preset, **knobs)


def policy_rng(policy: str, rules_id: str, seed: int) -> random.Random:
    """The move-choice generator of one hand: the same for both engines, independent of the deal
    generator (a ``str`` seed is hashed by ``random`` the same way on every platform)."""
    return random.Random(f"{policy}:{rules_id}:{seed}")


def kind_of(move: str) -> str:
    return move.split(" ", 1)[0]


# ---- policies -----------------------------------------------------------------------------------


def pick_mostly_draw(rng: random.Random, moves: list[str]) -> int:
    """Draw phase: ``draw`` nine times in ten when it is legal, else a uniform choice (``pile``,
    or ``keep``/``reject``). Meld phase: uniform over every legal move."""
    if "draw" in moves and rng.random() < 0.9:
        return moves.index("draw")
    return rng.randrange(len(moves))


def pick_melds_first(rng: random.Random, moves: list[str]) -> int:
    """Draw phase: ``pile`` one time in five when it is legal, else ``draw`` (uniform over
    ``keep``/``reject``). Meld phase: nine times in ten a lay-off or a new meld if there is one
    (a lay-off three times in four, which grows melds long; else half of the time one of the
    longest new melds), else a uniform discard."""
    kinds = [kind_of(move) for move in moves]
    if kinds[0] in DRAW_KINDS:
        if "pile" in kinds and rng.random() < 0.2:
            return kinds.index("pile")
        if "draw" in kinds:
            return kinds.index("draw")
        return rng.randrange(len(moves))
    adds = [i for i, kind in enumerate(kinds) if kind == "add"]
    melds = [i for i, kind in enumerate(kinds) if kind == "meld"]
    discards = [i for i, kind in enumerate(kinds) if kind == "discard"]
    if (adds or melds) and (not discards or rng.random() < 0.9):
        if adds and (not melds or rng.random() < 0.75):
            return rng.choice(adds)
        if rng.random() < 0.5:
            longest = max(len(moves[i].split()) for i in melds)
            return rng.choice([i for i in melds if len(moves[i].split()) == longest])
        return rng.choice(melds)
    return rng.choice(discards or range(len(moves)))


PICK: dict[str, Callable[[random.Random, list[str]], int]] = {
    "draw": pick_mostly_draw,
    "meld": pick_melds_first,
}


# ---- state strings, read without an engine ------------------------------------------------------


def state_fields(text: str) -> dict[str, str]:
    """The ``name=value`` fields of a version-1 state string (docs/game.md)."""
    return dict(part.split("=", 1) for part in text.split(";"))


_WILD_TAG = re.compile(r"\(=[^)]*\)|@\d+")


def card_names(text: str) -> list[str]:
    """The 2-character card names of a state-string card list (``-`` is empty)."""
    if text in ("-", ""):
        return []
    return [text[i : i + 2] for i in range(0, len(text), 2)]


def meld_layouts(field_value: str) -> list[list[list[str]]]:
    """The ``melds`` field as per side slot, per meld, its cards (wild tags and ``@n`` dropped)."""
    slots = []
    for slot in field_value.split("/"):
        slots.append([] if slot == "-" else [card_names(_WILD_TAG.sub("", m)) for m in slot.split("+")])
    return slots


def state_cards(text: str) -> Counter:
    """Every card a state string places, counted once per place it is in: hands, melds, pile,
    stock and the packets that still list cards (untaken, face down, seen)."""
    fields = state_fields(text)
    found: Counter = Counter()
    for hand in fields["hands"].split("/"):
        found.update(card_names(hand))
    for slot in meld_layouts(fields["melds"]):
        for meld in slot:
            found.update(meld)
    found.update(card_names(fields["pile"]))
    found.update(card_names(fields["stock"]))
    for packet in fields["pozzetti"].split("/"):
        found.update(card_names(packet.split(":", 1)[1]))
    return found


def full_deck(rules) -> Counter:
    """The deck of a ``Rules`` (two copies of each suited card, ``rules.jokers`` jokers)."""
    deck = Counter({rank + suit: rules.decks for suit in "cdhs" for rank in "A23456789TJQK"})
    deck["Jk"] = rules.jokers
    return deck


# ---- what a hand went through -------------------------------------------------------------------


@dataclass
class Events:
    """Counts of the situations a set of hands reached (read off state strings and moves)."""

    hands: int = 0
    moves: int = 0
    ends: Counter = field(default_factory=Counter)
    pile_takes: int = 0
    big_hands: int = 0  # a hand of 30+ cards after a pile take
    burraco: int = 0  # hands in which some meld reached 7+ cards
    long_melds: int = 0  # hands in which some meld reached 11+ cards
    on_the_fly: int = 0  # a packet joined a hand during the meld phase
    face_down: int = 0  # a packet taken by discarding the last card
    packet_stock: int = 0  # a packet became the stock (D.3)
    split: int = 0  # a 3p hand whose sides were formed (F.6)
    short_openings: int = 0  # a brazilian opening fell short (the requirement rose)
    last_turns: int = 0  # a draw left the threshold (D.2)
    holds: int = 0  # a one-card pile taken (C.5 hold)

    def add(self, other: Events) -> None:
        for name in self.__dataclass_fields__:
            value = getattr(other, name)
            if isinstance(value, Counter):
                getattr(self, name).update(value)
            else:
                setattr(self, name, getattr(self, name) + value)

    def summary(self) -> str:
        ends = ", ".join(f"{reason} {count}" for reason, count in sorted(self.ends.items()))
        names = [name for name in self.__dataclass_fields__ if name not in ("hands", "moves", "ends")]
        return f"{self.hands} hands, {self.moves} moves ({ends}); " + ", ".join(
            f"{name} {getattr(self, name)}" for name in names
        )


class _Tracker:
    """Feeds :class:`Events` from the successive state strings of one hand."""

    def __init__(self, first_state: str):
        self.events = Events(hands=1)
        self.flags: set[str] = set()
        fields = state_fields(first_state)
        self.first_need = [int(n) for n in fields["need"].split(",")]
        self.packets = fields["pozzetti"].split("/")

    def after(self, move: str, state: str) -> None:
        events = self.events
        events.moves += 1
        fields = state_fields(state)
        flags = self.flags
        if move == "pile":
            events.pile_takes += 1
            if "hold" not in flags and fields["hold"] != "-":
                flags.add("hold")
                events.holds += 1
            hand = card_names(fields["hands"].split("/")[int(fields["turn"])])
            if len(hand) >= 30 and "big" not in flags:
                flags.add("big")
                events.big_hands += 1
        longest = max((len(m) for slot in meld_layouts(fields["melds"]) for m in slot), default=0)
        if longest >= 7 and "burraco" not in flags:
            flags.add("burraco")
            events.burraco += 1
        if longest >= 11 and "long" not in flags:
            flags.add("long")
            events.long_melds += 1
        packets = fields["pozzetti"].split("/")
        for before, now in zip(self.packets, packets):
            if before[0] == "u" and now[0] != "u":
                if now[0] == "h":
                    events.on_the_fly += 1
                elif now[0] in "fs":
                    events.face_down += 1
                elif now[0] == "x":
                    events.packet_stock += 1
        self.packets = packets
        if fields["split"] != "-" and "split" not in flags:
            flags.add("split")
            events.split += 1
        need = [int(n) for n in fields["need"].split(",")]
        if need != self.first_need and "short" not in flags:
            flags.add("short")
            events.short_openings += 1
        if "l" in fields["turnflags"] and "last" not in flags:
            flags.add("last")
            events.last_turns += 1
        if fields["end"] != "-":
            events.ends[fields["end"].split(":")[0]] += 1


# ---- lockstep playouts --------------------------------------------------------------------------


def attempt(call: Callable[[], Any]) -> tuple[Any, BaseException | None]:
    try:
        return call(), None
    except Exception as exc:  # noqa: BLE001 - every outcome is compared between the engines
        return None, exc


def outcome(call: Callable[[], Any]) -> Any:
    """A value, or the exception's class name (messages may differ between engines)."""
    value, exc = attempt(call)
    return value if exc is None else f"<{type(exc).__name__}>"


def result_view(result) -> dict[str, Any]:
    """Every field of a finished hand's ``Result`` as plain data."""
    scores = result.player_scores
    return {
        "end_reason": result.end_reason,
        "closing_side": result.closing_side,
        "player_scores": None if scores is None else tuple(scores),
        "sides": tuple(
            tuple((name, getattr(side, name)) for name in
                  ("side", "melds", "bonuses", "closing", "hand", "pozzetto", "cut", "total"))
            for side in result.sides
        ),
    }


def accessor_view(game) -> dict[str, Any]:
    """The public accessors of docs/game.md "Other accessors", as plain data."""
    players = game.players
    slots = 4 if players == 3 else game.rules.sides
    return {
        "turn": game.turn,
        "phase": game.phase,
        "is_over": game.is_over(),
        "end_reason": game.end_reason,
        "hands": tuple(str(game.hand(p)) for p in range(players)),
        "known": tuple(str(game.known(p)) for p in range(players)),
        "side_of": tuple(game.side_of(p) for p in range(players)),
        "sides": tuple(game.sides),
        "melds": tuple(tuple(str(m) for m in game.melds(s)) for s in range(slots)),
        "discard_pile": str(game.discard_pile),
        "top_discard": None if game.top_discard is None else str(game.top_discard),
        "stock_size": game.stock_size,
        "stock": tuple(str(c) for c in game.stock),
        "pozzetti": tuple((status, owner, str(cards)) for status, owner, cards in game.pozzetti),
        "cut_side": game.cut_side,
        "scores": tuple(game.scores),
        "moves": tuple(str(m) for m in game.moves),
    }


@dataclass
class Disagreement:
    """The first point where the engines differ in one hand: enough to replay and to report."""

    rules_id: str
    seed: int
    policy: str
    move_number: int  # moves played before the difference
    what: str
    state: str  # the reference's state string at that point
    core: Any
    reference: Any
    moves: list[str]

    def fields(self) -> dict[str, tuple[str, str]]:
        """For a state-string difference: the fields that differ, ``name: (core, reference)``."""
        if not (isinstance(self.core, str) and isinstance(self.reference, str)
                and self.core.startswith("v=") and self.reference.startswith("v=")):
            return {}
        core, reference = state_fields(self.core), state_fields(self.reference)
        return {name: (core.get(name, "<absent>"), value) for name, value in reference.items()
                if core.get(name) != value}

    def __str__(self) -> str:
        fields = self.fields()
        answers = (
            "".join(f"\n  {name}: core {c!r}, reference {r!r}" for name, (c, r) in fields.items())
            if fields else f"\n  core:      {self.core!r}\n  reference: {self.reference!r}"
        )
        return (
            f"{self.rules_id} seed={self.seed} policy={self.policy} move {self.move_number}: "
            f"{self.what} differs{answers}\n  state (reference): {self.state}\n"
            f"  moves: {' | '.join(self.moves)}"
        )


@dataclass
class Playout:
    rules_id: str
    seed: int
    policy: str
    moves: list[str]
    end_reason: str | None
    events: Events
    disagreement: Disagreement | None = None


def _first_difference(core: Any, reference: Any) -> tuple[str, Any, Any] | None:
    if not isinstance(core, dict) or not isinstance(reference, dict):
        return None if core == reference else ("(raised)", core, reference)
    for name, value in reference.items():
        if core.get(name) != value:
            return name, core.get(name), value
    return None


def lockstep(core, reference, rules_id: str, seed: int, policy: str,
             max_moves: int = MAX_MOVES, accessors_every: int = ACCESSORS_EVERY,
             choose: Callable[[random.Random, list[str]], int] | None = None,
             stop_after: int | None = None) -> Playout:
    """Play the hand dealt by ``seed`` on both engines, choosing each move with the policy (or
    ``choose``) from the core's list, and compare at every step the state string and the legal
    moves, every ``accessors_every`` steps (and at the start and the end) the public accessors,
    and at the end the result. Stops at the first disagreement, or quietly after ``stop_after``
    moves (a hand that has not ended after ``max_moves`` is a disagreement)."""
    core_game = core.Game(make_rules(core, rules_id), seed=seed)
    ref_game = reference.Game(make_rules(reference, rules_id), seed=seed)
    rng = policy_rng(policy, rules_id, seed)
    pick = choose or PICK[policy]
    played: list[str] = []
    tracker: _Tracker | None = None

    def disagree(what: str, core_answer: Any, ref_answer: Any) -> Playout:
        found = Disagreement(rules_id, seed, policy, len(played), what,
                             outcome(ref_game.state_string), core_answer, ref_answer, list(played))
        return Playout(rules_id, seed, policy, played, None,
                       tracker.events if tracker else Events(), found)

    while True:
        core_state, ref_state = outcome(core_game.state_string), outcome(ref_game.state_string)
        if core_state != ref_state:
            return disagree("state_string()", core_state, ref_state)
        if tracker is None:
            tracker = _Tracker(ref_state)
        elif played:
            tracker.after(played[-1], ref_state)
        core_moves = outcome(lambda: [str(m) for m in core_game.legal_moves()])
        ref_moves = outcome(lambda: [str(m) for m in ref_game.legal_moves()])
        if core_moves != ref_moves:
            return disagree("legal_moves()", core_moves, ref_moves)
        over = ref_game.is_over()
        if over or len(played) % accessors_every == 0:
            difference = _first_difference(outcome(lambda: accessor_view(core_game)),
                                           outcome(lambda: accessor_view(ref_game)))
            if difference is not None:
                name, core_value, ref_value = difference
                return disagree(f"accessor {name}", core_value, ref_value)
        if over:
            core_result = outcome(lambda: result_view(core_game.result()))
            ref_result = outcome(lambda: result_view(ref_game.result()))
            if core_result != ref_result:
                return disagree("result()", core_result, ref_result)
            return Playout(rules_id, seed, policy, played, ref_game.end_reason, tracker.events)
        if not isinstance(core_moves, list) or not core_moves:
            return disagree("legal_moves() before the end", core_moves, ref_moves)
        if stop_after is not None and len(played) >= stop_after:
            return Playout(rules_id, seed, policy, played, None, tracker.events)
        if len(played) >= max_moves:
            return disagree(f"hand not over after {max_moves} moves", "-", "-")
        index = pick(rng, core_moves)
        move = core_moves[index]
        core_pushed = outcome(lambda index=index: core_game.push(core_game.legal_moves()[index]))
        ref_pushed = outcome(lambda move=move: ref_game.push(move))
        played.append(move)
        if core_pushed is not None or ref_pushed is not None:
            return disagree(f"push({move!r})", core_pushed, ref_pushed)


def _lockstep_seeds(job: tuple[str, str, list[int]]) -> list[Playout]:
    import importlib

    rules_id, policy, chunk = job
    core = importlib.import_module("burraco")
    reference = importlib.import_module("burraco.reference")
    return [lockstep(core, reference, rules_id, seed, policy) for seed in chunk]


def lockstep_many(rules_id: str, policy: str, seeds: Iterable[int],
                  workers: int | None = None) -> list[Playout]:
    """:func:`lockstep` over many seeds, spread over ``workers`` processes (default: every core;
    the hands are independent, and the reference engine is pure Python), in seed order. Under
    pytest-xdist the default is this process alone: xdist already keeps every core busy, and a
    pool beside it would only slow the other tests down."""
    seeds = list(seeds)
    if workers is None and os.environ.get("PYTEST_XDIST_WORKER"):
        workers = 1
    workers = workers or os.cpu_count() or 1
    chunks = [seeds[i : i + 5] for i in range(0, len(seeds), 5)]
    jobs = [(rules_id, policy, chunk) for chunk in chunks]
    if workers <= 1 or len(chunks) <= 1:
        results = [_lockstep_seeds(job) for job in jobs]
    else:
        with multiprocessing.get_context("fork").Pool(min(workers, len(chunks))) as pool:
            results = pool.map(_lockstep_seeds, jobs, chunksize=1)
    return [playout for chunk in results for playout in chunk]


def play(engine, rules_id: str, seed: int, policy: str,
         on_step: Callable[[Any, list], None] | None = None,
         max_moves: int = MAX_MOVES) -> Any:
    """One hand on one engine with a policy; ``on_step(game, legal_moves)`` before each move (and
    once at the end, with an empty list). Returns the finished game."""
    game = engine.Game(make_rules(engine, rules_id), seed=seed)
    rng = policy_rng(policy, rules_id, seed)
    pick = PICK[policy]
    for _ in range(max_moves):
        moves = game.legal_moves()
        if on_step is not None:
            on_step(game, moves)
        if game.is_over():
            return game
        assert moves, f"no legal move before the end: {game.state_string()}"
        game.push(moves[pick(rng, [str(m) for m in moves])])
    raise AssertionError(f"{rules_id} seed {seed}: not over after {max_moves} moves")


def seeds(count: int, start: int = 0) -> Iterable[int]:
    return range(start, start + count)


def sample_states(engine, rules_id: str, hands, every: int) -> tuple[str, ...]:
    """State strings of seeded hands of a rule set played on ``engine``: every ``every``-th state
    and the last of each hand; ``hands`` is a sequence of (policy, seed)."""
    states: list[str] = []
    for policy, seed in hands:
        steps = 0

        def keep(game, _moves):
            nonlocal steps
            if steps % every == 0 or game.is_over():
                states.append(game.state_string())
            steps += 1

        play(engine, rules_id, seed, policy, on_step=keep)
    return tuple(states)
