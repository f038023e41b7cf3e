"""Capacity figures for docs/capacity.md: CPU per request per endpoint class, Redis memory use.

    python -m bench.bench_capacity                  # ~2-3 minutes on a 2-core machine
    python -m bench.bench_capacity --quick          # fewer requests per class (under a minute)

Starts the reference shape from ``harness/scaleout.py`` on loopback with ONE gunicorn replica
running ONE sync worker (so one process = at most one core), nginx in front, and a Redis Cluster
of 3 masters + 3 replicas. For each endpoint class it sends a bounded number of requests through
nginx from this process (2 client threads, so the worker is never idle) and reads the CPU time
the processes really used from ``/proc`` (gunicorn worker, nginx) and ``INFO cpu`` (Redis):

- ``cpu ms/req``  gunicorn CPU per request -> ``req/s per core`` = 1000 / that;
- ``wall req/s``  what the single worker actually served here (lower: this machine is shared and
  the load generator runs on the same 2 cores);
- ``nginx``, ``redis`` CPU per request (µs), to size the load balancer and the cluster.

Classes: ``healthz`` (floor), ``cached`` (melds, every answer a HIT), ``uncached melds`` (every
request a different hand), and every advice endpoint uncached (Game Flip Flop and Triple Tunk
discard/draw/knock, Three Thirteen discard/draw). Then Redis memory: 100,000 entries written the
way the service writes them (``SET key value EX ttl``, 64-hex-digit keys) with real answer texts,
for melds answers, Three Thirteen discard answers and key-only alias entries; ``used_memory``
summed over the masters before and after (replicas hold the same again).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

from redis.cluster import ClusterNode, RedisCluster

from harness.loadgen import HOST, MELDS, load, melds_requests
from harness.scaleout import Deployment, deployment, node_client

REPO_ROOT = Path(__file__).resolve().parent.parent

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
STANDARD = [rank + suit for suit in "SHDC" for rank in RANKS]
TOPPER = [c + s + n for c in "RYGBK" for s in "CHTSB" for n in "1234?"]
CLK_TCK = os.sysconf("SC_CLK_TCK")
ENTRIES = 100_000
IDLE_SECONDS = 2.0


def tunk_body(deck: list[str], endpoint: str, players: int, rng: random.Random) -> dict[str, Any]:
    """A random valid Game Flip Flop / Triple Tunk advice request (hand after or before a draw)."""
    cards = rng.sample(deck, 6)
    if endpoint == "discard":
        return {"hand": cards, "players": players}
    if endpoint == "draw":
        return {"hand": cards[:5], "discard_pile": [cards[5]], "players": players}
    return {"hand": cards[:5], "players": players}


def t13_body(endpoint: str, rng: random.Random) -> dict[str, Any]:
    """A random valid Three Thirteen round-3 advice request."""
    cards = rng.sample(STANDARD, 6)
    if endpoint == "discard":
        return {"hand": cards, "round": 3, "players": 2}
    return {"hand": cards[:5], "discard_pile": [cards[5]], "round": 3, "players": 2}


Requests = list[tuple[str, Any]]


def classes(count: int, advice_count: int, seed: int) -> list[tuple[str, Requests, bool]]:
    """(class name, requests, cached?) in the order measured; uncached lists never repeat, so
    every answer is a MISS; cached lists are warmed first and then cycled (every answer a HIT)."""
    rng = random.Random(seed)
    t13_cached = [("/v1/games/three-thirteen/discard", t13_body("discard", rng)) for _ in range(50)]
    result: list[tuple[str, Requests, bool]] = [
        ("healthz (GET)", [("/healthz", None)] * 50, True),
        ("cached melds (HIT)", melds_requests(50, seed=seed), True),
        ("cached t13 discard (HIT)", t13_cached, True),
        ("uncached melds", melds_requests(count, seed=seed + 1), False),
    ]
    for game, deck, players in (("game-flip-flop", STANDARD, 2), ("triple-tunk", TOPPER, 3)):
        for endpoint in ("discard", "draw", "knock"):
            path = f"/v1/games/{game}/{endpoint}"
            bodies = [(path, tunk_body(deck, endpoint, players, rng)) for _ in range(advice_count)]
            result.append((f"{game} {endpoint}", bodies, False))
    for endpoint in ("discard", "draw"):
        path = f"/v1/games/three-thirteen/{endpoint}"
        bodies = [(path, t13_body(endpoint, rng)) for _ in range(advice_count)]
        result.append((f"three-thirteen {endpoint}", bodies, False))
    return result


def process_cpu(pids: Sequence[int]) -> float:
    """utime + stime of ``pids`` in seconds (from /proc/<pid>/stat)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15)
    return total / CLK_TCK


