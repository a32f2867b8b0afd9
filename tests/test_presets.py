"""The presets are written once (docs/contributing.md, "Adding a preset").

The core's table (``kPresets`` in cpp/include/burraco/rules.hpp) is the one list of presets: the
binding's ``Rules.PRESETS`` and ``Rules.presets()``, the command's help and ``--preset`` choices, the
server's ``GET /api/presets`` (and through it the browser's lobby), the gymnasium ids, the docs'
knob table and the rule sets the game-level tests play are read from it. The reference engine keeps
its own table (it must not lean on the core), held to the core's here. Anywhere else, a hard-coded
list of every preset name in the library, the binding, the core or the tools fails
:func:`test_no_other_source_lists_the_presets`.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import burraco
from burraco import reference

ROOT = Path(__file__).resolve().parent.parent
STUB = ROOT / "src" / "burraco" / "_core.pyi"

# The files that may spell every preset: the core's table and the reference's own.
HOMES = {
    "cpp/include/burraco/rules.hpp",
    "src/burraco/reference/rules.py",
}
# Fixed workloads whose rows are compared from run to run: a new preset is not a new row.
WORKLOADS = {
    "tools/callgrind_rows.py",
}
# Where a list of presets would be a second home: the library, the server's pages, the core, the
# binding and the tools. (Tests, benchmarks, examples and docs name the presets they exercise or
# describe.)
SCANNED = ("src", "cpp", "tools")
SUFFIXES = {".py", ".pyi", ".pyx", ".pxd", ".cpp", ".hpp", ".h", ".js", ".html", ".css", ".toml"}
# How far apart the names of one list may be written.
WINDOW = 600


def test_the_reference_table_is_the_cores():
    assert reference.Rules.PRESETS == burraco.Rules.PRESETS
    assert reference.Rules.presets() == burraco.Rules.presets()
    for preset in burraco.Rules.PRESETS:
        core, ref = burraco.Rules(preset), reference.Rules(preset)
        assert core.text == ref.text == preset
        core_knobs, ref_knobs = core.knobs(), ref.knobs()
        assert list(core_knobs) == list(ref_knobs), preset
        for name, value in core_knobs.items():
            assert type(value) is type(ref_knobs[name]) and value == ref_knobs[name], (preset, name)


@pytest.mark.parametrize("engine", [burraco, reference], ids=["core", "reference"])
def test_presets_gives_a_title_to_every_preset_in_order(engine):
    titles = engine.Rules.presets()
    assert isinstance(titles, dict) and tuple(titles) == engine.Rules.PRESETS
    assert len(set(titles.values())) == len(titles)
    for name, title in titles.items():
        assert isinstance(title, str) and title.strip() == title and title and "\n" not in title
        assert engine.Rules(name).preset == name
    titles["italian"] = "changed"  # a new dict each time
    assert engine.Rules.presets()["italian"] != "changed"


def test_the_stub_types_a_preset_as_a_name():
    # The stub cannot read the core's table, so it does not spell the presets out: a preset is a
    # str (the binding checks it against Rules.PRESETS and quotes an unknown one).
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    alias = next(node for node in tree.body if isinstance(node, ast.AnnAssign)
                 and isinstance(node.target, ast.Name) and node.target.id == "_Preset")
    assert ast.unparse(alias.value) == "str"


def _lists_of_presets(text: str, names: tuple[str, ...]) -> list[int]:
    """The lines at which every one of ``names`` is written, quoted, within WINDOW characters."""
    quoted = re.compile(r"""["'`](%s)["'`]""" % "|".join(map(re.escape, names)))
    found = []
    for match in quoted.finditer(text):
        if set(quoted.findall(text, match.start(), match.start() + WINDOW)) == set(names):
            found.append(text.count("\n", 0, match.start()) + 1)
    return found


def test_the_scan_finds_a_list():
    names = burraco.Rules.PRESETS
    listed = "PRESETS = (" + ", ".join(f'"{name}"' for name in names) + ")\n"
    assert _lists_of_presets("x = 1\n" + listed, names) == [2]
    assert _lists_of_presets("{" + ", ".join(f"'{name}': 1" for name in names) + "}", names)
    assert not _lists_of_presets(listed.replace(f'"{names[-1]}"', "name"), names)
    assert not _lists_of_presets(f'"{names[0]}"\n' + "#" * WINDOW + listed[12:], names)


def test_no_other_source_lists_the_presets():
    names = burraco.Rules.PRESETS
    offenders = []
    for root in SCANNED:
        for path in sorted((ROOT / root).rglob("*")):
            relative = path.relative_to(ROOT).as_posix()
            if path.suffix not in SUFFIXES or not path.is_file() or relative in HOMES | WORKLOADS:
                continue
            lines = _lists_of_presets(path.read_text(encoding="utf-8", errors="replace"), names)
            offenders += [f"{relative}:{line}" for line in lines[:1]]
    assert not offenders, (
        "a list of the presets written outside the core's table (read Rules.PRESETS instead): "
        + ", ".join(offenders))
