"""Issue 10 on the reference engine: reachable-only positions, liveness, rules that cannot stop a
hand, no position twice in a turn and the move cap, strict parsers, pickling and copying, threads.

The both-engine tests live elsewhere; these check burraco.reference alone, table by table, with
ids taken from the issue's examples where there is one.
"""

from __future__ import annotations

import copy
import pickle
import re
import sys
import threading

import numpy as np
import pytest

import positions
from burraco import reference as R
from burraco.reference import game as game_module

# --- helpers --------------------------------------------------------------------------------------


def fields(state: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in state.split(";"))


def joined(values: dict[str, str]) -> str:
    return ";".join(f"{name}={value}" for name, value in values.items())


def replaced(state: str, **changes: str) -> str:
    values = fields(state)
    for name, value in changes.items():
        assert name in values, name
        values[name] = value
    return joined(values)


_STATES: dict[tuple[str, tuple, int, int], list[str]] = {}


def engine_states(preset: str, knobs: tuple = (), seeds=range(4)) -> list[str]:
    """Every position of greedy and random playouts under ``Rules(preset, **dict(knobs))``."""
    key = (preset, knobs, seeds.start, seeds.stop)
    if key not in _STATES:
        rules = R.Rules(preset, **dict(knobs))
        states = []
        for seed in seeds:
            for policy in ("greedy", "random"):
                played = R.Game(rules, seed=seed)
                played.playout(policy, seed)
                game = R.Game(rules, seed=seed)
                states.append(game.state_string())
                for move in played.moves:
                    game.push(move)
                    states.append(game.state_string())
        _STATES[key] = states
    return _STATES[key]


def first_state(preset: str, predicate, knobs: tuple = ()) -> str:
    """The first position of the playouts of seeds 0-3 that matches, else of seeds 4-39 (a rare
    position, such as a stock at its threshold, may need more hands)."""
    for seeds in (range(4), range(4, 40)):
        for state in engine_states(preset, knobs, seeds):
            if predicate(fields(state)):
                return state
    raise AssertionError(f"no {preset} position matches the predicate")


def refused(state: str, pattern: str) -> None:
    with pytest.raises(R.InvalidStateError) as excinfo:
        R.Game.from_state_string(state)
    assert re.search(pattern, str(excinfo.value)), str(excinfo.value)


# --- 1. the validator: engine-made positions are accepted ------------------------------------------

PLAYABLE_RULES = [
    pytest.param(preset, (), id=preset) for preset in R.Rules.PRESETS
] + [
    pytest.param("brazilian", (("players", 2),), id="brazilian-2p"),
    pytest.param("brazilian", (("hand_size", 3), ("opening_fail_increment", 0)), id="short-opening"),
    pytest.param("brazilian", (("pozzetto_sizes", (30, 30)), ("stock_end_threshold", 10)),
                 id="threshold-above-stock"),
    pytest.param("italian", (("deadlock_rule", "force_draw"), ("hand_size", 2)), id="force-draw"),
    pytest.param("italian", (("forbid_discard_of_single_pile_card", False),), id="no-hold"),
    pytest.param("italian-2p", (("pozzetto_reveal", "immediately"),), id="reveal-immediately"),
    pytest.param("italian-3p", (("pozzetto_becomes_stock", True), ("stock_end_threshold", 0)),
                 id="3p-packet-stock"),
    pytest.param("brazilian", (("initial_upcard", True),), id="brazilian-upcard"),
    pytest.param("online-2p", (("players", 4), ("hand_size", 20), ("pozzetto_sizes", (12, 13))),
                 id="empty-dealt-stock"),
]


@pytest.mark.parametrize(("preset", "knobs"), PLAYABLE_RULES)
def test_every_engine_position_is_accepted(preset, knobs):
    for state in engine_states(preset, knobs, seeds=range(1)):
        assert R.Game.from_state_string(state).state_string() == state


# --- 1. the validator: positions that could not arise in play are refused ---------------------------


def _pending_owner(f):
    for packet in f["pozzetti"].split("/"):
        if packet[0] in "fs":
            return packet[1]
    return None


