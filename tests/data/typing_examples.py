"""What a type checker infers from the stub (src/burraco/_core.pyi): checked by mypy --strict in
tests/test_typing.py, never run."""

from __future__ import annotations

from typing import Literal

import numpy as np
import numpy.typing as npt
from typing_extensions import assert_type

from burraco import ISMCTS, Card, Cards, Game, Meld, Melds, Move, Observation, Rules, playouts

game = Game(Rules("brazilian", players=2, semi_clean_burraco_bonus=None), seed=7)
dealt = Game(Rules("italian-2p"), deck=list(game.stock), first_player=1, scores=(0, 0))
moves = game.legal_moves()
assert_type(moves[0], Move)
assert_type(moves[1:], list[Move])
assert_type(list(moves), list[Move])
assert_type(game.phase, "Literal['draw', 'meld', 'over']")
assert_type(game.end_reason, "Literal['closed', 'stock_exhausted', 'deadlock'] | None")
assert_type(game.top_discard, Card | None)
assert_type(game.melds(0)[0], Meld)
assert_type(game.melds(0)[1:], Melds)
assert_type(game.legal_mask(), npt.NDArray[np.bool_])
assert_type(game.observation_tensor(0, out=np.zeros(511, np.float32)), npt.NDArray[np.float32])
assert_type(game.observation(0), Observation)
assert_type(game.policy_move("random", seed=3), Move)
assert_type(Game.from_record(game.record()), Game)
assert_type(Game.from_json(game.to_json(indent=2)), Game)
game.push_index(np.int64(0))
assert_type(Cards("5h 6h") + [Card("7h"), "8h"], Cards)
assert_type(Card("Qh").suit, "Literal['c', 'd', 'h', 's'] | None")
assert_type(Meld("Jk 5d 6d").burraco, "Literal['clean', 'semi-clean', 'dirty'] | None")
assert_type(Rules().opening_minimum, tuple[tuple[int, int], ...] | None)
assert_type(playouts(None, 10, threads=2)["scores"], npt.NDArray[np.int32])
assert_type(ISMCTS(iterations=10).root_stats(), list[tuple[Move, int, int, float]])
