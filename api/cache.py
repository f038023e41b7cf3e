"""Response cache: one interface, two backends (Redis when ``REDIS_URL`` is set, else in-process).

Analysis endpoints are pure functions of (engine version, endpoint, game, canonical request), so
their JSON answers can be cached by a hash of those. ``cached_json`` is the only thing endpoint
code calls; it sets ``X-Cache``:

- ``HIT``    the stored JSON text was returned without running the engine;
- ``MISS``   the engine ran and its answer was stored;
- ``BYPASS`` the cache could not be used (Redis down, slow, or its circuit open); the engine ran
  and the answer was served anyway.

Redis is guarded by short socket timeouts and a ``CircuitBreaker``: after
``failure_threshold`` consecutive failures the cache is skipped outright for
``cooldown_seconds`` (no network call, no added latency), then one request probes Redis again and
the cache resumes by itself when it answers. Values are JSON text, never pickles. Errors are never
cached because ``compute`` raising means nothing is stored.

Two keys per answer:

- the canonical key (``cache_key``): engine version, endpoint, game and the canonical request
  built by the endpoint from parsed values, so ``["10H","as"]`` and ``["AS","TH"]`` share it;
- a request alias (``alias_key``): the path, query string and the request body exactly as
  parsed (keys sorted). It is only ever written next to a canonical entry, i.e. for a body that
  validated and computed successfully, and it is looked up *before* validation, so a repeated
  request is answered without re-running request validation at all. Validation is deterministic,
  so a body that was valid once gets the same answer again.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, Protocol

import redis
from flask import Flask, Response, current_app, g, request

from api.config import Settings
from api.redis_conn import connect, describe
from engine import ENGINE_VERSION

logger = logging.getLogger("api.cache")

KEY_PREFIX: Final = "tunk:v1:"
ALIAS_PREFIX: Final = "tunk:v1:req:"
EXTENSION_KEY: Final = "tunk.cache"
CacheStatus = Literal["HIT", "MISS", "BYPASS"]
BackendState = Literal["up", "down", "open-circuit"]
Clock = Callable[[], float]


class CacheUnavailable(Exception):
    """The backend cannot be used right now; the caller serves the request without the cache."""


class CacheBackend(Protocol):
    """Key/value store for JSON text with a per-entry time to live."""

    name: str

    def get(self, key: str) -> str | None:
        """The stored text, or None if absent/expired. :raises CacheUnavailable:"""
        ...

    def set(self, key: str, value: str, ttl_seconds: int) -> None:
        """Store ``value`` for ``ttl_seconds``. :raises CacheUnavailable:"""
        ...

    def state(self) -> BackendState:
        """Health as reported by ``/readyz``; never raises."""
        ...


def canonical_json(value: Any) -> str:
    """Stable JSON for hashing: sorted keys, no whitespace, tuples as lists, UTF-8 kept."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def cache_key(
    endpoint: str,
    game: str,
    canonical_request: Mapping[str, Any],
    engine_version: str = ENGINE_VERSION,
) -> str:
    """``tunk:v1:`` + sha256 of (engine version, endpoint, game, canonical request).

    The engine version is part of the key so a deploy with new rules logic never serves answers
    computed by the old one. ``canonical_request`` must already be canonical (cards as sorted
    ints, canonical rules): this function only fixes key order and formatting.
    """
    material = canonical_json([engine_version, endpoint, game, canonical_request])
    return KEY_PREFIX + hashlib.sha256(material.encode("utf-8")).hexdigest()


def alias_key(
    path: str, query: bytes | str, body: Any, engine_version: str = ENGINE_VERSION
) -> str:
    """``tunk:v1:req:`` + sha256 of (engine version, path, query string, parsed body)."""
    query_text = query.decode("latin-1") if isinstance(query, bytes) else query
    material = canonical_json([engine_version, path, query_text, body])
    return ALIAS_PREFIX + hashlib.sha256(material.encode("utf-8")).hexdigest()


class MemoryCache:
    """Thread-safe in-process LRU with per-entry TTL (the backend when Redis is not configured).

    Each gunicorn worker has its own copy; that is the price of needing nothing installed.
    """

    name = "memory"

    def __init__(self, max_entries: int, clock: Clock = time.monotonic) -> None:
        if max_entries < 1:
            raise ValueError("max_entries must be at least 1")
        self.max_entries = max_entries
        self._clock = clock
        self._lock = threading.Lock()
        self._entries: OrderedDict[str, tuple[float, str]] = OrderedDict()

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def get(self, key: str) -> str | None:
        """Return the live entry and mark it most recently used; drop it if expired."""
        now = self._clock()
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            expires_at, value = entry
            if expires_at <= now:
                del self._entries[key]
                return None
            self._entries.move_to_end(key)
            return value

    def set(self, key: str, value: str, ttl_seconds: int) -> None:
        """Insert or refresh ``key``, evicting least recently used entries beyond the cap."""
        expires_at = self._clock() + ttl_seconds
        with self._lock:
            self._entries[key] = (expires_at, value)
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)

    def state(self) -> BackendState:
        """Always up: it is memory."""
        return "up"


