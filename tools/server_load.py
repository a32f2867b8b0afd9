"""A load test of ``burraco serve`` on loopback (docs/server.md "Load test").

Starts ``burraco serve`` as a subprocess on a free 127.0.0.1 port with a database in a temporary
folder, makes ``--tables`` tables of bots only (matches, heuristic against random, no pause
between moves) and ``--clients`` tables of a person against a bot, each person an asyncio
WebSocket client playing random legal moves as fast as its views come. It measures, for every
client move, the time from sending it to the view that acknowledges it, samples the server's
resident memory, and counts every error (an error frame, a socket closed unexpectedly, an HTTP
failure). ``--restart`` kills the server with SIGKILL halfway and starts it again on the same
port and database; the clients reconnect with their tokens and resend the move they had in
flight, with its hand and ply.

After the run it reads the database and checks that no move was lost: every move a client saw
acknowledged is stored at its hand and ply, every stored move of a client's seat is one the client
saw acknowledged or (after the restart) one it resent and was refused as stale because it had
been committed before the kill, and every finished hand's record replays with
``Game.from_record`` to its stored result.

The tables of bots are public, and a visitor of the lobby reads their list (``GET /api/tables``)
twice a second throughout the run: the time of each answer is measured, and an answer that is not
the newest tables (at most the list's limit, the total being every table of bots) is an error.

    python tools/server_load.py --tables 200 --clients 50 --seconds 60 [--restart] [--json FILE]

The exit status is 0 when there was no error, no lost move and the memory growth after warm-up
stayed under ``--max-growth-mb``; 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.exceptions import ConnectionClosed

import burraco

BOT_SEATS = ["bot:heuristic", "bot:random"]
CLIENT_SEATS = ["human", "bot:heuristic"]
PRESET = "italian-2p"


# ---- the server process --------------------------------------------------------------------------


class ServerProcess:
    """``burraco serve`` in a subprocess: started, killed and restarted on one port and database."""

    def __init__(self, db: Path, log: Path, max_tables: int, bot_threads: int) -> None:
        self.db = db
        self.log = log
        self.max_tables = max_tables
        self.bot_threads = bot_threads
        self.port = 0
        self.process: subprocess.Popen[str] | None = None
        self.epoch = 0  # incremented by each kill: a socket of an older epoch may close
        self.reloaded: list[int] = []  # the tables each start reloaded
        self.memory: list[list[tuple[float, int]]] = []  # per start: (time, RSS bytes)

    def start(self) -> None:
        """Starts the server (on the port of the first start) and waits for its first line."""
        self.memory.append([])  # the samples of this process, its start included
        with open(self.log, "a", encoding="utf-8") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "burraco", "serve", "--host", "127.0.0.1",
                 "--port", str(self.port), "--db", str(self.db), "--log-level", "warning",
                 "--bot-threads", str(self.bot_threads),
                 "--max-tables", str(self.max_tables), "--max-bot-tables", str(self.max_tables),
                 "--rate", "100000", "--burst", "100000", "--create-rate", "0"],
                stdout=subprocess.PIPE, stderr=log, text=True,
                env={**os.environ, "PYTHONUNBUFFERED": "1"})
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"listening on http://127\.0\.0\.1:(\d+)/ .*?(\d+) unfinished", line)
        if found is None:
            self.process.kill()
            raise RuntimeError(f"burraco serve printed {line!r}; see {self.log}")
        self.port = int(found.group(1))
        self.reloaded.append(int(found.group(2)))

    def kill(self) -> None:
        """SIGKILL: no shutdown of any kind."""
        assert self.process is not None
        self.epoch += 1
        self.process.kill()
        self.process.wait(timeout=30)

    def stop(self) -> int:
        """SIGTERM, the clean stop; the exit status."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait(timeout=30)

    def cpu(self) -> float | None:
        """The server's CPU time so far, user and system, in seconds (from /proc)."""
        if self.process is None or self.process.poll() is not None:
            return None
        try:
            with open(f"/proc/{self.process.pid}/stat", encoding="ascii") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss(self) -> int | None:
        """The server's resident memory in bytes (from /proc), or None if it is not running."""
        if self.process is None or self.process.poll() is not None:
            return None
        try:
            with open(f"/proc/{self.process.pid}/status", encoding="ascii") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) * 1024
        except OSError:
            return None
        return None


