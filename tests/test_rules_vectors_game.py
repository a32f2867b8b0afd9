"""RULES I.5 (turns, draw, discard, pozzetto, closing), I.6 (scoring and match) and I.7 (deal
layout), run on both engines (the ``engine`` fixture; D07 compares the two engines directly).

The vectors live in ``tests/data/game_vectors.json``; its header explains the format. Test ids are
the RULES ids (``P01``, ``Q04``, ``D03``); a suffix (``P07-b``, ``P17-force_draw``,
``Q03-60``) marks a further case of the same RULES row, explained in the record's ``note``.

Positions are written as version-1 state strings (docs/game.md) by ``tests/positions.py`` from
readable pieces, or as explicit deck orders for first-turn vectors, so that no vector depends on
either engine's internals. Every expectation was derived by hand from docs/rules.md.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import positions
import pytest
from conftest import load_engine

DATA_FILE = Path(__file__).parent / "data" / "game_vectors.json"
DATA = json.loads(DATA_FILE.read_text(encoding="utf-8"))
VECTORS = DATA["vectors"]

CONTEXTS = ("play", "refused", "match", "card_points", "layout", "unsupported", "engines")
CHECKS = {
    "phase", "turn", "over", "end_reason", "hand", "known", "pile", "top", "stock_size",
    "stock_top", "melds", "pozzetti", "legal_moves", "legal_includes", "legal_excludes", "sides",
    "side_of", "cut_side", "state", "result",
}
SIDE_FIELDS = ("side", "melds", "bonuses", "closing", "hand", "pozzetto", "cut", "total")
RANKS = "A23456789TJQK"
SUITS = "cdhs"


def vectors_of(*contexts):
    """Parametrize over the vectors of the given contexts, with the RULES ids as test ids."""
    chosen = [vector for vector in VECTORS if vector["context"] in contexts]
    return pytest.mark.parametrize("vector", chosen, ids=[vector["id"] for vector in chosen])


# ---- helpers ------------------------------------------------------------------------------------


def attempt(call):
    """``(value, None)``, or ``(None, exception)`` if the call raised (reported, not hidden)."""
    try:
        return call(), None
    except Exception as exc:  # noqa: BLE001 - every outcome is compared with the vector
        return None, exc


def safe(getter):
    value, exc = attempt(getter)
    return f"<raised {type(exc).__name__}: {exc}>" if exc is not None else value


def make_rules(engine, vector):
    return engine.Rules(vector["preset"], **vector.get("knobs", {}))


def built_state(vector) -> str:
    return positions.position(vector["preset"], vector.get("knobs"), vector["position"])


def new_game(engine, vector):
    """The vector's starting game and a text saying how it was made."""
    rules = make_rules(engine, vector)
    if "position" in vector:
        text = built_state(vector)
        return engine.Game.from_state_string(text), f"Game.from_state_string({text!r})"
    if "deal" in vector:
        deck = positions.deck_order(vector["preset"], vector.get("knobs"), **vector["deal"])
        first = vector["deal"].get("first", 0)
        game = engine.Game(rules, deck=deck, first_player=first)
        return game, f"Game({rules!r}, deck={' '.join(deck)!r}, first_player={first})"
    kwargs = dict(vector["game"])
    if "scores" in kwargs:
        kwargs["scores"] = tuple(kwargs["scores"])
    return engine.Game(rules, **kwargs), f"Game({rules!r}, **{kwargs!r})"


def moves_text(game):
    return [str(move) for move in game.legal_moves()]


def result_view(result):
    """A finished hand's result as plain data, in the vector's shape."""
    scores = result.player_scores
    return {
        "end_reason": result.end_reason,
        "closing_side": result.closing_side,
        "player_scores": None if scores is None else list(scores),
        "sides": [{name: getattr(side, name) for name in SIDE_FIELDS} for side in result.sides],
    }


