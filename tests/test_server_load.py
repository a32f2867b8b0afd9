"""tools/server_load.py: the load test of burraco serve on loopback (docs/server.md "Load test").

A small run with the server killed and restarted halfway in the default suite; the same small
run without the restart (CI's slow step runs it) and the full runs (200 tables of bots and 50
clients for 60 s) are marked slow. Pass or fail is
errors, lost moves and bounded memory only: the rates are checked to be above zero, the timings
go in docs/server.md."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
pytest.importorskip("httpx")

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "server_load.py"


def load_run(tmp_path: Path, *options: str, timeout: float) -> dict:
    out = tmp_path / "load.json"
    done = subprocess.run([sys.executable, str(TOOL), *options, "--json", str(out)],
                          capture_output=True, text=True, timeout=timeout,
                          env={"TMPDIR": str(tmp_path), **_env()})
    assert out.exists(), done.stdout + done.stderr
    result = json.loads(out.read_text(encoding="utf-8"))
    assert done.returncode == 0, done.stdout + done.stderr
    return result


def _env() -> dict[str, str]:
    import os

    return {key: value for key, value in os.environ.items() if key != "TMPDIR"}


def check(result: dict, tables: int, clients: int) -> None:
    assert result["errors"] == 0, result["error_samples"]
    assert result["lost_moves"] == 0, result["lost_samples"]
    assert result["memory_bounded"], result["memory"]
    assert result["moves_per_s"] > 0 and result["client_moves_per_s"] > 0
    assert result["acked_checked"] >= result["client_moves"] > 0
    assert result["latency_ms"]["p50"] is not None
    assert result["tables"] == tables and result["clients"] == clients


@pytest.mark.slow
def test_a_small_load_run_loses_nothing(tmp_path):
    result = load_run(tmp_path, "--tables", "20", "--clients", "5", "--seconds", "8",
                      timeout=120)
    check(result, 20, 5)
    assert result["reloaded"] == [0] and result["reconnects"] == 0


def test_a_small_load_run_with_a_kill_and_a_restart_loses_nothing(tmp_path):
    result = load_run(tmp_path, "--tables", "20", "--clients", "5", "--seconds", "8",
                      "--restart", timeout=120)
    check(result, 20, 5)
    # Every unfinished table came back, and every client reconnected with its token.
    assert len(result["reloaded"]) == 2 and result["reloaded"][1] >= 20
    assert result["reconnects"] >= 5
    assert len(result["memory"]) == 2


@pytest.mark.slow
@pytest.mark.parametrize("restart", [False, True], ids=["steady", "restart"])
def test_the_full_load_run(tmp_path, restart):
    options = ["--tables", "200", "--clients", "50", "--seconds", "60"]
    result = load_run(tmp_path, *options, *(["--restart"] if restart else []), timeout=600)
    check(result, 200, 50)
