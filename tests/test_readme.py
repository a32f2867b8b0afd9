"""README.md: its quickstart runs as a doctest on both engines; its commands are what CI runs."""

from __future__ import annotations

import doctest
import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
CI_SCRIPT = ROOT / ".ci" / "run"

# The two set-up commands of the README; .ci/run must run the test command exactly as written.
INSTALL_COMMAND = (
    """pip install . && python -c "import burraco; print(repr(burraco.Meld('Jk 5d 6d')))\""""
)
TEST_COMMAND = "pip install '.[test]' && python -m pytest -m 'not slow'"


def test_readme_quickstart(engine):
    text = README.read_text(encoding="utf-8")
    # Markdown fences are not output; the reference engine is reached by its own module name.
    text = re.sub(r"^```.*$", "", text, flags=re.MULTILINE)
    text = text.replace("from burraco import", f"from {engine.__name__} import")
    test = doctest.DocTestParser().get_doctest(text, {}, "README.md", str(README), 0)
    assert len(test.examples) >= 20, "README.md lost its quickstart"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)


def test_readme_shows_the_two_commands():
    text = README.read_text(encoding="utf-8")
    assert INSTALL_COMMAND in text
    assert TEST_COMMAND in text


def test_ci_runs_the_readme_test_command():
    script = CI_SCRIPT.read_text(encoding="utf-8")
    assert TEST_COMMAND in script
    assert script.startswith(("#!/usr/bin/env bash\n", "#!/bin/bash\n"))
    assert "set -euo pipefail" in script
    assert os.access(CI_SCRIPT, os.X_OK), ".ci/run must be executable"
