"""Rules: presets, knobs, overrides, derived values and card points (docs/api.md "Rules"; RULES A.3,
F.2, G, G.1), on both engines.

The expected knob values are written out below from RULES section G (and its G.1 presets), in the
table order of docs/api.md; no expected value is read from an engine.
"""

from __future__ import annotations

import pytest
from conftest import load_engine

from burraco._errors import InvalidNotationError

# RULES G (rows 1-53) / G.1, in the table order of docs/api.md.
ITALIAN = {
    "players": 4,
    "decks": 2,
    "jokers": 4,
    "card_values": "italian",
    "hand_size": 11,
    "pozzetto_sizes": (11, 11),
    "initial_upcard": True,
    "first_draw_rule": "none",
    "pile_take_requires_meld": False,
    "forbid_discard_of_single_pile_card": True,
    "natural_two_in_run": True,
    "max_wild_per_meld": 1,
    "sets_allowed": True,
    "set_ranks": "A3456789TJQK",
    "max_sets_per_rank_per_side": 1,
    "max_set_size": 9,
    "ace_low_or_high": "low_or_high",
    "allow_both_aces_in_run": False,
    "allow_orphan_wild_14": True,
    "max_run_size": 14,
    "run_wraparound": False,
    "wild_display_end": "low",
    "free_end_wild_may_move": True,
    "wild_replaced_only_by_its_card": True,
    "wild_swap_allowed": False,
    "low_natural_two_may_convert": True,
    "opening_minimum": None,
    "opening_fail_increment": 15,
    "pozzetto_reveal": "after_partner_turn",
    "closing_requires_pozzetto": True,
    "closing_requires_burraco": "any",
    "closing_discard": "required",
    "closing_discard_wild_allowed": False,
    "closing_bonus": 100,
    "clean_burraco_bonus": 200,
    "dirty_burraco_bonus": 100,
    "semi_clean_burraco_bonus": 150,
    "semi_clean_rule": "longest_natural_block",
    "no_pozzetto_penalty": 100,
    "unplayed_pozzetto_rule": "count_as_hand",
    "stock_end_threshold": 2,
    "pozzetto_becomes_stock": False,
    "deadlock_rule": "end_hand",
    "cut_bonus": 0,
    "cut_exact_probability": 0.0,
    "score_split": "none",
    "match_target": 2000,
    "compare": ">",
    "tie_policy": "play_on",
    # RULES G rows 12, 15, 33, 35, 54, 55: fixed for now (docs/api.md lists them after the rest)
    "pile_take": "whole_pile",
    "wild_cards": "jokers_and_twos",
    "pozzetto_pickup": "on_the_fly_or_after_discard",
    "pozzetti_per_side": 1,
    "discard_pile_public": True,
    "dealer_rotation": "left",
}
KNOB_ORDER = tuple(ITALIAN)

EXPECTED = {
    "italian": ITALIAN,
    # G: two individuals; the pozzetto is seen at the start of the own next turn (row 34, H-30).
    "italian-2p": {**ITALIAN, "players": 2, "pozzetto_reveal": "next_own_turn"},
    # G / F.6: 18 + 11 pozzetti, the pair's points split in halves (E.6).
    "italian-3p": {
        **ITALIAN,
        "players": 3,
        "pozzetto_sizes": (18, 11),
        "score_split": "halves_for_pair",
    },
    # G, seed 001: 106 cards (2 jokers), pozzetto as reserve, 2005 reached or passed.
    "online-2p": {
        **ITALIAN,
        "players": 2,
        "jokers": 2,
        "pozzetto_reveal": "immediately",
        "stock_end_threshold": 0,
        "pozzetto_becomes_stock": True,
        "match_target": 2005,
        "compare": ">=",
    },
    # G / G.1, seed 003 + pagat Buraco.
    "brazilian": {
        **ITALIAN,
        "initial_upcard": False,
        "first_draw_rule": "may_reject_first_card",
        "allow_both_aces_in_run": True,
        "allow_orphan_wild_14": False,
        "opening_minimum": ((0, 50), (1500, 75)),
        "closing_requires_burraco": "clean",
        "closing_discard": "optional",
        "closing_discard_wild_allowed": True,
        "semi_clean_burraco_bonus": None,
        "unplayed_pozzetto_rule": "min_of_value_and_100",
        "stock_end_threshold": 0,
        "pozzetto_becomes_stock": True,
        "cut_bonus": 100,
        "match_target": 2000,
        "compare": ">=",
    },
}

