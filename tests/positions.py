"""Game positions for tests, built from readable pieces without either engine.

Two ways to set up a game, both defined by docs/game.md and nothing else:

* :func:`state_string` writes a version-1 state string (docs/game.md "State string") from the
  pieces a test cares about (hands, melds, pile, pozzetti, stock top, flags) and puts every card
  that is left into the stock (or, with ``rest='pile'``, under the top of the discard pile, where
  cards score nothing), so that every card of the deck is accounted for exactly once.
* :func:`deck_order` writes an explicit deck order for ``Game(rules, deck=...)`` that deals the
  given hands, packets, start card and stock top (docs/game.md "Deal", docs/architecture.md §4);
  :func:`deal` is its inverse: what a deck order deals.

Both raise ``ValueError`` when the pieces use more copies of a card than the deck holds, so a
vector cannot silently lose or invent a card. The preset facts used here (players, jokers, packet
sizes, start card, opening minimum) are RULES section G / docs/api.md, written out again on
purpose: the positions must not depend on an engine.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

SUITS = "cdhs"
RANKS = "A23456789TJQK"
JOKER = "Jk"

# The knobs in docs/api.md table order: the `rules=` field lists overridden knobs in this order.
KNOB_ORDER = (
    "players", "decks", "jokers", "card_values", "hand_size", "pozzetto_sizes", "initial_upcard",
    "first_draw_rule", "pile_take_requires_meld", "forbid_discard_of_single_pile_card",
    "natural_two_in_run", "max_wild_per_meld", "sets_allowed", "set_ranks",
    "max_sets_per_rank_per_side", "max_set_size", "ace_low_or_high", "allow_both_aces_in_run",
    "allow_orphan_wild_14", "max_run_size", "run_wraparound", "wild_display_end",
    "free_end_wild_may_move", "wild_replaced_only_by_its_card", "wild_swap_allowed",
    "low_natural_two_may_convert", "opening_minimum", "opening_fail_increment", "pozzetto_reveal",
    "closing_requires_pozzetto", "closing_requires_burraco", "closing_discard",
    "closing_discard_wild_allowed", "closing_bonus", "clean_burraco_bonus", "dirty_burraco_bonus",
    "semi_clean_burraco_bonus", "semi_clean_rule", "no_pozzetto_penalty", "unplayed_pozzetto_rule",
    "stock_end_threshold", "pozzetto_becomes_stock", "deadlock_rule", "cut_bonus",
    "cut_exact_probability", "score_split", "match_target", "compare", "tie_policy", "pile_take",
    "wild_cards", "pozzetto_pickup", "pozzetti_per_side", "discard_pile_public", "dealer_rotation",
)

# RULES G / docs/api.md: the preset values the positions need.
PRESETS = {
    "italian": {"players": 4, "jokers": 4, "pozzetto_sizes": (11, 11), "initial_upcard": True,
                "opening_minimum": None},
    "italian-2p": {"players": 2, "jokers": 4, "pozzetto_sizes": (11, 11), "initial_upcard": True,
                   "opening_minimum": None},
    "italian-3p": {"players": 3, "jokers": 4, "pozzetto_sizes": (18, 11), "initial_upcard": True,
                   "opening_minimum": None},
    "online-2p": {"players": 2, "jokers": 2, "pozzetto_sizes": (11, 11), "initial_upcard": True,
                  "opening_minimum": None},
    "brazilian": {"players": 4, "jokers": 4, "pozzetto_sizes": (11, 11), "initial_upcard": False,
                  "opening_minimum": ((0, 50), (1500, 75))},
}
HAND_SIZE = 11
DECKS = 2


# ---- cards ---------------------------------------------------------------------------------------


def card_key(card: str) -> tuple[int, int]:
    """Canonical card order (RULES 0.2): suit c < d < h < s, rank A < 2 < ... < K, jokers last."""
    if card == JOKER:
        return (len(SUITS), 0)
    return (SUITS.index(card[1]), RANKS.index(card[0]))


def cards_of(text: str | Iterable[str] | None) -> list[str]:
    """A card list written ``'7h 8h 9h'`` (or already a list), checked, in the given order."""
    if text is None:
        return []
    cards = text.split() if isinstance(text, str) else list(text)
    for card in cards:
        if card != JOKER and (len(card) != 2 or card[0] not in RANKS or card[1] not in SUITS):
            raise ValueError(f"not a canonical card: {card!r} in {text!r}")
    return cards


def canonical(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=card_key)


def full_deck(jokers: int, decks: int = DECKS) -> Counter:
    deck = Counter({rank + suit: decks for suit in SUITS for rank in RANKS})
    deck[JOKER] = jokers
    return deck


def unshuffled_deck(jokers: int, decks: int = DECKS) -> list[str]:
    """docs/architecture.md §4: for each copy, suits c d h s, ranks A..K; then the jokers."""
    return [rank + suit for _ in range(decks) for suit in SUITS for rank in RANKS] + [JOKER] * jokers


def layout_cards(layout: str) -> list[str]:
    """The cards of a meld layout ``'Jk(=6h) 7h 8h'`` (the wild counted as itself)."""
    return [token.split("(")[0] for token in layout.split()]


# ---- the table a preset describes ----------------------------------------------------------------


class Table:
    """What a ``Rules(preset, **knobs)`` means for dealing and for the state string."""

    def __init__(self, preset: str, knobs: Mapping | None = None):
        knobs = dict(knobs or {})
        unknown = set(knobs) - set(KNOB_ORDER)
        if unknown:
            raise ValueError(f"unknown knobs {sorted(unknown)}")
        facts = dict(PRESETS[preset])
        facts.update({name: knobs[name] for name in facts if name in knobs})
        self.preset = preset
        self.knobs = knobs
        self.players: int = facts["players"]
        self.jokers: int = facts["jokers"]
        self.pozzetto_sizes: tuple[int, ...] = tuple(facts["pozzetto_sizes"])
        self.initial_upcard: bool = facts["initial_upcard"]
        self.opening_minimum = facts["opening_minimum"]
        self.hand_size: int = knobs.get("hand_size", HAND_SIZE)
        self.deck = full_deck(self.jokers)
        self.total_cards = sum(self.deck.values())
        self.initial_stock = (self.total_cards - self.players * self.hand_size
                              - sum(self.pozzetto_sizes) - int(self.initial_upcard))

    @property
    def side_slots(self) -> int:
        """docs/game.md: two side slots with 2 or 4 players; four (seats 0, 1, 2, pair 3) with 3."""
        return 4 if self.players == 3 else 2

    @property
    def score_slots(self) -> int:
        """docs/game.md `scores`: one per side slot; with 3 players one per seat."""
        return 3 if self.players == 3 else 2

    def rules_field(self) -> str:
        """``preset:knob=value...`` for the knobs that differ, in knob table order."""
        parts = [self.preset]
        for name in KNOB_ORDER:
            if name in self.knobs:
                parts.append(f"{name}={literal(self.knobs[name])}")
        return ":".join(parts)

    def requirement(self, score: int) -> int:
        """RULES C.3: the opening requirement for a cumulative score (0 without a minimum)."""
        if self.opening_minimum is None:
            return 0
        need = 0
        for start, minimum in self.opening_minimum:
            if score >= start:
                need = minimum
        return need


def literal(value) -> str:
    """A knob value as docs/game.md writes it: a Python literal, no spaces, strings unquoted."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        value = tuple(literal_tuple(item) for item in value)
    return repr(value).replace(" ", "")


