"""gunicorn: send a response's status line, headers and first body bytes in ONE socket write.

Why: a load balancer can retry a request on another replica only while it has sent nothing of the
answer to the client. gunicorn writes the headers and the body with two ``sendall`` calls; with
threaded workers another thread may hold the GIL for milliseconds between them. A replica that
dies in that gap (SIGKILL, OOM kill, machine loss) leaves nginx holding a header it has already
forwarded and a body that never comes: the client gets a truncated answer and nginx cannot retry.
With one write the answers of this service (a few KB) are either entirely in the kernel's socket
buffer or not sent at all, so a crash always looks like "no answer" to nginx, which then retries
the request on another replica (``proxy_next_upstream``; safe because every POST is pure).

``install()`` patches ``gunicorn.http.wsgi.Response.write`` once per process (the master imports
``gunicorn.conf.py`` before forking, so every worker inherits it). It relies only on
``send_headers`` and ``write`` writing through ``self.sock``; the bytes on the wire are unchanged.
"""

from __future__ import annotations

from typing import Any

from gunicorn.http import wsgi

_MARK = "_tunk_single_write"


class _Capture:
    """Stands in for the socket while ``send_headers`` runs: keeps the bytes instead."""

    def __init__(self) -> None:
        self.data = bytearray()

    def sendall(self, data: bytes) -> None:
        self.data += data


class _Prepend:
    """Stands in for the socket during the first body write: sends headers + body together."""

    def __init__(self, sock: Any, head: bytes) -> None:
        self.sock = sock
        self.head: bytes | None = head

    def sendall(self, data: bytes) -> None:
        if self.head is not None:
            data, self.head = self.head + data, None
        self.sock.sendall(data)

    def flush(self) -> None:
        """Send the headers alone if no body bytes followed (HEAD, 204, an empty chunk)."""
        if self.head is not None:
            head, self.head = self.head, None
            self.sock.sendall(head)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sock, name)


def install() -> None:
    """Patch ``Response.write`` (idempotent)."""
    original = wsgi.Response.write
    if getattr(original, _MARK, False):
        return

    def write(self: Any, arg: bytes) -> None:
        if self.headers_sent or not isinstance(arg, bytes) or not arg:
            original(self, arg)
            return
        real = self.sock
        capture = _Capture()
        self.sock = capture
        try:
            self.send_headers()
        finally:
            self.sock = real
        joined = _Prepend(real, bytes(capture.data))
        self.sock = joined
        try:
            original(self, arg)
        finally:
            self.sock = real
            joined.flush()

    setattr(write, _MARK, True)
    write.__wrapped__ = original  # type: ignore[attr-defined]
    wsgi.Response.write = write  # type: ignore[method-assign]
