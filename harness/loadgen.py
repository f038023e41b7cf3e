"""Bounded HTTP load over loopback, and the one-request helpers the scale-out tests share.

``load()`` sends a list of requests round robin from client threads on keep-alive connections
until a time limit, a request count or a stop event, and can run timed events (kill a process)
meanwhile; ``LoadReport`` turns the samples into the figures the tests and benchmarks print
(failed requests, HIT/MISS/BYPASS counts, the BYPASS window after an event, latencies).
Only 127.0.0.1 is ever addressed.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from http.client import HTTPConnection
from typing import Any

HOST = "127.0.0.1"
MELDS = "/v1/games/game-flip-flop/melds"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [rank + suit for suit in "SHDC" for rank in RANKS]


@dataclass(frozen=True, slots=True)
class Answer:
    """One HTTP exchange."""

    status: int
    cache: str
    body: Any
    seconds: float


def request(port: int, method: str, path: str, body: Any = None, timeout: float = 10.0) -> Answer:
    """One request on a fresh connection to 127.0.0.1:``port``; JSON in and out."""
    connection = HTTPConnection(HOST, port, timeout=timeout)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    start = time.perf_counter()
    try:
        connection.request(
            method, path, body=None if body is None else json.dumps(body), headers=headers
        )
        response = connection.getresponse()
        raw = response.read()
        seconds = time.perf_counter() - start
        try:
            parsed = json.loads(raw)
        except ValueError:
            parsed = raw.decode("utf-8", "replace")
        return Answer(response.status, response.getheader("X-Cache") or "-", parsed, seconds)
    finally:
        connection.close()


@dataclass(frozen=True, slots=True)
class Sample:
    """One request of a load run: when it started (seconds since the run began), its outcome."""

    started: float
    seconds: float
    status: int  # 0: no HTTP answer at all (connection refused/reset, timeout)
    cache: str
    error: str = ""


@dataclass
class LoadReport:
    """Everything a load run saw, plus the figures the tests and benchmarks print."""

    samples: list[Sample]
    wall: float
    origin: float = 0.0  # time.monotonic() when the run began: ``Sample.started`` counts from it

    def failed(self) -> list[Sample]:
        """Requests without a 200."""
        return [s for s in self.samples if s.status != 200]

    def count(self, cache: str) -> int:
        """Answers with ``X-Cache: cache``."""
        return sum(1 for s in self.samples if s.cache == cache)

    def worst(self) -> float:
        """Slowest request, seconds."""
        return max((s.seconds for s in self.samples), default=0.0)

    def percentile(self, q: float) -> float:
        """The ``q``-th percentile latency, seconds."""
        ordered = sorted(s.seconds for s in self.samples)
        if not ordered:
            return 0.0
        return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]

    def bypass_window(self, since: float) -> tuple[float | None, float | None]:
        """(first, last) start of a BYPASS answer after ``since``, relative to ``since``."""
        times = [
            s.started - since for s in self.samples if s.cache == "BYPASS" and s.started >= since
        ]
        return (min(times), max(times)) if times else (None, None)

    def hits_resume(self, since: float) -> float | None:
        """Seconds after ``since`` of the first HIT following the last BYPASS (None: no BYPASS)."""
        _, last = self.bypass_window(since)
        if last is None:
            return None
        after = [
            s.started - since for s in self.samples if s.cache == "HIT" and s.started - since > last
        ]
        return min(after) if after else float("inf")

    def summary(self) -> str:
        """One line: requests, rate, outcomes, p50/p99/worst latency."""
        statuses: dict[str, int] = {}
        for s in self.samples:
            key = str(s.status) if s.status else "no-answer"
            statuses[key] = statuses.get(key, 0) + 1
        return (
            f"{len(self.samples)} requests in {self.wall:.1f}s "
            f"({len(self.samples) / max(self.wall, 1e-9):.0f}/s); "
            f"status {statuses}; HIT {self.count('HIT')} MISS {self.count('MISS')} "
            f"BYPASS {self.count('BYPASS')}; p50 {self.percentile(50) * 1000:.1f} ms, "
            f"p99 {self.percentile(99) * 1000:.1f} ms, worst {self.worst() * 1000:.1f} ms"
        )


def load(
    port: int,
    requests: Sequence[tuple[str, Any]],
    *,
    seconds: float,
    concurrency: int = 4,
    max_requests: int = 100_000,
    keep_alive: bool = True,
    events: dict[float, Callable[[], None]] | None = None,
    stop: threading.Event | None = None,
) -> tuple[LoadReport, dict[float, float]]:
    """Send ``requests`` (``(path, json body)``, round robin; a None body is a GET) to ``port``.

    ``concurrency`` threads, each on its own keep-alive connection (reopened after any error),
    until ``seconds`` have passed or ``max_requests`` were sent. ``events`` maps a time (seconds
    into the run) to a callable run then from another thread (kill a node, ...); the second
    result maps each event's planned time to when it actually ran (relative to the start).
    Setting ``stop`` ends the run early (``seconds`` stays the upper bound).
    """
    samples: list[Sample] = []
    lock = threading.Lock()
    counter = iter(range(max_requests))
    start = time.monotonic()
    deadline = start + seconds
    ran: dict[float, float] = {}

    def worker() -> None:
        connection: HTTPConnection | None = None
        while time.monotonic() < deadline and not (stop is not None and stop.is_set()):
            with lock:
                index = next(counter, None)
            if index is None:
                return
            path, body = requests[index % len(requests)]
            method, payload = ("GET", None) if body is None else ("POST", json.dumps(body))
            headers = {} if body is None else {"Content-Type": "application/json"}
            if connection is None:
                connection = HTTPConnection(HOST, port, timeout=15)
            began = time.monotonic()
            try:
                connection.request(method, path, body=payload, headers=headers)
                response = connection.getresponse()
                response.read()
                sample = Sample(
                    began - start,
                    time.monotonic() - began,
                    response.status,
                    response.getheader("X-Cache") or "-",
                )
                if not keep_alive or response.getheader("Connection", "").lower() == "close":
                    connection.close()
                    connection = None
            except (OSError, ValueError) as exc:  # http.client errors are OSError/HTTPException
                sample = Sample(began - start, time.monotonic() - began, 0, "-", repr(exc))
                connection.close()
                connection = None
            except Exception as exc:  # noqa: BLE001 (HTTPException: still a failed request)
                sample = Sample(began - start, time.monotonic() - began, 0, "-", repr(exc))
                connection.close()
                connection = None
            with lock:
                samples.append(sample)
        if connection is not None:
            connection.close()

    def scheduler() -> None:
        for at, action in sorted((events or {}).items()):
            delay = start + at - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            if time.monotonic() > deadline or (stop is not None and stop.is_set()):
                return
            ran[at] = time.monotonic() - start
            action()

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(concurrency)]
    timer = threading.Thread(target=scheduler, daemon=True)
    for thread in threads:
        thread.start()
    timer.start()
    for thread in threads:
        thread.join(seconds + 60)
    timer.join(60)
    wall = time.monotonic() - start
    samples.sort(key=lambda s: s.started)
    return LoadReport(samples, wall, start), ran


def sweep(port: int, requests: Sequence[tuple[str, Any]], attempts: int = 5) -> dict[str, int]:
    """Send each request once more, sequentially, retrying a non-HIT up to ``attempts`` times
    (0.3 s apart: a worker's breaker may still be cooling down); returns the final
    ``X-Cache`` counts. After a failover every warmed request should end up a HIT."""
    counts: dict[str, int] = {}
    for path, body in requests:
        for attempt in range(attempts):
            answer = request(port, "POST", path, body)
            if answer.status == 200 and answer.cache == "HIT":
                break
            if attempt + 1 < attempts:
                time.sleep(0.3)
        key = answer.cache if answer.status == 200 else f"status {answer.status}"
        counts[key] = counts.get(key, 0) + 1
    return counts


def melds_requests(count: int, seed: int = 7) -> list[tuple[str, Any]]:
    """``count`` distinct Game Flip Flop melds requests (6-card hands, seeded), so their cache
    keys spread over every cluster slot range."""
    rng = random.Random(seed)
    seen: set[tuple[str, ...]] = set()
    result: list[tuple[str, Any]] = []
    while len(result) < count:
        hand = tuple(sorted(rng.sample(DECK, 6)))
        if hand not in seen:
            seen.add(hand)
            result.append((MELDS, {"hand": list(hand)}))
    return result


def mixed_melds_requests(count: int, hot: int = 8, seed: int = 7) -> list[tuple[str, Any]]:
    """``count`` Game Flip Flop melds requests: about half repeat one of ``hot`` fixed 6-card
    hands (cache HITs once stored), the others are random 6-card hands (cache MISSes), in a
    seeded random order."""
    hot_requests = [(MELDS, {"hand": random.Random(n).sample(DECK, 6)}) for n in range(hot)]
    rng = random.Random(seed)
    return [
        rng.choice(hot_requests) if rng.random() < 0.5 else (MELDS, {"hand": rng.sample(DECK, 6)})
        for _ in range(count)
    ]
