"""Faults under load, with real processes: gunicorn (2 gthread workers) and ``redis-server``.

Client threads (``harness/loadgen.py``'s ``load()``, a fresh connection per request) send
``melds`` requests on loopback the whole time while the test, in turn: stops Redis (SIGSTOP) for
5 s, kills and restarts it, slows it (``CLIENT PAUSE``), fills it (``maxmemory`` reached with
``noeviction``: every write refused) and kills a gunicorn worker. Asserted: every request answers
200 except those in flight on the killed worker, cache HITs resume afterwards, and ``/readyz``
reports each state. A second test runs five maximal requests at once while ``/healthz`` and
``/readyz`` are polled ten times a second: every probe answers, the slow requests end with an
answer or a 503 (request deadline), no worker is killed.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

import pytest
from conftest import RedisServer

from harness.loadgen import LoadReport, load, mixed_melds_requests
from tests.support import processes
from tests.support.bodies import MAXIMAL_ACCEPTED
from tests.support.processes import GunicornProcess

COOLDOWN = 0.5
LOAD_THREADS = 4
LOAD_MAX_SECONDS = 120.0  # upper bound; the test stops the load when its faults are done
BUSY_SECONDS = 3.0  # how long the probe test keeps five maximal requests in flight
BUSY_MAX_REQUESTS = 40  # per thread, whatever the clock says

pytestmark = pytest.mark.slow


class Gunicorn(GunicornProcess):
    """A gunicorn master on a free port; its log and its workers' pids."""

    tail_lines = 30

    def get(self, path: str, timeout: float = 5) -> tuple[int, Any]:
        connection = HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            return response.status, json.loads(response.read())
        finally:
            connection.close()

    def post(self, path: str, body: Any, timeout: float = 60) -> int:
        connection = HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(
                "POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"}
            )
            response = connection.getresponse()
            response.read()
            return response.status
        finally:
            connection.close()


@pytest.fixture
def start_gunicorn(tmp_path: Path) -> Iterator[Callable[..., Gunicorn]]:
    started: list[Gunicorn] = []

    def start(**env: str) -> Gunicorn:
        full_env = {
            "WEB_CONCURRENCY": "2",
            "BREAKER_COOLDOWN_SECONDS": str(COOLDOWN),
            "STATE_DIR": str(tmp_path / "state"),
            **env,
        }
        service = processes.start_gunicorn(
            tmp_path / f"gunicorn-{len(started)}.log",
            full_env,
            Gunicorn,
            ready=lambda g: len(g.workers()) >= 2 and g.get("/healthz")[0] == 200,
        )
        started.append(service)
        return service

    yield start
    for service in started:
        service.stop()


def _cache(service: Gunicorn) -> dict[str, Any]:
    status, body = service.get("/readyz")
    assert status == 200
    cache: dict[str, Any] = body["cache"]
    return cache


def _wait_for_state(service: Gunicorn, state: str, seconds: float = 5) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        cache = _cache(service)
        if cache["state"] == state or time.monotonic() > deadline:
            return cache
        time.sleep(0.1)


def test_faults_under_load(
    start_gunicorn: Callable[..., Gunicorn], redis_server: RedisServer, tmp_path: Path
) -> None:
    service = start_gunicorn(REDIS_URL=redis_server.url)
    stop = threading.Event()
    outcome: list[LoadReport] = []
    load_thread = threading.Thread(
        target=lambda: outcome.append(
            load(
                service.port,
                mixed_melds_requests(50_000),
                seconds=LOAD_MAX_SECONDS,
                concurrency=LOAD_THREADS,
                keep_alive=False,  # a killed worker fails only the requests it was serving
                stop=stop,
            )[0]
        ),
        daemon=True,
    )
    load_thread.start()
    admin = redis_server.client()
    seen: dict[str, dict[str, Any]] = {}
    try:
        time.sleep(2)  # warm: every hot hand is cached
        assert _cache(service)["state"] == "up"

        redis_server.pause()  # hung: accepts connections, never answers
        time.sleep(2.5)
        seen["stopped"] = _cache(service)
        time.sleep(2.5)
        redis_server.resume()
        seen["resumed"] = _wait_for_state(service, "up")

        redis_server.kill()
        time.sleep(1.5)
        seen["killed"] = _cache(service)
        redis_server.restart()
        seen["restarted"] = _wait_for_state(service, "up")
        admin.close()
        admin = redis_server.client()

        admin.execute_command("CLIENT", "PAUSE", "1500", "ALL")  # slowed: every call waits
        time.sleep(0.5)
        seen["slowed"] = _cache(service)
        time.sleep(1.5)
        seen["unslowed"] = _wait_for_state(service, "up")

        admin.config_set("maxmemory-policy", "noeviction")
        admin.config_set("maxmemory", 1)  # full: every write is refused
        time.sleep(1.5)
        seen["full"] = _cache(service)
        admin.config_set("maxmemory", 0)
        seen["freed"] = _wait_for_state(service, "up")

        victim = min(service.workers())
        killed_clock = time.monotonic()
        os.kill(victim, signal.SIGKILL)
        time.sleep(3)
        recovered_clock = time.monotonic()
        time.sleep(2)
    finally:
        stop.set()
        load_thread.join(timeout=30)
        admin.close()

    report = outcome[0]
    killed_at = killed_clock - report.origin  # on the samples' clock (seconds into the run)
    recovered_at = recovered_clock - report.origin
    results = [
        {"start": s.started, "end": s.started + s.seconds, "status": s.status, "cache": s.cache}
        for s in report.samples
    ]
    assert len(results) > 200, len(results)
    failed = [r for r in results if r["status"] != 200]
    in_flight = [r for r in failed if r["start"] <= killed_at <= r["end"] + 0.05]
    assert failed == in_flight, (failed[:5], service.log_tail())
    assert len(in_flight) <= 4  # at most one per client thread
    late = [r for r in results if r["start"] > recovered_at]
    assert any(r["cache"] == "HIT" for r in late), "cache HITs did not resume"
    assert len(service.workers()) == 2  # the master replaced the killed worker

    assert seen["stopped"]["state"] in {"down", "open-circuit"}
    assert seen["killed"]["state"] in {"down", "open-circuit"}
    assert seen["slowed"]["state"] in {"down", "open-circuit"}
    assert seen["full"]["state"] in {"down", "open-circuit"}
    assert seen["full"]["write"] in (False, None)
    for name in ("resumed", "restarted", "unslowed", "freed"):
        assert seen[name]["state"] == "up" and seen[name]["write"] is True, (name, seen[name])
    # Every live worker's breaker is visible from any worker.
    assert len(seen["freed"]["workers"]) >= 2
    statuses = {r["cache"] for r in results if r["status"] == 200}
    assert {"HIT", "MISS", "BYPASS"} <= statuses


