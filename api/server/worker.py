"""gunicorn worker that gives a connection a thread only once its whole request has arrived.

gunicorn's ``gthread`` worker hands every accepted connection to a pool thread, which then reads
the request with blocking ``recv`` calls and no overall time limit: a client that sends one header
byte every few seconds holds a thread for as long as it likes, and a few hundred such clients hold
every thread of every worker, so ``/healthz`` stops answering (and an idle connection holds a
thread for gunicorn's 5 s data wait). Slow and idle clients cost almost nothing to open.

``BufferedThreadWorker`` keeps ``gthread``'s model (the main thread runs the event loop and the
heartbeat, pool threads run the app) but reads each request in the main thread's event loop,
non-blocking, into a buffer:

- a connection is handed to a pool thread only when its request head (up to the blank line) and
  its body (``Content-Length`` bytes, or chunks up to the last one) are complete; the parser then
  reads them from the buffer and never waits on the socket for them;
- the whole request must arrive within ``REQUEST_READ_TIMEOUT_SECONDS`` of the connection's
  first readiness (a new connection, or a kept-alive one becoming readable); otherwise the client
  gets ``408`` problem+json and the connection is closed. A connection that sent nothing by then
  is closed silently (an idle client is not owed an answer);
- a head larger than gunicorn's own limits, or a body declared larger than ``MAX_BODY_BYTES``, is
  handed over at once so gunicorn (``414``/``431``/``400``) or the app (``413``) refuses it as
  usual, without waiting for bytes that will never be read;
- kept-alive connections wait in the event loop (no thread) and are closed after gunicorn's
  ``keepalive`` seconds, as with ``gthread``.

So a slow or idle client costs a file descriptor and a small buffer, never a thread: probes and
cache hits keep their threads. Connections per worker stay bounded by ``worker_connections``
(1,000). Only plain HTTP/1.x is supported (no TLS, no HTTP/2 prior knowledge): TLS ends at the
proxy or load balancer in every deployment of this service.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import selectors
import time
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Final

from gunicorn import http
from gunicorn.workers.gthread import ThreadWorker

from api.config import load_settings


def _env_seconds(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SystemExit(f"{name} must be a number of seconds, got {raw!r}") from None
    if not 0 < value <= 600:
        raise SystemExit(f"{name} must be more than 0 and at most 600, got {raw!r}")
    return value


REQUEST_READ_TIMEOUT_SECONDS: Final = _env_seconds("REQUEST_READ_TIMEOUT_SECONDS", 10.0)
"""Time a client has to send a whole request (head and body) once its connection is readable."""
SWEEP_INTERVAL_SECONDS: Final = 0.25
"""How often the event loop looks for connections past their read deadline."""
RECV_BYTES: Final = 64 * 1024

_CRLF2: Final = b"\r\n\r\n"


def timeout_answer(seconds: float) -> bytes:
    """The raw ``408`` problem+json answer sent to a client whose request did not arrive."""
    body = json.dumps(
        {
            "type": "about:blank",
            "title": "Request Timeout",
            "status": 408,
            "detail": f"The request did not arrive within {seconds:g} s; send it again.",
        }
    ).encode()
    head = (
        "HTTP/1.1 408 Request Timeout\r\n"
        "Content-Type: application/problem+json\r\n"
        f"Content-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    ).encode()
    return head + body


@dataclass(slots=True)
class Incoming:
    """A request being read in the event loop: its bytes so far and its deadline."""

    deadline: float
    buf: bytearray = field(default_factory=bytearray)
    received: bool = False
    """Whether the client sent anything since the read started (an idle one gets no 408)."""
    continued: bool = False
    """Whether ``100 Continue`` was sent (a client that sent ``Expect: 100-continue``)."""


def _header_values(head: bytes, name: bytes) -> list[bytes]:
    values = []
    for line in head.split(b"\r\n")[1:]:
        key, sep, value = line.partition(b":")
        if sep and key.strip().lower() == name:
            values.append(value.strip())
    return values


def _chunked_end(buf: bytes | bytearray, start: int, body_cap: int) -> int | None:
    """Where a chunked body starting at ``start`` ends (after its trailers), ``-1`` when it is
    malformed or over ``body_cap`` (hand it over: the parser or the app refuses it), or None
    while incomplete."""
    pos = start
    total = 0
    while True:
        line_end = buf.find(b"\r\n", pos)
        if line_end < 0:
            return None if len(buf) - pos <= 1024 else -1
        size_text = bytes(buf[pos:line_end]).split(b";", 1)[0].strip()
        try:
            size = int(size_text, 16)
        except ValueError:
            return -1
        if size < 0:
            return -1
        if size == 0:
            trailer = line_end + 2
            if buf[trailer : trailer + 2] == b"\r\n":
                return trailer + 2
            end = buf.find(_CRLF2, trailer)
            return None if end < 0 else end + 4
        total += size
        if total > body_cap:
            return -1
        pos = line_end + 2 + size + 2
        if pos > len(buf):
            return None


CONTINUE: Final = b"HTTP/1.1 100 Continue\r\n\r\n"


def expects_continue(buf: bytes | bytearray) -> bool:
    """Whether ``buf`` holds a whole head that asks for ``100 Continue``."""
    head_end = buf.find(_CRLF2)
    if head_end < 0:
        return False
    values = _header_values(bytes(buf[:head_end]), b"expect")
    return any(value.lower() == b"100-continue" for value in values)


def request_complete(buf: bytes | bytearray, head_cap: int, body_cap: int) -> bool:
    """Whether ``buf`` holds a whole request, or enough to hand over to be refused.

    :param head_cap: most bytes a head may take (gunicorn answers a longer one 414/431).
    :param body_cap: ``MAX_BODY_BYTES`` (the app answers a longer body 413 before reading it).
    """
    head_end = buf.find(_CRLF2)
    if head_end < 0:
        return len(buf) > head_cap
    body_start = head_end + 4
    head = bytes(buf[:head_end])
    if _header_values(head, b"transfer-encoding"):
        end = _chunked_end(buf, body_start, body_cap)
        return end is not None
    lengths = _header_values(head, b"content-length")
    if not lengths:
        return True
    if len(set(lengths)) != 1 or not lengths[0].isdigit():
        return True  # the parser answers 400
    length = int(lengths[0])
    if length > body_cap:
        return True  # the app answers 413 without reading it
    return len(buf) - body_start >= length


class BufferedThreadWorker(ThreadWorker):  # type: ignore[misc]  # gunicorn has no type hints
    """``gthread`` whose pool threads only ever see requests that have fully arrived."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.incoming: dict[Any, Incoming] = {}
        self.read_timeout = REQUEST_READ_TIMEOUT_SECONDS
        self.head_cap = (
            self.cfg.limit_request_line
            + self.cfg.limit_request_fields * (self.cfg.limit_request_field_size + 2)
            + 4
        )
        self.body_cap = load_settings().max_body_bytes
        self._last_sweep = 0.0

    @classmethod
    def check_config(cls, cfg: Any, log: Any) -> None:
        """Refuse settings this worker does not serve (TLS, HTTP/2): they need gthread."""
        super().check_config(cfg, log)
        if cfg.is_ssl:
            raise SystemExit("BufferedThreadWorker serves plain HTTP only; end TLS at the proxy")

    def enqueue_req(self, conn: Any) -> None:
        """Hand ``conn`` to a pool thread if its request is in; otherwise read it here first.

        Every path of ``gthread`` that gives a connection to a thread (accept, a kept-alive
        connection becoming readable, bytes read ahead after a response) comes through here.
        """
        if getattr(conn, "tunk_request_in", False):
            conn.tunk_request_in = False
            super().enqueue_req(conn)
            return
        self._start_reading(conn)

    def _start_reading(self, conn: Any) -> None:
        conn.sock.setblocking(False)
        state = Incoming(deadline=time.monotonic() + self.read_timeout)
        if conn.parser is not None:  # bytes the parser read ahead belong to this request
            state.buf += conn.parser.unreader.take_buffered()
            state.received = bool(state.buf)
        self.incoming[conn] = state
        if state.buf and request_complete(state.buf, self.head_cap, self.body_cap):
            self._hand_over(conn, state)
            return
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._on_readable, conn))

    def _on_readable(self, conn: Any, _sock: Any) -> None:
        state = self.incoming.get(conn)
        if state is None:  # pragma: no cover - unregistered before the event was dispatched
            return
        try:
            data = conn.sock.recv(RECV_BYTES)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            self._drop(conn, answer=False)
            return
        if not data:  # the client closed its side
            self._drop(conn, answer=False)
            return
        state.buf += data
        state.received = True
        if request_complete(state.buf, self.head_cap, self.body_cap):
            self.poller.unregister(conn.sock)
            self._hand_over(conn, state)
        elif not state.continued and expects_continue(state.buf):
            # The client waits for this before it sends the body (gunicorn would send it when
            # the app reads the body, i.e. only after the body had arrived here: a deadlock).
            state.continued = True
            with contextlib.suppress(OSError):
                conn.sock.send(CONTINUE)

    def _hand_over(self, conn: Any, state: Incoming) -> None:
        del self.incoming[conn]
        conn.sock.setblocking(True)
        if conn.parser is None:
            conn.initialized = True  # plain HTTP/1.x: the parser is all ``TConn.init`` makes
            conn.parser = http.get_parser(self.cfg, conn.sock, conn.client)
        conn.parser.unreader.unread(bytes(state.buf))
        conn.data_ready = True
        conn.tunk_request_in = True
        self.enqueue_req(conn)

    def _drop(self, conn: Any, *, answer: bool) -> None:
        """Close a connection still being read; with ``answer``, send it the 408 first."""
        self.incoming.pop(conn, None)
        with contextlib.suppress(KeyError, ValueError, OSError):
            self.poller.unregister(conn.sock)
        if answer:
            try:
                conn.sock.send(timeout_answer(self.read_timeout))
            except OSError as exc:  # the client is gone or its window is full: just close
                if exc.errno not in (errno.EAGAIN, errno.EPIPE, errno.ECONNRESET):
                    self.log.debug("408 not sent: %s", exc)
        self.nr_conns -= 1
        conn.close()

    def murder_pending(self) -> None:
        """gunicorn's sweep, plus: requests past their read deadline get 408 and are closed;
        a stopping worker closes connections that have sent nothing."""
        super().murder_pending()
        now = time.monotonic()
        if now - self._last_sweep < SWEEP_INTERVAL_SECONDS and self.alive:
            return
        self._last_sweep = now
        for conn, state in list(self.incoming.items()):
            if state.deadline <= now:
                self._drop(conn, answer=state.received)
            elif not self.alive and not state.received:
                self._drop(conn, answer=False)