def _move_hand_to_stock(f):
    seat = next(seat for seat, (hand, known) in enumerate(
        zip(f["hands"].split("/"), f["known"].split("/")))
        if seat != int(f["turn"]) and hand != "-" and known == "-")
    hands = f["hands"].split("/")
    f["stock"] = (f["stock"] if f["stock"] != "-" else "") + hands[seat]
    hands[seat] = "-"
    f["hands"] = "/".join(hands)


def _packet_card_to_stock(f):
    packets = f["pozzetti"].split("/")
    f["stock"] += packets[1][2:4]
    packets[1] = packets[1][:2] + packets[1][4:]
    f["pozzetti"] = "/".join(packets)


def _renumber_last_meld(f):
    slots = f["melds"].split("/")
    slot = next(number for number, text in enumerate(slots) if text != "-")
    word, _at, number = slots[slot].rpartition("@")
    slots[slot] = f"{word}@{int(number) + 5}"
    f["melds"] = "/".join(slots)


def _other_side_closed(f):
    f["end"] = f"closed:{1 - int(f['end'][7:])}"


def _forget_known(f):
    """Set a hold on a card of the acting seat's known cards."""
    known = f["known"].split("/")[int(f["turn"])]
    f["hold"] = known[:2]


UNREACHABLE = [
    # (id, preset, knobs, which engine position, how it is changed, the invariant refused)
    ("packet-waiting-for-the-seat-to-act", "italian", (),
     lambda f: f["phase"] == "draw" and _pending_owner(f) is not None,
     lambda f: f.update(turn=_pending_owner(f)), "V16"),
    ("3p-split-erased-after-a-packet", "italian-3p", (),
     lambda f: f["split"] != "-" and f["phase"] != "over",
     lambda f: f.update(split="-"), "V17|pair slot"),
    ("stock-at-threshold-without-last-turn", "italian", (),
     lambda f: "l" in f["turnflags"],
     lambda f: f.update(turnflags=f["turnflags"].replace("l", "") or "-"), "V5"),
    ("stock-at-threshold-in-the-draw-phase", "italian", (),
     lambda f: "l" in f["turnflags"],
     lambda f: f.update(phase="draw", turnflags="-", hold="-"), "V5"),
    ("hold-without-p", "italian", (),
     lambda f: f["hold"] != "-",
     lambda f: f.update(turnflags=f["turnflags"].replace("p", "") or "-"), "V11"),
    ("hold-when-forbid-is-off", "italian", (("forbid_discard_of_single_pile_card", False),),
     lambda f: "p" in f["turnflags"] and f["known"].split("/")[int(f["turn"])] != "-",
     _forget_known, "V11"),
    ("p-in-the-draw-phase", "italian", (),
     lambda f: f["phase"] == "draw" and f["turnflags"] == "-",
     lambda f: f.update(turnflags="p"), "V7"),
    ("flags-after-the-end", "italian", (),
     lambda f: f["phase"] == "over",
     lambda f: f.update(turnflags="d"), "V7"),
    ("force-draw-under-end-hand", "italian", (),
     lambda f: f["phase"] == "draw" and f["turnflags"] == "-" and f["deadlock"] == "0",
     lambda f: f.update(turnflags="f"), "V9"),
    ("deadlock-count-of-n-while-playing", "italian", (),
     lambda f: f["phase"] == "draw",
     lambda f: f.update(deadlock="4"), "V12"),
    ("first-draw-by-another-seat", "brazilian", (),
     lambda f: f["turnflags"] == "b",
     lambda f: f.update(turn="1"), "V10"),
    ("opened-without-an-opening-minimum", "italian", (),
     lambda f: f["phase"] == "draw",
     lambda f: f.update(opened="1,0"), "V21"),
    ("need-between-two-steps", "brazilian", (),
     lambda f: f["phase"] == "draw" and f["turnflags"] == "-",
     lambda f: f.update(need="51,50"), "V21"),
    ("packet-short-of-its-size", "italian", (),
     lambda f: f["phase"] == "draw" and f["turnflags"] == "-" and "u:" in f["pozzetti"][-26:],
     _packet_card_to_stock, "V14"),
    ("empty-hand-without-a-packet", "italian", (),
     lambda f: f["phase"] == "draw" and f["turnflags"] == "-" and _pending_owner(f) is None,
     _move_hand_to_stock, "V18"),
    ("cut-without-a-cut-probability", "italian", (),
     lambda f: f["phase"] == "draw",
     lambda f: f.update(cut="0"), "V22"),
    ("closed-by-the-other-side", "italian-2p", (),
     lambda f: f["end"].startswith("closed"),
     _other_side_closed, "V19"),
    ("3p-creation-numbers-with-a-gap", "italian-3p", (),
     lambda f: f["phase"] == "draw" and "@" in f["melds"],
     _renumber_last_meld, "V20"),
]


