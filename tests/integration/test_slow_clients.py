"""Slow and idle clients cannot starve the workers (real gunicorn with ``gunicorn.conf.py``).

300 connections send a request head one byte every 5 s and 300 more connect and send nothing,
for ``SLOW_ATTACK_SECONDS`` (30); every connection the server closes is opened again at once, so
the pressure never drops. Meanwhile ``/healthz`` and a cached melds request are polled on fresh
connections with a 1 s timeout: at least 90% must answer 200 within 1 s during the attack and
all of them after it. The slow connections get ``408`` problem+json once their request is
``REQUEST_READ_TIMEOUT_SECONDS`` (10) late; the idle ones are closed without an answer.
Two workers of 16 threads (32 threads for 600 connections): with gunicorn's plain ``gthread``
worker the probes time out within seconds (57% and 43% answered in a 10 s run).

Run twice: against gunicorn directly (the README's command), and through nginx with
``deploy/nginx/tunk.conf.template`` as compose ships it (nginx closes slow and idle connections
itself after ``client_header_timeout``).
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.client import HTTPConnection
from pathlib import Path

import pytest
from conftest import RedisServer

from harness.scaleout import Nginx
from tests.support.processes import start_gunicorn

pytestmark = pytest.mark.slow

ATTACK_SECONDS = float(os.environ.get("SLOW_ATTACK_SECONDS", "30"))
SLOW_CONNECTIONS = 300
IDLE_CONNECTIONS = 300
BYTE_EVERY_SECONDS = 5.0
POLL_EVERY_SECONDS = 0.5
POLL_TIMEOUT = 1.0
MELDS = "/v1/games/game-flip-flop/melds"
MELDS_BODY = json.dumps({"hand": ["AS", "2S", "3S", "9H", "9D", "KH"]})


@pytest.fixture(params=["gunicorn", "nginx"])
def entry(
    request: pytest.FixtureRequest, redis_server: RedisServer, tmp_path: Path
) -> Iterator[int]:
    """The port clients use: gunicorn's own, or nginx's in front of it."""
    env = {"WEB_CONCURRENCY": "2", "GUNICORN_THREADS": "16", "REDIS_URL": redis_server.url}
    service = start_gunicorn(tmp_path / "gunicorn.log", env)
    nginx = None
    try:
        if request.param == "nginx":
            workdir = tmp_path / "nginx"
            workdir.mkdir()
            nginx = Nginx(workdir, [f"127.0.0.1:{service.port}"]).start()
            yield nginx.port
        else:
            yield service.port
    finally:
        if nginx is not None:
            nginx.stop()
        service.stop()


@dataclass
class Attack:
    """Holds the slow and idle connections open (re-opening closed ones) until stopped."""

    port: int
    stop: threading.Event = field(default_factory=threading.Event)
    answers_408: int = 0
    closed_silently: int = 0
    other_answers: list[bytes] = field(default_factory=list)
    opened: int = 0

    def _open(self, selector: selectors.BaseSelector, kind: str) -> None:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        sock.setblocking(False)
        if kind == "slow":
            sock.send(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        selector.register(sock, selectors.EVENT_READ, [kind, b""])
        self.opened += 1

    def run(self) -> None:
        selector = selectors.DefaultSelector()
        for _ in range(SLOW_CONNECTIONS):
            self._open(selector, "slow")
        for _ in range(IDLE_CONNECTIONS):
            self._open(selector, "idle")
        next_byte = time.monotonic() + BYTE_EVERY_SECONDS
        while not self.stop.is_set():
            for key, _ in selector.select(timeout=0.2):
                sock: socket.socket = key.fileobj  # type: ignore[assignment]
                kind, got = key.data
                try:
                    data = sock.recv(4096)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if data:
                    key.data[1] = got + data
                    continue
                selector.unregister(sock)
                sock.close()
                if got.startswith(b"HTTP/1.1 408 "):
                    self.answers_408 += 1
                elif not got:
                    self.closed_silently += 1
                else:
                    self.other_answers.append(got[:200])
                self._open(selector, kind)
            if time.monotonic() >= next_byte:
                next_byte += BYTE_EVERY_SECONDS
                for key in list(selector.get_map().values()):
                    if key.data[0] == "slow":
                        with contextlib.suppress(OSError):
                            key.fileobj.send(b"a")  # type: ignore[union-attr]
        for key in list(selector.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]
        selector.close()


def _poll(
    port: int, method: str, path: str, body: str | None, timeout: float = POLL_TIMEOUT
) -> bool:
    """One request on a fresh connection: 200 within ``timeout`` seconds?"""
    start = time.monotonic()
    connection = HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {"Content-Type": "application/json"} if body else {}
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status == 200 and time.monotonic() - start <= timeout
    except OSError:
        return False
    finally:
        connection.close()


def _poll_both(port: int) -> tuple[bool, bool]:
    return _poll(port, "GET", "/healthz", None), _poll(port, "POST", MELDS, MELDS_BODY)


def test_probes_answer_through_slow_and_idle_connections(entry: int) -> None:
    port = entry
    assert _poll(port, "POST", MELDS, MELDS_BODY, timeout=30)  # the melds answer is now cached
    attack = Attack(port)
    attacker = threading.Thread(target=attack.run, daemon=True)
    attacker.start()
    during: list[tuple[bool, bool]] = []
    try:
        time.sleep(1.0)  # every attack connection is open
        end = time.monotonic() + ATTACK_SECONDS
        while time.monotonic() < end:
            during.append(_poll_both(port))
            time.sleep(POLL_EVERY_SECONDS)
    finally:
        attack.stop.set()
        attacker.join(timeout=30)
    after = [_poll_both(port) for _ in range(10)]

    healthz = sum(h for h, _ in during) / len(during)
    melds = sum(m for _, m in during) / len(during)
    summary = (
        f"polls {len(during)}: healthz {healthz:.0%}, cached melds {melds:.0%}; "
        f"408s {attack.answers_408}, closed silently {attack.closed_silently}, "
        f"opened {attack.opened}, other {attack.other_answers[:3]}"
    )
    assert len(during) >= ATTACK_SECONDS / (POLL_EVERY_SECONDS + 2 * POLL_TIMEOUT), summary
    assert healthz >= 0.9 and melds >= 0.9, summary
    assert after == [(True, True)] * 10, summary
    if ATTACK_SECONDS > 12:  # long enough for a request deadline (10 s) and an idle close
        closed = attack.answers_408 + attack.closed_silently
        assert closed >= SLOW_CONNECTIONS + IDLE_CONNECTIONS, summary
    assert attack.other_answers == [], summary


def test_shipped_nginx_reads_requests_whole_with_timeouts() -> None:
    text = (Path(__file__).resolve().parents[2] / "deploy/nginx/tunk.conf.template").read_text()
    for setting in (
        "client_header_timeout 10s;",
        "client_body_timeout 10s;",
        "keepalive_timeout 5s;",
        "send_timeout 30s;",
        "proxy_request_buffering on;",
    ):
        assert setting in text, setting
