"""What ``help()`` shows of the core's classes (pydoc, as ``help(burraco.Game)`` renders it): the
signature lines name no ``self`` type (``push(self, move: ...)``, not ``push(self:
burraco._core.Game, ...)``), and pybind11 is named only where pydoc names the base class and the
metaclass pybind11 gives every bound class, never in a docstring or a signature."""

from __future__ import annotations

import pydoc
import re

import pytest

import burraco._core as core

CLASSES = sorted(name for name, value in vars(core).items()
                 if isinstance(value, type) and not name.startswith("_"))

# The lines pydoc writes from pybind11's base class and metaclass, which every bound class has:
# the class's base in its title and in its method resolution order, the section of what it
# inherits from that base (its __new__), and the note "from <the owner's class>" pydoc puts after
# a static or class method's name (the owner being pybind11's record of the function, or the
# metaclass).
PYBIND11_LINES = [
    re.compile(r"class \w+\(pybind11_builtins\.pybind11_object\)"),
    re.compile(r"\|\s+pybind11_builtins\.pybind11_object"),
    re.compile(r"\|\s+Static methods inherited from pybind11_builtins\.pybind11_object:"),
    re.compile(r"\|\s+__new__\(\*args, \*\*kwargs\) from pybind11_builtins\.pybind11_type"),
    re.compile(r"\|\s+\w+\(.*\)( -> .+)? from pybind11_builtins\.pybind11_"
               r"(type|detail_function_record_\w+)"),
]


def rendered(name: str) -> str:
    return pydoc.render_doc(getattr(core, name), renderer=pydoc.plaintext)


@pytest.mark.parametrize("name", CLASSES)
def test_signatures_name_no_self_type(name):
    text = rendered(name)
    typed_self = [line.strip() for line in text.splitlines()
                  if re.search(r"\(self: (burraco\._core\.|object\b)", line)]
    assert not typed_self, typed_self
    assert "(self" in text  # the methods' signature lines are still there


@pytest.mark.parametrize("name", CLASSES)
def test_pybind11_only_in_the_lines_of_its_base_class(name):
    stray = [line.strip() for line in rendered(name).splitlines()
             if "pybind11" in line
             and not any(shape.fullmatch(line.strip()) for shape in PYBIND11_LINES)]
    assert not stray, stray


def test_the_docstrings_keep_their_signature_and_text():
    doc = core.Cards.count.__doc__
    assert doc.splitlines()[0] == "count(self, card: Card | str) -> int"
    assert "How many copies" in doc
    push = core.Game.push.__doc__
    assert push.splitlines()[0] == "push(self, move: Move | str, /) -> None" and "legal move" in push
