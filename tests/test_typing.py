"""The typed API: src/burraco/_core.pyi against the built extension, and mypy --strict.

* mypy's stubtest compares the stub with ``burraco._core`` as imported (after the package's
  ``__init__`` ran, so the methods burraco._records installs on ``Game`` are there too). It sees
  every name, and property / method / static / class method, but no parameter list of a pybind11
  function: pybind11 records those only in docstrings. So the stub's parameter lists are compared
  with those docstrings here (names, order, positional / keyword-only, defaults, and the types
  pybind11 names precisely), and values the engine returns are checked against the stub's return
  types (the ``Literal`` strings above all).
* ``mypy --strict`` (pyproject.toml ``[tool.mypy]``) on the package, and on README.md's examples.

The allowlist of stubtest, with the reason of each entry: tests/data/stubtest_allowlist.txt.
"""

from __future__ import annotations

import ast
import collections.abc
import re
import subprocess
import sys
import types
import typing
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np
import numpy.typing as npt
import pytest
import typing_extensions

import burraco  # noqa: F401  (the package's __init__ installs the records methods)
from burraco import _core, _policy

ROOT = Path(__file__).resolve().parent.parent
STUB = ROOT / "src" / "burraco" / "_core.pyi"
PYPROJECT = ROOT / "pyproject.toml"
ALLOWLIST = ROOT / "tests" / "data" / "stubtest_allowlist.txt"


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache for this module's mypy runs (the second reuses what the first checked)."""
    return tmp_path_factory.mktemp("mypy_cache")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


# ---- stubtest and mypy ----------------------------------------------------------------------


@pytest.mark.slow  # 10 s; .ci/run runs it
def test_stubtest() -> None:
    done = run("-m", "mypy.stubtest", "burraco._core", "--allowlist", str(ALLOWLIST),
               "--mypy-config-file", str(PYPROJECT), "--strict-type-check-only")
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow  # 20 s; .ci/run runs it
def test_mypy_strict_package(mypy_cache: Path) -> None:
    done = run("-m", "mypy", "--config-file", str(PYPROJECT), "--cache-dir", str(mypy_cache))
    assert done.returncode == 0, done.stdout + done.stderr


def readme_examples(text: str) -> str:
    """The ```python doctest blocks of a Markdown text as plain statements: the prompts stripped,
    the expected output dropped."""
    lines: list[str] = []
    for block in re.findall(r"^```python\n(.*?)^```", text, flags=re.M | re.S):
        for line in block.splitlines():
            if line.startswith(">>> ") or line == ">>>":
                lines.append(line[4:])
            elif line.startswith("... ") or line == "...":
                lines.append(line[4:])
    return "\n".join(lines) + "\n"


def test_readme_examples_are_statements() -> None:
    source = readme_examples((ROOT / "README.md").read_text(encoding="utf-8"))
    assert "Game(Rules('italian'), seed=1)" in source and ">>>" not in source
    ast.parse(source)


def test_mypy_strict_readme(tmp_path: Path, mypy_cache: Path) -> None:
    examples = tmp_path / "readme_examples.py"
    examples.write_text(readme_examples((ROOT / "README.md").read_text(encoding="utf-8")),
                        encoding="utf-8")
    done = run("-m", "mypy", "--config-file", str(PYPROJECT), "--cache-dir", str(mypy_cache),
               str(examples))
    assert done.returncode == 0, done.stdout + done.stderr + examples.read_text()


def test_mypy_strict_inferred_types(mypy_cache: Path) -> None:
    """tests/data/typing_examples.py: assert_type() on what the stub's overloads, Literal aliases
    and array types give a user's code."""
    done = run("-m", "mypy", "--config-file", str(PYPROJECT), "--cache-dir", str(mypy_cache),
               str(ROOT / "tests" / "data" / "typing_examples.py"))
    assert done.returncode == 0, done.stdout + done.stderr


