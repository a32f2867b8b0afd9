"""burraco.envs.openspiel (docs/rl.md "OpenSpiel"): the ``python_burraco`` game of pyspiel.

* OpenSpiel's own conformance check, ``pyspiel.random_sim_test`` with serialization, on every
  preset; its Python ISMCTS and MCTS bots playing whole hands.
* The game is the engine: the deal's chance outcomes give ``Game(rules, deck=...)``'s position
  (``deal_actions`` the deck of a seeded deal), legal actions are the legal mask, a player action
  is ``push_action``, the returns are the envs' rewards.
* Information: two states that differ only in cards a player cannot see give that player the same
  information state and observation (strings and tensors), during the deal and after it;
  ``resample_from_infostate`` keeps the information state and changes the hidden cards.
* Serialization (pyspiel's format and pickle) restores a state whole, a resampled one too.
"""

from __future__ import annotations

import pickle
import subprocess
import sys

import numpy as np
import pytest

import burraco
from burraco.envs import _common
from burraco.envs import openspiel as spiel

pyspiel = spiel.pyspiel
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

PRESETS = burraco.Rules.PRESETS


def load(preset: str = "italian-2p", reward: str = "margin"):
    return pyspiel.load_game(spiel.GAME_NAME, {"preset": preset, "reward": reward})


def dealt(preset: str = "italian-2p", seed: int = 1, reward: str = "margin"):
    """A state of ``preset`` after the deal of ``Game(rules, seed=seed)``."""
    state = load(preset, reward).new_initial_state()
    for action in spiel.deal_actions(burraco.Game(burraco.Rules(preset), seed=seed)):
        state.apply_action(action)
    return state


