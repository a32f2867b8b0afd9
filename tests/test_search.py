"""docs/search.md on both engines (the ``engine`` fixture), then the core against the reference:
observations (RULES C.9), determinization, the greedy playout policy and batch ``playouts()``.

* Observations are checked against the full state string on sampled states of every rule set
  (:func:`sample_states`: seeded hands of ``playouts.GAME_RULES``): the observation string is the
  state string masked as the spec says (:func:`masked`, read off the text alone), it writes no card
  the player may not see, and its accessors agree with the game's. A few hand-picked states are
  checked field by field (face-down, seen, untaken and stock packets, known cards, empty stock).
* Determinizations keep the observation (every public field, the player's own hand, the known
  cards), conserve the deck, are legal states, are reproducible and vary with the seed, deal
  exactly as the spec's steps (:func:`expected_determinization`, from the observation string
  alone, and the parser for step 4) and read nothing but the observation.
* The greedy policy is checked on positions where its move is obvious (built by
  :func:`build_state`), and its hands are legal to the end.
* ``playouts()``: shapes, dtypes, each row against ``Game.playout``, ``threads``, bad arguments.

Decisions where docs/search.md leaves room (the tests hold both engines to them):

* An Observation's ``repr`` is not specified and not tested; ``obs == other`` and ``hash`` follow
  the string (equal strings, equal and one set element).
* ``game.playout('greedy', seed)`` does not use the seed but still checks it: a bad seed raises
  ``InvalidNotationError`` quoting it, as with ``'random'``.
* ``determinize(player, seed)`` with both bad reports the player.
* ``playouts()``: every bad argument (``rules`` not a Rules, ``n``, ``seed``, ``policy``,
  ``threads``, a wrong type included) raises a ``BurracoError`` (a ValueError) quoting it.
"""

from __future__ import annotations

import functools
from collections import Counter

import numpy as np
import playouts
import pytest
from conftest import engine_name, load_engine
from playouts import card_names, full_deck, meld_layouts, state_fields

from burraco.reference.rng import Xoshiro256StarStar, shuffle

MASK64 = (1 << 64) - 1
RANKS = "A23456789TJQK"
SUITS = "cdhs"
FIELD_NAMES = ("v", "player", "rules", "seed", "first", "scores", "turn", "phase", "hands", "known",
               "stock", "pile", "top", "melds", "pozzetti", "hold", "opened", "need", "deadlock",
               "turnflags", "split", "end", "cut")

# The sampled hands of every rule set: (policy of tests/playouts.py, seed); every SAMPLE_EVERY-th
# state of each is kept, and its last.
SAMPLE_HANDS = (("meld", 1), ("meld", 2), ("draw", 3))
SAMPLE_EVERY = 9


def card_index(name: str) -> int:
    """The canonical index of a card name (RULES 0.2): 13 * suit + rank, the joker last."""
    return 52 if name == "Jk" else 13 * SUITS.index(name[1]) + RANKS.index(name[0])


def canonical(names) -> str:
    """A state-string card list in canonical order."""
    return "".join(sorted(names, key=card_index)) or "-"


def split_players(rules) -> int:
    return 4 if rules.players == 3 else 2


@functools.cache
def sample_states(rules_id: str) -> tuple[str, ...]:
    """State strings of seeded hands under one rule set (played by the reference; each engine reads
    them back with ``from_state_string``)."""
    return playouts.sample_states(load_engine("reference"), rules_id, SAMPLE_HANDS, SAMPLE_EVERY)


def sample_games(engine, rules_id: str):
    return [engine.Game.from_state_string(state) for state in sample_states(rules_id)]


def masked(state: str, player: int) -> str:
    """The observation string of ``player`` written from the state string alone (docs/search.md)."""
    fields = state_fields(state)
    fields["seed"] = "-"
    fields["hands"] = "/".join(
        hand if seat == player else f"?{len(card_names(hand))}"
        for seat, hand in enumerate(fields["hands"].split("/"))
    )
    stock = card_names(fields["stock"])
    fields["stock"] = f"?{len(stock)}" if stock else "-"
    packets = []
    for packet in fields["pozzetti"].split("/"):
        status, cards = packet.split(":")
        visible = status[0] in "hx" or status == f"s{player}"
        packets.append(packet if visible else f"{status}:?{len(card_names(cards))}")
    fields["pozzetti"] = "/".join(packets)
    names = ["v", "player", *[name for name in fields if name != "v"]]
    fields["player"] = str(player)
    return ";".join(f"{name}={fields[name]}" for name in names)


def written_cards(text: str) -> Counter:
    """Every card an observation (or state) string writes in its hands, stock and packets."""
    fields = state_fields(text)
    found: Counter = Counter()
    for value in fields["hands"].split("/") + [fields["stock"]]:
        if not value.startswith("?"):
            found.update(card_names(value))
    for packet in fields["pozzetti"].split("/"):
        cards = packet.split(":")[1]
        if not cards.startswith("?"):
            found.update(card_names(cards))
    return found


def visible_cards(state: str, player: int) -> Counter:
    """The cards of hands, stock and packets that ``player`` may see: the own hand and a packet
    the player has seen (RULES C.9)."""
    fields = state_fields(state)
    found = Counter(card_names(fields["hands"].split("/")[player]))
    for packet in fields["pozzetti"].split("/"):
        status, cards = packet.split(":")
        if status == f"s{player}":
            found.update(card_names(cards))
    return found


def observation_view(obs) -> dict:
    """An observation's accessors as plain data (``rules`` by its state-string text)."""
    slots = split_players(obs.rules)
    return {
        "player": obs.player,
        "turn": obs.turn,
        "phase": obs.phase,
        "hand": str(obs.hand),
        "hand_sizes": tuple(obs.hand_sizes),
        "known": tuple(str(cards) for cards in obs.known),
        "stock_size": obs.stock_size,
        "discard_pile": str(obs.discard_pile),
        "top": None if obs.top is None else str(obs.top),
        "melds": tuple(tuple(str(meld) for meld in obs.melds(side)) for side in range(slots)),
        "pozzetti": tuple((status, owner, size, None if cards is None else str(cards))
                          for status, owner, size, cards in obs.pozzetti),
        "scores": tuple(obs.scores),
    }