#: The presets of RULES G.1, in its order.
PRESETS = tuple(EXPECTED)

# RULES A.1 / F.2.
TOTAL_CARDS = {
    "italian": 108,
    "italian-2p": 108,
    "italian-3p": 108,
    "online-2p": 106,
    "brazilian": 108,
}
INITIAL_STOCK = {
    "italian": 41,
    "italian-2p": 63,
    "italian-3p": 45,
    "online-2p": 61,
    "brazilian": 42,
}


def test_expected_table_has_every_knob_of_the_api_table():
    assert len(KNOB_ORDER) == 55
    for preset in PRESETS:
        assert tuple(EXPECTED[preset]) == KNOB_ORDER


def test_presets_tuple(engine):
    assert engine.Rules.PRESETS == PRESETS


def test_default_is_italian(engine):
    Rules = engine.Rules
    assert Rules() == Rules("italian")
    assert hash(Rules()) == hash(Rules("italian"))
    assert Rules().preset == "italian"
    assert repr(Rules()) == "Rules('italian')"


@pytest.mark.parametrize("preset", PRESETS)
def test_preset_knob_values(engine, preset):
    rules = engine.Rules(preset)
    assert rules.preset == preset
    expected = EXPECTED[preset]
    for knob, value in expected.items():
        got = getattr(rules, knob)
        assert got == value, knob
        assert type(got) is type(value), (knob, type(got))
    # a tuple knob holds plain ints (pairs for opening_minimum)
    if expected["opening_minimum"] is not None:
        assert all(type(pair) is tuple for pair in rules.opening_minimum)


@pytest.mark.parametrize("preset", PRESETS)
def test_knobs_dict_in_table_order(engine, preset):
    rules = engine.Rules(preset)
    knobs = rules.knobs()
    assert type(knobs) is dict
    assert tuple(knobs) == KNOB_ORDER
    assert knobs == EXPECTED[preset]
    # the dict is a copy: changing it does not change the rules
    knobs["players"] = 3
    assert rules.players == EXPECTED[preset]["players"]
    assert rules == engine.Rules(preset)


@pytest.mark.parametrize("preset", PRESETS)
def test_derived_values(engine, preset):
    rules = engine.Rules(preset)
    assert rules.total_cards == TOTAL_CARDS[preset]
    assert rules.initial_stock == INITIAL_STOCK[preset]
    # the identity of docs/api.md
    assert rules.initial_stock == (
        rules.total_cards
        - rules.players * rules.hand_size
        - sum(rules.pozzetto_sizes)
        - int(rules.initial_upcard)
    )


@pytest.mark.parametrize(
    "preset, overrides, total, stock",
    [
        ("brazilian", {"players": 2}, 108, 64),  # RULES F.2: brazilian, 2 players
        ("italian", {"jokers": 0}, 104, 37),  # RULES A.1: 104 is reachable with jokers = 0
        ("italian", {"jokers": 2}, 106, 39),
        ("italian", {"initial_upcard": False}, 108, 42),
        ("italian", {"hand_size": 13}, 108, 33),
        ("italian-3p", {"pozzetto_sizes": (11, 11)}, 108, 52),
        ("online-2p", {"jokers": 4}, 108, 63),
    ],
)
def test_derived_values_follow_overrides(engine, preset, overrides, total, stock):
    rules = engine.Rules(preset, **overrides)
    assert (rules.total_cards, rules.initial_stock) == (total, stock)


# ----------------------------------------------------------------------------------------------
# Overrides


def test_override_semi_clean_off(engine):
    rules = engine.Rules("italian", semi_clean_burraco_bonus=None)
    assert rules.semi_clean_burraco_bonus is None
    assert rules.preset == "italian"
    assert rules.knobs() == {**ITALIAN, "semi_clean_burraco_bonus": None}
    assert rules != engine.Rules("italian")
    assert repr(rules) == "Rules('italian', semi_clean_burraco_bonus=None)"


def test_override_brazilian_two_players(engine):
    rules = engine.Rules("brazilian", players=2)
    assert rules.players == 2
    assert rules.knobs() == {**EXPECTED["brazilian"], "players": 2}
    assert repr(rules) == "Rules('brazilian', players=2)"
    assert rules.initial_stock == 64


