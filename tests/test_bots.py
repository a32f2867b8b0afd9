"""The bots (docs/bots.md): the heuristic policy, greedy's pile rule, and the arena.

* ``heuristic`` plays legal moves to the end of every hand, draws no random numbers, and reads
  only what the seat to act may see: two games that differ only in the cards that seat cannot see
  (``game.determinize``) get the same move.
* greedy takes the pile by its documented pattern, in both engines.
* The arena: the games do not depend on the threads; each game is the hand its record replays
  to; the first bot holds the even seats in game 0 and the odd ones in game 1; bad specs and
  arguments are refused quoting them; the statistics (Wilson interval, Bradley-Terry) give known
  answers; ``burraco arena`` prints its table and writes one record per game.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

import burraco
from burraco import reference as R
from burraco.arena import bot, bradley_terry, duel, tournament, wilson_interval
from burraco.cli import main

TWO_SIDED = ["italian", "italian-2p", "online-2p", "brazilian"]


# ---- heuristic -----------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["italian", "italian-2p", "italian-3p", "online-2p", "brazilian"])
def test_heuristic_hands_are_legal_end_and_use_no_randomness(preset):
    rules = burraco.Rules(preset)
    for seed in range(3):
        game = burraco.Game(rules, seed=seed)
        twin = burraco.Game(rules, seed=seed)
        played = game.playout("heuristic", 0)
        assert game.is_over() and played == len(game.moves)
        twin.playout("heuristic", 2**64 - 1)  # another stream: the same hand
        assert [str(m) for m in twin.moves] == [str(m) for m in game.moves]
        replay = burraco.Game(rules, seed=seed)
        for move in game.moves:  # every move legal where it was played
            assert move in replay.legal_moves()
            replay.push(move)


@pytest.mark.parametrize(("preset", "knobs"), [
    ("italian-2p", {}), ("online-2p", {}), ("brazilian", {"players": 2}),
    ("brazilian", {"hand_size": 3, "opening_fail_increment": 0}),
    ("online-2p", {"opening_minimum": ((0, 105712), (1713, 0), (449395, 15), (515691, 1)),
                   "opening_fail_increment": 1000000}),
])
def test_heuristic_self_play_ends_without_deadlocks_or_returning_loops(preset, knobs):
    """Two seats taking a one-card pile back and forth end the hand by deadlock (RULES D.4), and a
    short opening's cards laid down again and again loop until the move cap (RULES C.3): the
    heuristic plays neither, so its self-play ends by closing or by the stock."""
    batch = burraco.playouts(burraco.Rules(preset, **knobs), 60, seed=2, policy="heuristic",
                             threads=2)
    assert 3 not in set(batch["end_reason"].tolist())  # no deadlock
    assert batch["moves"].max() < 2000


@pytest.mark.parametrize("preset", ["italian", "italian-2p", "brazilian"])
def test_heuristic_reads_only_what_the_seat_sees(preset):
    rules = burraco.Rules(preset)
    checked = 0
    for seed in range(4):
        game = burraco.Game(rules, seed=seed)
        while not game.is_over() and len(game.moves) < 160:
            seat = game.turn
            move = game.policy_move("heuristic", 0)
            for other in (1, 2):
                guessed = game.determinize(seat, seed * 100 + other)
                assert guessed.policy_move("heuristic", 0) == move, game.state_string()
                checked += 1
            game.push(move)
    assert checked > 100


def test_heuristic_beats_random_and_greedy_on_a_small_arena():
    """A sanity check of strength, not the measured figures of docs/bots.md: over 30 pairs the
    heuristic wins clearly against random and more than half against greedy."""
    rules = burraco.Rules("italian-2p")
    assert duel(rules, "heuristic", "random", pairs=30, seed=3).win_rate >= 0.9
    assert duel(rules, "heuristic", "greedy", pairs=30, seed=3).win_rate > 0.5


def test_four_player_heuristic_beats_greedy_on_the_pairs_of_the_docs():
    """The four-player parameter set against greedy on the 500 pairs docs/bots.md quotes (seed 1):
    measured 90.6 %, the issue's target being 90 %. The games depend on neither threads nor load,
    so the floor is the target itself; the set before it won 88.0 % of the same pairs, and plays
    on as 'heuristic:4p-opening'."""
    result = duel(burraco.Rules("italian"), "heuristic", "greedy", pairs=500, seed=1, threads=2)
    assert result.win_rate >= 0.90, result.win_rate
    before = duel(burraco.Rules("italian"), "heuristic:4p-opening", "greedy", pairs=500, seed=1, threads=2)
    assert before.win_rate < result.win_rate, (before.win_rate, result.win_rate)


def _side_has_burraco(game, side):
    """Whether `side` has a meld of seven cards or more (a burraco)."""
    return any(len(m.cards) >= 7 for m in game.melds(side))


def test_four_player_heuristic_takes_piles_of_three_until_the_other_side_has_a_burraco():
    """docs/bots.md: with four players a pile of three cards or more is taken without imagining the
    turn until the other side has laid a burraco (late piles; the race comes later still), and is
    then judged like a smaller one, so that some are left; with two players every pile is
    judged."""
    taken = judged = late_left = 0
    for preset in ("italian", "italian-2p"):
        for seed in range(12):
            game = burraco.Game(burraco.Rules(preset), seed=seed)
            while not game.is_over():
                moves = game.legal_moves()
                move = game.policy_move("heuristic", 0)
                if game.phase == "draw" and "pile" in moves and len(game.discard_pile) >= 3:
                    other = 1 - game.side_of(game.turn)
                    if preset == "italian" and not _side_has_burraco(game, other):
                        assert str(move) == "pile", game.state_string()
                        taken += 1
                    else:
                        judged += str(move) == "draw"
                        late_left += preset == "italian" and str(move) == "draw"
                game.push(move)
    assert taken > 50 and judged > 5 and late_left > 0, (taken, judged, late_left)


def test_the_reference_refuses_heuristic_by_name():
    game = R.Game(R.Rules("italian-2p"), seed=1)
    before = game.state_string()
    for name in ("heuristic", "heuristic:2p"):
        with pytest.raises(burraco.PolicyError, match="core engine only"):
            game.playout(name, 0)
        with pytest.raises(burraco.PolicyError, match=f"'{name}' is built into the core"):
            R.Policy(name)
    assert game.state_string() == before


@pytest.mark.parametrize("preset, same, other", [("italian", "heuristic:4p", "heuristic:2p"),
                                                 ("italian", "heuristic:4p", "heuristic:4p-opening"),
                                                 ("italian-2p", "heuristic:2p", "heuristic:4p"),
                                                 ("brazilian", "heuristic:4p-opening", "heuristic:4p")])
def test_heuristic_parameter_sets_by_name(preset, same, other):
    """'heuristic' plays the set of the rules and the number of players; 'heuristic:2p',
    'heuristic:4p' and 'heuristic:4p-opening' name one set whatever the game: the set of the game
    plays 'heuristic' move for move, another set plays other moves."""
    rules = burraco.Rules(preset)
    plays = {name: duel(rules, name, "greedy", pairs=8, seed=2, keep_moves=True).games["history"]
             for name in ("heuristic", same, other)}
    assert [list(h) for h in plays[same]] == [list(h) for h in plays["heuristic"]]
    assert [list(h) for h in plays[other]] != [list(h) for h in plays["heuristic"]]
    policy = burraco.Policy(same)
    assert (policy.name, policy.kind, policy.spec) == (same, "builtin", same)
    game = burraco.Game(rules, seed=4)
    assert game.copy().playout(same, 0) == game.copy().playout("heuristic", 0)


@pytest.mark.parametrize("name", ["heuristic:3p", "heuristic:", "heuristic:2p:x"])
def test_unknown_heuristic_sets_are_refused_quoting_them(name):
    game = burraco.Game(burraco.Rules("italian-2p"), seed=1)
    before = game.state_string()
    with pytest.raises(burraco.InvalidNotationError, match=re.escape(repr(name))):
        game.playout(name, 0)
    with pytest.raises(burraco.InvalidNotationError, match=re.escape(repr(name))):
        burraco.Policy(name)
    assert game.state_string() == before


def test_the_single_set_loses_to_the_four_player_set_with_four_players():
    """docs/bots.md: the four-player set against the two-player (single) set on four-player pairs."""
    result = duel(burraco.Rules("italian"), "heuristic", "heuristic:2p", pairs=600, seed=1, threads=2)
    assert result.win_rate > 0.5, result.win_rate


# ---- greedy's pile rule --------------------------------------------------------------------------


def _draw_position(engine, hand: str, pile: str, top: str, preset="italian-2p"):
    """A draw-phase position of seat 0 with this hand and pile (the rest as the deal left it)."""
    game = engine.Game(engine.Rules(preset), seed=11)
    fields = dict(part.split("=", 1) for part in game.state_string().split(";"))
    hands = fields["hands"].split("/")
    # Move every card between the hand, the pile and the stock: rebuild the fields from the deck.
    deck = engine.Cards(" ".join(c for field in (hands[0], hands[1], fields["pile"], fields["stock"])
                                 if field != "-" for c in _cards_of(field)))
    wanted = engine.Cards(hand) + engine.Cards(pile)
    rest = deck - wanted
    rest_list = [str(c) for c in rest]
    other = rest_list[:len(_cards_of(hands[1]))]
    stock = rest_list[len(other):]
    fields["hands"] = f"{engine.Cards(hand).__str__().replace(' ', '')}/{''.join(other)}"
    fields["known"] = "-/-"
    fields["pile"] = str(engine.Cards(pile)).replace(" ", "")
    fields["top"] = top
    fields["stock"] = "".join(stock)
    text = ";".join(f"{k}={v}" for k, v in fields.items())
    return engine.Game.from_state_string(text)


def _cards_of(field: str) -> list[str]:
    return [field[i:i + 2] for i in range(0, len(field), 2)]


@pytest.mark.parametrize("engine", [burraco, R], ids=["core", "reference"])
@pytest.mark.parametrize(("hand", "pile", "top", "expected"), [
    ("5h 5s 9c Jd Kd", "7c", "7c", "draw"),              # nothing to do with it
    ("5h 5s 9c Jd Kd", "5c", "5c", "pile"),              # three of a kind
    ("6c 8c 9h Jd Kd", "7c", "7c", "pile"),              # 6 7 8 of clubs
    ("Qc Kc 9h Jd 4s", "Ac", "Ac", "pile"),              # Q K A
    ("3c 2c 9h Jd 4s", "Ac", "Ac", "draw"),              # A 2 3 is no row (the two is wild)
    ("5h 5s 9c Jd Kd", "Jk", "Jk", "draw"),              # a wild on top
    ("5h 6s 9c Jd Kd", "3d 8h Qs 4c", "4c", "pile"),     # four cards
    ("5h 6s 9c Jd Kd", "3d 8h Qs", "Qs", "draw"),        # three cards, no pattern
])
def test_greedy_takes_the_pile_by_its_pattern(engine, hand, pile, top, expected):
    game = _draw_position(engine, hand, pile, top)
    assert str(game.policy_move("greedy", 0)) == expected


# ---- the arena -----------------------------------------------------------------------------------


def test_arena_games_do_not_depend_on_the_threads():
    rules = burraco.Rules("italian")
    one = duel(rules, "heuristic", "greedy", pairs=6, seed=5, threads=1, keep_moves=True)
    two = duel(rules, "heuristic", "greedy", pairs=6, seed=5, threads=2, keep_moves=True)
    for key in ("pair", "game", "hand_seed", "scores", "moves", "end_reason", "decisions"):
        assert np.array_equal(one.games[key], two.games[key]), key
    assert one.games["history"] == two.games["history"]
    assert one.margins == two.margins


@pytest.mark.parametrize("preset", TWO_SIDED)
def test_arena_games_are_the_hands_their_moves_replay(preset):
    rules = burraco.Rules(preset)
    result = duel(rules, "heuristic", "random", pairs=2, seed=9, keep_moves=True)
    games = result.games
    assert list(games["pair"]) == [0, 0, 1, 1] and list(games["game"]) == [0, 1, 0, 1]
    for row, moves in enumerate(games["history"]):
        seed = int(games["hand_seed"][row])
        assert seed == int(burraco.playouts(rules, 2, seed=9)["seed"][row // 2])
        game = burraco.Game(rules, seed=seed)
        for move in moves:
            game.push(move)
        assert game.is_over() and len(moves) == games["moves"][row]
        totals = [side.total for side in game.result().sides][:2]
        assert totals == list(games["scores"][row])
        assert sum(games["decisions"][row]) == len(moves)


def test_arena_seats_bot_a_on_the_even_seats_then_the_odd_ones():
    """Bot a, a Python policy, notes the seat of every view it gets; on one thread game 0 is
    played before game 1, and the decision counts split the notes between them."""
    seats: list[int] = []

    def recorder(view, moves):
        seats.append(view.seat)
        return 0

    result = duel(burraco.Rules("italian"), burraco.Policy(recorder), "random", pairs=1, seed=2)
    first_game = int(result.games["decisions"][0][0])
    assert first_game + int(result.games["decisions"][1][0]) == len(seats)
    assert set(seats[:first_game]) == {0, 2}
    assert set(seats[first_game:]) == {1, 3}


@pytest.mark.parametrize(("spec", "pattern"), [
    ("best", "'best'"),
    ("ismcts", "ISMCTS:ITERATIONS|'ismcts'"),
    ("ismcts:many", "'ismcts:many'"),
    ("ismcts:100:rollout=smart", "'rollout=smart'"),
    ("ismcts:100:depth=3", "'depth=3'"),
    ("ismcts:0", "iterations"),
])
def test_bad_bot_specs_are_refused_quoting_them(spec, pattern):
    with pytest.raises(burraco.BurracoError, match=pattern):
        bot(spec)


def test_arena_arguments_are_checked():
    with pytest.raises(burraco.BurracoError, match="three players"):
        duel(burraco.Rules("italian-3p"), "greedy", "random", pairs=1)
    with pytest.raises(burraco.BurracoError, match="pairs 0"):
        duel(burraco.Rules("italian-2p"), "greedy", "random", pairs=0)
    with pytest.raises(burraco.BurracoError, match="threads 0"):
        duel(burraco.Rules("italian-2p"), "greedy", "random", pairs=1, threads=0)
    with pytest.raises(burraco.BurracoError, match="each bot once"):
        tournament(burraco.Rules("italian-2p"), ["greedy", "greedy"], pairs=1)


def test_arena_plays_ismcts_bots_and_reports_progress():
    reports = []
    result = duel(burraco.Rules("italian-2p"), "ismcts:50:rollout=heuristic:cut=10", "random",
                  pairs=2, seed=4, progress=reports.append)
    assert reports and reports[-1] == 4 and reports == sorted(reports)
    assert result.ms_per_decision(0) > result.ms_per_decision(1)


def test_a_failing_policy_bot_raises_policy_error_naming_it():
    def broken(view, moves):
        raise RuntimeError("no idea")

    with pytest.raises(burraco.PolicyError, match="no idea"):
        duel(burraco.Rules("italian-2p"), burraco.Policy(broken), "random", pairs=1)


def test_wilson_interval_known_values():
    low, high = wilson_interval(80, 100)
    assert (round(low, 3), round(high, 3)) == (0.711, 0.867)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0


def test_bradley_terry_orders_and_balances():
    class D:  # a duel's counts only
        def __init__(self, a, b, wins_a, wins_b, ties=0):
            self.a, self.b, self.wins_a, self.wins_b, self.ties = a, b, wins_a, wins_b, ties

    even = bradley_terry(["x", "y"], [D("x", "y", 10, 10)])
    assert abs(even["x"]) < 1e-9 and abs(even["y"]) < 1e-9
    ratings = bradley_terry(["a", "b", "c"], [D("a", "b", 70, 30), D("b", "c", 70, 30),
                                              D("a", "c", 85, 15)])
    assert ratings["a"] > ratings["b"] > ratings["c"]
    assert abs(sum(ratings.values()) / 3) < 1e-6
    # 70 against 30 (plus the virtual tie) is about 145 Elo points between neighbours.
    assert 100 < ratings["a"] - ratings["b"] < 200


def test_burraco_arena_prints_the_table_and_writes_records(tmp_path, capsys):
    out = tmp_path / "arena.jsonl"
    status = main(["arena", "--preset", "italian-2p", "--bots", "heuristic,greedy,random",
                   "--pairs", "3", "--seed", "7", "--quiet", "--out", str(out)])
    text = capsys.readouterr().out
    assert status == 0
    assert "seed 7" in text and "95 % CI" in text and "rating" in text
    for pair in ("heuristic  greedy", "heuristic  random", "greedy     random"):
        assert pair in text
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 3 * 2 * 3
    for record in records:
        assert burraco.Game.from_record(record).is_over()


def test_burraco_arena_refuses_bad_bots(capsys):
    assert main(["arena", "--bots", "heuristic,best", "--pairs", "1", "--quiet"]) == 2
    assert "'best'" in capsys.readouterr().err
    assert main(["arena", "--bots", "heuristic", "--pairs", "1", "--quiet"]) == 2


# ---- ISMCTS specs on every command, and the plot ---------------------------------------------------


def test_ismcts_spec_options_reach_the_search():
    search = bot("ismcts:200:rollout=random:reward=win:opponents=tree:eval=heuristic:cut=8"
                 ":scale=150:c=0.5:threads=2:time=1.5:seed=9").player
    assert (search.iterations, search.policy, search.reward, search.opponents, search.evaluation,
            search.max_rollout_moves, search.margin_scale, search.exploration, search.threads,
            search.time_limit, search.seed) == (200, "random", "win", "tree", "heuristic", 8,
                                                150.0, 0.5, 2, 1.5, 9)
    for model in ("policy", "tree", "random", "greedy", "heuristic"):
        assert bot(f"ismcts:10:opponents={model}").player.opponents == model
    for spec, pattern in [("ismcts:10:reward=points", "'reward=points'"),
                          ("ismcts:10:opponents=oracle", "'opponents=oracle'"),
                          ("ismcts:10:eval=deep", "'eval=deep'"),
                          ("ismcts:10:time=soon", "'time=soon'")]:
        with pytest.raises(burraco.BurracoError, match=pattern):
            bot(spec)


def test_selfplay_plays_an_ismcts_seat(tmp_path, capsys):
    out = tmp_path / "search.jsonl"
    status = main(["selfplay", "--preset", "italian-2p", "--games", "2", "--seed", "3", "--quiet",
                   "--policies", "ismcts:30,greedy", "--out", str(out)])
    text = capsys.readouterr().out
    assert status == 0 and "seat 0 ismcts:30" in text
    records = list(burraco.read_records(out))
    assert len(records) == 2
    for record in records:
        game = burraco.Game.from_record(record)
        assert game.is_over()
        # The greedy seat's moves are greedy's; the search's are not all of them greedy's.
        replay = burraco.Game(game.rules, seed=game.seed)
        differs = False
        for move in game.moves:
            if replay.turn == 1:
                assert replay.policy_move("greedy", 0) == move
            elif replay.policy_move("greedy", 0) != move:
                differs = True
            replay.push(move)
        assert replay.is_over()
    assert differs


def test_selfplay_refuses_ismcts_on_the_reference_engine(capsys):
    status = main(["selfplay", "--preset", "italian-2p", "--games", "1", "--quiet",
                   "--policy", "ismcts:10", "--engine", "reference"])
    assert status == 2
    assert "'ismcts:10'" in capsys.readouterr().err


def test_burraco_arena_plot_draws_a_png_of_the_first_bots_duels(tmp_path, capsys):
    path = tmp_path / "sweep.png"  # matplotlib is a test dependency (pyproject.toml)
    status = main(["arena", "--preset", "italian-2p", "--bots",
                   "greedy,ismcts:10:rollout=random,ismcts:30:rollout=random,heuristic",
                   "--pairs", "2", "--seed", "5", "--quiet", "--plot", str(path)])
    text = capsys.readouterr().out
    assert status == 0 and f"wrote the plot to {path}" in text
    # Only the first bot's duels: three rows, each with greedy as bot A.
    rows = [line.split()[:2] for line in text.splitlines() if "%" in line and "-" in line]
    assert rows == [["greedy", "ismcts:10:rollout=random"], ["greedy", "ismcts:30:rollout=random"],
                    ["greedy", "heuristic"]]
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


def _closing_races_tool():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "tools" / "closing_races.py"
    spec = importlib.util.spec_from_file_location("closing_races", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("preset", ["italian", "italian-2p"])
def test_closing_races_counts_the_closings_of_the_arena(preset, capsys):
    """tools/closing_races.py (docs/bots.md): its replays score what the arena scored (it stops
    otherwise), and the closings it counts per side are the arena's closed games."""
    tool = _closing_races_tool()
    assert tool.main(["--preset", preset, "--pairs", "6", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    closed = [int(n) for n in re.findall(r"side closed (\d+) games and won \d+", out)]
    assert len(closed) == 2
    games = duel(burraco.Rules(preset), "heuristic", "greedy", pairs=6, seed=3).games
    assert sum(closed) == int((games["end_reason"] == 1).sum())  # EndReason::Closed
    assert "12 games" in out and "median table turn of the first pozzetto" in out
