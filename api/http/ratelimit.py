"""Optional per-client rate limit: ``RATE_LIMIT_REQUESTS`` per ``RATE_LIMIT_WINDOW_SECONDS``.

Off by default (``RATE_LIMIT_REQUESTS=0``). When on, every ``/v1`` request counts against its
client in a fixed window, and so does every item of a ``/v1/batch`` (the batch passes its
caller's key to each item it dispatches): one budget for direct and batch requests, so a batch of
50 costs 51 and spends its sender's budget, nobody else's. Over the limit the answer (or the
batch item) is ``429`` problem+json with ``Retry-After`` (seconds to the window's end).

The client is ``REMOTE_ADDR`` as gunicorn sees it; when that peer is a trusted proxy
(``FORWARDED_ALLOW_IPS``, the list gunicorn uses, ``*`` for any) the client is the last address
of ``X-Forwarded-For``, the one the proxy added (nginx's ``$proxy_add_x_forwarded_for``).

Every ``/v1`` answer carries the IETF draft headers (draft-ietf-httpapi-ratelimit-headers):
``RateLimit-Policy: "client";q=<limit>;w=<window>`` and ``RateLimit: "client";r=<remaining>;t=<s
to reset>``; a batch's ``RateLimit`` counts its items too. When the count is unknown (Redis
unreachable) ``RateLimit`` is left out rather than guessed.

The counters live in the cache's Redis (``INCR`` + ``EXPIRE NX`` in one pipelined round trip), so
every worker and every machine sharing the Redis shares the count; without Redis each worker
counts alone. A reply that is not a positive integer is a Redis fault like a timeout: the cache's
circuit breaker counts it. If Redis cannot be used the request is let through: the limiter never
makes the service less available.
"""

from __future__ import annotations

import ipaddress
import math
import os
import threading
import time
from collections.abc import Callable
from typing import Any, Final

from flask import Flask, Response, request

from api.cache.store import CacheUnavailable, MalformedReply, RedisCache, current_cache
from api.http.errors import problem

GUARDED_PREFIX: Final = "/v1/"
KEY_PREFIX: Final = "tunk:rl:"
POLICY_NAME: Final = "client"
CLIENT_ENVIRON: Final = "tunk.ratelimit.client"
"""WSGI environ key: the request's client key (a batch copies it into each item's environ)."""
REPORT_ENVIRON: Final = "tunk.ratelimit.report"
"""WSGI environ key: a dict holding the latest ``count`` and ``reset`` of the request's client
(a batch hands the same dict to each item, so its own answer reports its items' counts)."""


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
    """INCR ``key`` (setting its expiry if new) in one round trip; the count.

    :raises CacheUnavailable: Redis failed or replied with something other than counts.
    """

    def pipelined(client: Any) -> int:
        pipe = client.pipeline(transaction=False)
        pipe.incr(key)
        pipe.expire(key, ttl, nx=True)
        replies = pipe.execute()
        if not isinstance(replies, list | tuple) or len(replies) != 2:
            raise MalformedReply("INCR + EXPIRE: not two replies")
        count, expired = replies
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise MalformedReply(f"INCR replied {str(count)[:40]!r}, expected a positive integer")
        if not isinstance(expired, bool | int):
            raise MalformedReply(f"EXPIRE replied {str(expired)[:40]!r}, expected an integer")
        return count

    count: int = backend.call(pipelined)
    return count


def trusted_proxies(raw: str) -> Callable[[str], bool]:
    """Whether a peer address is a trusted proxy, from a ``FORWARDED_ALLOW_IPS`` value
    (comma-separated addresses or networks, ``*`` for any)."""
    items = [item.strip() for item in raw.split(",") if item.strip()]
    if "*" in items:
        return lambda address: True
    networks = []
    for item in items:
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            continue  # gunicorn ignores what it cannot parse, and so do we

    def trusted(address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in networks)

    return trusted


def client_key(trusted: Callable[[str], bool]) -> str:
    """The current request's client: the batch's caller for a batch item, else the peer, or
    the last ``X-Forwarded-For`` address when the peer is a trusted proxy."""
    inherited = request.environ.get(CLIENT_ENVIRON)
    if isinstance(inherited, str):
        return inherited
    peer = request.remote_addr or "unknown"
    forwarded = request.headers.get("X-Forwarded-For")
    if forwarded and trusted(peer):
        last = forwarded.rsplit(",", 1)[-1].strip()
        if last:
            return last[:64]
    return peer


def install_rate_limit(
    app: Flask,
    limit: int,
    window_seconds: int,
    clock: Callable[[], float] = time.time,
    forwarded_allow_ips: str | None = None,
) -> None:
    """Register the limiter as the first ``before_request`` hook and its headers as an
    ``after_request`` hook (no-op when ``limit`` is 0).

    :param forwarded_allow_ips: trusted proxies; default ``FORWARDED_ALLOW_IPS`` from the
        environment, else ``127.0.0.1`` (gunicorn's default).
    """
    if limit <= 0:
        return
    memory = MemoryCounter()
    trusted = trusted_proxies(
        forwarded_allow_ips
        if forwarded_allow_ips is not None
        else os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
    )
    policy = f'"{POLICY_NAME}";q={limit};w={window_seconds}'

    def check() -> Response | None:
        if not request.path.startswith(GUARDED_PREFIX):
            return None
        now = clock()
        window = int(now // window_seconds)
        client = client_key(trusted)
        request.environ[CLIENT_ENVIRON] = client
        report = request.environ.setdefault(REPORT_ENVIRON, {})
        backend = current_cache().backend
        if isinstance(backend, RedisCache):
            try:
                count = _redis_incr(backend, f"{KEY_PREFIX}{window}:{client}", window_seconds + 1)
            except CacheUnavailable:
                return None  # fail open; RateLimit is left out (the count is unknown)
        else:
            count = memory.incr(client, window)
        reset = max(1, math.ceil((window + 1) * window_seconds - now))
        if report.get("window") != window:
            report.clear()
        report.update(window=window, count=max(count, report.get("count", 0)), reset=reset)
        if count <= limit:
            return None
        response = problem(
            429,
            f"Too many requests: at most {limit} per {window_seconds} s from one client "
            f"(batch items count one each); retry in {reset} s.",
        )
        response.headers["Retry-After"] = str(reset)
        return response

    def headers(response: Response) -> Response:
        if not request.path.startswith(GUARDED_PREFIX):
            return response
        response.headers["RateLimit-Policy"] = policy
        report = request.environ.get(REPORT_ENVIRON)
        if isinstance(report, dict) and "count" in report:
            remaining = max(0, limit - int(report["count"]))
            response.headers["RateLimit"] = f'"{POLICY_NAME}";r={remaining};t={report["reset"]}'
        return response

    app.before_request_funcs.setdefault(None, []).insert(0, check)
    app.after_request(headers)
