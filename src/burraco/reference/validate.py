"""The whole-state validator of the reference engine: a position is accepted only if it could
arise in play under its rules (RULES C, D, E.6, F; docs/game.md "State string, version 1").

:func:`validate_state` is called by every parser of a position (``Game.from_state_string``, and
through it ``Game.from_json``, ``Game.from_record`` and ``Game.determinize``). It is written from
the rules, not from the move code, so that it can catch a move generator that goes astray; each
check below names the rule it follows. The field syntax, the canonical form and card conservation
are checked by the parser before it is called.

Notation: N players, t = ``stock_end_threshold``, S = the stock's size, S0 = ``initial_stock``,
"the acting seat" = ``turn``, a *pending* packet = one taken by discarding (status ``face_down`` or
``seen``) that has not yet joined its owner's hand.

Invariants (every one must hold):

Deal (RULES F.2, F.3, docs/game.md "Deal")
  V1  (not checked) The ``seed`` field is the deal's provenance, not a constraint on the cards: a
      position whose cards the seed did not deal (a hand edited in a test, a hidden card swapped)
      is judged by the other invariants alone, as if dealt from an explicit deck.
  V2  A position before any discard is the deal itself: in the draw phase an empty pile, or the
      brazilian first draw pending (``b``), means nothing has been played: the first player to
      act, S = S0, every hand ``hand_size`` cards and nothing known, no meld, every packet
      untaken, no deadlock count, openings at their start, flags exactly ``b`` where the rule has
      it, the pile only the start card (if any).
  V3  ``b`` in the meld phase: the first player took the start card (``p``), nothing else was
      drawn (S = S0, no packet is the stock), every other seat still holds its dealt hand with
      nothing known, no deadlock count.

Stock and its end (RULES D.2, D.3)
  V4  A packet becomes the stock only under threshold 0 with ``pozzetto_becomes_stock``, and
      only once the stock is empty: a stock made from a packet holds at most that packet. (The
      stock's size is not bounded by the dealt stock, as hand sizes are not checked: a position
      written by hand may hold its spare cards in the stock.)
  V5  Threshold t > 0: S < t only around the brazilian first draw (the first player acting: S = S0
      while it is pending, S0 - 1 after ``keep``, S0 - 2 after ``reject``); in the draw phase S > t,
      except the
      pending first draw (``b``) of a stock that holds a card; in the meld phase ``l`` is set
      exactly when S <= t.
  V6  Threshold 0: ``l`` never; in the draw phase a draw is possible (S > 0, or a packet can
      become the stock).

Turn flags and the hold (docs/game.md "turnflags", RULES C.2, C.5, D.4)
  V7  A finished hand has no turn flag and no hold. The draw phase has only ``f`` and ``b``;
      ``p``, ``d``, ``l`` and the hold belong to the meld phase.
  V8  ``p`` (a one-card pile taken): the pile is now empty, ``l`` and ``f`` are off, and the card
      taken is known in the acting hand unless a card went down since (``d``: it may have been
      that card, RULES C.9).
  V9  ``f`` (force_draw): only under ``deadlock_rule = force_draw``, with the deadlock count 0, a
      pile of exactly one card (the last exchange turn's discard, never taken), no ``p``, no ``b``.
  V10 ``b``: only under ``first_draw_rule = may_reject_first_card``, the first player acting.
  V11 A hold: only with ``p`` and ``forbid_discard_of_single_pile_card`` (no hold with forbid_discard_of_single_pile_card=False: no hold
      otherwise); the held kind is known to be in the acting hand, or (a side not yet open) lies
      on the side's table of this turn.

Deadlock (RULES D.4)
  V12 The count is 0..N-1; it is N exactly when the hand ended by ``deadlock`` (then under
      ``end_hand``, the last turn an exchange turn: the pile one card).
  V13 A count >= 1 means the turn began with a one-card pile: in the draw phase the pile is one
      card; in the meld phase it is one card, or it was taken (``p``).

Packets (RULES C.4, H-36, F.6, G row 34)
  V14 Untaken packets are the last ones (packets are taken, or become the stock, top first);
      every untaken or pending packet holds exactly its dealt size.
  V15 At most one packet per side, and only a packet whose index is below the number of sides
      (with two sides of six players the third packet is only a stock reserve, RULES F.7); while
      the hand goes on, a side with a packet has melds (its taker emptied the hand by putting
      cards down) and, under an opening minimum, is open.
  V16 While the hand goes on, a pending packet's owner has an empty hand and is not the acting
      seat (the packet joins the hand when the owner's turn begins). Its status follows
      ``pozzetto_reveal``: ``immediately`` seen; ``next_own_turn`` face down; ``after_partner_turn``
      seen exactly when a partner of the owner has finished a turn since (the seats after the
      owner, up to the one before the acting seat). A hand that ended in the owner's own turn
      after that discard ended by ``stock_exhausted``.
  V17 Three players: the split is set exactly when a packet has been taken, and the soloist is
      the owner of the first packet taken; before the split the pair slot is empty, after it the
      partners' own slots are empty.

Hands (RULES C.4, C.6, C.7, D.1)
  V18 While the hand goes on, a hand is empty exactly when its seat has a pending packet (so the
      acting hand is never empty).
  V19 ``closed:<side>``: the closer (the acting seat) is of that side, which has a packet and the
      burraco RULES C.6 asks for; the closer's hand is empty (closing is going out: discarding the
      last card or putting every card down, RULES C.6, D.1); the closer has no pending packet; with
      ``closing_discard = required`` the pile's top, the closing discard, is not a wild unless
      ``closing_discard_wild_allowed``.
  A finished hand is checked for what its result and its end read (V4, V7, V12, V16's statuses,
  V17, V19-V22), not for where a position written by hand puts its cards: its empty hands and
  the hands of pending packets' owners (but the closer's, V19), its pile, its stock (V5, V6,
  V16, V18) and the melds of a side that took a packet (V15) are not checked.

Melds and openings (RULES B.2, C.3, F.6)
  V20 At most one set of a rank per side, but two in the three-player pair's slot (each partner's
      from before the split). Three players: the creation numbers are exactly 0..M-1.
  V21 No opening minimum: every ``opened`` is 0 and every ``need`` 0. Otherwise a side's need is
      its starting requirement (its score plus any cut bonus, RULES C.3) raised by a whole number
      of ``opening_fail_increment`` steps, saturated at MAX_OPENING_NEED; an open side has melds;
      a side not open has melds only in the meld phase, when it is the acting side and ``d`` is set
      (they are this turn's).
  V22 The cut side (RULES F.5): only with ``cut_exact_probability`` > 0, and it is the cutter's
      side, the seat before the dealer.

Liveness (RULES C.7)
  V23 A hand that is not over has at least one legal move.
"""

