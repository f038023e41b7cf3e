"""gunicorn's own error answers as ``application/problem+json`` instead of an HTML page.

gunicorn answers some requests before the app sees them: a request line longer than
``limit_request_line`` (414), more or larger header fields than ``limit_request_fields`` /
``limit_request_field_size`` (431), a malformed request line or header (400), an unsupported
transfer coding (501). It writes those with ``gunicorn.util.write_error``; :func:`install`
replaces that function (in the master, before workers fork) with one that writes the same status
as a problem+json body, with the service's security headers. ``detail`` is gunicorn's own
message, cut to 160 characters (it can quote the client's request line).

gunicorn also names itself in a ``Server`` header on every answer; :func:`install` sets that
name to ``SERVER_NAME`` (no version).
"""

from __future__ import annotations

import json
import uuid
from typing import Any, Final

from api.http.problems import classify, type_uri

SERVER_NAME: Final = "tunk-hand-analysis"
DETAIL_CHARS: Final = 160


def problem_bytes(status: int, reason: str, message: str) -> bytes:
    """A complete HTTP/1.1 response (closing the connection) with a problem+json body."""
    detail = message if len(message) <= DETAIL_CHARS else message[: DETAIL_CHARS - 3] + "..."
    code = classify(status, None)
    request_id = uuid.uuid4().hex  # the app never saw the request: the id is made here
    body = json.dumps(
        {
            "type": type_uri(code),
            "title": reason,
            "status": status,
            "detail": detail,
            "code": code,
            "request_id": request_id,
        },
        separators=(",", ":"),
    ).encode("ascii")
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        "Connection: close\r\n"
        "Content-Type: application/problem+json\r\n"
        f"X-Request-ID: {request_id}\r\n"
        "X-Content-Type-Options: nosniff\r\n"
        "Cache-Control: no-store\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1", "replace") + body


def install() -> None:
    """Patch gunicorn's error writer and ``Server`` name (call from ``gunicorn.conf.py``)."""
    from gunicorn import util
    from gunicorn.http import wsgi

    def write_error(sock: Any, status_int: int, reason: str, mesg: str) -> None:
        util.write_nonblock(sock, problem_bytes(int(status_int), str(reason), str(mesg)))

    util.write_error = write_error
    wsgi.SERVER = SERVER_NAME  # type: ignore[attr-defined]