def children(pid: int) -> list[int]:
    """Direct children of ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(entry.name))
    return found


def redis_cpu(ports: Sequence[int]) -> float:
    """Seconds of CPU used by every cluster node (INFO cpu)."""
    total = 0.0
    for port in ports:
        try:
            with node_client(port) as client:
                info = client.info("cpu")
        except Exception:  # noqa: BLE001 (a node that is down used no CPU)
            continue
        total += float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
    return total


@dataclass
class Figures:
    """One class's measurements."""

    name: str
    requests: int
    ok: int
    cache: str
    wall_rate: float
    app_cpu_ms: float
    nginx_cpu_us: float
    redis_cpu_us: float
    p50_ms: float


def measure(
    dep: Deployment, name: str, requests: list[tuple[str, Any]], max_seconds: float, cached: bool
) -> Figures:
    """Drive one class and read the CPU each part used for it."""
    replica = dep.replicas[0]
    assert replica.process is not None and dep.nginx.process is not None
    app_pids = [replica.process.proc.pid, *children(replica.process.proc.pid)]
    nginx_pids = [dep.nginx.process.proc.pid, *children(dep.nginx.process.proc.pid)]
    ports = dep.redis.ports  # type: ignore[union-attr]
    if cached:
        for path, body in requests:  # warm: store every answer once
            if body is not None:
                _post(dep.nginx.port, path, body)
    # Redis spends CPU on its own (cron, cluster bus) even when idle: measure that rate first
    # and subtract it, so the figure is the CPU the requests cost.
    idle_start, idle_cpu = time.monotonic(), redis_cpu(ports)
    time.sleep(IDLE_SECONDS)
    idle_rate = (redis_cpu(ports) - idle_cpu) / (time.monotonic() - idle_start)
    before = (process_cpu(app_pids), process_cpu(nginx_pids), redis_cpu(ports))
    total = len(requests) * 40 if cached else len(requests)
    report, _ = load(
        dep.nginx.port, requests, seconds=max_seconds, concurrency=2, max_requests=total
    )
    after = (process_cpu(app_pids), process_cpu(nginx_pids), redis_cpu(ports))
    if sorted(children(replica.process.proc.pid)) != sorted(app_pids[1:]):
        print(f"# warning: gunicorn workers changed during {name!r}; its CPU figure is wrong")
    n = max(1, len(report.samples))
    redis_used = max(0.0, after[2] - before[2] - idle_rate * report.wall)
    caches = sorted({s.cache for s in report.samples})
    return Figures(
        name=name,
        requests=len(report.samples),
        ok=sum(1 for s in report.samples if s.status == 200),
        cache="/".join(caches),
        wall_rate=len(report.samples) / report.wall,
        app_cpu_ms=(after[0] - before[0]) / n * 1000,
        nginx_cpu_us=(after[1] - before[1]) / n * 1e6,
        redis_cpu_us=redis_used / n * 1e6,
        p50_ms=report.percentile(50) * 1000,
    )


def _post(port: int, path: str, body: Any) -> bytes:
    """POST one request; the raw response text (exactly what the service caches)."""
    connection = HTTPConnection(HOST, port, timeout=30)
    try:
        connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        response = connection.getresponse()
        data = response.read()
        if response.status != 200:
            raise SystemExit(f"{path}: {response.status} {data[:200]!r}")
        return data
    finally:
        connection.close()


