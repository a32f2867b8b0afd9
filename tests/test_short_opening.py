"""After a short brazilian opening returns its cards, the turn goes on with discards only (RULES
C.3, H-38; docs/game.md "What a move does").

Without H-38 a side not yet open could put its whole hand down short of the requirement, get it
back, and do it again in the same turn for ever (one turn passed 20,000 moves). The position
shows that a return happened this turn (the side is not open, turn flag ``d`` is set and the side
has no melds), so the rule survives a state string and needs no field of its own.
"""

from __future__ import annotations

import random

import playouts
import pytest
from conftest import engine_name

# Brazilian, two players, seat 0 to act in the meld phase; its side has not opened and has put
# 75 points down this turn (JcJdJh and Jk(=4d)5d6d7d); `meld 2d 3d 4d 5d 2s` puts the rest of its
# hand down, 130 in all, short of the requirement of 1010 (a position of seeded random play, deal
# seed 398, in tests/test_opening_need.py, with the requirement raised).
STATE = (
    "v=1;rules=brazilian:players=2;seed=398;first=0;scores=0,0;turn=0;phase=meld;"
    "hands=2d3d4d5d2s/Ac7d8dAhAh3h7hQh3s5s6s8s9sJsJsQs;known=2d3d4d5d2s/Ac8dAh3h7hQh3s5s6s9s;"
    "stock=TsKhTc3sKs3dKsJk5c9s5h5h6hTh7sAc3c5c7sTdAs8c8d9d8h6s6dQc6c9hTd7c2hQd6h8cAd2s2dAd2c9cAs"
    "4s7c4c;pile=-;top=-;melds=JcJdJh+Jk(=4d)5d6d7d/9d9h2c(=9)+Jk(=2h)3h4h+4d4h4s+KcKdKh;"
    "pozzetti=u:Qh2hJk7hQcJcTcKdQd4c8h/u:Kc9cTsTh3c8sJh6cJdQs5s;hold=Jc;opened=0,1;need=1010,50;"
    "deadlock=0;turnflags=pd;split=-;end=-;cut=-"
)
MELD = "meld 2d 3d 4d 5d 2s"


def _returned(engine):
    """The frozen position after its short whole-hand meld: the cards are back in the hand."""
    game = engine.Game.from_state_string(STATE)
    game.push(MELD)
    fields = playouts.state_fields(game.state_string())
    assert (game.phase, game.turn, fields["need"], fields["turnflags"]) == ("meld", 0, "1025,50", "pd")
    returned = "Jc Jd Jh Jk 5d 6d 7d".split() + MELD.split()[1:]
    assert len(game.melds(0)) == 0 and sorted(map(str, game.hand(0))) == sorted(returned)
    return game


def test_after_a_return_only_discards_are_legal(engine):
    game = _returned(engine)
    moves = game.legal_moves().strings()
    # Every card back in the hand may go, but Jc: the one-card pile taken this turn was Jc, whose
    # hold is on again now that the Jc is back in the hand (RULES C.5).
    assert moves == ["discard " + card for card in "2d 3d 4d 5d 6d 7d Jd Jh 2s Jk".split()]


@pytest.mark.parametrize("move", [MELD, "meld 2d 3d 4d", "meld 3d 4d 5d", "add 0 2s"])
def test_after_a_return_melds_and_lay_offs_are_refused(engine, move):
    game = _returned(engine)
    before = game.state_string()
    with pytest.raises(engine.IllegalMoveError, match=r"H-38|meld|side has no"):
        game.push(move)
    assert game.state_string() == before


def test_the_restriction_survives_the_state_string(engine):
    game = _returned(engine)
    again = engine.Game.from_state_string(game.state_string())
    assert again.legal_moves().strings() == game.legal_moves().strings()
    with pytest.raises(engine.IllegalMoveError):
        again.push(MELD)


