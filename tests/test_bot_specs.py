"""burraco.bots (src/burraco/bots.py, docs/bots.md "Bot specs"): the one grammar of bot specs, the
registry of built-ins that every surface reads, the seed stream and the self-play loop.

* Every spec parses and writes back; a bad one is refused, quoted, with the grammar.
* The command, the server, the arena, the environments and both engines' ``Policy`` accept
  exactly the registry's built-ins (and the core's own table names the same bots).
* ``seeds`` is SplitMix64 (the reference engine's generator, written apart), from any position.
* ``play_games`` plays the same games on one thread, on several, and in Ray's shards; with
  ``rotate`` every bot plays from every seat and the scores stay per bot.
"""

from __future__ import annotations

import re

import pytest
from conftest import ENGINES, load_engine

import burraco
import burraco.reference
from burraco import arena, bots, cli
from burraco._tally import units_of
from burraco.cli._common import CliError, load_policy
from burraco.envs._common import SeatPlayer
from burraco.reference.rng import SplitMix64
from burraco.server._table import Limits, RequestError, load_bot

# ---- the grammar ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [*bots.BUILT_INS, "ismcts:1000",
                                  "ismcts:50:rollout=heuristic:cut=40",
                                  "ismcts:20:opponents=tree",
                                  "mymodule:policy", "pkg.mod:obj.attr"])
def test_a_spec_parses_and_writes_back(text):
    spec = bots.parse(text)
    assert str(spec) == text
    assert bots.parse(f"  {text} ") == spec


def test_the_parts_of_a_spec():
    assert bots.parse("heuristic:2p") == bots.Spec("builtin", "heuristic:2p")
    search = bots.parse("ismcts:300:reward=equity:c=0.5:keep=yes")
    assert (search.kind, search.iterations) == ("ismcts", 300)
    assert search.search_options() == {"iterations": 300, "reward": "equity", "exploration": 0.5,
                                       "keep_tree": True}
    module = bots.parse("pkg.mod:obj.attr")
    assert (module.kind, module.module, module.attribute) == ("module", "pkg.mod", "obj.attr")


@pytest.mark.parametrize(("text", "quoted"), [
    ("best", "unknown bot 'best'"),
    ("", "unknown bot ''"),
    ("heuristic:9p", "unknown heuristic parameter set 'heuristic:9p'"),
    ("ismcts", "expected 'ismcts:ITERATIONS'"),
    ("ismcts:many", "expected 'ismcts:ITERATIONS'"),
    ("ismcts:10:depth=2", "option 'depth=2'"),
    ("ismcts:10:rollout=best", "option 'rollout=best': bad value"),
    ("a:b:c", "unknown bot 'a:b:c'"),
    (":attr", "unknown bot ':attr'"),
    (7, "bot 7"),
])
def test_a_bad_spec_is_refused_quoted(text, quoted):
    with pytest.raises(burraco.InvalidNotationError, match=re.escape(quoted)):
        bots.parse(text)


def test_the_help_names_every_built_in():
    for name in bots.BUILT_INS:
        assert (name.partition(":")[2] or name) in bots.HELP  # heuristic:2p as heuristic:SET, 2p
    assert "ismcts:ITERATIONS" in bots.HELP and "module:attribute" in bots.HELP


# ---- one list of built-ins -----------------------------------------------------------------------


def test_the_core_plays_exactly_the_registry_built_ins():
    assert set(burraco._core._BUILT_IN_POLICIES) == set(bots.built_in_names("core"))
    for name in bots.built_in_names("core"):
        policy = bots.make(name)
        assert isinstance(policy, burraco.Policy) and policy.kind == "builtin"
        assert policy.spec == name


def test_the_reference_plays_its_built_ins_and_refuses_the_core_only_ones():
    rules = burraco.reference.Rules("italian-2p")
    assert burraco.reference.policies.POLICIES == bots.built_in_names("reference")
    for name, bot in bots.BUILT_INS.items():
        if "reference" in bot.engines:
            assert bots.make(name, rules).spec == name
        else:
            with pytest.raises(burraco.PolicyError, match="core engine only"):
                bots.make(name, rules)
            with pytest.raises(burraco.PolicyError, match="core engine only"):
                burraco.reference.Policy(name)


@pytest.mark.parametrize("name", list(bots.BUILT_INS))
def test_every_surface_takes_every_built_in(name):
    """The command, the server, the arena and the environments read the one registry: each takes
    every built-in bot, as the same policy (the server once refused 'heuristic:2p')."""
    made = bots.make(name)
    assert load_policy(burraco, name, "--bots") == made
    assert load_bot(burraco, name, Limits()) == made
    assert arena.bot(name).player == made
    assert SeatPlayer(name, "opponent").policy == made


def test_every_surface_refuses_an_unknown_bot_with_the_grammar():
    for refuse in (lambda: load_policy(burraco, "best", "--bots"),
                   lambda: load_bot(burraco, "best", Limits()),
                   lambda: arena.bot("best"),
                   lambda: SeatPlayer("best", "opponent")):
        with pytest.raises((CliError, RequestError, burraco.InvalidNotationError)) as caught:
            refuse()
        assert "'best'" in str(caught.value) and bots.HELP in str(caught.value)


