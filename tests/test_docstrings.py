"""The docstrings and signatures of burraco._core have one home, the type stub
src/burraco/_core.pyi: the build writes them into the binding (cpp/bindings/docstrings.py, a header
holding a table of them, which the module's entry point gives to every object), so that help(),
inspect.signature and the documentation site show the same text as an editor reading the stub.

* Every docstring of the stub is, exactly, the text the built module shows for that object (after
  the stub's signature lines, first): a stub edited without a rebuild fails here.
* Every docstring the module shows is the stub's, except the Rules knobs' (the knob table's,
  cpp/src/rules.cpp): a docstring written into the binding again fails here.
* Every public class, method, property and function of the module has one.
* The generator: how a wrapped docstring becomes one line, and what it refuses.
"""

from __future__ import annotations

import ast
import importlib.util
import types
from pathlib import Path
from typing import Iterator

import pytest

from burraco import _core

ROOT = Path(__file__).resolve().parent.parent
STUB = ROOT / "src" / "burraco" / "_core.pyi"
GENERATOR = ROOT / "cpp" / "bindings" / "docstrings.py"


def load_generator() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("burraco_docstrings", GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


generator = load_generator()


def stub_docstrings() -> dict[tuple[str, str], str]:
    return generator.docstrings(STUB.read_text(encoding="utf-8"), str(STUB))


def knob_names() -> set[str]:
    """The Rules properties the knob table documents (`sides` is listed with six players)."""
    names = {name for preset in _core.Rules.PRESETS for name in _core.Rules(preset).knobs()}
    return names | set(_core.Rules("brazilian", players=6).knobs())


def shown(obj: object, name: str) -> str:
    """The text help() shows for ``obj`` without the signature lines the stub's table puts first:
    ``name(...) -> type`` (one a line for overloads) and a blank line."""
    doc = getattr(obj, "__doc__", None) or ""
    if isinstance(obj, (type, property, types.ModuleType)):
        return doc
    signature, _, text = doc.partition("\n\n")
    if not signature.startswith(name + "("):
        return doc
    return text[:-1] if text.endswith("\n") else text


def runtime_objects() -> Iterator[tuple[tuple[str, str], object]]:
    """((scope, name), documented object) of everything the module documents, as the generator
    names it: the module and its functions, each class and each member it defines (a static
    method's function, a property itself), private and dunder ones too."""
    yield ("module", "__doc__"), _core
    for name, value in vars(_core).items():
        if isinstance(value, type):
            yield (name, "__doc__"), value
            for member, raw in vars(value).items():
                if isinstance(raw, (staticmethod, classmethod)):
                    yield (name, member), raw.__func__
                elif isinstance(raw, property) or (
                        callable(raw) and not isinstance(raw, types.WrapperDescriptorType)):
                    yield (name, member), raw  # a slot wrapper is object's, not the binding's
        elif callable(value):
            yield ("module", name), value


def test_every_docstring_of_the_stub_is_the_one_the_module_shows():
    documented = dict(runtime_objects())
    docs = stub_docstrings()
    problems = []
    for (scope, name), text in docs.items():
        if (scope, name) not in documented:
            problems.append(f"{scope}.{name}: documented in the stub, not in the module")
            continue
        got = shown(documented[scope, name], name)
        if got != text:
            problems.append(f"{scope}.{name}:\n  the stub:   {text!r}\n  the module: {got!r}")
    assert not problems, "rebuild after editing the stub?\n" + "\n".join(problems)
    assert len(docs) > 180  # every class and function of the module: the stub was read whole


def test_the_module_shows_no_docstring_but_the_stubs():
    docs = stub_docstrings()
    knobs = knob_names()
    assert {"players", "sides", "opening_minimum"} <= knobs
    elsewhere = []
    for (scope, name), obj in runtime_objects():
        if scope == "Rules" and name in knobs:
            continue
        text = shown(obj, name)
        if text and (scope, name) not in docs:
            elsewhere.append(f"{scope}.{name}: {text[:60]!r}")
    assert not elsewhere, "docstrings that are not the stub's:\n" + "\n".join(elsewhere)


def test_every_public_name_has_a_docstring():
    missing = [f"{scope}.{name}" for (scope, name), obj in runtime_objects()
               if not name.startswith("_") and not shown(obj, name).strip()]
    classes = [name for name, value in vars(_core).items()
               if isinstance(value, type) and not name.startswith("_")]
    missing += [name for name in classes if not (vars(getattr(_core, name)).get("__doc__"))]
    assert not missing, missing
    assert len(classes) >= 12  # Card ... VectorGames: the walk saw every class of the module


def test_the_stubs_docstrings_fit_in_100_columns():
    lines = STUB.read_text(encoding="utf-8").splitlines()
    tree = ast.parse("\n".join(lines))
    long = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and (
                    isinstance(first.value.value, str)):
                long += [number for number in range(first.lineno, first.end_lineno + 1)
                         if len(lines[number - 1]) > 100]
    assert not long, f"lines of docstrings longer than 100 columns: {long}"


# ---- the generator ------------------------------------------------------------------------------

SMALL_STUB = '''
"""The module."""

from collections.abc import Iterable
from typing import TypeAlias, overload

class Thing:
    """A thing: Thing('x'),
    wrapped."""
    def __init__(self, text: str) -> None:
        """Makes one.

        A second paragraph."""
    @overload
    def get(self, i: int) -> int:
        """The item."""
    @overload
    def get(self, i: slice) -> list[int]: ...
    @property
    def size(self) -> int: ...

_Like: TypeAlias = Thing | str

def make(text: _Like, *, n: int = 2, tags: Iterable[str] = ()) -> Thing:
    """Quotes "x" and a \\\\ backslash."""
'''


def test_the_generator_reads_the_docstrings_by_scope_and_name():
    assert generator.docstrings(SMALL_STUB) == {
        ("module", "__doc__"): "The module.",
        ("module", "make"): 'Quotes "x" and a \\ backslash.',
        ("Thing", "__doc__"): "A thing: Thing('x'), wrapped.",
        ("Thing", "__init__"): "Makes one.\n\nA second paragraph.",
        ("Thing", "get"): "The item.",
    }


def test_the_generator_writes_the_signatures_before_the_docstrings():
    """Each function's text starts with its signatures: the text signature inspect reads (one
    signature only), then the stub's lines with its aliases and imported names written out; a
    property's is its docstring alone."""
    docs = generator.documentation(SMALL_STUB)
    assert docs["Thing", "__init__"] == (
        "__init__(self, text)\n--\n\n__init__(self, text: str) -> None\n\n"
        "Makes one.\n\nA second paragraph.")
    assert docs["Thing", "get"] == (
        "get(self, i: int) -> int\nget(self, i: slice) -> list[int]\n\nThe item.")
    assert docs["module", "make"] == (
        "make(text, *, n=2, tags=())\n--\n\nmake(text: Thing | str, *, n: int = 2, "
        "tags: collections.abc.Iterable[str] = ()) -> Thing\n\n"
        'Quotes "x" and a \\ backslash.')
    assert docs["Thing", "__doc__"] == "A thing: Thing('x'), wrapped."
    assert ("Thing", "size") not in docs  # a property with no docstring


def test_the_generator_writes_a_table_of_string_literals():
    header = generator.header(generator.documentation(SMALL_STUB), "small.pyi")
    assert "inline const char* burraco_doc(std::string_view scope, std::string_view name," in header
    assert ('{"Thing", "__init__", "__init__(self, text)\\n--\\n\\n__init__(self, text: str) -> '
            'None\\n\\nMakes one.\\n\\nA second paragraph.",') in header
    # The form for a method CPython binds itself marks its instance; a function has none.
    assert '"__init__($self, text)\\n--\\n\\n' in header
    assert '"make(text, *, n=2, tags=())\\n--\\n\\nmake(text: Thing | str' in header
    assert 'backslash.",\n       nullptr},' in header
    assert generator.c_string("é") == '"\\303\\251"'  # octal: no hex escape runs on
    assert "size" not in header


@pytest.mark.parametrize("stub, problem", [
    ("from typing import overload\n@overload\ndef f(x: int) -> int: ...\n"
     "@overload\ndef f(x: str) -> str:\n    '''Lost.'''\n", "first overload"),
    ("class C:\n    def f(self) -> None:\n        '''One.'''\n"
     "    def f(self) -> None:\n        '''Two.'''\n", "twice"),
    ("class module:\n    '''A class.'''\n", "module"),
])
def test_the_generator_refuses_a_docstring_it_would_lose(stub, problem):
    with pytest.raises(ValueError, match=problem):
        generator.docstrings(stub)