def game_view(game, player: int) -> dict:
    """What :func:`observation_view` must show, read off the game's own accessors."""
    slots = split_players(game.rules)
    packets = []
    for status, owner, cards in game.pozzetti:
        if status in ("in_hand", "stock"):
            packets.append((status, owner, None, None))
        else:
            mine = status == "seen" and owner == player
            packets.append((status, owner, len(cards), str(cards) if mine else None))
    return {
        "player": player,
        "turn": game.turn,
        "phase": game.phase,
        "hand": str(game.hand(player)),
        "hand_sizes": tuple(len(game.hand(seat)) for seat in range(game.players)),
        "known": tuple(str(game.known(seat)) for seat in range(game.players)),
        "stock_size": game.stock_size,
        "discard_pile": str(game.discard_pile),
        "top": None if game.top_discard is None else str(game.top_discard),
        "melds": tuple(tuple(str(meld) for meld in game.melds(side)) for side in range(slots)),
        "pozzetti": tuple(packets),
        "scores": tuple(game.scores),
    }


# ---- observations ---------------------------------------------------------------------------


def test_sample_states_reach_every_masked_case():
    """The sampled states hold every packet status, known cards and an empty stock (else the
    tests below would not see them)."""
    statuses: set[str] = set()
    known = empty_stock = False
    for rules_id in playouts.RULES_IDS:
        for state in sample_states(rules_id):
            fields = state_fields(state)
            statuses.update(packet[0] for packet in fields["pozzetti"].split("/"))
            known |= any(value != "-" for value in fields["known"].split("/"))
            empty_stock |= fields["stock"] == "-"
    assert statuses == set("ufshx")
    assert known and empty_stock


@pytest.mark.parametrize("rules_id", playouts.RULES_IDS)
def test_observation_is_the_masked_state_string(engine, rules_id):
    """RULES C.9 on sampled states, every player: the observation string is the state string with
    exactly the hidden fields masked, it writes no card of another hand, of the stock or of a
    packet the player has not seen, and the accessors give the game's values, restricted."""
    for game in sample_games(engine, rules_id):
        state = game.state_string()
        for player in range(game.players):
            obs = game.observation(player)
            text = str(obs)
            where = f"{state}\nplayer {player}"
            assert text == masked(state, player), where
            assert written_cards(text) == visible_cards(state, player), where
            assert tuple(state_fields(text)) == FIELD_NAMES, where
            assert observation_view(obs) == game_view(game, player), where
            assert obs.rules == game.rules


PERFT_3P_FACE_DOWN = (  # tests/data/perft/italian-3p.perft, italian-3p-one-card
    "v=1;rules=italian-3p;seed=35;first=0;scores=0,0,0;turn=2;phase=meld;hands=6c6dJd5h3s5sJs/-/8d;"
    "known=6c3sJs/-/-;stock=3d5d3dQcTh;pile=Tc7d;top=7d;melds=-/2s(=9d)TdJdQdKdAd@1+3c3hJk(=3)@2"
    "+JcJc2h(=J)@12/-/3s4s5s@0+5c5c5d5hJk(=5)@3+TdThTs2c(=T)@4+9d9sJk(=9)@5+2c(=Th)JhQhKhAh@6"
    "+6c6s6s2h(=6)@7+AcAdAsAs@8+9c9c9h9h@9+8c8c8h8h8s8s@10+KcKcKd@11+QcQdQhQs@13+4c4c4h4s@14"
    "+7c7d7h@15;pozzetti=f1:2s4hAc6h7h6d7cKh7s4dKs2dJkTs7s3cJhJs/u:QsKs3h8dTc4d9dAh9s6h2d;hold=-;"
    "opened=0,0,0,0;need=0,0,0,0;deadlock=0;turnflags=d;split=1;end=-;cut=-"
)
ONLINE_SEEN = (  # online-2p seed 0: seat 1 took the first packet by discarding (seen at once)
    "v=1;rules=online-2p;seed=0;first=0;scores=0,0;turn=0;phase=draw;hands=7cTcTdKdJs/-;"
    "known=7cTcTdJs/-;stock=Ac2h3sKh6cTs4dJkAh7s9c5s7cKsQh6h2cQsTsTd4sJcAhQc;pile=4c4d8d4sKs;"
    "top=4d;melds=5h6h7h2s(=8h)9h+5c5d2c(=5)+AdAsAsJk(=A)+QcQdQdQhQs/8d8h8s8s2d(=8)+5c5d5h5s"
    "+6c6s6s+9c9d9d9h9s9s+JcJdJhJh+3c3d3h3h3s+7d7d7s+KcKcKh;pozzetti=s1:2dKdThAd2h3c4c3dJd8hTc"
    "/u:8cTh6d7h6d8cAcJs4h2s4h;hold=-;opened=0,0;need=0,0;deadlock=0;turnflags=-;split=-;end=-;"
    "cut=-"
)
BRAZILIAN_EMPTY_STOCK = (  # brazilian seed 0: stock empty, one packet in a hand, one seen
    "v=1;rules=brazilian;seed=0;first=0;scores=0,0;turn=1;phase=meld;"
    "hands=6dTh/Kc4dQdKhJs/-/Jc8d8h;known=6dTh/-/-/8d;stock=-;pile=5cQc7dKd3h4hJhQs;top=3h;"
    "melds=8c8c8d8h8s+2s(=9d)TdJdQdKdAd+3c4c5c6c7c2s(=8c)9c+ThJhQhKh+AcAcAdAhAhAsJk(=A)"
    "+5d5d5h5h5s5s+4c4d4s2c(=4)+JcQcKc"
    "/TcTdTs2d(=T)+7c7d7h7h7s7s2c(=7)+9c9d9d9h9h9s9s2h(=9)+3d3d3h3s3sJk(=3)+6c6d6h6s2h(=6)"
    "+2d(=Ts)JsQsKs+4h4sJk(=4);pozzetti=h1:-/s2:6h6s8sJdTcAsQhTsJkKs3c;hold=-;opened=1,1;"
    "need=50,50;deadlock=0;turnflags=-;split=-;end=-;cut=-"
)
# tests/data/perft/online-2p.perft, online-2p-one-card: a packet became the stock
ONLINE_PACKET_STOCK = (
    "v=1;rules=online-2p;seed=21;first=0;scores=0,0;turn=1;phase=meld;hands=8c4d/2d;known=4d/-;"
    "stock=7c2sAcQh2dQs8s;pile=3c7d7d8d7h8h;top=8d;melds=8d9dTd2s(=Jd)QdKd+3h4h5h2c(=6h)7h8h"
    "+6s6sJk(=6)+3d3d3h2c(=3)+9h9s9s/3s4s5s2h(=6s)7s8s+3c4c5c6c7c2h(=8c)9c+Jk(=8c)9cTcJcQcKc"
    "+AdAdAhAhAsAs+JcJdJhJhJsJs+KcKdKhKsKs+QcQdQhQs+6c6d6d6h+5c5d5d5h5s+TdThTsTs+4c4d4h4s;"
    "pozzetti=x:-/u:TcAc9d3s9h6hTh7sJd8cKh;hold=-;opened=0,0;need=0,0;deadlock=0;turnflags=d;"
    "split=-;end=-;cut=-"
)

