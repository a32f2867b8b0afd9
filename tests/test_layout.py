"""The layout of the reference engine: its modules import each other bottom-up, with no circle;
none reads the private members of another module's objects; none is over 1,000 lines.

Each module of ``burraco.reference`` is parsed with ``ast`` (nothing is imported); every import of
a sibling module counts, at module level or inside a function or method, whether written
``from .x import y``, ``from . import x`` or with the absolute name. Only the body of an
``if TYPE_CHECKING:`` block is left out: it never runs and holds annotations alone.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "burraco" / "reference"
ABSOLUTE = "burraco.reference"


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported_nodes(node: ast.AST):
    """Every import statement under ``node``, skipping the bodies of ``if TYPE_CHECKING:``."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child
        elif isinstance(child, ast.If) and _is_type_checking(child.test):
            for other in child.orelse:
                yield from _imported_nodes(ast.Module(body=[other], type_ignores=[]))
        else:
            yield from _imported_nodes(child)


def _sibling(dotted: str, modules: set[str]) -> str | None:
    """The sibling module a dotted name inside the package starts with ('' is the package)."""
    first = dotted.split(".")[0] if dotted else ""
    if not first:
        return "__init__"
    return first if first in modules else None


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """module -> the sibling modules it imports (``__init__`` stands for the package itself)."""
    modules = {path.stem for path in package.glob("*.py")}
    graph: dict[str, set[str]] = {}
    for path in sorted(package.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        edges: set[str] = set()
        for node in _imported_nodes(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name[len(ABSOLUTE) + 1:] for alias in node.names
                           if alias.name.startswith(ABSOLUTE + ".")]
            elif node.level == 1 or (node.level == 0 and node.module is not None
                                     and (node.module == ABSOLUTE
                                          or node.module.startswith(ABSOLUTE + "."))):
                inner = (node.module or "") if node.level == 1 else node.module[len(ABSOLUTE) + 1:]
                if inner:
                    targets = [inner]
                else:  # from . import x: x is a sibling module, or a name of the package
                    targets = [alias.name if alias.name in modules else "" for alias in node.names]
            for target in targets:
                sibling = _sibling(target, modules)
                if sibling is not None and sibling != path.stem:
                    edges.add(sibling)
        graph[path.stem] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A circle of imports (its modules, the first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state:
            found = visit(module)
            if found:
                return found
    return None


def test_the_reference_imports_bottom_up():
    graph = import_graph()
    cycle = find_cycle(graph)
    assert cycle is None, "the reference's modules import each other in a circle: " + " -> ".join(
        cycle or [])


def test_the_graph_sees_the_imports():
    # The scanner reads the imports that are there: the package imports its engine, search builds
    # on the game, and the game on the state, the observation and the validator.
    graph = import_graph()
    assert {"game", "search", "rules", "cards"} <= graph["__init__"]
    assert "game" in graph["search"]
    assert {"state", "observation", "validate", "rules", "moves"} <= graph["game"]
    assert "game" not in graph["validate"] | graph["observation"] | graph["policies"]
    # The game is cut along the core's seams: a module a concept, none of which knows the Game.
    seams = ("deal", "apply", "movegen", "seats", "state_string", "validate", "scoring")
    assert set(seams) <= graph["game"]
    assert not any("game" in graph[module] for module in seams)
    assert "apply" in graph["movegen"] and "movegen" not in graph["apply"]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from .b import x\n", {"b"}),
        ("from . import b\n", {"b"}),
        ("from . import Name\n", {"__init__"}),
        ("import burraco.reference.b\n", {"b"}),
        ("from burraco.reference.b import x\n", {"b"}),
        ("def f():\n    from .b import x\n", {"b"}),
        ("class C:\n    def m(self):\n        from . import b\n", {"b"}),
        ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import x\n", set()),
        ("if TYPE_CHECKING:\n    pass\nelse:\n    from .b import x\n", {"b"}),
        ("from .. import b\nimport os\n", set()),
    ],
)
def test_the_scanner_on_small_packages(tmp_path, source, expected):
    (tmp_path / "a.py").write_text(source, encoding="utf-8")
    (tmp_path / "b.py").write_text("", encoding="utf-8")
    (tmp_path / "__init__.py").write_text("", encoding="utf-8")
    assert import_graph(tmp_path)["a"] == expected


def test_a_circle_is_found():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None
    assert find_cycle({"a": {"a"}}) == ["a", "a"]


# ---- private members ---------------------------------------------------------------------------


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _own_private_names(tree: ast.AST) -> set[str]:
    """The private names a module defines: its functions, classes and methods, the attributes its
    code sets or reads on ``self`` or ``cls``, and the names it spells as strings (``__slots__``,
    ``fields=``, ``object.__setattr__``)."""
    own: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            own.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in ("self", "cls"):
            own.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            own.add(node.value)
        elif isinstance(node, ast.Name):
            own.add(node.id)
    return {name for name in own if _is_private(name)}


def foreign_private_reads(source: str) -> list[str]:
    """The reads of a private member (``x._name``) of an object whose class another module
    defines: ``_name`` is not one this module defines, and ``x`` is neither ``self``/``cls`` nor a
    class (``Cards._from_cards``: the value classes' constructors for the package's own use)."""
    tree = ast.parse(source)
    own = _own_private_names(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not _is_private(node.attr) or node.attr in own:
            continue
        value = node.value
        if isinstance(value, ast.Name) and (value.id in ("self", "cls") or value.id[:1].isupper()):
            continue
        found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_reference_module_reads_another_modules_private_members():
    offenders = [f"{path.name}:{read}" for path in sorted(PACKAGE.glob("*.py"))
                 for read in foreign_private_reads(path.read_text(encoding="utf-8"))]
    assert not offenders, "private members read across modules: " + ", ".join(offenders)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("def f(game):\n    return game._state\n", ["2: game._state"]),
        ("def f(v):\n    return v.game._legal_moves()\n", ["2: v.game._legal_moves"]),
        ("class A:\n    def f(self, other):\n        return self._x + other._x\n", []),
        ("def f():\n    return Cards._from_cards(())\n", []),
        ("def _helper():\n    pass\ndef f(module):\n    return module._helper\n", []),
        ("def f(game):\n    return game.__class__\n", []),
    ],
)
def test_the_private_scanner_on_small_modules(source, expected):
    assert foreign_private_reads(source) == expected


def test_no_reference_module_is_over_1000_lines():
    sizes = {path.name: len(path.read_text(encoding="utf-8").splitlines())
             for path in PACKAGE.glob("*.py")}
    assert max(sizes.values()) <= 1000, {name: size for name, size in sizes.items() if size > 1000}
