"""docs/search.md "Actions and tensors for learning" on both engines (the ``engine`` fixture), then
the core against the reference.

* The action space: the fixed ids (``draw`` .. ``reject``, ``discard``, ``add``), the meld table
  (its length pinned for italian; canonical order; every entry a valid new meld the deck holds;
  complete on slices of the card kinds: every valid meld there is in it; the same for every game of
  equal rules), and moves without an id.
* Seeded playouts of every rule set of ``playouts.GAME_RULES``: at every step every legal move has
  an id, ids round-trip through ``action_move``, ``legal_mask`` is True exactly at those ids, and
  the hand is played with ``push_action`` while a twin plays the same moves with ``push``.
* The observation tensor: on hand-picked states, every entry written out by hand; on sampled
  states of every rule set and every player, equal to the layout computed from the state string
  alone (:func:`expected_tensor`); unchanged when cards hidden from the player are swapped.
* ``out=``: filled in place and returned; a wrong ``out`` is refused (quoting its shape and dtype)
  and left as it was.
* Bad arguments raise the documented errors, quoting the value, and change nothing.
* Core against reference: the same meld table for every rule set; the same masks, ids and tensors
  (``np.array_equal``) on sampled states.

Decisions where docs/search.md leaves room (the tests hold both engines to them):

* An action id is an integer with ``__index__`` (a Python int or a NumPy integer, never a bool),
  as for ``push_index`` (docs/search.md): anything else raises ``InvalidNotationError`` quoting it.
* ``push_action`` of an int outside ``0..action_size-1`` is not an id: ``InvalidNotationError``
  (quoting it); of an id whose move is not legal: ``IllegalMoveError`` (quoting the move).
* A wrong ``out`` raises ``BurracoError`` (a ValueError) whose message quotes the array's shape
  and dtype as NumPy writes them (``(4321,)``, ``float64``).
* When the hand is over, "the seat to act" (392..395) is ``turn``: the seat that made the last
  move, as in the observation.

``-m slow`` adds more seeded hands per rule set and checks the meld table of every rule set entry
by entry.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter

import numpy as np
import playouts
import pytest
from conftest import engine_name, load_engine
from playouts import card_names, full_deck, meld_layouts, state_fields

RANKS = "A23456789TJQK"
SUITS = "cdhs"
KINDS = 53  # card indices 0..52
DISCARD_BASE = 4
ADD_BASE = 57
ADD_MELDS = 36
MELD_BASE = 1965
TENSOR_SIZE = 511
# The italian meld table: 5352 sets and 8780 runs (printed by the reference, then pinned).
ITALIAN_MELD_TABLE = 14132

# Seeded hands of every rule set, (policy of tests/playouts.py, seed): played move by move with
# push_action; and the hands whose every SAMPLE_EVERY-th state is sampled for the tensor tests.
PLAYED_HANDS = (("meld", 1), ("draw", 2))
SLOW_PLAYED_HANDS = tuple((policy, seed) for policy in playouts.POLICIES for seed in range(3, 11))
SAMPLE_HANDS = (("meld", 3), ("meld", 4), ("draw", 5))
SAMPLE_EVERY = 4


def card_index(name: str) -> int:
    """A card's index (docs/api.md): 13 * suit + rank - 1, the joker 52."""
    return 52 if name == "Jk" else 13 * SUITS.index(name[1]) + RANKS.index(name[0])