def test_py_typed_marker() -> None:
    marker = ROOT / "src" / "burraco" / "py.typed"
    assert marker.is_file() and marker.read_bytes() == b""


# ---- the stub's parameter lists against pybind11's signatures --------------------------------

_MISSING = object()  # no default
_ANY_DEFAULT = object()  # a default written `...` in the stub


class Param(typing.NamedTuple):
    name: str
    kind: str  # 'positional', 'either', 'keyword', 'var_positional', 'var_keyword'
    default: object
    annotation: str | None


def params_of(arguments: ast.arguments, skip_first: bool) -> list[Param]:
    """The parameters of a parsed function, without ``self`` / ``cls`` when skip_first."""

    def value(node: ast.expr | None) -> object:
        if node is None:
            return _MISSING
        if isinstance(node, ast.Constant) and node.value is Ellipsis:
            return _ANY_DEFAULT
        return ast.literal_eval(node)

    def note(node: ast.expr | None) -> str | None:
        return None if node is None else ast.unparse(node)

    positional = [*arguments.posonlyargs, *arguments.args]
    defaults = [None] * (len(positional) - len(arguments.defaults)) + list(arguments.defaults)
    out = [Param(arg.arg, "positional" if number < len(arguments.posonlyargs) else "either",
                 value(default), note(arg.annotation))
           for number, (arg, default) in enumerate(zip(positional, defaults))]
    if arguments.vararg is not None:
        out.append(Param(arguments.vararg.arg, "var_positional", _MISSING, None))
    out += [Param(arg.arg, "keyword", value(default), note(arg.annotation))
            for arg, default in zip(arguments.kwonlyargs, arguments.kw_defaults)]
    if arguments.kwarg is not None:
        out.append(Param(arguments.kwarg.arg, "var_keyword", _MISSING, None))
    return out[1:] if skip_first else out


class StubFunction(typing.NamedTuple):
    node: ast.FunctionDef
    decorators: frozenset[str]


def stub_functions() -> dict[str, list[StubFunction]]:
    """Every function of the stub by qualified name ('Game.push', 'perft'); overloads together."""
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    found: dict[str, list[StubFunction]] = {}

    def add(prefix: str, body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef):
                decorators = frozenset(ast.unparse(d) for d in node.decorator_list)
                found.setdefault(prefix + node.name, []).append(StubFunction(node, decorators))

    add("", tree.body)
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            add(node.name + ".", node.body)
    return found


def is_pybind11(function: object) -> bool:
    """Whether ``function`` is one pybind11 made (its ``__self__`` is pybind11's record of it)."""
    owner = getattr(function, "__self__", None)
    return isinstance(function, types.BuiltinFunctionType) and \
        type(owner).__name__.startswith("pybind11_detail_function_record")


def pybind11_signature(function: object, name: str, owner: type | None) -> tuple[list[Param], str]:
    """The parameters (without self) and return type pybind11 holds for ``function``: the
    docstrings show the stub's signatures, so the binding's own (its names, kinds and defaults)
    are read from the TypeError it raises for a call no signature accepts (40 positional
    arguments; an ``__init__`` gets a new instance first)."""
    arguments: list[object] = [None] * 40
    if name == "__init__" and owner is not None:
        arguments[0] = owner.__new__(owner)
    with pytest.raises(TypeError) as refused:
        function(*arguments)  # type: ignore[operator]
    lines = [line.strip() for line in str(refused.value).splitlines()]
    # `1. (self: burraco._core.Game, player: object) -> object`; a constructor's is
    # `1. burraco._core.Card(card: object)`, without self.
    shown = [line.partition(". ")[2] for line in lines if re.match(r"\d+\. [\w.]*\(", line)]
    assert len(shown) == 1, f"{name}: not one pybind11 signature in {str(refused.value)!r}"
    match = re.fullmatch(r"[\w.]*\((.*)\)(?: -> (.+))?", shown[0])
    assert match, f"{name}: no signature in {shown[0]!r}"
    tree = ast.parse(f"def f({match.group(1)}): pass")
    function_node = tree.body[0]
    assert isinstance(function_node, ast.FunctionDef)
    params = params_of(function_node.args, skip_first=False)
    if params and params[0].name == "self":
        params = params[1:]
    # pybind11 names an argument without py::arg 'argN'; it cannot be passed by keyword.
    params = [p._replace(kind="positional") if re.fullmatch(r"arg\d+", p.name) else p
              for p in params]
    return params, match.group(2) or "None"


