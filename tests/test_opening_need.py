"""The brazilian opening requirement saturates (docs/game.md, ``need``).

RULES C.3 raises a side's requirement by ``opening_fail_increment`` at every short opening and
is silent on a bound; a player may put the same cards down and take them back turn after turn
(once a turn: H-38 leaves only discards after a return). Both engines stop the requirement at
10,000,000 (also the largest a state string may give), so that no run of short openings can
overflow the core's 32-bit counter.
"""

from __future__ import annotations

import pytest

import playouts

CAP = 10_000_000


# Brazilian, two players, seat 0 to act in the meld phase; its side has not opened (need 125)
# and `meld 2d 3d 4d 5d 2s` puts its whole hand down, short of the requirement. Found by seeded
# random play (deal seed 398) and frozen here.
STATE = (
    "v=1;rules=brazilian:players=2;seed=398;first=0;scores=0,0;turn=0;phase=meld;"
    "hands=2d3d4d5d2s/Ac7d8dAhAh3h7hQh3s5s6s8s9sJsJsQs;known=2d3d4d5d2s/Ac8dAh3h7hQh3s5s6s9s;"
    "stock=TsKhTc3sKs3dKsJk5c9s5h5h6hTh7sAc3c5c7sTdAs8c8d9d8h6s6dQc6c9hTd7c2hQd6h8cAd2s2dAd2c9cAs"
    "4s7c4c;pile=-;top=-;melds=JcJdJh+Jk(=4d)5d6d7d/9d9h2c(=9)+Jk(=2h)3h4h+4d4h4s+KcKdKh;"
    "pozzetti=u:Qh2hJk7hQcJcTcKdQd4c8h/u:Kc9cTsTh3c8sJh6cJdQs5s;hold=Jc;opened=0,1;need=125,50;"
    "deadlock=0;turnflags=pd;split=-;end=-;cut=-"
)
MELD = "meld 2d 3d 4d 5d 2s"


def _emptying_short_meld(engine):
    """The frozen state, its whole-hand meld and the side to act."""
    game = engine.Game.from_state_string(STATE)
    move = engine.Move(MELD)
    assert move in game.legal_moves() and len(move.cards) == len(game.hand(game.turn))
    return game, move, game.side_of(game.turn)


def _with_need(engine, game, side, need):
    text = game.state_string()
    fields = playouts.state_fields(text)
    values = fields["need"].split(",")
    values[side] = str(need)
    return engine.Game.from_state_string(text.replace(f";need={fields['need']};",
                                                      f";need={','.join(values)};"))


def test_a_short_opening_raises_the_requirement_up_to_the_cap(engine):
    game, move, side = _emptying_short_meld(engine)
    near = _with_need(engine, game, side, CAP - 5)
    near.push(move)  # short of 9,999,995 points: the cards come back, the requirement rises
    assert playouts.state_fields(near.state_string())["need"].split(",")[side] == str(CAP)
    assert near.phase == "meld"
    assert all(text.startswith("discard ") for text in near.legal_moves().strings())  # H-38
    at = _with_need(engine, game, side, CAP)
    at.push(move)  # short again: it stays at the cap
    assert playouts.state_fields(at.state_string())["need"].split(",")[side] == str(CAP)


@pytest.mark.parametrize("need, accepted", [(CAP, True), (CAP + 1, False), (2**31, False)])
def test_state_strings_take_the_requirement_up_to_the_cap(engine, need, accepted):
    game, _move, side = _emptying_short_meld(engine)
    if accepted:
        assert _with_need(engine, game, side, need).state_string()
    else:
        with pytest.raises(engine.InvalidStateError, match="need"):
            _with_need(engine, game, side, need)
