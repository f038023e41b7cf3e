"""Faults under load, with real processes: gunicorn (2 gthread workers) and ``redis-server``.

A second process (``loadgen.py``) sends ``melds`` requests on loopback the whole time while the
test, in turn: stops Redis (SIGSTOP) for 5 s, kills and restarts it, slows it (``CLIENT PAUSE``),
fills it (``maxmemory`` reached with ``noeviction``: every write refused) and kills a gunicorn
worker. Asserted: every request answers 200 except those in flight on the killed worker, cache
HITs resume afterwards, and ``/readyz`` reports each state. A second test runs five maximal
requests at once while ``/healthz`` and ``/readyz`` are polled ten times a second: every probe
answers, the slow requests end with an answer or a 503 (request deadline), no worker is killed.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

import pytest
from conftest import RedisServer, free_port, wait_for_port

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
LOADGEN = Path(__file__).resolve().parent / "loadgen.py"
COOLDOWN = 0.5

pytestmark = pytest.mark.slow


class Gunicorn:
    """A gunicorn master on a free port; its log and its workers' pids."""

    def __init__(self, port: int, proc: subprocess.Popen[bytes], log: Path) -> None:
        self.port, self.proc, self.log = port, proc, log

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

    def workers(self) -> set[int]:
        children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text()
        return {int(pid) for pid in children.split()}

    def log_tail(self) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-30:])


@pytest.fixture
def start_gunicorn(tmp_path: Path) -> Iterator[Callable[..., Gunicorn]]:
    started: list[subprocess.Popen[bytes]] = []

    def start(**env: str) -> Gunicorn:
        port = free_port()
        full_env = {
            **os.environ,
            "PORT": str(port),
            "BIND_HOST": "127.0.0.1",
            "WEB_CONCURRENCY": "2",
            "BREAKER_COOLDOWN_SECONDS": str(COOLDOWN),
            "STATE_DIR": str(tmp_path / "state"),
            "PYTHONDONTWRITEBYTECODE": "1",
            **env,
        }
        log = tmp_path / f"gunicorn-{port}.log"
        with log.open("wb") as out:
            proc = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "api:create_app()"],
                cwd=REPO_ROOT,
                env=full_env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        started.append(proc)
        service = Gunicorn(port, proc, log)
        wait_for_port(port, 30, proc)
        deadline = time.monotonic() + 30
        while len(service.workers()) < 2 or service.get("/healthz")[0] != 200:
            assert time.monotonic() < deadline, service.log_tail()
            time.sleep(0.05)
        return service

    yield start
    for proc in started:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


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
    out, stop = tmp_path / "load.jsonl", tmp_path / "stop"
    load = subprocess.Popen(
        [sys.executable, str(LOADGEN), str(service.port), str(out), str(stop), "4"]
    )
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
        killed_at = time.time()
        os.kill(victim, signal.SIGKILL)
        time.sleep(3)
        recovered_at = time.time()
        time.sleep(2)
    finally:
        stop.touch()
        load.wait(timeout=30)
        admin.close()

    results = [json.loads(line) for line in out.read_text().splitlines()]
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


MAXIMAL_KNOCK = {
    "hand": ["RH1", "YC2", "GT2", "BS3", "RC1"],
    "players": 6,
    "samples": 20000,
    "opponents": [
        {"seat": k, "turns": 50, "discarded": [card]}
        for k, card in enumerate(["RC4", "YC4", "GC4", "BC4", "RT4"], start=1)
    ],
}


def test_probes_answer_while_five_maximal_requests_run(
    start_gunicorn: Callable[..., Gunicorn],
) -> None:
    service = start_gunicorn(REQUEST_DEADLINE_SECONDS="4")
    workers = service.workers()
    outcomes: list[int] = []

    def slow(n: int) -> None:
        body = {**MAXIMAL_KNOCK, "samples": MAXIMAL_KNOCK["samples"] - n}  # five cache misses
        outcomes.append(service.post("/v1/games/triple-tunk/knock", body))

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
    assert len(probes) >= 20 and set(probes) == {200}, probes
    assert len(outcomes) == 5 and set(outcomes) <= {200, 422, 503}, outcomes
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
