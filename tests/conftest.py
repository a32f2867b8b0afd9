"""Shared fixtures: every engine-level test runs on both engines."""

import importlib

import pytest

ENGINES = ("core", "reference")


def load_engine(name: str):
    """The module that implements the public API: ``burraco`` (C++ core) or ``burraco.reference``."""
    return importlib.import_module("burraco" if name == "core" else "burraco.reference")


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


# Whole-game differential, perft and invariant modules: they pass, but their default sizes do not
# yet fit the CI budget (a run of the first two took more than 15 minutes here), so until they are
# tuned they run only with ``-m slow``.
_SLOW_MODULES = {"test_differential_game.py", "test_game_invariants.py", "test_perft.py"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.name in _SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