def test_overrides_without_preset_name_apply_to_italian(engine):
    rules = engine.Rules(players=2)
    assert rules.preset == "italian"
    assert rules == engine.Rules("italian", players=2)
    assert repr(rules) == "Rules('italian', players=2)"


@pytest.mark.parametrize(
    "preset, overrides, text",
    [
        ("italian", {}, "Rules('italian')"),
        ("italian-2p", {}, "Rules('italian-2p')"),
        ("italian-3p", {}, "Rules('italian-3p')"),
        ("online-2p", {}, "Rules('online-2p')"),
        ("brazilian", {}, "Rules('brazilian')"),
        (
            "italian",
            {"semi_clean_burraco_bonus": None},
            "Rules('italian', semi_clean_burraco_bonus=None)",
        ),
        ("brazilian", {"players": 2}, "Rules('brazilian', players=2)"),
        # several overrides: table order, whatever the keyword order
        (
            "italian",
            {"match_target": 3000, "players": 2},
            "Rules('italian', players=2, match_target=3000)",
        ),
        (
            "brazilian",
            {"semi_clean_burraco_bonus": 150, "card_values": "pagat_brazil"},
            "Rules('brazilian', card_values='pagat_brazil', semi_clean_burraco_bonus=150)",
        ),
        ("italian", {"pozzetto_sizes": (18, 11)}, "Rules('italian', pozzetto_sizes=(18, 11))"),
        (
            "italian",
            {"opening_minimum": ((0, 50), (1500, 75))},
            "Rules('italian', opening_minimum=((0, 50), (1500, 75)))",
        ),
        ("brazilian", {"opening_minimum": None}, "Rules('brazilian', opening_minimum=None)"),
        (
            "brazilian",
            {"cut_exact_probability": 0.1},
            "Rules('brazilian', cut_exact_probability=0.1)",
        ),
        ("italian", {"set_ranks": "KQJ"}, "Rules('italian', set_ranks='JQK')"),
        (
            "italian",
            {"ace_low_or_high": "low_only"},
            "Rules('italian', ace_low_or_high='low_only')",
        ),
        ("italian", {"natural_two_in_run": False}, "Rules('italian', natural_two_in_run=False)"),
        ("online-2p", {"compare": ">"}, "Rules('online-2p', compare='>')"),
        # an override equal to the preset value is not an override
        ("italian", {"players": 4, "jokers": 4}, "Rules('italian')"),
        ("italian-3p", {"pozzetto_sizes": (18, 11)}, "Rules('italian-3p')"),
    ],
)
def test_repr_round_trip(engine, preset, overrides, text):
    rules = engine.Rules(preset, **overrides)
    assert repr(rules) == text
    again = eval(repr(rules), {"Rules": engine.Rules})
    assert again == rules
    assert hash(again) == hash(rules)
    assert again.knobs() == rules.knobs()
    assert again.preset == preset


def test_override_values_are_stored(engine):
    Rules = engine.Rules
    assert Rules(set_ranks="KQA").set_ranks == "AQK"  # stored in the order A 3 4 ... K
    assert Rules(set_ranks="K").set_ranks == "K"
    assert Rules(pozzetto_sizes=(18, 11)).pozzetto_sizes == (18, 11)
    assert Rules(opening_minimum=((0, 90),)).opening_minimum == ((0, 90),)
    assert Rules(cut_exact_probability=1.0).cut_exact_probability == 1.0
    assert Rules(stock_end_threshold=10).stock_end_threshold == 10
    assert Rules(hand_size=1).hand_size == 1 and Rules(hand_size=20).hand_size == 20
    assert Rules(max_set_size=3).max_set_size == 3 and Rules(max_run_size=3).max_run_size == 3
    assert Rules(jokers=0).jokers == 0
    assert Rules(semi_clean_burraco_bonus=0).semi_clean_burraco_bonus == 0


# ----------------------------------------------------------------------------------------------
# Equality, hash, immutability, replace()


def test_equality_compares_preset_name_and_knobs(engine):
    Rules = engine.Rules
    assert Rules("italian", players=4) == Rules("italian")
    assert Rules("italian", players=2) != Rules("italian")
    # the same knob values under another preset name are a different Rules
    same_knobs = Rules("italian", players=2, pozzetto_reveal="next_own_turn")
    assert same_knobs.knobs() == Rules("italian-2p").knobs()
    assert same_knobs != Rules("italian-2p")
    distinct = {Rules(p) for p in PRESETS} | {Rules(p) for p in PRESETS}
    assert len(distinct) == 5
    assert len({Rules(), Rules("italian"), Rules("italian", players=4), Rules(players=2)}) == 2
    assert (Rules() == "italian") is False


