"""The help a user meets: every public name of both engines is documented, and the core's
signatures name and type their arguments in Python terms.

* Every class and function of ``burraco.__all__`` and ``burraco.reference.__all__``, and every
  public method, property, class method and static method of those classes (their own and those
  of private base classes, ``__init__`` included), has a docstring with words in it: a pybind11
  signature line alone is no docstring, nor is a bare pointer to a page of docs/ (which the wheel
  does not carry).
* No docstring or signature of the core shows a C++ name (``::``, ``(anonymous namespace)``, the
  binding's ``PyObservation``-style structs), and no parameter of a core signature is an untyped
  ``object`` (except the operands of ``==``, ``!=`` and ``in``, which take any object by Python's
  data model).
* ``Rules.from_text`` reads what ``rules.text`` writes, which is the ``rules=`` field of a state
  string, for every preset and knob value; on bad text it raises InvalidNotationError quoting it.
"""

from __future__ import annotations

import inspect
import random
import re
import types
from collections.abc import Iterator

import fuzzing
import pytest

import burraco
from burraco import reference

ENGINES = {"core": burraco, "reference": reference}

# A C++ name in a docstring or a signature: a scope (`burraco::Rules`, `(anonymous namespace)`)
# or one of the binding's wrapper structs (PyGame, PyObservation, ...).
_CPP_NAME = re.compile(r"::|anonymous namespace|\bPy[A-Z][A-Za-z]+\b|\bstd\b|\bburraco_binding\b")
# A line pybind11 writes for a signature: `name(self: ..., x: int) -> int`, `(arg0: ...) -> int`
# for a property, `1. name(...)` for an overload.
_SIGNATURE_LINE = re.compile(r"^\s*(?:\d+\.\s*)?[\w]*\(.*\)(?:\s*->\s*.+)?$")
# Operands that take any object by the data model: `x == y`, `x != y`, `x in y`.
_ANY_OBJECT_OPERAND = {"__eq__", "__ne__", "__contains__"}
# Names every class has from `object` or pybind11's base: not part of the API.
_FOREIGN_MODULES = {"builtins", "pybind11_builtins"}


class Member:
    """One documented object: its qualified name, the object whose __doc__ is read, and the raw
    attribute (a property, a function, a descriptor)."""

    def __init__(self, qualname: str, documented: object, raw: object) -> None:
        self.qualname = qualname
        self.documented = documented
        self.raw = raw

    def __repr__(self) -> str:
        return self.qualname


def _public(name: str) -> bool:
    return not name.startswith("_") or name == "__init__"


def _documented(raw: object) -> object:
    """The object whose docstring describes the attribute (a property's own, which help() shows:
    pybind11 gives its getter only the signature)."""
    if isinstance(raw, (staticmethod, classmethod)):
        return raw.__func__
    return raw


def _owner(cls: type, name: str) -> type | None:
    """The class of ``cls``'s MRO that defines ``name``; None when that is object or pybind11's
    base class (not the package's API)."""
    for klass in cls.__mro__:
        if name in vars(klass):
            if klass.__module__ in _FOREIGN_MODULES or klass is object:
                return None
            if issubclass(klass, BaseException) and klass.__module__ == "builtins":
                return None
            return klass
    return None


def members(engine) -> Iterator[Member]:
    """Every public class, function, method and property of an engine's ``__all__``."""
    for name in engine.__all__:
        value = getattr(engine, name)
        if isinstance(value, type):
            yield Member(name, value, value)
            for member in sorted(dir(value)):
                if not _public(member):
                    continue
                owner = _owner(value, member)
                if owner is None:
                    continue
                raw = vars(owner)[member]
                if not (callable(raw) or isinstance(raw, (property, staticmethod, classmethod))
                        or inspect.isdatadescriptor(raw) or inspect.ismethoddescriptor(raw)):
                    continue  # data (Rules.PRESETS)
                if member == "__init__" and owner.__module__ in _FOREIGN_MODULES:
                    continue
                yield Member(f"{name}.{member}", _documented(raw), raw)
        elif callable(value):
            yield Member(name, value, value)
        # constants (END_REASONS, MAX_HAND_MOVES) have their type's docstring: nothing to check


