"""Objects a hostile caller passes where an integer is expected (the environments' tests)."""

from __future__ import annotations


class RaisingIndex:
    """An object whose __index__ raises."""

    def __index__(self) -> int:
        raise RuntimeError("no index here")


class HugeIndex:
    """An object whose __index__ is far outside every range."""

    def __index__(self) -> int:
        return 2**200
