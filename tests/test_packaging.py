"""Packaging: the sdist holds exactly the files git tracks, the build is out of tree, and the
installed metadata names the licence and the project's pages (README "Developing").

The sdist is built (with ``build``, calling the package's own backend, tools/backend/) from a
scratch git repository holding a copy of every tracked file of this checkout, the working-tree
versions, plus files that are not tracked: some that .gitignore would let through (a
``games.jsonl`` like the one the README's first command writes, a scratch script, notes beside the
sources) and some it ignores. The sdist must list the tracked files and PKG-INFO, nothing more,
nothing less. Built again from the unpacked sdist (no git there), it must hold the same files.
"""

from __future__ import annotations

import importlib.metadata
import re
import shutil
import subprocess
import tarfile
from pathlib import Path

import build
import pytest

ROOT = Path(__file__).resolve().parent.parent

# Files a checkout may hold that git does not track: each must stay out of the sdist.
UNTRACKED = [
    "games.jsonl",
    "scratch.py",
    "tests/test_scratch.py",
    "tests/data/notes.txt",
    "src/burraco/notes.txt",
    "cpp/src/experiment.cpp",
    "docs/draft.md",
    "build/CMakeCache.txt",
    "src/burraco/__pycache__/cli.cpython-311.pyc",
    "src/burraco/_core.cpython-311-x86_64-linux-gnu.so",
]


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                          check=True).stdout


def tracked_files() -> list[str]:
    """The files of this checkout that git tracks (and that exist in the working tree)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip(f"{ROOT} is not a git checkout: the sdist is defined by git's tracked files")
    names = git("ls-files", "-z", cwd=ROOT).split("\0")
    return sorted(name for name in names if name and (ROOT / name).is_file())


def sdist_members(sdist: Path) -> list[str]:
    """The files of an sdist, relative to its top directory."""
    with tarfile.open(sdist) as archive:
        names = [member.name for member in archive.getmembers() if not member.isdir()]
    top = {name.split("/", 1)[0] for name in names}
    assert len(top) == 1, f"the sdist has more than one top directory: {sorted(top)}"
    return sorted(name.split("/", 1)[1] for name in names)


def build_sdist(source: Path, out: Path) -> Path:
    """Builds the sdist of ``source`` into ``out`` with the backend of its pyproject.toml
    (in a subprocess, with this interpreter: the backend's requirements are in the test extra)."""
    return Path(build.ProjectBuilder(source).build("sdist", out))


@pytest.fixture(scope="module")
def scratch_checkout(tmp_path_factory) -> tuple[Path, list[str]]:
    """A git repository whose tracked files are a copy of this checkout's, plus untracked files."""
    files = tracked_files()
    copy = tmp_path_factory.mktemp("checkout") / "burraco"
    for name in files:
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, copy / name)
    git("init", "-q", cwd=copy)
    git("add", "--", *files, cwd=copy)
    for name in UNTRACKED:
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        (copy / name).write_text("not tracked\n", encoding="utf-8")
    return copy, files


def test_the_sdist_holds_the_tracked_files_and_nothing_else(scratch_checkout, tmp_path):
    copy, files = scratch_checkout
    assert set(UNTRACKED).isdisjoint(files)
    assert git("ls-files", "--others", cwd=copy).split(), "the untracked files were not made"
    members = sdist_members(build_sdist(copy, tmp_path))
    assert len(members) == len(set(members)), "a file is in the sdist twice"
    shipped_untracked = sorted(set(members) & set(UNTRACKED))
    assert not shipped_untracked, f"untracked files in the sdist: {shipped_untracked}"
    missing = sorted(set(files) - set(members))
    assert not missing, f"tracked files missing from the sdist: {missing}"
    extra = sorted(set(members) - set(files) - {"PKG-INFO"})
    assert not extra, f"files in the sdist that git does not track: {extra}"
    assert "PKG-INFO" in members


