"""Native policies (docs/native.md): the C interface of burraco/policy.h seen from a Cython and a
C++ module built here against the installed package (tests/native), and policies as values in
every loop of the core.

* The view a native policy gets is the observation of the seat to act, field by field, and the
  moves are the candidates a Python policy gets (so it reads no hidden card).
* A native policy and a Python callable that make the same choice from the same stream play the
  same hands, in Game.playout, policy_move, playouts (one or two threads), ISMCTS rollouts and
  Match.play_hand.
* A policy of another interface version is refused naming both versions; a policy that returns no
  move's index stops the loop with PolicyError and changes nothing.
"""

from __future__ import annotations

import fcntl
import importlib
import os
import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import burraco
from burraco import ISMCTS, Card, Game, Match, Policy, PolicyError, Rules

HERE = Path(__file__).parent / "native"
PRESETS = ("italian-2p", "italian", "italian-3p", "brazilian")


@pytest.fixture(scope="session")
def probes(tmp_path_factory):
    """The modules of tests/native, built once per run (xdist workers share the build)."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    build = root / "native-probes"
    with open(root / "native-probes.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (build / "done").exists():
            shutil.rmtree(build, ignore_errors=True)
            shutil.copytree(HERE, build)
            subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=build,
                           check=True, capture_output=True)
            (build / "done").write_text("built\n")
    sys.path.insert(0, str(build))
    try:
        yield importlib.import_module("probes"), importlib.import_module("cpp_probe"), build
    finally:
        sys.path.remove(str(build))


def uniform_twin(view, moves):
    """What probes.uniform does, in Python: a uniform choice from the call's stream."""
    return view.random.below(len(moves))


def last_twin(view, moves):
    """What cpp_probe.policy does: the last move."""
    return len(moves) - 1


def moves_of(game):
    return [str(move) for move in game.moves]


# ---- the interface -------------------------------------------------------------------------------


def test_get_include_holds_the_header_and_the_declarations(probes):
    folder = Path(burraco.get_include())
    header = (folder / "burraco" / "policy.h").read_text()
    assert (folder / "burraco" / "policy.pxd").is_file()
    version = int(re.search(r"#define BURRACO_POLICY_ABI (\d+)", header).group(1))
    assert version == burraco.POLICY_ABI == probes[0].ABI


def test_policy_values(probes):
    native, cpp, _ = probes
    uniform = Policy(native.uniform)
    assert (uniform.kind, uniform.name, uniform.spec) == ("native", "uniform", None)
    assert uniform.source is native.uniform
    named = Policy("probes:uniform")
    assert (named.kind, named.name, named.spec) == ("native", "uniform", "probes:uniform")
    assert repr(named) == "Policy('probes:uniform')" and named == "probes:uniform"
    assert pickle.loads(pickle.dumps(named)) == named
    with pytest.raises(TypeError, match="cannot pickle a native policy made from its capsule"):
        pickle.dumps(uniform)
    assert Policy("cpp_probe:policy").name == "last_move"
    assert Policy(Policy("greedy")) == "greedy" and repr(Policy("random")) == "Policy('random')"
    twin = Policy(uniform_twin)
    assert (twin.kind, twin.spec) == ("python", None)
    assert twin.name.endswith("uniform_twin") and twin == Policy(uniform_twin)
    assert pickle.loads(pickle.dumps(twin)).source is uniform_twin
    assert len({Policy("greedy"), Policy("greedy"), Policy("random")}) == 2


def test_a_policy_of_another_version_is_refused_naming_both(probes):
    native = probes[0]
    with pytest.raises(PolicyError) as error:
        Policy(native.wrong_version)
    assert (f"interface version {burraco.POLICY_ABI + 1}" in str(error.value)
            and f"provides version {burraco.POLICY_ABI}" in str(error.value))
    with pytest.raises(PolicyError, match="not built from this version's policy.h"):
        Policy("probes:wrong_size")
    game = Game(Rules("italian-2p"), seed=1)
    before = game.state_string()
    with pytest.raises(PolicyError, match="interface version"):
        game.playout(native.wrong_version, 3)
    with pytest.raises(PolicyError, match="interface version"):
        burraco.playouts(Rules("italian-2p"), 3, policy=native.wrong_version)
    with pytest.raises(PolicyError, match="interface version"):
        ISMCTS(policy=native.wrong_version)
    assert game.state_string() == before and game.moves == []