def test_replace(engine):
    Rules = engine.Rules
    base = Rules("brazilian")
    two = base.replace(players=2)
    assert two == Rules("brazilian", players=2)
    assert two.preset == "brazilian"
    assert base == Rules("brazilian") and base.players == 4  # unchanged
    assert two.replace(players=4) == base
    assert base.replace() == base
    both = Rules("italian", semi_clean_burraco_bonus=None).replace(match_target=3000)
    assert repr(both) == "Rules('italian', semi_clean_burraco_bonus=None, match_target=3000)"


@pytest.mark.parametrize(
    "knob", ["players", "jokers", "set_ranks", "semi_clean_burraco_bonus", "preset"]
)
def test_knobs_are_read_only(engine, knob):
    rules = engine.Rules()
    with pytest.raises(AttributeError):
        setattr(rules, knob, getattr(engine.Rules("italian-3p"), knob))
    assert rules == engine.Rules("italian")


def test_derived_values_are_read_only(engine):
    rules = engine.Rules()
    with pytest.raises(AttributeError):
        rules.total_cards = 106
    with pytest.raises(AttributeError):
        rules.initial_stock = 1


def test_every_knob_has_a_one_line_docstring(engine):
    rules = engine.Rules()
    for name in rules.knobs():
        doc = getattr(type(rules), name).__doc__
        assert isinstance(doc, str) and doc.strip(), f"Rules.{name} has no docstring"
        assert "\n" not in doc and doc == doc.strip() and doc.endswith("."), name


def test_knob_docstrings_are_the_same_in_both_engines():
    # docs/rules.md takes its meanings from the docstrings, and must not depend on the engine.
    core, reference = load_engine("core"), load_engine("reference")
    knobs = list(core.Rules().knobs())
    assert knobs == list(reference.Rules().knobs())
    for name in knobs:
        assert getattr(core.Rules, name).__doc__ == getattr(reference.Rules, name).__doc__, name


# ----------------------------------------------------------------------------------------------
# Bad input: the error names the preset / knob and quotes the value


@pytest.mark.parametrize("preset", ["french", "Italian ", "italian-4p", "", "pagat-basic"])
def test_unknown_preset(engine, preset):
    with pytest.raises(InvalidNotationError) as excinfo:
        engine.Rules(preset)
    assert repr(preset) in str(excinfo.value)


@pytest.mark.parametrize("preset", [4, ("italian",), b"italian"], ids=repr)
def test_preset_of_wrong_type(engine, preset):
    with pytest.raises(InvalidNotationError) as excinfo:
        engine.Rules(preset)
    assert repr(preset) in str(excinfo.value)


@pytest.mark.parametrize(
    "knob", ["semi_clean_bonus", "player", "sides", "total_cards", "initial_stock", "PLAYERS"]
)
def test_unknown_knob(engine, knob):
    with pytest.raises(InvalidNotationError) as excinfo:
        engine.Rules("italian", **{knob: 1})
    assert knob in str(excinfo.value)
    with pytest.raises(InvalidNotationError) as excinfo:
        engine.Rules("italian").replace(**{knob: 1})
    assert knob in str(excinfo.value)


WRONG_TYPE = [
    ("players", "4"),
    ("players", 4.0),
    ("hand_size", 11.5),
    ("jokers", None),
    ("initial_upcard", "yes"),
    ("initial_upcard", None),
    ("natural_two_in_run", "False"),
    ("card_values", 1),
    ("ace_low_or_high", None),
    ("pozzetto_sizes", 11),
    ("pozzetto_sizes", "11 11"),
    ("pozzetto_sizes", (11.0, 11.0)),
    ("opening_minimum", 50),
    ("opening_minimum", "50"),
    ("set_ranks", None),
    ("set_ranks", 5),
    ("semi_clean_burraco_bonus", "150"),
    ("semi_clean_burraco_bonus", 150.0),
    ("closing_bonus", None),
    ("match_target", "2000"),
    ("cut_exact_probability", "0.1"),
    ("cut_exact_probability", None),
    ("compare", None),
]