def literal_tuple(value):
    return tuple(literal_tuple(item) for item in value) if isinstance(value, list) else value


# ---- state strings -------------------------------------------------------------------------------


def joined(cards: Iterable[str]) -> str:
    text = "".join(cards)
    return text or "-"


def _take(pool: Counter, cards: Iterable[str], what: str) -> None:
    for card in cards:
        if pool[card] <= 0:
            raise ValueError(f"{what}: one {card} too many (the deck has no copy left)")
        pool[card] -= 1


def _remaining(pool: Counter) -> list[str]:
    return canonical(pool.elements())


def state_string(
    preset: str,
    knobs: Mapping | None = None,
    *,
    seed: int | None = None,
    first: int = 0,
    scores: Iterable[int] | None = None,
    turn: int = 0,
    phase: str = "draw",
    hands: Mapping | None = None,
    known: Mapping | None = None,
    stock: str | Iterable[str] | None = None,
    pile: str | Iterable[str] | None = None,
    top: str | None = None,
    melds: Mapping | None = None,
    pozzetti: Iterable[str] | None = None,
    hold: str | None = None,
    opened: Iterable[int] | None = None,
    need: Iterable[int] | None = None,
    deadlock: int = 0,
    turnflags: str = "",
    split: int | None = None,
    end: str | None = None,
    cut: int | None = None,
    rest: str = "stock",
) -> str:
    """A version-1 state string (docs/game.md) from readable pieces.

    hands / known: ``{seat: 'cards'}`` (seats left out hold nothing). melds: ``{side slot:
    ['layout', ...]}`` with spaces (3 players: ``'layout@n'``). stock: the top cards, top first.
    pile: the discard pile's cards; top: its top card (defaults to the last pile card listed).
    pozzetti: one entry per packet, top first: ``'u'`` (untaken, filled from the cards left),
    ``'u:cards'``, ``'f<p>:cards'``, ``'s<p>:cards'``, ``'h<p>'`` (joined p's hand: no cards),
    ``'x'`` (became the stock: no cards). opened / need default to "not open" and the requirement
    of each side's score (0 without an opening minimum). Every card not placed goes to the end of
    the stock, or with ``rest='pile'`` into the discard pile, in canonical order.
    """
    table = Table(preset, knobs)
    pool = Counter(table.deck)
    players = range(table.players)
    hands = {int(seat): cards_of(cards) for seat, cards in (hands or {}).items()}
    known = {int(seat): cards_of(cards) for seat, cards in (known or {}).items()}
    melds = {int(slot): list(layouts) for slot, layouts in (melds or {}).items()}
    if set(hands) - set(players) or set(known) - set(players):
        raise ValueError("a seat that does not exist")
    if set(melds) - set(range(table.side_slots)):
        raise ValueError("a side slot that does not exist")

    for seat, cards in hands.items():
        _take(pool, cards, f"hand {seat}")
    for seat, cards in known.items():
        if Counter(cards) - Counter(hands.get(seat, [])):
            raise ValueError(f"known {seat}: {cards} is not in the hand")
    for layouts in melds.values():
        for layout in layouts:
            _take(pool, layout_cards(layout.split("@")[0]), f"meld {layout!r}")
    pile_cards = cards_of(pile)
    _take(pool, pile_cards, "pile")
    stock_cards = cards_of(stock)
    _take(pool, stock_cards, "stock")

    packets = list(pozzetti) if pozzetti is not None else ["u"] * len(table.pozzetto_sizes)
    if len(packets) != len(table.pozzetto_sizes):
        raise ValueError(f"{len(packets)} packets, the preset has {len(table.pozzetto_sizes)}")
    written: list[str | None] = []
    for index, packet in enumerate(packets):
        status, _, cards = packet.partition(":")
        if status == "u" and not cards:
            written.append(None)  # filled below from the cards left
            continue
        if status[0] in "hx":
            if cards:
                raise ValueError(f"packet {packet!r}: h and x packets list no cards")
            written.append(f"{status}:-")
            continue
        if status[0] not in "ufs":
            raise ValueError(f"packet {packet!r}: unknown status")
        packet_cards = cards_of(cards)
        _take(pool, packet_cards, f"packet {index}")
        written.append(f"{status}:{joined(packet_cards)}")
    for index, text in enumerate(written):
        if text is None:
            size = table.pozzetto_sizes[index]
            filler = _remaining(pool)[:size]
            if len(filler) < size:
                raise ValueError(f"packet {index}: not enough cards left to fill it")
            _take(pool, filler, f"packet {index}")
            written[index] = f"u:{joined(filler)}"

    left = _remaining(pool)
    if rest == "stock":
        stock_cards += left
    elif rest == "pile":
        pile_cards += left
    else:
        raise ValueError(f"rest must be 'stock' or 'pile', not {rest!r}")
    if top is None and pile_cards:
        top = cards_of(pile)[-1] if pile else None
        if top is None:
            raise ValueError("a non-empty pile needs its top card")
    if top is not None and top not in pile_cards:
        raise ValueError(f"top {top} is not in the pile")

    scores = list(scores) if scores is not None else [0] * table.score_slots
    if len(scores) != table.score_slots:
        raise ValueError(f"scores: {table.score_slots} values expected")
    opened = list(opened) if opened is not None else [0] * table.side_slots
    if need is None:
        side_scores = scores + [0] * (table.side_slots - len(scores))
        need = [table.requirement(score) for score in side_scores]
    need = list(need)
    if len(opened) != table.side_slots or len(need) != table.side_slots:
        raise ValueError(f"opened / need: {table.side_slots} values expected")

    def dash(value) -> str:
        return "-" if value is None else str(value)

    fields = [
        ("v", "1"),
        ("rules", table.rules_field()),
        ("seed", dash(seed)),
        ("first", str(first)),
        ("scores", ",".join(map(str, scores))),
        ("turn", str(turn)),
        ("phase", phase),
        ("hands", "/".join(joined(canonical(hands.get(seat, []))) for seat in players)),
        ("known", "/".join(joined(canonical(known.get(seat, []))) for seat in players)),
        ("stock", joined(stock_cards)),
        ("pile", joined(canonical(pile_cards))),
        ("top", dash(top)),
        ("melds", "/".join(
            "+".join(layout.replace(" ", "") for layout in melds.get(slot, [])) or "-"
            for slot in range(table.side_slots))),
        ("pozzetti", "/".join(written)),
        ("hold", dash(hold)),
        ("opened", ",".join(map(str, opened))),
        ("need", ",".join(map(str, need))),
        ("deadlock", str(deadlock)),
        ("turnflags", turnflags or "-"),
        ("split", dash(split)),
        ("end", dash(end)),
        ("cut", dash(cut)),
    ]
    return ";".join(f"{name}={value}" for name, value in fields)


