"""Invariants over seeded random playouts, on both engines (the ``engine`` fixture; docs/game.md;
docs/architecture.md §7 "Invariants"; OpenSpiel's random simulation test).

Every rule set of ``playouts.GAME_RULES``, both move policies of ``playouts``, seeded hands
(seeds 0, 1, ...) until ``STEPS[engine]`` states have been checked. At every state:

* conservation: every card of the deck is in exactly one place (hands, melds, pile, stock,
  untaken / face-down / seen pozzetti), counted twice: from the public accessors and from the
  state string;
* the state string round-trips: ``Game.from_state_string(s).state_string() == s``;
* a state that is not over has a legal move, a state that is over has none (and ``phase`` says
  ``over`` exactly then); every hand ends (within ``playouts.MAX_MOVES`` moves) with a result.

At every ``SWEEP_EVERY[engine]``-th state (the core: every third state; every other state in the
slow run) and at every end, a full sweep:

* the game read back from the state string lists the same legal moves;
* every listed move is accepted by ``push`` (which appends it to ``moves``) and undone by ``pop``
  (which returns it) back to the same state string: the push/pop identity (the reference, which
  is slow, pushes the first, the last and ``PUSH_SAMPLE`` random ones of a longer list; the core
  pushes them all, and the differential tests hold the two lists equal);
* a sample of unlisted moves is refused with ``IllegalMoveError`` and changes nothing (state
  string and move list, compared after the sample): each of the 53 discards, a lay-off of each of
  the 53 card kinds onto each meld index of the acting side and the first index past the end,
  ``draw``/``pile``/``keep``/``reject``, and up to 20 three-card melds from the hand's cards;
* ``copy()`` is an independent game with the same state and history.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import playouts
import pytest
from conftest import engine_name

from burraco import IllegalMoveError

SUITS = "cdhs"
RANKS = "A23456789TJQK"
CARD_KINDS = [rank + suit for suit in SUITS for rank in RANKS] + ["Jk"]

# Each test plays seeded hands (seeds 0, 1, ...) until it has checked STEPS states (the slow run:
# SLOW_STEPS more, from seed SLOW_FIRST_SEED on).
STEPS = {"core": 100, "reference": 50}
SLOW_STEPS = {"core": 20000, "reference": 3000}
SLOW_FIRST_SEED = 1_000_000
# The full sweep (listed moves pushed and popped, unlisted moves refused, copy) runs at every
# SWEEP_EVERY-th state (SLOW_SWEEP_EVERY in the slow run) and at the end of each hand; it pushes
# every listed move, or for a list longer than PUSH_SAMPLE the first, the last and PUSH_SAMPLE
# more drawn at random.
SWEEP_EVERY = {"core": 3, "reference": 12}
SLOW_SWEEP_EVERY = {"core": 2, "reference": 5}
PUSH_SAMPLE = {"core": 10**9, "reference": 40}


def accessor_cards(game):
    """Every card placed by the public accessors, once per place."""
    found: Counter = Counter()
    for player in range(game.players):
        found.update(str(card) for card in game.hand(player))
    for side in range(4 if game.players == 3 else 2):
        for meld in game.melds(side):
            found.update(str(card) for card in meld.cards)
    found.update(str(card) for card in game.discard_pile)
    found.update(str(card) for card in game.stock)
    for status, _owner, cards in game.pozzetti:
        if status in ("untaken", "face_down", "seen"):
            found.update(str(card) for card in cards)
        else:
            assert not cards, f"a packet {status} still lists cards {cards}"
    return found


def unlisted_candidates(engine, game, legal: set[str], rng: random.Random) -> list[str]:
    """Moves to try that are not in the legal list (compared in canonical notation)."""
    candidates = ["draw", "pile", "keep", "reject"]
    candidates += [f"discard {card}" for card in CARD_KINDS]
    melds = len(game.melds(game.side_of(game.turn)))
    candidates += [f"add {index} {card}" for index in range(melds + 1) for card in CARD_KINDS]
    hand = sorted({str(card) for card in game.hand(game.turn)}, key=CARD_KINDS.index)
    combos = list(itertools.combinations(hand, 3))
    candidates += ["meld " + " ".join(c) for c in rng.sample(combos, min(20, len(combos)))]
    candidates.append("meld Ac 2c 3c")
    return [move for move in candidates if str(engine.Move(move)) not in legal]


def check_state(engine, game, legal: list, full_sweep: bool, rng: random.Random, where: str):
    rules = game.rules
    state = game.state_string()
    deck = playouts.full_deck(rules)
    assert playouts.state_cards(state) == deck, f"{where}: state string cards not conserved"
    assert accessor_cards(game) == deck, f"{where}: accessor cards not conserved"

    restored = engine.Game.from_state_string(state)
    assert restored.state_string() == state, f"{where}: state string round trip"

    over = game.is_over()
    assert (game.phase == "over") == over, where
    assert bool(legal) != over, f"{where}: {len(legal)} legal moves, over={over}"
    if not full_sweep:
        return
    assert [str(m) for m in restored.legal_moves()] == [str(m) for m in legal], (
        f"{where}: the game read back lists other moves"
    )

    history = [str(move) for move in game.moves]
    tried = legal
    if len(legal) > PUSH_SAMPLE[engine_name(engine)]:
        tried = [legal[0], legal[-1]] + rng.sample(legal, PUSH_SAMPLE[engine_name(engine)])
    for index, move in enumerate(tried):
        game.push(move)
        if index == 0:  # ``moves`` is built anew on each access: look at it once
            assert [str(m) for m in game.moves] == history + [str(move)], f"{where}: {move}"
        assert game.pop() == move, f"{where}: pop after {move}"
        assert game.state_string() == state, f"{where}: push/pop of {move} changed the state"

    legal_text = {str(move) for move in legal}
    for text in unlisted_candidates(engine, game, legal_text, rng):
        try:
            game.push(text)
        except IllegalMoveError:
            pass
        else:
            raise AssertionError(f"{where}: {text!r} is not listed, but push accepted it")
    assert game.state_string() == state, f"{where}: a refused move changed the state"
    assert [str(m) for m in game.moves] == history, f"{where}: a refused move changed the moves"

    twin = game.copy()
    assert twin.state_string() == state and [str(m) for m in twin.moves] == [
        str(m) for m in game.moves]
    if legal:
        twin.push(legal[0])
        assert game.state_string() == state, f"{where}: pushing on a copy changed the original"


def check_hands(engine, rules_id: str, policy: str, steps: int, first_seed: int,
                sweep_every: dict[str, int] = SWEEP_EVERY) -> None:
    """Seeded hands from ``first_seed`` on until ``steps`` states were checked."""
    name = engine_name(engine)
    checked = 0
    seed = first_seed
    while checked < steps:
        checked += check_hand(engine, rules_id, policy, seed, sweep_every[name])
        seed += 1


def check_hand(engine, rules_id: str, policy: str, seed: int, every: int) -> int:
    """One seeded hand, every state checked (a full sweep every ``every`` states and at the end);
    returns the number of states checked."""
    rng = random.Random(f"invariants:{rules_id}:{policy}:{seed}")
    step = 0

    def on_step(game, legal):
        nonlocal step
        where = f"{rules_id} seed={seed} policy={policy} move {step}"
        check_state(engine, game, legal, step % every == 0 or game.is_over(), rng, where)
        step += 1

    game = playouts.play(engine, rules_id, seed, policy, on_step=on_step)
    assert game.is_over() and game.end_reason in ("closed", "stock_exhausted", "deadlock")
    game.result()  # a finished hand has a result
    return step


@pytest.mark.parametrize("policy", playouts.POLICIES)
@pytest.mark.parametrize("rules_id", playouts.RULES_IDS)
def test_invariants_over_random_hands(engine, rules_id, policy):
    check_hands(engine, rules_id, policy, STEPS[engine_name(engine)], 0)


@pytest.mark.slow
@pytest.mark.parametrize("policy", playouts.POLICIES)
@pytest.mark.parametrize("rules_id", playouts.RULES_IDS)
def test_invariants_over_many_random_hands(engine, rules_id, policy):
    check_hands(engine, rules_id, policy, SLOW_STEPS[engine_name(engine)], SLOW_FIRST_SEED,
                SLOW_SWEEP_EVERY)