def memory_per_entries(
    dep: Deployment, values: list[bytes], entries: int, label: str
) -> tuple[float, float]:
    """(bytes on the masters per ``entries`` entries, mean value length) for ``values`` cycled."""
    ports = dep.redis.ports  # type: ignore[union-attr]
    masters = dep.redis.masters()  # type: ignore[union-attr]
    for port in masters:
        with node_client(port) as client:
            client.flushall()
    time.sleep(0.5)

    def used() -> int:
        total = 0
        for port in masters:
            with node_client(port) as client:
                total += int(client.info("memory")["used_memory"])
        return total

    cluster = RedisCluster(startup_nodes=[ClusterNode(HOST, p) for p in ports])
    try:
        base = used()
        pipe = cluster.pipeline(transaction=False)
        for index in range(entries):
            key = "tunk:v1:" + hashlib.sha256(f"{label}:{index}".encode()).hexdigest()
            pipe.set(key, values[index % len(values)], ex=3600)
            if index % 2000 == 1999:
                pipe.execute()
        pipe.execute()
        time.sleep(0.5)
        delta = used() - base
    finally:
        cluster.close()
    mean = sum(len(v) for v in values) / len(values)
    return delta * 100_000 / entries, mean


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer requests per class")
    parser.add_argument("--max-seconds", type=float, default=20.0, help="cap per class")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    count, advice = (300, 60) if args.quick else (1500, 300)
    workdir = Path(tempfile.mkdtemp(prefix="tunk-capacity-"))
    print(f"# one gunicorn sync worker behind nginx, Redis Cluster 3+3, {os.cpu_count()} CPUs")
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, work dir {workdir}")
    rows: list[Figures] = []
    # No worker recycling during the run: the CPU is read per worker process id.
    no_recycle = {"GUNICORN_CMD_ARGS": "--max-requests 0"}
    with deployment(workdir, replicas=1, workers=1, threads=1, extra_env=no_recycle) as dep:
        for name, requests, cached in classes(count, advice, args.seed):
            rows.append(measure(dep, name, requests, args.max_seconds, cached))
        header = (
            f"{'class':<28}{'requests':>9}{'ok':>7}  {'cache':<10}{'cpu ms/req':>11}"
            f"{'req/s/core':>11}{'wall req/s':>11}{'p50 ms':>8}{'nginx us':>9}{'redis us':>9}"
        )
        print(header)
        for row in rows:
            per_core = 1000 / row.app_cpu_ms if row.app_cpu_ms > 0 else float("inf")
            print(
                f"{row.name:<28}{row.requests:>9}{row.ok:>7}  {row.cache:<10}"
                f"{row.app_cpu_ms:>11.2f}{per_core:>11.0f}{row.wall_rate:>11.0f}"
                f"{row.p50_ms:>8.1f}{row.nginx_cpu_us:>9.0f}{row.redis_cpu_us:>9.0f}"
            )

        rng = random.Random(args.seed + 7)
        melds_texts = [_post(dep.nginx.port, MELDS, body) for _, body in melds_requests(200, 99)]
        t13_texts = [
            _post(dep.nginx.port, "/v1/games/three-thirteen/discard", t13_body("discard", rng))
            for _ in range(100)
        ]
        alias_values = [
            ("tunk:v1:" + hashlib.sha256(str(i).encode()).hexdigest()).encode() for i in range(50)
        ]
        print()
        print(f"Redis memory per {ENTRIES:,} entries (used_memory summed over the 3 masters;")
        print("the replicas hold as much again):")
        for label, values in (
            ("melds answers", melds_texts),
            ("three-thirteen discard answers", t13_texts),
            ("alias entries (value = canonical key)", alias_values),
        ):
            per, mean = memory_per_entries(dep, values, ENTRIES, label)
            print(
                f"  {label:<40} {per / 2**20:8.1f} MiB  ({per / 100_000:6.0f} B/entry, "
                f"mean value {mean:6.0f} B)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