def state_fields(text: str) -> dict[str, str]:
    """The fields of a state string, by name."""
    return dict(field.split("=", 1) for field in text.split(";"))


def position(preset: str, knobs: Mapping | None, spec: Mapping) -> str:
    """:func:`state_string` from a vector's ``position`` record (JSON keys as parameter names)."""
    return state_string(preset, knobs, **spec)


# ---- explicit deck orders ------------------------------------------------------------------------


def deal_slots(table: Table, first: int = 0) -> list[tuple[str, int]]:
    """Where each deck index goes (docs/game.md "Deal"): ``('hand', seat)``, ``('packet', i)``,
    ``('upcard', 0)`` or ``('stock', 0)``, index 0 first."""
    slots: list[tuple[str, int]] = []
    for index in range(table.hand_size * table.players):
        slots.append(("hand", (first + index) % table.players))
    sizes = table.pozzetto_sizes
    filled = [0] * len(sizes)
    packet = 0
    while sum(filled) < sum(sizes):
        while filled[packet] == sizes[packet]:  # a full packet is skipped
            packet = (packet + 1) % len(sizes)
        slots.append(("packet", packet))
        filled[packet] += 1
        packet = (packet + 1) % len(sizes)
    if table.initial_upcard:
        slots.append(("upcard", 0))
    slots.extend([("stock", 0)] * (table.total_cards - len(slots)))
    return slots