UNSUPPORTED = [
    ("players", 1),
    ("players", 5),
    ("decks", 1),
    ("jokers", 1),
    ("jokers", 3),
    ("jokers", 6),
    ("card_values", "brazilian"),
    ("hand_size", 0),
    ("hand_size", 21),
    ("pozzetto_sizes", (11,)),
    ("pozzetto_sizes", (11, 11, 11)),
    ("pozzetto_sizes", (0, 11)),
    ("pozzetto_sizes", (11, 31)),
    ("first_draw_rule", "reject"),
    ("pile_take_requires_meld", True),
    ("max_wild_per_meld", 2),
    ("max_wild_per_meld", 0),
    ("set_ranks", ""),
    ("set_ranks", "2"),
    ("set_ranks", "A23"),
    ("set_ranks", "AAK"),
    ("set_ranks", "X"),
    ("max_sets_per_rank_per_side", 2),
    ("max_set_size", 2),
    ("max_set_size", 10),
    ("ace_low_or_high", "both"),
    ("ace_low_or_high", "aces_high_only"),
    ("max_run_size", 2),
    ("max_run_size", 15),
    ("run_wraparound", True),
    ("wild_display_end", "high"),
    ("free_end_wild_may_move", False),
    ("wild_replaced_only_by_its_card", False),
    ("wild_swap_allowed", True),
    ("opening_minimum", ((100, 50),)),
    ("opening_minimum", ((0, 50), (0, 75))),
    ("opening_minimum", ((0, 50), (1500, 75), (1000, 90))),
    ("opening_minimum", ()),
    ("opening_fail_increment", -5),
    ("pozzetto_reveal", "never"),
    ("closing_requires_pozzetto", False),
    ("closing_requires_burraco", "dirty"),
    ("closing_discard", "forbidden"),
    ("closing_bonus", -100),
    ("clean_burraco_bonus", -1),
    ("dirty_burraco_bonus", -1),
    ("semi_clean_burraco_bonus", -150),
    ("semi_clean_rule", "wild_anywhere"),
    ("no_pozzetto_penalty", -100),
    ("unplayed_pozzetto_rule", "ignore"),
    ("stock_end_threshold", -1),
    ("stock_end_threshold", 11),
    ("deadlock_rule", "replay"),
    ("cut_bonus", -1),
    ("cut_exact_probability", -0.1),
    ("cut_exact_probability", 1.5),
    ("score_split", "thirds"),
    ("match_target", 0),
    ("match_target", -2000),
    ("compare", "<"),
    ("compare", "=="),
    ("tie_policy", "replay"),
    ("pile_take", "top_card"),
    ("wild_cards", "jokers_only"),
    ("pozzetto_pickup", "on_the_fly"),
    ("pozzetti_per_side", 2),
    ("discard_pile_public", False),
    ("dealer_rotation", "right"),
]


@pytest.mark.parametrize("knob, value", WRONG_TYPE + UNSUPPORTED, ids=lambda v: repr(v))
def test_bad_knob_value_names_knob_and_value(engine, knob, value):
    with pytest.raises(InvalidNotationError) as excinfo:
        engine.Rules("italian", **{knob: value})
    text = str(excinfo.value)
    assert knob in text and repr(value) in text, text
    with pytest.raises(InvalidNotationError) as excinfo:
        engine.Rules("brazilian").replace(**{knob: value})
    text = str(excinfo.value)
    assert knob in text and repr(value) in text, text


# Six players and three decks (docs/game.md "Six players"): both engines play them.
SIX_PLAYER_KNOBS = [("players", 6), ("decks", 3)]


@pytest.mark.parametrize("value", [5, 7, 1, 0, -6, "6", 6.0, True], ids=repr)
def test_both_engines_refuse_other_player_counts_naming_knob_and_value(engine, value):
    for make in (lambda: engine.Rules("italian", players=value),
                 lambda: engine.Rules("brazilian").replace(players=value)):
        with pytest.raises(InvalidNotationError) as excinfo:
            make()
        text = str(excinfo.value)
        assert "players" in text and repr(value) in text, text


@pytest.mark.parametrize("players", [2, 3, 4])
def test_both_engines_take_three_decks_with_two_to_four_players(engine, players):
    for rules in (engine.Rules("italian", players=players, decks=3),
                  engine.Rules("italian", players=players).replace(decks=3, jokers=6)):
        assert rules.decks == 3 and rules.players == players
        assert rules.total_cards == 156 + rules.jokers
    assert engine.Rules("brazilian", decks=3, jokers=6).total_cards == 162