# (state, player, the fields that differ from the state string), written out by hand.
HAND_PICKED = [
    pytest.param(PERFT_3P_FACE_DOWN, 0, {
        "hands": "6c6dJd5h3s5sJs/?0/?1", "stock": "?5",
        "pozzetti": "f1:?18/u:?11"}, id="3p-face-down-other"),
    pytest.param(PERFT_3P_FACE_DOWN, 1, {
        "hands": "?7/-/?1", "stock": "?5",
        "pozzetti": "f1:?18/u:?11"}, id="3p-face-down-own-not-yet-looked-at"),
    pytest.param(PERFT_3P_FACE_DOWN, 2, {
        "hands": "?7/?0/8d", "stock": "?5",
        "pozzetti": "f1:?18/u:?11"}, id="3p-seat-2"),
    pytest.param(ONLINE_SEEN, 0, {
        "hands": "7cTcTdKdJs/?0", "stock": "?24",
        "pozzetti": "s1:?11/u:?11"}, id="seen-by-the-other"),
    pytest.param(ONLINE_SEEN, 1, {
        "hands": "?5/-", "stock": "?24",
        "pozzetti": "s1:2dKdThAd2h3c4c3dJd8hTc/u:?11"}, id="seen-by-me"),
    pytest.param(BRAZILIAN_EMPTY_STOCK, 2, {
        "hands": "?2/?5/-/?3", "stock": "-",
        "pozzetti": "h1:-/s2:6h6s8sJdTcAsQhTsJkKs3c"}, id="empty-stock-seen-by-me"),
    pytest.param(BRAZILIAN_EMPTY_STOCK, 3, {
        "hands": "?2/?5/?0/Jc8d8h", "stock": "-",
        "pozzetti": "h1:-/s2:?11"}, id="empty-stock-partner-seen"),
    pytest.param(ONLINE_PACKET_STOCK, 0, {
        "hands": "8c4d/?1", "stock": "?7",
        "pozzetti": "x:-/u:?11"}, id="packet-became-stock"),
]


@pytest.mark.parametrize(("state", "player", "changed"), HAND_PICKED)
def test_observation_string_field_by_field(engine, state, player, changed):
    """docs/search.md: ``player=P`` after the version, ``seed=-``, the other hands ``?N``, the
    stock ``?N`` or ``-``, packets ``u:?N`` / ``f<p>:?N`` / ``s<p>:?N`` unless seen by P, ``h``
    and ``x`` unchanged; every other field (``known`` included) exactly as in the state string."""
    obs = engine.Game.from_state_string(state).observation(player)
    fields = state_fields(str(obs))
    expected = state_fields(state)
    expected.update(changed, player=str(player), seed="-")
    assert tuple(fields) == FIELD_NAMES
    for name in FIELD_NAMES:
        assert fields[name] == expected[name], name
    assert obs.player == player
    assert obs.stock_size == (0 if changed["stock"] == "-" else int(changed["stock"][1:]))
    assert tuple(str(cards) for cards in obs.known) == tuple(
        " ".join(card_names(value)) for value in state_fields(state)["known"].split("/")
    )


def test_observation_accessors_on_a_seen_packet(engine):
    game = engine.Game.from_state_string(ONLINE_SEEN)
    mine, theirs = game.observation(1), game.observation(0)
    seen = engine.Cards("2d Kd Th Ad 2h 3c 4c 3d Jd 8h Tc")
    assert mine.pozzetti == (("seen", 1, 11, seen), ("untaken", None, 11, None))
    assert theirs.pozzetti == (("seen", 1, 11, None), ("untaken", None, 11, None))
    assert mine.hand == engine.Cards() and mine.hand_sizes == (5, 0)
    assert theirs.hand == engine.Cards("7c Tc Td Kd Js")
    assert theirs.known == (engine.Cards("7c Tc Td Js"), engine.Cards())
    assert theirs.stock_size == 24 and theirs.top == engine.Card("4d")
    assert theirs.discard_pile == engine.Cards("4c 4d 8d 4s Ks")
    assert [str(meld) for meld in theirs.melds(0)] == [str(meld) for meld in game.melds(0)]
    assert theirs.turn == 0 and theirs.phase == "draw" and theirs.scores == (0, 0)
    stock = engine.Game.from_state_string(ONLINE_PACKET_STOCK).observation(1)
    assert stock.pozzetti == (("stock", None, None, None), ("untaken", None, 11, None))
    game = engine.Game.from_state_string(BRAZILIAN_EMPTY_STOCK)
    seen = engine.Cards("6h 6s 8s Jd Tc As Qh Ts Jk Ks 3c")
    assert game.observation(2).pozzetti == (("in_hand", 1, None, None), ("seen", 2, 11, seen))
    assert game.observation(0).pozzetti == (("in_hand", 1, None, None), ("seen", 2, 11, None))
    assert game.observation(0).stock_size == 0


def test_observation_is_an_immutable_value(engine):
    game = engine.Game(engine.Rules("italian"), seed=7)
    obs = game.observation(2)
    assert obs == game.observation(2) and obs != game.observation(1)
    assert len({obs, game.observation(2)}) == 1
    other = game.determinize(2, 99)  # the same observation, other hidden cards
    assert other.state_string() != game.state_string()
    assert other.observation(2) == obs and hash(other.observation(2)) == hash(obs)
    with pytest.raises(AttributeError):
        obs.player = 1
    game.push("draw")
    assert obs != game.observation(2)  # taken before the move: it does not follow the game
    assert str(obs).startswith("v=1;player=2;rules=italian;seed=-;")


