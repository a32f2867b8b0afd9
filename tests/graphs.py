"""A circle in a directed graph, for the layout tests of the package's imports
(tests/test_layout.py) and of the core's includes (tests/test_includes.py)."""

from __future__ import annotations


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A circle (its nodes, the first repeated at the end), or None."""
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
