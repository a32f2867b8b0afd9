"""``Game._record_line()``: a game record's JSON line written by the core, which self-play shards
(burraco.distributed) write for every hand, must be byte for byte the text of
``json.dumps(game.record(), separators=(",", ":"))`` (docs/records.md), and its move count the
record's. Compared over whole hands of every rule set and policy, hands cut short, hands of
matches, hands dealt from a deck or read from a state string, and random rule sets; the whole,
cut-short, deck-dealt and state-string hands on the three-deck and six-player tables too
(``fuzzing.FUZZ_RULES_IDS``), and random rule sets with their fair share of both
(``fuzzing.TABLES``)."""

from __future__ import annotations

import json
import random

import pytest

import burraco
from burraco import Game, Match, Rules
from burraco._records import _deck_of

from fuzzing import FUZZ_FAMILIES, FUZZ_RULES_IDS, random_rules
from playouts import GAME_RULES, RULES_IDS, make_rules

SUITED = [rank + suit for suit in "cdhs" for rank in "A23456789TJQK"]


def expected(game: Game) -> tuple[str, int]:
    record = game.record()
    return json.dumps(record, separators=(",", ":")), len(record["moves"])


def check(game: Game) -> dict:
    """The core's line against the record's, and the record (for the callers' own checks)."""
    line, moves = game._record_line()
    want, want_moves = expected(game)
    assert line == want
    assert moves == want_moves
    assert isinstance(line, str) and type(moves) is int
    return json.loads(line)


def shuffled_deck(rules: Rules, rng: random.Random) -> str:
    """The rules' pack (every suited card ``decks`` times, the jokers) in a random order."""
    cards = SUITED * rules.decks + ["Jk"] * rules.jokers
    rng.shuffle(cards)
    return " ".join(cards)


def hand_count(rules_id: str, policy: str) -> int:
    """The hands a rule set and policy play in all: fewer of the longer ones (heuristic hands,
    three decks, six players). The default run plays the first half, -m slow the rest."""
    if rules_id not in RULES_IDS:  # the longer three-deck and six-player hands: fewer of them
        return 6 if rules_id in FUZZ_FAMILIES["six players"] else 8
    return 12 if policy == "heuristic" else 25


def play_and_check(rules_id: str, policy: str, seeds: range) -> None:
    rules = make_rules(burraco, rules_id)
    rng = random.Random(f"{rules_id}:{policy}:{seeds.start}")
    reasons = set()
    for seed in seeds:
        game = Game(rules, seed=1000 * seed + 17, first_player=seed % rules.players)
        game.playout(policy, seed)
        record = check(game)
        assert record["seed"] == game.seed and record["result"] is not None
        reasons.add(record["result"]["end_reason"])
        # The same hand cut short (no result), down to no move at all.
        for depth in sorted({0, 1, rng.randrange(len(game.moves))} - {len(game.moves)}):
            short = game.copy()
            while len(short.moves) > depth:
                short.pop()
            assert check(short)["result"] is None
    assert reasons  # at least one finished hand per rule set and policy


@pytest.mark.parametrize("rules_id", FUZZ_RULES_IDS)
@pytest.mark.parametrize("policy", ["random", "greedy", "heuristic"])
def test_whole_hands_and_hands_cut_short(rules_id, policy):
    play_and_check(rules_id, policy, range(hand_count(rules_id, policy) // 2))


@pytest.mark.slow
@pytest.mark.parametrize("rules_id", FUZZ_RULES_IDS)
@pytest.mark.parametrize("policy", ["random", "greedy", "heuristic"])
def test_whole_hands_rest(rules_id, policy):
    """The hands the default run leaves out (.ci/run's slow step plays them)."""
    count = hand_count(rules_id, policy)
    play_and_check(rules_id, policy, range(count // 2, count))


@pytest.mark.parametrize("rules_id", RULES_IDS)
def test_hands_of_matches(rules_id):
    # Hands after the first start from the match's scores, with the next first player.
    rules = make_rules(burraco, rules_id)
    for seed in range(3):
        match = Match(rules, seed=seed)
        while not match.is_over() and match.hands_played < 6:
            game = match.new_game()
            game.playout("greedy", game.seed)
            record = check(game)
            assert record["scores"] == list(game.scores)
            match.record(game)
    assert match.hands_played > 1


@pytest.mark.parametrize("rules_id", FUZZ_RULES_IDS)
def test_hands_dealt_from_a_deck_or_a_state_string(rules_id):
    rules = make_rules(burraco, rules_id)
    rng = random.Random(rules_id)
    for number in range(8):
        first = number % rules.players
        scores = [rng.randrange(-500, 3000) for _ in range(rules.sides)]  # per side (3p: per seat)
        # A random deck deals packets in an order the record cannot rebuild (it lists their
        # cards in canonical order): the record has a start. The deck the record would write
        # for that deal deals the same hands and sorted packets: that one it has.
        shuffled = Game(rules, deck=shuffled_deck(rules, rng), first_player=first, scores=scores)
        assert check(shuffled)["start"] is not None
        game = Game(rules, deck=_deck_of(shuffled), first_player=first, scores=scores)
        game.playout("greedy", number)
        record = check(game)
        assert record["seed"] is None and record["deck"] == _deck_of(shuffled)
        # Read back from a state string in mid hand and played on: the record has a start.
        middle = game.copy()
        while len(middle.moves) > len(game.moves) // 2:
            middle.pop()
        later = Game.from_state_string(middle.state_string())
        later.playout("random", number)
        record = check(later)
        assert record["start"] is not None or record["deck"] is not None
        # A fresh deal read from its state string (no history), with and without a seed.
        assert check(Game.from_state_string(middle.copy().state_string()))["moves"] == []
        dealt = Game(rules, seed=number + 99, first_player=first, scores=scores)
        assert check(Game.from_state_string(dealt.state_string()))["seed"] == number + 99


def test_random_rule_sets():
    rng = random.Random(20261205)
    played = 0
    while played < 40:
        preset, knobs = random_rules(rng)
        try:
            rules = Rules(preset, **knobs)
            game = Game(rules, seed=rng.randrange(2**64), first_player=0)
        except burraco.BurracoError:
            continue  # a rule set the engine cannot deal
        game.playout(rng.choice(["random", "greedy"]), played)
        check(game)
        shuffled = Game(rules, deck=shuffled_deck(rules, rng), first_player=rules.players - 1)
        check(shuffled)
        dealt = Game(rules, deck=_deck_of(shuffled), first_player=rules.players - 1)
        dealt.playout("random", played)
        check(dealt)
        played += 1


def test_an_uninitialized_game_is_refused():
    with pytest.raises(TypeError, match="not initialized"):
        Game.__new__(Game)._record_line()


def test_every_preset_is_covered():
    assert {preset for _, preset, _ in GAME_RULES} == set(Rules.PRESETS)
