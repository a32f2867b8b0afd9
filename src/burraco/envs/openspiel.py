"""An OpenSpiel game: one hand of Burraco registered with ``pyspiel`` (docs/rl.md "OpenSpiel").

Importing this module registers ``python_burraco``::

    import pyspiel
    import burraco.envs.openspiel
    game = pyspiel.load_game("python_burraco", {"preset": "italian-2p", "reward": "margin"})

The game is sequential, imperfect-information and explicitly stochastic. Chance is the shuffle:
the state starts at a chance node that deals the deck one card at a time (an outcome is the card
index 0..52 of the next deck position, with probability its copies left over the cards left), so
every deck order has the same probability; once the deck is complete the engine deals it as
``burraco.Game(rules, deck=...)`` does and the rest of the hand has no chance node (the stock's
order is part of the deal, as on a real table). Player actions are the fixed action ids of
docs/search.md; returns are those of the other environments (docs/rl.md "Rewards").

A player's observation is the engine's (``game.observation(p)``: its string and its 511-feature
tensor); its information state is that observation plus the public list of the player actions
played so far (every player action is public in Burraco; the cards drawn from the stock are not
in it). ``resample_from_infostate`` deals what the player cannot see at random
(``game.determinize``), which is what OpenSpiel's ISMCTS needs. States serialize with pyspiel's
Python-game format (their history and their attributes, the engine's game pickled with its moves).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

try:
    import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
except ImportError as error:  # pragma: no cover - exercised in a subprocess by the tests
    raise ImportError(
        "burraco.envs.openspiel needs OpenSpiel: pip install 'burraco[rl]'"
    ) from error

from .._core import MAX_HAND_MOVES, Card, Game, Rules
from ._common import MARGIN_SCALE, REWARDS, observation_size, rewards

__all__ = ["GAME_NAME", "BurracoGame", "BurracoState", "deal_actions", "resampler"]

GAME_NAME = "python_burraco"
DEFAULT_PARAMETERS: dict[str, str] = {"preset": "italian-2p", "reward": "margin"}
CARD_KINDS = 53  # card indices 0..52 (docs/api.md): the chance outcomes of the deal
# The card notation of each card index: 13 * suit + rank - 1 (suits c, d, h, s), the joker 52.
CARD_NOTATION = tuple(f"{rank}{suit}" for suit in "cdhs" for rank in "A23456789TJQK") + ("Jk",)

_TYPE = pyspiel.GameType
_SEED_SPAN = 2**53  # a resampling seed: a probability sampler's draw in [0, 1) times this


def _game_type(utility: Any) -> Any:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Python Burraco",
        dynamics=_TYPE.Dynamics.SEQUENTIAL,
        chance_mode=_TYPE.ChanceMode.EXPLICIT_STOCHASTIC,
        information=_TYPE.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=_TYPE.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(DEFAULT_PARAMETERS),
    )


# Registered as zero-sum: with two or four players the margins of the two sides are opposite.
# Three players (italian-3p) give each game instance a general-sum type (see BurracoGame).
_GAME_TYPE = _game_type(_TYPE.Utility.ZERO_SUM)
_GENERAL_SUM_TYPE = _game_type(_TYPE.Utility.GENERAL_SUM)


def margin_bound(rules: Rules) -> float:
    """A bound in points on any seat's margin under ``rules``: every card's points counted twice
    (in one side's melds and in the other's hand), a burraco bonus for every seven cards, the
    closing and cut bonuses and the penalty for a pozzetto not taken."""
    deck = [CARD_NOTATION[k] for k in range(52)] * rules.decks + ["Jk"] * rules.jokers
    points = sum(rules.card_points(Card(card)) for card in deck)
    bonus = max(rules.clean_burraco_bonus, rules.dirty_burraco_bonus,
                rules.semi_clean_burraco_bonus or 0)
    return float(2 * points + (rules.total_cards // 7) * bonus + rules.closing_bonus
                 + rules.cut_bonus + rules.no_pozzetto_penalty)


def _deck_counts(rules: Rules) -> list[int]:
    return [rules.decks] * 52 + [rules.jokers]


class BurracoGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped (Any)
    """``python_burraco`` with parameters ``preset`` (a name of ``burraco.Rules.PRESETS``,
    ``'italian-2p'`` by default) and ``reward`` (``'margin'``: margin / 2000, or ``'win'``: +1,
    -1 or 0 by its sign). Made by ``pyspiel.load_game`` or directly."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        unknown = sorted(set(given) - set(DEFAULT_PARAMETERS))
        if unknown:
            raise ValueError(f"{GAME_NAME}: unknown parameter(s) {unknown}; expected "
                             f"{sorted(DEFAULT_PARAMETERS)}")
        values = {**DEFAULT_PARAMETERS, **given}
        preset, reward = values["preset"], values["reward"]
        if preset not in Rules.PRESETS:
            raise ValueError(f"{GAME_NAME}: preset {preset!r}: expected one of "
                             f"{', '.join(Rules.PRESETS)}")
        if reward not in REWARDS:
            raise ValueError(f"{GAME_NAME}: reward {reward!r}: expected 'margin' or 'win'")
        rules = Rules(preset)
        if rules.cut_exact_probability:  # pragma: no cover - no preset has a random cut
            raise ValueError(f"{GAME_NAME}: the random exact cut is not modelled")
        template = Game(rules, seed=0)
        bound = 1.0 if reward == "win" else margin_bound(rules) / MARGIN_SCALE
        three = rules.players == 3
        info = pyspiel.GameInfo(
            num_distinct_actions=template.action_size,
            max_chance_outcomes=CARD_KINDS,
            num_players=rules.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=None if three else 0.0,
            max_game_length=MAX_HAND_MOVES,
        )
        super().__init__(_GENERAL_SUM_TYPE if three else _GAME_TYPE, info, values)
        self.rules = rules
        self.reward = reward
        self.template = template  # action_move of an id, whatever the position
        self.counts = _deck_counts(rules)
        self.seats_dealt = rules.hand_size * rules.players  # deck positions dealt to the hands
        self.tensor_size = observation_size(rules)

    def new_initial_state(self) -> BurracoState:
        """The state before the deal: a chance node."""
        return BurracoState(self)

    def max_chance_nodes_in_history(self) -> int:
        """The deal: one chance node per card of the deck."""
        return int(self.rules.total_cards)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """The observer of an observation type: the observation (``perfect_recall=False``) or the
        information state (``True``); private information of a single player, public
        information included (the only kinds this game offers)."""
        if isinstance(iig_obs_type, dict):  # pyspiel passes the parameters alone
            iig_obs_type, params = None, iig_obs_type
        return _Observer(self, iig_obs_type, params)