@pytest.mark.parametrize(("preset", "knobs", "predicate", "change", "code"),
                         [pytest.param(*case[1:], id=case[0]) for case in UNREACHABLE])
def test_unreachable_positions_are_refused(preset, knobs, predicate, change, code):
    state = first_state(preset, predicate, knobs)
    R.Game.from_state_string(state)  # the position as played is accepted
    values = fields(state)
    change(values)
    changed = joined(values)
    assert changed != state
    refused(changed, code)


def _dead_brazilian(card: str, pozzetti: list[str]) -> str:
    # Side 0 (open, only a dirty canasta) holds its pot: a last discard would have to close.
    return positions.state_string(
        "brazilian", None, turn=0, phase="meld", turnflags="d",
        hands={0: card, 1: "9c 9d", 2: "3c Ad", 3: "Qc"},
        melds={0: ["Jk(=6h) 7h 8h 9h Th Jh Qh"]}, opened=[1, 0], pozzetti=pozzetti,
        stock="4h Js", pile="2s", top="2s", rest="pile")


def test_a_one_card_hand_with_no_legal_move_is_refused():
    """The issue's 'brazilian meld-phase hand of one card it may not discard' (RULES C.7)."""
    refused(_dead_brazilian("8c", ["h0", "u"]), "V23")
    # The same card with the pot still to take is a legal finish: the position is accepted.
    alive = R.Game.from_state_string(_dead_brazilian("8c", ["u", "u"]))
    assert "discard 8c" in alive.legal_moves().strings()


NOT_CANONICAL = [
    ("leading-zero", lambda s: s.replace(";turn=0;", ";turn=00;")),
    ("plus-sign", lambda s: s.replace(";scores=0,0;", ";scores=+0,0;")),
    ("minus-zero", lambda s: s.replace(";scores=0,0;", ";scores=-0,0;")),
    ("trailing-newline", lambda s: s + "\n"),
    ("leading-space", lambda s: " " + s),
    ("upper-case-phase", lambda s: s.replace(";phase=draw;", ";phase=DRAW;")),
    ("unicode-digit", lambda s: s.replace(";deadlock=0;", ";deadlock=\u0660;")),
    ("space-in-a-list", lambda s: s.replace(";opened=0,0;", ";opened=0, 0;")),
]


@pytest.mark.parametrize("change", [pytest.param(change, id=name) for name, change in NOT_CANONICAL])
def test_only_the_canonical_state_string_is_read(change):
    state = R.Game(R.Rules("italian"), seed=3).state_string()
    changed = change(state)
    assert changed != state
    with pytest.raises(R.InvalidStateError):
        R.Game.from_state_string(changed)


def test_json_views_and_records_go_through_the_validator():
    state = first_state("italian", lambda f: f["phase"] == "draw" and _pending_owner(f) is not None)
    bad = replaced(state, turn=_pending_owner(fields(state)))
    game = R.Game.from_state_string(state)
    view = game.to_json()
    with pytest.raises(R.InvalidStateError, match="V16"):
        R.Game.from_json(view.replace(state, bad))
    record = game.record()
    record["start"] = bad
    with pytest.raises(R.InvalidStateError, match="V16"):
        R.Game.from_record(record)


