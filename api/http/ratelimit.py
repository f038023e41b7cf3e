"""Optional per-client rate limit: ``RATE_LIMIT_REQUESTS`` per ``RATE_LIMIT_WINDOW_SECONDS``.

Off by default (``RATE_LIMIT_REQUESTS=0``). When on, every ``/v1`` request counts against its
client address (``REMOTE_ADDR`` as gunicorn sees it) in a fixed window; over the limit the answer
is ``429`` problem+json with ``Retry-After`` (seconds to the window's end). The counters live in
the cache's Redis (``INCR`` + ``EXPIRE NX`` in one pipelined round trip), so every worker and
every machine sharing the Redis shares the count; without Redis each worker counts alone. If Redis
cannot be reached the request is let through: the limiter never makes the service less available.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import Any, Final

from flask import Flask, Response, request

from api.cache.store import CacheUnavailable, RedisCache, current_cache
from api.http.errors import problem

GUARDED_PREFIX: Final = "/v1/"
KEY_PREFIX: Final = "tunk:rl:"


class MemoryCounter:
    """Per-process fixed-window counters (the fallback without Redis)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._window = -1
        self._counts: dict[str, int] = {}

    def incr(self, client: str, window: int) -> int:
        """Count one request of ``client`` in ``window``; the count so far."""
        with self._lock:
            if window != self._window:
                self._window, self._counts = window, {}
            self._counts[client] = self._counts.get(client, 0) + 1
            return self._counts[client]


def _redis_incr(backend: RedisCache, key: str, ttl: int) -> int:
    def pipelined(client: Any) -> Any:
        pipe = client.pipeline(transaction=False)
        pipe.incr(key)
        pipe.expire(key, ttl, nx=True)
        return pipe.execute()

    count, _ = backend.call(pipelined)
    return int(count)


def install_rate_limit(
    app: Flask, limit: int, window_seconds: int, clock: Callable[[], float] = time.time
) -> None:
    """Register the limiter as the first ``before_request`` hook (no-op when ``limit`` is 0)."""
    if limit <= 0:
        return
    memory = MemoryCounter()

    def check() -> Response | None:
        if not request.path.startswith(GUARDED_PREFIX):
            return None
        now = clock()
        window = int(now // window_seconds)
        client = request.remote_addr or "unknown"
        backend = current_cache().backend
        if isinstance(backend, RedisCache):
            try:
                count = _redis_incr(backend, f"{KEY_PREFIX}{window}:{client}", window_seconds + 1)
            except CacheUnavailable:
                return None
        else:
            count = memory.incr(client, window)
        if count <= limit:
            return None
        retry = max(1, math.ceil((window + 1) * window_seconds - now))
        response = problem(
            429,
            f"Too many requests: at most {limit} per {window_seconds} s from one address; "
            f"retry in {retry} s.",
        )
        response.headers["Retry-After"] = str(retry)
        return response

    app.before_request_funcs.setdefault(None, []).insert(0, check)
