"""JSON views (docs/records.md): ``game.to_json(player=k)`` shows seat k exactly what it may see,
read from ``observation(k)`` (no hidden card anywhere, the same view for every deal of the hidden
cards); ``game.to_json()`` is the whole state and ``Game.from_json`` restores it; both engines
write the very same JSON."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from playouts import (
    RULES_IDS,
    SIX_PLAYER_RULES,
    THREE_DECK_RULES,
    full_deck,
    make_rules,
    state_fields,
)

import burraco
from burraco import reference

ENGINES = {"core": burraco, "reference": reference}
CARD = re.compile(r"\b(?:[A2-9TJQK][cdhs]|Jk)\b")
LAYOUT_CARD = re.compile(r"([A2-9TJQK][cdhs]|Jk)(\(=[^)]*\))?")
# Every table the views are checked on: the presets, the three-deck tables and both six-player
# tables (three sides of two, two sides of three).
VIEW_IDS = RULES_IDS + tuple(rules_id for rules_id, _, _ in THREE_DECK_RULES + SIX_PLAYER_RULES)
# The points of a hand where the views are checked: every STRIDE-th move and the end.
STRIDE = 7


def hand_record(rules_id: str, seed: int) -> dict:
    """A whole random hand, played by the core and kept as a record."""
    game = burraco.Game(make_rules(burraco, rules_id), seed=seed)
    game.playout("random", seed)
    return game.record()


def walk(rules_id: str, seed: int):
    """The core's and the reference's game, in lock step, at the sampled points of one hand."""
    record = hand_record(rules_id, seed)
    core = burraco.Game(make_rules(burraco, rules_id), seed=seed)
    ref = reference.Game(make_rules(reference, rules_id), seed=seed)
    for number, move in enumerate(record["moves"]):
        if number % STRIDE == 0:
            yield core, ref
        core.push(move)
        ref.push(move)
    yield core, ref


def cards_in(value) -> Counter:
    """Every card named in a JSON value (lists, objects, card strings, layouts), with repeats."""
    found: Counter = Counter()
    if isinstance(value, dict):
        for item in value.values():
            found += cards_in(item)
    elif isinstance(value, list):
        for item in value:
            found += cards_in(item)
    elif isinstance(value, str):
        found.update(card for card, _ in LAYOUT_CARD.findall(value))
    return found


def names(cards) -> Counter:
    return Counter(str(card) for card in cards)


def meld_slots(game) -> range:
    """The meld slots of a game: four with three players (three alone, then the pair's slot 3),
    one per side otherwise (two, or three with six players in three sides)."""
    return range(4 if game.players == 3 else game.rules.sides)


def may_know(game, player: int) -> Counter:
    """What ``player`` may see of the true game (RULES C.9): own hand, every meld, the pile, the
    known cards of the other seats, a packet that player has seen."""
    seen = names(game.hand(player)) + names(game.discard_pile)
    for side in meld_slots(game):
        for meld in game.melds(side):
            seen += names(meld.cards)
    for seat in range(game.players):
        if seat != player:
            seen += names(game.known(seat))
    for status, owner, cards in game.pozzetti:
        if status == "seen" and owner == player:
            seen += names(cards)
    return seen


def hidden_from(game, player: int) -> Counter:
    """The true hidden cards: other hands less their known cards, the stock, unseen packets."""
    hidden = names(game.stock)
    for seat in range(game.players):
        if seat != player:
            hidden += names(game.hand(seat)) - names(game.known(seat))
    for status, owner, cards in game.pozzetti:
        if not (status == "seen" and owner == player):
            hidden += names(cards)
    return hidden


def check_player_view(game, player: int, text: str) -> None:
    view = json.loads(text)
    visible = may_know(game, player)
    hidden = hidden_from(game, player)
    assert visible + hidden == full_deck(game.rules) - Counter({"Jk": 0})
    assert view["player"] == player and view["state"] is None and view["seed"] is None
    assert view["stock"] is None and view["result"] is None
    assert view["observation"] == str(game.observation(player))
    # the places cards lie, counted once each: never more of a kind than the player may know
    placed = Counter()
    for seat in view["seats"]:
        if seat["seat"] == player:
            placed += Counter(seat["hand"])
        else:
            assert seat["hand"] is None
            placed += Counter(seat["known"])
    for side in view["sides"]:
        for meld in side["melds"]:
            placed += Counter(meld["cards"])
            assert cards_in(meld["layout"]) == Counter(meld["cards"])
    placed += Counter(view["pile"])
    for packet in view["pozzetti"]:
        if packet["cards"] is not None:
            assert packet["status"] == "seen" and packet["owner"] == player
            placed += Counter(packet["cards"])
    assert placed == visible
    # the other fields that name cards: the top card, the held kind, the moves of one's own cards
    for single in (view["top"], view["hold"]):
        assert single is None or visible[single] > 0
    if view["legal_moves"]:
        for move in view["legal_moves"]:
            assert not cards_in(move) - names(game.hand(player)), move
    # the observation string carries the same cards, and no other
    fields = state_fields(view["observation"])
    in_string = Counter()
    for seat, hand in enumerate(fields["hands"].split("/")):
        assert (seat == player) != hand.startswith("?")
        in_string += run_together(hand)
    for seat, known in enumerate(fields["known"].split("/")):
        if seat != player:
            in_string += run_together(known)
    in_string += run_together(fields["pile"])
    for slot in fields["melds"].split("/"):
        for meld in slot.split("+"):
            in_string += run_together(re.sub(r"\(=[^)]*\)|@\d+", "", meld))
    for packet in fields["pozzetti"].split("/"):
        in_string += run_together(packet.split(":", 1)[1])
    assert in_string == visible
    assert fields["stock"] == "-" or fields["stock"].startswith("?")
    assert fields["seed"] == "-"


def run_together(text: str) -> Counter:
    """The cards of a state-string card list (``3c7cJc``); ``-`` and hidden ``?N`` are none."""
    if text == "-" or text.startswith("?"):
        return Counter()
    assert len(text) % 2 == 0 and CARD.fullmatch(text[:2]), text
    return Counter(text[i:i + 2] for i in range(0, len(text), 2))


def check_full_view(game, text: str) -> None:
    view = json.loads(text)
    assert view["player"] is None and view["observation"] is None
    assert view["state"] == game.state_string() and view["seed"] == game.seed
    placed = Counter(view["pile"]) + Counter(view["stock"])
    for seat in view["seats"]:
        assert seat["hand"] == [str(card) for card in game.hand(seat["seat"])]
        assert seat["side"] == game.side_of(seat["seat"])
        placed += Counter(seat["hand"])
    for side in view["sides"]:
        assert [meld["layout"] for meld in side["melds"]] == [str(m) for m in game.melds(side["side"])]
        for meld in side["melds"]:
            placed += Counter(meld["cards"])
    for packet in view["pozzetti"]:
        placed += Counter(packet["cards"] or [])
    assert placed == +full_deck(game.rules)  # every card, once
    assert [side["side"] for side in view["sides"]] == list(game.sides)
    assert view["legal_moves"] == [str(move) for move in game.legal_moves()]
    assert (view["result"] is None) == (not game.is_over())


@pytest.mark.parametrize("rules_id", VIEW_IDS)
def test_player_views_show_nothing_hidden(rules_id):
    """Random hands of every preset, every STRIDE moves and at the end, every seat: no hidden
    card in the view, the same view for a determinized deal, the same JSON from both engines."""
    checked = seed = 0
    while checked < 24 or seed < 2:  # two hands at least, more when they are short
        seed += 1
        for core, ref in walk(rules_id, seed):
            for player in range(core.players):
                text = core.to_json(player=player)
                assert ref.to_json(player=player) == text
                check_player_view(core, player, text)
                for deal_seed in (1, 2):
                    assert core.determinize(player, deal_seed).to_json(player=player) == text
                assert ref.determinize(player, 3).to_json(player=player) == text
                checked += 1


@pytest.mark.parametrize("rules_id", VIEW_IDS)
def test_full_views_round_trip(rules_id):
    for core, ref in walk(rules_id, 5):
        text = core.to_json()
        assert ref.to_json() == text
        check_full_view(core, text)
        for engine in (burraco, reference):
            restored = engine.Game.from_json(text)
            assert restored.state_string() == core.state_string()
            assert restored.to_json() == text


def test_legal_moves_only_for_the_seat_to_act(engine):
    game = engine.Game(engine.Rules("italian"), seed=4)
    for _ in range(12):
        if game.is_over():
            break
        for player in range(4):
            view = json.loads(game.to_json(player=player))
            if player == game.turn:
                assert view["legal_moves"] == [str(m) for m in game.legal_moves()]
            else:
                assert view["legal_moves"] is None
        game.push(game.legal_moves()[-1])
    game.playout("random", 1)
    assert all(json.loads(game.to_json(player=p))["legal_moves"] is None for p in range(4))
    assert json.loads(game.to_json())["legal_moves"] == []


def test_view_fields(engine):
    game = engine.Game(engine.Rules("brazilian", players=2), seed=4, scores=(1600, 20))
    view = json.loads(game.to_json(player=1))
    assert list(view) == [
        "format", "version", "player", "rules", "players", "first", "scores", "turn", "phase",
        "seats", "sides", "pile", "top", "stock_size", "stock", "pozzetti", "hold", "deadlock",
        "turn_flags", "soloist", "end_reason", "closing_side", "cut_side", "legal_moves",
        "result", "seed", "observation", "state"]
    assert (view["format"], view["version"]) == ("burraco-view", 1)
    assert view["rules"] == "brazilian:players=2" and view["players"] == 2
    assert view["scores"] == [1600, 20] and view["turn_flags"] == "b"
    assert [(s["opened"], s["need"]) for s in view["sides"]] == [(False, 75), (False, 50)]
    assert view["seats"][0] == {"seat": 0, "side": 0, "hand_size": 11, "hand": None, "known": []}
    assert view["seats"][1]["hand"] == [str(c) for c in game.hand(1)]
    assert view["pozzetti"] == [{"status": "untaken", "owner": None, "size": 11, "cards": None}] * 2
    italian = json.loads(engine.Game(engine.Rules(), seed=4).to_json(player=0))
    assert [(s["opened"], s["need"]) for s in italian["sides"]] == [(None, None)] * 2
    assert italian["top"] == italian["pile"][0] and italian["stock_size"] == 41


def test_a_meld_shows_its_layout(engine):
    game = engine.Game(engine.Rules("italian-2p"), seed=2)
    game.playout("greedy", 0)
    with_melds = [m for side in game.sides for m in game.melds(side)]
    assert with_melds
    view = json.loads(game.to_json(player=0))
    layouts = [m["layout"] for side in view["sides"] for m in side["melds"]]
    assert layouts == [str(m) for m in with_melds]
    first = next(m for side in view["sides"] for m in side["melds"])
    meld = with_melds[0]
    assert first == {"layout": meld.layout, "kind": meld.kind,
                     "cards": [str(c) for c in meld.cards], "burraco": meld.burraco,
                     "points": meld.points}


def test_three_player_views_follow_the_split(engine):
    for seed in range(40):
        game = engine.Game(engine.Rules("italian-3p"), seed=seed)
        game.playout("greedy", 0)
        soloist = state_fields(game.state_string())["split"]
        if soloist != "-":
            break
    else:
        pytest.fail("no greedy italian-3p hand split")
    view = json.loads(game.to_json(player=0))
    assert view["soloist"] == int(soloist)
    assert [s["side"] for s in view["sides"]] == sorted([int(soloist), 3])
    assert [seat["side"] for seat in view["seats"]] == [game.side_of(p) for p in range(3)]
    pair = next(s for s in view["sides"] if s["side"] == 3)
    assert pair["seats"] == [p for p in range(3) if p != int(soloist)]


def test_indent_passes_through(engine):
    game = engine.Game(engine.Rules(), seed=6)
    for player in (None, 2):
        compact = game.to_json(player=player)
        assert game.to_json(player=player, indent=2) == json.dumps(json.loads(compact), indent=2)
        assert "\n" not in compact


# ---- from_json refusals ---------------------------------------------------------------------


def full_view() -> dict:
    game = burraco.Game(burraco.Rules("italian"), seed=13)
    for _ in range(9):
        game.push(game.legal_moves()[0])
    return json.loads(game.to_json())


def edit(path, value):
    def change(view):
        target = view
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return json.dumps(view)
    return change


CONTRADICTIONS = [
    ("turn", edit(["turn"], 3), "turn=3"),
    ("stock_size", edit(["stock_size"], 7), "stock_size=7"),
    ("hand", edit(["seats", 0, "hand"], ["Ac"]), "seats="),
    ("known", edit(["seats", 1, "known"], ["Kd"]), "seats="),
    ("pile", edit(["pile"], []), "pile=[]"),
    ("legal", edit(["legal_moves"], ["draw"]), "legal_moves=['draw']"),
    ("seed", edit(["seed"], 14), "seed=14"),
    ("rules", edit(["rules"], "italian-2p"), "rules='italian-2p'"),
    ("result", edit(["result"], {"end_reason": "closed"}), "result="),
]


@pytest.mark.parametrize(("change", "quoted"), [c[1:] for c in CONTRADICTIONS],
                         ids=[c[0] for c in CONTRADICTIONS])
def test_a_full_view_that_contradicts_its_state_is_refused(engine, change, quoted):
    with pytest.raises(burraco.InvalidStateError) as raised:
        engine.Game.from_json(change(full_view()))
    assert quoted in str(raised.value) and "contradicts" in str(raised.value)


def test_from_json_refusals(engine):
    game = engine.Game(engine.Rules(), seed=13)
    with pytest.raises(burraco.InvalidStateError, match="player=2.*cannot be restored"):
        engine.Game.from_json(game.to_json(player=2))
    with pytest.raises(burraco.InvalidNotationError, match="not JSON"):
        engine.Game.from_json("{'state': 1}")
    with pytest.raises(burraco.InvalidNotationError, match="expected a str"):
        engine.Game.from_json(json.loads(game.to_json()))
    view = json.loads(game.to_json())
    for key, value, message in [("format", "burraco-record", "'burraco-record'"),
                                ("version", 2, "version 2")]:
        with pytest.raises(burraco.InvalidNotationError, match=message):
            engine.Game.from_json(json.dumps(dict(view, **{key: value})))
    missing = dict(view)
    del missing["pozzetti"]
    with pytest.raises(burraco.InvalidNotationError, match="lacks .*pozzetti"):
        engine.Game.from_json(json.dumps(missing))
    with pytest.raises(burraco.InvalidNotationError, match="unknown .*extra"):
        engine.Game.from_json(json.dumps(dict(view, extra=1)))
    with pytest.raises(burraco.InvalidStateError):
        engine.Game.from_json(json.dumps(dict(view, state=view["state"].replace("v=1", "v=2"))))
    assert engine.Game.from_json(json.dumps(view)).state_string() == game.state_string()


@settings(max_examples=30, deadline=None)
@given(rules_index=st.integers(0, len(VIEW_IDS) - 1), seed=st.integers(0, 2**64 - 1),
       cut=st.integers(0, 300), data=st.data())
def test_any_position_any_seat(rules_index, seed, cut, data):
    """Any seed, any point of a random hand, any seat: the hidden cards can be dealt again
    without changing the view, and both engines agree."""
    rules_id = VIEW_IDS[rules_index]
    game = burraco.Game(make_rules(burraco, rules_id), seed=seed)
    game.playout("random", seed)
    while len(game.moves) > cut:
        game.pop()
    player = data.draw(st.integers(0, game.players - 1))
    text = game.to_json(player=player)
    check_player_view(game, player, text)
    assert game.determinize(player, seed).to_json(player=player) == text
    ref = reference.Game.from_state_string(game.state_string())
    assert ref.to_json(player=player) == text and ref.to_json() == game.to_json()


@pytest.mark.slow
@pytest.mark.parametrize("rules_id", VIEW_IDS)
def test_many_player_views(rules_id):
    """The bigger run: 12 hands per rule set, every seat at every STRIDE-th move."""
    for seed in range(100, 112):
        for core, ref in walk(rules_id, seed):
            for player in range(core.players):
                text = core.to_json(player=player)
                check_player_view(core, player, text)
                assert ref.to_json(player=player) == text
                assert core.determinize(player, seed).to_json(player=player) == text
            full = core.to_json()
            assert ref.to_json() == full
            check_full_view(core, full)
            assert reference.Game.from_json(full).state_string() == core.state_string()