# pybind11's names of precise types, as the stub writes them (other runtime types, `object`,
# `tuple`, `list`, `dict` and the like, are what the stub refines).
_PRECISE = {"int": "int", "bool": "bool", "str": "str", "float": "float", "None": "None",
            "numpy.typing.NDArray[numpy.bool]": "npt.NDArray[np.bool_]",
            "numpy.typing.NDArray[numpy.float32]": "npt.NDArray[np.float32]"}


def precise(runtime_type: str) -> str | None:
    if runtime_type.startswith("burraco._core."):
        return runtime_type[len("burraco._core."):]
    return _PRECISE.get(runtime_type)


def refines(stub_type: str | None, runtime_type: str) -> bool:
    """Whether the stub's annotation is the runtime's precise type, or (for ``str``) one of the
    stub's Literal aliases: their strings are checked on values below."""
    wanted = precise(runtime_type)
    if wanted is None or stub_type == wanted:
        return True
    return wanted == "str" and stub_type is not None and (
        stub_type.startswith("Literal[") or re.fullmatch(r"_[A-Z]\w*", stub_type) is not None)


def compare(qualname: str, runtime: list[Param], returns: str,
            stubs: list[StubFunction], skip_first: bool) -> list[str]:
    """The differences between a runtime signature and the stub's (one function, or overloads)."""
    problems: list[str] = []
    overloaded = len(stubs) > 1
    by_name = {p.name: p for p in runtime}
    runtime_positional = [p for p in runtime if p.kind in ("positional", "either")]
    for stub in stubs:
        declared = params_of(stub.node.args, skip_first)
        positional = [p for p in declared if p.kind in ("positional", "either")]
        if len(positional) != len(runtime_positional):
            problems.append(f"{qualname}: {len(positional)} positional parameters in the stub, "
                            f"{len(runtime_positional)} at runtime")
        for mine, theirs in zip(positional, runtime_positional):
            if mine.kind != theirs.kind:
                problems.append(f"{qualname}({mine.name}): {mine.kind} in the stub, "
                                f"{theirs.kind} at runtime")
            if theirs.kind == "either" and mine.name != theirs.name:
                problems.append(f"{qualname}: parameter {mine.name!r} is {theirs.name!r}")
        for mine in declared:
            if mine.kind == "keyword" and (mine.name not in by_name
                                           or by_name[mine.name].kind != "keyword"):
                problems.append(f"{qualname}: keyword-only {mine.name!r} is not one at runtime")
            if mine.kind in ("var_positional", "var_keyword") and not any(
                    p.kind == mine.kind for p in runtime):
                problems.append(f"{qualname}: *{mine.name} has no counterpart at runtime")
        pairs = list(zip(positional, runtime_positional)) + [
            (mine, by_name[mine.name]) for mine in declared
            if mine.kind == "keyword" and mine.name in by_name]
        for mine, theirs in pairs:
            if mine.default is _MISSING and theirs.default is not _MISSING and not overloaded:
                problems.append(f"{qualname}({mine.name}): no default in the stub, "
                                f"{theirs.default!r} at runtime")
            elif mine.default is not _MISSING and mine.default is not _ANY_DEFAULT and (
                    mine.default != theirs.default or type(mine.default) is not type(
                    theirs.default)):
                problems.append(f"{qualname}({mine.name}): default {mine.default!r} in the "
                                f"stub, {theirs.default!r} at runtime")
            if not refines(mine.annotation, theirs.annotation or "object"):
                problems.append(f"{qualname}({mine.name}): {mine.annotation} in the stub, "
                                f"{theirs.annotation} at runtime")
        got = ast.unparse(stub.node.returns) if stub.node.returns is not None else None
        if not refines(got, returns):
            problems.append(f"{qualname}: returns {got} in the stub, {returns} at runtime")
    for theirs in runtime:
        if theirs.kind in ("var_positional", "var_keyword"):
            continue
        if not any(theirs.name in {p.name for p in params_of(s.node.args, skip_first)}
                   or theirs.kind == "positional" for s in stubs):
            problems.append(f"{qualname}: runtime parameter {theirs.name!r} is not in the stub")
    return problems


