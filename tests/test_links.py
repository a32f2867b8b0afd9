"""The repository stands on its own: every relative link of its Markdown files lands on a file of
the repository (and, with ``#anchor``, on an anchor of that page as GitHub renders it), every
clause citation such as ``RULES C.3`` names an anchor of docs/rules.md, every rules-vector id of
the data files has its row there, and no tracked file points at documents kept outside the
repository."""

from __future__ import annotations

import json
import re
import subprocess
import unicodedata
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES_PAGE = ROOT / "docs" / "rules.md"

# The kinds of tracked files whose text is searched for clause citations.
CITING_SUFFIXES = {".py", ".pyi", ".cpp", ".hpp", ".md", ".json", ".jsonl", ".toml"}

# Names of documents that are not in the repository. Written in pieces so that this file does not
# match itself. "RULES" followed by ".md" is the rules specification the project was started
# from: inside the repository the rules are docs/rules.md.
OUTSIDE_REFERENCES = (
    "shared" + "/RULES",
    "shared" + " folder",
    "../" + "shared",
    "DESIGN" + " §",
    "DESIGN" + " section",
    "DESIGN" + ".md",
    "STYLE" + ".md",
    "STYLE" + ' "',
    "RULES" + ".md",
)


@cache
def tracked_files() -> tuple[Path, ...]:
    """The files git tracks in the checkout (deleted-but-not-committed ones left out)."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True
        ).stdout
    except (OSError, subprocess.CalledProcessError) as error:  # pragma: no cover
        pytest.fail(f"`git ls-files` failed in {ROOT}: {error}")
    paths = (ROOT / name for name in out.decode("utf-8").split("\0") if name)
    return tuple(path for path in paths if path.is_file())


def text_of(path: Path) -> str | None:
    """The file's text, or None for a binary (non-UTF-8) file."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None


def where(path: Path, text: str, offset: int) -> str:
    return f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, offset) + 1}"


# ---- Markdown: links and the anchors GitHub gives a page ---------------------------------------

FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)", re.DOTALL)
INLINE_LINK = re.compile(r"(?<!\\)!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_LINK = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$", re.MULTILINE)
HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$", re.MULTILINE)
HTML_ANCHOR = re.compile(r"<a\s+(?:[^>]*\s)?(?:id|name)=\"([^\"]+)\"", re.IGNORECASE)