# --- 2. rules under which a hand could not be played to its end ------------------------------------

REFUSED_RULES = [
    ("pack-too-small", "italian", {"hand_size": 20, "pozzetto_sizes": (30, 30)}, "too small"),
    ("threshold-at-or-above-the-stock", "italian", {"hand_size": 20, "stock_end_threshold": 10},
     "stock_end_threshold=10"),
    ("force-draw-from-an-undrawable-stock", "italian",
     {"hand_size": 20, "stock_end_threshold": 5, "deadlock_rule": "force_draw"},
     "stock_end_threshold=5"),
    ("empty-stock-without-reserve", "online-2p",
     {"players": 4, "hand_size": 20, "pozzetto_sizes": (12, 13), "pozzetto_becomes_stock": False},
     "holds 0 cards"),
    ("brazilian-keep-from-an-empty-stock", "brazilian",
     {"hand_size": 12, "pozzetto_sizes": (30, 30)}, "keep"),
    ("brazilian-start-card-above-the-stock", "brazilian",
     {"pozzetto_sizes": (30, 30), "stock_end_threshold": 10, "initial_upcard": True},
     "start card"),
]


@pytest.mark.parametrize(("preset", "knobs", "reason"),
                         [pytest.param(*case[1:], id=case[0]) for case in REFUSED_RULES])
def test_rules_that_cannot_be_played_are_refused(preset, knobs, reason):
    with pytest.raises(R.InvalidNotationError) as excinfo:
        R.Rules(preset, **knobs)
    text = str(excinfo.value)
    assert "cannot be played" in text and reason in text, text
    with pytest.raises(R.InvalidNotationError):
        R.Rules(preset).replace(**knobs)


EDGE_RULES = [
    ("threshold-above-the-stock-with-keep", "brazilian",
     {"pozzetto_sizes": (30, 30), "stock_end_threshold": 10}),
    ("one-card-stock-with-keep", "brazilian", {"hand_size": 12, "pozzetto_sizes": (30, 29)}),
    ("empty-stock-with-reserve", "online-2p",
     {"players": 4, "hand_size": 20, "pozzetto_sizes": (12, 13)}),
    ("stock-one-above-threshold", "italian", {"hand_size": 20, "stock_end_threshold": 4}),
]


@pytest.mark.parametrize(("preset", "knobs"),
                         [pytest.param(*case[1:], id=case[0]) for case in EDGE_RULES])
def test_edge_rules_play_every_hand_to_its_end(preset, knobs):
    rules = R.Rules(preset, **knobs)
    for seed in range(3):
        for policy in ("random", "greedy"):
            game = R.Game(rules, seed=seed)
            game.playout(policy, seed)
            assert game.is_over()
            replay = R.Game(rules, seed=seed)
            for move in game.moves:
                R.Game.from_state_string(replay.state_string())
                replay.push(move)


# --- 3. no position twice in a turn (RULES H-38), and the move cap ------------------------------


def _turn_positions_repeat(rules, seed, policy):
    """Play the hand; return how many moves brought back a position of their own turn."""
    game = R.Game(rules, seed=seed)
    game.playout(policy, seed)
    replay = R.Game(rules, seed=seed)
    repeats, seen, turn = 0, set(), None
    for move in game.moves:
        if replay.phase == "draw":
            seen, turn = set(), replay.turn
        seen.add(replay.state_string())
        replay.push(move)
        if replay.turn == turn and replay.state_string() in seen:
            repeats += 1
    return game, repeats


def test_greedy_short_opening_that_cannot_rise_ends():
    """The issue's example: after 90 moves 'meld 2c 5c 5c 5d' came back to the same position and
    was chosen again forever; now it is played once and the hand ends."""
    rules = R.Rules("brazilian", hand_size=3, opening_fail_increment=0)
    game, repeats = _turn_positions_repeat(rules, 0, "greedy")
    assert game.is_over() and repeats == 0
    assert [str(move) for move in game.moves].count("meld 2c 5c 5c 5d") == 1
    assert str(game.moves[89]) == "meld 2c 5c 5c 5d"