def played(preset: str, seed: int, moves: int):
    """A dealt state after ``moves`` seeded random legal actions (fewer if the hand ends)."""
    state = dealt(preset, seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def position(text: str) -> str:
    """A state string without its seed field (a deck deal has none)."""
    return ";".join(field for field in text.split(";") if not field.startswith("seed="))


# ---- registration, type and parameters ---------------------------------------------------------


def test_the_game_is_registered_with_its_parameters():
    assert spiel.GAME_NAME in pyspiel.registered_names()
    game = pyspiel.load_game(spiel.GAME_NAME)
    assert game.get_parameters() == {"preset": "italian-2p", "reward": "margin"}
    assert str(game) == "python_burraco(preset=italian-2p,reward=margin)"
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert kind.provides_information_state_string and kind.provides_information_state_tensor
    assert kind.provides_observation_string and kind.provides_observation_tensor


@pytest.mark.parametrize("preset", PRESETS)
def test_the_game_info_is_the_engine_s(preset):
    game = load(preset)
    engine = burraco.Game(burraco.Rules(preset), seed=0)
    assert game.num_players() == engine.players
    assert game.num_distinct_actions() == engine.action_size
    assert game.max_chance_outcomes() == 53
    assert game.observation_tensor_shape() == [511]
    assert game.information_state_tensor_shape() == [511]
    assert game.max_game_length() == burraco.MAX_HAND_MOVES
    utility = game.get_type().utility
    if engine.players == 3:
        assert utility == pyspiel.GameType.Utility.GENERAL_SUM
    else:
        assert utility == pyspiel.GameType.Utility.ZERO_SUM and game.utility_sum() == 0.0
    assert -game.min_utility() == game.max_utility() > 2.0  # margins of 2,000 points are seen
    assert load(preset, "win").max_utility() == 1.0


@pytest.mark.parametrize("params,message", [
    ({"preset": "bridge"}, "preset 'bridge'"),
    ({"reward": "points"}, "reward 'points'"),
])
def test_bad_parameters_are_refused_quoting_them(params, message):
    with pytest.raises(ValueError, match=message):
        pyspiel.load_game(spiel.GAME_NAME, params)
    with pytest.raises(ValueError, match=message):
        spiel.BurracoGame(params)
    with pytest.raises(ValueError, match="unknown parameter"):
        spiel.BurracoGame({"colour": "red"})


# ---- OpenSpiel's own test ------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_random_sim_test_with_serialization(preset):
    pyspiel.random_sim_test(load(preset), num_sims=2, serialize=True, verbose=False)


def test_random_sim_test_win_reward():
    pyspiel.random_sim_test(load("italian-2p", "win"), num_sims=2, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_random_sim_test_many_hands(preset):
    pyspiel.random_sim_test(load(preset), num_sims=40, serialize=True, verbose=False)


# ---- the deal ------------------------------------------------------------------------------------


def test_the_deal_is_one_card_at_a_time_by_copies_left():
    state = load().new_initial_state()
    assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
    outcomes = dict(state.chance_outcomes())
    assert sorted(outcomes) == list(range(53))
    assert outcomes[0] == pytest.approx(2 / 108) and outcomes[52] == pytest.approx(4 / 108)
    for _ in range(4):
        state.apply_action(52)  # every joker
    outcomes = dict(state.chance_outcomes())
    assert 52 not in outcomes and sum(outcomes.values()) == pytest.approx(1.0)
    assert outcomes[0] == pytest.approx(2 / 104)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 52) == "deal Jk"
    with pytest.raises(ValueError, match="no such card left"):
        state.apply_action(52)


@pytest.mark.parametrize("preset", PRESETS)
def test_deal_actions_give_the_seeded_position(preset):
    for seed in (1, 2, 77):
        engine = burraco.Game(burraco.Rules(preset), seed=seed)
        state = dealt(preset, seed)
        assert len(state.history()) == engine.rules.total_cards
        assert all(step.player == pyspiel.PlayerId.CHANCE for step in state.full_history())
        assert state.game is not None and position(str(state)) == position(engine.state_string())
        assert state.current_player() == engine.turn == 0


def test_deal_actions_refuse_a_hand_already_begun():
    engine = burraco.Game(burraco.Rules("italian-2p"), seed=3)
    engine.push("draw")
    with pytest.raises(ValueError, match="before its first move"):
        spiel.deal_actions(engine)
    later = burraco.Game.from_state_string(engine.state_string())
    with pytest.raises(ValueError, match="before its first move"):
        spiel.deal_actions(later)


# ---- the hand is the engine's -------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["italian-2p", "italian", "italian-3p"])
@pytest.mark.parametrize("reward", ["margin", "win"])
def test_a_hand_is_the_engine_stepped_with_the_same_ids(preset, reward):
    state = dealt(preset, 5, reward)
    engine = burraco.Game(burraco.Rules(preset), seed=5)
    rng = np.random.default_rng(5)
    while not state.is_terminal():
        assert state.current_player() == engine.turn
        legal = state.legal_actions()
        assert legal == np.flatnonzero(engine.legal_mask()).tolist()
        action = int(rng.choice(legal))
        assert state.action_to_string(state.current_player(), action) == str(
            engine.action_move(action))
        assert state.returns() == [0.0] * engine.players
        state.apply_action(action)
        engine.push_action(action)
        assert position(str(state)) == position(engine.state_string())
    assert engine.is_over() and state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.returns() == _common.rewards(engine, reward, 2000.0)
    assert state.actions == tuple(engine.action_id(move) for move in engine.moves)
    if engine.players != 3:
        assert sum(state.returns()) == 0.0


def test_an_illegal_action_is_refused_and_changes_nothing():
    state = dealt()
    before = str(state)
    with pytest.raises(burraco.IllegalMoveError):
        state.apply_action(5)  # a discard in the draw phase
    assert str(state) == before


# ---- information ----------------------------------------------------------------------------------


def views(state, player: int):
    return (state.information_state_string(player), state.observation_string(player),
            tuple(state.information_state_tensor(player)), tuple(state.observation_tensor(player)))


def test_information_does_not_depend_on_another_seat_s_hidden_cards():
    """Two deals that differ only in one card of seat 1's hand and the last stock card: seat 0
    sees the same after the deal and after moves that do not reach that stock card."""
    rules = burraco.Rules("italian-2p")
    deck = spiel.deal_actions(burraco.Game(rules, seed=9))
    swapped = list(deck)
    seat_1 = next(i for i in range(1, 22, 2) if deck[i] != deck[-1])  # a card of seat 1's hand
    swapped[seat_1], swapped[-1] = deck[-1], deck[seat_1]
    first, second = load().new_initial_state(), load().new_initial_state()
    for k, (a, b) in enumerate(zip(deck, swapped)):
        first.apply_action(a)
        second.apply_action(b)
        if k < len(deck) - 1:  # while dealing: seat 0's own cards only
            assert views(first, 0) == views(second, 0)
    assert first.game.hand(1) != second.game.hand(1)
    assert views(first, 0) == views(second, 0)
    assert views(first, 1) != views(second, 1)
    first.apply_action(0)  # seat 0 draws the same stock card in both
    second.apply_action(0)
    assert views(first, 0) == views(second, 0)
    discard = min(action for action in first.legal_actions() if 4 <= action < 57)
    first.apply_action(discard)
    second.apply_action(discard)
    assert views(first, 0) == views(second, 0) and views(first, 1) != views(second, 1)


@pytest.mark.parametrize("preset", ["italian-2p", "italian", "italian-3p", "brazilian"])
def test_resampling_keeps_the_information_state_and_deals_the_rest_anew(preset):
    state = played(preset, 11, 30)
    player = state.current_player()
    seen = views(state, player)
    others = set()
    for seed in range(4):
        sample = state.resample(player, seed)
        assert views(sample, player) == seen
        assert sample.game.observation(player) == state.game.observation(player)
        assert sample.history() == [] and sample.actions == state.actions
        others.add(str(sample))
    assert len(others) > 1 and str(state) not in others
    sampled = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert views(sampled, player) == seen


def test_resampling_while_dealing_keeps_the_player_s_cards():
    state = load("italian").new_initial_state()
    for action in spiel.deal_actions(burraco.Game(burraco.Rules("italian"), seed=4))[:30]:
        state.apply_action(action)
    sample = state.resample(2, 7)
    assert sample.dealt_to(2) == state.dealt_to(2)
    assert views(sample, 2) == views(state, 2) and str(sample) != str(state)
    assert sum(dict(sample.chance_outcomes()).values()) == pytest.approx(1.0)


def test_the_observers_offered_and_refused():
    game = load()
    state = played("italian-2p", 3, 10)
    info = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    info.set_from(state, 1)
    assert info.string_from(state, 1) == state.information_state_string(1)
    assert list(info.dict) == ["info_state"] and info.tensor.tolist() == list(
        state.information_state_tensor(1))
    public = pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                        private_info=pyspiel.PrivateInfoType.NONE)
    with pytest.raises(ValueError, match="only the observation"):
        game.make_py_observer(public)
    assert state.information_state_string(1).startswith(state.observation_string(1) + ";actions=")


