"""What the command checks before it starts work that an optional dependency finishes: a missing
extra is named, with the line that installs it, before any hand is played."""

from __future__ import annotations


def plot_unavailable(path: str) -> str | None:
    """Why ``burraco arena --plot PATH`` could not draw its plot here, or None when it can: the
    plot needs matplotlib, the ``plot`` extra (docs/bots.md "The arena")."""
    try:
        import matplotlib.figure  # noqa: F401  (what burraco.arena.plot draws with)
    except ImportError as error:
        return (f"--plot {path}: the plot needs the package 'matplotlib', the extra 'plot' "
                f"(pip install 'burraco[plot]'): {error}")
    return None