from __future__ import annotations

from collections import Counter
from typing import cast

from .._errors import InvalidStateError
from .movegen import legal_moves
from .seats import may_close, provisional, side_of_seat
from .state import (
    DRAW,
    FACE_DOWN,
    IN_HAND,
    MAX_OPENING_NEED,
    MELD,
    OVER,
    SEEN,
    STOCK,
    UNTAKEN,
    Setup,
    _opening_requirement,
    _State,
)

__all__ = ["validate_state"]

_PENDING = (FACE_DOWN, SEEN)


def validate_state(setup: Setup, s: _State, text: str) -> None:
    """Raise InvalidStateError naming the broken invariant (V2-V23 of this module) unless the
    position ``s`` of a hand dealt under ``setup`` could arise in play under its rules; return
    None otherwise. ``text`` is the position's state string, which the error quotes."""
    _Validator(setup, s, text).run()


class _Validator:
    def __init__(self, setup: Setup, s: _State, text: str) -> None:
        self.setup = setup
        self.rules = setup.rules
        self.s = s
        self.text = text
        self.players = setup.rules.players
        self.over = self.s.phase == OVER

    def fail(self, code: str, why: str) -> None:
        raise InvalidStateError(
            f"{self.text!r} could not arise in play: {code}: {why}")

    def side_of(self, seat: int) -> int:
        return side_of_seat(self.rules, seat, self.s.split)

    def run(self) -> None:
        self.flags_and_hold()
        self.deadlock()
        self.packets()
        self.hands()
        self.melds_and_openings()
        self.stock()
        self.beginning()
        self.cut()
        if not self.over and not legal_moves(self.rules, self.s):
            self.fail("V23", "the hand is not over, yet it has no legal move")

    # --- V7-V11 -----------------------------------------------------------------------------------

    def flags_and_hold(self) -> None:
        s, rules = self.s, self.rules
        flags = {"p": s.took_single, "d": s.put_down, "l": s.last_turn, "f": s.force_draw,
                 "b": s.first_draw}
        on = "".join(letter for letter, value in flags.items() if value)
        if self.over and (on or s.hold is not None):
            self.fail("V7", "a finished hand has no turn flag and no hold")
        if s.phase == DRAW and (set(on) - {"f", "b"} or s.hold is not None):
            self.fail("V7", f"the draw phase has only the flags f and b (here {on!r}) and no hold")
        if s.took_single and (s.pile or s.last_turn or s.force_draw):
            self.fail("V8", "after a one-card pile take (p) the pile is empty, and l and f are off")
        if s.took_single and not s.put_down and not s.known[s.turn]:
            # The card taken is known in the hand (RULES C.9); only a card put down (d) forgets it.
            self.fail("V8", "a one-card pile was taken (p), but no card is known in the hand and "
                            "none went down (d)")
        if s.force_draw:
            if rules.deadlock_rule != "force_draw":
                self.fail("V9", "the flag f needs deadlock_rule='force_draw'")
            if s.deadlock != 0 or sum(s.pile.values()) != 1 or s.first_draw:
                self.fail("V9", "a forced draw follows a deadlock: count 0, a one-card pile, no b")
        if s.first_draw:
            if rules.first_draw_rule != "may_reject_first_card":
                self.fail("V10", "the flag b needs first_draw_rule='may_reject_first_card'")
            if s.turn != self.setup.first:
                self.fail("V10", "the first draw (b) is the first player's")
        if s.hold is not None:
            if not s.took_single or not rules.forbid_discard_of_single_pile_card:
                self.fail("V11", "a hold needs the flag p and forbid_discard_of_single_pile_card")
            side = self.side_of(s.turn)
            on_table = provisional(rules, s, side) and any(
                s.hold in meld.cards for _number, meld in s.melds[side])
            if not s.known[s.turn][s.hold] and not on_table:
                self.fail("V11", f"the held {s.hold} is neither known in the hand nor on the "
                                 f"table of this turn")

    # --- V12-V13 ----------------------------------------------------------------------------------

    def deadlock(self) -> None:
        s = self.s
        pile = sum(s.pile.values())
        if s.end == "deadlock":
            if s.deadlock != self.players or self.rules.deadlock_rule != "end_hand" or pile != 1:
                self.fail("V12", f"a deadlock ends the hand under end_hand after {self.players} "
                                 f"exchange turns, the last discard alone on the pile")
        elif not 0 <= s.deadlock < self.players:
            self.fail("V12", f"the deadlock count is below {self.players} while no deadlock ended "
                             f"the hand")
        if s.deadlock and not self.over:
            if s.phase == DRAW and pile != 1:
                self.fail("V13", "after an exchange turn the pile is one card")
            if s.phase == MELD and not s.took_single and pile != 1:
                self.fail("V13", "after an exchange turn the pile is one card until it is taken")

    # --- V14-V17 ----------------------------------------------------------------------------------

    def packets(self) -> None:
        s, rules = self.s, self.rules
        statuses = [status for status, _owner, _cards in s.pozzetti]
        seen_untaken = False
        for number, (status, owner, cards) in enumerate(s.pozzetti):
            if status == UNTAKEN:
                seen_untaken = True
            elif seen_untaken:
                self.fail("V14", f"packet {number} left before the packet above it")
            if status in (UNTAKEN, *_PENDING) and len(cards) != rules.pozzetto_sizes[number]:
                self.fail("V14", f"packet {number} holds {len(cards)} cards, not its "
                                 f"{rules.pozzetto_sizes[number]}")
        owners = [(number, owner) for number, (status, owner, _cards) in enumerate(s.pozzetti)
                  if status in (*_PENDING, IN_HAND)]
        if self.players == 3:
            if (s.split is None) != (not owners):
                self.fail("V17", "three players split exactly when the first packet is taken")
            if owners and s.split != owners[0][1]:
                self.fail("V17", f"the soloist is the first packet's taker, seat {owners[0][1]}")
            if s.split is None and s.melds[3]:
                self.fail("V17", "the pair slot holds melds before the split")
            if s.split is not None and any(s.melds[seat] for seat in range(3) if seat != s.split):
                self.fail("V17", "after the split the partners' melds are in the pair slot")
        sides = [self.side_of(owner) for _number, owner in owners]
        if len(set(sides)) != len(sides):
            self.fail("V15", "a side may take one packet")
        for number, _owner in owners:
            if number >= rules.sides:
                self.fail("V15", f"packet {number} is only a stock reserve with {rules.sides} "
                                 f"sides: it cannot be a side's pozzetto (RULES F.7)")
        for side in sides if not self.over else ():
            if not s.melds[side]:
                self.fail("V15", f"side {side} took a packet, so it has melds")
            if rules.opening_minimum is not None and not s.opened[side]:
                self.fail("V15", f"side {side} took a packet, so it is open")
        if STOCK in statuses and not (rules.stock_end_threshold == 0
                                      and rules.pozzetto_becomes_stock):
            self.fail("V4", "a packet becomes the stock only under threshold 0 with "
                            "pozzetto_becomes_stock")
        if STOCK in statuses:
            # The stock turned into a packet only once it was empty: it holds at most that packet.
            last = max(number for number, status in enumerate(statuses) if status == STOCK)
            if len(s.stock) > rules.pozzetto_sizes[last]:
                self.fail("V4", f"the stock holds {len(s.stock)} cards, more than packet {last} "
                                f"it was made from ({rules.pozzetto_sizes[last]})")
        for number, (status, owner, _cards) in enumerate(s.pozzetti):
            if status not in _PENDING:
                continue
            if s.hands[owner]:
                self.fail("V16", f"seat {owner} took packet {number} by discarding its last card, "
                                 f"so its hand is empty")
            if not self.over and s.turn == owner:
                self.fail("V16", f"packet {number} would have joined seat {owner}'s hand when its "
                                 f"turn began")
            if self.over and s.turn == owner and s.end != "stock_exhausted":
                self.fail("V16", f"a hand that ends in the turn seat {owner} took packet {number} "
                                 f"by discarding ends by stock_exhausted")
            finished = [(owner + step) % self.players
                        for step in range(1, (s.turn - owner) % self.players)]
            reveal = rules.pozzetto_reveal
            if reveal == "immediately":
                expected = SEEN
            elif reveal == "next_own_turn":
                expected = FACE_DOWN
            else:
                partner_played = any(self.side_of(seat) == self.side_of(owner)
                                     for seat in finished)
                expected = SEEN if partner_played else FACE_DOWN
            if status != expected:
                self.fail("V16", f"packet {number} of seat {owner} is {expected} at this point "
                                 f"(pozzetto_reveal={reveal!r})")

    # --- V18-V19 ----------------------------------------------------------------------------------

    def hands(self) -> None:
        s, rules, setup = self.s, self.rules, self.setup
        pending = {owner for status, owner, _cards in s.pozzetti if status in _PENDING}
        closed = isinstance(s.end, tuple)
        for seat, hand in enumerate(s.hands):
            if hand or self.over:
                continue
            if seat in pending or (closed and seat == s.turn):
                continue
            self.fail("V18", f"seat {seat}'s hand is empty: only a seat with a packet waiting "
                             f"(or the closer) has no card")
        if closed:
            side = cast("tuple[str, int]", s.end)[1]
            if self.side_of(s.turn) != side:
                self.fail("V19", f"the closer, seat {s.turn}, is not of side {side}")
            if s.hands[s.turn]:
                self.fail("V19", f"the closer, seat {s.turn}, holds cards: closing empties the "
                                 f"closer's hand (RULES C.6, D.1)")
            if not may_close(rules, s, side):
                self.fail("V19", f"side {side} cannot close: it needs its packet and a burraco")
            if s.turn in pending:
                self.fail("V19", "the closer's own packet cannot be waiting")
            if (rules.closing_discard == "required" and s.top is not None and s.top.is_wild
                    and not rules.closing_discard_wild_allowed):
                self.fail("V19", f"the closing discard {s.top} may not be a wild")

    # --- V20-V21 ----------------------------------------------------------------------------------

    def melds_and_openings(self) -> None:
        s, rules, setup = self.s, self.rules, self.setup
        for slot, melds in enumerate(s.melds):
            ranks = Counter(meld.rank for _number, meld in melds if meld.kind == "set")
            limit = 2 if self.players == 3 and slot == 3 else 1
            if ranks and max(ranks.values()) > limit:
                self.fail("V20", f"side slot {slot} has more sets of one rank than play allows")
        if self.players == 3:
            numbers = sorted(number for melds in s.melds for number, _meld in melds)
            if numbers != list(range(len(numbers))):
                self.fail("V20", "three players: the melds' creation numbers are 0, 1, ...")
        minimum = rules.opening_minimum
        if minimum is None:
            if any(s.opened) or any(s.need):
                self.fail("V21", "without an opening minimum opened and need are all 0")
            return
        step = rules.opening_fail_increment
        for side in range(len(s.need)):
            score = setup.scores[side] + (rules.cut_bonus if setup.cut == side else 0)
            base = _opening_requirement(minimum, score)
            need = s.need[side]
            raised = need - base
            if not (need == MAX_OPENING_NEED and (step or base >= MAX_OPENING_NEED)
                    or raised == 0 or (step and raised > 0 and raised % step == 0)):
                self.fail("V21", f"side {side}'s requirement {need} is not its start {base} "
                                 f"raised by steps of {step}")
            if s.opened[side] and not s.melds[side]:
                self.fail("V21", f"side {side} is open, so it has melds")
            if not s.opened[side] and s.melds[side] and not (
                    s.phase == MELD and self.side_of(s.turn) == side and s.put_down):
                self.fail("V21", f"side {side} is not open: its melds can only be this turn's")

    # --- V4-V6 ------------------------------------------------------------------------------------

    def stock(self) -> None:
        s, rules = self.s, self.rules
        size, threshold, initial = len(s.stock), rules.stock_end_threshold, rules.initial_stock
        stock_packets = [number for number, (status, _owner, _cards) in enumerate(s.pozzetti)
                         if status == STOCK]
        reserve = rules.pozzetto_becomes_stock and any(
            status == UNTAKEN for status, _owner, _cards in s.pozzetti)
        if self.over:
            return  # the stock of a finished hand reads nothing (see "A finished hand" above)
        if threshold > 0:
            first_draw = (rules.first_draw_rule == "may_reject_first_card"
                          and s.turn == self.setup.first
                          and (size in (initial - 1, initial - 2)
                               or (s.first_draw and size == initial)))
            low = size <= threshold
            if size < threshold and not first_draw:
                self.fail("V5", f"the stock ({size}) cannot fall below stock_end_threshold "
                                f"({threshold}) but by the brazilian first draw")
            if s.phase == DRAW and low and not (s.first_draw and size >= 1):
                self.fail("V5", f"no draw is possible from a stock of {size} "
                                f"(stock_end_threshold {threshold}) and the hand would never end")
            if s.phase == MELD and low != s.last_turn:
                self.fail("V5", "the last-turn flag l is set exactly when the draw left the stock "
                                "at stock_end_threshold")
        else:
            if s.last_turn:
                self.fail("V6", "the flag l needs stock_end_threshold > 0")
            if s.phase == DRAW and not s.stock and not reserve:
                self.fail("V6", "no draw is possible: the stock is empty and no packet can "
                                "become the stock")

    # --- V2-V3 ------------------------------------------------------------------------------------

    def beginning(self) -> None:
        s, rules, setup = self.s, self.rules, self.setup
        if s.phase == DRAW and (s.first_draw or not s.pile):
            problem = self.deal_problem()
            if problem:
                self.fail("V2", f"nothing has been discarded yet, so this is the deal: {problem}")
        if s.phase == MELD and s.first_draw:
            if not s.took_single or not rules.initial_upcard:
                self.fail("V3", "b in the meld phase: the first player took the start card")
            others = [seat for seat in range(self.players) if seat != s.turn]
            if len(s.stock) != rules.initial_stock \
                    or any(status == STOCK for status, _owner, _cards in s.pozzetti) \
                    or any(sum(s.hands[seat].values()) != rules.hand_size or s.known[seat]
                           for seat in others) or s.deadlock:
                self.fail("V3", "b in the meld phase: only the first player has played")

    def deal_problem(self) -> str | None:
        s, rules, setup = self.s, self.rules, self.setup
        if s.turn != setup.first:
            return "the first player acts"
        if len(s.stock) != rules.initial_stock:
            return f"the stock holds {rules.initial_stock} cards"
        if any(sum(hand.values()) != rules.hand_size for hand in s.hands) or any(s.known):
            return f"every hand holds {rules.hand_size} cards, none known"
        if any(s.melds) or any(status != UNTAKEN for status, _owner, _cards in s.pozzetti):
            return "no meld, every packet untaken"
        if s.deadlock or s.force_draw or s.split is not None or any(s.opened):
            return "no deadlock count, no force_draw, no split, no side open"
        if s.first_draw != (rules.first_draw_rule == "may_reject_first_card"):
            return "the brazilian first draw is pending exactly where the rules have it"
        if sum(s.pile.values()) != int(rules.initial_upcard):
            return "the pile is the start card alone (if the rules deal one)"
        minimum = rules.opening_minimum
        if minimum is not None:
            for side, need in enumerate(s.need):
                score = setup.scores[side] + (rules.cut_bonus if setup.cut == side else 0)
                if need != _opening_requirement(minimum, score):
                    return f"side {side}'s opening requirement is its start"
        return None

    # --- V22 ----------------------------------------------------------------------------------

    def cut(self) -> None:
        setup, rules = self.setup, self.rules
        cut = setup.cut
        if cut is None:
            return
        cutter = (setup.first - 2) % self.players
        if rules.cut_exact_probability <= 0 or cut != side_of_seat(rules, cutter, None):
            self.fail("V22", f"the cut side is the cutter's (seat {cutter}), only with "
                             f"cut_exact_probability > 0")