@pytest.mark.parametrize("seed", range(4))
def test_random_short_opening_that_cannot_rise_ends(seed):
    rules = R.Rules("brazilian", hand_size=3, opening_fail_increment=0)
    game, repeats = _turn_positions_repeat(rules, seed, "random")
    assert game.is_over() and repeats == 0


def test_keep_at_the_threshold_ends_the_hand():
    """Rules('brazilian', pozzetto_sizes=(30, 30), stock_end_threshold=10), seed 0: keep sets the
    last turn (keep/reject are stock draws, docs/game.md); greedy ends the hand at the first discard (4 moves, as before)."""
    game = R.Game(R.Rules("brazilian", pozzetto_sizes=(30, 30), stock_end_threshold=10), seed=0)
    assert game.playout("greedy") == 4
    assert game.end_reason == "stock_exhausted"
    assert [str(move) for move in game.moves][0] == "keep"


@pytest.mark.parametrize("preset", R.Rules.PRESETS)
def test_no_turn_comes_back_to_a_position_in_every_preset(preset):
    """The policies choose among all the legal moves (docs/search.md "Candidates"): no hand they
    play passes through a position of a turn twice."""
    for seed in range(2):
        for policy in ("greedy", "random"):
            game, repeats = _turn_positions_repeat(R.Rules(preset), seed, policy)
            assert game.is_over() and repeats == 0, (preset, seed, policy)


def test_after_the_return_the_repeating_meld_is_refused_and_the_candidates_are_the_discards():
    """Seed 0, greedy: move 89 puts the whole hand `2c 5c 5c 5d` down short of the opening minimum
    and the cards come back. Putting it down again would return to the position after the first
    meld, which the policies once had to leave out; RULES H-38 (C.3) makes it illegal instead:
    the repeat is refused (quoting it, the game unchanged) and only discards are legal."""
    rules = R.Rules("brazilian", hand_size=3, opening_fail_increment=0)
    game = R.Game(rules, seed=0)
    for _ in range(89):
        game.push(game.policy_move("greedy"))
    moves = game.legal_moves()
    assert "meld 2c 5c 5c 5d" in moves.strings()
    game.push("meld 2c 5c 5c 5d")
    assert str(game.hand(2)) == "2c 5c 5c 5d" and "d" in fields(game.state_string())["turnflags"]
    before, history = game.state_string(), list(game.moves)
    with pytest.raises(R.IllegalMoveError, match=re.escape("'meld 2c 5c 5c 5d'")) as excinfo:
        game.push("meld 2c 5c 5c 5d")
    assert "H-38" in str(excinfo.value)
    assert game.state_string() == before and game.moves == history  # nothing changed
    moves = game.legal_moves()
    assert moves.strings() == ["discard 2c", "discard 5c", "discard 5d"]
    chosen = game.policy_move("greedy")
    assert str(chosen) == "discard 5c"
    game.push(chosen)  # the discard ends the turn
    assert game.turn == 3 and game.phase == "draw"


def test_move_cap_constant():
    assert R.MAX_HAND_MOVES == game_module.MAX_HAND_MOVES == 100_000


def test_playout_stops_at_the_move_cap(monkeypatch):
    monkeypatch.setattr(game_module, "MAX_HAND_MOVES", 5)
    game = R.Game(R.Rules("italian"), seed=3)
    game.push("draw")
    before, moves = game.state_string(), game.moves
    with pytest.raises(R.InvalidStateError) as excinfo:
        game.playout("random", 1)
    text = str(excinfo.value)
    assert "MAX_HAND_MOVES" in text and "v=1;rules=italian;" in text
    assert game.state_string() == before and game.moves == moves  # nothing changed
    with pytest.raises(R.InvalidStateError, match="MAX_HAND_MOVES"):
        R.playouts(R.Rules("italian"), 1, seed=0, policy="greedy")


# --- 4. no hold with forbid_discard_of_single_pile_card=False: no hold without forbid_discard_of_single_pile_card ------------------------------


