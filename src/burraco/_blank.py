"""Objects that were never initialized: a clear TypeError instead of an AttributeError.

``Game.__new__(Game)`` makes an object that ``__init__`` never filled in. The core's bindings refuse
every method of such an object with a ``TypeError`` (docs/api.md); in pure Python its methods would
fail at their first read of a missing field with an ``AttributeError`` that says nothing useful.
:class:`Initialized` turns exactly those reads (of a field the class declares: its slots, or the
names it lists) into the same ``TypeError``. Ordinary objects never reach ``__getattr__``, so it costs
nothing on any normal path, and an unknown name is still an ``AttributeError`` (``hasattr`` keeps
working).
"""

from __future__ import annotations

from typing import Any

# Each subclass's declared fields (kept here, not on the class, so that dir() shows only its API).
_FIELDS: dict[type, frozenset[str]] = {}


def _slot_names(cls: type) -> set[str]:
    slots = cls.__dict__.get("__slots__", ())
    if isinstance(slots, str):
        return {slots}
    return set(slots)


class Initialized:
    """Base class: a declared field missing from an instance means ``__init__`` never ran.

    Subclasses declare their fields as ``__slots__`` or annotations (a dataclass's), found on their
    own, or, for a class with a ``__dict__``, with the class keyword ``fields=(...)``.
    """

    __slots__ = ()

    def __init_subclass__(cls, fields: tuple[str, ...] = (), **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names = set(fields)
        for klass in cls.__mro__:
            names |= _slot_names(klass)
            names |= set(klass.__dict__.get("__annotations__", {}))  # a dataclass's fields
        _FIELDS[cls] = frozenset(names)

    def __getattr__(self, name: str) -> Any:
        cls = type(self)
        if name in _FIELDS.get(cls, ()):
            raise TypeError(f"this {cls.__name__} object is not initialized: it was made by "
                            f"{cls.__name__}.__new__ without {cls.__name__}.__init__")
        raise AttributeError(f"{cls.__name__!r} object has no attribute {name!r}", name=name,
                             obj=self)