def runtime_members() -> Iterator[tuple[str, object, type | None]]:
    """(qualified name, raw attribute, owning class or None) of every public function, method and
    property of the extension, dunders included."""
    for name, value in vars(_core).items():
        if name.startswith("_"):
            continue
        if isinstance(value, type):
            for member, raw in vars(value).items():
                yield f"{name}.{member}", raw, value
        elif callable(value):
            yield name, value, None


def test_stub_signatures_match_the_bindings() -> None:
    stubs = stub_functions()
    problems: list[str] = []
    checked = 0
    for qualname, raw, owner in runtime_members():
        member = qualname.rpartition(".")[2]
        if isinstance(raw, property):
            entries = stubs.get(qualname, [])
            if not any("property" in s.decorators for s in entries):
                problems.append(f"{qualname}: a property at runtime, not in the stub as one")
                continue
            if is_pybind11(raw.fget):
                returns = pybind11_signature(raw.fget, member, None)[1]
                node = entries[0].node.returns
                got = ast.unparse(node) if node is not None else None
                if not refines(got, returns):
                    problems.append(f"{qualname}: property of {got} in the stub, {returns} at "
                                    "runtime")
            checked += 1
            continue
        # A staticmethod's, a classmethod's or an instancemethod's (pybind11's methods) function.
        function = getattr(raw, "__func__", raw)
        if isinstance(function, types.FunctionType):
            continue  # plain Python (burraco._records): stubtest compares its signature
        if isinstance(raw, types.MethodDescriptorType):
            # A plain CPython method installed over the pybind11 one (docs/search.md): no
            # signature anywhere, so the stub must take its arguments by position only.
            entries = stubs.get(qualname, [])
            assert entries, f"{qualname}: not in the stub"
            for param in params_of(entries[0].node.args, skip_first=True):
                if param.kind != "positional":
                    problems.append(f"{qualname}: a CPython method takes {param.name!r} by "
                                    "position only")
            checked += 1
            continue
        if not is_pybind11(function) or member.startswith("_pybind11_"):
            continue  # a slot wrapper or attribute of object, or pybind11's own interop method
        if qualname not in stubs:
            problems.append(f"{qualname}: bound at runtime, not in the stub")
            continue
        params, returns = pybind11_signature(function, member, owner)
        is_method = owner is not None and not isinstance(raw, staticmethod)
        problems += compare(qualname, params, returns, stubs[qualname], skip_first=is_method)
        checked += 1
    assert not problems, "\n".join(problems)
    assert checked > 200


def arity(method: Callable[..., object], instance: object, count: int) -> bool:
    """Whether ``method`` accepts ``count`` positional arguments: a wrong count is a TypeError
    raised before anything runs; a right one may fail later, on the value (that is fine)."""
    try:
        method(instance, *([object()] * count))
    except TypeError as error:
        return "argument" not in str(error)
    except (ValueError, IndexError):
        return True
    return True