def test_things_that_are_not_policies_are_refused_quoting_them(probes):
    import ctypes

    other = ctypes.pythonapi.PyCapsule_New
    other.restype = ctypes.py_object
    other.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    stranger = other(ctypes.addressof(ctypes.c_int(5)), b"somebody.else", None)
    with pytest.raises(burraco.InvalidNotationError, match="somebody.else"):
        Policy(stranger)
    for thing in (5, None, b"greedy", ["greedy"]):
        with pytest.raises(burraco.InvalidNotationError, match=re.escape(repr(thing))):
            Policy(thing)
        with pytest.raises(burraco.InvalidNotationError, match=re.escape(repr(thing))):
            Game(Rules("italian-2p"), seed=1).playout(thing)
    with pytest.raises(burraco.InvalidNotationError, match="'probes:uniform'"):
        Game(Rules("italian-2p"), seed=1).playout("probes:uniform")  # a bare string never imports
    for spec, why in (("probes:nothing", "AttributeError"), ("no_such_module_here:policy",
                                                             "ModuleNotFoundError"),
                      ("probes:", "expected"), (":uniform", "expected"), ("a:b:c", "expected")):
        with pytest.raises(burraco.BurracoError, match=why):
            Policy(spec)


# ---- the view ------------------------------------------------------------------------------------

MOVE_KINDS = ("draw", "pile", "keep", "reject", "meld", "add", "discard")
WILD_STATES = (None, "bound", "free-low", "free-high", "orphan", "set")
BURRACOS = (None, "clean", "semi-clean", "dirty")
PACKETS = ("untaken", "face_down", "seen", "in_hand", "stock")
NO_CARD = 255


def card_list(cards):
    return [card.index for card in cards]


def check_view(view, seen, rules):
    """The native view `view` (probes.last_view()) against the Python view and moves `seen`."""
    python_view, moves, state = seen
    obs = python_view.observation
    seat = obs.player
    players = rules.players
    assert (view["abi"], view["players"], view["seat"]) == (burraco.POLICY_ABI, players, seat)
    assert view["phase"] == ("draw", "meld").index(obs.phase)
    assert view["sides"][:players] == list(obs.sides) and view["side"] == obs.sides[seat]
    assert view["hand"] == card_list(obs.hand)
    assert view["hand_sizes"][:players] == list(obs.hand_sizes)
    assert [view["known"][q] for q in range(players)] == [card_list(k) for k in obs.known]
    assert view["pile"] == card_list(obs.discard_pile)
    assert view["pile_size"] == len(obs.discard_pile)
    assert view["top"] == (obs.top.index if obs.top is not None else NO_CARD)
    assert view["stock_size"] == obs.stock_size
    slots = len(obs.opened)
    assert [bool(x) for x in view["opened"][:slots]] == list(obs.opened)
    assert view["need"][:slots] == list(obs.need)
    assert view["scores"][:len(obs.scores)] == list(obs.scores)
    for packet, (status, _owner, size, cards) in zip(view["packets"], obs.pozzetti):
        assert PACKETS[packet["status"]] == status
        if size is not None:
            assert packet["size"] == size
        assert packet["cards"] == (card_list(cards) if cards is not None else [])
    # Melds: per side in creation order, as the observation's.
    by_side = {}
    for meld in view["melds"]:
        by_side.setdefault(meld["side"], []).append(meld)
    for side in range(slots):
        mine = by_side.get(side, [])
        assert [m["index"] for m in mine] == list(range(len(mine)))
        theirs = list(obs.melds(side))
        assert len(mine) == len(theirs)
        for m, meld in zip(mine, theirs):
            assert m["cards"] == card_list(meld.cards) and m["size"] == len(meld.cards)
            assert ("set", "run")[m["kind"] - 1] == meld.kind
            if meld.kind == "run":
                assert "cdhs"[m["suit"]] == meld.suit and (m["lo"], m["hi"]) == meld.span
            else:
                assert m["rank"] == Card(f"{meld.rank}c").rank_value
            assert m["wild"] == (meld.wild.index if meld.wild is not None else NO_CARD)
            assert WILD_STATES[m["wild_state"]] == meld.wild_state
            assert BURRACOS[m["burraco"]] == meld.burraco
            assert (m["points"], m["bonus"]) == (meld.points, meld.bonus)
    # The moves are the candidates the Python policy got, in order.
    assert view["move_count"] == len(moves)
    for m, move in zip(view["moves"], moves):
        assert MOVE_KINDS[m["kind"]] == move.kind
        if move.kind in ("add", "discard"):
            assert [m["card"]] == card_list(move.cards)
        else:
            assert m["card"] == NO_CARD
        assert m["meld"] == (move.index if move.kind == "add" else 0)
        assert m["cards"] == (card_list(move.cards) if move.kind == "meld" else [])
    assert view["random_state"] == state
    r = view["rules"]
    assert (r["players"], r["decks"], r["jokers"], r["hand_size"]) == (
        rules.players, rules.decks, rules.jokers, rules.hand_size)
    assert r["card_points"] == [rules.card_points(Card.from_index(i)) for i in range(53)]
    assert (r["closing_bonus"], r["clean_bonus"], r["dirty_bonus"], r["match_target"]) == (
        rules.closing_bonus, rules.clean_burraco_bonus, rules.dirty_burraco_bonus,
        rules.match_target)