@pytest.mark.parametrize(("forbid", "hold", "legal"), [(True, "2c", False), (False, None, True)])
def test_one_card_pile_take_and_the_hold(forbid, hold, legal):
    game = R.Game(R.Rules("italian", forbid_discard_of_single_pile_card=forbid), seed=1)
    game.push("pile")  # the start card 2c, the only copy in the hand
    assert (None if game.hold is None else str(game.hold)) == hold
    assert ("discard 2c" in game.legal_moves().strings()) is legal
    assert "p" in fields(game.state_string())["turnflags"]


# --- 5. strict parsers -----------------------------------------------------------------------------

FOREIGN_BLANKS = ["\u00a0", "\u2003", "\u3000", "\u2028", "\x1c", "\x85"]


@pytest.mark.parametrize("blank", FOREIGN_BLANKS, ids=lambda b: f"U+{ord(b):04X}")
@pytest.mark.parametrize("make", [
    pytest.param(lambda b: R.Cards(f"5h{b}6h 7h"), id="Cards"),
    pytest.param(lambda b: R.Move(f"meld 5h{b}6h 7h"), id="Move"),
    pytest.param(lambda b: R.Meld(f"5h 6h{b}7h"), id="Meld"),
    pytest.param(lambda b: R.Meld.from_layout(f"Jk(=4d){b}5d 6d"), id="layout"),
])
def test_only_ascii_blanks_and_commas_separate_cards(make, blank):
    with pytest.raises(R.InvalidNotationError) as excinfo:
        make(blank)
    assert repr(blank)[1:-1] in str(excinfo.value) or blank in str(excinfo.value)


@pytest.mark.parametrize("text", ["5h\n6h\t7h", "5h\r\n6h,7h", "5h\x0b6h\x0c7h", " 5h 6h 7h\n"])
def test_ascii_blanks_and_commas_separate_cards_as_in_the_core(text):
    import burraco

    assert str(R.Cards(text)) == str(burraco.Cards(text)) == "5h 6h 7h"


@pytest.mark.parametrize("blank", ["\u00a0", "\u2003", "\u3000", "\x1c", "\x85"],
                         ids=lambda b: f"U+{ord(b):04X}")
def test_a_card_carries_ascii_blanks_only(blank):
    for text in (f"{blank}Qh", f"Qh{blank}"):
        with pytest.raises(R.InvalidNotationError):
            R.Card(text)
        with pytest.raises(R.InvalidNotationError):
            R.Cards(text)


def test_ascii_separators_still_work():
    assert str(R.Cards(" 5h\t6h,7h ")) == "5h 6h 7h"
    assert str(R.Move("\tmeld 7h 5h  6h ")) == "meld 5h 6h 7h"
    assert R.Meld("5h\t6h,7h").layout == "5h 6h 7h"
    assert str(R.Card(" qh\t")) == "Qh" and str(R.Card("\tqh\n")) == "Qh"
    assert str(R.Cards("\n As\t2s ")) == "As 2s"
    with pytest.raises(R.InvalidNotationError):
        R.Card("Q\u017f")  # long s, whose upper case is S


class Index:
    def __init__(self, value):
        self.value = value

    def __index__(self):
        return self.value


KNOBS_ACCEPTED = [
    ("numpy-int64", {"hand_size": np.int64(9)}, "hand_size", 9),
    ("numpy-int32-in-a-tuple", {"pozzetto_sizes": (np.int32(12), 11)}, "pozzetto_sizes", (12, 11)),
    ("index-object", {"closing_bonus": Index(150)}, "closing_bonus", 150),
    ("numpy-bool", {"initial_upcard": np.bool_(False)}, "initial_upcard", False),
    ("numpy-float", {"cut_exact_probability": np.float64(0.25)}, "cut_exact_probability", 0.25),
    ("int-for-float", {"cut_exact_probability": 1}, "cut_exact_probability", 1.0),
]


@pytest.mark.parametrize(("knobs", "name", "value"),
                         [pytest.param(*case[1:], id=case[0]) for case in KNOBS_ACCEPTED])