@pytest.mark.parametrize("player", [-1, 4, 1.5, "0", None, True])
def test_observation_refuses_a_bad_player(engine, player):
    game = engine.Game(engine.Rules("italian"), seed=7)
    with pytest.raises(engine.InvalidNotationError) as info:
        game.observation(player)
    assert repr(player) in str(info.value)


# ---- determinization -------------------------------------------------------------------------


def expected_determinization(engine, rules, observation: str, seed: int) -> str:
    """docs/search.md "Determinization", steps 1-5, from the observation string and the rules;
    step 4 asks ``engine``'s parser whether the seat to act of a deal has a legal move."""
    fields = state_fields(observation)
    player = int(fields.pop("player"))
    players = rules.players
    hands = fields["hands"].split("/")
    known = [card_names(value) for value in fields["known"].split("/")]
    packets = fields["pozzetti"].split("/")
    placed = Counter(card_names(hands[player]))
    placed.update(card_names(fields["pile"]))
    for slot in meld_layouts(fields["melds"]):
        for meld in slot:
            placed.update(meld)
    for seat in range(players):
        if seat != player:
            placed.update(known[seat])
    for packet in packets:
        cards = packet.split(":")[1]
        if not cards.startswith("?"):
            placed.update(card_names(cards))
    unseen = full_deck(rules) - placed
    assert sum(unseen.values()) == sum(full_deck(rules).values()) - sum(placed.values())
    order = sorted(unseen.elements(), key=card_index)
    generator = Xoshiro256StarStar(seed)
    shuffle(order, generator)

    def handed_out(order: list[str]) -> str:
        order = list(order)
        dealt = dict(fields)
        seats = list(hands)
        for step in range(1, players):
            seat = (player + step) % players
            size = int(seats[seat][1:])
            seats[seat] = canonical(known[seat] + order[: size - len(known[seat])])
            del order[: size - len(known[seat])]
        dealt["hands"] = "/".join(seats)
        written = list(packets)
        for number, packet in enumerate(written):
            status, cards = packet.split(":")
            if cards.startswith("?"):
                written[number] = f"{status}:{''.join(order[: int(cards[1:])])}"
                del order[: int(cards[1:])]
        dealt["pozzetti"] = "/".join(written)
        stock = 0 if fields["stock"] == "-" else int(fields["stock"][1:])
        dealt["stock"] = "".join(order[:stock]) or "-"
        del order[:stock]
        assert not order
        return ";".join(f"{name}={value}" for name, value in dealt.items())

    # Step 4: the seat to act, seen from another seat, in its meld phase with one card not known.
    turn = int(fields["turn"])
    if (turn == player or fields["phase"] != "meld" or hands[turn] != "?1"
            or known[turn]):
        return handed_out(order)
    t = sum(int(hands[seat][1:]) - len(known[seat])
            for seat in ((player + step) % players for step in range(1, players))
            if (seat - player) % players < (turn - player) % players)

    def lets_move(card: str) -> bool:
        trial = list(order)
        j = trial.index(card)
        trial[t], trial[j] = trial[j], trial[t]
        try:
            engine.Game.from_state_string(handed_out(trial))
        except engine.InvalidStateError as error:
            assert "no legal move" in str(error)
            return False
        return True

    if not lets_move(order[t]):
        playable = [j for j, card in enumerate(order) if lets_move(card)]
        j = playable[generator.bounded(len(playable))]
        order[t], order[j] = order[j], order[t]
    return handed_out(order)


@pytest.mark.parametrize("rules_id", playouts.RULES_IDS)
def test_determinize_keeps_the_observation(engine, rules_id):
    """On sampled states, for the seat to act and the next one: the determinization has the same
    observation (every public field, the player's hand, each seat's known cards and hand size, the
    packets' statuses and sizes), the whole deck, every known card in its seat's hand, no seed and
    no history; it is dealt exactly as the spec's steps say; it is a legal state (read back from
    its string, with the same legal moves; the player to act has the moves of the real game), for
    every seed: seen from another seat too (step 4 gives the seat to act a card it can move
    with)."""
    rules = playouts.make_rules(engine, rules_id)
    deck = full_deck(rules)
    for number, game in enumerate(sample_games(engine, rules_id)):
        state = game.state_string()
        for player in {game.turn, (game.turn + 1) % game.players}:
            seed = 1000 * number + player
            det = game.determinize(player, seed)
            text = det.state_string()
            where = f"{state}\nplayer {player} seed {seed}\n{text}"
            assert det.observation(player) == game.observation(player), where
            assert playouts.state_cards(text) == deck, where
            for seat in range(game.players):
                assert len(det.hand(seat)) == len(game.hand(seat)), where
                assert det.known(seat) == game.known(seat), where
                assert det.known(seat) <= det.hand(seat), where
            assert det.hand(player) == game.hand(player), where
            assert det.seed is None and det.moves == [], where
            assert state_fields(text)["seed"] == "-", where
            expected = expected_determinization(engine, rules, str(game.observation(player)),
                                                seed)
            assert text == expected, where
            again = engine.Game.from_state_string(text)
            assert again.state_string() == text, where
            assert again.legal_moves() == det.legal_moves(), where
            if player == game.turn:
                assert det.legal_moves() == game.legal_moves(), where