@pytest.mark.parametrize("preset", PRESETS)
def test_the_native_view_is_the_observation_of_the_seat_to_act(probes, preset):
    native = probes[0]
    rules = Rules(preset)
    positions = with_melds = with_known = 0
    for seed in range(3):
        game = Game(rules, seed=seed)
        step = 0
        while not game.is_over() and step < 400:
            seen = []

            def capture(view, moves):
                seen.append((view, list(moves), view.random.state))
                return view.random.below(len(moves))

            # Both policies get the same call: the same stream state (one draw of Rng(step)).
            python_move = game.policy_move(capture, step)
            native_move = game.policy_move(native.echo, step)
            assert native_move == python_move
            view = native.last_view()
            check_view(view, seen[0], rules)
            positions += 1
            with_melds += view["meld_count"] > 0
            with_known += any(view["known"])
            # Greedy melds and lays off, random takes the pile: the hands reach every part.
            game.push(game.policy_move("greedy" if step % 3 else "random", step))
            step += 1
    assert positions > 100 and with_melds > 20 and with_known > 5


def test_a_seen_pozzetto_shows_its_cards_to_its_owner_only(probes):
    native = probes[0]
    rules = Rules("italian")
    for seed in range(40):
        game = Game(rules, seed=seed)
        while not game.is_over():
            game.push(game.policy_move("random", len(game.moves)))
            seen = [p for p in game.observation(game.turn).pozzetti if p[0] == "seen"]
            if seen:
                game.policy_move(native.echo, 0)
                view = native.last_view()
                for packet, (status, _owner, _size, cards) in zip(
                        view["packets"], game.observation(game.turn).pozzetti):
                    assert packet["cards"] == (card_list(cards) if cards is not None else [])
                return
    pytest.fail("no position with a seen pozzetto in 40 italian hands")


# ---- the same hands as a Python twin -------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_native_and_python_twins_play_the_same_hands(probes, preset):
    native, cpp, _ = probes
    rules = Rules(preset)
    for seed in range(4):
        for policy, twin in ((native.uniform, uniform_twin), (cpp.policy, last_twin)):
            a, b = Game(rules, seed=seed), Game(rules, seed=seed)
            assert a.playout(policy, seed + 11) == b.playout(twin, seed + 11)
            assert moves_of(a) == moves_of(b) and a.record() == b.record()
    table = burraco.playouts(rules, 6, seed=5, policy=native.uniform)
    twin = burraco.playouts(rules, 6, seed=5, policy=uniform_twin)
    two = burraco.playouts(rules, 6, seed=5, policy=Policy("probes:uniform"), threads=2)
    for key in ("seed", "scores", "moves", "end_reason"):
        assert (table[key] == twin[key]).all() and (table[key] == two[key]).all()