# ---- serialization --------------------------------------------------------------------------------


def test_serialization_restores_a_state_and_a_resampled_one():
    state = played("italian", 6, 40)
    for original in (state, state.resample(state.current_player(), 3), load().new_initial_state()):
        text = pyspiel.serialize_game_and_state(original.get_game(), original)
        game, copy = pyspiel.deserialize_game_and_state(text)
        assert str(game) == str(original.get_game())
        for restored in (copy, pickle.loads(pickle.dumps(original)), original.clone()):
            assert str(restored) == str(original) and restored.history() == original.history()
            assert restored.legal_actions() == original.legal_actions()
            for player in range(game.num_players()):
                assert views(restored, player) == views(original, player)
            if original.game is not None:
                assert restored.game == original.game


# ---- OpenSpiel's bots ----------------------------------------------------------------------------


def play_hand(state, bots):
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    return state


def bots(game, seed: int, simulations: int):
    """OpenSpiel's Python ISMCTS (seat 0) and MCTS (seat 1), seeded, random rollouts."""
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    search = ismcts.ISMCTSBot(game, evaluator, 2.0, simulations,
                              random_state=np.random.RandomState(seed))
    search.set_resampler(spiel.resampler(seed))
    tree = mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=np.random.RandomState(seed))
    return [search, tree]


def test_openspiel_ismcts_and_mcts_bots_play_a_whole_hand():
    game = load()
    hands = []
    for _ in range(2):
        state = play_hand(dealt(seed=21), bots(game, 21, 6))
        margins = _common.margins(state.game)
        assert state.returns() == [m / 2000 for m in margins] and sum(state.returns()) == 0
        assert len(state.actions) > 20
        hands.append(state.history())
    assert hands[0] == hands[1]  # seeded bots and resampler: the same hand twice


def test_openspiel_ismcts_checks_its_resampled_roots():
    """ISMCTSBot asserts that each resampled root has the root's information state; with the
    default resampler (pyspiel's probability sampler) too."""
    game = load()
    state = played("italian-2p", 8, 6)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(1))
    policy = bot.get_policy(state)
    assert {action for action, _ in policy} <= set(state.legal_actions())
    assert sum(p for _, p in policy) == pytest.approx(1.0)


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["italian", "italian-3p", "brazilian"])
def test_openspiel_bots_play_whole_hands_of_every_preset(preset):
    game = load(preset)
    players = game.num_players()
    pair = bots(game, 5, 4)
    state = play_hand(dealt(preset, 5), [pair[seat % 2] for seat in range(players)])
    assert state.returns() == _common.rewards(state.game, "margin", 2000.0)


# ---- packaging ------------------------------------------------------------------------------------


def test_without_open_spiel_the_import_says_what_to_install():
    done = subprocess.run(
        [sys.executable, "-c",
         "import sys; sys.modules['pyspiel'] = None; import burraco.envs.openspiel"],
        capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "ImportError" in done.stderr and "pip install 'burraco[rl]'" in done.stderr


def test_burraco_imports_no_pyspiel():
    done = subprocess.run(
        [sys.executable, "-c", "import sys, burraco, burraco.envs.gymnasium; "
         "print('pyspiel' in sys.modules)"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "False", done.stderr
