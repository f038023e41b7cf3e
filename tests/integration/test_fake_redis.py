"""Impostors on the Redis port: gunicorn (``gunicorn.conf.py``) with ``REDIS_URL`` pointing at a
fake server that speaks RESP with the wrong types, answers every command ``+OK``, serves a
foreign JSON value to every GET, sends garbage, or speaks HTTP.

Asserted for each, with the rate limiter on: no answer is a 5xx, every answer is the one the
engine gives (no foreign value is ever served, nothing is a ``HIT``), and ``/readyz`` says why
the cache is not up.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

import pytest

from api.app import create_app
from tests.support.processes import GunicornProcess, free_port, start_gunicorn

pytestmark = pytest.mark.slow

MELDS = "/v1/games/game-flip-flop/melds"
HANDS = [["AS", "2S", "3S"], ["9H", "9D", "9C", "KH"], ["5C", "6C", "7C", "8C"]]
FOREIGN = b'{"game":"game-flip-flop","hand":["EVIL"],"legal_melds":[],"note":"<script>"}'


def _commands(buf: bytearray) -> list[bytes]:
    """Take the complete RESP commands off the front of ``buf``; their names (upper case)."""
    names = []
    while buf.startswith(b"*"):
        pos = buf.find(b"\r\n")
        if pos < 0:
            break
        count = int(buf[1:pos])
        args = []
        for _ in range(count):
            end = buf.find(b"\r\n", pos + 2)
            if end < 0 or buf[pos + 2 : pos + 3] != b"$":
                return names
            size = int(buf[pos + 3 : end])
            if len(buf) < end + 2 + size + 2:
                return names
            args.append(bytes(buf[end + 2 : end + 2 + size]))
            pos = end + 2 + size
        del buf[: pos + 2]
        names.append(args[0].upper())
    return names


def _reply(mode: str, command: bytes) -> bytes:
    if mode == "wrong-types":  # well-formed RESP, never the type the command returns
        return b"*2\r\n$1\r\na\r\n$1\r\nb\r\n" if command != b"INCR" else b"$2\r\n12\r\n"
    if mode == "all-ok":
        return b"+OK\r\n"
    if mode == "foreign-value":
        if command == b"GET":
            return b"$%d\r\n%s\r\n" % (len(FOREIGN), FOREIGN)
        return b":-3\r\n" if command == b"INCR" else b"+OK\r\n"
    raise AssertionError(mode)


class FakeRedis:
    """A TCP server on 127.0.0.1 whose answers depend on ``mode`` (changeable at any time;
    changing it closes every open connection)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.mode = "all-ok"
        self._listener = socket.create_server(("127.0.0.1", self.port))
        self._conns: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def set_mode(self, mode: str) -> None:
        with self._lock:
            self.mode = mode
            conns, self._conns = self._conns, []
        for conn in conns:
            conn.close()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                self._conns.append(conn)
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        buf = bytearray()
        try:
            while data := conn.recv(65536):
                mode = self.mode
                if mode == "garbage":
                    conn.sendall(b"\x00\xff\xfe not redis at all <script>\r\n\r\n")
                    continue
                if mode == "http":
                    conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
                    conn.close()
                    return
                buf += data
                for command in _commands(buf):
                    conn.sendall(_reply(mode, command))
        except OSError:
            return

    def close(self) -> None:
        self._listener.close()
        self.set_mode("closed")


@pytest.fixture
def fake() -> Iterator[FakeRedis]:
    server = FakeRedis()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def service(fake: FakeRedis, tmp_path: Path) -> Iterator[GunicornProcess]:
    env = {
        "WEB_CONCURRENCY": "1",
        "REDIS_URL": f"redis://127.0.0.1:{fake.port}/0",
        "RATE_LIMIT_REQUESTS": "1000",
        "BREAKER_COOLDOWN_SECONDS": "0.2",
        "HOT_CACHE_ENTRIES": "0",
    }
    service = start_gunicorn(tmp_path / "gunicorn.log", env)
    try:
        yield service
    finally:
        service.stop()


def _post(port: int, path: str, body: Any) -> tuple[int, dict[str, str], Any]:
    connection = HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), json.loads(response.read())
    finally:
        connection.close()


def _readyz(port: int) -> dict[str, Any]:
    connection = HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", "/readyz")
        response = connection.getresponse()
        assert response.status == 200
        cache: dict[str, Any] = json.loads(response.read())["cache"]
        return cache
    finally:
        connection.close()


MODES = ["wrong-types", "all-ok", "foreign-value", "garbage", "http"]


def test_impostors_never_cause_5xx_or_foreign_answers(
    fake: FakeRedis, service: GunicornProcess
) -> None:
    reference = create_app({"TESTING": True, "REDIS_URL": None}).test_client()
    expected = [reference.post(MELDS, json={"hand": hand}).get_json() for hand in HANDS]
    batch = {"requests": [{"method": "POST", "path": MELDS, "body": {"hand": h}} for h in HANDS]}
    for mode in MODES:
        fake.set_mode(mode)
        for _ in range(4):
            for hand, want in zip(HANDS, expected, strict=True):
                status, headers, body = _post(service.port, MELDS, {"hand": hand})
                assert (status, body) == (200, want), (mode, status, body)
                assert headers["X-Cache"] in ("MISS", "BYPASS"), (mode, headers)
            status, _, body = _post(service.port, "/v1/batch", batch)
            assert status == 200, (mode, body)
            assert [item["body"] for item in body["responses"]] == expected, mode
        time.sleep(0.5)  # past the breaker's cool-down: /readyz probes this impostor itself
        ready = _readyz(service.port)
        assert ready["state"] in ("down", "open-circuit"), (mode, ready)
        assert ready["error"], (mode, ready)  # says why
        if ready["breaker"] != "open":
            assert ready["read"] is False, (mode, ready)