@pytest.mark.parametrize("rules_id", playouts.RULES_IDS)
def test_determinized_games_play_to_the_end(engine, rules_id):
    """A determinization is a game like any other: a random playout ends it with a result."""
    states = sample_states(rules_id)
    for state in states[1:: max(1, len(states) // 4)]:
        game = engine.Game.from_state_string(state)
        det = game.determinize(game.turn, 5)
        played = det.playout("random", 6)
        assert det.is_over() and len(det.moves) == played
        assert det.result().end_reason in ("closed", "stock_exhausted", "deadlock")


def test_determinize_is_reproducible_and_varies_with_the_seed(engine):
    for preset in engine.Rules.PRESETS:
        game = engine.Game(engine.Rules(preset), seed=11)
        game.push(game.legal_moves()[0])
        first = game.determinize(1, 123).state_string()
        assert game.determinize(1, 123).state_string() == first
        others = {game.determinize(1, seed).state_string() for seed in (0, 1, 2, 2**64 - 1)}
        assert len(others) == 4 and first not in others
        assert game.state_string() != first  # 11's deal is not what seed 123 deals


def swap_hidden(state: str, seat: int, field: str) -> str:
    """The state with one unknown card of ``seat``'s hand swapped with a different card of the
    stock (``field='stock'``) or of packet 1 (``field='packet'``): only hidden cards change."""
    fields = state_fields(state)
    hands = fields["hands"].split("/")
    hand = card_names(hands[seat])
    known = Counter(card_names(fields["known"].split("/")[seat]))
    unknown = list((Counter(hand) - known).elements())
    if field == "stock":
        other = card_names(fields["stock"])
    else:
        packets = fields["pozzetti"].split("/")
        status, cards = packets[1].split(":")
        other = card_names(cards)
    mine = unknown[0]
    position = next(i for i, card in enumerate(other) if card != mine)
    hand.remove(mine)
    hand.append(other[position])
    other[position] = mine
    hands[seat] = canonical(hand)
    fields["hands"] = "/".join(hands)
    if field == "stock":
        fields["stock"] = "".join(other)
    else:
        packets[1] = f"{status}:{''.join(other)}"
        fields["pozzetti"] = "/".join(packets)
    return ";".join(f"{name}={value}" for name, value in fields.items())


@pytest.mark.parametrize("field", ["stock", "packet"])
def test_determinize_reads_only_the_observation(engine, field):
    """Two games that differ only in cards the player cannot see give the same determinization
    for the same seed; and so does a determinization itself (it differs only there too)."""
    game = engine.Game(engine.Rules("italian"), seed=3)
    game.push("pile")  # seat 0 takes the start card: it is known to be in its hand
    game.push([move for move in game.legal_moves() if move.kind == "discard"][-1])
    game.push("draw")
    state = game.state_string()
    assert state_fields(state)["known"] != "-/-/-/-"
    other = engine.Game.from_state_string(swap_hidden(state, 2, field))
    assert other.state_string() != state
    for player in (0, 1, 3):
        assert other.observation(player) == game.observation(player)
        for seed in (0, 77, 2**63):
            expected = game.determinize(player, seed).state_string()
            assert other.determinize(player, seed).state_string() == expected
    assert other.observation(2) != game.observation(2)  # seat 2 sees its own hand change


def test_a_determinization_determinizes_like_the_real_game(engine):
    """A determinization differs from the real game only in cards the player cannot see."""
    for rules_id in playouts.RULES_IDS:
        for real in sample_games(engine, rules_id)[::7]:
            player = real.turn
            det = real.determinize(player, 31)
            for seed in (1, 2):
                assert det.determinize(player, seed).state_string() == \
                    real.determinize(player, seed).state_string()


@pytest.mark.parametrize(("player", "seed"), [
    (-1, 0), (4, 0), (1.5, 0), ("1", 0), (None, 0), (True, 0),
    (1, -1), (1, 2**64), (1, 1.5), (1, "7"), (1, None),
])
def test_determinize_refuses_bad_arguments(engine, player, seed):
    game = engine.Game(engine.Rules("italian"), seed=7)
    before = game.state_string()
    with pytest.raises(engine.InvalidNotationError) as info:
        game.determinize(player, seed)
    bad = player if seed == 0 else seed
    assert repr(bad) in str(info.value)
    assert game.state_string() == before


# ---- the greedy policy -----------------------------------------------------------------------


def build_state(rules, hands, melds=("-", "-"), pile=(), top="-", turn=0, phase="meld",
                known=None, hold="-", turnflags="-", stock=None, need="0,0") -> str:
    """A version-1 state string of a 2-player rule set (italian-2p, or brazilian for 2): the given
    hands, side melds (layouts without spaces, ``+`` joined) and pile; the cards left over fill the
    two untaken packets, then the stock in canonical order (or, when ``stock`` is given, the last
    seat's hand). ``need``: the brazilian opening requirements (no side open yet)."""
    used = Counter()
    for hand in hands:
        used.update(hand.split())
    for slot in meld_layouts("/".join(melds)):
        for meld in slot:
            used.update(meld)
    used.update(pile)
    rest = sorted((full_deck(rules) - used).elements(), key=card_index)
    packets = []
    for size in rules.pozzetto_sizes:
        packets.append("u:" + "".join(rest[:size]))
        del rest[:size]
    hand_lists = [hand.split() for hand in hands]
    if stock is not None:
        for card in stock:
            rest.remove(card)
        hand_lists[-1] += rest
        rest = list(stock)
    known = known or ["-"] * len(hands)
    return ";".join([
        "v=1", f"rules={rules_text(rules)}", "seed=-", "first=0", "scores=0,0", f"turn={turn}",
        f"phase={phase}", "hands=" + "/".join(canonical(hand) for hand in hand_lists),
        "known=" + "/".join(known), f"stock={''.join(rest) or '-'}", f"pile={canonical(pile)}",
        f"top={top}", "melds=" + "/".join(melds), "pozzetti=" + "/".join(packets), f"hold={hold}",
        "opened=0,0", f"need={need}", "deadlock=0", f"turnflags={turnflags}", "split=-", "end=-",
        "cut=-",
    ])


def rules_text(rules) -> str:
    return "italian-2p" if rules.preset == "italian-2p" else f"{rules.preset}:players=2"


# (id, hand of seat 0, side 0's melds, extra: other state fields, moves that must be legal, the
# greedy move; and for some the greedy move after it).
GREEDY_POSITIONS = [
    ("longest-meld-first", "3c 4c 5c 8s 9s Ts Js 6d Ks", "KcKdKh", {},
     ["meld 3c 4c 5c", "add 0 Ks"], ["meld 8s 9s Ts Js"]),
    ("equal-melds-canonical", "3c 4c 5c 8s 9s Ts Kd Qh", "-", {},
     ["meld 8s 9s Ts"], ["meld 3c 4c 5c"]),
    ("natural-lay-off-before-wild", "2c 9s Kd 5s", "5h6h7h+9c9d9h", {},
     ["add 0 2c", "add 1 2c", "discard Kd"], ["add 1 9s", "discard Kd"]),
    ("two-cards-lay-off-a-wild", "2c Kd", "5h6h7h+9c9d9h", {},
     ["discard Kd", "discard 2c"], ["add 0 2c"]),
    ("three-cards-keep-the-wild", "2c Kd 4s", "5h6h7h+9c9d9h", {},
     ["add 0 2c"], ["discard Kd"]),
    ("discard-useless-high-first", "Kc 4d 9h 9s Qd", "-", {},
     ["discard 4d", "discard Qd"], ["discard Kc"]),
    ("discard-skips-the-held-card", "Kc 4d 9h 9s Qd", "-",
     {"hold": "Kc", "known": ["Kc", "-"], "turnflags": "p"},
     ["discard 4d", "discard Qd"], ["discard Qd"]),
    ("ace-is-fourteen", "Ah Qh Kc 6d", "-", {}, ["discard Ah"], ["discard Kc"]),
    ("ace-is-one", "Ah 3h Kc 6d", "-", {}, ["discard Ah"], ["discard Kc"]),
    ("distance-three-does-not-count", "4c 6c 9c Qd Ks", "-", {}, ["discard Qd"], ["discard 9c"]),
    ("wilds-are-kept", "Jk 2d 5s Kd", "-", {}, ["discard Jk", "discard 2d"], ["discard Kd"]),
]


@pytest.mark.parametrize(("hand", "melds", "extra", "legal", "expected"),
                         [pytest.param(*row[1:], id=row[0]) for row in GREEDY_POSITIONS])
def test_greedy_meld_phase(engine, hand, melds, extra, legal, expected):
    rules = engine.Rules("italian-2p")
    other = "4h 6h 8h Th"  # seat 1: nothing that matters
    state = build_state(rules, [hand, other], melds=(melds, "-"), **extra)
    game = engine.Game.from_state_string(state)
    moves = [str(move) for move in game.legal_moves()]
    for move in legal + expected[:1]:
        assert move in moves, (move, moves)
    if "hold" in extra:
        assert f"discard {extra['hold']}" not in moves
    game.playout("greedy", 0)
    assert [str(move) for move in game.moves[: len(expected)]] == expected


@pytest.mark.parametrize(("hand", "legal", "expected"), [
    pytest.param("3c 4c 5c", ["meld 3c 4c 5c"], ["discard 3c"], id="short-opening-not-melded"),
    pytest.param("3c 4c 5c 9d Kc", [], ["meld 3c 4c 5c", "discard Kc"],
                 id="meld-that-keeps-cards"),
    pytest.param("Kc Kd Ks Ac Ad As", [], ["meld Ac Ad As", "meld Kc Kd Ks"],
                 id="opening-reached"),
])
def test_greedy_brazilian_opening(engine, hand, legal, expected):
    """A meld that would empty the hand of a side short of its opening (the cards would only come
    back, RULES C.3) is not chosen; one that keeps cards, or empties the hand with enough points
    (45 + 30 >= 50), is."""
    rules = engine.Rules("brazilian", players=2)
    state = build_state(rules, [hand, "4h 6h 8h Th"], need="50,50")
    game = engine.Game.from_state_string(state)
    for move in legal + expected[:1]:
        assert move in game.legal_moves().strings()
    game.playout("greedy", 0)
    assert game.moves[: len(expected)] == [engine.Move(move) for move in expected]


def test_greedy_draw_phase(engine):
    """Draw phase: ``keep`` before ``reject``, ``draw`` before a pile that does not pay (the pile
    rule itself: tests/test_bots.py), else the one move."""
    game = engine.Game(engine.Rules("italian-2p"), seed=2)
    assert [str(move) for move in game.legal_moves()] == ["draw", "pile"]
    game.playout("greedy", 5)
    assert str(game.moves[0]) == "draw"
    game = engine.Game(engine.Rules("brazilian"), seed=1)
    assert [str(move) for move in game.legal_moves()] == ["keep", "reject"]
    game.playout("greedy", 5)
    assert str(game.moves[0]) == "keep"
    # After a deadlock under force_draw (RULES D.4) the pile may not be taken: draw is the one move.
    rules = engine.Rules("italian-2p", deadlock_rule="force_draw")
    state = build_state(rules, ["3c 7d Js", "4h"], pile=["9d"], top="9d", phase="draw",
                        turnflags="f").replace("rules=italian-2p;",
                                               "rules=italian-2p:deadlock_rule=force_draw;")
    game = engine.Game.from_state_string(state)
    assert [str(move) for move in game.legal_moves()] == ["draw"]
    game.playout("greedy", 0)
    assert str(game.moves[0]) == "draw"


@pytest.mark.parametrize("rules_id", playouts.RULES_IDS)
def test_greedy_hands_are_legal_and_end(engine, rules_id):
    """From deals and from sampled states: every greedy move is legal where it is played, the hand
    ends with a result, the seed changes nothing, and the same position gives the same hand."""
    rules = playouts.make_rules(engine, rules_id)
    starts = [engine.Game(rules, seed=seed) for seed in range(3)]
    starts += sample_games(engine, rules_id)[2:5]
    for start in starts:
        game = start.copy()
        played = game.playout("greedy", 0)
        assert game.is_over() and played == len(game.moves) - len(start.moves)
        game.result()
        replay = start.copy()
        for move in game.moves[len(start.moves):]:
            assert move in replay.legal_moves()
            replay.push(move)
        assert replay.state_string() == game.state_string()
        again = start.copy()
        assert again.playout("greedy", 2**64 - 1) == played
        assert again.moves == game.moves


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, None])
def test_greedy_checks_the_seed(engine, seed):
    game = engine.Game(engine.Rules("italian"), seed=5)
    with pytest.raises(engine.InvalidNotationError) as info:
        game.playout("greedy", seed)
    assert repr(seed) in str(info.value)
    assert game.moves == []


