"""The real ``burraco serve`` command in a subprocess, for the tests that talk to it over a socket
(tests/test_server.py, tests/test_server_soak.py)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest


def start_serving(db: Path, *extra: str) -> tuple[subprocess.Popen, int, str]:
    """``burraco serve --port 0`` in a subprocess; the process, its port and its first line."""
    process = subprocess.Popen(
        [sys.executable, "-m", "burraco", "serve", "--port", "0", "--db", str(db),
         "--log-level", "warning", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert process.stdout is not None
    line = process.stdout.readline()
    found = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", line)
    if found is None:
        process.kill()
        pytest.fail(f"burraco serve printed {line!r}; stderr: {process.communicate()[1]!r}")
    return process, int(found.group(1)), line