def blank_code(text: str) -> str:
    """``text`` with fenced blocks and code spans replaced by spaces (same length, same lines), so
    that what they show is not taken for a link or a heading."""

    def blank(match: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", match[0])

    return CODE_SPAN.sub(blank, FENCE.sub(blank, text))


def github_slug(heading: str) -> str:
    """The anchor GitHub derives from a heading's text: the inline markup dropped (links keep
    their text), lower case, every character that is not a letter, a digit, a space, ``-`` or
    ``_`` removed, each space made a hyphen."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"<[^>]+>", "", text)
    text = text.replace("`", "").replace("*", "")
    text = re.sub(r"(?<![\w])_+|_+(?![\w])", "", text)
    kept = "".join(
        ch for ch in text.strip().lower()
        if ch in " -_" or unicodedata.category(ch)[0] in "LN" or unicodedata.category(ch) == "Mn"
    )
    return kept.replace(" ", "-")


@cache
def anchors_of(path: Path) -> frozenset[str]:
    """Every anchor of a Markdown page: its headings' slugs, numbered ``-1``, ``-2`` … when a slug
    repeats, as GitHub numbers them, and the ``id``/``name`` of its ``<a>`` elements."""
    text = path.read_text(encoding="utf-8")
    found: set[str] = set()
    seen: dict[str, int] = {}
    for match in HEADING.finditer(blank_code_keep_headings(text)):
        slug = github_slug(match[2])
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    found.update(HTML_ANCHOR.findall(text))
    return frozenset(found)


def blank_code_keep_headings(text: str) -> str:
    """``text`` with fenced blocks blanked (a ``#`` line in a code block is not a heading)."""
    return FENCE.sub(lambda match: re.sub(r"[^\n]", " ", match[0]), text)


def links_of(text: str) -> list[tuple[int, str]]:
    """(offset, target) of every inline and reference-style link outside code."""
    visible = blank_code(text)
    found = [(match.start(1), match[1]) for match in INLINE_LINK.finditer(visible)]
    found += [(match.start(1), match[1]) for match in REFERENCE_LINK.finditer(visible)]
    return found


def is_external(target: str) -> bool:
    return bool(re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target)) or target.startswith("//")


def broken_link(source: Path, target: str) -> str | None:
    """Why ``target``, a link in ``source``, does not land inside the repository (None if it does)."""
    path_part, _, fragment = target.partition("#")
    if path_part:
        destination = (source.parent / path_part).resolve()
        try:
            destination.relative_to(ROOT)
        except ValueError:
            return "points outside the repository"
        if not destination.exists():
            return "names no file"
        if destination.is_file() and destination not in tracked_files():
            return "names a file git does not track"
    else:
        destination = source
    if fragment:
        if destination.suffix != ".md" or not destination.is_file():
            return f"has an anchor #{fragment} into a file that is not a Markdown page"
        if fragment not in anchors_of(destination):
            return f"names no anchor of {destination.relative_to(ROOT)}"
    return None


def markdown_files() -> list[Path]:
    return [path for path in tracked_files() if path.suffix == ".md"]


def test_every_relative_link_lands_inside_the_repository():
    pages = markdown_files()
    assert RULES_PAGE in pages and len(pages) >= 10, pages
    broken = []
    checked = 0
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for offset, target in links_of(text):
            if not target or is_external(target):
                continue
            checked += 1
            why = broken_link(page, target)
            if why:
                broken.append(f"{where(page, text, offset)}: {target!r} {why}")
    assert checked >= 100, f"only {checked} relative links found: is the link pattern right?"
    assert not broken, "links that do not resolve:\n" + "\n".join(broken)


# ---- clause citations -----------------------------------------------------------------------

# One clause id: a decision (H-36), a vector (Q01), a point of B.3 (V5), a section or clause with
# an optional point of B.6 (E, C.3, B.1.4, B.6 L2). Any capital letter or digit is read as a
# section, so that a citation of a section the page does not have (a section J, say) fails too.
CLAUSE_ID = r"(?:H-\d+|[SRLCPQD]\d\d|V\d|[0-9A-Z](?:\.\d+)*(?: L\d)?)(?![\w])"
CITATION = re.compile(
    rf"\bRULES(?:\.md)?(?: sections?)? (?P<ids>{CLAUSE_ID}(?:\s*(?:,|/|-|–|and)\s*{CLAUSE_ID})*)"
)


def normal_id(clause: str) -> str:
    """The form an id takes as an anchor name: lower case, each run of other characters one
    hyphen ("B.6 L2" -> "b-6-l2", "H-36" -> "h-36", "Q01" -> "q01")."""
    return re.sub(r"[^a-z0-9]+", "-", clause.lower()).strip("-")


@cache
def rules_clause_ids() -> frozenset[str]:
    """The clause ids docs/rules.md anchors: the id that opens each heading ("C.3 The meld phase",
    "G. Variants and knobs") and every explicit ``<a id>``."""
    text = RULES_PAGE.read_text(encoding="utf-8")
    ids = {
        normal_id(match[1])
        for match in re.finditer(r"^#{2,4} ([0A-I](?:\.\d+)*)\.? ", text, re.MULTILINE)
    }
    ids.update(normal_id(anchor) for anchor in HTML_ANCHOR.findall(text))
    return frozenset(ids)


def cited_ids(text: str) -> list[tuple[int, str]]:
    """(offset, id) of every clause id of every RULES citation in ``text``."""
    found = []
    for match in CITATION.finditer(text):
        for clause in re.finditer(CLAUSE_ID, match["ids"]):
            found.append((match.start("ids") + clause.start(), clause[0]))
    return found


def test_the_rules_page_anchors_every_kind_of_clause():
    ids = rules_clause_ids()
    for clause in ["0.2", "A.2", "B.6", "B.6 L2", "B.1.4", "V5", "C.9", "E.8", "F.7", "G", "H-36",
                   "I.5", "S01", "R40", "L38", "C05", "P31", "Q11", "D07"]:
        assert normal_id(clause) in ids, clause
    assert len(ids) > 250, len(ids)
    # and the citation pattern reads the forms the repository uses
    assert [c for _, c in cited_ids("RULES C, D, E.6, F; RULES B.2-B.4 and RULES B.6 L2.")] == [
        "C", "D", "E.6", "F", "B.2", "B.4", "B.6 L2"]
    assert [c for _, c in cited_ids("(RULES H-36) RULES" + ".md section G, RULES F.2/F.3")] == [
        "H-36", "G", "F.2", "F.3"]
    assert cited_ids("PLAYOUT_RULES = 1; RULES_IDS; the RULES table") == []
    missing = "RULES" + " J.2, RULES" + " B.9"
    assert [normal_id(c) in ids for _, c in cited_ids(missing)] == [False, False]


def test_every_clause_citation_names_an_anchor_of_the_rules_page():
    ids = rules_clause_ids()
    unknown = []
    citations = 0
    for path in tracked_files():
        if path.suffix not in CITING_SUFFIXES:
            continue
        text = text_of(path)
        if text is None:
            continue
        for offset, clause in cited_ids(text):
            citations += 1
            if normal_id(clause) not in ids:
                unknown.append(f"{where(path, text, offset)}: RULES {clause}")
    assert citations >= 300, f"only {citations} citations found: is the pattern right?"
    assert not unknown, "citations of clauses docs/rules.md does not anchor:\n" + "\n".join(unknown)


@pytest.mark.parametrize("data", ["meld_vectors.json", "game_vectors.json"])
def test_every_rules_vector_of_the_data_has_its_row_in_the_rules_page(data):
    vectors = json.loads((ROOT / "tests" / "data" / data).read_text(encoding="utf-8"))["vectors"]
    rows = {vector["id"].split("-")[0] for vector in vectors if not vector["id"].startswith("B8-")}
    assert len(rows) > 40, rows
    missing = sorted(row for row in rows if normal_id(row) not in rules_clause_ids())
    assert not missing, f"tests/data/{data}: vector ids with no row in docs/rules.md: {missing}"


# ---- nothing outside the repository --------------------------------------------------------------


def test_no_file_refers_to_documents_outside_the_repository():
    found = []
    for path in tracked_files():
        text = text_of(path)
        if text is None:
            continue
        for needle in OUTSIDE_REFERENCES:
            for match in re.finditer(re.escape(needle), text):
                found.append(f"{where(path, text, match.start())}: {needle!r}")
    assert not found, "references to documents outside the repository:\n" + "\n".join(sorted(found))


# ---- the checks check ------------------------------------------------------------------------


def test_the_link_checks_catch_what_they_are_for(tmp_path):
    page = RULES_PAGE
    assert broken_link(page, "api.md") is None
    assert broken_link(page, "#g-variants-and-knobs") is None
    assert broken_link(page, "#h-36") is None
    assert broken_link(page, "architecture.md#4-the-deal-contract") is None
    assert broken_link(page, "#no-such-heading") is not None
    assert broken_link(page, "no-such-page.md") is not None
    assert broken_link(page, "../../elsewhere/rules.md") is not None
    assert github_slug("B.3 Runs: which runs are legal") == "b3-runs-which-runs-are-legal"
    assert github_slug("D.3 `online-2p` (threshold 0)") == "d3-online-2p-threshold-0"
    assert github_slug("Actions and tensors for learning") == "actions-and-tensors-for-learning"
    text = "see [a](x.md) and `[b](y.md)`\n\n```\n[c](z.md)\n```\n[d]: w.md\n"
    assert [target for _, target in links_of(text)] == ["x.md", "w.md"]
