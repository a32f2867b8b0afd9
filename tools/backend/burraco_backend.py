"""The package's build backend: scikit-build-core, with an sdist made of the tracked files only.

Left to itself, scikit-build-core fills the sdist with every file of the tree that .gitignore does
not exclude, so a file that is neither tracked nor ignored (the ``games.jsonl`` the README's first
command writes, a scratch script) would ship. In a git checkout this backend asks git for the
tracked files and gives scikit-build-core exactly those as the sdist's includes
(``sdist.inclusion-mode = "explicit"``; ``[tool.scikit-build]`` may still exclude some of them).
Outside a checkout (an unpacked sdist, an export) the tree holds only the sdist's files, and
scikit-build-core's own selection is used, less an old PKG-INFO (the sdist gets a new one). Every other hook is scikit-build-core's unchanged.

pyproject.toml points at this file (``build-backend``, ``backend-path``); tests/test_packaging.py
checks the sdist it builds.
"""

from __future__ import annotations

import os
import subprocess

from scikit_build_core import build as _scikit_build
from scikit_build_core.build import (  # noqa: F401  (the hooks a frontend calls)
    build_editable,
    build_wheel,
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    get_requires_for_build_wheel,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

# Characters with a meaning in a .gitignore pattern (scikit-build-core's include syntax).
_SPECIAL = "\\*?["


def tracked_files(root: str = ".") -> list[str] | None:
    """The files git tracks under ``root`` that exist on disk, as paths relative to ``root``,
    or None when ``root`` holds no tracked file (not a git work tree, or git is not installed)."""
    try:
        done = subprocess.run(["git", "ls-files", "-z", "--cached"], cwd=root,
                              capture_output=True, check=False)
    except OSError:
        return None
    if done.returncode != 0:
        return None
    names = [name.decode("utf-8", "surrogateescape") for name in done.stdout.split(b"\0") if name]
    files = [name for name in names if os.path.isfile(os.path.join(root, name))]
    return files or None


def _pattern(path: str) -> str:
    """A gitignore pattern that matches ``path`` (relative to the root) and nothing else."""
    return "/" + "".join("\\" + char if char in _SPECIAL else char for char in path)


def _listed(settings: dict, key: str) -> list[str]:
    given = settings.get(key, [])
    return given.split(";") if isinstance(given, str) else list(given)


def build_sdist(sdist_directory: str, config_settings: dict | None = None) -> str:
    settings = dict(config_settings or {})
    if "sdist.inclusion-mode" not in settings:
        files = tracked_files()
        if files is not None:
            settings["sdist.inclusion-mode"] = "explicit"
            settings["sdist.include"] = ([_pattern(name) for name in sorted(files)]
                                         + _listed(settings, "sdist.include"))
        else:
            # An unpacked sdist: its PKG-INFO is written anew, so the old one must not be copied.
            settings["sdist.exclude"] = ["/PKG-INFO"] + _listed(settings, "sdist.exclude")
    return _scikit_build.build_sdist(sdist_directory, settings)