def test_knob_values_accepted(knobs, name, value):
    rules = R.Rules("italian", **knobs)
    assert getattr(rules, name) == value
    assert type(getattr(rules, name)) is type(value)
    assert pickle.loads(pickle.dumps(rules)) == rules
    assert R.Game(rules, seed=1).state_string()  # its rules text is written with plain values


KNOBS_REFUSED = [
    ("bool-for-int", {"hand_size": True}),
    ("numpy-bool-for-int", {"hand_size": np.bool_(True)}),
    ("float-for-int", {"closing_bonus": 100.0}),
    ("int-for-bool", {"initial_upcard": 1}),
    ("bool-for-float", {"cut_exact_probability": True}),
    ("infinite-float", {"cut_exact_probability": float("inf")}),
    ("nan", {"cut_exact_probability": float("nan")}),
    ("non-ascii-ranks", {"set_ranks": "AK\u0131"}),
]


@pytest.mark.parametrize("knobs", [pytest.param(case[1], id=case[0]) for case in KNOBS_REFUSED])
def test_knob_values_refused(knobs):
    with pytest.raises(R.InvalidNotationError):
        R.Rules("italian", **knobs)


def test_meld_is_valid_of_unreadable_text_raises():
    assert R.Meld.is_valid("5h 6h 8h") is False
    assert R.Meld.is_valid("5h 6h 7h") is True
    for text in ("5h 6h xx", "5h\u00a06h 7h", "Jk(=zz) 5d 6d"):
        with pytest.raises(R.InvalidNotationError):
            R.Meld.is_valid(text)


@pytest.mark.parametrize("scores", [
    pytest.param({1: 1, 2: 2}, id="dict"), pytest.param({1, 2}, id="set"),
    pytest.param("12", id="str"), pytest.param((x for x in (1, 2)), id="generator"),
    pytest.param((1.0, 2), id="float"), pytest.param((True, 0), id="bool"),
])
def test_game_scores_of_the_wrong_type(scores):
    with pytest.raises(TypeError):
        R.Game(R.Rules("italian"), seed=1, scores=scores)


def test_game_scores_of_the_wrong_length_and_right_type():
    with pytest.raises(R.InvalidNotationError):
        R.Game(R.Rules("italian"), seed=1, scores=(1, 2, 3))
    assert R.Game(R.Rules("italian"), seed=1, scores=[5, -5]).scores == (5, -5)


# --- 6. pickle, copy, equality ---------------------------------------------------------------------


def _finished_game():
    game = R.Game(R.Rules("italian"), seed=3)
    game.playout("random", 1)
    return game


def _match():
    match = R.Match(R.Rules("italian-2p"), seed=5)
    hand = match.new_game()
    hand.playout("greedy")
    match.record(hand)
    return match


VALUES = [
    ("Card", lambda: R.Card("Qh")),
    ("Cards", lambda: R.Cards("5h 6h Jk Jk")),
    ("Rules", lambda: R.Rules("brazilian", players=2, opening_minimum=((0, 30),))),
    ("Meld", lambda: R.Meld.from_layout("Jk(=4d) 5d 6d 7d")),
    ("Melds", lambda: R.Melds(["5h 6h 7h", "Kc Kd Ks"])),
    ("Move", lambda: R.Move("add 1 7c")),
    ("MoveList", lambda: R.Game(R.Rules(), seed=2).legal_moves()),
    ("Result", lambda: _finished_game().result()),
    ("SideResult", lambda: _finished_game().result().sides[1]),
    ("Observation", lambda: _finished_game().observation(2)),
    ("Match", _match),
    ("Game", _finished_game),
]

COPIES = [
    ("pickle", lambda value: pickle.loads(pickle.dumps(value))),
    ("pickle-protocol-0", lambda value: pickle.loads(pickle.dumps(value, protocol=0))),
    ("pickle-protocol-2", lambda value: pickle.loads(pickle.dumps(value, protocol=2))),
    ("copy", copy.copy),
    ("deepcopy", copy.deepcopy),
]