# ---- the clients ---------------------------------------------------------------------------------


@dataclass
class Pending:
    """A move sent and not yet acknowledged."""

    seq: int
    move: str
    hand: int
    ply: int
    sent: float
    resent: bool = False


@dataclass
class ClientLog:
    """What one client did: its tables, the moves it saw acknowledged, its resends."""

    name: str
    tables: list[tuple[str, str]] = field(default_factory=list)  # (table id, token)
    acked: list[tuple[str, int, int, list[str]]] = field(default_factory=list)
    stale: list[tuple[str, int, int, str]] = field(default_factory=list)  # resends refused
    resent_applied: int = 0
    latencies: list[float] = field(default_factory=list)
    reconnects: int = 0
    hands: int = 0


@dataclass
class Run:
    """The state shared by the clients of one run."""

    server: ServerProcess
    deadline: float
    rng: random.Random
    errors: list[str] = field(default_factory=list)
    server_down: bool = False  # between the kill and the restart
    up_at: float = float("-inf")  # when the restarted server answered
    lobby: list[float] = field(default_factory=list)  # seconds of each GET /api/tables

    def error(self, text: str) -> None:
        self.errors.append(text)
        if len(self.errors) <= 20:
            print(f"server_load: error: {text}", file=sys.stderr, flush=True)


async def make_table(http: httpx.AsyncClient, run: Run, body: dict[str, Any]) -> dict[str, Any]:
    """``POST /api/tables``; an HTTP failure is an error of the run (and raises)."""
    answer = await http.post("/api/tables", json=body)
    if answer.status_code != 201:
        run.error(f"POST /api/tables {body}: {answer.status_code} {answer.text[:200]}")
        raise RuntimeError(answer.text)
    made: dict[str, Any] = answer.json()
    return made


async def lobby(run: Run, http: httpx.AsyncClient, tables: int) -> None:
    """A visitor of the lobby: the list of public tables twice a second until the deadline, each
    answer timed and checked (the newest tables, at most the list's limit, every table of bots in
    its total while they are all played)."""
    while time.monotonic() < run.deadline:
        await asyncio.sleep(0.5)
        if run.server_down or time.monotonic() - run.up_at < 1.0:
            continue
        began = time.monotonic()
        try:
            answer = await http.get("/api/tables")
        except httpx.HTTPError as error:
            if not run.server_down:
                run.error(f"GET /api/tables: {error!r}")
            continue
        run.lobby.append(time.monotonic() - began)
        body = answer.json() if answer.status_code == 200 else {}
        listed = body.get("tables", [])
        if (answer.status_code != 200 or len(listed) != min(body["limit"], body["total"])
                or body["total"] > tables):
            run.error(f"GET /api/tables: {answer.status_code} {answer.text[:200]}")


