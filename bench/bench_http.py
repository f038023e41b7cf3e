"""HTTP benchmark: cached vs uncached melds vs a trivial endpoint, under real gunicorn + Redis.

    python bench/bench_http.py                     # defaults: 2000 requests per scenario
    python bench/bench_http.py --requests 5000 --concurrency 1,4

Starts its own ``redis-server`` and gunicorn (``gunicorn.conf.py``, ``api:create_app()``) on free
127.0.0.1 ports, then drives them from a second process (threads + ``http.client``, one
connection per request as gunicorn's sync workers close them) and prints requests/second and
p50/p99 latency for:

- ``healthz``  GET /healthz (the trivial endpoint of the same app);
- ``cached``   POST melds, one fixed hand (warmed first, so every answer is an ``X-Cache: HIT``);
- ``uncached`` POST melds, a different random hand each request (``MISS``: the engine runs).

Targets (issue 3): cached p50 <= 1.5 x healthz p50, cached p99 <= 5 ms. Every scenario is
bounded by ``--requests`` and ``--max-seconds``; nothing leaves the loopback interface.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from http.client import HTTPConnection
from multiprocessing import get_context
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
MELDS = "/v1/games/game-flip-flop/melds"
CACHED_HAND = ["AS", "2S", "3S", "7D", "7C", "KH"]
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [rank + suit for suit in "SHDC" for rank in RANKS]
HAND_SIZE = 6  # GFF hands hold at most 6 cards
SCENARIOS = ("healthz", "cached", "uncached")


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for(port: int, proc: subprocess.Popen[bytes], timeout: float = 30) -> None:
    """Wait until 127.0.0.1:``port`` accepts connections (or the process died)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"process exited ({proc.returncode}) before listening on {port}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"nothing listening on 127.0.0.1:{port} after {timeout}s")


@dataclass
class Result:
    """Latencies (seconds) and outcome counts of one scenario run."""

    name: str
    concurrency: int
    latencies: list[float] = field(default_factory=list)
    wall: float = 0.0
    statuses: Counter[str] = field(default_factory=Counter)

    def percentile(self, q: float) -> float:
        """The ``q``-th percentile latency in milliseconds."""
        ordered = sorted(self.latencies)
        index = min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))
        return ordered[index] * 1000


def _one(port: int, method: str, path: str, body: bytes | None) -> tuple[float, str]:
    headers = {"Content-Type": "application/json"} if body is not None else {}
    start = time.perf_counter()
    connection = HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        elapsed = time.perf_counter() - start
        return elapsed, f"{response.status} {response.getheader('X-Cache') or '-'}"
    finally:
        connection.close()


def plan(scenario: str, requests: int, rng: random.Random) -> tuple[str, str, list[bytes | None]]:
    """Method, path and the bodies of ``requests`` requests of ``scenario``."""
    if scenario == "healthz":
        return "GET", "/healthz", [None] * requests
    if scenario == "cached":
        return "POST", MELDS, [json.dumps({"hand": CACHED_HAND}).encode()] * requests
    bodies: list[bytes | None] = [
        json.dumps({"hand": rng.sample(DECK, HAND_SIZE)}).encode() for _ in range(requests)
    ]
    return "POST", MELDS, bodies


def drive_interleaved(port: int, requests: int, max_seconds: float, seed: int) -> dict[str, Any]:
    """One client running the three scenarios in turn (healthz, cached, uncached, healthz, ...).

    Interleaving makes the latency comparison fair on a shared machine: whatever else runs
    slows all three scenarios alike.
    """
    rng = random.Random(seed)
    plans = {name: plan(name, requests, rng) for name in SCENARIOS}
    latencies: dict[str, list[float]] = {name: [] for name in SCENARIOS}
    statuses: dict[str, Counter[str]] = {name: Counter() for name in SCENARIOS}
    deadline = time.monotonic() + max_seconds
    for index in range(requests):
        if time.monotonic() > deadline:
            break
        for name in SCENARIOS:
            method, path, bodies = plans[name]
            elapsed, status = _one(port, method, path, bodies[index])
            latencies[name].append(elapsed)
            statuses[name][status] += 1
    return {"latencies": latencies, "statuses": statuses}


def drive(
    port: int, scenario: str, requests: int, concurrency: int, max_seconds: float, seed: int
) -> dict[str, Any]:
    """Run one scenario alone with ``concurrency`` client threads; return raw measurements."""
    method, path, bodies = plan(scenario, requests, random.Random(seed))
    latencies: list[float] = []
    statuses: Counter[str] = Counter()
    lock = threading.Lock()
    next_index = iter(range(requests))
    deadline = time.monotonic() + max_seconds

    def worker() -> None:
        while time.monotonic() < deadline:
            with lock:
                index = next(next_index, None)
            if index is None:
                return
            elapsed, status = _one(port, method, path, bodies[index])
            with lock:
                latencies.append(elapsed)
                statuses[status] += 1

    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"latencies": latencies, "wall": time.perf_counter() - start, "statuses": statuses}