def _own_doc(obj: object) -> str:
    """The docstring the object itself carries (not one inherited from its type or a base)."""
    if isinstance(obj, type):
        doc = vars(obj).get("__doc__")
        return doc if isinstance(doc, str) else ""
    if isinstance(obj, types.MemberDescriptorType):
        # A slot's docstring is the value of its class's __slots__ dict, which help() shows
        # (inspect finds it there; the descriptor's own __doc__ stays None).
        slots = getattr(obj.__objclass__, "__slots__", None)
        doc = slots.get(obj.__name__) if isinstance(slots, dict) else None
        return doc if isinstance(doc, str) else ""
    doc = getattr(obj, "__doc__", None)
    return doc if isinstance(doc, str) else ""


def prose(doc: str) -> str:
    """A docstring without pybind11's signature lines and without pointers to docs/ pages."""
    lines = [line for line in doc.splitlines()
             if not _SIGNATURE_LINE.match(line) and line.strip() != "Overloaded function."]
    text = " ".join(lines)
    text = re.sub(r"\(?\b(?:see\s+)?docs/[\w/.-]+(?:\s*\"[^\"]*\")?(?:#[\w-]+)?\)?", " ", text,
                  flags=re.I)
    return text


def words(text: str) -> int:
    return len(re.findall(r"[A-Za-z]{2,}", text))


def _is_init_of_class_without_constructor(member: Member) -> bool:
    """``__init__`` inherited from a base that only refuses (the core's MoveList and Observation
    are made by the engine): not a documented constructor."""
    return member.qualname.endswith(".__init__") and "Initialize self" in _own_doc(
        member.documented)


@pytest.mark.parametrize("engine", list(ENGINES))
def test_every_public_name_has_a_docstring(engine):
    missing = []
    for member in members(ENGINES[engine]):
        if _is_init_of_class_without_constructor(member):
            continue
        doc = _own_doc(member.documented)
        if member.qualname.endswith(".__init__") and not words(prose(doc)):
            # A constructor may be described by its class's docstring (Python's convention).
            cls = getattr(ENGINES[engine], member.qualname.partition(".")[0])
            if words(prose(_own_doc(cls))) and "(" in _own_doc(cls):
                continue
        if words(prose(doc)) < 3:
            missing.append(member.qualname)
    assert not missing, f"{engine}: no docstring (or only a signature or a docs/ pointer): " + \
        ", ".join(missing)


def test_the_walk_covers_the_api():
    """The walk finds what the docs describe (a walk that found nothing would pass)."""
    names = {m.qualname for m in members(burraco)}
    for expected in ("Game", "Game.hand", "Game.legal_moves", "Game.push_index", "Game.turn",
                     "Game.observation", "Rules.from_text", "Rules.text", "Rules.players",
                     "Card.rank", "Meld.add", "MoveList.strings", "ISMCTS.choose",
                     "ISMCTS.root_stats", "Observation.hand", "Result.side", "perft",
                     "playouts", "read_records", "InvalidNotationError"):
        assert expected in names, expected
    assert len(names) > 200
    assert {m.qualname for m in members(reference)} >= {"Game.hand", "Rules", "Meld.add"}


def _signature_lines(member: Member) -> list[str]:
    doc = _own_doc(member.documented)
    return [line for line in doc.splitlines() if _SIGNATURE_LINE.match(line)]


def core_callables() -> Iterator[tuple[str, object]]:
    """(qualified name, object with the docstring) of every function of burraco._core, dunders
    and private helpers included: any of them may be shown by help()."""
    core = burraco._core
    for name, value in vars(core).items():
        if isinstance(value, type):
            for member, raw in vars(value).items():
                if isinstance(raw, property):
                    yield f"{name}.{member}", raw  # the docstring help() shows
                    yield f"{name}.{member}.fget", raw.fget  # its signature
                elif callable(raw) or isinstance(raw, (staticmethod, classmethod)):
                    yield f"{name}.{member}", _documented(raw)
        elif callable(value):
            yield name, value


def test_core_shows_no_cpp_names():
    shown = []
    for qualname, obj in core_callables():
        doc = _own_doc(obj)
        if _CPP_NAME.search(doc):
            shown.append(f"{qualname}: {_CPP_NAME.search(doc).group(0)!r} in {doc.splitlines()[0]!r}")
    assert not shown, "\n".join(shown)


def _parameters(line: str) -> list[tuple[str, str | None]]:
    """(name, annotation) of the parameters of a pybind11 signature line, without self."""
    inner = line[line.index("(") + 1:line.rindex(")")]
    out = []
    depth, current = 0, ""
    for char in inner + ",":
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        if char == "," and depth == 0:
            part = current.strip()
            current = ""
            if not part or part in ("*", "/") or part.startswith("*"):
                continue
            name, _, rest = part.partition(":")
            annotation = rest.partition("=")[0].strip() if rest else None
            out.append((name.strip(), annotation))
            continue
        current += char
    return [(name, note) for name, note in out if name != "self"]