def check(engine, game, expected, where):
    """Compare a game with every check of an ``expect`` record; report all mismatches at once."""
    unknown = set(expected) - CHECKS
    assert not unknown, f"{where}: unknown checks {sorted(unknown)} in the vector"
    problems = []

    def compare(name, got, want):
        if got != want:
            problems.append(f"{name}: expected {want!r}, got {got!r}")

    def cards(text):
        return engine.Cards(text)

    simple = {
        "phase": lambda: game.phase,
        "turn": lambda: game.turn,
        "over": lambda: game.is_over(),
        "end_reason": lambda: game.end_reason,
        "stock_size": lambda: game.stock_size,
        "cut_side": lambda: game.cut_side,
        "sides": lambda: list(game.sides),
    }
    for name, getter in simple.items():
        if name in expected:
            compare(name, safe(getter), expected[name])
    for name in ("hand", "known"):
        for seat, text in expected.get(name, {}).items():
            getter = game.hand if name == "hand" else game.known
            compare(f"{name}({seat})", safe(lambda getter=getter, seat=seat: getter(int(seat))),
                    cards(text))
    if "pile" in expected:
        compare("discard_pile", safe(lambda: game.discard_pile), cards(expected["pile"]))
    if "top" in expected:
        want = None if expected["top"] is None else engine.Card(expected["top"])
        compare("top_discard", safe(lambda: game.top_discard), want)
    if "stock_top" in expected:
        count = len(expected["stock_top"])
        compare("stock (top first)", safe(lambda: [str(card) for card in game.stock[:count]]),
                expected["stock_top"])
    for side, layouts in expected.get("melds", {}).items():
        compare(f"melds({side})",
                safe(lambda side=side: [meld.layout for meld in game.melds(int(side))]), layouts)
    for seat, side in expected.get("side_of", {}).items():
        compare(f"side_of({seat})", safe(lambda seat=seat: game.side_of(int(seat))), side)
    if "pozzetti" in expected:
        packets = safe(lambda: game.pozzetti)
        if isinstance(packets, str):
            problems.append(f"pozzetti: {packets}")
        else:
            if len(packets) != len(expected["pozzetti"]):
                problems.append(f"pozzetti: expected {len(expected['pozzetti'])} packets, got "
                                f"{packets!r}")
            for index, (want, got) in enumerate(zip(expected["pozzetti"], packets)):
                status, owner, packet_cards = want
                compare(f"pozzetti[{index}] status", got[0], status)
                compare(f"pozzetti[{index}] owner", got[1], owner)
                if packet_cards is not None:
                    compare(f"pozzetti[{index}] cards", got[2], cards(packet_cards))
    if any(name in expected for name in ("legal_moves", "legal_includes", "legal_excludes")):
        legal = safe(lambda: moves_text(game))
        if "legal_moves" in expected:
            compare("legal_moves()", legal, expected["legal_moves"])
        if isinstance(legal, list):
            for move in expected.get("legal_includes", []):
                if move not in legal:
                    problems.append(f"legal_moves() lacks {move!r}: {legal}")
            for move in expected.get("legal_excludes", []):
                if move in legal:
                    problems.append(f"legal_moves() has {move!r}: {legal}")
    if "state" in expected:
        text = safe(lambda: game.state_string())
        fields = positions.state_fields(text) if isinstance(text, str) and "=" in text else {}
        for name, want in expected["state"].items():
            compare(f"state field {name}", fields.get(name, f"<missing in {text!r}>"), want)
    if "result" in expected:
        got = safe(lambda: result_view(game.result()))
        compare("result()", got, expected["result"])

    assert not problems, (
        f"{where}\n  state {safe(lambda: game.state_string())}\n  " + "\n  ".join(problems)
    )


def snapshot(game):
    return (game.state_string(), moves_text(game), len(game.moves))


def play_step(engine, game, step, where):
    """One step: a legal move, a refused move, or text that is not a move."""
    text = step["move"]
    before = snapshot(game)
    if "error" in step:
        error = getattr(engine, step["error"])
        _, exc = attempt(lambda: game.push(text))
        assert isinstance(exc, error), (
            f"{where}: push({text!r}) should raise {step['error']}, got {exc!r}"
        )
        assert snapshot(game) == before, f"{where}: the refused push({text!r}) changed the game"
        return
    move = engine.Move(text)
    legal = game.legal_moves()
    if step["legal"]:
        assert move in legal, (
            f"{where}: {text!r} is legal by RULES but not in legal_moves() {moves_text(game)}\n"
            f"  state {game.state_string()}"
        )
        _, exc = attempt(lambda: game.push(text))
        assert exc is None, f"{where}: push({text!r}) raised {exc!r}\n  state {before[0]}"
        assert game.moves[-1] == move, f"{where}: moves[-1] is {game.moves[-1]!r}, not {move!r}"
    else:
        assert move not in legal, (
            f"{where}: {text!r} is illegal by RULES but in legal_moves() {moves_text(game)}\n"
            f"  state {game.state_string()}"
        )
        _, exc = attempt(lambda: game.push(text))
        assert isinstance(exc, engine.IllegalMoveError), (
            f"{where}: push({text!r}) should raise IllegalMoveError, got "
            f"{'nothing' if exc is None else repr(exc)}\n  state {before[0]}"
        )
        assert str(text) in str(exc) or repr(text) in str(exc) or str(move) in str(exc), (
            f"{where}: the IllegalMoveError message should quote the move: {exc}"
        )
        assert snapshot(game) == before, f"{where}: the refused push({text!r}) changed the game"
    if "expect" in step:
        check(engine, game, step["expect"], where)