def deal(table: Table, deck: list[str], first: int = 0) -> dict:
    """What a deck order deals: hands (dealt order), packets (top first), upcard, stock (top
    first)."""
    if len(deck) != table.total_cards:
        raise ValueError(f"{len(deck)} cards, the deck has {table.total_cards}")
    hands: list[list[str]] = [[] for _ in range(table.players)]
    packets: list[list[str]] = [[] for _ in table.pozzetto_sizes]
    upcard = None
    stock: list[str] = []
    for card, (where, index) in zip(deck, deal_slots(table, first)):
        if where == "hand":
            hands[index].append(card)
        elif where == "packet":
            packets[index].append(card)
        elif where == "upcard":
            upcard = card
        else:
            stock.append(card)
    return {"hands": hands, "packets": packets, "upcard": upcard, "stock": stock}


def deck_order(
    preset: str,
    knobs: Mapping | None = None,
    *,
    first: int = 0,
    hands: Mapping | None = None,
    packets: Iterable[str] | None = None,
    upcard: str | None = None,
    stock: str | Iterable[str] | None = None,
) -> list[str]:
    """A deck order that deals the given pieces; every other place gets the cards left, in
    canonical order. hands: ``{seat: 'cards'}`` (at most hand_size each, dealt in that order);
    packets: one card list per packet (top first, may be shorter than the packet); stock: its
    top cards."""
    table = Table(preset, knobs)
    pool = Counter(table.deck)
    wanted: dict[tuple[str, int], list[str]] = {}
    for seat, cards in (hands or {}).items():
        wanted[("hand", int(seat))] = cards_of(cards)
    for index, cards in enumerate(packets or []):
        wanted[("packet", index)] = cards_of(cards)
    if upcard is not None:
        if not table.initial_upcard:
            raise ValueError(f"{preset} deals no start card")
        wanted[("upcard", 0)] = [upcard]
    wanted[("stock", 0)] = cards_of(stock)
    for (where, index), cards in wanted.items():
        _take(pool, cards, f"{where} {index}")
    left = iter(_remaining(pool))
    used: Counter = Counter()
    deck = []
    for slot in deal_slots(table, first):
        cards = wanted.get(slot, [])
        position_in_slot = used[slot]
        used[slot] += 1
        deck.append(cards[position_in_slot] if position_in_slot < len(cards) else next(left))
    for slot, cards in wanted.items():
        if len(cards) > used[slot]:
            raise ValueError(f"{slot}: {len(cards)} cards, only {used[slot]} places")
    return deck
