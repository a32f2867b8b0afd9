"""Values of the two engines that print the same compare equal, both ways round, and hash alike
(docs/api.md "Both engines"); values that print differently, or melds under other rules, do not."""

from __future__ import annotations

import pytest

import burraco as core
import burraco.reference as reference

# (class name, constructor arguments) pairs; each is built in both engines.
SAME = [
    ("Card", ("Qh",)),
    ("Card", ("Jk",)),
    ("Card", ("2c",)),
    ("Cards", ("",)),
    ("Cards", ("5h 6h 7h Jk",)),
    ("Cards", ("As As 2c Jk Jk Kd",)),
    ("Meld", ("Jk 5d 6d",)),
    ("Meld", ("Qc Qd Qh 2s",)),
    ("Meld", ("3h 4h 5h 6h 7h 8h 9h",)),
    ("Move", ("draw",)),
    ("Move", ("meld 5h 6h 7h",)),
    ("Move", ("add 2 8h",)),
    ("Move", ("discard Jk",)),
]


def _both(name: str, args: tuple[str, ...]):
    return getattr(core, name)(*args), getattr(reference, name)(*args)


@pytest.mark.parametrize(("name", "args"), SAME, ids=[f"{n}({a[0]!r})" for n, a in SAME])
def test_equal_both_ways_with_the_same_hash(name, args):
    ours, theirs = _both(name, args)
    assert str(ours) == str(theirs)
    assert ours == theirs and theirs == ours
    assert not (ours != theirs) and not (theirs != ours)
    assert hash(ours) == hash(theirs)
    assert len({ours, theirs}) == 1
    assert {ours: "core"}[theirs] == "core" and {theirs: "reference"}[ours] == "reference"


def test_every_card_kind_hashes_alike():
    texts = [rank + suit for rank in "A23456789TJQK" for suit in "cdhs"] + ["Jk"]
    for text in texts:
        assert hash(core.Card(text)) == hash(reference.Card(text)), text
        assert core.Card(text) == reference.Card(text) and reference.Card(text) == core.Card(text)


@pytest.mark.parametrize(
    ("name", "ours", "theirs"),
    [
        ("Card", "Qh", "Qs"),
        ("Cards", "5h 6h", "5h 6h 6h"),
        ("Cards", "5h", ""),
        ("Meld", "Jk 5d 6d", "4d 5d 6d"),
        ("Move", "add 2 8h", "add 1 8h"),
        ("Move", "discard Qh", "discard Qs"),
    ],
)
def test_values_that_print_differently_differ_both_ways(name, ours, theirs):
    a, b = getattr(core, name)(ours), getattr(reference, name)(theirs)
    assert a != b and b != a
    assert not (a == b) and not (b == a)


def test_melds_under_rules_that_print_differently_differ():
    a = core.Meld("5d 6d 7d", core.Rules("brazilian"))
    b = reference.Meld("5d 6d 7d")
    assert str(a) == str(b)
    assert a != b and b != a
    same = reference.Meld("5d 6d 7d", reference.Rules("brazilian"))
    assert a == same and same == a and hash(a) == hash(same)


@pytest.mark.parametrize("name", ["Card", "Cards", "Meld", "Move"])
def test_other_objects_stay_unequal(name, engine):
    value = getattr(engine, name)({"Card": "Jk", "Move": "meld Jk 5d 6d"}.get(name, "Jk 5d 6d"))
    assert value != str(value) and str(value) != value
    assert value != 0 and value is not None


def test_three_deck_cards_equal_both_ways_with_the_same_hash():
    ours = core.Cards("5h 5h 5h Jk Jk Jk Jk Jk", decks=3)
    theirs = reference.Cards("5h 5h 5h Jk Jk Jk Jk Jk", decks=3)
    assert ours == theirs and theirs == ours and hash(ours) == hash(theirs)
    # The pack is not part of the value, in either engine or across them.
    assert core.Cards("5h 6h", decks=3) == reference.Cards("5h 6h")
    assert reference.Cards("5h 6h", decks=3) == core.Cards("5h 6h")