# ---- the data itself ----------------------------------------------------------------------------


def test_every_vector_of_sections_i5_to_i7_is_present():
    ids = [vector["id"] for vector in VECTORS]
    assert len(ids) == len(set(ids)), "duplicate ids"
    wanted = (
        {f"P{n:02}" for n in range(1, 32)}
        | {f"Q{n:02}" for n in range(1, 12)}
        | {f"D{n:02}" for n in range(1, 8)}
    )
    rules_ids = {rid.split("-")[0] for rid in ids}
    assert rules_ids == wanted, (sorted(wanted - rules_ids), sorted(rules_ids - wanted))


@pytest.mark.parametrize("vector", VECTORS, ids=[vector["id"] for vector in VECTORS])
def test_vector_record_is_well_formed(vector):
    """Engine-free: the record's shape, and every position accounts for each card exactly once."""
    assert vector["context"] in CONTEXTS, vector["context"]
    assert vector["rules_row"].startswith("| " + vector["id"].split("-")[0] + " | "), vector["rules_row"]
    if vector["context"] == "play":
        sources = [name for name in ("position", "deal", "game") if name in vector]
        assert len(sources) == 1, sources
        for expected in [vector.get("start", {})] + [s.get("expect", {}) for s in vector["steps"]]:
            assert set(expected) <= CHECKS, set(expected) - CHECKS
        for step in vector["steps"]:
            assert set(step) in ({"move", "legal"}, {"move", "legal", "expect"}, {"move", "error"})
    if "position" in vector:
        text = built_state(vector)
        fields = positions.state_fields(text)
        table = positions.Table(vector["preset"], vector.get("knobs"))
        every = Counter()
        for name in ("hands", "stock", "pile"):
            for part in fields[name].split("/"):
                every.update(split_cards(part))
        for layouts in fields["melds"].split("/"):
            for layout in filter(None, layouts.replace("-", "").split("+")):
                every.update(positions.layout_cards(spaced_layout(layout.split("@")[0])))
        for packet in fields["pozzetti"].split("/"):
            every.update(split_cards(packet.split(":")[1]))
        assert every == table.deck, "cards not conserved"
    if "deal" in vector:
        table = positions.Table(vector["preset"], vector.get("knobs"))
        deck = positions.deck_order(vector["preset"], vector.get("knobs"), **vector["deal"])
        assert Counter(deck) == table.deck
    if vector["context"] == "match":
        for hand in vector["hands"]:
            positions.position(vector["preset"], vector.get("knobs"), hand["position"])
    if vector["context"] in ("layout", "unsupported"):
        assert (vector["players"] * vector["hand_size"] + sum(vector["pozzetto_sizes"])
                + vector["upcard"] + vector["stock"] == vector["total_cards"])


def split_cards(text):
    text = "" if text == "-" else text
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def spaced_layout(compact):
    """``'Jk(=6h)7h8h'`` -> ``'Jk(=6h) 7h 8h'``."""
    tokens, index = [], 0
    while index < len(compact):
        token = compact[index:index + 2]
        index += 2
        if compact[index:index + 2] == "(=":
            end = compact.index(")", index)
            token += compact[index:end + 1]
            index = end + 1
        tokens.append(token)
    return " ".join(tokens)


# ---- engine tests -------------------------------------------------------------------------------


@vectors_of("play")
def test_position_round_trips(engine, vector):
    """A hand-written position reads back to the same state string and the vector's rules."""
    if "position" not in vector:
        game, where = new_game(engine, vector)
        text = game.state_string()
        again = engine.Game.from_state_string(text).state_string()
        assert again == text, f"{vector['id']}: {where}: {text!r} read back as {again!r}"
        assert game.rules == make_rules(engine, vector), f"{vector['id']}: {where}"
        return
    text = built_state(vector)
    game = engine.Game.from_state_string(text)
    assert game.state_string() == text, f"{vector['id']}: {text!r} read back differently"
    assert game.rules == make_rules(engine, vector), f"{vector['id']}: rules {game.rules!r}"