def test_core_parameters_are_typed():
    untyped = []
    for qualname, obj in core_callables():
        member = qualname.rpartition(".")[2]
        for line in _signature_lines(Member(qualname, obj, obj)):
            if member in _ANY_OBJECT_OPERAND:
                continue
            for name, annotation in _parameters(line):
                if annotation in (None, "object") and not re.fullmatch(r"arg\d+", name or ""):
                    untyped.append(f"{qualname}({name}: {annotation})")
                elif annotation in (None, "object"):
                    untyped.append(f"{qualname}({name}: {annotation}): unnamed and untyped")
    assert not untyped, "\n".join(untyped)


def test_parameter_parser():
    """The signature reader of these tests on lines pybind11 writes."""
    assert _parameters("hand(self: burraco._core.Game, player: int) -> burraco._core.Cards") == [
        ("player", "int")]
    assert _parameters("f(self: X, a: tuple[int, int] = (1, 2), *, b: object = None) -> None") == [
        ("a", "tuple[int, int]"), ("b", "object")]
    assert words(prose("f(x: int) -> int\n\nSee docs/search.md \"Budgets\".")) == 0
    assert words(prose("f(x: int) -> int\n\nPlays the move (docs/search.md).")) == 3


def test_signatures_name_python_types():
    """Spot checks of what help() shows for the calls a newcomer makes first: the stub's
    signatures, its aliases and imported names written out."""
    game = burraco.Game
    assert game.hand.__doc__.splitlines()[0] == "hand(self, player: int) -> Cards"
    assert game.observation.__doc__.splitlines()[0].endswith("-> Observation")
    assert "player: int" in game.observation.__doc__.splitlines()[0]
    assert ("policy: Policy | typing.Literal['random', 'greedy', 'heuristic', 'heuristic:2p', "
            "'heuristic:4p', 'heuristic:4p-opening'] | typing_extensions.CapsuleType | "
            "collections.abc.Callable[[typing.Any, MoveList], typing.SupportsIndex] = 'random'"
            in game.playout.__doc__)
    assert game.legal_mask.__doc__.splitlines()[0] == (
        "legal_mask(self, out: numpy.typing.NDArray[numpy.bool_] | None = None) -> "
        "numpy.typing.NDArray[numpy.bool_]")
    assert burraco.Rules.from_text.__doc__.splitlines()[0] == "from_text(text: str) -> Rules"


def test_inspect_reads_the_core_signatures():
    """inspect.signature (which IPython, Jupyter and editors use) reads the core's functions, bound
    or not, pybind11's and the CPython fast paths alike; an overloaded one has none."""
    game = burraco.Game(seed=1)
    shown = [
        (burraco.Game.hand, "(self, player)"),
        (game.hand, "(player)"),
        (game.playout, "(policy='random', seed=0)"),
        (burraco.Game.push, "(self, move, /)"),
        (game.push, "(move, /)"),
        (game.is_over, "()"),
        (game.legal_moves, "()"),
        (burraco.Game.from_state_string, "(state)"),
        (burraco.perft, "(game, depth)"),
        (burraco.Rules, "(preset='italian', **knobs)"),
        (burraco.Cards, "(cards='', *, decks=2)"),
    ]
    for function, text in shown:
        assert str(inspect.signature(function)) == text, function
    assert str(inspect.signature(burraco.ISMCTS)).startswith("(*, iterations=1000, seed=0, ")
    with pytest.raises(ValueError):
        inspect.signature(burraco.Game)  # two overloads (a seed, or a deck)


# ---- __version__ --------------------------------------------------------------------------------


def test_version_is_the_package_metadata():
    from importlib import metadata

    assert burraco.__version__ == metadata.version("burraco")
    assert re.fullmatch(r"\d+\.\d+(\.\d+)?([.-]?\w+)*", burraco.__version__)


# ---- Rules.from_text and rules.text --------------------------------------------------------------