@pytest.mark.parametrize("rules_id", playouts.RULES_IDS)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_policy_move_is_the_playouts_first_move(engine, rules_id, policy):
    """policy_move(policy, seed) is the first move playout(policy, seed) plays, and plays nothing;
    stepping a hand with policy_move (one fresh seed per move) gives legal moves to the end."""
    # The reference's playouts are slow: it checks the first 3 sampled positions, the core 6.
    for start in sample_games(engine, rules_id)[:6 if engine_name(engine) == "core" else 3]:
        if start.is_over():
            continue
        before = start.state_string()
        for seed in (0, 7, 2**64 - 1):
            move = start.policy_move(policy, seed)
            assert start.state_string() == before and move in start.legal_moves()
            game = start.copy()
            game.playout(policy, seed)
            assert game.moves[len(start.moves)] == move
    game = engine.Game(playouts.make_rules(engine, rules_id), seed=11)
    steps = 0
    while not game.is_over():
        game.push(game.policy_move(policy, steps))
        steps += 1
    game.result()
    assert steps == len(game.moves)


@pytest.mark.parametrize(("policy", "seed", "quoted"), [
    ("best", 0, "'best'"), (None, 0, "None"), ("greedy", -1, "-1"), ("random", 2**64, str(2**64)),
    ("greedy", 1.5, "1.5"),
])
def test_policy_move_refuses_bad_arguments(engine, policy, seed, quoted):
    game = engine.Game(engine.Rules("italian"), seed=5)
    with pytest.raises(engine.InvalidNotationError) as info:
        game.policy_move(policy, seed)
    assert quoted in str(info.value)
    assert game.moves == []