def card_name(index: int) -> str:
    return "Jk" if index == 52 else RANKS[index % 13] + SUITS[index // 13]


def canonical(names) -> str:
    """A state-string card list in canonical order (``-`` when empty)."""
    return "".join(sorted(names, key=card_index)) or "-"


def rules_of(engine, rules_id: str):
    return playouts.make_rules(engine, rules_id)


def meld_table(game) -> list[str]:
    """The meld table, read off ``action_move`` (the ids from 1965 on)."""
    return [str(game.action_move(action)) for action in range(MELD_BASE, game.action_size)]


@functools.cache
def sample_states(rules_id: str) -> tuple[str, ...]:
    """State strings of seeded hands of a rule set (played by the reference; each engine reads them
    back with ``from_state_string``): every SAMPLE_EVERY-th state and the last of each hand."""
    return playouts.sample_states(load_engine("reference"), rules_id, SAMPLE_HANDS, SAMPLE_EVERY)


def where_different(actual: np.ndarray, expected: np.ndarray) -> str:
    """The entries where two arrays differ, for an assertion message."""
    wrong = np.flatnonzero(actual != expected)
    return ", ".join(f"[{i}] {actual[i]} != {expected[i]}" for i in wrong[:12])


# ---- the fixed ids ------------------------------------------------------------------------------


def test_fixed_ids(engine):
    """ids 0..3 the moves without cards; 4 + k the discard of card k; 57 + 53 i + k the lay-off of
    card k on meld i (0..35); the meld table from 1965 on."""
    game = engine.Game(engine.Rules("italian"), seed=1)
    fixed = {0: "draw", 1: "pile", 2: "keep", 3: "reject"}
    for card in range(KINDS):
        fixed[DISCARD_BASE + card] = f"discard {card_name(card)}"
        for meld in range(ADD_MELDS):
            fixed[ADD_BASE + KINDS * meld + card] = f"add {meld} {card_name(card)}"
    assert sorted(fixed) == list(range(MELD_BASE))
    for action, text in fixed.items():
        assert str(game.action_move(action)) == text
        assert game.action_id(text) == action
        assert game.action_id(engine.Move(text)) == action
    assert game.action_id("add 35 Jk") == MELD_BASE - 1
    assert game.action_id("meld Ac Ac 2c") == MELD_BASE  # the smallest card list that is a meld
    assert game.action_id("meld Ks Ks Jk") == game.action_size - 1  # the largest
    assert game.action_id("ADD 0 10h") == game.action_id("add 0 Th")  # notation is lenient


def test_italian_meld_table_length(engine):
    game = engine.Game(engine.Rules("italian"), seed=1)
    assert game.action_size == MELD_BASE + ITALIAN_MELD_TABLE
    table = meld_table(game)
    assert len(table) == ITALIAN_MELD_TABLE
    kinds = Counter(engine.Meld(text[5:]).kind for text in table)
    assert kinds == {"set": 5352, "run": 8780}


def check_meld_table(engine, rules_id: str, every: int = 1) -> None:
    """Every ``every``-th entry is a meld move of a valid new meld whose cards the deck holds, each
    once, in canonical meld order (the order of ``Move``), and its id is its place."""
    rules = rules_of(engine, rules_id)
    game = engine.Game(rules, seed=1)
    places = range(0, game.action_size - MELD_BASE, every)
    moves = [game.action_move(MELD_BASE + place) for place in places]
    deck = full_deck(rules)
    for place, move in zip(places, moves):
        assert move.kind == "meld", move
        assert engine.Meld.is_valid(move.cards, rules), move
        counts = Counter(str(card) for card in move.cards)
        assert all(counts[name] <= deck[name] for name in counts), move
        assert game.action_id(move) == MELD_BASE + place
    assert all(earlier < later for earlier, later in itertools.pairwise(moves)), "not in canonical order"


# The default run checks every entry on the core and every 4th on the reference (pure Python,
# slow); the slow run checks every entry of every rule set on both engines.
TABLE_EVERY = {"core": 1, "reference": 4}


@pytest.mark.parametrize("rules_id", ["italian", "brazilian-2p"])
def test_meld_table_entries(engine, rules_id):
    check_meld_table(engine, rules_id, TABLE_EVERY[engine_name(engine)])


@pytest.mark.slow
@pytest.mark.parametrize("rules_id", playouts.RULES_IDS)
def test_meld_table_entries_every_rule_set(engine, rules_id):
    check_meld_table(engine, rules_id)


def multisets(kinds: list[str], sizes, jokers: int, max_wilds: int):
    """Every multiset of the card kinds of ``sizes`` cards that the deck holds (two copies of a
    suited card, ``jokers`` jokers), with at most ``max_wilds`` wild cards (jokers and twos)."""
    for size in sizes:
        for combination in itertools.combinations_with_replacement(kinds, size):
            counts = Counter(combination)
            if any(count > (jokers if name == "Jk" else 2) for name, count in counts.items()):
                continue
            if sum(count for name, count in counts.items() if name[0] in "2J") > max_wilds:
                continue
            yield combination


# Slices of the card kinds: the meld table restricted to each holds exactly the valid new melds
# made of those kinds ("every legal new meld has one of these shapes").
SLICES = {
    # every set of kings: 2 to 8 naturals, up to two wilds (two wilds are never a meld)
    "kings": (["Kc", "Kd", "Kh", "Ks", "2c", "2d", "2h", "2s", "Jk"], range(3, 11), 2),
    # short runs (and sets) of hearts, with the joker, a two of another suit, the hearts' two
    "hearts": ([rank + "h" for rank in RANKS] + ["2c", "Jk"], range(3, 5), 4),
    # runs of clubs around the aces and twos, long ones too
    "low-clubs": (["Ac", "2c", "3c", "4c", "Qc", "Kc", "2s", "Jk"], range(3, 8), 3),
}


@pytest.mark.parametrize("rules_id", ["italian", "brazilian"])
@pytest.mark.parametrize("slice_id", list(SLICES))
def test_meld_table_is_complete_on_slices(engine, rules_id, slice_id):
    kinds, sizes, max_wilds = SLICES[slice_id]
    rules = rules_of(engine, rules_id)
    game = engine.Game(rules, seed=1)
    valid = {" ".join(sorted(cards, key=card_index))
             for cards in multisets(kinds, sizes, rules.jokers, max_wilds)
             if engine.Meld.is_valid(" ".join(cards), rules)}
    in_slice = {text[5:] for text in meld_table(game)
                if set(text[5:].split()) <= set(kinds) and len(text[5:].split()) in sizes}
    assert valid, "the slice has no meld"
    assert in_slice == valid, (sorted(valid - in_slice)[:10], sorted(in_slice - valid)[:10])


def test_equal_rules_have_the_same_table(engine):
    rules = engine.Rules("brazilian", players=2)
    game = engine.Game(rules, seed=1)
    others = [engine.Game(engine.Rules("brazilian", players=2), seed=2),
              engine.Game.from_state_string(sample_states("brazilian-2p")[5])]
    sampled = range(0, game.action_size, 97)
    for other in others:
        assert other.action_size == game.action_size
        assert [other.action_move(i) for i in sampled] == [game.action_move(i) for i in sampled]
    assert engine.Game(engine.Rules("italian"), seed=1).action_size != game.action_size


@pytest.mark.parametrize("move", [
    "add 36 5h", "add 40 5h", "add 999999999 Jk",  # lay-offs on meld index 36 and above
    "meld 5h 6h", "meld 5h 6h 8h", "meld 5h Jk Jk", "meld 2c 2d 2h", "meld 5d 5d 2h 5h 5h Jk",
    "meld 2c 5c 5c 5d 5d 5h 5h 5s 5s Jk",  # not a meld
])
@pytest.mark.parametrize("as_move", [False, True], ids=["text", "Move"])
def test_moves_without_an_id(engine, move, as_move):
    assert str(engine.Move(move)) == move  # canonical, so that a Move quotes the same text
    game = engine.Game(engine.Rules("italian"), seed=1)
    with pytest.raises(engine.InvalidNotationError) as info:
        game.action_id(engine.Move(move) if as_move else move)
    assert repr(move) in str(info.value)


@pytest.mark.parametrize("value", ["dance", "add 1", "discard Xh", 5, None, 2.5])
def test_action_id_refuses_what_is_not_a_move(engine, value):
    game = engine.Game(engine.Rules("italian"), seed=1)
    with pytest.raises(engine.InvalidNotationError) as info:
        game.action_id(value)
    assert repr(value) in str(info.value)


AT_SIZE = "<action_size>"  # stands for game.action_size, the first id too many
BAD_IDS = [-1, AT_SIZE, 10**12, 1.5, 3.0, "5", None, True, False]


@pytest.mark.parametrize("value", BAD_IDS)
def test_action_move_refuses_a_bad_id(engine, value):
    game = engine.Game(engine.Rules("italian"), seed=1)
    value = game.action_size if value == AT_SIZE else value
    with pytest.raises(engine.InvalidNotationError) as info:
        game.action_move(value)
    assert repr(value) in str(info.value)


# ---- playing by ids -----------------------------------------------------------------------------


def play_by_ids(engine, rules_id: str, policy: str, seed: int) -> int:
    """One seeded hand played with ``push_action`` while a twin plays the same moves with
    ``push``; at every step the ids of the legal moves are checked. Returns the moves played."""
    game = engine.Game(rules_of(engine, rules_id), seed=seed)
    twin = game.copy()
    size = game.action_size
    rng = playouts.policy_rng(policy, rules_id, seed)
    pick = playouts.PICK[policy]
    for step in range(playouts.MAX_MOVES):
        moves = game.legal_moves()
        where = f"{rules_id} {policy} seed {seed} step {step}: {game.state_string()}"
        ids = [game.action_id(move) for move in moves]
        assert len(set(ids)) == len(ids), where
        assert all(0 <= action < size for action in ids), where
        assert [game.action_move(action) for action in ids] == list(moves), where
        mask = game.legal_mask()
        assert mask.dtype == np.bool_ and mask.shape == (size,), where
        assert np.flatnonzero(mask).tolist() == sorted(ids), where
        if game.is_over():
            assert not ids, where
            return step
        choice = pick(rng, [str(move) for move in moves])
        assert game.action_id(str(moves[choice])) == ids[choice], where
        game.push_action(ids[choice])
        twin.push(moves[choice])
        assert game.state_string() == twin.state_string(), where
        assert game.moves == twin.moves, where
    raise AssertionError(f"{rules_id} seed {seed}: not over after {playouts.MAX_MOVES} moves")


@pytest.mark.parametrize("rules_id", playouts.RULES_IDS)
def test_playouts_by_ids(engine, rules_id):
    # The reference (pure Python, slow) plays the first of the hands, the core all of them.
    hands = PLAYED_HANDS if engine_name(engine) == "core" else PLAYED_HANDS[:1]
    played = [play_by_ids(engine, rules_id, policy, seed) for policy, seed in hands]
    assert min(played) >= 20, played


@pytest.mark.slow
@pytest.mark.parametrize("rules_id", playouts.RULES_IDS)
def test_playouts_by_ids_slow(engine, rules_id):
    for policy, seed in SLOW_PLAYED_HANDS:
        play_by_ids(engine, rules_id, policy, seed)


def test_push_action_refuses_an_illegal_action(engine):
    game = engine.Game(engine.Rules("italian"), seed=4)  # draw phase: draw and pile are legal
    before = game.state_string()
    for move in ("discard 5h", "keep", "reject", "meld 5h 6h 7h", "add 0 5h"):
        with pytest.raises(engine.IllegalMoveError) as info:
            game.push_action(game.action_id(move))
        assert repr(move) in str(info.value)
        assert game.state_string() == before and game.moves == []
    game.push_action(0)
    assert [str(move) for move in game.moves] == ["draw"]


@pytest.mark.parametrize("value", BAD_IDS)
def test_push_action_refuses_a_bad_id(engine, value):
    game = engine.Game(engine.Rules("italian"), seed=4)
    value = game.action_size if value == AT_SIZE else value
    before = game.state_string()
    with pytest.raises(engine.InvalidNotationError) as info:
        game.push_action(value)
    assert repr(value) in str(info.value)
    assert game.state_string() == before and game.moves == []


# ---- the observation tensor: hand-picked states -------------------------------------------------


def build_state(rules_text: str, jokers: int, *, hands, known, melds, packets, pile="",
                top="-", scores, turn, phase, hold="-", opened, need, flags="-", split="-",
                end="-") -> str:
    """A version-1 state string: the given hands (space separated), known cards, melds (state-string
    layouts per side slot), pile; ``packets`` per packet ``<status>:<count>`` (filled with the next
    cards of the rest of the deck, in canonical order) or ``h<p>:-`` / ``x:-``; the stock is the
    rest."""
    used = Counter()
    for hand in hands:
        used.update(hand.split())
    for slot in meld_layouts("/".join(melds)):
        for meld in slot:
            used.update(meld)
    used.update(pile.split())
    deck = Counter({rank + suit: 2 for suit in SUITS for rank in RANKS}, Jk=jokers)
    rest = sorted((deck - used).elements(), key=card_index)
    packet_texts = []
    for packet in packets:
        status, count = packet.split(":")
        if count == "-":
            packet_texts.append(packet)
        else:
            packet_texts.append(f"{status}:{''.join(rest[:int(count)])}")
            del rest[:int(count)]
    return ";".join([
        "v=1", f"rules={rules_text}", "seed=-", "first=0", f"scores={scores}", f"turn={turn}",
        f"phase={phase}", "hands=" + "/".join(canonical(hand.split()) for hand in hands),
        "known=" + "/".join(canonical(cards.split()) for cards in known),
        f"stock={''.join(rest) or '-'}", f"pile={canonical(pile.split())}", f"top={top}",
        "melds=" + "/".join(melds), "pozzetti=" + "/".join(packet_texts), f"hold={hold}",
        f"opened={opened}", f"need={need}", "deadlock=0", f"turnflags={flags}", f"split={split}",
        f"end={end}", "cut=-",
    ])


# italian, 4 players: seat 1 to act in the meld phase; seat 3 (its partner) went out by
# discarding, so its hand is empty and packet 0 waits face down for its next turn.
FOUR_PLAYERS = build_state(
    "italian", 4,
    hands=["5s 5s 9c", "Ac 2d 7s 7s Jk Kd", "4c", ""],
    known=["", "7s", "4c", ""],
    melds=["8d9dTd+JcJdJh", "4h5h6h"], pile="6c 6c Kh", top="Kh",
    packets=["f3:11", "u:11"], scores="120,340", turn=1, phase="meld", flags="d",
    opened="0,0", need="0,0",
)
# brazilian, 2 players: seat 0 took a one-card pile (Kh held) and has seen packet 0; side 1 opened.
BRAZILIAN = build_state(
    "brazilian:players=2", 4,
    hands=["3c 4c 5c Kh", "9s 9s"], known=["Kh", ""], melds=["-", "QcQdQs"],
    packets=["u:11", "u:11"], scores="1400,200", turn=0, phase="meld", hold="Kh", flags="p",
    opened="0,1", need="65,50",
)
# italian-3p, over: seat 1 is the soloist (packet 0 in its hand), seats 0 and 2 the pair (slot 3),
# seat 0 went out by discarding and holds packet 1 face down; scores in half points.
THREE_PLAYERS = build_state(
    "italian-3p", 4,
    hands=["", "", "Jc"], known=["", "", ""], melds=["-", "KcKdKh@0", "-", "5d6d7d@1"],
    pile="8c 8c", top="8c", packets=["h1:-", "f0:11"], scores="300,40,60", turn=2,
    phase="over", end="stock_exhausted", opened="0,0,0,0", need="0,0,0,0", split="1",
)


def counts(tensor: np.ndarray, first: int, cards: str) -> None:
    for name in cards.split():
        tensor[first + card_index(name)] += 1


def hand_picked(state: str, player: int) -> np.ndarray:
    """The tensor of each hand-picked (state, player), written out entry by entry."""
    t = np.zeros(TENSOR_SIZE, np.float32)
    if (state, player) == (FOUR_PLAYERS, 1):
        counts(t, 0, "Ac 2d 7s 7s Jk Kd")  # own hand
        counts(t, 53, "6c 6c Kh")  # pile
        counts(t, 106, "4c")  # known: relative seat 1 = seat 2
        # relative seats 2 and 3 (seats 3 and 0): nothing known
        counts(t, 265, "4h 5h 6h")  # side 1's melds
        counts(t, 318, "8d 9d Td Jc Jd Jh")  # side 0's
        t[371:375] = [6, 1, 0, 3]  # hand sizes of seats 1, 2, 3, 0
        t[375:377] = [108 - 10 - 9 - 3 - 22, 3]  # stock, pile
        t[377 + 1] = t[382 + 0] = 1  # packet 0 face down, packet 1 untaken
        t[387] = 1  # seat 3 (side 1) took packet 0
        t[390] = 1  # meld phase
        t[392] = 1  # to act: seat 1 = relative 0
        t[398:400] = [0.34, 0.12]  # side 1 then side 0, / 1000
        t[454] = 1  # flag d
    elif (state, player) == (FOUR_PLAYERS, 0):
        counts(t, 0, "5s 5s 9c")
        counts(t, 53, "6c 6c Kh")
        counts(t, 106, "7s")  # seat 1
        counts(t, 159, "4c")  # seat 2
        counts(t, 265, "8d 9d Td Jc Jd Jh")
        counts(t, 318, "4h 5h 6h")
        t[371:375] = [3, 6, 1, 0]
        t[375:377] = [64, 3]
        t[378] = t[382] = 1
        t[388] = 1  # another side took a packet
        t[390] = 1
        t[393] = 1  # to act: seat 1 = relative 1
        t[398:400] = [0.12, 0.34]
        t[454] = 1
    elif (state, player) == (BRAZILIAN, 0):
        counts(t, 0, "3c 4c 5c Kh")
        counts(t, 318, "Qc Qd Qs")
        t[371:375] = [4, 2, 0, 0]
        t[375:377] = [108 - 6 - 3 - 22, 0]
        t[377] = t[382] = 1  # both packets untaken
        t[390] = 1
        t[392] = 1
        t[396:398] = [0, 0.65]  # not open, requirement 65 (50 and one short opening)
        t[398:400] = [1.4, 0.2]
        t[400 + card_index("Kh")] = 1  # the held card
        t[453] = 1  # flag p
    elif (state, player) == (BRAZILIAN, 1):
        counts(t, 0, "9s 9s")
        counts(t, 106, "Kh")  # seat 0's known card
        counts(t, 265, "Qc Qd Qs")
        t[371:375] = [2, 4, 0, 0]
        t[375:377] = [77, 0]
        t[377] = t[382] = 1
        t[390] = 1
        t[393] = 1
        t[396:398] = [1, 0.5]
        t[398:400] = [0.2, 1.4]
        t[400 + card_index("Kh")] = 1
        t[453] = 1
    elif (state, player) == (THREE_PLAYERS, 0):
        counts(t, 53, "8c 8c")  # seat 0 went out by discarding: no hand, packet 1 waits
        counts(t, 265, "5d 6d 7d")  # the pair's melds (slot 3)
        counts(t, 318, "Kc Kd Kh")  # the soloist's
        t[371:375] = [0, 0, 1, 0]  # seats 0, 1, 2; no relative seat 3
        t[375:377] = [108 - 1 - 6 - 2 - 11, 2]
        t[377 + 3] = t[382 + 1] = 1  # packet 0 in a hand, packet 1 face down
        t[387] = t[388] = 1  # seat 0 took packet 1, the soloist packet 0
        t[391] = 1  # over
        t[394] = 1  # turn: seat 2 = relative 2
        t[398:400] = [0.15, 0.05]  # 300 / 2000, (40 + 60) / 2000
    elif (state, player) == (THREE_PLAYERS, 1):
        counts(t, 53, "8c 8c")
        counts(t, 265, "Kc Kd Kh")
        counts(t, 318, "5d 6d 7d")
        t[371:375] = [0, 1, 0, 0]
        t[375:377] = [88, 2]
        t[380] = t[383] = 1
        t[387] = t[388] = 1
        t[391] = 1
        t[393] = 1
        t[398:400] = [0.02, 0.18]
    else:
        raise KeyError(player)
    return t


@pytest.mark.parametrize(("state", "player"), [
    pytest.param(FOUR_PLAYERS, 1, id="4p-to-act"), pytest.param(FOUR_PLAYERS, 0, id="4p-other"),
    pytest.param(BRAZILIAN, 0, id="brazilian-hold"),
    pytest.param(BRAZILIAN, 1, id="brazilian-opened"),
    pytest.param(THREE_PLAYERS, 0, id="3p-pair-over"),
    pytest.param(THREE_PLAYERS, 1, id="3p-soloist-over"),
])
def test_observation_tensor_hand_picked(engine, state, player):
    tensor = engine.Game.from_state_string(state).observation_tensor(player)
    expected = hand_picked(state, player)
    assert tensor.dtype == np.float32 and tensor.shape == (TENSOR_SIZE,)
    assert np.array_equal(tensor, expected), where_different(tensor, expected)


# ---- the observation tensor: the layout on sampled states ---------------------------------------


def expected_tensor(state: str, player: int) -> np.ndarray:
    """The tensor of ``player`` computed from the state string alone, block by block as
    docs/search.md lays it out (every field it reads is public, or the player's own)."""
    fields = state_fields(state)
    hands = [card_names(hand) for hand in fields["hands"].split("/")]
    known = [card_names(cards) for cards in fields["known"].split("/")]
    players = len(hands)
    split = None if fields["split"] == "-" else int(fields["split"])

    def side(seat: int) -> int:
        if players == 3:
            return seat if split is None or seat == split else 3
        return seat % 2

    own = side(player)
    t = np.zeros(TENSOR_SIZE, np.float32)

    def add(first: int, names: list[str]) -> None:
        for name in names:
            t[first + card_index(name)] += 1

    add(0, hands[player])
    add(53, card_names(fields["pile"]))
    for relative in range(1, players):
        add(106 + 53 * (relative - 1), known[(player + relative) % players])
    for slot, melds in enumerate(meld_layouts(fields["melds"])):
        for meld in melds:
            add(265 if slot == own else 318, meld)
    for relative in range(players):
        t[371 + relative] = len(hands[(player + relative) % players])
    t[375] = len(card_names(fields["stock"]))
    t[376] = len(card_names(fields["pile"]))
    for number, packet in enumerate(fields["pozzetti"].split("/")):
        status, cards = packet.split(":")
        t[377 + 5 * number + "ufshx".index(status[0])] = 1
        if status[0] in "fsh":
            t[387 if side(int(status[1:])) == own else 388] = 1
        if status == f"s{player}":
            add(458, card_names(cards))
    t[389 + ("draw", "meld", "over").index(fields["phase"])] = 1
    t[392 + (int(fields["turn"]) - player) % players] = 1
    t[396] = int(fields["opened"].split(",")[own])
    t[397] = int(fields["need"].split(",")[own]) / 100
    scores = [int(score) for score in fields["scores"].split(",")]
    if players == 3:
        t[398] = scores[player] / 2000
        t[399] = (sum(scores) - scores[player]) / 2000
    else:
        t[398] = scores[own] / 1000
        t[399] = scores[1 - own] / 1000
    if fields["hold"] != "-":
        t[400 + card_index(fields["hold"])] = 1
    for number, letter in enumerate("pdlfb"):
        if letter in fields["turnflags"]:
            t[453 + number] = 1
    return t


# (first entry, entries) of each block of the layout, for the coverage check.
BLOCKS = {"hand": (0, 53), "pile": (53, 53), "known": (106, 159), "own melds": (265, 53),
          "other melds": (318, 53), "hand sizes": (371, 4), "stock and pile size": (375, 2),
          "untaken": (377, 1), "face down": (378, 1), "seen": (379, 1), "in hand": (380, 1),
          "stock": (381, 1), "own side took": (387, 1), "other side took": (388, 1),
          "draw": (389, 1), "meld": (390, 1), "over": (391, 1), "to act": (392, 4),
          "opened": (396, 1), "requirement": (397, 1), "scores": (398, 2), "held": (400, 53),
          "flags": (453, 5), "seen packet": (458, 53)}


def test_sample_states_reach_every_block():
    """The sampled states put something in every block (so the next test checks them all)."""
    reached = np.zeros(TENSOR_SIZE, bool)
    for rules_id in playouts.RULES_IDS:
        for state in sample_states(rules_id):
            for player in range(len(state_fields(state)["hands"].split("/"))):
                reached |= expected_tensor(state, player) != 0
    missing = [name for name, (first, size) in BLOCKS.items()
               if name != "scores" and not reached[first:first + size].any()]
    assert not missing


@pytest.mark.parametrize("rules_id", playouts.RULES_IDS)
def test_observation_tensor_layout(engine, rules_id):
    for state in sample_states(rules_id):
        game = engine.Game.from_state_string(state)
        for player in range(game.players):
            tensor = game.observation_tensor(player)
            expected = expected_tensor(state, player)
            assert tensor.dtype == np.float32 and tensor.shape == (TENSOR_SIZE,)
            assert np.array_equal(tensor, expected), \
                f"{state}\nplayer {player}: {where_different(tensor, expected)}"


@pytest.mark.parametrize("scores", ["1234,-567", "0,2000000", "1,3"])
def test_observation_tensor_scores(engine, scores):
    """Match scores / 1000 per side, the player's side first (float32 of the quotient)."""
    state = FOUR_PLAYERS.replace("scores=120,340", f"scores={scores}")
    game = engine.Game.from_state_string(state)
    first, second = (int(score) for score in scores.split(","))
    for player in range(4):
        mine, theirs = (first, second) if player % 2 == 0 else (second, first)
        expected = np.array([mine / 1000, theirs / 1000], np.float32)
        assert np.array_equal(game.observation_tensor(player)[398:400], expected)


@pytest.mark.parametrize("scores", ["300,40,60", "1,1,1", "-35,7,1999"])
def test_observation_tensor_half_points(engine, scores):
    """3 players: the player's half points / 2000, and the sum of the other two seats' / 2000 (the
    float32 of that one quotient, not a sum of two rounded quotients)."""
    state = THREE_PLAYERS.replace("scores=300,40,60", f"scores={scores}")
    game = engine.Game.from_state_string(state)
    points = [int(score) for score in scores.split(",")]
    for player in range(3):
        others = sum(points) - points[player]
        expected = np.array([points[player] / 2000, others / 2000], np.float32)
        assert np.array_equal(game.observation_tensor(player)[398:400], expected)


# ---- the observation tensor reads the observation only ------------------------------------------


def unknown_cards(fields: dict[str, str], seat: int) -> list[str]:
    hand = Counter(card_names(fields["hands"].split("/")[seat]))
    known = Counter(card_names(fields["known"].split("/")[seat]))
    return sorted((hand - known).elements(), key=card_index)


def swap_between_hands(state: str, first: int, second: int) -> str | None:
    """The state with an unknown card of seat ``first`` swapped for a different unknown card of
    seat ``second`` (None if there are no such cards)."""
    fields = state_fields(state)
    mine, theirs = unknown_cards(fields, first), unknown_cards(fields, second)
    pair = next(((a, b) for a in mine for b in theirs if a != b), None)
    if pair is None:
        return None
    hands = [card_names(hand) for hand in fields["hands"].split("/")]
    hands[first].remove(pair[0])
    hands[first].append(pair[1])
    hands[second].remove(pair[1])
    hands[second].append(pair[0])
    fields["hands"] = "/".join(canonical(hand) for hand in hands)
    return ";".join(f"{name}={value}" for name, value in fields.items())


def swap_with_stock(state: str, seat: int) -> str | None:
    """The state with an unknown card of ``seat`` swapped for a different card of the stock."""
    fields = state_fields(state)
    stock = card_names(fields["stock"])
    pair = next(((a, i) for a in unknown_cards(fields, seat) for i, b in enumerate(stock)
                 if a != b), None)
    if pair is None:
        return None
    hands = [card_names(hand) for hand in fields["hands"].split("/")]
    hands[seat].remove(pair[0])
    hands[seat].append(stock[pair[1]])
    stock[pair[1]] = pair[0]
    fields["hands"] = "/".join(canonical(hand) for hand in hands)
    fields["stock"] = "".join(stock)
    return ";".join(f"{name}={value}" for name, value in fields.items())


@pytest.mark.parametrize("rules_id", playouts.RULES_IDS)
def test_observation_tensor_ignores_hidden_cards(engine, rules_id):
    """Swapping cards a player cannot see (between two other hands, outside their known cards; or
    between another hand and the stock) never changes that player's tensor, while it changes the
    tensor of a player whose own hand changed."""
    swaps = 0
    for state in sample_states(rules_id)[::3]:
        game = engine.Game.from_state_string(state)
        players = game.players
        for player in range(players):
            others = [seat for seat in range(players) if seat != player]
            changed = [(swap_between_hands(state, a, b), a) for a, b in itertools.pairwise(others)]
            changed.append((swap_with_stock(state, others[0]), others[0]))
            for other_state, seat in changed:
                if other_state is None:
                    continue
                other = engine.Game.from_state_string(other_state)
                assert other.state_string() != state
                assert np.array_equal(other.observation_tensor(player),
                                      game.observation_tensor(player)), f"{state}\n{other_state}"
                assert not np.array_equal(other.observation_tensor(seat),
                                          game.observation_tensor(seat))
                swaps += 1
    assert swaps >= 30, swaps


# ---- out= and bad arguments ---------------------------------------------------------------------


def test_legal_mask_fills_out(engine):
    game = engine.Game(engine.Rules("italian"), seed=4)
    game.push("draw")
    out = np.ones(game.action_size, dtype=bool)
    assert game.legal_mask(out) is out
    assert np.array_equal(out, game.legal_mask())
    assert np.flatnonzero(out).tolist() == sorted(game.action_id(m) for m in game.legal_moves())


def test_observation_tensor_fills_out(engine):
    game = engine.Game.from_state_string(BRAZILIAN)
    out = np.full(TENSOR_SIZE, 7.5, dtype=np.float32)
    for player in (0, 1):
        assert game.observation_tensor(player, out) is out
        assert np.array_equal(out, hand_picked(BRAZILIAN, player))
    assert np.array_equal(game.observation_tensor(1, out=out), hand_picked(BRAZILIAN, 1))


def bad_outs(size: int, dtype) -> list[tuple[str, np.ndarray | list, bool]]:
    """(id, a wrong ``out``, whether the message must quote its shape and dtype)."""
    other = np.uint8 if dtype == np.float32 else np.float32
    read_only = np.zeros(size, dtype)
    read_only.flags.writeable = False
    return [
        ("short", np.zeros(7, dtype), True),
        ("long", np.zeros(4321, dtype), True),
        ("two-dimensional", np.zeros((1, size), dtype), True),
        ("dtype", np.zeros(size, other), True),
        ("float64", np.zeros(size, np.float64), True),
        ("not-contiguous", np.zeros(2 * size, dtype)[::2], False),
        ("read-only", read_only, False),
        ("list", [0] * size, False),
    ]


BAD_OUT_IDS = ["short", "long", "two-dimensional", "dtype", "float64", "not-contiguous",
               "read-only", "list"]


def check_refused(engine, call, out, quoted: bool) -> None:
    before = np.array(out, copy=True)
    with pytest.raises(engine.BurracoError) as info:
        call(out)
    if quoted:
        assert str(out.shape) in str(info.value) and str(out.dtype) in str(info.value)
    assert np.array_equal(np.asarray(out), before)  # untouched


@pytest.mark.parametrize("case", BAD_OUT_IDS)
def test_legal_mask_refuses_a_wrong_out(engine, case):
    game = engine.Game(engine.Rules("italian"), seed=4)
    before = game.state_string()
    (out, quoted), = [(out, quoted) for name, out, quoted in bad_outs(game.action_size, np.bool_)
                      if name == case]
    check_refused(engine, game.legal_mask, out, quoted)
    assert game.state_string() == before


@pytest.mark.parametrize("case", BAD_OUT_IDS)
def test_observation_tensor_refuses_a_wrong_out(engine, case):
    game = engine.Game(engine.Rules("italian"), seed=4)
    (out, quoted), = [(out, quoted) for name, out, quoted in bad_outs(TENSOR_SIZE, np.float32)
                      if name == case]
    check_refused(engine, lambda out: game.observation_tensor(0, out), out, quoted)


@pytest.mark.parametrize("player", [-1, 4, 1.5, "0", None, True])
def test_observation_tensor_refuses_a_bad_player(engine, player):
    game = engine.Game(engine.Rules("italian"), seed=4)
    with pytest.raises(engine.InvalidNotationError) as info:
        game.observation_tensor(player)
    assert repr(player) in str(info.value)


# ---- core against reference ---------------------------------------------------------------------


@pytest.mark.parametrize("rules_id", playouts.RULES_IDS)
def test_engines_have_the_same_meld_table(core, reference, rules_id):
    ours = core.Game(rules_of(core, rules_id), seed=1)
    theirs = reference.Game(rules_of(reference, rules_id), seed=1)
    assert ours.action_size == theirs.action_size
    assert meld_table(ours) == meld_table(theirs)


@pytest.mark.parametrize("rules_id", playouts.RULES_IDS)
def test_engines_agree_on_masks_ids_and_tensors(core, reference, rules_id):
    for state in sample_states(rules_id):
        ours = core.Game.from_state_string(state)
        theirs = reference.Game.from_state_string(state)
        assert np.array_equal(ours.legal_mask(), theirs.legal_mask()), state
        assert [ours.action_id(m) for m in ours.legal_moves()] == \
            [theirs.action_id(m) for m in theirs.legal_moves()], state
        for player in range(ours.players):
            mine, other = ours.observation_tensor(player), theirs.observation_tensor(player)
            assert mine.dtype == other.dtype == np.float32
            assert np.array_equal(mine, other), f"{state}\nplayer {player}: " \
                + where_different(mine, other)


@pytest.mark.parametrize("kind", [np.int64, np.int32, np.uint16])
def test_numpy_integers_are_ids_and_indices(engine, kind):
    """A learner's ``np.argmax`` is an id: NumPy integers work wherever an int does."""
    game = engine.Game(engine.Rules("italian"), seed=4)
    mask = game.legal_mask()
    first = np.flatnonzero(mask)[0]
    assert game.action_move(kind(first)) == game.action_move(int(first))
    other = engine.Game(engine.Rules("italian"), seed=4)
    game.push_action(kind(first))
    other.push_index(kind(0))
    assert game.state_string() == other.state_string()
    with pytest.raises(engine.InvalidNotationError):
        game.action_move(np.bool_(True))