def test_what_a_build_and_the_tests_need_is_tracked():
    files = set(tracked_files())
    needed = {"pyproject.toml", "CMakeLists.txt", "README.md", "LICENSE", ".ci/run",
              "tools/backend/burraco_backend.py", "tests/conftest.py", "src/burraco/__init__.py",
              "src/burraco/py.typed", "src/burraco/_core.pyi", "docs/index.md",
              "cpp/bindings/docstrings.py"}
    assert needed <= files, sorted(needed - files)
    for folder in ("cpp/src", "cpp/include/burraco", "cpp/bindings", "tests/data", "tools",
                   "benches", "docs"):
        assert any(name.startswith(folder + "/") for name in files), folder


def test_an_unpacked_sdist_builds_the_same_sdist(scratch_checkout, tmp_path):
    """Outside a git checkout the backend falls back to scikit-build-core's own selection, which
    on an unpacked sdist must give back the same files."""
    copy, _ = scratch_checkout
    first = build_sdist(copy, tmp_path / "first")
    with tarfile.open(first) as archive:
        if hasattr(tarfile, "data_filter"):
            archive.extractall(tmp_path / "unpacked", filter="data")
        else:  # Python before 3.10.12 / 3.11.4: no extraction filters
            archive.extractall(tmp_path / "unpacked")
    (unpacked,) = (tmp_path / "unpacked").iterdir()
    assert not (unpacked / ".git").exists()
    second = build_sdist(unpacked, tmp_path / "second")
    assert sdist_members(second) == sdist_members(first)  # duplicates counted too


def test_pip_install_builds_out_of_tree():
    """No persistent build directory in pyproject.toml: `pip install .` builds in a temporary
    one; the developer recipe of the README passes -Cbuild-dir=build itself."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert not re.search(r"^\s*build-dir\s*=", pyproject, flags=re.MULTILINE)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "pip install --no-build-isolation -Cbuild-dir=build -e '.[test]'" in readme


def test_installed_metadata_names_the_licence_and_the_pages():
    metadata = importlib.metadata.metadata("burraco")
    assert metadata["License-Expression"] == "MIT"
    assert "LICENSE" in metadata.get_all("License-File")
    urls = dict(entry.split(", ", 1) for entry in metadata.get_all("Project-URL"))
    assert set(urls) == {"Documentation", "Source", "Issues"}
    assert all(url.startswith("https://github.com/burraco-engine/burraco") for url in urls.values())
    assert urls["Documentation"].endswith("/docs")
    licence = [path for path in importlib.metadata.files("burraco") if path.name == "LICENSE"]
    assert licence, "the installed distribution holds no LICENSE"
    text = licence[0].read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "the burraco developers" in text
    assert text == (ROOT / "LICENSE").read_text(encoding="utf-8")
    requires = metadata.get_all("Requires-Dist")
    assert any(re.fullmatch(r"rich>=13", entry) for entry in requires), requires
    assert any(entry.startswith("pytest-xdist") and 'extra == "test"' in entry
               for entry in requires), requires


def test_the_browser_tables_files_go_into_the_wheel_and_the_sdist():
    """The browser table (docs/server.md) is the static folder of burraco.server: every file its
    pages load is there, tracked by git (so in the sdist) and not ignored, inside the package
    tree that pyproject's wheel.packages copies whole, and no wheel or sdist exclude names it."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11 and later
    static = ROOT / "src" / "burraco" / "server" / "static"
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    build_settings = settings["tool"]["scikit-build"]
    assert "src/burraco" in build_settings["wheel"]["packages"]
    assert not build_settings.get("wheel", {}).get("exclude")
    assert not build_settings.get("sdist", {}).get("exclude")
    tracked = set(tracked_files())
    needed = {"index.html", "table.html"}
    for page in ("index.html", "table.html", "lobby.js", "table.js"):
        text = (static / page).read_text(encoding="utf-8")
        needed |= {name for name in re.findall(r'(?:href|src)="/static/([^"]+)"', text)}
        needed |= {name for name in re.findall(r'from "\./([^"]+)"', text)}
    assert needed >= {"style.css", "table.js", "lobby.js", "cards.js", "favicon.svg"}
    for name in sorted(needed):
        path = f"src/burraco/server/static/{name}"
        assert path in tracked, f"{path} is loaded by the browser table but not tracked by git"
        ignored = subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT)
        assert ignored.returncode == 1, f"{path} is ignored by .gitignore"