@vectors_of("play")
def test_play(engine, vector):
    game, where = new_game(engine, vector)
    where = f"{vector['id']}: {where}"
    if "start" in vector:
        check(engine, game, vector["start"], f"{where}\n  before any move")
    for number, step in enumerate(vector["steps"], start=1):
        play_step(engine, game, step, f"{where}\n  step {number} ({step['move']!r})")


@vectors_of("match")
def test_match(engine, vector):
    rules = make_rules(engine, vector)
    match = engine.Match(rules, seed=0)
    for number, hand in enumerate(vector["hands"], start=1):
        text = positions.position(vector["preset"], vector.get("knobs"), hand["position"])
        where = f"{vector['id']} hand {number} ({hand['name']}): Game.from_state_string({text!r})"
        game = engine.Game.from_state_string(text)
        assert game.is_over(), where
        assert result_view(game.result()) == hand["result"], (
            f"{where}\n  expected {hand['result']}\n  got      {result_view(game.result())}"
        )
        match.record(game)
        after = hand["after"]
        got = {"scores": list(match.scores), "over": match.is_over(), "winner": match.winner}
        assert got == after, f"{where}\n  match expected {after}\n  got            {got}"


@vectors_of("card_points")
def test_card_points(engine, vector):
    cards = [rank + suit for suit in SUITS for rank in RANKS] + ["Jk"]
    for preset, knobs, values in vector["rules"]:
        rules = engine.Rules(preset, **knobs)
        table = vector["values"][values]
        got = {card: rules.card_points(engine.Card(card)) for card in cards}
        want = {card: table["Jk" if card == "Jk" else card[0]] for card in cards}
        assert got == want, f"{vector['id']}: {rules!r}: {got}"
        assert {card: rules.card_points(card) for card in cards} == want, (
            f"{vector['id']}: {rules!r}.card_points with card strings"
        )


@vectors_of("layout")
def test_deal_layout(engine, vector):
    check_layout(engine, vector, vector["seeds"])


def check_layout(engine, vector, seeds):
    rules = make_rules(engine, vector)
    assert rules.total_cards == vector["total_cards"]
    assert rules.initial_stock == vector["stock"]
    knobs = vector.get("knobs") or {}
    deck = Counter(positions.unshuffled_deck(positions.Table(vector["preset"], knobs).jokers,
                                             knobs.get("decks", positions.DECKS)))
    assert sum(deck.values()) == vector["total_cards"]
    for seed in seeds:
        game = engine.Game(rules, seed=seed)
        where = f"{vector['id']}: Game({rules!r}, seed={seed})"
        assert game.players == vector["players"], where
        assert [len(game.hand(seat)) for seat in range(game.players)] == (
            [vector["hand_size"]] * vector["players"]), where
        packets = game.pozzetti
        assert [len(cards) for _, _, cards in packets] == vector["pozzetto_sizes"], where
        assert [(status, owner) for status, owner, _ in packets] == (
            [("untaken", None)] * len(packets)), where
        assert len(game.discard_pile) == vector["upcard"], where
        assert (game.top_discard is not None) == bool(vector["upcard"]), where
        assert game.stock_size == vector["stock"] == len(game.stock), where
        every = Counter()
        for seat in range(game.players):
            every.update(str(card) for card in game.hand(seat))
        for _, _, cards in packets:
            every.update(str(card) for card in cards)
        every.update(str(card) for card in game.discard_pile)
        every.update(str(card) for card in game.stock)
        assert every == deck, f"{where}: cards not conserved: {every - deck} / {deck - every}"
        assert (game.phase, game.turn, game.is_over(), game.seed) == ("draw", 0, False, seed), where


@vectors_of("refused")
def test_refused_position(engine, vector):
    """A position that play cannot reach (docs/game.md "Invariants") is refused by the parser."""
    text = built_state(vector)
    with pytest.raises(engine.InvalidStateError, match=vector["refused"]):
        engine.Game.from_state_string(text)


@vectors_of("engines")
def test_same_deal_in_both_engines(vector):
    core, reference = load_engine("core"), load_engine("reference")
    for preset, knobs in vector["tables"]:
        for seed in vector["seeds"]:
            texts = [
                engine.Game(engine.Rules(preset, **knobs), seed=seed).state_string()
                for engine in (core, reference)
            ]
            assert texts[0] == texts[1], (
                f"{vector['id']}: Rules({preset!r}, **{knobs}) seed {seed}\n"
                f"  core      {texts[0]}\n  reference {texts[1]}"
            )