def test_the_discard_ends_the_turn_and_the_next_turn_may_meld(engine):
    game = _returned(engine)
    game.push("discard 5d")
    assert (game.turn, game.phase) == (1, "draw")
    assert playouts.state_fields(game.state_string())["turnflags"] == "-"
    game.push("draw")
    assert any(move.startswith(("meld", "add")) for move in game.legal_moves().strings())


# ---- every turn is finite under the worst legal play -------------------------------------------

# The rule sets, each with two deal seeds whose hand (under the policy below) has a short opening
# return its cards in mid-turn: found by seeded play on the core, the same hands in both engines.
RULES = (
    ("4p", {}, (4, 8)),
    ("2p", {"players": 2}, (0, 4)),
    ("6p", {"players": 6}, (5, 6)),
    ("2p-3d", {"players": 2, "decks": 3, "jokers": 6}, (1, 12)),
)


def pick_put_everything_down(rng: random.Random, moves: list[str], hand: int) -> int:
    """The policy that loops without H-38: in the meld phase always put cards down when it can, a
    move that empties the hand (``hand`` cards) first, else any meld or lay-off (short melds
    keep a side not yet open short, so it puts its whole hand down short as often as it can); a
    discard only when nothing else is legal. The draw phase takes the pile one time in four
    (bigger hands), else draws."""
    kinds = [playouts.kind_of(move) for move in moves]
    if kinds[0] in playouts.DRAW_KINDS:
        if "pile" in kinds and rng.random() < 0.25:
            return kinds.index("pile")
        return kinds.index("draw") if "draw" in kinds else rng.randrange(len(moves))
    put = [i for i, kind in enumerate(kinds) if kind in ("meld", "add")]
    emptying = [i for i in put
                if (len(moves[i].split()) - 1 if kinds[i] == "meld" else 1) == hand]
    return rng.choice(emptying or put or range(len(moves)))


def play_bounded(engine, preset: str, knobs: dict, seed: int) -> tuple[int, int]:
    """Play one hand with :func:`pick_put_everything_down`; fail as soon as a turn has more moves
    than a turn can take under H-38. Returns (moves, short openings returned)."""
    rules = engine.Rules(preset, **knobs)
    packet = max(rules.pozzetto_sizes)
    game = engine.Game(rules, seed=seed)
    rng = random.Random(seed)
    played = returns = in_turn = 0
    bound = 0
    seat, need = game.turn, playouts.state_fields(game.state_string())["need"]
    while not game.is_over():
        assert played < 20_000, f"the hand has not ended: {game.state_string()}"
        if game.turn != seat:
            seat, in_turn = game.turn, 0
        if game.phase == "draw":
            in_turn = 0
        moves = game.legal_moves().strings()
        game.push(moves[pick_put_everything_down(rng, moves, len(game.hand(game.turn)))])
        played += 1
        in_turn += 1
        if in_turn == 1:
            # The draw, then each meld or lay-off takes at least one card from the hand (which a
            # pozzetto taken on the fly may refill once), one return at most, then the discard.
            bound = 1 + len(game.hand(game.turn)) + packet + 1
        assert in_turn <= bound, (f"turn of seat {seat}: {in_turn} moves, more than {bound}:\n"
                                  f"{game.state_string()}")
        now = playouts.state_fields(game.state_string())["need"]
        if now != need and game.phase == "meld":
            returns += 1  # a short opening returned its cards in mid-turn
        need = now
    return played, returns


@pytest.mark.parametrize("knobs, seeds", [(knobs, seeds) for _id, knobs, seeds in RULES],
                         ids=[rules_id for rules_id, _knobs, _seeds in RULES])
def test_no_turn_outlasts_its_cards(engine, knobs, seeds):
    if engine_name(engine) == "reference":
        seeds = seeds[:1]  # the slow engine plays one of the two
    returns = sum(play_bounded(engine, "brazilian", knobs, seed)[1] for seed in seeds)
    # The policy does reach the loop H-38 closes (a whole hand put down short, in mid-turn).
    assert returns > 0
    if engine_name(engine) == "core":  # more hands where they are cheap
        for seed in range(100, 110):
            play_bounded(engine, "brazilian", knobs, seed)
