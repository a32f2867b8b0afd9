"""The layout of the reference engine: its modules import each other bottom-up, with no circle.

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
