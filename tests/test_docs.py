"""docs/: the examples of the pages run as doctests on both engines, the rules table is the one
tools/rules_table.py prints from the Rules of each engine and links to clauses of docs/rules.md,
and the pages link to what exists (tests/test_links.py checks every link of the repository)."""

from __future__ import annotations

import doctest
import importlib.util
import re
from pathlib import Path

import pytest
from conftest import load_engine

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
INDEX = DOCS / "index.md"
RULES_PAGE = DOCS / "rules.md"

# Pages whose examples are engine-level: each runs on both engines, with the minimum number of
# examples it must keep (so a page cannot lose its examples unnoticed).
DOCTESTED_PAGES = {"notation.md": 40, "rules.md": 8, "architecture.md": 4, "api.md": 6}
# Pages whose examples use what only the core has (ISMCTS, native policies): they run on the core.
CORE_DOCTESTED_PAGES = {"search.md": 58, "native.md": 12, "bots.md": 19}

LINK = re.compile(r"\]\(([^)\s]+)\)")


def _load_rules_table():
    spec = importlib.util.spec_from_file_location("rules_table", ROOT / "tools" / "rules_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


rules_table = _load_rules_table()


def run_page_doctests(page: str, engine) -> int:
    """Runs the ``>>>`` examples of a docs page against ``engine``; returns how many ran."""
    path = DOCS / page
    text = path.read_text(encoding="utf-8")
    # Markdown fences are not output; the reference engine is reached by its own module name.
    text = re.sub(r"^```.*$", "", text, flags=re.MULTILINE)
    text = text.replace("from burraco import", f"from {engine.__name__} import")
    test = doctest.DocTestParser().get_doctest(text, {}, page, str(path), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)
    return len(test.examples)


@pytest.mark.parametrize("page", sorted(DOCTESTED_PAGES))
def test_page_examples(page, engine):
    assert run_page_doctests(page, engine) >= DOCTESTED_PAGES[page], f"docs/{page} lost examples"


@pytest.mark.parametrize("page", sorted(CORE_DOCTESTED_PAGES))
def test_core_page_examples(page):
    count = run_page_doctests(page, load_engine("core"))
    assert count >= CORE_DOCTESTED_PAGES[page], f"docs/{page} lost examples"


# ---- docs/rules.md: the knob table ---------------------------------------------------------------


def _table_in_page() -> str:
    text = RULES_PAGE.read_text(encoding="utf-8")
    begin, end = rules_table.BEGIN_MARK, rules_table.END_MARK
    assert text.count(begin) == 1 and text.count(end) == 1, "docs/rules.md lost its table marks"
    return text.split(begin, 1)[1].split(end, 1)[0].strip("\n")


def test_rules_table_is_what_the_script_prints_now():
    printed = rules_table.render(load_engine("core")).strip("\n")
    assert _table_in_page() == printed, (
        "docs/rules.md is out of date: run `python tools/rules_table.py --write`"
    )


def test_rules_table_is_the_same_from_the_reference():
    assert rules_table.render(load_engine("reference")) == rules_table.render(load_engine("core"))


@pytest.mark.parametrize("preset", rules_table.PRESETS)
def test_both_engines_give_every_knob_the_same_value(preset):
    core, reference = load_engine("core"), load_engine("reference")
    assert core.Rules.PRESETS == reference.Rules.PRESETS == rules_table.PRESETS
    core_knobs, reference_knobs = core.Rules(preset).knobs(), reference.Rules(preset).knobs()
    assert list(core_knobs) == list(reference_knobs)
    for name, value in core_knobs.items():
        assert type(value) is type(reference_knobs[name]) and value == reference_knobs[name], name


def test_every_knob_docstring_has_a_meaning_and_a_rules_section(engine):
    for name in engine.Rules().knobs():
        meaning, sections = rules_table.knob_meaning(engine.Rules, name)
        assert meaning and "|" not in meaning and "\n" not in meaning, name
        assert sections and all(section in rules_table.SECTIONS for section in sections), name


def _rules_page_anchors() -> set[str]:
    return {
        rules_table.anchor(line.lstrip("#").strip())
        for line in RULES_PAGE.read_text(encoding="utf-8").splitlines()
        if line.startswith(("## ", "### "))
    }


def test_every_knob_row_links_to_headings_of_the_rules_page():
    rows = [line for line in _table_in_page().splitlines()[2:] if line.startswith("| `")]
    assert len(rows) == len(load_engine("core").Rules().knobs())
    anchors = _rules_page_anchors()
    for row in rows:
        knob, _, clauses = (cell.strip() for cell in row.strip("|").split("|")[:3])
        links = re.findall(r"\[([^\]]+)\]\(([^)]*)\)", clauses)
        assert links, f"{knob}: no clause linked"
        for clause, target in links:
            assert target.startswith("#"), f"{knob}: {target!r} leaves the page"
            assert target[1:] in anchors, f"{knob}: {target!r} is no heading of docs/rules.md"
            heading = rules_table.SECTIONS[clause]
            assert heading.split(" ")[0].rstrip(".") == clause, (knob, clause, heading)
            assert target[1:] == rules_table.anchor(heading), (knob, clause, target)


def test_the_table_script_reads_every_clause_heading_of_the_rules_page():
    sections = rules_table.SECTIONS
    for clause in ["0.2", "A.1", "B.6", "C.3", "D.4", "E.7", "F.7", "G", "G.1", "H", "I.7"]:
        assert clause in sections, clause
    assert sections["C.3"] == "C.3 The meld phase"
    assert sections["G"] == "G. Variants and knobs"
    assert set(map(rules_table.anchor, sections.values())) <= _rules_page_anchors()


# ---- links and the map of the pages ----------------------------------------------------------


def test_index_lists_every_page():
    text = INDEX.read_text(encoding="utf-8")
    linked = {target.split("#")[0] for target in LINK.findall(text)}
    pages = {path.name for path in DOCS.glob("*.md")} - {"index.md"}
    missing = sorted(pages - linked)
    assert not missing, f"docs/index.md does not list {missing}"


@pytest.mark.parametrize(
    "page", ["index.md", "notation.md", "rules.md", "architecture.md", "contributing.md", "performance.md"]
)
def test_local_links_resolve(page):
    text = (DOCS / page).read_text(encoding="utf-8")
    for target in LINK.findall(text):
        if "://" in target or target.startswith("#"):
            continue
        path = target.split("#")[0]
        assert (DOCS / path).exists(), f"docs/{page} links to {target!r}, which does not exist"


def test_performance_page_names_the_real_commands():
    text = (DOCS / "performance.md").read_text(encoding="utf-8")
    for command, path in [
        ("python tools/bench_table.py", ROOT / "tools" / "bench_table.py"),
        ("python -m pytest benches/ --benchmark-only", ROOT / "benches" / "conftest.py"),
    ]:
        assert command in text and path.exists(), command