def test_policy_move_on_a_finished_hand(engine):
    game = engine.Game(engine.Rules("italian-2p"), seed=5)
    game.playout("random", 1)
    with pytest.raises(engine.IllegalMoveError, match="over"):
        game.policy_move()


def test_engines_choose_the_same_policy_moves(core, reference):
    for rules_id in playouts.RULES_IDS:
        games = [sample_games(engine, rules_id) for engine in (core, reference)]
        for mine, theirs in zip(*games):
            if mine.is_over():
                continue
            for policy, seed in (("greedy", 0), ("random", 3), ("random", 99)):
                assert str(mine.policy_move(policy, seed)) == str(theirs.policy_move(policy, seed))


# ---- stepping from Python: MoveList and push_index ------------------------------------------


def test_legal_moves_is_a_move_list(engine):
    game = engine.Game(engine.Rules("italian-2p"), seed=1)
    game.push("draw")
    moves = game.legal_moves()
    strings = moves.strings()
    assert strings == [str(move) for move in moves] and len(moves) == len(strings) > 2
    assert moves[0] == engine.Move(strings[0]) and moves[-1] == engine.Move(strings[-1])
    assert [str(move) for move in moves[1:3]] == strings[1:3]
    last = strings[-1]
    assert last in moves and engine.Move(last) in moves and last.upper() in moves
    assert "draw" not in moves and "not a move" not in moves
    assert moves.index(last) == moves.index(engine.Move(last)) == len(moves) - 1
    assert moves.count(last) == 1 and moves.count("draw") == 0
    with pytest.raises(ValueError):
        moves.index("draw")
    assert moves == game.legal_moves()
    assert moves == [engine.Move(text) for text in strings]
    assert moves == tuple(engine.Move(text) for text in strings)
    assert moves != [engine.Move(text) for text in strings[:-1]]


def test_a_held_move_list_keeps_its_moves(engine):
    """A MoveList is a snapshot: pushes, pops and copies of the game never change one that is
    held, while lists asked for and dropped in a loop (which the core recycles) always show the
    current position's moves."""
    game = engine.Game(engine.Rules("italian"), seed=9)
    held = []
    for step in range(40):
        if game.is_over():
            break
        moves = game.legal_moves()
        if step % 3 == 0:
            held.append((moves, moves.strings(), game.copy()))
        assert [str(m) for m in game.legal_moves()] == [str(m) for m in moves]
        game.push_index((5 * step) % len(game.legal_moves()))
        if step % 7 == 6:
            game.pop()
    for moves, strings, position in held:
        assert moves.strings() == strings and len(moves) == len(strings)
        assert [str(m) for m in position.legal_moves()] == strings
        branch = position.copy()
        branch.push_index(len(branch.legal_moves()) - 1)
        assert moves.strings() == strings and position.legal_moves().strings() == strings


def test_legal_moves_repeat_generates_the_listed_moves(core):
    """The benches' C++ loop (burraco._core._legal_moves_repeat) generates exactly the moves that
    legal_moves() lists, every time, and changes nothing."""
    from burraco import _core

    for rules_id in playouts.RULES_IDS:
        for game in sample_games(core, rules_id)[:5]:
            before = game.state_string()
            assert _core._legal_moves_repeat(game, 3) == 3 * len(game.legal_moves())
            assert _core._legal_moves_repeat(game, 0) == 0
            assert game.state_string() == before
    game = core.Game(core.Rules("italian"), seed=1)
    for calls in (-1, 10**10, 1.5, "3", None):
        with pytest.raises(core.InvalidNotationError, match="calls"):
            _core._legal_moves_repeat(game, calls)


def test_move_list_indexes_like_a_list(engine):
    """Any integer object indexes a MoveList (numpy ints too), negatives count from the end, and
    out-of-range or non-integer keys raise IndexError / TypeError as a list does; push() of a Move
    taken from it plays that move."""
    game = engine.Game(engine.Rules("italian-2p"), seed=3)
    game.push("draw")
    moves = game.legal_moves()
    strings = moves.strings()
    assert str(moves[np.int64(1)]) == str(moves[True]) == strings[1]
    assert str(moves[-1]) == strings[-1] and str(moves[-len(strings)]) == strings[0]
    for key in (len(strings), -len(strings) - 1, 2**70):
        with pytest.raises(IndexError):
            moves[key]
    for key in ("1", 1.0, None):
        with pytest.raises(TypeError):
            moves[key]
    replay = game.copy()
    game.push(moves[np.int64(len(strings) - 1)])
    replay.push(strings[-1])
    assert game.state_string() == replay.state_string()


def test_push_index_plays_the_listed_move(engine):
    game = engine.Game(engine.Rules("italian"), seed=4)
    replay = game.copy()
    for step in range(12):
        moves = game.legal_moves()
        index = (7 * step) % len(moves)
        game.push_index(index)
        replay.push(moves[index])
        assert game.state_string() == replay.state_string()
        assert game.moves == replay.moves


@pytest.mark.parametrize("index", [-1, 2, 10**12, 1.0, "0", None, True])
def test_push_index_refuses_a_bad_index(engine, index):
    game = engine.Game(engine.Rules("italian"), seed=4)  # two moves: draw, pile
    before = game.state_string()
    with pytest.raises(engine.IllegalMoveError) as info:
        game.push_index(index)
    assert repr(index) in str(info.value)
    assert game.state_string() == before and game.moves == []


# ---- playouts() ------------------------------------------------------------------------------


def splitmix64(seed: int, count: int) -> list[int]:
    """SplitMix64 outputs 1..count from ``seed`` (docs/game.md "Match")."""
    outputs = []
    state = seed
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        outputs.append(z ^ (z >> 31))
    return outputs


def test_end_reasons(engine):
    assert engine.END_REASONS == ("closed", "stock_exhausted", "deadlock")