def start_processes(
    workdir: Path, workers: int | None
) -> tuple[list[subprocess.Popen[bytes]], int]:
    """Start redis-server and gunicorn; returns the processes and the HTTP port."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("redis-server not found (apt-get install redis-server)")
    redis_port, http_port = free_port(), free_port()
    redis_proc = subprocess.Popen(
        [binary, "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(workdir)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    wait_for(redis_port, redis_proc)
    env = {
        **os.environ,
        "PORT": str(http_port),
        "BIND_HOST": "127.0.0.1",
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
    }
    if workers:
        env["WEB_CONCURRENCY"] = str(workers)
    log = (workdir / "gunicorn.log").open("wb")
    gunicorn = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "api:create_app()"],
        cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    log.close()
    wait_for(http_port, gunicorn)
    return [gunicorn, redis_proc], http_port


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table; exit status 0 (figures are informative)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000, help="per scenario and level")
    parser.add_argument("--concurrency", default="1,4", help="comma-separated client threads")
    parser.add_argument("--max-seconds", type=float, default=20.0, help="cap per scenario")
    parser.add_argument("--workers", type=int, default=None, help="gunicorn workers")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    levels = [int(c) for c in args.concurrency.split(",") if c.strip()]

    with tempfile.TemporaryDirectory(prefix="tunk-bench-") as tmp:
        processes, port = start_processes(Path(tmp), args.workers)
        results: list[Result] = []
        try:
            with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as driver:
                # Warm up every worker and the cache entry of the cached scenario.
                for scenario in SCENARIOS:
                    driver.submit(drive, port, scenario, 200, 4, 10, 999).result()
                interleaved = driver.submit(
                    drive_interleaved, port, args.requests, args.max_seconds * 3, args.seed
                ).result()
                for name in SCENARIOS:
                    measured = interleaved["latencies"][name]
                    statuses = interleaved["statuses"][name]
                    results.append(Result(name, 0, measured, sum(measured), statuses))
                for level in levels:
                    for scenario in SCENARIOS:
                        raw = driver.submit(
                            drive, port, scenario, args.requests, level, args.max_seconds,
                            args.seed + level,
                        ).result()  # fmt: skip
                        results.append(
                            Result(scenario, level, raw["latencies"], raw["wall"], raw["statuses"])
                        )
        finally:
            for proc in processes:
                proc.send_signal(signal.SIGTERM)
            for proc in processes:
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()

    cpus = os.cpu_count()
    workers = args.workers or "default (2 x CPUs + 1, at most 9)"
    print(f"gunicorn workers: {workers}; CPUs: {cpus}; driver: separate process, loopback")
    print("conc 'seq': one client alternating healthz / cached / uncached (latency comparison);")
    print("conc N: N client threads running one scenario alone (throughput).")
    header = (
        f"{'scenario':<9} {'conc':>4} {'requests':>8} {'req/s':>8} {'p50 ms':>7} {'p99 ms':>7}"
        "  outcomes"
    )
    print(header)
    print("-" * len(header))
    for r in results:
        rps = len(r.latencies) / r.wall if r.wall else 0.0
        outcomes = ", ".join(f"{k}: {v}" for k, v in sorted(r.statuses.items()))
        level = "seq" if r.concurrency == 0 else str(r.concurrency)
        print(
            f"{r.name:<9} {level:>4} {len(r.latencies):>8} {rps:>8.0f} "
            f"{r.percentile(50):>7.2f} {r.percentile(99):>7.2f}  {outcomes}"
        )
    print()
    for level in (0, *levels):
        by_name = {r.name: r for r in results if r.concurrency == level}
        cached, trivial = by_name["cached"], by_name["healthz"]
        ratio = cached.percentile(50) / trivial.percentile(50)
        label = "interleaved, 1 client" if level == 0 else f"concurrency {level}"
        print(
            f"{label}: cached/healthz p50 = {ratio:.2f}x (target <= 1.5x); "
            f"cached p99 = {cached.percentile(99):.2f} ms (target <= 5 ms); "
            f"uncached p50 = {by_name['uncached'].percentile(50):.2f} ms, "
            f"mean {statistics.fmean(by_name['uncached'].latencies) * 1000:.2f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