def test_ismcts_rollouts_with_a_native_policy(probes):
    native = probes[0]
    game = Game(Rules("italian-2p"), seed=4)
    game.push("draw")
    native_search = ISMCTS(iterations=60, seed=9, policy=native.uniform, max_rollout_moves=30)
    twin_search = ISMCTS(iterations=60, seed=9, policy=uniform_twin, max_rollout_moves=30)
    assert native_search.choose(game) == twin_search.choose(game)
    assert native_search.root_stats() == twin_search.root_stats()
    assert native_search.policy == Policy(native.uniform) and native_search.policy.kind == "native"
    assert "policy=Policy(<capsule object" in repr(native_search)
    named = ISMCTS(policy=Policy("probes:uniform"))
    assert "policy=Policy('probes:uniform')" in repr(named)
    assert eval(repr(named), {"ISMCTS": ISMCTS, "Policy": Policy}).policy == "probes:uniform"
    assert ISMCTS(policy="greedy").policy == "greedy"


def test_match_play_hand_with_policies(probes):
    native = probes[0]
    rules = Rules("italian-2p")
    a, b = Match(rules, seed=3), Match(rules, seed=3)
    game_a = a.play_hand(native.uniform)
    game_b = b.play_hand(uniform_twin)
    assert game_a.record() == game_b.record() and a.scores == b.scores
    mixed_a = a.play_hand([native.uniform, "greedy"])
    mixed_b = b.play_hand([uniform_twin, "greedy"])
    assert moves_of(mixed_a) == moves_of(mixed_b) and a.scores == b.scores
    assert a.hands_played == 2
    four = Match(Rules("italian"), seed=1)
    game = four.play_hand([native.uniform, "greedy"])  # one per side
    assert game.is_over() and four.hands_played == 1
    with pytest.raises(burraco.InvalidNotationError, match="one policy per seat"):
        four.play_hand(["greedy", "greedy", "greedy"])
    assert four.hands_played == 1


# ---- failures change nothing ---------------------------------------------------------------------


def test_a_policy_that_returns_no_move_index_stops_the_loop(probes):
    native = probes[0]
    rules = Rules("italian-2p")
    game = Game(rules, seed=2)
    game.push("draw")
    before, history = game.state_string(), moves_of(game)
    for policy, shown in ((native.out_of_range, r"returned \d+"), (native.negative, "returned -1")):
        with pytest.raises(PolicyError) as error:
            game.playout(policy, 1)
        assert re.search(shown, str(error.value)) and "policy '" in str(error.value)
        assert "expected the index of one of its" in str(error.value)
        assert game.state_string() == before and moves_of(game) == history
        with pytest.raises(PolicyError, match=shown):
            game.policy_move(policy, 1)
        with pytest.raises(PolicyError, match=shown):
            burraco.playouts(rules, 4, policy=policy, threads=2)
        search = ISMCTS(iterations=20, policy=policy)
        with pytest.raises(PolicyError, match=shown):
            search.choose(game)
        assert search.nodes == 0
        match = Match(rules, seed=8)
        with pytest.raises(PolicyError, match=shown):
            match.play_hand(policy)
        assert match.hands_played == 0 and match.scores == (0, 0)
        assert match.new_game().seed == Match(rules, seed=8).new_game().seed
    assert game.state_string() == before and moves_of(game) == history


def test_a_python_policy_that_moves_the_game_is_not_recorded():
    rules = Rules("italian-2p")
    game = Game(rules, seed=2)
    start = game.state_string()
    pushed = []

    def meddler(view, moves):
        if not pushed:
            pushed.append(str(game.legal_moves()[0]))
            game.push(game.legal_moves()[0])
        return 0

    with pytest.raises(burraco.IllegalMoveError, match="the game changed while the policy played"):
        game.playout(meddler, 0)
    assert moves_of(game) == pushed  # the policy's own push stays; the playout is not recorded
    game.pop()
    assert game.state_string() == start


# ---- the command ---------------------------------------------------------------------------------


