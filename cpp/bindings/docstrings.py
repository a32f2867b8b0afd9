"""The docstrings and signatures of burraco._core, from their one home, the type stub
src/burraco/_core.pyi, as a C++ header of a table of string literals for the binding.

    python cpp/bindings/docstrings.py src/burraco/_core.pyi HEADER

CMakeLists.txt runs it at build time and writes the header into the build directory (HEADER is
<build>/generated/burraco_binding/docstrings.hpp), never into the source tree; the binding's files
include it through binding.hpp. ``burraco_doc("Game", "push")`` is the docstring of ``Game.push``,
``burraco_doc("Game", "__doc__")`` the class's own, ``burraco_doc("module", "perft")`` a function's
and ``burraco_doc("module", "__doc__")`` the module's: once everything is bound, the module's
entry point (module.cpp) gives each object of the module its docstring from this table, so the
binding's files name none.

A function's entry starts with its signature, written from the stub: the binding turns pybind11's
own signature lines off, so the argument types are written once, in the stub. First, where one
signature covers every call, the line CPython reads as ``__text_signature__``
(``push(self, move, /)`` then ``--`` and a blank line), so that ``inspect.signature`` works
(the ``cpython`` form writes ``$self`` there, for a method CPython binds itself); then
the line help() shows, with the stub's types and its aliases written out
(``push(self, move: Move | str, /) -> None``), one line per overload; then a blank line and the
docstring's text, if the stub has one. A property's entry is its text alone.

The stub wraps a docstring at 100 columns; its text is the docstring's lines, stripped and joined
by single spaces, and a blank line starts a new paragraph (two newlines). Of an overloaded function
the first overload holds the docstring. tests/test_docstrings.py reads the stub with
``docstrings()`` too and compares every text with the built module's.

Standard library only: it runs inside the build, before anything is installed.
"""

from __future__ import annotations

import ast
import copy
import sys
from pathlib import Path

# The scope of the module's own docstring and of its functions.
MODULE = "module"


def text_of(docstring: str) -> str:
    """The text a docstring of the stub stands for: its wrapped lines joined by single spaces,
    its paragraphs (split by a blank line) by two newlines."""
    paragraphs: list[list[str]] = [[]]
    for line in docstring.strip().splitlines():
        if line.strip():
            paragraphs[-1].append(line.strip())
        elif paragraphs[-1]:
            paragraphs.append([])
    return "\n\n".join(" ".join(lines) for lines in paragraphs if lines)


def _decorated(node: ast.FunctionDef, *names: str) -> bool:
    return any(ast.unparse(decorator) in names for decorator in node.decorator_list)


def _overloaded(node: ast.FunctionDef) -> bool:
    return _decorated(node, "overload", "typing.overload")


def aliases(tree: ast.Module) -> dict[str, ast.expr]:
    """The stub's type aliases (``_MoveLike: TypeAlias = Move | str``) by name."""
    return {node.target.id: node.value for node in tree.body
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
            and node.value is not None and ast.unparse(node.annotation) == "TypeAlias"}


def qualified_names(tree: ast.Module) -> dict[str, str]:
    """What the stub's imported names stand for, written in full: ``Iterable`` is
    ``collections.abc.Iterable``, ``np`` is ``numpy``, ``CapsuleType`` is
    ``typing_extensions.CapsuleType`` (the documentation site resolves or ignores a name by its
    module)."""
    names: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            # A relative import is of the package the stub belongs to, burraco.
            module = ("burraco." if node.level else "") + node.module
            for alias in node.names:
                names[alias.asname or alias.name] = f"{module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                names[alias.asname or alias.name] = alias.name
    return names


class _WriteOut(ast.NodeTransformer):
    """An annotation with the stub's aliases replaced by what they stand for (help() shows the
    types, not the stub's private names) and its imported names written in full."""

    def __init__(self, known: dict[str, ast.expr], imported: dict[str, str]) -> None:
        self.known = known
        self.imported = imported

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id in self.known:
            return self.visit(copy.deepcopy(self.known[node.id]))
        if node.id in self.imported:
            return ast.Name(self.imported[node.id], node.ctx)
        return node


def signature(node: ast.FunctionDef, known: dict[str, ast.expr], imported: dict[str, str],
              method: bool, text: bool = False) -> str:
    """One signature line of a function of the stub: what help() shows (``push(self, move: Move |
    str, /) -> None``; ``self`` untyped), or with ``text`` CPython's ``__text_signature__`` form
    (``push(self, move, /)``: names and defaults alone)."""
    arguments = node.args

    def write(arg: ast.arg, default: ast.expr | None, star: str = "") -> str:
        first = method and arg is (arguments.posonlyargs + arguments.args)[0]
        name = star + arg.arg
        shown = None if first or text or arg.annotation is None else \
            ast.unparse(_WriteOut(known, imported).visit(copy.deepcopy(arg.annotation)))
        out = name if shown is None else f"{name}: {shown}"
        if default is not None:
            out += ("=" if shown is None else " = ") + ast.unparse(default)
        return out

    positional = [*arguments.posonlyargs, *arguments.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(arguments.defaults))
    defaults += arguments.defaults
    parts = [write(arg, default) for arg, default in zip(positional, defaults)]
    if arguments.posonlyargs:
        parts.insert(len(arguments.posonlyargs), "/")
    if arguments.vararg is not None:
        parts.append(write(arguments.vararg, None, "*"))
    elif arguments.kwonlyargs:
        parts.append("*")
    parts += [write(arg, default) for arg, default in zip(arguments.kwonlyargs,
                                                           arguments.kw_defaults)]
    if arguments.kwarg is not None:
        parts.append(write(arguments.kwarg, None, "**"))
    line = f"{node.name}({', '.join(parts)})"
    if not text and node.returns is not None:
        line += " -> " + ast.unparse(
            _WriteOut(known, imported).visit(copy.deepcopy(node.returns)))
    return line


