"""README.md: its quickstart runs as a doctest on both engines; its commands are what CI runs."""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
CI_SCRIPT = ROOT / ".ci" / "run"

# The two set-up commands of the README; .ci/run must run the test command exactly as written.
SELFPLAY = "burraco selfplay --preset italian --games 1000 --policy greedy --seed 1 --out games.jsonl"
INSTALL_COMMAND = f"pip install . && {SELFPLAY}"
TEST_COMMAND = "pip install '.[test]' && python -m pytest -m 'not slow' -n auto --dist worksteal"


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


def test_readme_shows_what_the_selfplay_command_prints(tmp_path):
    """The README's output block is what its first command prints, but for the speed line."""
    text = README.read_text(encoding="utf-8")
    shown = text.split(INSTALL_COMMAND, 1)[1].split("```\n", 2)[2].split("```", 1)[0]
    argv = SELFPLAY.split()[1:]
    completed = subprocess.run(
        [sys.executable, "-m", "burraco", *argv], cwd=tmp_path, capture_output=True, text=True,
        check=True,
    )
    printed = completed.stdout

    def steady(lines: str) -> list[str]:
        return [line for line in lines.splitlines() if not line.startswith("hands per second")]

    assert steady(printed) == steady(shown) and len(steady(shown)) >= 10
    assert "hands per second" in shown and "hands per second" in printed
    assert len((tmp_path / "games.jsonl").read_text(encoding="utf-8").splitlines()) == 1000


def test_ci_runs_the_readme_commands():
    script = CI_SCRIPT.read_text(encoding="utf-8")
    assert TEST_COMMAND in script
    assert INSTALL_COMMAND in script
    assert script.startswith(("#!/usr/bin/env bash\n", "#!/bin/bash\n"))
    assert "set -euo pipefail" in script
    assert os.access(CI_SCRIPT, os.X_OK), ".ci/run must be executable"