def test_selfplay_with_a_native_policy(probes):
    build = probes[2]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(build)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    run = subprocess.run([sys.executable, "-m", "burraco", "selfplay", "--preset", "italian-2p",
                          "--games", "12", "--seed", "4", "--policies", "probes:uniform,greedy",
                          "--quiet", "--no-color"], capture_output=True, text=True, env=env,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert "seat 0 probes:uniform, seat 1 greedy" in run.stdout
    assert "12 hands" in run.stdout
    bad = subprocess.run([sys.executable, "-m", "burraco", "selfplay", "--games", "1",
                          "--policy", "probes:wrong_version"], capture_output=True, text=True,
                         env=env, timeout=120)
    assert bad.returncode == 2 and "interface version" in bad.stderr
    assert "Traceback" not in bad.stderr


# ---- docs/native.md: the tutorial ----------------------------------------------------------------


def test_the_tutorial_builds_and_plays(tmp_path):
    """The files of docs/native.md's tutorial, as written there, built in place; then the command
    of the tutorial run from their folder."""
    page = (Path(__file__).parent.parent / "docs" / "native.md").read_text(encoding="utf-8")
    files = dict(re.findall(r"```\w+\n# file: (\S+)\n(.*?)```", page, flags=re.DOTALL))
    assert sorted(files) == ["mine.pyx", "pyproject.toml", "setup.py"]
    folder = tmp_path / "mine"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(f"# file: {name}\n{text}", encoding="utf-8")
    build = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
                           cwd=folder, capture_output=True, text=True)
    assert build.returncode == 0, build.stdout + build.stderr
    command = re.search(r"^burraco (selfplay .*)$", page, flags=re.MULTILINE).group(1).split()
    command[command.index("--games") + 1] = "40"
    run = subprocess.run([sys.executable, "-m", "burraco", *command, "--seed", "3", "--quiet"],
                         cwd=folder, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "seat 0 mine:policy, seat 1 greedy" in run.stdout and "40 hands" in run.stdout


# ---- three decks ---------------------------------------------------------------------------------


def test_a_native_policy_is_refused_on_a_three_deck_game(probes):
    """policy.h carries two-deck games only (two copies of a card and four jokers in its planes):
    under three decks the engine stops with PolicyError naming the policy and the pack, and the
    game is unchanged (docs/native.md)."""
    native, cpp, _ = probes
    for policy in (native.uniform, Policy("cpp_probe:policy")):
        game = Game(Rules("brazilian", decks=3, jokers=6), seed=1)
        before = game.state_string()
        with pytest.raises(PolicyError) as excinfo:
            game.playout(policy)
        assert "decks=3" in str(excinfo.value) and "native policy" in str(excinfo.value)
        assert game.state_string() == before
    # The same policies play a two-deck game to its end.
    game = Game(Rules("brazilian"), seed=1)
    game.playout(native.uniform)


def test_a_native_policy_is_refused_on_a_six_player_game(probes):
    """policy.h carries the seats, sides and packets of 2, 3 or 4 players: six players (RULES F.7)
    stop with PolicyError naming the policy and the six players, even with a two-deck pack, and
    the game is unchanged (docs/native.md)."""
    native, _cpp, _ = probes
    for rules in (Rules("brazilian", players=6), Rules("brazilian", players=6, decks=2, jokers=4)):
        game = Game(rules, seed=1)
        before = game.state_string()
        with pytest.raises(PolicyError) as excinfo:
            game.playout(native.uniform)
        text = str(excinfo.value)
        assert "six players" in text and "players=6" in text and "native policy" in text, text
        assert game.state_string() == before


# ---- nothing past a count (docs/native.md "What a policy may read") ------------------------------


@pytest.fixture(scope="session")
def snoop(probes):
    """tests/native/snoop.c: a C policy that reads past every count of its view."""
    return importlib.import_module("snoop")


def kinds(cards):
    """The card kinds of `cards` as a 53-bit mask (snoop's mask of what it read)."""
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def hidden_from(game, seat):
    """The kinds of the cards `seat` may not see: every other seat's hand but the cards known to
    be there, the stock, and the pozzetti it has not seen."""
    mask = 0
    for other in range(game.rules.players):
        if other != seat:
            rest = [card.index for card in game.hand(other)]
            for card in game.known(other):
                rest.remove(card.index)
            for index in rest:
                mask |= 1 << index
    mask |= kinds(game.stock)
    for (_status, _owner, cards), (_s, _o, _size, seen) in zip(
            game.pozzetti, game.observation(seat).pozzetti):
        if seen is None:
            mask |= kinds(cards)
    return mask


def shown(mask):
    return " ".join(str(Card.from_index(i)) for i in range(53) if mask >> i & 1)


def check_past_counts(entry, game, where):
    """One call's log entry of snoop at `game`'s position: it read past the counts and found
    nothing there (the blank entries docs/native.md promises), no card of the hidden ones."""
    seat, moves_past, melds_past, not_blank, read = entry
    assert seat == game.turn, where
    assert melds_past > 0, where  # the policy did read past the count
    leaked = read & hidden_from(game, seat)
    assert not leaked, f"{where}: seat {seat} read {shown(leaked)} past its counts, hidden from it"
    assert not_blank == 0 and read == 0, f"{where}: {not_blank} entries past the counts not blank"
    return moves_past


LEAK_PRESETS = ("italian-2p", "italian", "italian-3p", "brazilian")


def test_a_policy_reads_nothing_past_the_counts_position_by_position(probes, snoop):
    """Positions of a two-player and a four-player (or three-player) game taken in turn: before
    each call the view's storage held the previous call's view, another seat's or another
    game's. snoop reads past every count and finds blank entries only; the view within the counts
    is the observation of the seat to act (check_view)."""
    native = probes[0]
    assert snoop.SIZED_BY_ALLOCATOR  # it can see the end of the moves' allocation (glibc)
    moves_past = positions = 0
    for preset in LEAK_PRESETS[1:]:
        for seed in range(2):
            games = [(Game(Rules("italian-2p"), seed=seed), Rules("italian-2p")),
                     (Game(Rules(preset), seed=seed + 7), Rules(preset))]
            for step in range(240):
                game, rules = games[step % 2]
                if game.is_over():
                    continue
                snoop.reset()
                game.policy_move(snoop.policy, step)
                moves_past += check_past_counts(snoop.log()[0], game, f"{preset} step {step}")
                seen = []

                def capture(view, moves):
                    seen.append((view, list(moves), view.random.state))
                    return view.random.below(len(moves))

                game.policy_move(capture, step)
                game.policy_move(native.echo, step)
                check_view(native.last_view(), seen[0], rules)
                positions += 1
                game.push(game.policy_move("greedy" if step % 3 else "random", step))
    assert positions > 500 and moves_past > 1000


@pytest.mark.parametrize("preset", LEAK_PRESETS)
def test_a_policy_reads_nothing_past_the_counts_in_a_playout(snoop, preset):
    """Game.playout with snoop at every seat (the loop of the engine, one view storage for every
    call): each call's log entry checked against the position it was made at, replayed."""
    rules = Rules(preset)
    moves_past = calls = 0
    for seed in range(4):
        game = Game(rules, seed=seed)
        snoop.reset()
        game.playout(snoop.policy, seed + 100)
        log = snoop.log()
        replay = Game(rules, seed=seed)
        assert len(log) == len(game.moves)
        calls += len(log)
        for step, (entry, move) in enumerate(zip(log, game.moves)):
            moves_past += check_past_counts(entry, replay, f"{preset} seed {seed} move {step}")
            replay.push(move)
    assert calls > 40 and moves_past > 100


def test_a_policy_reads_nothing_past_the_counts_in_batches_and_searches(snoop):
    """playouts on two threads, ISMCTS rollouts and Match hands: no entry past a count is other
    than blank."""
    snoop.reset()
    for preset in LEAK_PRESETS:
        burraco.playouts(Rules(preset), 6, seed=3, policy=snoop.policy, threads=2)
    game = Game(Rules("italian"), seed=4)
    game.push("draw")
    ISMCTS(iterations=40, seed=2, policy=snoop.policy, max_rollout_moves=60).choose(game)
    Match(Rules("italian-2p"), seed=5).play_hand([snoop.policy, "greedy"])
    calls, read_past, not_blank = snoop.totals()
    assert calls > 1000 and read_past > 10 * calls
    assert not_blank == 0, f"{not_blank} entries past the counts in {calls} calls were not blank"


def test_six_players_are_refused_before_the_policy_reads_anything(snoop):
    """Six players are refused (PolicyError): the policy is not called at all, so it sees
    nothing of the game."""
    rules = Rules("brazilian", players=6, decks=2, jokers=4)
    game = Game(rules, seed=2)
    for step in range(60):  # some play first, so the hands and the table are not the deal's
        game.push(game.policy_move("greedy" if step % 2 else "random", step))
    before = game.state_string()
    snoop.reset()
    with pytest.raises(PolicyError, match="six players"):
        game.policy_move(snoop.policy, 1)
    with pytest.raises(PolicyError, match="six players"):
        game.playout(snoop.policy, 1)
    with pytest.raises(PolicyError, match="six players"):
        burraco.playouts(rules, 2, seed=1, policy=snoop.policy, threads=2)
    assert snoop.totals() == (0, 0, 0) and game.state_string() == before


# ---- names that are not UTF-8 --------------------------------------------------------------------


def test_a_policy_name_that_is_not_utf8_is_quoted_with_escapes(snoop):
    """A descriptor name is bytes: one that is not UTF-8 is shown with backslash escapes (as
    bytes.decode(errors='backslashreplace') shows it) in the name and in every PolicyError."""
    name = b"caf\xe9 \\ bot".decode("utf-8", "backslashreplace")
    assert name == "caf\\xe9 \\ bot"
    policy = Policy(snoop.latin1)
    assert (policy.name, policy.kind) == (name, "native")
    assert Policy("snoop:latin1").name == name and Policy(snoop.latin1_player).name == "caf\\xe9"
    rules = Rules("italian-2p")
    game = Game(rules, seed=2)
    before = game.state_string()
    quoted = re.escape(f"policy '{name}'")
    with pytest.raises(PolicyError, match=quoted):
        game.playout(snoop.latin1, 1)
    with pytest.raises(PolicyError, match=quoted):
        game.policy_move(snoop.latin1, 1)
    with pytest.raises(PolicyError, match=quoted):
        burraco.playouts(rules, 4, policy=snoop.latin1, threads=2)
    with pytest.raises(PolicyError, match=quoted):
        ISMCTS(iterations=10, policy=snoop.latin1).choose(game)
    with pytest.raises(PolicyError, match=quoted):
        Match(rules, seed=1).play_hand(snoop.latin1)
    with pytest.raises(PolicyError, match=re.escape("native policy 'caf\\xe9' cannot play")):
        Game(Rules("brazilian", decks=3, jokers=6), seed=1).playout(snoop.latin1_player)
    assert game.state_string() == before
    assert game.playout(snoop.latin1_player, 3) > 0  # a policy with such a name plays


def test_every_policy_name_is_shown_as_backslashreplace_shows_it():
    """Descriptors made here (ctypes) with names of random bytes, UTF-8 or not: Policy.name is
    what Python's bytes.decode('utf-8', 'backslashreplace') makes of the bytes."""
    import ctypes
    import random

    class Descriptor(ctypes.Structure):
        _fields_ = [("abi", ctypes.c_uint32), ("size", ctypes.c_uint32), ("name", ctypes.c_char_p),
                    ("choose", ctypes.c_void_p), ("data", ctypes.c_void_p)]

    choose = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)(
        lambda view, stream, data: 0)  # never called: making a Policy reads the descriptor only
    new_capsule = ctypes.pythonapi.PyCapsule_New
    new_capsule.restype = ctypes.py_object
    new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    rng = random.Random(39)
    pieces = [chr(c).encode() for c in (0x41, 0x5C, 0xE9, 0x20AC, 0xD7FF, 0xE000, 0xFFFD, 0x1F0CF,
                                         0x10FFFF)]
    samples = [b"", b"caf\xc3\xa9", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf", b"\xe2\x82",
               b"\xf0\x9f\x83", b"\xe0\x80\x80", b"\xf0\x80\x80\x80", b"\xff\xfe", b"a\x80b"]
    for _ in range(400):
        parts = [rng.choice(pieces) if rng.random() < 0.5 else bytes([rng.randrange(1, 256)])
                 for _ in range(rng.randrange(1, 7))]
        samples.append(b"".join(part[:rng.randrange(1, len(part) + 1)] if rng.random() < 0.2
                                else part for part in parts))
    kept = []
    for raw in samples:
        descriptor = Descriptor(burraco.POLICY_ABI, ctypes.sizeof(Descriptor), raw,
                                ctypes.cast(choose, ctypes.c_void_p), None)
        kept.append(descriptor)
        capsule = new_capsule(ctypes.addressof(descriptor), b"burraco.policy", None)
        assert Policy(capsule).name == raw.decode("utf-8", "backslashreplace"), raw