class BurracoState(pyspiel.State):  # type: ignore[misc]  # pyspiel is untyped (Any)
    """A state of ``python_burraco``: the deal (chance nodes), then the engine's hand.

    ``state.game`` is the ``burraco.Game`` being played (None while dealing), to read."""

    def __init__(self, game: BurracoGame) -> None:
        super().__init__(game)
        self._deck: list[int] | None = []  # the deck positions dealt so far, while dealing
        self._left: list[int] | None = list(game.counts)
        self._game: Game | None = None
        self._actions: list[int] = []  # the player actions, public

    # ---- what pyspiel asks -------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, ``PlayerId.CHANCE`` while dealing, ``TERMINAL`` at the end."""
        if self._game is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self._game.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        return self._game.turn

    def _legal_actions(self, player: int) -> list[int]:
        assert self._game is not None and player == self._game.turn
        result: list[int] = np.flatnonzero(self._game.legal_mask()).tolist()
        return result

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next deck position: each card index left, with its copies left over the cards
        left."""
        assert self._left is not None, "no chance node once the deck is dealt"
        total = sum(self._left)
        return [(kind, count / total) for kind, count in enumerate(self._left) if count]

    def _apply_action(self, action: int) -> None:
        if self._game is not None:
            self._game.push_action(action)
            self._actions.append(action)
            return
        assert self._deck is not None and self._left is not None
        if not 0 <= action < CARD_KINDS or not self._left[action]:
            raise ValueError(f"chance outcome {action}: no such card left to deal")
        self._deck.append(action)
        self._left[action] -= 1
        game: BurracoGame = self.get_game()
        if len(self._deck) == game.rules.total_cards:
            deck = " ".join(CARD_NOTATION[kind] for kind in self._deck)
            self._game = Game(game.rules, deck=deck)
            self._deck = self._left = None

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {CARD_NOTATION[action]}"
        game: BurracoGame = self.get_game()
        return str(game.template.action_move(action))

    def is_terminal(self) -> bool:
        """The hand is over."""
        return self._game is not None and self._game.is_over()

    def returns(self) -> list[float]:
        """Each seat's reward at the end (docs/rl.md "Rewards"), zeros before."""
        game: BurracoGame = self.get_game()
        if self._game is None or not self._game.is_over():
            return [0.0] * game.rules.players
        return rewards(self._game, game.reward, MARGIN_SCALE)

    def __str__(self) -> str:
        if self._game is not None:
            return self._game.state_string()
        assert self._deck is not None
        return "dealing " + "".join(CARD_NOTATION[kind] for kind in self._deck)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> BurracoState:
        """A state of the same information state for ``player_id``, the cards that player cannot
        see dealt anew from a seed drawn with ``probability_sampler()`` (a draw in [0, 1)).

        After the deal it holds ``game.determinize(player_id, seed)``: a position with no move
        history, so the new state's ``history()`` is empty (its information state, which keeps
        the public actions, is the same). During the deal, the deck positions of the other seats'
        hands and beyond are dealt anew."""
        seed = int(probability_sampler() * _SEED_SPAN)
        return self.resample(player_id, seed)

    # ---- the engine's side -------------------------------------------------------------------

    @property
    def game(self) -> Game | None:
        """The ``burraco.Game`` of the hand, None while the deck is being dealt."""
        return self._game

    @property
    def actions(self) -> tuple[int, ...]:
        """The player actions played so far (the deal's chance outcomes left out)."""
        return tuple(self._actions)

    def resample(self, player: int, seed: int) -> BurracoState:
        """:meth:`resample_from_infostate` with the seed given (an int in ``[0, 2**64)``; anything
        else, a bool or a float included, raises ValueError quoting it). After the deal every seed
        gives a position of play: ``game.determinize`` deals the seat to act a hand it can move
        with (docs/search.md "Determinization")."""
        game: BurracoGame = self.get_game()
        if not 0 <= player < game.rules.players:
            raise ValueError(f"player {player}: expected 0 to {game.rules.players - 1}")
        if (isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer))
                or not 0 <= seed < 2**64):
            raise ValueError(f"resample({player}, {seed!r}): the seed must be an int in [0, 2**64)")
        seed = int(seed)
        fresh: BurracoState = game.new_initial_state()
        fresh._actions = list(self._actions)
        if self._game is None:
            assert self._deck is not None
            fresh._deck, fresh._left = self._redeal(player, seed)
            return fresh
        fresh._game = self._game.determinize(player, seed)
        fresh._deck = fresh._left = None
        return fresh

    def _redeal(self, player: int, seed: int) -> tuple[list[int], list[int]]:
        """The deck dealt so far with every position but the player's own cards dealt anew."""
        assert self._deck is not None
        game: BurracoGame = self.get_game()
        players = game.rules.players
        mine = [i < game.seats_dealt and i % players == player for i in range(len(self._deck))]
        pool = [kind for kind, count in enumerate(game.counts) for _ in range(count)]
        for kind, own in zip(self._deck, mine):
            if own:
                pool.remove(kind)
        order = np.random.default_rng(seed).permutation(len(pool))
        others = iter(pool[i] for i in order)
        deck = [kind if own else next(others) for kind, own in zip(self._deck, mine)]
        left = list(game.counts)
        for kind in deck:
            left[kind] -= 1
        return deck, left

    def dealt_to(self, player: int) -> list[int]:
        """While dealing: the card indices dealt so far to ``player``'s hand."""
        assert self._deck is not None
        game: BurracoGame = self.get_game()
        players = game.rules.players
        return [kind for i, kind in enumerate(self._deck[: game.seats_dealt])
                if i % players == player]

    def observation_string_of(self, player: int) -> str:
        """The observation string of ``player`` (the engine's, docs/search.md "Observations");
        while dealing, the cards dealt to it so far."""
        if self._game is not None:
            return str(self._game.observation(player))
        assert self._deck is not None
        cards = "".join(CARD_NOTATION[kind] for kind in sorted(self.dealt_to(player)))
        return f"v=1;player={player};dealing={len(self._deck)};hand={cards or '-'}"

    def information_state_string_of(self, player: int) -> str:
        """The observation string of ``player`` and the player actions played so far."""
        return (self.observation_string_of(player) + ";actions="
                + ",".join(map(str, self._actions)))

    def write_tensor(self, player: int, out: npt.NDArray[np.float32]) -> None:
        """The observation tensor of ``player`` into ``out`` (511 float32 features); while
        dealing, the counts of the cards dealt to it so far (features 0..52) and zeros."""
        if self._game is not None:
            self._game.observation_tensor(player, out=out)
            return
        out.fill(0.0)
        for kind in self.dealt_to(player):
            out[kind] += 1.0