async def client(run: Run, http: httpx.AsyncClient, log: ClientLog) -> None:
    """One person: a table against a bot, random legal moves as fast as the views come, a new
    table when a match is over; reconnects after a restart of the server."""
    made = await make_table(http, run, {"preset": PRESET, "seats": CLIENT_SEATS, "match": True})
    log.tables.append((made["id"], made["tokens"]["0"]))
    pending: Pending | None = None
    seq = 0
    while time.monotonic() < run.deadline or pending is not None:
        table_id, token = log.tables[-1]
        epoch = run.server.epoch
        uri = f"ws://127.0.0.1:{run.server.port}/api/tables/{table_id}/play?token={token}"
        try:
            async with websockets.connect(uri, open_timeout=10, max_size=2 ** 22,
                                          ping_interval=None) as ws:
                if pending is not None:  # the move in flight when the server died: once more
                    pending.resent = True
                    pending.sent = time.monotonic()
                    await ws.send(json.dumps({"type": "move", "move": pending.move,
                                              "seq": pending.seq, "hand": pending.hand,
                                              "ply": pending.ply}))
                finished = False
                while True:
                    if time.monotonic() > run.deadline + 30:
                        run.error(f"{log.name}: no acknowledgement 30 s after the end")
                        return
                    try:
                        text = await asyncio.wait_for(ws.recv(), timeout=30)
                    except asyncio.TimeoutError:
                        run.error(f"{log.name}: no frame for 30 s at table {table_id}")
                        return
                    frame = json.loads(text)
                    kind = frame.get("type")
                    if kind == "result":
                        log.hands += 1
                        continue
                    if kind == "error":
                        if (pending is not None and pending.resent and frame.get("seq") ==
                                pending.seq and frame.get("code") in ("stale", "table_finished")):
                            log.stale.append((table_id, pending.hand, pending.ply, pending.move))
                            pending = None
                            await ws.send(json.dumps({"type": "view"}))
                            continue
                        run.error(f"{log.name}: error frame {frame}")
                        return
                    if kind != "view":
                        continue
                    if pending is not None and frame.get("seq") == pending.seq:
                        log.latencies.append(time.monotonic() - pending.sent)
                        if pending.resent:
                            log.resent_applied += 1
                        moves = list(frame["last"]["moves"]) if frame.get("last") else []
                        log.acked.append((table_id, pending.hand, pending.ply, moves))
                        pending = None
                    if frame["status"] == "finished":
                        finished = True
                        break
                    if (pending is None and frame["your_turn"]
                            and time.monotonic() < run.deadline):
                        seq += 1
                        pending = Pending(seq, run.rng.choice(frame["legal"]), frame["hand"],
                                          frame["ply"], time.monotonic())
                        await ws.send(json.dumps({"type": "move", "move": pending.move,
                                                  "seq": seq, "hand": pending.hand,
                                                  "ply": pending.ply}))
                    if pending is None and time.monotonic() >= run.deadline:
                        return
                if finished and time.monotonic() < run.deadline:
                    made = await make_table(http, run, {"preset": PRESET, "seats": CLIENT_SEATS,
                                                        "match": True})
                    log.tables.append((made["id"], made["tokens"]["0"]))
                elif finished:
                    return
        except (ConnectionClosed, OSError, asyncio.TimeoutError) as error:
            # A connection refused while the server was down may be seen only once it is back.
            if (run.server.epoch == epoch and not run.server_down
                    and time.monotonic() > run.up_at + 5.0):
                run.error(f"{log.name}: the socket of table {table_id} closed: {error!r}")
                return
            log.reconnects += 1
            await asyncio.sleep(0.2)


# ---- the run -------------------------------------------------------------------------------------


