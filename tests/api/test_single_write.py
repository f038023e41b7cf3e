"""``api.server.single_write``: gunicorn sends status line, headers and body in one socket write.

A fake socket records each ``sendall``; gunicorn's real ``Response`` does the framing. The bytes
on the wire must be exactly what unpatched gunicorn sends, only in fewer writes.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gunicorn.config import Config
from gunicorn.http import wsgi

from api.server.single_write import install


class RecordingSocket:
    def __init__(self) -> None:
        self.writes: list[bytes] = []

    def sendall(self, data: bytes) -> None:
        self.writes.append(bytes(data))


class Request:
    version = (1, 1)
    method = "POST"
    path = "/v1/games/game-flip-flop/melds"

    def should_close(self) -> bool:
        return False


@pytest.fixture
def patched() -> Iterator[None]:
    original = wsgi.Response.write
    install()
    install()  # idempotent: a second call does not wrap twice
    try:
        yield
    finally:
        wsgi.Response.write = original  # type: ignore[method-assign]


def respond(status: str, headers: list[tuple[str, str]], chunks: list[bytes]) -> list[bytes]:
    sock = RecordingSocket()
    response = wsgi.Response(Request(), sock, Config())
    response.start_response(status, headers)
    for chunk in chunks:
        response.write(chunk)
    response.close()
    return sock.writes


def without_date(data: bytes) -> bytes:
    return b"\r\n".join(line for line in data.split(b"\r\n") if not line.startswith(b"Date:"))


CASES = [
    ("200 OK", [("Content-Type", "application/json"), ("Content-Length", "8")], [b'{"a":1}\n']),
    ("204 No Content", [], []),
    ("200 OK", [("Content-Type", "text/plain")], [b"part one, ", b"part two"]),  # chunked
]


@pytest.mark.parametrize(("status", "headers", "chunks"), CASES)
def test_same_bytes_in_fewer_writes(
    status: str, headers: list[tuple[str, str]], chunks: list[bytes]
) -> None:
    plain = respond(status, headers, chunks)
    install()
    try:
        joined = respond(status, headers, chunks)
    finally:
        wsgi.Response.write = wsgi.Response.write.__wrapped__  # type: ignore[attr-defined]
    assert without_date(b"".join(joined)) == without_date(b"".join(plain))
    assert len(joined) == max(1, len(plain) - 1)


def test_a_json_answer_is_one_write(patched: None) -> None:
    body = b'{"best":{"deadwood_points":10}}\n'
    writes = respond(
        "200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))], [body]
    )
    assert len(writes) == 1
    assert writes[0].startswith(b"HTTP/1.1 200 OK\r\n") and writes[0].endswith(b"\r\n\r\n" + body)
