"""When the buffering worker (``api.server.worker``) has a whole request to hand to a thread."""

from __future__ import annotations

import json

import pytest

from api.server.worker import (
    LARGE,
    READY,
    WAIT,
    expects_continue,
    request_complete,
    request_state,
    timeout_answer,
    too_large_answer,
)

HEAD_CAP = 8192
BODY_CAP = 65536
POST = b"POST /v1/x HTTP/1.1\r\nHost: a\r\n"


@pytest.mark.parametrize(
    ("data", "complete"),
    [
        (b"GET /healthz HTTP/1.1\r\nHost: a\r\n", False),  # head not finished
        (b"GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n", True),
        (POST + b"Content-Length: 5\r\n\r\nhel", False),  # body short
        (POST + b"Content-Length: 5\r\n\r\nhello", True),
        (POST + b"content-length: 5\r\n\r\nhello", True),  # names are case-insensitive
        (POST + b"Content-Length: 999999\r\n\r\n", True),  # over MAX_BODY_BYTES: 413
        (POST + b"Content-Length: x\r\n\r\n", True),  # malformed: the parser says 400
        (POST + b"Content-Length: 1\r\nContent-Length: 2\r\n\r\n", True),  # ambiguous: 400
        (POST + b"Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n", False),
        (POST + b"Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n", False),
        (POST + b"Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", True),
        (POST + b"Transfer-Encoding: chunked\r\n\r\n0\r\nX-T: 1\r\n\r\n", True),  # trailers
        (POST + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n", True),  # malformed: parser's 400
        (POST + b"Transfer-Encoding: chunked\r\n\r\n20000\r\n", True),  # over the body cap
        (b"GET /" + b"a" * (HEAD_CAP + 10), True),  # over the head cap: gunicorn's 414/431
    ],
)
def test_request_complete(data: bytes, complete: bool) -> None:
    assert request_complete(bytearray(data), HEAD_CAP, BODY_CAP) is complete


@pytest.mark.parametrize(
    ("data", "state"),
    [
        (POST + b"Content-Length: 5\r\n\r\nhel", WAIT),
        (POST + b"Content-Length: 5\r\n\r\nhello", READY),
        (POST + b"Content-Length: 65537\r\n\r\n", LARGE),
        (POST + b"Content-Length: 65536\r\n\r\n", WAIT),
        (POST + b"Transfer-Encoding: chunked\r\n\r\n10001\r\n", LARGE),
        (POST + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n", READY),
    ],
)
def test_request_state(data: bytes, state: str) -> None:
    assert request_state(bytearray(data), HEAD_CAP, BODY_CAP) == state


def test_too_large_answer_is_the_apps_413() -> None:
    head, _, body = too_large_answer(65536).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413 Content Too Large\r\n")
    assert json.loads(body)["detail"] == "The request body is larger than the 65536-byte limit."


def test_timeout_answer_is_a_408_problem() -> None:
    raw = timeout_answer(10.0)
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    assert lines[0] == "HTTP/1.1 408 Request Timeout"
    assert "Content-Type: application/problem+json" in lines and "Connection: close" in lines
    assert f"Content-Length: {len(body)}" in lines
    problem = json.loads(body)
    assert problem.pop("request_id") in head.decode()  # also the X-Request-ID header
    assert problem == {
        "type": "/problems/request-timeout",
        "title": "Request Timeout",
        "status": 408,
        "detail": "The request did not arrive within 10 s; send it again.",
        "code": "request_timeout",
    }


def test_expects_continue() -> None:
    head = POST + b"Content-Length: 5\r\nExpect: 100-Continue\r\n"
    assert not expects_continue(head)  # the head is not finished yet
    assert expects_continue(head + b"\r\n")
    assert not expects_continue(POST + b"Content-Length: 5\r\n\r\n")