class CircuitBreaker:
    """Closed -> open after N consecutive failures; open -> half-open after a cool-down.

    - closed: every call allowed; a success resets the failure count.
    - open: no call allowed until ``cooldown_seconds`` have passed since it opened.
    - half-open: exactly one probe call is allowed; success closes, failure re-opens (and the
      cool-down starts again). Other callers are refused while the probe is in flight (for at
      most one cool-down, in case the probing thread died without reporting).
    """

    CLOSED: Final = "closed"
    OPEN: Final = "open"
    HALF_OPEN: Final = "half-open"

    def __init__(
        self, failure_threshold: int, cooldown_seconds: float, clock: Clock = time.monotonic
    ) -> None:
        if failure_threshold < 1:
            raise ValueError("failure_threshold must be at least 1")
        self.failure_threshold = failure_threshold
        self.cooldown_seconds = cooldown_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._state: str = self.CLOSED
        self._failures = 0
        self._opened_at = 0.0
        self._probe_in_flight = False
        self._probe_started_at = 0.0

    @property
    def state(self) -> str:
        """Current state name; an elapsed cool-down reads as half-open."""
        with self._lock:
            if self._state == self.OPEN and self._cooled_down():
                return self.HALF_OPEN
            return self._state

    @property
    def failures(self) -> int:
        """Consecutive failures counted so far."""
        return self._failures

    def _cooled_down(self) -> bool:
        return self._clock() - self._opened_at >= self.cooldown_seconds

    def allow_request(self) -> bool:
        """May the caller try the protected resource now? (Claims the probe when half-open.)"""
        with self._lock:
            if self._state == self.CLOSED:
                return True
            if self._state == self.OPEN:
                if not self._cooled_down():
                    return False
                self._state = self.HALF_OPEN
                self._probe_in_flight = False
            now = self._clock()
            # A probe that never reported (its thread died) stops blocking after one cool-down.
            if self._probe_in_flight and now - self._probe_started_at < self.cooldown_seconds:
                return False
            self._probe_in_flight = True
            self._probe_started_at = now
            return True

    def record_success(self) -> None:
        """The call worked: close the circuit and forget past failures."""
        with self._lock:
            if self._state != self.CLOSED:
                logger.warning("cache circuit closed: backend answering again")
            self._state = self.CLOSED
            self._failures = 0
            self._probe_in_flight = False

    def record_failure(self) -> None:
        """The call failed: count it; open at the threshold, or re-open after a failed probe."""
        with self._lock:
            self._failures += 1
            self._probe_in_flight = False
            if self._state == self.HALF_OPEN or (
                self._state == self.CLOSED and self._failures >= self.failure_threshold
            ):
                if self._state == self.CLOSED:
                    logger.warning(
                        "cache circuit opened after %d failures; bypassing for %.1fs",
                        self._failures,
                        self.cooldown_seconds,
                    )
                self._state = self.OPEN
                self._opened_at = self._clock()


class RedisCache:
    """Redis backend (redis-py + hiredis) behind a circuit breaker, with millisecond timeouts."""

    name = "redis"

    def __init__(
        self,
        url: str,
        *,
        connect_timeout: float,
        socket_timeout: float,
        breaker: CircuitBreaker,
    ) -> None:
        self.url = url
        self.breaker = breaker
        # One Redis, a Cluster or a Sentinel-managed master, all with the same timeouts and no
        # retries (a retry doubles the worst case; the breaker handles a Redis that stays away).
        self._client, self.mode = connect(
            url, socket_timeout=socket_timeout, connect_timeout=connect_timeout
        )

    def describe(self) -> dict[str, Any]:
        """Mode details for ``/readyz`` (cluster slot coverage, sentinel master); never raises."""
        return describe(self._client, self.mode)

    def _call(self, operation: Callable[[redis.Redis], Any]) -> Any:
        if not self.breaker.allow_request():
            raise CacheUnavailable("circuit open")
        try:
            result = operation(self._client)
        except Exception as exc:  # RedisError, OSError, anything: the cache must not fail a request
            self.breaker.record_failure()
            logger.debug("redis call failed: %r", exc)
            raise CacheUnavailable(str(exc)) from exc
        self.breaker.record_success()
        return result

    def get(self, key: str) -> str | None:
        """GET ``key``; bytes from the server are decoded as UTF-8."""
        value = self._call(lambda client: client.get(key))
        if value is None:
            return None
        return value.decode("utf-8") if isinstance(value, bytes) else str(value)

    def set(self, key: str, value: str, ttl_seconds: int) -> None:
        """SET ``key`` with an expiry of ``ttl_seconds``."""
        self._call(lambda client: client.set(key, value, ex=ttl_seconds))

    def state(self) -> BackendState:
        """``open-circuit`` while cooling down (no network call), else ``up``/``down`` by PING."""
        if self.breaker.state == CircuitBreaker.OPEN:
            return "open-circuit"
        try:
            self._call(lambda client: client.ping())
        except CacheUnavailable:
            return "down" if self.breaker.state == CircuitBreaker.CLOSED else "open-circuit"
        return "up"

    def close(self) -> None:
        """Drop pooled connections (used by tests and at shutdown)."""
        self._client.close()