def _knob_values(name: str) -> list:
    """Values of a knob across its domain: every choice, the bounds, and some between."""
    domain = fuzzing.KNOB_DOMAINS[name]
    kind = domain[0]
    if kind == "choice":
        return list(domain[1])
    if kind == "int":
        return [domain[1], domain[2], (domain[1] + domain[2]) // 2]
    if kind == "pair":
        return [(domain[1], domain[1]), (domain[2], domain[2]), (domain[1], domain[2])]
    if kind == "float":
        return [0.0, 1.0, 0.25, 1 / 3]
    if kind == "set_ranks":
        return ["A", "K", "A3456789TJQK", "QKA"]
    if kind == "optional_points":
        return [None, 0, 1_000_000]
    if kind == "opening_minimum":
        return [None, ((0, 0),), ((0, 1_000_000),), ((0, 50), (1500, 75)),
                ((0, 50), (1, 60), (2, 70), (1_000_000, 0))]
    raise AssertionError(name)


def rule_sets(engine) -> Iterator:
    """Every preset alone, each with every knob set to each value of its domain (the sets the
    engine accepts), and 200 random combinations of many knobs."""
    rules_class = engine.Rules
    for preset in rules_class.PRESETS:
        yield rules_class(preset)
        for name in fuzzing.KNOB_DOMAINS:
            for value in _knob_values(name):
                try:
                    yield rules_class(preset, **{name: value})
                except burraco.InvalidNotationError:
                    pass  # refused as a combination (e.g. 3 players with a cut): not a rule set
    rng = random.Random(20261201)
    made = 0
    while made < 200:
        preset, overrides = fuzzing.random_rules(rng)
        try:
            rules = rules_class(preset, **overrides)
        except burraco.InvalidNotationError:
            continue
        made += 1
        yield rules


@pytest.mark.parametrize("engine", list(ENGINES))
def test_rules_text_round_trips(engine):
    Rules = ENGINES[engine].Rules
    count = 0
    for rules in rule_sets(ENGINES[engine]):
        text = rules.text
        assert isinstance(text, str) and text.split(":")[0] == rules.preset
        again = Rules.from_text(text)
        assert again == rules, text
        assert again.text == text
        assert again.knobs() == rules.knobs(), text
        count += 1
    assert count > 700


@pytest.mark.parametrize("engine", list(ENGINES))
def test_rules_text_is_the_state_string_field(engine):
    module = ENGINES[engine]
    for rules in (module.Rules("italian"),
                  module.Rules("online-2p", opening_minimum=((0, 50), (1500, 75))),
                  module.Rules("brazilian", players=2, semi_clean_burraco_bonus=150),
                  module.Rules("italian-3p", cut_exact_probability=0.0)):
        state = module.Game(rules, seed=4).state_string()
        field = next(part for part in state.split(";") if part.startswith("rules="))
        assert field == "rules=" + rules.text
        assert module.Rules.from_text(field[len("rules="):]) == rules
    assert module.Rules("italian").text == "italian"
    assert module.Rules("online-2p", opening_minimum=((0, 50), (1500, 75))).text == (
        "online-2p:opening_minimum=((0,50),(1500,75))")


@pytest.mark.parametrize("engine", list(ENGINES))
@pytest.mark.parametrize("text", [
    "", "nosuch", "Italian", "italian:players", "italian:players=5",
    "italian:nosuch_knob=1", "italian:players=2:players=x", "italian;players=2",
    "online-2p:opening_minimum=((1,50),)", "italian-3p:cut_exact_probability=2.0",
    "italian:semi_clean_burraco_bonus=none",
    # readable but not canonical (the text rules.text writes): refused as in state strings
    "italian:", "italian:players=4", "italian-2p:players=2", "italian:jokers=2:players=2",
    "italian:players=02",
])
def test_rules_from_bad_text_raises_quoting_it(engine, text):
    Rules = ENGINES[engine].Rules
    with pytest.raises(burraco.InvalidNotationError) as error:
        Rules.from_text(text)
    assert repr(text) in str(error.value)


@pytest.mark.parametrize("engine", list(ENGINES))
@pytest.mark.parametrize("value", [None, 5, b"italian", ["italian"]])
def test_rules_from_text_needs_a_string(engine, value):
    with pytest.raises(burraco.InvalidNotationError) as error:
        ENGINES[engine].Rules.from_text(value)
    assert repr(value) in str(error.value)


def test_core_rules_text_matches_the_reference():
    """Both engines write the same text for the same rules (the state strings they exchange)."""
    for rules in rule_sets(burraco):
        knobs = {name: value for name, value in rules.knobs().items()}
        assert reference.Rules(rules.preset, **knobs).text == rules.text