def percentile(values: list[float], fraction: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def sample_memory(run: Run, stop: asyncio.Event) -> None:
    start = time.monotonic()
    while not stop.is_set():
        rss = run.server.rss()
        if rss is not None and run.server.memory:
            run.server.memory[-1].append((time.monotonic() - start, rss))
        try:
            await asyncio.wait_for(stop.wait(), timeout=0.5)
        except asyncio.TimeoutError:
            pass


def memory_growth(samples: list[tuple[float, int]], warmup: float) -> dict[str, Any]:
    """The RSS of one server process: after warm-up (the first ``warmup`` of its samples' time
    span), at the end, the growth between, and the peak."""
    if len(samples) < 2:
        return {"samples": len(samples)}
    first, last = samples[0][0], samples[-1][0]
    cut = first + warmup * (last - first)
    warm = [rss for t, rss in samples if t >= cut]
    return {"samples": len(samples), "warm_mb": round(warm[0] / 2 ** 20, 1),
            "end_mb": round(warm[-1] / 2 ** 20, 1),
            "growth_mb": round((warm[-1] - warm[0]) / 2 ** 20, 1),
            "peak_mb": round(max(rss for _, rss in samples) / 2 ** 20, 1)}


async def play(args: argparse.Namespace, server: ServerProcess) -> tuple[Run, list[ClientLog],
                                                                             dict[str, Any]]:
    run = Run(server, 0.0, random.Random(args.seed))
    base = f"http://127.0.0.1:{server.port}"
    logs = [ClientLog(f"client {i}") for i in range(args.clients)]
    stop = asyncio.Event()
    sampler = asyncio.create_task(sample_memory(run, stop))
    timing: dict[str, Any] = {}
    async with httpx.AsyncClient(base_url=base, trust_env=False, timeout=30) as http:
        gate = asyncio.Semaphore(8)

        async def bot_table() -> str:
            async with gate:
                made = await make_table(http, run, {"preset": PRESET, "seats": BOT_SEATS,
                                                    "match": True, "bot_delay": args.bot_delay,
                                                    "public": True})
                return str(made["id"])

        began = time.monotonic()
        bot_tables = await asyncio.gather(*(bot_table() for _ in range(args.tables)))
        timing["create_s"] = round(time.monotonic() - began, 2)
        start = time.monotonic()
        run.deadline = start + args.seconds
        cpu_start = server.cpu() or 0.0
        timing["load_average_start"] = round(os.getloadavg()[0], 2)
        clients = [asyncio.create_task(client(run, http, log)) for log in logs]
        clients.append(asyncio.create_task(lobby(run, http, args.tables)))
        if args.restart:
            await asyncio.sleep(args.seconds / 2)
            run.server_down = True
            timing["server_cpu_s"] = (server.cpu() or 0.0) - cpu_start
            server.kill()
            killed = time.monotonic()
            cpu_start = 0.0
            await asyncio.to_thread(server.start)
            run.up_at = time.monotonic()
            run.server_down = False
            timing["restart_s"] = round(time.monotonic() - killed, 2)
            timing["killed_at_s"] = round(killed - start, 2)
        results = await asyncio.gather(*clients, return_exceptions=True)
        for log, result in zip([*logs, ClientLog("the lobby")], results):
            if isinstance(result, BaseException):
                run.error(f"{log.name}: {result!r}")
        timing["play_s"] = round(time.monotonic() - start, 2)
        timing["server_cpu_s"] = round(timing.get("server_cpu_s", 0.0)
                                       + (server.cpu() or 0.0) - cpu_start, 1)
        timing["load_average_end"] = round(os.getloadavg()[0], 2)
        try:
            health = (await http.get("/api/health")).json()
        except httpx.HTTPError as error:
            run.error(f"GET /api/health: {error!r}")
            health = {}
    stop.set()
    await sampler
    return run, logs, {"bot_tables": bot_tables, "timing": timing, "health": health}


def check_database(db: Path, logs: list[ClientLog]) -> dict[str, Any]:
    """Lost, duplicated or foreign moves of the clients' seats, and records that do not replay
    to their result, read from the database after the server stopped."""
    conn = sqlite3.connect(db)
    problems: list[str] = []
    rules = {tid: burraco.Rules.from_text(text) for tid, text in
             conn.execute("SELECT id, rules FROM tables")}
    hands: dict[tuple[str, int], tuple[int, int, list[int], str | None]] = {}
    for tid, hand, seed, first, scores, record in conn.execute(
            "SELECT table_id, hand, seed, first_player, scores, record FROM hands"):
        hands[tid, hand] = (int(seed), first, json.loads(scores), record)
    moves: dict[tuple[str, int], list[str]] = {}
    total = 0
    for tid, hand, ply, move in conn.execute(
            "SELECT table_id, hand, ply, move FROM moves ORDER BY table_id, hand, ply"):
        stored = moves.setdefault((tid, hand), [])
        if ply != len(stored):
            problems.append(f"table {tid} hand {hand}: ply {ply} after {len(stored)} moves")
        stored.append(move)
        total += 1
    records = 0
    for (tid, hand), (_, _, _, record) in hands.items():
        if record is None:
            continue
        records += 1
        data = json.loads(record)
        replayed = burraco.Game.from_record(data)
        if replayed.record()["result"] != data["result"]:
            problems.append(f"table {tid} hand {hand}: the record does not replay to its result")
        if [str(m) for m in replayed.moves] != moves.get((tid, hand), []):
            problems.append(f"table {tid} hand {hand}: the record's moves are not the stored ones")
    checked = 0
    for log in logs:
        mine: dict[tuple[str, int, int], str] = {}  # the stored moves of the client's seat 0
        for tid, _ in log.tables:
            hand = 0
            while (tid, hand) in hands:
                seed, first, scores, _ = hands[tid, hand]
                game = burraco.Game(rules[tid], seed=seed, first_player=first, scores=scores)
                for ply, move in enumerate(moves.get((tid, hand), [])):
                    if game.turn == 0:
                        mine[tid, hand, ply] = move
                    game.push(move)
                hand += 1
        for tid, hand, ply, acked in log.acked:
            for offset, move in enumerate(acked):
                if mine.pop((tid, hand, ply + offset), None) != move:
                    problems.append(f"{log.name}: acknowledged move {move!r} (table {tid} hand "
                                    f"{hand} ply {ply + offset}) is not stored there")
                checked += 1
        for tid, hand, ply, move in log.stale:
            if mine.pop((tid, hand, ply), None) is None:
                problems.append(f"{log.name}: resent move {move!r} refused as stale, yet not "
                                f"stored at table {tid} hand {hand} ply {ply}")
            words = move.split()
            for extra in range(1, len(words) - 2 if words[0] == "add" else 1):
                mine.pop((tid, hand, ply + extra), None)  # a lay-off of several cards
        for (tid, hand, ply), move in sorted(mine.items()):
            problems.append(f"{log.name}: stored move {move!r} (table {tid} hand {hand} ply "
                            f"{ply}) was never acknowledged nor resent")
    conn.close()
    return {"moves_stored": total, "records": records, "acked_checked": checked,
            "lost_moves": len(problems), "problems": problems[:20]}


def summary(args: argparse.Namespace, run: Run, logs: list[ClientLog], played: dict[str, Any],
            server: ServerProcess, checked: dict[str, Any]) -> dict[str, Any]:
    latencies = [x for log in logs for x in log.latencies]
    seconds = played["timing"]["play_s"]
    memory = [memory_growth(samples, args.warmup) for samples in server.memory]
    growth = max((m.get("growth_mb", 0.0) for m in memory), default=0.0)
    return {
        "tables": args.tables, "clients": args.clients, "seconds": args.seconds,
        "restart": args.restart, "bot_delay": args.bot_delay, "bot_threads": args.bot_threads,
        "cpus": os.cpu_count(), "timing": played["timing"],
        "client_moves": len(latencies),
        "client_moves_per_s": round(len(latencies) / seconds, 1),
        "moves_committed": checked["moves_stored"],
        "moves_per_s": round(checked["moves_stored"] / seconds, 1),
        "latency_ms": {"p50": _ms(percentile(latencies, 0.5)),
                       "p99": _ms(percentile(latencies, 0.99)),
                       "max": _ms(max(latencies, default=None))},
        "lobby_lists": len(run.lobby),
        "lobby_ms": {"p50": _ms(percentile(run.lobby, 0.5)),
                     "p99": _ms(percentile(run.lobby, 0.99)),
                     "max": _ms(max(run.lobby, default=None))},
        "hands_finished": checked["records"], "client_hands": sum(log.hands for log in logs),
        "reconnects": sum(log.reconnects for log in logs),
        "resent_applied": sum(log.resent_applied for log in logs),
        "resent_stale": sum(len(log.stale) for log in logs),
        "reloaded": server.reloaded, "tables_playing_at_end": played["health"].get("tables"),
        "errors": len(run.errors), "error_samples": run.errors[:20],
        "lost_moves": checked["lost_moves"], "lost_samples": checked["problems"],
        "acked_checked": checked["acked_checked"],
        "memory": memory, "memory_growth_mb": growth,
        "memory_bounded": growth <= args.max_growth_mb,
    }


def _ms(value: float | None) -> float | None:
    return None if value is None else round(value * 1000, 2)


def print_summary(result: dict[str, Any]) -> None:
    rows = [
        ("tables of bots / clients", f"{result['tables']} / {result['clients']}"),
        ("seconds (played)", f"{result['seconds']} ({result['timing']['play_s']})"),
        ("restart", "kill -9 at {killed_at_s} s, back in {restart_s} s".format(**result["timing"])
         if result["restart"] else "no"),
        ("moves committed, per second", f"{result['moves_committed']}, {result['moves_per_s']}"),
        ("client moves, per second", f"{result['client_moves']}, "
                                     f"{result['client_moves_per_s']}"),
        ("client move -> view p50 / p99 / max ms", "{p50} / {p99} / {max}".format(
            **result["latency_ms"])),
        ("lobby lists (GET /api/tables), p50 / p99 / max ms", "{}, {p50} / {p99} / {max}".format(
            result["lobby_lists"], **result["lobby_ms"])),
        ("hands finished", str(result["hands_finished"])),
        ("server CPU s (per s played)", "{} ({:.2f})".format(
            result["timing"]["server_cpu_s"],
            result["timing"]["server_cpu_s"] / result["timing"]["play_s"])),
        ("machine load average, start / end", "{load_average_start} / {load_average_end}".format(
            **result["timing"])),
        ("reconnects, resent applied / stale", f"{result['reconnects']}, "
         f"{result['resent_applied']} / {result['resent_stale']}"),
        ("errors", str(result["errors"])),
        ("lost moves (acknowledged checked)", f"{result['lost_moves']} "
                                              f"({result['acked_checked']})"),
        ("server RSS after warm-up -> end (peak), MB", "; ".join(
            f"{m.get('warm_mb')} -> {m.get('end_mb')} ({m.get('peak_mb')})"
            for m in result["memory"])),
        ("memory growth after warm-up, MB", f"{result['memory_growth_mb']} "
         f"({'bounded' if result['memory_bounded'] else 'NOT bounded'})"),
    ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="tables of bots only (200)")
    parser.add_argument("--clients", type=int, default=50, help="WebSocket clients (50)")
    parser.add_argument("--seconds", type=float, default=60.0, help="playing time (60)")
    parser.add_argument("--restart", action="store_true",
                        help="kill -9 the server halfway and restart it on the same database")
    parser.add_argument("--bot-delay", type=float, default=0.0,
                        help="the bot tables' bot_delay, seconds (0: as fast as they go)")
    parser.add_argument("--bot-threads", type=int, default=2, help="burraco serve --bot-threads")
    parser.add_argument("--warmup", type=float, default=0.25,
                        help="the share of each server process's life that is warm-up (0.25)")
    parser.add_argument("--max-growth-mb", type=float, default=64.0,
                        help="the RSS growth after warm-up that fails the run (64 MB)")
    parser.add_argument("--seed", type=int, default=1, help="the clients' random moves")
    parser.add_argument("--json", metavar="FILE", help="write the summary as JSON here")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="load-", dir=os.environ.get("TMPDIR", "/tmp")))
    server = ServerProcess(folder / "load.sqlite3", folder / "server.log",
                           args.tables + 2 * args.clients + 10, args.bot_threads)
    server.start()
    try:
        run, logs, played = asyncio.run(play(args, server))
    finally:
        status = server.stop()
    if status != 0:
        run.error(f"burraco serve stopped with status {status}; see {server.log}")
    checked = check_database(server.db, logs)
    result = summary(args, run, logs, played, server, checked)
    result["server_log"] = (server.log.read_text(encoding="utf-8", errors="replace")[-2000:])
    print_summary(result)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    if not args.keep:
        for path in folder.iterdir():
            path.unlink()
        folder.rmdir()
    ok = result["errors"] == 0 and result["lost_moves"] == 0 and result["memory_bounded"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