@dataclass(slots=True)
class ResponseCache:
    """The app's cache: a backend plus the TTL applied to every stored answer."""

    backend: CacheBackend
    ttl_seconds: int

    def fetch(self, key: str) -> tuple[str | None, CacheStatus]:
        """``(text, "HIT")``, ``(None, "MISS")`` or ``(None, "BYPASS")`` if the backend failed."""
        try:
            text = self.backend.get(key)
        except CacheUnavailable:
            return None, "BYPASS"
        return (text, "HIT") if text is not None else (None, "MISS")

    def store(self, key: str, text: str) -> bool:
        """Store ``text``; False if the backend failed (the answer is then a BYPASS)."""
        try:
            self.backend.set(key, text, self.ttl_seconds)
        except CacheUnavailable:
            return False
        return True


def build_cache(settings: Settings) -> ResponseCache:
    """Redis if ``settings.redis_url`` is set, else the in-process LRU."""
    backend: CacheBackend
    if settings.redis_url:
        breaker = CircuitBreaker(
            settings.breaker_failure_threshold, settings.breaker_cooldown_seconds
        )
        backend = RedisCache(
            settings.redis_url,
            connect_timeout=settings.redis_connect_timeout,
            socket_timeout=settings.redis_socket_timeout,
            breaker=breaker,
        )
    else:
        backend = MemoryCache(settings.cache_max_entries)
    return ResponseCache(backend, settings.cache_ttl_seconds)


_ALIAS_KEY = "tunk_alias_key"
_ALIAS_STATUS = "tunk_alias_status"


def _answer_repeated_request() -> Response | None:
    """``before_request``: answer a repeated /v1 body (same parsed JSON) from its alias entry.

    Runs after the JSON body guard (which leaves the parsed object in ``g.json_body``); on a
    miss it remembers the alias key so ``cached_json`` can write it next to the canonical entry.
    """
    body = g.get("json_body")
    if body is None:
        return None
    cache = current_cache()
    key = alias_key(request.path, request.query_string, body)
    text, status = cache.fetch(key)
    if text is not None:
        return _json_response(text, "HIT")
    setattr(g, _ALIAS_KEY, key)
    setattr(g, _ALIAS_STATUS, status)
    return None


def init_cache(app: Flask, settings: Settings) -> ResponseCache:
    """Create the app's cache, keep it in ``app.extensions`` and install the alias lookup.

    Must be called after ``api.errors.register_error_handling`` so the body guard runs first.
    """
    cache = build_cache(settings)
    app.extensions[EXTENSION_KEY] = cache
    app.before_request(_answer_repeated_request)
    return cache


def current_cache() -> ResponseCache:
    """The cache of the app handling the current request."""
    cache: ResponseCache = current_app.extensions[EXTENSION_KEY]
    return cache


def _json_response(text: str, status: CacheStatus) -> Response:
    response = current_app.response_class(text, status=200, mimetype="application/json")
    response.headers["X-Cache"] = status
    return response


def cached_json(
    endpoint: str,
    game: str,
    canonical_request: Mapping[str, Any],
    compute: Callable[[], Mapping[str, Any]],
) -> Response:
    """Serve ``compute()``'s JSON answer through the cache, with an ``X-Cache`` header.

    :param endpoint: short endpoint name, e.g. ``"melds"`` (part of the key).
    :param game: game slug, e.g. ``"game-flip-flop"`` (part of the key).
    :param canonical_request: the request in canonical form (parsed cards as sorted ints,
        canonical rules, every option that affects the answer); equal requests must be equal here.
    :param compute: builds the response body; only called on MISS/BYPASS. If it raises (an
        ``EngineError`` becomes a 422), the exception propagates and nothing is cached.
    """
    cache = current_cache()
    key = cache_key(endpoint, game, canonical_request)
    alias: str | None = g.get(_ALIAS_KEY) if g.get(_ALIAS_STATUS) == "MISS" else None
    text, status = cache.fetch(key)
    if text is not None:
        if alias is not None:
            cache.store(alias, text)
        return _json_response(text, "HIT")
    body = compute()
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":")) + "\n"
    if status == "MISS":
        if not cache.store(key, text):
            status = "BYPASS"
        elif alias is not None:
            cache.store(alias, text)
    return _json_response(text, status)
