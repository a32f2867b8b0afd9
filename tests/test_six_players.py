"""The C++ core plays six-player brazilian (RULES F.7; docs/game.md "Six players"), held to the
reference engine: three sides of two (``Rules('brazilian', players=6)``, side = seat % 3) and two
sides of three (``sides=2``, side = seat % 2), three decks, three packets of 11.

* Rules: the knob ``sides``, the six-player defaults, ``knobs()``, the rules text, repr, pickles
  and refusals, each compared with the reference.
* The deal: the written contract and its known answers for seed 1 (docs/game.md), and the deal of
  an explicit deck order, both engines alike.
* Lockstep (``playouts.lockstep``, as tests/test_differential_game.py): every move compared
  (state strings, legal moves, accessors every 8 moves, results) over ``HANDS`` hands of each table
  and policy (``draw``, ``meld``) in the default run, seeds 0 to ``HANDS - 1``; ``-m slow`` plays
  the rest up to ``CI_HANDS`` (CI's slow step) and ``SLOW_HANDS`` more on other seeds
  (``-k lockstep -s`` prints each table's summary).
* Pots and the reserve: with three sides the third packet is a pot, with two sides never (it can
  only become the stock, RULES D.3), which the validator of both engines enforces (V15); a side
  that can take no packet cannot empty its hand.
* Results of three sides, matches and batch playouts with a column per side.
* State-string, record and pickle round trips; observation tensors (681 features) equal to the
  reference's; determinization equal to the reference's; JSON views of both tables; ISMCTS
  chooses a legal move; what is refused for six players (the equity reward, native policies,
  vector environments, the arena).
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections import Counter

import numpy
import playouts
import pytest
from test_differential_game import report
from test_reference_six import contract_deal, position

import burraco
import burraco.reference as reference
from burraco._errors import InvalidNotationError

TABLES = {"brazilian-6p": {}, "brazilian-6p-2s": {"sides": 2}}
IDS = tuple(TABLES)
SUITED = [rank + suit for suit in "cdhs" for rank in "A23456789TJQK"]
TAKEN = ("face_down", "seen", "in_hand")


def rules_of(engine, table: str):
    return engine.Rules("brazilian", players=6, **TABLES[table])


def random_game(engine, table: str, seed: int, moves: int):
    """The hand dealt by ``seed``, ``moves`` random moves in (fewer if it ends first)."""
    game = engine.Game(rules_of(engine, table), seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over():
            break
        legal = game.legal_moves()
        game.push(legal[rng.randrange(len(legal))])
    return game


def positions(table: str, seeds=range(6), every: int = 23):
    """Core games at every ``every`` moves of random hands (copies)."""
    found = []
    for seed in seeds:
        game = burraco.Game(rules_of(burraco, table), seed=seed)
        rng = random.Random(1000 + seed)
        while not game.is_over():
            if len(game.moves) % every == 0:
                found.append(game.copy())
            legal = game.legal_moves()
            game.push(legal[rng.randrange(len(legal))])
        found.append(game.copy())
    return found


# ---- rules (docs/game.md "Six players"; RULES F.7, G) ------------------------------------------


@pytest.mark.parametrize("table", IDS)
def test_rules_of_six_players_match_the_reference(table):
    core, ref = rules_of(burraco, table), rules_of(reference, table)
    assert core.knobs() == ref.knobs()
    assert list(core.knobs()) == list(ref.knobs())
    assert core.text == ref.text and repr(core) == repr(ref)
    assert core.players == 6 and core.decks == 3 and core.jokers == 6
    assert core.pozzetto_sizes == (11, 11, 11)
    assert core.sides == (2 if table.endswith("2s") else 3)
    assert core.total_cards == 162 and core.initial_stock == 63
    assert burraco.Rules.from_text(core.text) == core
    assert pickle.loads(pickle.dumps(core)) == core
    assert copy.deepcopy(core) == core


def test_rules_text_and_repr_name_only_what_differs():
    assert burraco.Rules("brazilian", players=6).text == "brazilian:players=6"
    assert burraco.Rules("brazilian", players=6, sides=2).text == "brazilian:players=6:sides=2"
    assert repr(burraco.Rules("brazilian", players=6, sides=2)) == \
        "Rules('brazilian', players=6, sides=2)"
    given = burraco.Rules("brazilian", players=6, decks=2, jokers=4)
    assert given.text == "brazilian:players=6:decks=2:jokers=4" == reference.Rules(
        "brazilian", players=6, decks=2, jokers=4).text
    assert burraco.Rules.from_text(given.text) == given


def test_sides_is_listed_with_six_players_only(engine):
    assert "sides" in engine.Rules("brazilian", players=6).knobs()
    for players in (2, 3, 4):
        rules = engine.Rules("italian", players=players)
        assert "sides" not in rules.knobs()
        assert rules.sides == (3 if players == 3 else 2)
        assert "sides" not in rules.text and "sides" not in repr(rules)


def test_a_new_player_count_starts_from_its_defaults(engine):
    six = engine.Rules("brazilian").replace(players=6)
    assert six == engine.Rules("brazilian", players=6)
    four = engine.Rules("brazilian", players=6, sides=2).replace(players=4)
    assert four == engine.Rules("brazilian")
    kept = engine.Rules("brazilian", players=6, match_target=3000).replace(sides=2)
    assert kept.match_target == 3000 and kept.sides == 2


@pytest.mark.parametrize("knobs, quoted", [
    ({"players": 4, "sides": 3}, "sides=3"),
    ({"players": 2, "sides": 3}, "sides=3"),
    ({"players": 3, "sides": 2}, "sides=2"),
    ({"players": 6, "sides": 4}, "4"),
    ({"players": 6, "sides": 1}, "1"),
    ({"players": 4, "pozzetto_sizes": (11, 11, 11)}, "(11, 11, 11)"),
    ({"players": 6, "pozzetto_sizes": (11, 11, 11, 11)}, "(11, 11, 11, 11)"),
    ({"players": 5}, "5"),
], ids=repr)
def test_both_engines_refuse_layouts_quoting_the_value(engine, knobs, quoted):
    with pytest.raises(InvalidNotationError) as excinfo:
        engine.Rules("brazilian", **knobs)
    assert quoted in str(excinfo.value), str(excinfo.value)
    rules = engine.Rules("brazilian")
    with pytest.raises(InvalidNotationError):
        rules.replace(**knobs)
    assert rules == engine.Rules("brazilian")


# ---- the deal (docs/game.md "Deal", "Six players") ---------------------------------------------


@pytest.mark.parametrize("table", IDS)
@pytest.mark.parametrize("seed", [0, 1, 77, 2**64 - 1])
def test_the_core_deals_as_the_contract_and_the_reference(table, seed):
    expected = contract_deal(seed)
    game = burraco.Game(rules_of(burraco, table), seed=seed)
    for seat in range(6):
        assert game.hand(seat) == burraco.Cards(expected["hands"][seat], decks=3)
    fields = playouts.state_fields(game.state_string())
    assert fields["pozzetti"] == "/".join("u:" + "".join(packet) for packet in expected["packets"])
    assert [str(card) for card in game.stock] == expected["stock"]
    assert game.top_discard is None and game.stock_size == 63
    assert game.state_string() == reference.Game(rules_of(reference, table), seed=seed).state_string()


def test_the_deal_known_answers():
    # docs/game.md "Seats, sides, packets", six players, seed 1.
    game = burraco.Game(burraco.Rules("brazilian", players=6), seed=1)
    assert str(game.hand(0)) == "4c 6c 3d 6d 9d Td Kh As 4s 9s Jk"
    assert [str(card) for card in game.stock[:3]] == ["Kh", "5d", "Qc"]
    packets = playouts.state_fields(game.state_string())["pozzetti"].split("/")
    assert [packet[2:8] for packet in packets] == ["6cJsTd", "4cTh6h", "Jc2dQh"]
    assert contract_deal(1)["deck"][:12] == "Td 8c Kd Qd 3d 3c 4s 9d 7s 9h 2c Th".split()
    two_sides = burraco.Game(burraco.Rules("brazilian", players=6, sides=2), seed=1)
    assert [two_sides.hand(seat) for seat in range(6)] == [game.hand(seat) for seat in range(6)]


@pytest.mark.parametrize("table", IDS)
def test_an_explicit_deck_is_dealt_alike(table):
    order = [kind for _copy in range(3) for kind in SUITED] + ["Jk"] * 6
    random.Random(5).shuffle(order)
    core = burraco.Game(rules_of(burraco, table), deck=order, first_player=2)
    ref = reference.Game(rules_of(reference, table), deck=order, first_player=2)
    assert core.state_string() == ref.state_string()
    assert core.seed is None
    fields = playouts.state_fields(core.state_string())
    assert fields["pozzetti"].split("/")[1].startswith("u:" + order[67] + order[70])
    assert fields["stock"].startswith(order[99] + order[100])


# ---- lockstep with the reference ------------------------------------------------------------------

HANDS = 6  # a table and policy, default run; seeds HANDS..CI_HANDS-1 are the rest (-m slow, CI)
CI_HANDS = 100
SLOW_HANDS = 200
SLOW_FIRST_SEED = 1_000_000


def lockstep(table: str, policy: str, seeds) -> playouts.Events:
    done = playouts.lockstep_many(table, policy, seeds)
    assert all(p.disagreement is None for p in done), report(done)
    assert all(p.end_reason is not None for p in done)
    events = playouts.Events()
    for p in done:
        events.add(p.events)
    print(f"{table} {policy}: {events.summary()}")
    return events


@pytest.mark.parametrize("policy", playouts.POLICIES)
@pytest.mark.parametrize("table", IDS)
def test_lockstep_hands(table, policy):
    lockstep(table, policy, range(HANDS))


@pytest.mark.slow
@pytest.mark.parametrize("policy", playouts.POLICIES)
@pytest.mark.parametrize("table", IDS)
def test_lockstep_rest_hands(table, policy):
    """The seeds the default run leaves out, up to CI_HANDS (CI's slow step runs them)."""
    lockstep(table, policy, range(HANDS, CI_HANDS))


@pytest.mark.slow
@pytest.mark.parametrize("policy", playouts.POLICIES)
@pytest.mark.parametrize("table", IDS)
def test_lockstep_hands_slow(table, policy):
    lockstep(table, policy, range(SLOW_FIRST_SEED, SLOW_FIRST_SEED + SLOW_HANDS))


# ---- pots and the reserve (RULES C.4, D.3, F.7) ---------------------------------------------------


def packet_statuses(game) -> tuple[str, ...]:
    return tuple(status for status, _owner, _cards in game.pozzetti)


def side_has_packet(game, side: int) -> bool:
    return any(status in TAKEN and game.side_of(owner) == side
               for status, owner, _cards in game.pozzetti)


@pytest.mark.parametrize("table", IDS)
def test_pots_and_the_reserve_in_random_hands(table):
    """The third packet is a pot with three sides and only a stock reserve with two: no side ever
    takes it, it may become the stock. A side with no packet and no pot to take cannot empty its
    hand: no legal move leaves the seat with no cards (checked at up to 300 such positions)."""
    rules = rules_of(burraco, table)
    seen: Counter = Counter()
    for seed in range(120):
        game = burraco.Game(rules, seed=seed)
        rng = random.Random(seed)
        while not game.is_over():
            statuses = packet_statuses(game)
            owners = [number for number, status in enumerate(statuses) if status in TAKEN]
            assert all(number < rules.sides for number in owners), (seed, statuses)
            sides_with = [game.side_of(game.pozzetti[number][1]) for number in owners]
            assert len(sides_with) == len(set(sides_with)), (seed, game.pozzetti)
            seen["third packet taken"] += 2 in owners
            seen["third packet the stock"] += statuses[2] == "stock"
            untaken = [number for number, status in enumerate(statuses) if status == "untaken"]
            pot = untaken[0] if untaken and untaken[0] < rules.sides else None
            side = game.side_of(game.turn)
            fields = playouts.state_fields(game.state_string())
            if (game.phase == "meld" and pot is None and not side_has_packet(game, side)
                    and fields["opened"].split(",")[side] == "1"
                    and seen["no pot, no packet"] < 300):
                seen["no pot, no packet"] += 1
                seat = game.turn
                for move in game.legal_moves():
                    after = game.copy()
                    after.push(move)
                    assert len(after.hand(seat)) > 0, (game.state_string(), str(move))
            legal = game.legal_moves()
            game.push(legal[rng.randrange(len(legal))])
    if rules.sides == 3:
        assert seen["third packet taken"] > 0, seen
    else:
        assert seen["third packet taken"] == 0 and seen["third packet the stock"] > 0, seen
        assert seen["no pot, no packet"] > 0, seen


def reserve_taken_state() -> str:
    """A two-sides position (packet 0 the stock, packet 1 held by one side, packet 2 untaken)
    rewritten so that a seat of the other side, with melds, holds packet 2 in its hand."""
    rules = rules_of(burraco, "brazilian-6p-2s")
    for seed in range(200):
        game = burraco.Game(rules, seed=seed)
        rng = random.Random(seed)
        while not game.is_over():
            statuses = packet_statuses(game)
            if game.phase == "draw" and statuses[0] == "stock" and statuses[1] in TAKEN \
                    and statuses[2] == "untaken":
                holder = game.side_of(game.pozzetti[1][1])
                seats = [q for q in range(6) if game.side_of(q) != holder
                         and game.melds(game.side_of(q)) and q != game.turn]
                if seats:
                    seat = seats[0]
                    fields = playouts.state_fields(game.state_string())
                    packets = fields["pozzetti"].split("/")
                    packet = packets[2][2:]
                    cards = burraco.Cards(" ".join(packet[i:i + 2] for i in range(0, len(packet), 2)),
                                          decks=3) + game.hand(seat)
                    hands = fields["hands"].split("/")
                    hands[seat] = str(cards).replace(" ", "")
                    fields["hands"] = "/".join(hands)
                    packets[2] = f"h{seat}:-"
                    fields["pozzetti"] = "/".join(packets)
                    return game.state_string(), ";".join(f"{k}={v}" for k, v in fields.items())
            legal = game.legal_moves()
            game.push(legal[rng.randrange(len(legal))])
    raise AssertionError("no position found")


def test_the_validator_refuses_the_reserve_as_a_pozzetto(engine):
    real, rewritten = reserve_taken_state()
    assert engine.Game.from_state_string(real).state_string() == real
    with pytest.raises(engine.InvalidStateError) as excinfo:
        engine.Game.from_state_string(rewritten)
    assert "stock reserve" in str(excinfo.value), str(excinfo.value)


# ---- results, matches, batch playouts (RULES E) ---------------------------------------------------


@pytest.mark.parametrize("table", IDS)
def test_results_have_a_side_result_per_side_that_adds_up(table):
    for seed in range(12):
        core = random_game(burraco, table, seed, 5000)
        ref = random_game(reference, table, seed, 5000)
        assert core.state_string() == ref.state_string()
        result = core.result()
        assert playouts.result_view(result) == playouts.result_view(ref.result())
        assert [side.side for side in result.sides] == list(range(core.rules.sides))
        assert result.player_scores is None
        for side in result.sides:
            assert side.total == (side.melds + side.bonuses + side.closing + side.hand
                                  + side.pozzetto + side.cut)
        assert pickle.loads(pickle.dumps(result)) == result


def test_three_sides_scored_by_hand():
    """RULES E for three sides of two (brazilian: an unplayed pozzetto costs min(value, 100))."""
    rules = burraco.Rules("brazilian", players=6)
    for seed in range(6):
        game = random_game(burraco, "brazilian-6p", seed, 5000)
        result = game.result()
        assert len(result.sides) == 3
        for side in result.sides:
            seats = [q for q in range(6) if q % 3 == side.side]
            assert side.hand == -sum(rules.card_points(card) for q in seats for card in game.hand(q))
            assert side.melds == sum(meld.points for meld in game.melds(side.side))
            assert side.bonuses == sum(meld.bonus for meld in game.melds(side.side))
            assert side.closing == (rules.closing_bonus if result.closing_side == side.side else 0)
            held = [cards for status, owner, cards in game.pozzetti
                    if status in TAKEN and owner in seats]
            waiting = [cards for status, owner, cards in game.pozzetti
                       if status in ("face_down", "seen") and owner in seats]
            if not held:
                assert side.pozzetto == -rules.no_pozzetto_penalty
            elif waiting:
                value = sum(rules.card_points(card) for card in waiting[0])
                assert side.pozzetto == -min(value, 100)
            else:
                assert side.pozzetto == 0


@pytest.mark.parametrize("table", IDS)
def test_matches_and_batch_playouts_have_a_score_per_side(table):
    sides = 2 if table.endswith("2s") else 3
    core, ref = burraco.Match(rules_of(burraco, table), seed=4), \
        reference.Match(rules_of(reference, table), seed=4)
    for _ in range(2):
        core.play_hand("random")
        ref.play_hand("random")
    assert len(core.scores) == sides and tuple(core.scores) == tuple(ref.scores)
    assert pickle.loads(pickle.dumps(core)).scores == core.scores
    out = burraco.playouts(rules_of(burraco, table), 12, seed=3)
    expected = reference.playouts(rules_of(reference, table), 12, seed=3)
    assert out["scores"].shape == (12, sides)
    for column in ("seed", "scores", "moves", "end_reason"):
        assert numpy.array_equal(out[column], expected[column]), column


@pytest.mark.parametrize("table", IDS)
@pytest.mark.parametrize("policy", ["random", "greedy", "heuristic"])
def test_the_policies_play_six_player_hands(table, policy):
    game = burraco.Game(rules_of(burraco, table), seed=8)
    game.playout(policy, 8)
    assert game.is_over() and len(game.result().sides) == game.rules.sides
    if policy != "heuristic":  # the heuristic is the core's own (no reference twin)
        ref = reference.Game(rules_of(reference, table), seed=8)
        ref.playout(policy, 8)
        assert ref.state_string() == game.state_string()


# ---- state strings, records, pickles ------------------------------------------------------------


@pytest.mark.parametrize("table", IDS)
def test_round_trips(table):
    for game in positions(table, seeds=range(3), every=31):
        text = game.state_string()
        assert reference.Game.from_state_string(text).state_string() == text
        assert burraco.Game.from_state_string(text).state_string() == text
        fields = playouts.state_fields(text)
        slots = 2 if table.endswith("2s") else 3
        assert len(fields["melds"].split("/")) == slots
        assert len(fields["opened"].split(",")) == len(fields["need"].split(",")) == slots
        assert len(fields["scores"].split(",")) == slots
        assert len(fields["pozzetti"].split("/")) == 3
        assert pickle.loads(pickle.dumps(game)).state_string() == text
        assert copy.deepcopy(game).state_string() == text
        record = game.record()
        assert burraco.Game.from_record(record).state_string() == text
        assert reference.Game.from_record(record).state_string() == text
        assert record == reference.Game.from_record(record).record()


@pytest.mark.parametrize("table", IDS)
def test_scores_of_every_side_in_state_and_game(table):
    sides = 2 if table.endswith("2s") else 3
    scores = (100, -40, 2000)[:sides]
    core = burraco.Game(rules_of(burraco, table), seed=2, scores=scores)
    ref = reference.Game(rules_of(reference, table), seed=2, scores=scores)
    assert core.scores == scores and core.state_string() == ref.state_string()
    with pytest.raises(InvalidNotationError):
        burraco.Game(rules_of(burraco, table), seed=2, scores=(0,) * (5 - sides))


@pytest.mark.parametrize("table", IDS)
def test_json_views_name_every_side(table):
    """docs/records.md "JSON views" with six players: a seat entry per seat with its side (seat %
    sides), a side entry per side with its seats, melds, opening and need, three pozzetti; both
    engines write the same text, and the full view restores the game. (tests/test_json_views.py
    checks every seat's view of whole hands for hidden cards.)"""
    sides = 2 if table.endswith("2s") else 3
    game = random_game(burraco, table, seed=4, moves=120)
    ref = reference.Game.from_state_string(game.state_string())
    full = json.loads(game.to_json())
    assert full["players"] == 6 and len(full["scores"]) == sides
    assert [seat["side"] for seat in full["seats"]] == [seat % sides for seat in range(6)]
    assert [(side["side"], side["seats"]) for side in full["sides"]] == \
        [(side, list(range(side, 6, sides))) for side in range(sides)]
    assert [len(side["melds"]) for side in full["sides"]] == \
        [len(game.melds(side)) for side in range(sides)]
    assert sum(len(side["melds"]) for side in full["sides"]) > 0  # 120 moves in, something is down
    assert all(isinstance(side["opened"], bool) and side["need"] >= 0 for side in full["sides"])
    assert len(full["pozzetti"]) == 3
    assert ref.to_json() == game.to_json()
    for engine in (burraco, reference):
        assert engine.Game.from_json(game.to_json()).state_string() == game.state_string()
    for player in range(6):
        view = json.loads(game.to_json(player=player))
        assert ref.to_json(player=player) == game.to_json(player=player)
        assert [seat["hand"] is None for seat in view["seats"]] == \
            [seat != player for seat in range(6)]
        assert view["sides"] == full["sides"]  # the melds are public
        assert (view["legal_moves"] is not None) == (player == game.turn)
        with pytest.raises(burraco.InvalidStateError):
            burraco.Game.from_json(game.to_json(player=player))
    game.playout("random", 4)
    over = json.loads(game.to_json())
    assert over["result"] is not None and len(over["result"]["sides"]) == sides
    assert reference.Game.from_state_string(game.state_string()).to_json() == game.to_json()


# ---- observation tensors, determinization, ISMCTS (docs/search.md) -------------------------------


@pytest.mark.parametrize("table", IDS)
def test_observation_tensors_equal_the_reference(table):
    checked = 0
    for game in positions(table):
        ref = reference.Game.from_state_string(game.state_string())
        for player in range(6):
            tensor = game.observation_tensor(player)
            assert tensor.shape == (681,) and tensor.dtype == numpy.float32
            assert numpy.array_equal(tensor, ref.observation_tensor(player)), \
                (game.state_string(), player)
            out = numpy.full(681, 7.0, numpy.float32)
            assert game.observation_tensor(player, out=out) is out or numpy.array_equal(out, tensor)
            assert str(game.observation(player)) == str(ref.observation(player))
            checked += 1
    assert checked > 100
    with pytest.raises(InvalidNotationError):
        game.observation_tensor(0, out=numpy.zeros(511, numpy.float32))


def test_two_deck_tensors_keep_their_size():
    assert burraco.Game(burraco.Rules("italian"), seed=1).observation_tensor(0).shape == (511,)
    assert burraco.Game(burraco.Rules("brazilian", decks=3, jokers=6),
                        seed=1).observation_tensor(0).shape == (511,)


@pytest.mark.parametrize("table", IDS)
def test_determinization_equals_the_reference(table):
    for number, game in enumerate(positions(table, seeds=range(3), every=37)):
        if game.is_over():
            continue
        ref = reference.Game.from_state_string(game.state_string())
        player = game.turn
        made = game.determinize(player, number)
        assert made.state_string() == ref.determinize(player, number).state_string()
        assert made.observation(player) == game.observation(player)
        assert made.hand(player) == game.hand(player)
        assert [len(made.hand(q)) for q in range(6)] == [len(game.hand(q)) for q in range(6)]


@pytest.mark.parametrize("table", IDS)
def test_ismcts_chooses_a_legal_move(table):
    game = random_game(burraco, table, 6, 40)
    search = burraco.ISMCTS(iterations=60, seed=2)
    move = search.choose(game)
    assert move in game.legal_moves()
    if table == "brazilian-6p":
        with pytest.raises(burraco.BurracoError, match="three sides"):
            burraco.ISMCTS(iterations=10, seed=1, reward="equity").choose(game)


# ---- refused for six players ------------------------------------------------------------------------


def test_vector_environments_and_the_arena_refuse_six_players():
    rules = burraco.Rules("brazilian", players=6)
    with pytest.raises(InvalidNotationError, match="six players"):
        burraco._core.VectorGames(rules, 2)
    with pytest.raises(InvalidNotationError, match="six players"):
        burraco._core._arena_pairs(rules, "random", "greedy", seed=1, first=0, stop=1, threads=1,
                                   keep_moves=False, progress=None, matches=False)


def test_the_gymnasium_env_plays_a_six_player_seat():
    pytest.importorskip("gymnasium")
    from burraco.envs.gymnasium import BurracoEnv

    env = BurracoEnv(preset=burraco.Rules("brazilian", players=6))
    observation, info = env.reset(seed=1)
    assert observation.shape == (681,) and env.observation_space.contains(observation)
    for _ in range(3000):
        action = env.action_space.sample(mask=info["action_mask"])
        observation, _reward, terminated, truncated, info = env.step(action)
        assert env.observation_space.contains(observation)
        if terminated or truncated:
            break
    assert terminated


# ---- tables of more than 36 melds (RULES F.7; docs/game.md "Three decks in the core") ----------

SIDE_0_SETS = [f"{rank}c {rank}d {rank}h" for rank in "A3456789TJQK"]  # 12 sets: one a rank
RUNS = ["3{0} 4{0} 5{0}", "6{0} 7{0} 8{0}", "9{0} T{0} J{0}", "Q{0} K{0} A{0}"]


def many_melds(engine, runs: int):
    """Two sides of three; side 0 has 12 sets and ``runs`` runs of three (spades, then clubs,
    hearts, diamonds): 12 + ``runs`` melds, meld 36 (with runs=25) the run 3h 4h 5h; side 1 none.
    Seat 0 holds 6h 7h 8h 9h Th 2d 2h Jk and acts in its meld phase."""
    suits = ["s"] * 3 + ["c"] * 2 + ["h"] * 2 + ["d"] * 2  # the copies left after the sets
    run_melds = [run.format(suit) for suit in suits for run in RUNS][:runs]
    hands = {0: "6h 7h 8h 9h Th 2d 2h Jk", 1: "2c", 2: "2d", 3: "2h", 4: "2s", 5: "2c"}
    ref = position(reference.Rules("brazilian", players=6, sides=2), turn=0, hands=hands,
                   melds={0: SIDE_0_SETS + run_melds},
                   packets=[("h0", None), ("u", "3d 3d 4d 4d 5d 5d 6d 6d 7d 7d 8d"), ("u", "8d 9d 9d Td Td Jd Jd Qd Qd Kd Kd")],
                   stock=4, pile_top="Jk", opened="1,0", need="50,50")
    text = ref.state_string()
    return ref if engine is reference else burraco.Game.from_state_string(text)


def test_a_table_of_more_than_36_melds_plays_in_both_engines():
    """RULES F.7: an engine accepts every meld the rules allow, however many are down. A table of
    37 melds (side 0: 12 sets and 25 runs) reads, plays and writes alike in both engines: a
    lay-off goes on side 0's meld 36, a new meld makes the 38th and takes a lay-off too, each with
    its action id (lay-offs on meld 36 and up come after the meld table: docs/search.md), and the
    state string, records, pickles and JSON views carry all of them."""
    games = {engine: many_melds(engine, runs=25) for engine in (burraco, reference)}
    core, ref = games[burraco], games[reference]
    text = ref.state_string()
    assert core.state_string() == text
    assert [len(core.melds(side)) for side in (0, 1)] == [37, 0]
    assert str(core.melds(0)[36]) == str(ref.melds(0)[36]) == "3h 4h 5h"
    moves = [str(move) for move in ref.legal_moves()]
    assert [str(move) for move in core.legal_moves()] == moves
    assert {"meld 7h 8h 9h", "add 36 6h"} <= set(moves)
    late = burraco.Game(burraco.Rules("brazilian", players=6, sides=2)).action_size - 18 * 53
    for game in (core, ref):
        assert game.action_id("add 36 6h") == late + 31  # 6h: card index 2 * 13 + 6 - 1
        assert str(game.action_move(late + 31)) == "add 36 6h"
        assert game.action_id("add 35 6h") == 57 + 53 * 35 + 31  # where it always was
        assert game.action_id("add 53 Jk") == game.action_size - 1  # 54 melds: the most of 162
        with pytest.raises(InvalidNotationError, match="add 54 Jk"):
            game.action_id("add 54 Jk")
    assert core.legal_mask().tolist() == ref.legal_mask().tolist()
    for move in ("add 36 6h", "meld 7h 8h 9h", "add 37 Th"):
        for game in (core, ref):
            game.push(move)
        assert core.state_string() == ref.state_string(), move
        assert [str(m) for m in core.legal_moves()] == [str(m) for m in ref.legal_moves()]
    assert [len(core.melds(side)) for side in (0, 1)] == [38, 0]
    assert str(core.melds(0)[36]) == "3h 4h 5h 6h" and str(core.melds(0)[37]) == "7h 8h 9h Th"
    text = core.state_string()
    assert burraco.Game.from_state_string(text).state_string() == text
    assert reference.Game.from_state_string(text).state_string() == text
    assert pickle.loads(pickle.dumps(core)).state_string() == text
    assert copy.copy(core) == core and copy.copy(core).state_string() == text
    record = core.record()
    assert record == ref.record()
    assert burraco.Game.from_record(record).state_string() == text
    assert core.to_json() == ref.to_json()
    assert sum(len(side["melds"]) for side in json.loads(core.to_json())["sides"]) == 38
    assert burraco.Game.from_json(core.to_json()).state_string() == text
    for _ in range(3):  # undo the three moves: the 37-meld table again
        core.pop()
    assert core.state_string() == many_melds(reference, runs=25).state_string()


def test_a_meld_past_36_is_refused_only_for_its_own_reasons():
    """With 37 melds down, a bad meld or lay-off is refused as on any table (no cap names
    itself), and nothing changes."""
    core = many_melds(burraco, runs=25)
    text = core.state_string()
    for move in ("meld 6h 2d Jk", "add 36 9h"):  # two wilds; not beside the run
        with pytest.raises(burraco.IllegalMoveError) as raised:
            core.push(move)
        assert "36 melds" not in str(raised.value) and "most the core keeps" not in str(raised.value)
    assert core.state_string() == text and core.moves == []


def pick_small_melds(rng: random.Random, moves: list[str]) -> int:
    """A player who keeps many small melds: takes the pile one time in two, puts down every new
    meld it can, always one of the fewest cards, never lays off, then discards."""
    kinds = [playouts.kind_of(move) for move in moves]
    if kinds[0] in playouts.DRAW_KINDS:
        if "pile" in kinds and rng.random() < 0.5:
            return kinds.index("pile")
        return kinds.index("draw") if "draw" in kinds else rng.randrange(len(moves))
    melds = [i for i, kind in enumerate(kinds) if kind == "meld"]
    if melds:
        fewest = min(len(moves[i].split()) for i in melds)
        return rng.choice([i for i in melds if len(moves[i].split()) == fewest])
    discards = [i for i, kind in enumerate(kinds) if kind == "discard"]
    return rng.choice(discards or range(len(moves)))


# Seeds whose hands put more than 36 melds down with pick_small_melds (found with the core, then
# checked here in lockstep): the most melds each reaches.
SMALL_MELD_HANDS = {"brazilian-6p": {1: 43, 8: 37}, "brazilian-6p-2s": {1: 44, 10: 39}}


@pytest.mark.parametrize("table", IDS)
def test_hands_of_more_than_36_melds_in_lockstep(table):
    """Random six-player three-deck hands of players who keep many small melds go past 36 melds
    in real play (about one hand in two), move for move alike in both engines: state strings,
    legal moves, accessors, results."""
    for seed, most in SMALL_MELD_HANDS[table].items():
        done = playouts.lockstep(burraco, reference, table, seed, "small", choose=pick_small_melds)
        assert done.disagreement is None, report([done])
        assert done.end_reason is not None
        game = burraco.Game(rules_of(burraco, table), seed=seed)
        counts = []
        for move in done.moves:
            game.push(move)
            counts.append(sum(len(game.melds(side)) for side in range(game.rules.sides)))
        assert max(counts) == most > 36