def test_the_command_help_lists_the_registry(capsys):
    for command in ("play", "selfplay", "arena"):
        with pytest.raises(SystemExit):
            cli.main([command, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        for name in bots.BUILT_INS:
            assert (name.partition(":")[2] or name) in text


def test_a_module_policy_goes_through_the_grammar_in_both_engines():
    for engine in (burraco, burraco.reference):
        with pytest.raises(burraco.PolicyError, match="no_such_module_xyz"):
            engine.Policy("no_such_module_xyz:policy")
        with pytest.raises(burraco.InvalidNotationError, match="a:b:c"):
            engine.Policy("a:b:c")
    assert burraco.Policy("random:random").kind == "python"  # random.random, a callable


# ---- seeds ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 7, 2**64 - 1])
def test_seeds_are_splitmix64_from_any_position(seed):
    reference = SplitMix64(seed)
    outputs = [reference.next() for _ in range(12)]
    stream = bots.seeds(seed)
    assert [stream.next() for _ in range(12)] == outputs
    for first in (0, 1, 5, 11):
        assert bots.seeds(seed, first).next() == outputs[first]


def test_a_match_and_playouts_deal_from_the_seed_stream():
    rules = burraco.Rules("italian-2p")
    match = burraco.Match(rules, seed=9)
    stream = bots.seeds(9)
    assert [match.new_game().seed for _ in range(3)] == [stream.next() for _ in range(3)]
    for bad in (-1, 2**64, True):
        with pytest.raises(burraco.InvalidNotationError):
            bots.seeds(bad)


# ---- the self-play loop --------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(ENGINES))
def test_play_games_deals_game_i_from_output_i(name):
    engine = load_engine(name)
    rules = engine.Rules("italian-2p")
    players = [bots.make("greedy", rules), bots.make("random", rules)]
    whole = list(bots.play_games(rules, players, 4, 0, 6))
    tail = list(bots.play_games(rules, players, 4, 3, 6))
    assert [p.number for p in whole] == list(range(6))
    assert [p.hands[0].moves for p in whole[3:]] == [p.hands[0].moves for p in tail]
    stream = bots.seeds(4)
    assert [p.hands[0].seed for p in whole] == [stream.next() for _ in range(6)]


@pytest.mark.parametrize("preset", ["italian-2p", "italian-3p", "italian"])
def test_rotation_seats_every_bot_everywhere_and_scores_stay_per_bot(preset):
    rules = burraco.Rules(preset)
    specs = ["greedy", "random", "heuristic", "random"][:rules.players]
    players = [bots.make(spec) for spec in specs]
    played = list(bots.play_games(rules, players, 2, 0, rules.players, rotate=True))
    assert [p.rotation for p in played] == list(range(rules.players))
    units = len(units_of(rules))
    for p in played:
        game = p.hands[0]
        # Replayed with the bots seated as the rotation seats them, the game is the same.
        seated = [players[(seat - p.rotation) % rules.players] for seat in range(rules.players)]
        again = burraco.Game(rules, seed=game.seed)
        bots.play_hand(again, seated, game.seed, burraco.MAX_HAND_MOVES)
        assert again.moves == game.moves
        # The scores are per unit of the seating as given: unit u's are those of the unit where
        # u's bots sat in this game.
        actual = burraco._tally.unit_scores(rules, game.result())
        assert p.scores(rules) == [actual[(u + p.rotation) % units] for u in range(units)]
        winner = p.winner(rules)
        assert winner is None or p.scores(rules)[winner] == max(actual)


def test_match_rotation_maps_the_winner_back():
    rules = burraco.Rules("italian-2p")
    players = [bots.make("heuristic"), bots.make("random")]
    for p in bots.play_games(rules, players, 5, 0, 2, matches=True, max_hands=50, rotate=True):
        won = p.match.winner
        if won is not None:
            assert p.winner(rules) == (won - p.rotation) % 2
            assert p.scores(rules)[p.winner(rules)] == max(p.match.scores)


# ---- the command: --threads and --rotate ---------------------------------------------------------


def _summary(capsys, argv):
    assert cli.main(argv) == 0
    return [line for line in capsys.readouterr().out.splitlines()
            if not line.startswith(("hands per second", "wrote"))]


def test_selfplay_threads_play_the_same_games(capsys, tmp_path):
    base = ["selfplay", "--preset", "italian", "--games", "13", "--seed", "6", "--quiet",
            "--policies", "greedy,heuristic"]
    one = _summary(capsys, [*base, "--out", str(tmp_path / "one.jsonl")])
    two = _summary(capsys, [*base, "--threads", "2", "--out", str(tmp_path / "two.jsonl")])
    assert one == two
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()
    matches = [*base, "--matches", "--max-hands", "2", "--games", "3"]
    assert _summary(capsys, matches) == _summary(capsys, [*matches, "--threads", "3"])


def test_selfplay_rotate_keeps_the_summary_per_policy(capsys):
    base = ["selfplay", "--preset", "italian-2p", "--games", "40", "--seed", "1", "--quiet",
            "--policies", "heuristic,random", "--rotate"]
    lines = _summary(capsys, base)
    wins = next(line for line in lines if line.startswith("wins"))
    heuristic, rand = (int(n) for n in re.findall(r"(\d+) \(", wins))
    assert heuristic > 30 > rand  # the heuristic's unit is the heuristic's, whatever its seat
    swapped = _summary(capsys, [*base[:-3], "--policies", "random,heuristic", "--rotate"])
    assert swapped != lines


@pytest.mark.parametrize("argv", [["--threads", "0"], ["--threads", "65"],
                                  ["--threads", "2", "--ray", "--out", "x"]])
def test_selfplay_refuses_bad_threads(capsys, argv):
    assert cli.main(["selfplay", "--games", "1", "--quiet", *argv]) == 2
    assert "--threads" in capsys.readouterr().err
