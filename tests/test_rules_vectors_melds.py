"""RULES I.1 (sets), I.2 (new runs), I.3 (lay-offs), I.4 (classification) and the B.8 seed
examples that no I vector covers, run on both engines (the ``engine`` fixture).

The vectors live in ``tests/data/meld_vectors.json``; its header explains the format. Test ids
are the RULES ids (``S01``, ``R25``, ``L17``, ``C05``, ``B8-02``); a suffix (``R39-brazilian``,
``L25-b``, ``C05-wild_at_end``) marks a second case of the same RULES row, explained in the
record's ``note``.

Besides each vector's expected outcome, every valid meld is checked for the API invariants of
docs/api.md: ``str`` is the layout, ``iter`` gives the cards in layout order, ``wild`` / ``span`` /
``suit`` / ``rank`` agree with the layout, ``eval(repr(meld)) == meld`` and
``Meld.from_layout(meld.layout, rules) == meld``; a meld (or Melds) passed to ``add`` is unchanged
afterwards, and ``can_add`` / ``can_meld`` agree with ``add`` / ``meld``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

DATA_FILE = Path(__file__).parent / "data" / "meld_vectors.json"
DATA = json.loads(DATA_FILE.read_text(encoding="utf-8"))
VECTORS = DATA["vectors"]

ERRORS = ("InvalidMeldError", "IllegalMoveError")
MELD_FIELDS = ("layout", "kind", "len", "wild_state", "is_clean", "burraco", "bonus", "points")
RANK_VALUE = {rank: value for value, rank in enumerate("A23456789TJQK", start=1)}


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


def make_rules(engine, vector):
    return engine.Rules(vector["preset"], **vector.get("knobs", {}))


def build_meld(engine, rules, spec):
    """A meld from ``{'layout': text}`` (Meld.from_layout) or ``{'cards': text}`` (Meld)."""
    if "layout" in spec:
        return engine.Meld.from_layout(spec["layout"], rules)
    return engine.Meld(spec["cards"], rules)


def spec_text(spec, rules):
    if "layout" in spec:
        return f"Meld.from_layout({spec['layout']!r}, {rules!r})"
    return f"Meld({spec['cards']!r}, {rules!r})"


def safe(getter):
    value, exc = attempt(getter)
    return f"<raised {exc!r}>" if exc is not None else value


def describe(value):
    """What came back: an exception, a meld with every checked field, or a Melds."""
    if isinstance(value, BaseException):
        return f"{type(value).__name__}: {value}"
    if hasattr(value, "layout"):
        fields = {name: safe(lambda name=name: getattr(value, name)) for name in MELD_FIELDS[1:]}
        fields["len"] = safe(lambda: len(value))
        return f"{safe(lambda: value.layout)!r} {fields}"
    return repr(value)


def snapshot(obj):
    """Everything observable about a Meld or a Melds, to prove that it did not change."""
    if hasattr(obj, "layout"):
        return (obj.layout, repr(obj), str(obj.cards), obj.wild_state, obj.burraco, obj.bonus,
                len(obj), hash(obj))
    return (repr(obj), tuple(meld.layout for meld in obj), len(obj), hash(obj))


def layout_facts(layout, kind):
    """What docs/api.md says the expected layout implies: card order, wild, span, suit, rank."""
    tokens = layout.split()
    cards = [token.split("(")[0] for token in tokens]
    wilds = [token.split("(")[0] for token in tokens if "(=" in token]
    wild = wilds[0] if wilds else None
    if kind == "set":
        rank = next(token[0] for token in tokens if "(=" not in token)
        return {"cards": cards, "wild": wild, "span": None, "suit": None, "rank": rank}
    stands_for = [token[token.index("(=") + 2:-1] if "(=" in token else token for token in tokens]
    low = RANK_VALUE[stands_for[0][0]]  # an ace written first is the low ace (slot 1)
    span = (low, low + len(tokens) - 1)
    return {"cards": cards, "wild": wild, "span": span, "suit": stands_for[0][1], "rank": None}


def check_meld(engine, rules, meld, expected, where):
    """Compare a meld with its expected description and the API invariants; report all at once."""
    problems = []

    def compare(name, got, want):
        if got != want:
            problems.append(f"{name}: expected {want!r}, got {got!r}")

    for name in MELD_FIELDS:
        if name not in expected:
            continue
        got = safe(lambda: len(meld)) if name == "len" else safe(lambda: getattr(meld, name))
        compare(name, got, expected[name])
    compare("str(meld)", safe(lambda: str(meld)), expected["layout"])
    compare("meld.rules", safe(lambda: meld.rules), rules)

    facts = layout_facts(expected["layout"], expected["kind"])
    compare("cards in layout order (iter)", safe(lambda: [str(card) for card in meld]),
            facts["cards"])
    compare("meld.cards", safe(lambda: meld.cards), engine.Cards(facts["cards"]))
    compare("meld.wild", safe(lambda: meld.wild),
            None if facts["wild"] is None else engine.Card(facts["wild"]))
    for name in ("span", "suit", "rank"):
        compare(f"meld.{name}", safe(lambda name=name: getattr(meld, name)), facts[name])

    namespace = dict(vars(engine))
    text = safe(lambda: repr(meld))
    again = safe(lambda: eval(text, namespace))  # noqa: S307 - repr must evaluate back
    if again != meld:
        problems.append(f"eval(repr(meld)) != meld: repr {text!r} gave {describe(again)}")
    elif hash(again) != hash(meld):
        problems.append(f"hash(eval(repr(meld))) != hash(meld) for {text!r}")
    parsed = safe(lambda: engine.Meld.from_layout(meld.layout, rules))
    if parsed != meld:
        problems.append(f"Meld.from_layout(meld.layout, rules) != meld: got {describe(parsed)}")

    assert not problems, (
        f"{where}\n  expected {expected}\n  got      {describe(meld)}\n  "
        + "\n  ".join(problems)
    )


def check_outcome(engine, rules, result, exc, expected, where):
    """The outcome of one action: the expected error class, or a meld as described."""
    if "error" in expected:
        error_class = getattr(engine, expected["error"])
        got = exc if exc is not None else result
        assert isinstance(exc, error_class), (
            f"{where}\n  expected {expected['error']}\n  got      {describe(got)}"
        )
        return
    assert exc is None, f"{where}\n  expected {expected}\n  got      {describe(exc)}"
    check_meld(engine, rules, result, expected, where)


# ---- the data itself ----------------------------------------------------------------------------


def test_every_vector_of_sections_i1_to_i4_is_present():
    ids = [vector["id"] for vector in VECTORS]
    assert len(ids) == len(set(ids)), "duplicate ids"
    wanted = (
        {f"S{n:02}" for n in range(1, 21)}
        | {f"R{n:02}" for n in range(1, 41)}
        | {f"L{n:02}" for n in range(1, 41)}
        | {f"C{n:02}" for n in range(1, 11)}
    )
    rules_ids = {rid.split("-")[0] for rid in ids if not rid.startswith("B8-")}
    assert rules_ids == wanted, (sorted(wanted - rules_ids), sorted(rules_ids - wanted))


@pytest.mark.parametrize("vector", VECTORS, ids=[vector["id"] for vector in VECTORS])
def test_vector_record_is_well_formed(vector):
    expectations = [vector.get("expect"), vector.get("start_expect")]
    for step in vector.get("steps", []):
        expectations.append(step["expect"])
        if "meld" in step["expect"]:
            expectations.append(step["expect"]["meld"])
    for expected in filter(None, expectations):
        if "error" in expected:
            assert expected["error"] in ERRORS and len(expected) == 1, expected
        elif "melds" not in expected:
            assert set(expected) == set(MELD_FIELDS), expected
    assert vector["preset"] in ("italian", "brazilian"), vector["preset"]
    assert vector["context"] in ("new", "lay-off", "chain", "layout", "side", "opponent")


# ---- engine tests -------------------------------------------------------------------------------


@vectors_of("new")
def test_new_meld(engine, vector):
    rules = make_rules(engine, vector)
    cards = vector["cards"]
    expected = vector["expect"]
    where = f"{vector['id']}: Meld({cards!r}, {rules!r})"
    meld, exc = attempt(lambda: engine.Meld(cards, rules))
    check_outcome(engine, rules, meld, exc, expected, where)
    if exc is None:
        text = repr(meld)
        assert text.startswith("Meld('"), f"{where}: a new meld is canonical, repr gave {text!r}"

    # The input order and form are irrelevant (B.4, docs/api.md).
    others = [list(reversed(cards.split())), engine.Cards(cards), *vector.get("orders", [])]
    for other in others:
        again, again_exc = attempt(lambda other=other: engine.Meld(other, rules))
        where_other = f"{vector['id']}: Meld({other!r}, {rules!r})"
        if exc is not None:
            assert type(again_exc) is type(exc), (
                f"{where_other}\n  expected {type(exc).__name__} like Meld({cards!r})\n"
                f"  got      {describe(again_exc if again_exc is not None else again)}"
            )
        else:
            assert again_exc is None and again == meld, (
                f"{where_other}\n  expected {describe(meld)}\n"
                f"  got      {describe(again_exc if again_exc is not None else again)}"
            )

    # The same proposal made through an empty side's Melds.
    side = engine.Melds([], rules=rules)
    before = snapshot(side)
    where_side = f"{vector['id']}: Melds([], rules={rules!r}).meld({cards!r})"
    melded, melded_exc = attempt(lambda: side.meld(cards))
    assert snapshot(side) == before, f"{where_side}: the Melds changed"
    assert side.can_meld(cards) is (exc is None), f"{where_side}: can_meld disagrees with Meld"
    if exc is not None:
        assert isinstance(melded_exc, type(exc)), (
            f"{where_side}\n  expected {type(exc).__name__}\n"
            f"  got      {describe(melded_exc if melded_exc is not None else melded)}"
        )
    else:
        assert melded_exc is None and list(melded) == [meld], (
            f"{where_side}\n  expected [{describe(meld)}]\n"
            f"  got      {describe(melded_exc if melded_exc is not None else melded)}"
        )


@vectors_of("lay-off", "chain", "layout")
def test_meld_steps(engine, vector):
    rules = make_rules(engine, vector)
    start = spec_text(vector["start"], rules)
    meld, exc = attempt(lambda: build_meld(engine, rules, vector["start"]))
    assert exc is None, f"{vector['id']}: start {start}\n  got      {describe(exc)}"
    if "start_expect" in vector:
        check_meld(engine, rules, meld, vector["start_expect"], f"{vector['id']}: start {start}")

    for number, step in enumerate(vector["steps"], start=1):
        card, expected = step["add"], step["expect"]
        where = f"{vector['id']} step {number}: {meld.layout!r} ({start}) + {card!r}"
        before = snapshot(meld)
        allowed, allowed_exc = attempt(lambda: meld.can_add(card))
        result, exc = attempt(lambda: meld.add(card))
        assert snapshot(meld) == before, f"{where}: the meld changed to {describe(meld)}"
        check_outcome(engine, rules, result, exc, expected, where)
        assert allowed_exc is None and allowed is ("error" not in expected), (
            f"{where}: can_add gave {describe(allowed_exc) if allowed_exc else allowed!r}"
        )
        if exc is None:
            assert result.cards == meld.cards + engine.Cards(card), (
                f"{where}: cards {result.cards!r} are not {meld.cards!r} + {card!r}"
            )
            meld = result


def build_side(engine, rules, specs):
    return engine.Melds([build_meld(engine, rules, spec) for spec in specs], rules=rules)


@vectors_of("side")
def test_side_melds(engine, vector):
    rules = make_rules(engine, vector)
    side = build_side(engine, rules, vector["side"])
    layouts = [meld.layout for meld in side]
    assert layouts == vector["side_expect"], f"{vector['id']}: the side's melds are {layouts}"
    namespace = dict(vars(engine))

    for number, step in enumerate(vector["steps"], start=1):
        expected = step["expect"]
        before = snapshot(side)
        if "meld" in step:
            cards = step["meld"]
            where = f"{vector['id']} step {number}: {side!r}.meld({cards!r})"
            allowed, allowed_exc = attempt(lambda: side.can_meld(cards))
            result, exc = attempt(lambda: side.meld(cards))
            index = -1
        else:
            index, card = step["add"]
            where = f"{vector['id']} step {number}: {side!r}.add({index}, {card!r})"
            allowed, allowed_exc = attempt(lambda: side.can_add(index, card))
            result, exc = attempt(lambda: side.add(index, card))
        assert snapshot(side) == before, f"{where}: the Melds changed to {side!r}"
        assert allowed_exc is None and allowed is ("error" not in expected), (
            f"{where}: can_* gave {describe(allowed_exc) if allowed_exc else allowed!r}"
        )
        if "error" in expected:
            check_outcome(engine, rules, result, exc, expected, where)
            continue
        assert exc is None, f"{where}\n  expected {expected}\n  got      {describe(exc)}"
        layouts = [meld.layout for meld in result]
        assert layouts == expected["melds"], (
            f"{where}\n  expected melds {expected['melds']}\n  got            {layouts}"
        )
        check_meld(engine, rules, result[index], expected["meld"], where)
        again = eval(repr(result), namespace)  # noqa: S307 - repr must evaluate back
        assert again == result, f"{where}: eval(repr(melds)) gave {again!r}, not {result!r}"
        side = result

    if "new_meld_alone" in vector:
        cards = next(step["meld"] for step in vector["steps"] if "meld" in step)
        where = f"{vector['id']}: Meld({cards!r}, {rules!r}) on its own"
        meld, exc = attempt(lambda: engine.Meld(cards, rules))
        check_outcome(engine, rules, meld, exc, vector["new_meld_alone"], where)


@vectors_of("opponent")
def test_opponent_melds(engine, vector):
    rules = make_rules(engine, vector)
    opponent = build_side(engine, rules, vector["opponent"])
    own = build_side(engine, rules, vector["side"])
    layouts = [meld.layout for meld in opponent]
    assert layouts == vector["opponent_expect"], f"{vector['id']}: the opponent has {layouts}"

    for number, step in enumerate(vector["steps"], start=1):
        index, card = step["add"]
        where = (
            f"{vector['id']} step {number}: own {own!r}.add({index}, {card!r}) "
            f"with the opponent holding {opponent!r}"
        )
        own_before, opponent_before = snapshot(own), snapshot(opponent)
        allowed, allowed_exc = attempt(lambda: own.can_add(index, card))
        result, exc = attempt(lambda: own.add(index, card))
        check_outcome(engine, rules, result, exc, step["expect"], where)
        assert allowed_exc is None and allowed is False, (
            f"{where}: can_add gave {describe(allowed_exc) if allowed_exc else allowed!r}"
        )
        assert snapshot(own) == own_before, f"{where}: the acting side's melds changed: {own!r}"
        assert snapshot(opponent) == opponent_before, f"{where}: the opponent's melds changed"
        layouts = [meld.layout for meld in opponent]
        assert layouts == vector["opponent_expect"], f"{where}: the opponent now has {layouts}"
        if vector.get("owner_may_add"):
            assert opponent.can_add(index, card) is True, (
                f"{where}: the owner itself may lay {card!r} off (B.2), can_add said no"
            )
            assert snapshot(opponent) == opponent_before, f"{where}: the opponent's melds changed"