@pytest.mark.parametrize(("rules_id", "policy"), [
    ("italian", "random"), ("italian-2p", "greedy"), ("italian-3p", "random"),
    ("online-2p", "greedy"), ("brazilian", "greedy"), ("brazilian-2p", "random"),
])
def test_playouts_rows_are_single_playouts(engine, rules_id, policy):
    """Row i is ``Game(rules, seed=seed_i)`` played by ``playout(policy, seed_i)``."""
    rules = playouts.make_rules(engine, rules_id)
    n, seed = 3, 12345
    arrays = engine.playouts(rules, n, seed=seed, policy=policy)
    columns = 3 if rules.players == 3 else 2
    assert sorted(arrays) == ["end_reason", "moves", "scores", "seed"]
    expected_types = {"seed": (np.uint64, (n,)), "scores": (np.int32, (n, columns)),
                      "moves": (np.int32, (n,)), "end_reason": (np.uint8, (n,))}
    for name, (dtype, shape) in expected_types.items():
        assert arrays[name].dtype == dtype and arrays[name].shape == shape, name
    seeds = splitmix64(seed, n)
    assert arrays["seed"].tolist() == seeds
    for row, hand_seed in enumerate(seeds):
        game = engine.Game(rules, seed=hand_seed)
        assert arrays["moves"][row] == game.playout(policy, hand_seed)
        result = game.result()
        if columns == 3:
            scores = list(result.player_scores)
        else:
            scores = [side.total for side in result.sides]
        assert arrays["scores"][row].tolist() == scores
        assert arrays["end_reason"][row] == engine.END_REASONS.index(result.end_reason) + 1


def test_playouts_do_not_depend_on_threads(engine):
    rules = engine.Rules("italian-2p")
    one = engine.playouts(rules, 5, seed=9, threads=1)
    for threads in (2, 3, 64):
        other = engine.playouts(rules, 5, seed=9, threads=threads)
        for name in one:
            assert np.array_equal(other[name], one[name]) and other[name].dtype == one[name].dtype


@pytest.mark.parametrize(("preset", "columns"), [("italian", 2), ("italian-3p", 3)])
def test_playouts_of_no_hands(engine, preset, columns):
    arrays = engine.playouts(engine.Rules(preset), 0, seed=3, policy="greedy", threads=4)
    assert arrays["seed"].shape == (0,) and arrays["seed"].dtype == np.uint64
    assert arrays["scores"].shape == (0, columns) and arrays["scores"].dtype == np.int32
    assert arrays["moves"].shape == (0,) and arrays["moves"].dtype == np.int32
    assert arrays["end_reason"].shape == (0,) and arrays["end_reason"].dtype == np.uint8


@pytest.mark.parametrize(("name", "value"), [
    ("n", -7), ("n", 10**9 + 1), ("n", 2.5), ("n", "12"), ("n", None),
    ("seed", -5), ("seed", 2**64), ("seed", 0.5),
    ("policy", "best!"), ("policy", None),
    ("threads", -3), ("threads", 65), ("threads", 1.5),
    ("rules", "italian"),
])
def test_playouts_refuse_bad_arguments(engine, name, value):
    arguments = {"rules": engine.Rules("italian-2p"), "n": 2, "seed": 0, "policy": "random",
                 "threads": 1}
    arguments[name] = value
    rules, n = arguments.pop("rules"), arguments.pop("n")
    with pytest.raises(engine.BurracoError) as info:
        engine.playouts(rules, n, **arguments)
    assert isinstance(info.value, ValueError)
    assert repr(value) in str(info.value)


# ---- core against reference ------------------------------------------------------------------


@pytest.mark.parametrize("rules_id", playouts.RULES_IDS)
def test_engines_observe_and_determinize_alike(core, reference, rules_id):
    for state in sample_states(rules_id):
        core_game = core.Game.from_state_string(state)
        ref_game = reference.Game.from_state_string(state)
        for player in range(ref_game.players):
            core_obs, ref_obs = core_game.observation(player), ref_game.observation(player)
            assert str(core_obs) == str(ref_obs), (state, player)
            assert observation_view(core_obs) == observation_view(ref_obs), (state, player)
        following = (ref_game.turn + 1) % ref_game.players
        for player, seed in ((ref_game.turn, 1), (following, 2**64 - 2)):
            assert core_game.determinize(player, seed).state_string() == \
                ref_game.determinize(player, seed).state_string(), (state, player, seed)


@pytest.mark.parametrize("rules_id", playouts.RULES_IDS)
def test_engines_play_the_same_greedy_hands(core, reference, rules_id):
    starts = [(core.Game(playouts.make_rules(core, rules_id), seed=seed),
               reference.Game(playouts.make_rules(reference, rules_id), seed=seed))
              for seed in range(4)]
    states = sample_states(rules_id)
    starts += [(core.Game.from_state_string(state), reference.Game.from_state_string(state))
               for state in states[1:: max(1, len(states) // 3)]]
    for core_game, ref_game in starts:
        where = ref_game.state_string()
        assert core_game.playout("greedy", 0) == ref_game.playout("greedy", 0), where
        assert [str(m) for m in core_game.moves] == [str(m) for m in ref_game.moves], where
        assert core_game.state_string() == ref_game.state_string(), where
        assert playouts.result_view(core_game.result()) == \
            playouts.result_view(ref_game.result()), where


@pytest.mark.parametrize("rules_id", playouts.RULES_IDS)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_engines_give_the_same_playouts_rows(core, reference, rules_id, policy):
    core_arrays = core.playouts(playouts.make_rules(core, rules_id), 2, seed=7, policy=policy,
                                threads=2)
    ref_arrays = reference.playouts(playouts.make_rules(reference, rules_id), 2, seed=7,
                                    policy=policy)
    assert sorted(core_arrays) == sorted(ref_arrays)
    for name in ref_arrays:
        assert core_arrays[name].dtype == ref_arrays[name].dtype, name
        assert np.array_equal(core_arrays[name], ref_arrays[name]), (name, core_arrays[name],
                                                                     ref_arrays[name])


def test_core_batches_on_many_threads(core):
    """The core plays a larger batch on several threads: the same rows as one thread."""
    rules = core.Rules("italian")
    one = core.playouts(rules, 200, seed=77, policy="random", threads=1)
    many = core.playouts(rules, 200, seed=77, policy="random", threads=8)
    for name in one:
        assert np.array_equal(one[name], many[name]), name
    assert set(one["end_reason"].tolist()) <= {1, 2, 3}
    assert (one["moves"] > 0).all()