def test_cpython_methods_take_what_the_stub_says() -> None:
    stubs = stub_functions()
    game = _core.Game(seed=1)
    instances: dict[type, Callable[[], object]] = {
        _core.Game: lambda: game.copy(), _core.MoveList: game.legal_moves}
    for qualname, raw, owner in runtime_members():
        if not isinstance(raw, types.MethodDescriptorType):
            continue
        assert owner is not None
        count = len(params_of(stubs[qualname][0].node.args, skip_first=True))
        assert arity(raw, instances[owner](), count), f"{qualname} takes {count} argument(s)"
        assert not arity(raw, instances[owner](), count + 1), f"{qualname}: one argument more"


# ---- returned values against the stub's types --------------------------------------------------


def stub_namespace() -> dict[str, Any]:
    """Names to evaluate the stub's annotations: typing, the runtime classes, the stub's aliases."""
    namespace: dict[str, Any] = {**vars(typing), **vars(collections.abc), **vars(_core),
                                 "np": np, "npt": npt, "CapsuleType": typing_extensions.CapsuleType,
                                 "PolicyView": _policy.PolicyView}
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and (
                node.value is not None and ast.unparse(node.annotation) == "TypeAlias"):
            namespace[node.target.id] = eval(ast.unparse(node.value), namespace)
    return namespace


def conforms(value: object, expected: Any) -> bool:
    """Whether ``value`` is of the type ``expected`` (an evaluated annotation). Stricter than a
    type checker where that catches more: an ``int`` is not a bool, a ``float`` is not an int."""
    origin, args = typing.get_origin(expected), typing.get_args(expected)
    if expected is None or expected is type(None):
        return value is None
    if origin in (typing.Union, types.UnionType):
        return any(conforms(value, arg) for arg in args)
    if origin is typing.Literal:
        return value in args and all(type(value) is type(arg) for arg in args if arg == value)
    if expected is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if expected is float:
        return isinstance(value, float)
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(conforms(item, args[0]) for item in value)
        return len(value) == len(args) and all(map(conforms, value, args))
    if origin is list:
        return isinstance(value, list) and all(conforms(item, args[0]) for item in value)
    if origin is dict:
        return isinstance(value, dict) and all(
            conforms(k, args[0]) and conforms(v, args[1]) for k, v in value.items())
    if origin is collections.abc.Iterator:
        return isinstance(value, collections.abc.Iterator)
    if origin is not None and isinstance(origin, type):
        return isinstance(value, origin)
    return isinstance(value, expected)


def stub_properties() -> dict[str, dict[str, str]]:
    """Class name -> property name -> the stub's return annotation."""
    out: dict[str, dict[str, str]] = {}
    for qualname, entries in stub_functions().items():
        cls, _, name = qualname.partition(".")
        if name and "property" in entries[0].decorators and entries[0].node.returns is not None:
            out.setdefault(cls, {})[name] = ast.unparse(entries[0].node.returns)
    return out


def sample_values() -> Iterator[object]:
    """Objects of every class of the extension, in many states."""
    for preset in _core.Rules.PRESETS:
        yield _core.Rules(preset)
    yield _core.Rules("italian", semi_clean_burraco_bonus=None, card_values="pagat_brazil")
    for text in ("Qh", "Jk", "2c", "Ts"):
        yield _core.Card(text)
    yield _core.Cards("5h 6h Jk")
    for cards in ("Jk 5d 6d", "Kd Ks Jk", "5h 6h 7h", "Jk 3h 4h 5h 6h 7h 8h 9h",
                  "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Jk", "8d Jk Td"):
        yield _core.Meld(cards)
    yield _core.Meld.from_layout("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah")
    yield _core.Melds().meld("Qs Qh Qd")
    for preset in ("italian", "italian-3p", "brazilian", "online-2p"):
        game = _core.Game(_core.Rules(preset), seed=3)
        yield game
        yield game.observation(1)
        yield game.legal_moves()[0]
        for step in range(400):
            if game.is_over():
                break
            game.push_index(step * 7 % len(game.legal_moves()))
            if step % 40 == 0:
                yield game.copy()
                yield game.observation(game.turn)
        if not game.is_over():
            game.playout("greedy")
        yield game
        yield game.observation(0)
        result = game.result()
        yield result
        yield from result.sides
        for move in game.moves[:60]:
            yield move
    search = _core.ISMCTS(iterations=30, seed=1, max_rollout_moves=5)
    search.choose(_core.Game(seed=2))
    yield search
    yield _core.ISMCTS(iterations=30, policy=_core.Policy(len))
    for source in ("greedy", "random", len, _core.Policy("random")):
        yield _core.Policy(source)
    yield _core.VectorGames(_core.Rules("italian"), 2, opponent="greedy", partner="random")
    yield _core.VectorGames(None, 1, opponent=_core.Policy("heuristic"), reward="win")


