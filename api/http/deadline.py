"""A request deadline: a handler still running after ``REQUEST_DEADLINE_SECONDS`` is interrupted
and answered ``503`` problem+json with ``Retry-After``, instead of its worker being killed.

One watchdog thread per worker process wakes up every ``TICK_SECONDS``; for a request thread past
its deadline it raises :class:`DeadlineExceeded` *inside that thread* with CPython's
``PyThreadState_SetAsyncExc`` (the exception surfaces at the thread's next bytecode, so the pure
Python engine is stopped wherever it is; a call blocked in C is stopped when it returns). The
view's wrapper turns it into the 503 and disarms the deadline before Flask finishes the response,
cancelling an exception not yet delivered. Re-raised every tick until disarmed, so a broad
``except Exception`` somewhere in the handler cannot swallow it for good.

Works with both gunicorn worker types (sync: the main thread is the request thread; gthread: one
entry per busy thread). Only ``/v1`` views are guarded; probes and docs are never interrupted.
"""

from __future__ import annotations

import ctypes
import itertools
import math
import os
import threading
import time
from collections.abc import Callable
from typing import Any, Final

from flask import Flask, Response, request

from api.http.errors import problem

TICK_SECONDS: Final = 0.05
GUARDED_PREFIX: Final = "/v1/"


class DeadlineExceeded(Exception):
    """Raised inside a request thread that overran the request deadline."""


def _raise_in(thread_id: int, exc: type[BaseException] | None) -> None:
    """Schedule ``exc`` in thread ``thread_id`` (None cancels a pending one)."""
    obj = ctypes.py_object(exc) if exc is not None else None
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id), obj)


class Watchdog:
    """Deadlines of the requests running in this process, enforced by one daemon thread."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._armed: dict[int, tuple[float, int, bool]] = {}  # thread -> (deadline, token, fired)
        self._tokens = itertools.count(1)
        self._pid = 0
        self.fired = 0
        """How many requests this process interrupted (for tests and logs)."""

    def _ensure_thread(self) -> None:
        # Threads do not survive fork: start one per process, lazily, on first use.
        if self._pid != os.getpid():
            self._pid = os.getpid()
            thread = threading.Thread(target=self._run, name="request-deadline", daemon=True)
            thread.start()

    def arm(self) -> int:
        """Start the current thread's deadline; returns the token ``disarm`` needs."""
        with self._lock:
            self._ensure_thread()
            token = next(self._tokens)
            self._armed[threading.get_ident()] = (self._clock() + self.seconds, token, False)
        return token

    def disarm(self, token: int) -> None:
        """Stop the deadline of the current thread's request; cancel an undelivered exception."""
        ident = threading.get_ident()
        with self._lock:
            entry = self._armed.get(ident)
            if entry is None or entry[1] != token:
                return
            del self._armed[ident]
            if entry[2]:
                _raise_in(ident, None)

    def _run(self) -> None:
        while True:
            time.sleep(TICK_SECONDS)
            now = self._clock()
            with self._lock:
                for ident, (deadline, token, fired) in list(self._armed.items()):
                    if now >= deadline:
                        if not fired:
                            self.fired += 1
                        self._armed[ident] = (deadline, token, True)
                        _raise_in(ident, DeadlineExceeded)


def deadline_problem(seconds: float) -> Response:
    """503 problem+json with ``Retry-After`` for a request stopped at the deadline."""
    response = problem(
        503,
        f"The request did not finish within the {seconds:g}-second deadline and was stopped; "
        "ask for less work (fewer samples, a smaller limit) or retry later.",
    )
    response.headers["Retry-After"] = str(max(1, math.ceil(seconds / 4)))
    return response


def install_deadline(app: Flask, seconds: float) -> Watchdog:
    """Wrap ``app.dispatch_request`` so ``/v1`` views run under a deadline of ``seconds``."""
    watchdog = Watchdog(seconds)
    original = app.dispatch_request

    def dispatch_with_deadline() -> Any:
        if not request.path.startswith(GUARDED_PREFIX):
            return original()
        token = watchdog.arm()
        try:
            return original()
        except DeadlineExceeded:
            return deadline_problem(seconds)
        finally:
            watchdog.disarm(token)

    app.dispatch_request = dispatch_with_deadline  # type: ignore[method-assign]
    # Delivered in the instant between the view's return and ``disarm``: same answer.
    app.register_error_handler(DeadlineExceeded, lambda _exc: deadline_problem(seconds))
    app.extensions["tunk.deadline"] = watchdog
    return watchdog
