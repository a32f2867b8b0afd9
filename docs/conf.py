"""Sphinx configuration of the documentation site: the pages of docs/ (Markdown, read by MyST) and
an API reference generated from the docstrings (docs/reference.md, autodoc).

Build it as CI does, where any warning fails the build (-W) and every unresolved reference is a
warning (-n):

    pip install '.[docs]'
    sphinx-build -W --keep-going -n -b html docs /tmp/burraco-docs

autodoc imports the installed package, so the compiled module's docstrings and signatures are the
ones ``help()`` shows.
"""

from __future__ import annotations

import re

from docutils import nodes
from docutils.transforms import Transform

import burraco

project = "burraco"
author = "the burraco authors"
copyright = "the burraco authors; MIT licence"
release = version = burraco.__version__

extensions = ["myst_parser", "sphinx.ext.autodoc"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]

# The pages are written for GitHub too: headings get GitHub's anchors, so that every
# `page.md#heading` link (checked by tests/test_links.py) lands on the same place in both.
myst_heading_anchors = 6

# Every unresolved reference is a warning (-n); these names are outside the project and the site
# does not reach other projects' inventories (the build needs no network).
nitpick_ignore_regex = [
    ("py:class", r"(numpy|collections\.abc|typing_extensions|os|pathlib)\..*"),
    ("py:class", r"(gymnasium|pyspiel|starlette|open_spiel)\b.*"),
    ("py:(func|class)", r"gymnasium\..*"),
    # Private names that public signatures mention (aliases, a server-side class).
    ("py:class", r"Json|PolicyLike|GameParameter|(burraco\.)?_records\.Record|burraco\._records\._Game"),
    # The stub's typed dicts of keyword arguments and results (src/burraco/_core.pyi).
    ("py:class", r"_Knobs|_PlayoutTable"),
    ("py:class", r"burraco\.server\._table\.Table|burraco\.server\._presence\.PresenceTable"),
    ("py:class", r"burraco\.envs\.openspiel\._Observer"),
    # The reference engine's module-private helpers, named in its Game's docstrings.
    ("py:(func|data)", r"(policies|actions)\.[a-z_A-Z]+"),
]

autodoc_default_options = {"members": True, "member-order": "bysource"}
# A class's signature and text come from its constructor's docstring as well as its own.
autoclass_content = "both"
# An override documents itself: the Gymnasium and PettingZoo base classes' docstrings speak of
# their own attributes.
autodoc_inherit_docstrings = False
autodoc_typehints = "signature"

html_theme = "furo"
html_title = f"burraco {release}"


class RawHtmlAnchors(Transform):
    """Turns the HTML anchors of the pages (``<a id="b-1-1"></a>``, as in docs/rules.md, which GitHub
    renders) into document targets, so that links to them resolve (and a link to a missing one
    stays a warning)."""

    default_priority = 200
    OPEN = re.compile(r'^<a\s+id="([^"]+)">$')

    def apply(self) -> None:
        for raw in list(self.document.findall(nodes.raw)):
            match = self.OPEN.match(raw.astext().strip())
            if "html" not in raw.get("format", "").split() or not match:
                continue
            target = nodes.target("", "", ids=[match[1]], names=[match[1]])
            self.document.note_explicit_target(target)
            following = raw.parent.index(raw) + 1
            siblings = raw.parent.children
            if following < len(siblings) and isinstance(siblings[following], nodes.raw) \
                    and siblings[following].astext().strip() == "</a>":
                raw.parent.remove(siblings[following])
            raw.replace_self(target)


def resolve_public_name(app, env, node, contnode):
    """A bare name in a docstring of the reference engine's modules (``MAX_HAND_MOVES`` in
    burraco.reference.game) is the one its package exports: link it to the name documented under
    ``burraco.reference``, or else under ``burraco`` (the errors and policy helpers both share)."""
    if node.get("refdomain") != "py" or "." in node["reftarget"]:
        return None
    if not (node.get("py:module") or "").startswith("burraco.reference"):
        return None
    domain = env.get_domain("py")
    for package in ("burraco.reference", "burraco"):
        found = domain.resolve_any_xref(env, node["refdoc"], app.builder,
                                        f"{package}.{node['reftarget']}", node, contnode)
        if found:
            return found[0][1]
    return None


SELF = re.compile(r"^\(self(?:: [\w.]+)?(?:, |(?=\)))")


def strip_self(app, what, name, obj, options, signature, return_annotation):
    """A method's signature without its ``self``, which the core's docstrings (the stub's
    signature lines) write first and autodoc would show on every method of the core."""
    if signature and what in ("class", "method"):
        signature = SELF.sub("(", signature)
    return signature, return_annotation


def setup(app) -> None:
    app.add_transform(RawHtmlAnchors)
    app.connect("missing-reference", resolve_public_name)
    app.connect("autodoc-process-signature", strip_self)
