"""The layout of the package: its modules import each other bottom-up, with no circle, and only
``python -m burraco`` reaches the command.

Every module of ``burraco`` (``.py`` files, and the extension's stub ``_core.pyi``, which is what
the type checker reads for ``burraco._core``) is parsed with ``ast`` (nothing is imported). Every
import of another module of the package counts: at module level or inside a function or method,
written ``from .x import y``, ``from . import x``, ``from .. import x`` or with the absolute name,
and inside ``if TYPE_CHECKING:`` too (a type-only circle is still a circle: the modules cannot be
read one at a time). Importing a module does not count as importing its parent packages.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from graphs import find_cycle

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "burraco"
ROOT = "burraco"
REFERENCE = PACKAGE / "reference"


def _imported_nodes(node: ast.AST):
    """Every import statement under ``node``, type-only ones included."""
    for child in ast.walk(node):
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child


def module_names(package: Path = PACKAGE, root: str = ROOT) -> dict[str, Path]:
    """Dotted module name (``burraco.cli._main``; a package by its own name) -> its file. A stub
    stands for its module when no ``.py`` of that name exists."""
    found: dict[str, Path] = {}
    for path in sorted(package.rglob("*.py*")):
        if path.suffix not in (".py", ".pyi"):
            continue
        parts = list(path.relative_to(package).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        name = ".".join([root, *parts])
        if path.suffix == ".py" or name not in found:
            found[name] = path
    return found


def _package_of(name: str, path: Path) -> str:
    return name if path.stem == "__init__" else name.rpartition(".")[0]


def import_graph(package: Path = PACKAGE, root: str = ROOT) -> dict[str, set[str]]:
    """module -> the modules of the package it imports (by dotted name)."""
    modules = module_names(package, root)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        edges: set[str] = set()
        for node in _imported_nodes(tree):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                if node.level:
                    base = _package_of(name, path)
                    for _ in range(node.level - 1):
                        base = base.rpartition(".")[0]
                    base = f"{base}.{node.module}" if node.module else base
                else:
                    base = node.module or ""
                # from X import y: y is a module of X, or a name of X.
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                           for alias in node.names]
            for target in targets:
                while target and target not in modules:  # a name inside a module
                    target = target.rpartition(".")[0]
                if target and target != name:
                    edges.add(target)
        graph[name] = edges
    return graph


def test_the_package_imports_bottom_up():
    graph = import_graph()
    cycle = find_cycle(graph)
    assert cycle is None, "modules of burraco import each other in a circle: " + " -> ".join(
        cycle or [])


def test_only_main_imports_the_command():
    """The library never loads the command (argparse, rich, the subcommands): a Ray worker or a
    server imports what it plays with, nothing more."""
    graph = import_graph()
    outside = {name for name, targets in graph.items()
               if not (name == "burraco.cli" or name.startswith("burraco.cli."))
               and any(t == "burraco.cli" or t.startswith("burraco.cli.") for t in targets)}
    assert outside == {"burraco.__main__"}


def test_the_graph_sees_the_imports():
    # The scanner reads the imports that are there: the package imports its engine, the reference
    # builds its game on its state, the command its subcommands, and the library its bots.
    graph = import_graph()
    assert {"burraco._core", "burraco._match"} <= graph["burraco"]
    assert "burraco._errors" in graph["burraco._policy"]
    assert {"burraco.reference.game", "burraco.reference.rules"} <= graph["burraco.reference"]
    assert "burraco.reference.state" in graph["burraco.reference.game"]
    assert {"burraco.cli.play", "burraco.cli.selfplay"} <= graph["burraco.cli._main"]
    assert "burraco.bots" in graph["burraco.distributed"] & graph["burraco.arena"]
    assert "burraco.bots" in graph["burraco.server._table"] & graph["burraco.reference.policies"]
    assert "burraco.cli" in graph["burraco.__main__"]
    # The reference's game is cut along the core's seams: a module a concept, none of which
    # knows the Game.
    ref = {name[len("burraco.reference."):]: {t[len("burraco.reference."):] for t in targets
                                              if t.startswith("burraco.reference.")}
           for name, targets in graph.items() if name.startswith("burraco.reference.")}
    assert "game" not in ref["validate"] | ref["observation"] | ref["policies"]
    seams = ("deal", "apply", "movegen", "seats", "state_string", "validate", "scoring")
    assert set(seams) <= ref["game"]
    assert not any("game" in ref[module] for module in seams)
    assert "apply" in ref["movegen"] and "movegen" not in ref["apply"]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from .b import x\n", {"pkg.b"}),
        ("from . import b\n", {"pkg.b"}),
        ("from . import Name\n", {"pkg"}),
        ("import pkg.b\n", {"pkg.b"}),
        ("from pkg.b import x\n", {"pkg.b"}),
        ("from pkg import b\n", {"pkg.b"}),
        ("def f():\n    from .b import x\n", {"pkg.b"}),
        ("class C:\n    def m(self):\n        from . import b\n", {"pkg.b"}),
        ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import x\n", {"pkg.b"}),
        ("if TYPE_CHECKING:\n    pass\nelse:\n    from .b import x\n", {"pkg.b"}),
        ("from .sub import c\n", {"pkg.sub.c"}),
        ("from .sub.c import name\n", {"pkg.sub.c"}),
        ("import os\nfrom collections import abc\n", set()),
    ],
)
def test_the_scanner_on_small_packages(tmp_path, source, expected):
    (tmp_path / "a.py").write_text(source, encoding="utf-8")
    (tmp_path / "b.py").write_text("", encoding="utf-8")
    (tmp_path / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "sub" / "c.py").write_text("from .. import b\nfrom ..a import x\n",
                                           encoding="utf-8")
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg.a"] == expected
    assert graph["pkg.sub.c"] == {"pkg.b", "pkg.a"}  # two levels up


def test_a_stub_stands_for_its_extension(tmp_path):
    (tmp_path / "__init__.py").write_text("from ._ext import f\n", encoding="utf-8")
    (tmp_path / "_ext.pyi").write_text("from ._types import T\n", encoding="utf-8")
    (tmp_path / "_types.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                        "    from ._ext import f\n", encoding="utf-8")
    graph = import_graph(tmp_path, "pkg")
    assert graph == {"pkg": {"pkg._ext"}, "pkg._ext": {"pkg._types"}, "pkg._types": {"pkg._ext"}}
    assert find_cycle(graph) == ["pkg._ext", "pkg._types", "pkg._ext"]


def test_a_circle_is_found():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None
    assert find_cycle({"a": {"a"}}) == ["a", "a"]


def test_a_ray_shard_loads_neither_the_command_nor_rich():
    """What a Ray worker runs (burraco.distributed.play_shard) once took load_policies, unit_scores
    and CliError from the command, and so loaded argparse, rich and every subcommand."""
    import subprocess
    import sys

    code = ("import sys, burraco.distributed as d\n"
            "d.play_shard(d.make_run('italian-2p', 2, policies=['greedy', 'heuristic:2p']), 0)\n"
            "print(sorted(m for m in sys.modules if m == 'rich' or m.startswith('burraco.cli')))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


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
    offenders = [f"{path.name}:{read}" for path in sorted(REFERENCE.glob("*.py"))
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


def counted_lines(path: Path) -> int:
    """The lines of a file; of a stub, those outside its docstrings. The stub of the extension is
    the home of the extension's docstrings (cpp/bindings/docstrings.py writes them into the
    binding), prose that the binding's files would hold otherwise; what it declares is counted."""
    text = path.read_text(encoding="utf-8")
    count = len(text.splitlines())
    if path.suffix == ".pyi":
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and (
                    ast.get_docstring(node) is not None):
                docstring = node.body[0]
                count -= docstring.end_lineno - docstring.lineno + 1
    return count


def test_no_source_file_is_over_1000_lines():
    """Every Python module of the package (its stub included, without its docstrings), the
    browser table's scripts, every tool and bench, and every C++ file of the core and the binding
    stays under 1,000 lines: a file longer than that holds more than one concept."""
    root = PACKAGE.parent.parent
    files = [*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.pyi"), *PACKAGE.rglob("*.js"),
             *(root / "tools").rglob("*.py"), *(root / "benches").rglob("*.py")]
    for folder in ("cpp/src", "cpp/include", "cpp/bindings"):
        files += [path for path in (root / folder).rglob("*") if path.suffix in (".cpp", ".hpp", ".h")]
    assert len(files) > 100, files  # the folders are where this test looks for them
    sizes = {str(path.relative_to(root)): counted_lines(path) for path in files}
    over = {name: size for name, size in sizes.items() if size > 1000}
    assert not over, over