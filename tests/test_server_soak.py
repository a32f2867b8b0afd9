"""A soak test of burraco serve (docs/server.md "Tables in memory"): a real server on loopback
makes and finishes tables of bots only without a pause, reads the finished ones back, and leaves
tables of people untouched until they are abandoned. Every table finished or abandoned leaves
the server's memory: the count of tables in memory (``GET /api/health``'s ``in_memory``) stays
within the tables under way and comes back to zero. Both runs are marked slow (CI's slow step
runs the short one); the run of a few minutes also samples the server's resident memory and checks that it
levels off (the growth over its second half is bounded, whatever the tables made meanwhile)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("httpx")

import httpx  # noqa: E402
from serving import start_serving  # noqa: E402

BOTS = {"preset": "italian-2p", "bot_delay": 0, "seats": ["bot:heuristic", "bot:heuristic"]}
PEOPLE = {"preset": "italian-2p", "seats": ["human", "bot:random"]}
IDLE = 2  # --idle-timeout: the tables of people are abandoned after this many seconds


def rss(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def soak(tmp_path: Path, seconds: float, in_flight: int) -> dict:
    """Runs the server for ``seconds`` with ``in_flight`` tables of bots under way; what it saw."""
    db = tmp_path / "soak.sqlite3"
    process, port, _line = start_serving(
        db, "--create-rate", "0", "--idle-timeout", str(IDLE), "--max-bot-tables", str(in_flight))
    base = f"http://127.0.0.1:{port}"
    seen = {"bots": [], "people": [], "in_memory": [], "memory": []}
    try:
        with httpx.Client(base_url=base, trust_env=False, timeout=30) as http:
            running: list[str] = []
            started = time.monotonic()
            while time.monotonic() - started < seconds:
                while len(running) < in_flight:
                    made = http.post("/api/tables", json=BOTS)
                    assert made.status_code == 201, made.text
                    running.append(made.json()["id"])
                    seen["bots"].append(running[-1])
                people = http.post("/api/tables", json=PEOPLE)  # nobody will come
                assert people.status_code == 201, people.text
                seen["people"].append(people.json()["id"])
                time.sleep(0.2)
                for table_id in list(running):
                    if http.get(f"/api/tables/{table_id}").json()["status"] == "finished":
                        assert len(http.get(f"/api/tables/{table_id}/record").json()) == 1
                        running.remove(table_id)
                seen["in_memory"].append(http.get("/api/health").json()["in_memory"])
                seen["memory"].append((time.monotonic() - started, len(seen["bots"]),
                                       rss(process.pid)))
            # No more tables: those under way finish, the untouched ones are abandoned.
            deadline = time.monotonic() + 120
            while http.get("/api/health").json()["in_memory"] > 0:
                assert time.monotonic() < deadline, "tables stayed in memory"
                time.sleep(0.2)
    finally:
        process.terminate()
        out, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    conn = sqlite3.connect(db)
    status = dict(conn.execute("SELECT id, status FROM tables"))
    conn.close()
    assert {status[t] for t in seen["bots"]} == {"finished"}
    assert {status[t] for t in seen["people"]} == {"abandoned"}
    return seen


@pytest.mark.slow  # six seconds of a server at full speed; CI's slow step runs it
def test_finished_and_abandoned_tables_leave_memory(tmp_path):
    seen = soak(tmp_path, seconds=6, in_flight=4)
    # At most the tables of bots under way, and the tables of people not idle long enough yet
    # (one made every poll of at least 0.2 s, each for IDLE seconds and a sweep).
    assert max(seen["in_memory"]) <= 4 + (IDLE + 1) / 0.2 + 1
    assert len(seen["bots"]) > 4 and len(seen["people"]) > 5


@pytest.mark.slow
def test_a_few_minutes_of_tables_made_and_finished_levels_memory_off(tmp_path):
    seen = soak(tmp_path, seconds=180, in_flight=8)
    memory = seen["memory"]
    half = next(i for i, (at, _, _) in enumerate(memory) if at >= 90)
    made = memory[-1][1] - memory[half][1]
    growth = memory[-1][2] - memory[half][2]
    # The tables made in the second half would hold about 22 KB each if they stayed; the growth
    # is to stay a small part of that, and under 8 MB whatever.
    print(f"tables made: {len(seen['bots'])} of bots, {len(seen['people'])} of people; "
          f"second half: {made} tables, RSS {memory[half][2] / 2**20:.1f} -> "
          f"{memory[-1][2] / 2**20:.1f} MB; in memory at most {max(seen['in_memory'])}")
    assert made >= 100
    assert growth < min(8 * 2**20, made * 22_000 / 4), (growth, made)
    assert max(seen["in_memory"]) <= 8 + (IDLE + 1) / 0.2 + 1