@pytest.mark.parametrize("how", [pytest.param(case[1], id=case[0]) for case in COPIES])
@pytest.mark.parametrize("make", [pytest.param(case[1], id=case[0]) for case in VALUES])
def test_every_value_pickles_and_copies(make, how):
    value = make()
    other = how(value)
    assert type(other) is type(value)
    assert other == value and not other != value


def test_a_game_keeps_its_history_through_pickle_and_copies():
    game = R.Game(R.Rules("brazilian", players=2), seed=4)
    for _ in range(9):
        game.push(game.policy_move("greedy"))
    for other in (pickle.loads(pickle.dumps(game)), copy.copy(game), copy.deepcopy(game),
                  game.copy()):
        assert other.moves == game.moves and other.record() == game.record()
        last = other.pop()
        assert last == game.moves[-1] and other != game
        other.push(last)
        assert other == game
        other.push(other.policy_move("greedy"))  # independent of the original
        assert len(other.moves) == len(game.moves) + 1


def test_game_equality_is_position_and_history():
    game = R.Game(R.Rules("italian"), seed=3)
    game.push("draw")
    same_position = R.Game.from_state_string(game.state_string())
    assert same_position != game  # same state string, not the same moves
    replayed = R.Game(R.Rules("italian"), seed=3)
    replayed.push("draw")
    assert replayed == game
    with pytest.raises(TypeError):
        hash(game)
    with pytest.raises(TypeError):
        hash(_match())
    assert (game == "draw") is False


def test_a_match_goes_on_after_unpickling():
    match = _match()
    other = pickle.loads(pickle.dumps(match))
    hand = other.new_game()
    hand.playout("greedy")
    other.record(hand)
    assert other.hands_played == 2 and match.hands_played == 1 and other != match


def test_match_record_of_a_hand_under_other_rules():
    match = R.Match(R.Rules("italian"), seed=1)
    game = R.Game(R.Rules("italian-2p"), seed=1)
    game.playout("greedy")
    with pytest.raises(R.IllegalMoveError):
        match.record(game)
    with pytest.raises(R.InvalidNotationError):
        match.record("not a game")
    assert match.hands_played == 0 and match.scores == (0, 0)


# --- 7. threads ------------------------------------------------------------------------------------


@pytest.fixture
def fast_switching():
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(interval)


def _run(threads):
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def test_one_game_shared_by_threads(fast_switching):
    rules = R.Rules("italian-2p")
    game = R.Game(rules, seed=11)
    errors, views = [], []

    def mover(seed):
        import random
        rng = random.Random(seed)
        for _ in range(60):
            try:
                if rng.random() < 0.3:
                    game.pop()
                else:
                    game.push_index(rng.randrange(8))
            except (R.IllegalMoveError, IndexError):
                pass  # another thread moved first: the index or the pop no longer applies
            except Exception as error:  # anything else is a torn state
                errors.append(error)

    def reader():
        for _ in range(40):
            views.append((game.state_string(), game.to_json(), game.record()))

    _run([threading.Thread(target=mover, args=(n,)) for n in range(3)]
         + [threading.Thread(target=reader)])
    assert not errors, errors
    replay = R.Game(rules, seed=11)
    for move in game.moves:
        replay.push(move)
    assert replay.state_string() == game.state_string()  # history and position agree
    for state, view, record in views:
        assert R.Game.from_state_string(state).state_string() == state
        assert R.Game.from_json(view).state_string() == fields_state(view)
        R.Game.from_record(record)  # each record replays: moves and position from one snapshot


def fields_state(view: str) -> str:
    import json
    return json.loads(view)["state"]


def test_one_match_shared_by_threads(fast_switching):
    rules = R.Rules("italian-2p", match_target=1_000_000)
    match = R.Match(rules, seed=2)
    hands = []
    for seed in range(8):
        hand = R.Game(rules, seed=seed)
        hand.playout("greedy")
        hands.append(hand)
    _run([threading.Thread(target=match.record, args=(hand,)) for hand in hands])
    assert match.hands_played == 8
    totals = [sum(hand.result().side(side).total for hand in hands) for side in (0, 1)]
    assert list(match.scores) == totals