def test_probes_answer_while_five_maximal_requests_run(
    start_gunicorn: Callable[..., Gunicorn],
) -> None:
    service = start_gunicorn(REQUEST_DEADLINE_SECONDS="4")
    workers = service.workers()
    outcomes: list[int] = []

    busy_until = time.monotonic() + BUSY_SECONDS

    def slow(n: int) -> None:
        # Each thread keeps one maximal request in flight (a new seed each time: always a cache
        # miss) until BUSY_SECONDS have passed, so the probes below always meet busy workers
        # however fast one maximal request has become. Bounded in count as well as in time.
        path, body = MAXIMAL_ACCEPTED[n % len(MAXIMAL_ACCEPTED)]
        for repeat in range(BUSY_MAX_REQUESTS):
            outcomes.append(service.post(path, {**body, "seed": n + 5 * repeat}))
            if time.monotonic() >= busy_until:
                break

    threads = [threading.Thread(target=slow, args=(n,)) for n in range(5)]
    for thread in threads:
        thread.start()
    probes: list[int] = []
    while any(thread.is_alive() for thread in threads):
        for path in ("/healthz", "/readyz"):
            try:
                probes.append(service.get(path, timeout=2)[0])
            except OSError:
                probes.append(0)
        time.sleep(0.1)
    for thread in threads:
        thread.join()
    # At least a few polls fell while the slow requests ran, and every one was answered.
    assert len(probes) >= 4 and set(probes) == {200}, probes
    assert len(outcomes) >= 5 and set(outcomes) <= {200, 422, 503}, outcomes
    assert service.workers() == workers, service.log_tail()  # nobody was killed
    assert "WORKER TIMEOUT" not in service.log.read_text()


def _raw(port: int, request: bytes) -> tuple[str, dict[str, str], bytes]:
    import socket

    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return lines[0], headers, body


def test_gunicorn_limits_and_headers_over_the_wire(start_gunicorn: Callable[..., Gunicorn]) -> None:
    service = start_gunicorn()
    status, headers, body = _raw(service.port, b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\n\r\n")
    assert (
        status.startswith("HTTP/1.1 414") and headers["content-type"] == "application/problem+json"
    )
    assert json.loads(body)["status"] == 414
    big = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n"
    status, headers, body = _raw(service.port, big)
    assert status.startswith("HTTP/1.1 431") and json.loads(body)["status"] == 431
    many = (
        b"GET /healthz HTTP/1.1\r\nHost: x\r\n"
        + b"".join(b"X-H%d: 1\r\n" % n for n in range(150))
        + b"\r\n"
    )
    status, headers, body = _raw(service.port, many)
    assert status.startswith("HTTP/1.1 431") and json.loads(body)["status"] == 431
    # A chunked body over MAX_BODY_BYTES (64 KiB) is a 413, as with a Content-Length.
    payload = b'{"hand": ["AS"]' + b" " * 70_000 + b"}"
    chunks = b"".join(
        b"%x\r\n%s\r\n" % (len(payload[i : i + 8000]), payload[i : i + 8000])
        for i in range(0, len(payload), 8000)
    )
    status, headers, body = _raw(
        service.port,
        b"POST /v1/games/game-flip-flop/melds HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        + chunks
        + b"0\r\n\r\n",
    )
    assert status.startswith("HTTP/1.1 413"), (status, body[:200])
    assert json.loads(body)["status"] == 413
    # Every answer: no server version, nosniff, no-store.
    status, headers, body = _raw(
        service.port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    assert status.startswith("HTTP/1.1 200")
    assert headers["server"] == "tunk-hand-analysis"
    assert headers["x-content-type-options"] == "nosniff" and headers["cache-control"] == "no-store"