def test_values_conform_to_the_stub() -> None:
    namespace = stub_namespace()
    properties = stub_properties()
    problems: set[str] = set()
    seen: set[str] = set()
    for value in sample_values():
        cls = type(value).__name__
        for name, annotation in properties.get(cls, {}).items():
            got = getattr(value, name)
            seen.add(f"{cls}.{name}")
            if not conforms(got, eval(annotation, namespace)):
                problems.add(f"{cls}.{name} is {got!r}, not {annotation}")
    game = _core.Game(seed=5)
    calls: list[tuple[str, object, str]] = [
        ("Rules.knobs", _core.Rules("brazilian").knobs(), "dict[str, _KnobValue]"),
        ("Cards.distinct", _core.Cards("5h 5h Jk").distinct(), "tuple[Card, ...]"),
        ("Game.legal_mask", game.legal_mask(), "npt.NDArray[np.bool_]"),
        ("Game.observation_tensor", game.observation_tensor(0), "npt.NDArray[np.float32]"),
        ("MoveList.strings", game.legal_moves().strings(), "list[str]"),
        ("MoveList[:]", game.legal_moves()[:], "list[Move]"),
        ("Melds[:]", _core.Melds(["5h 6h 7h"])[:], "Melds"),
        ("END_REASONS", _core.END_REASONS, "tuple[_EndReason, _EndReason, _EndReason]"),
        ("Rules.PRESETS", _core.Rules.PRESETS, "tuple[_Preset, ...]"),
    ]
    search = _core.ISMCTS(iterations=20, seed=1)
    search.choose(_core.Game(seed=2))
    calls.append(("ISMCTS.root_stats", search.root_stats(),
                  "list[tuple[Move, int, int, float]]"))
    for name, got, annotation in calls:
        if not conforms(got, eval(annotation, namespace)):
            problems.add(f"{name} is {got!r}, not {annotation}")
    arrays = {"legal_mask": (game.legal_mask(), np.bool_),
              "observation_tensor": (game.observation_tensor(0), np.float32)}
    for name, (array, dtype) in arrays.items():
        assert array.dtype == dtype, name
    table = _core.playouts(None, 3, seed=1)
    # The stub's TypedDict of the table, its fields read from the text.
    fields = re.search(r"class _PlayoutTable\(TypedDict\):\n((?:    .*\n)+)",
                       STUB.read_text(encoding="utf-8"))
    assert fields
    dtypes = dict(re.findall(r"    (\w+): npt\.NDArray\[np\.(\w+)\]", fields.group(1)))
    assert {key: str(array.dtype) for key, array in table.items()} == dtypes
    assert not problems, "\n".join(sorted(problems))
    unseen = {f"{cls}.{name}" for cls, names in properties.items() for name in names} - seen
    assert not unseen, f"no sample of {sorted(unseen)}"


def test_knob_names_match_the_stub() -> None:
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    knobs = next(node for node in tree.body
                 if isinstance(node, ast.ClassDef) and node.name == "_Knobs")
    names = [node.target.id for node in knobs.body
             if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)]
    assert names == list(_core.Rules().knobs())