def docstrings(source: str, filename: str = "_core.pyi") -> dict[tuple[str, str], str]:
    """Every docstring of the stub ``source`` by (scope, name): (``module``, ``__doc__``) for the
    module, (``module``, function), (class, ``__doc__``) and (class, member). Raises ValueError
    naming the place of a docstring that would be lost (on a later overload) or given twice."""
    return _read(source, filename)[0]


def documentation(source: str, filename: str = "_core.pyi") -> dict[tuple[str, str], str]:
    """What each entry of the table holds, by (scope, name): a function's signature lines then its docstring
    (module docstring), a class's, a property's or the module's docstring alone."""
    docs, signatures = _read(source, filename)
    out = dict(docs)
    for key, lines in signatures.items():
        out[key] = "\n".join(lines) + ("\n\n" + docs[key] if key in docs else "")
    return out


def _read(source: str, filename: str
          ) -> tuple[dict[tuple[str, str], str], dict[tuple[str, str], list[str]]]:
    tree = ast.parse(source, filename)
    known = aliases(tree)
    imported = qualified_names(tree)
    found: dict[tuple[str, str], str] = {}
    overloads: dict[tuple[str, str], list[ast.FunctionDef]] = {}

    def where(node: ast.AST) -> str:
        return f"{filename}:{getattr(node, 'lineno', 1)}"

    def add(scope: str, name: str, node: ast.AST) -> None:
        doc = ast.get_docstring(node, clean=True)
        if doc is None:
            return
        if (scope, name) in found:
            raise ValueError(f"{where(node)}: {scope}.{name} has a docstring twice")
        found[scope, name] = text_of(doc)

    def add_functions(scope: str, body: list[ast.stmt]) -> None:
        seen: set[str] = set()
        for node in body:
            if not isinstance(node, ast.FunctionDef):
                continue
            if not _decorated(node, "property"):
                overloads.setdefault((scope, node.name), []).append(node)
            if node.name in seen and _overloaded(node):
                if ast.get_docstring(node) is not None:
                    raise ValueError(f"{where(node)}: {scope}.{node.name}: the docstring of an "
                                     "overloaded function goes on its first overload")
                continue
            seen.add(node.name)
            add(scope, node.name, node)

    add(MODULE, "__doc__", tree)
    add_functions(MODULE, tree.body)
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            if node.name == MODULE:
                raise ValueError(f"{where(node)}: a class named {MODULE!r} would share the "
                                 "module's names")
            add(node.name, "__doc__", node)
            add_functions(node.name, node.body)
    signatures: dict[tuple[str, str], list[str]] = {}
    for (scope, name), nodes in overloads.items():
        method = scope != MODULE and not _decorated(nodes[0], "staticmethod")
        lines = [signature(node, known, imported, method) for node in nodes]
        if len(nodes) == 1:  # one signature for every call: inspect.signature can read it
            lines = [signature(nodes[0], known, imported, method, text=True), "--", ""] + lines
        signatures[scope, name] = lines
    return found, signatures


def c_string(text: str) -> str:
    """A C++ string literal of ``text`` in UTF-8: a newline as \\n, any other byte that is not
    printable ASCII in octal (unlike a hex escape, it cannot run into the characters after it)."""
    out = []
    for byte in text.encode("utf-8"):
        char = chr(byte)
        if char in '"\\':
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif 32 <= byte < 127:
            out.append(char)
        else:
            out.append(f"\\{byte:03o}")
    return '"' + "".join(out) + '"'


def header(docs: dict[tuple[str, str], str], stub: str) -> str:
    lines = [
        f"// Generated by cpp/bindings/docstrings.py from {stub}: edit the docstrings there.",
        "#pragma once",
        "",
        "#include <string_view>",
        "",
        "namespace burraco_binding {",
        "",
        "// The docstring of a member of the module (scope \"module\") or of a class, as the stub has",
        "// it (signatures first); with `cpython`, the form for a method CPython binds itself, whose",
        "// text signature marks `$self` (fast_paths.cpp). Null where the stub has none.",
        "inline const char* burraco_doc(std::string_view scope, std::string_view name,",
        "                               bool cpython = false) {",
        "  struct Entry {",
        "    std::string_view scope, name;",
        "    const char *text, *cpython;",
        "  };",
        "  static constexpr Entry entries[] = {",
    ]
    for (scope, name), text in docs.items():
        method = None
        if scope != MODULE and text.startswith(f"{name}(self") and "\n--\n" in text:
            method = f"{name}($self" + text[len(name) + 5:]
        lines.append(f'      {{"{scope}", "{name}", {c_string(text)},')
        lines.append(f"       {c_string(method) if method else 'nullptr'}}},")
    lines += [
        "  };",
        "  for (const Entry& e : entries)",
        "    if (e.scope == scope && e.name == name) return cpython && e.cpython ? e.cpython : e.text;",
        "  return nullptr;",
        "}",
        "",
        "}  // namespace burraco_binding",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(f"usage: {argv[0]} STUB HEADER", file=sys.stderr)
        return 2
    stub, out = Path(argv[1]), Path(argv[2])
    try:
        docs = documentation(stub.read_text(encoding="utf-8"), str(stub))
    except (OSError, SyntaxError, ValueError) as error:
        print(f"{argv[0]}: {error}", file=sys.stderr)
        return 1
    text = header(docs, "src/burraco/_core.pyi")
    # Written only when it changes, so that an edit elsewhere in the stub rebuilds nothing.
    if not out.is_file() or out.read_text(encoding="utf-8") != text:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
