"""State strings (docs/game.md "State string, version 1"): a whole position as one line,
written by :func:`state_string` and read back by :func:`parse_state`, which takes only the text
:func:`state_string` writes.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from .._errors import InvalidMeldError, InvalidNotationError, InvalidStateError
from .cards import Card
from .deal import check_supported
from .melds import Meld
from .rules import Rules
from .state import (
    _LETTER_STATUS,
    _STATUS_LETTER,
    DRAW,
    FACE_DOWN,
    IN_HAND,
    MAX_OPENING_NEED,
    MAX_SCORE,
    MELD,
    OVER,
    SEEN,
    STOCK,
    UNTAKEN,
    Setup,
    _State,
    _unshuffled_deck,
    side_slots,
)

#: The fields of a version-1 state string, in their order.
FIELDS = ("v", "rules", "seed", "first", "scores", "turn", "phase", "hands", "known", "stock",
          "pile", "top", "melds", "pozzetti", "hold", "opened", "need", "deadlock", "turnflags",
          "split", "end", "cut")
_FLAG_LETTERS = "pdlfb"


def _canonical(counter: Counter[Card]) -> list[Card]:
    return sorted(counter.elements(), key=lambda card: card.index)


def state_string(setup: Setup, s: _State) -> str:
    """The state string of the position ``s`` of a hand dealt under ``setup``."""
    rules = setup.rules

    def cards(items: Iterable[Card]) -> str:
        text = "".join(str(card) for card in items)
        return text or "-"

    def melds(slot: list[tuple[int, Meld]]) -> str:
        if not slot:
            return "-"
        words = []
        for number, meld in slot:
            word = meld.layout.replace(" ", "")
            words.append(f"{word}@{number}" if rules.players == 3 else word)
        return "+".join(words)

    def packet(status: str, owner: int | None, packet_cards: list[Card]) -> str:
        letter = _STATUS_LETTER[status] + ("" if owner is None else str(owner))
        return f"{letter}:{cards(packet_cards) if status in (UNTAKEN, FACE_DOWN, SEEN) else '-'}"

    flags = "".join(letter for letter, on in zip(_FLAG_LETTERS, (
        s.took_single, s.put_down, s.last_turn, s.force_draw, s.first_draw)) if on)
    if s.end is None:
        end = "-"
    elif isinstance(s.end, tuple):
        end = f"closed:{s.end[1]}"
    else:
        end = s.end
    values = {
        "v": "1",
        "rules": rules.text,
        "seed": "-" if setup.seed is None else str(setup.seed),
        "first": str(setup.first),
        "scores": ",".join(str(score) for score in setup.scores),
        "turn": str(s.turn),
        "phase": s.phase,
        "hands": "/".join(cards(_canonical(hand)) for hand in s.hands),
        "known": "/".join(cards(_canonical(known)) for known in s.known),
        "stock": cards(s.stock),
        "pile": cards(_canonical(s.pile)),
        "top": "-" if s.top is None else str(s.top),
        "melds": "/".join(melds(slot) for slot in s.melds),
        "pozzetti": "/".join(packet(*entry) for entry in s.pozzetti),
        "hold": "-" if s.hold is None else str(s.hold),
        "opened": ",".join("1" if opened else "0" for opened in s.opened),
        "need": ",".join(str(need) for need in s.need),
        "deadlock": str(s.deadlock),
        "turnflags": flags or "-",
        "split": "-" if s.split is None else str(s.split),
        "end": end,
        "cut": "-" if setup.cut is None else str(setup.cut),
    }
    return ";".join(f"{name}={values[name]}" for name in FIELDS)


# --- reading ------------------------------------------------------------------------------------


def _parse_rules(text: str) -> Rules:
    """The rules field of a state string: :meth:`Rules.from_text`, its error an InvalidStateError."""
    try:
        return Rules.from_text(text)
    except InvalidNotationError as error:
        raise InvalidStateError(str(error)) from None


_CARD_PAIR = re.compile(r"..")
_LAYOUT_TOKEN = re.compile(r"(..)(\(=[^()]*\))?")


def parse_state(text: str) -> tuple[Setup, _State]:
    """The setup and the position of a state string. Its syntax, the canonical form (the text
    :func:`state_string` writes) and card conservation are checked here, InvalidStateError quoting
    the field otherwise; whether the position could arise in play is the question of
    :func:`.validate.validate_state`."""
    if not isinstance(text, str):
        raise InvalidStateError(f"{text!r} is not a state string")
    parts = text.split(";")
    names = [part.partition("=")[0] for part in parts]
    if names != list(FIELDS) or any("=" not in part for part in parts):
        raise InvalidStateError(
            f"{text!r} is not a version-1 state string: expected the fields {';'.join(FIELDS)}"
        )
    fields = {part.partition("=")[0]: part.partition("=")[2] for part in parts}

    def bad(name: str, why: str) -> InvalidStateError:
        return InvalidStateError(f"{name}={fields[name]!r}: {why}")

    def integer(name: str, value: str, low: int | None = None, high: int | None = None) -> int:
        if not re.fullmatch(r"-?\d+", value):
            raise bad(name, f"{value!r} is not an integer")
        number = int(value)
        if (low is not None and number < low) or (high is not None and number > high):
            raise bad(name, f"{number} is out of range")
        return number

    def card_list(name: str, value: str) -> list[Card]:
        if value == "-":
            return []
        if len(value) % 2:
            raise bad(name, f"{value!r} is not a list of 2-character cards")
        try:
            return [Card(pair) for pair in _CARD_PAIR.findall(value)]
        except InvalidNotationError:
            raise bad(name, f"{value!r} is not a list of 2-character cards") from None

    def canonical_list(name: str, value: str) -> Counter[Card]:
        cards = card_list(name, value)
        if cards != sorted(cards, key=lambda card: card.index):
            raise bad(name, f"{value!r} is not in canonical card order")
        return Counter(cards)

    if fields["v"] != "1":
        raise bad("v", "only version 1 is known")
    rules = _parse_rules(fields["rules"])
    players = rules.players
    try:
        check_supported(rules)
    except InvalidNotationError as error:
        raise bad("rules", str(error)) from None
    slots = side_slots(rules)
    seed = None if fields["seed"] == "-" else integer("seed", fields["seed"], 0, (1 << 64) - 1)
    first = integer("first", fields["first"], 0, players - 1)
    score_texts = fields["scores"].split(",")
    if len(score_texts) != rules.sides:
        raise bad("scores", "wrong number of scores")
    scores = tuple(integer("scores", value, -MAX_SCORE, MAX_SCORE) for value in score_texts)
    s = object.__new__(_State)
    s.turn = integer("turn", fields["turn"], 0, players - 1)
    if fields["phase"] not in (DRAW, MELD, OVER):
        raise bad("phase", "expected draw, meld or over")
    s.phase = fields["phase"]

    def per_seat(name: str) -> list[Counter[Card]]:
        values = fields[name].split("/")
        if len(values) != players:
            raise bad(name, f"expected {players} entries")
        return [canonical_list(name, value) for value in values]

    s.hands = per_seat("hands")
    s.known = per_seat("known")
    for hand, known in zip(s.hands, s.known):
        if any(hand[card] < copies for card, copies in known.items()):
            raise bad("known", "a known card is not in the hand")
    s.stock = card_list("stock", fields["stock"])
    s.pile = canonical_list("pile", fields["pile"])
    s.top = None
    if fields["top"] != "-":
        top = card_list("top", fields["top"])
        if len(top) != 1:
            raise bad("top", "expected one card or -")
        s.top = top[0]
    if (s.top is None) != (not s.pile) or (s.top is not None and not s.pile[s.top]):
        raise bad("top", "the top card must be in the pile, and only an empty pile has none")
    slot_texts = fields["melds"].split("/")
    if len(slot_texts) != slots:
        raise bad("melds", f"expected {slots} side slots")
    s.melds = []
    numbers: list[int] = []
    for position, slot_text in enumerate(slot_texts):
        slot: list[tuple[int, Meld]] = []
        if slot_text != "-":
            for word in slot_text.split("+"):
                if players == 3:
                    word, at, number_text = word.partition("@")
                    if not at:
                        raise bad("melds", f"{word!r} has no @creation number")
                    number = integer("melds", number_text, 0)
                else:
                    number = len(numbers)
                tokens = _LAYOUT_TOKEN.findall(word)
                if "".join(card + stands for card, stands in tokens) != word or not tokens:
                    raise bad("melds", f"cannot read the layout {word!r}")
                try:
                    meld = Meld.from_layout(" ".join(card + stands for card, stands in tokens),
                                            rules)
                except (InvalidMeldError, InvalidNotationError) as error:
                    raise bad("melds", str(error)) from None
                if meld.layout.replace(" ", "") != word:
                    raise bad("melds", f"{word!r} is not a canonical layout ({meld.layout!r})")
                if slot and number <= slot[-1][0]:
                    raise bad("melds", "melds must be in creation order")
                numbers.append(number)
                slot.append((number, meld))
        s.melds.append(slot)
    if len(set(numbers)) != len(numbers):
        raise bad("melds", "two melds with one creation number")
    packet_texts = fields["pozzetti"].split("/")
    if len(packet_texts) != len(rules.pozzetto_sizes):
        raise bad("pozzetti", f"expected {len(rules.pozzetto_sizes)} packets")
    s.pozzetti = []
    for packet_text in packet_texts:
        match = re.fullmatch(r"([ufshx])(\d?):(.*)", packet_text)
        if match is None:
            raise bad("pozzetti", f"cannot read {packet_text!r}")
        status = _LETTER_STATUS[match[1]]
        owner = int(match[2]) if match[2] else None
        if (owner is None) != (status in (UNTAKEN, STOCK)) or (owner is not None and owner >= players):
            raise bad("pozzetti", f"{packet_text!r}: wrong owner")
        cards = card_list("pozzetti", match[3])
        if status in (IN_HAND, STOCK) and match[3] != "-":
            raise bad("pozzetti", f"{packet_text!r}: a packet in a hand or the stock shows no cards")
        if status not in (IN_HAND, STOCK) and not cards:
            raise bad("pozzetti", f"{packet_text!r}: a packet needs its cards")
        s.pozzetti.append([status, owner, cards])
    s.hold = None
    if fields["hold"] != "-":
        held = card_list("hold", fields["hold"])
        if len(held) != 1:
            raise bad("hold", "expected one card or -")
        s.hold = held[0]
    opened = fields["opened"].split(",")
    if len(opened) != slots or any(value not in ("0", "1") for value in opened):
        raise bad("opened", f"expected {slots} values 0 or 1")
    s.opened = [value == "1" for value in opened]
    need = fields["need"].split(",")
    if len(need) != slots:
        raise bad("need", f"expected {slots} values")
    s.need = [integer("need", value, 0, MAX_OPENING_NEED) for value in need]
    s.deadlock = integer("deadlock", fields["deadlock"], 0, players)
    flags = fields["turnflags"]
    if flags != "-" and (not flags or not _is_subsequence(flags, _FLAG_LETTERS)):
        raise bad("turnflags", f"expected letters of {_FLAG_LETTERS!r} in that order, or -")
    s.took_single, s.put_down, s.last_turn, s.force_draw, s.first_draw = (
        letter in flags for letter in _FLAG_LETTERS)
    s.split = None
    if fields["split"] != "-":
        if players != 3:
            raise bad("split", "only three players split")
        s.split = integer("split", fields["split"], 0, 2)
    end = fields["end"]
    if end == "-":
        s.end = None
    elif end in ("stock_exhausted", "deadlock"):
        s.end = end
    elif re.fullmatch(r"closed:\d", end):
        s.end = ("closed", int(end[7:]))
        if s.end[1] >= slots:
            raise bad("end", "no such side")
    else:
        raise bad("end", "expected closed:<side>, stock_exhausted, deadlock or -")
    if (s.end is None) != (s.phase != OVER):
        raise bad("end", "a hand has an end exactly when its phase is over")
    cut = None if fields["cut"] == "-" else integer("cut", fields["cut"], 0, slots - 1)
    # Card conservation: every card of the pack is in exactly one place.
    everything: Counter[Card] = Counter()
    for hand in s.hands:
        everything.update(hand)
    everything.update(s.stock)
    everything.update(s.pile)
    for slot in s.melds:
        for _number, meld in slot:
            everything.update(meld.cards)
    for _status, _owner, cards in s.pozzetti:
        everything.update(cards)
    if everything != Counter(_unshuffled_deck(rules)):
        missing = Counter(_unshuffled_deck(rules)) - everything
        extra = everything - Counter(_unshuffled_deck(rules))
        raise InvalidStateError(
            f"{text!r}: cards not conserved (missing {' '.join(map(str, _canonical(missing))) or '-'}"
            f", extra {' '.join(map(str, _canonical(extra))) or '-'})"
        )
    if players == 3 and s.split is None and s.melds[3]:
        raise bad("melds", "the pair slot holds melds before the split")
    setup = Setup(rules, seed, first, scores, cut)
    canonical = state_string(setup, s)
    if canonical != text:
        raise InvalidStateError(
            f"{text!r} is not in canonical form: the same position is written {canonical!r}"
        )
    return setup, s


def _is_subsequence(text: str, letters: str) -> bool:
    position = 0
    for letter in text:
        position = letters.find(letter, position)
        if position < 0:
            return False
        position += 1
    return len(set(text)) == len(text)