@pytest.mark.parametrize("knobs, quoted", [
    ({"jokers": 6}, "jokers=6"),            # two decks hold four jokers at most (RULES A.1)
    ({"decks": 3, "jokers": 8}, "8"),       # six at most with three decks
    ({"decks": 3, "jokers": 5}, "5"),       # two jokers a deck: even counts only
    ({"decks": 4}, "4"),
    ({"decks": 1}, "1"),
], ids=repr)
def test_both_engines_refuse_packs_they_cannot_deal_quoting_the_value(engine, knobs, quoted):
    with pytest.raises(InvalidNotationError) as excinfo:
        engine.Rules("italian", **knobs)
    text = str(excinfo.value)
    knob = "decks" if "decks" in knobs and len(knobs) == 1 else "jokers"
    assert knob in text and quoted in text, text


@pytest.mark.parametrize("knob, value", SIX_PLAYER_KNOBS, ids=lambda v: repr(v))
def test_both_engines_take_six_player_knobs(engine, knob, value):
    for rules in (engine.Rules("brazilian", **{knob: value}),
                  engine.Rules("brazilian").replace(**{knob: value})):
        assert getattr(rules, knob) == value
        assert rules.decks == 3 and rules.total_cards == 156 + rules.jokers


def test_bad_override_does_not_change_the_original(engine):
    rules = engine.Rules("italian")
    with pytest.raises(InvalidNotationError):
        rules.replace(players=7)
    assert rules == engine.Rules("italian") and rules.players == 4


# ----------------------------------------------------------------------------------------------
# Card points (RULES A.3; Q11 for pagat_brazil)

SUITS = "cdhs"
RANKS = "A23456789TJQK"
KINDS = tuple(r + s for s in SUITS for r in RANKS) + ("Jk",)
ITALIAN_POINTS = {
    "Jk": 30,
    "2": 20,
    "A": 15,
    "K": 10,
    "Q": 10,
    "J": 10,
    "T": 10,
    "9": 10,
    "8": 10,
    "7": 5,
    "6": 5,
    "5": 5,
    "4": 5,
    "3": 5,
}
PAGAT_POINTS = {**ITALIAN_POINTS, "Jk": 20, "2": 10}


def expected_points(kind: str, table: dict) -> int:
    return table["Jk"] if kind == "Jk" else table[kind[0]]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("kind", KINDS)
def test_card_points_italian_values(engine, preset, kind):
    rules = engine.Rules(preset)
    points = rules.card_points(engine.Card(kind))
    assert points == expected_points(kind, ITALIAN_POINTS)
    assert type(points) is int


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("kind", KINDS)
def test_card_points_pagat_brazil_values(engine, preset, kind):
    rules = engine.Rules(preset, card_values="pagat_brazil")
    assert rules.card_points(engine.Card(kind)) == expected_points(kind, PAGAT_POINTS)


def deck_points(engine, rules) -> int:
    """Points of the whole pack the rules deal (two of each suited card, ``jokers`` jokers)."""
    suited = sum(2 * rules.card_points(engine.Card(kind)) for kind in KINDS[:52])
    return suited + rules.jokers * rules.card_points(engine.Card("Jk"))


@pytest.mark.parametrize(
    "preset, overrides, total",
    [
        ("italian", {}, 1080),  # RULES A.3: 4*30 + 8*20 + 8*15 + 48*10 + 40*5
        ("italian-2p", {}, 1080),
        ("italian-3p", {}, 1080),
        ("brazilian", {}, 1080),
        ("online-2p", {}, 1020),  # RULES A.3: the 106-card deck
        ("brazilian", {"card_values": "pagat_brazil"}, 4 * 20 + 8 * 10 + 8 * 15 + 48 * 10 + 40 * 5),
        ("italian", {"jokers": 0}, 960),
    ],
)
def test_deck_point_totals(engine, preset, overrides, total):
    rules = engine.Rules(preset, **overrides)
    assert deck_points(engine, rules) == total
    # the checksum of RULES A.3: an average of 10 a card with the italian values and 4 jokers
    if overrides == {} and preset != "online-2p":
        assert total == 10 * rules.total_cards


def test_pagat_brazil_deck_total_is_960(engine):
    assert deck_points(engine, engine.Rules("brazilian", card_values="pagat_brazil")) == 960
