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
- a head larger than gunicorn's own limits, or malformed framing, is handed over at once so
  gunicorn refuses it as usual (``414``/``431``/``400``); a body declared (or chunked) larger than
  ``MAX_BODY_BYTES`` is answered ``413`` problem+json here, as the app would, so no thread waits
  for (or drains) bytes that will never be used;
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
import selectors
import socket
import time
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Final

from gunicorn import http
from gunicorn.workers.gthread import ThreadWorker

from api.config import load_settings
from api.server.error_log import problem_bytes

SWEEP_INTERVAL_SECONDS: Final = 0.25
"""How often the event loop looks for connections past their read deadline."""
RECV_BYTES: Final = 64 * 1024

_CRLF2: Final = b"\r\n\r\n"


def _problem_answer(status: int, title: str, detail: str) -> bytes:
    """A whole HTTP/1.1 problem+json answer that closes the connection (``error_log``)."""
    return problem_bytes(status, title, detail)


def timeout_answer(seconds: float) -> bytes:
    """The raw ``408`` problem+json answer sent to a client whose request did not arrive."""
    detail = f"The request did not arrive within {seconds:g} s; send it again."
    return _problem_answer(408, "Request Timeout", detail)


def too_large_answer(limit: int) -> bytes:
    """The raw ``413`` problem+json answer (the app's words) for a body over ``limit``."""
    detail = f"The request body is larger than the {limit}-byte limit."
    return _problem_answer(413, "Content Too Large", detail)


DISCARD_SECONDS: Final = 2.0
"""How long a refused connection's further bytes are read and dropped before it is closed (so
the client reads the refusal instead of a connection reset)."""


@dataclass(slots=True)
class Incoming:
    """A request being read in the event loop: its bytes so far and its deadline."""

    deadline: float
    buf: bytearray = field(default_factory=bytearray)
    received: bool = False
    """Whether the client sent anything since the read started (an idle one gets no 408)."""
    continued: bool = False
    """Whether ``100 Continue`` was sent (a client that sent ``Expect: 100-continue``)."""
    discarding: bool = False
    """Refused and answered: what still arrives is read and dropped until the deadline."""


def _header_values(head: bytes, name: bytes) -> list[bytes]:
    values = []
    for line in head.split(b"\r\n")[1:]:
        key, sep, value = line.partition(b":")
        if sep and key.strip().lower() == name:
            values.append(value.strip())
    return values


TOO_LARGE: Final = -2


def _chunked_end(buf: bytes | bytearray, start: int, body_cap: int) -> int | None:
    """Where a chunked body starting at ``start`` ends (after its trailers), ``-1`` when it is
    malformed (hand it over: the parser answers 400), ``TOO_LARGE`` over ``body_cap``, or None
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
            return TOO_LARGE
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


WAIT: Final = "wait"
READY: Final = "ready"
LARGE: Final = "too-large"


def request_state(buf: bytes | bytearray, head_cap: int, body_cap: int) -> str:
    """``READY`` when ``buf`` holds a whole request (or a head gunicorn refuses: over
    ``head_cap``, 414/431; malformed framing, 400), ``LARGE`` when its body is over ``body_cap``
    (``MAX_BODY_BYTES``; answered 413 here, so no thread ever waits for it), else ``WAIT``."""
    head_end = buf.find(_CRLF2)
    if head_end < 0:
        return READY if len(buf) > head_cap else WAIT
    body_start = head_end + 4
    head = bytes(buf[:head_end])
    if _header_values(head, b"transfer-encoding"):
        end = _chunked_end(buf, body_start, body_cap)
        return WAIT if end is None else LARGE if end == TOO_LARGE else READY
    lengths = _header_values(head, b"content-length")
    if not lengths:
        return READY
    if len(set(lengths)) != 1 or not lengths[0].isdigit():
        return READY  # the parser answers 400
    length = int(lengths[0])
    if length > body_cap:
        return LARGE
    return READY if len(buf) - body_start >= length else WAIT


def request_complete(buf: bytes | bytearray, head_cap: int, body_cap: int) -> bool:
    """Whether the read of ``buf`` is over (``request_state`` is not ``WAIT``)."""
    return request_state(buf, head_cap, body_cap) != WAIT


class BufferedThreadWorker(ThreadWorker):  # type: ignore[misc]  # gunicorn has no type hints
    """``gthread`` whose pool threads only ever see requests that have fully arrived."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.incoming: dict[Any, Incoming] = {}
        self.head_cap = (
            self.cfg.limit_request_line
            + self.cfg.limit_request_fields * (self.cfg.limit_request_field_size + 2)
            + 4
        )
        settings = load_settings()  # REQUEST_READ_TIMEOUT_SECONDS, MAX_BODY_BYTES
        self.read_timeout = settings.request_read_timeout_seconds
        self.body_cap = settings.max_body_bytes
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
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._on_readable, conn))
        if state.buf:
            self._advance(conn, state)

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
        if state.discarding:
            return
        state.buf += data
        state.received = True
        self._advance(conn, state)

    def _advance(self, conn: Any, state: Incoming) -> None:
        """Hand the request over, refuse it, or wait for more (with ``100 Continue``)."""
        verdict = request_state(state.buf, self.head_cap, self.body_cap)
        if verdict == READY:
            self.poller.unregister(conn.sock)
            self._hand_over(conn, state)
        elif verdict == LARGE:
            state.buf = bytearray()
            state.discarding = True
            state.deadline = time.monotonic() + DISCARD_SECONDS
            with contextlib.suppress(OSError):
                conn.sock.send(too_large_answer(self.body_cap))
                conn.sock.shutdown(socket.SHUT_WR)
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
                self._drop(conn, answer=state.received and not state.discarding)
            elif not self.alive and not state.received:
                self._drop(conn, answer=False)