class _Observer:
    """pyspiel's Python observer: ``tensor``, ``dict`` and ``set_from`` / ``string_from``."""

    def __init__(self, game: BurracoGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"{GAME_NAME}: observation parameters are not supported: {params}")
        self.perfect_recall = False
        if iig_obs_type is not None:
            if (iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                    or not iig_obs_type.public_info):
                raise ValueError(f"{GAME_NAME}: only the observation and the information state "
                                 "of one player (public and own private information) exist")
            self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor = np.zeros(game.tensor_size, np.float32)
        name = "info_state" if self.perfect_recall else "observation"
        self.dict = {name: self.tensor}

    def set_from(self, state: BurracoState, player: int) -> None:
        state.write_tensor(player, self.tensor)

    def string_from(self, state: BurracoState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_string_of(player)
        return state.observation_string_of(player)


def deal_actions(game: Game) -> list[int]:
    """The chance outcomes that deal ``game``'s deck: ``game`` is a hand before its first move
    (``burraco.Game(rules, seed=s)``, first player 0), and applying these to a new state of the
    same preset gives the same position. Duplicate deals for OpenSpiel bots come from here."""
    if game.moves or game.first_player != 0:
        raise ValueError("deal_actions: expected a hand before its first move, first player 0")
    fields = dict(part.split("=", 1) for part in game.state_string().split(";"))

    def cards(text: str) -> list[str]:
        return [] if text == "-" else [text[i:i + 2] for i in range(0, len(text), 2)]

    rules = game.rules
    hands = [cards(hand) for hand in fields["hands"].split("/")]
    deck = [hands[i % rules.players].pop() for i in range(rules.hand_size * rules.players)]
    packets = [] if fields["pozzetti"] == "-" else [
        cards(packet.split(":", 1)[1]) for packet in fields["pozzetti"].split("/")]
    for position in range(max((len(packet) for packet in packets), default=0)):
        deck += [packet[position] for packet in packets if position < len(packet)]
    deck += cards(fields["pile"]) + cards(fields["stock"])
    refused = ValueError("deal_actions: expected a hand before its first move, first player 0")
    try:
        dealt = Game(rules, deck=" ".join(deck))
    except ValueError:  # not the whole deck: cards were drawn or melded
        raise refused from None
    if _unseeded(dealt.state_string()) != _unseeded(game.state_string()):
        raise refused
    return [Card(card).index for card in deck]


def _unseeded(state: str) -> str:
    return ";".join(part for part in state.split(";") if not part.startswith("seed="))


def resampler(seed: int) -> Callable[[BurracoState, int], BurracoState]:
    """A resampling callback for OpenSpiel's ISMCTSBot (``bot.set_resampler(resampler(s))``):
    its deals are drawn from a generator seeded with ``seed``, so a search seeded this way (and
    with a seeded ``random_state``) is reproducible; the default resampler is not."""
    rng = np.random.default_rng(seed)

    def resample(state: BurracoState, player: int) -> BurracoState:
        return state.resample(player, int(rng.integers(2**63)))

    return resample


pyspiel.register_game(_GAME_TYPE, BurracoGame)
