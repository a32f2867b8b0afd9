"""Shared fixtures: every engine-level test runs on both engines."""

import importlib

import pytest

ENGINES = ("core", "reference")


def load_engine(name: str):
    """The module that implements the public API: ``burraco`` (C++ core) or ``burraco.reference``."""
    return importlib.import_module("burraco" if name == "core" else "burraco.reference")


def engine_name(engine) -> str:
    """``'core'`` or ``'reference'``: the name :func:`load_engine` takes for an engine module (for
    the tests that give the slow pure-Python reference a smaller share)."""
    return "core" if engine.__name__ == "burraco" else "reference"


@pytest.fixture(params=ENGINES)
def engine(request):
    """The public API of one engine; tests written against it run on both."""
    return load_engine(request.param)


@pytest.fixture
def core():
    return load_engine("core")


@pytest.fixture
def reference():
    return load_engine("reference")
