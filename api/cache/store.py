"""Response cache: one interface, two backends (Redis when ``REDIS_URL`` is set, else in-process).

Analysis endpoints are pure functions of (code, endpoint, game, canonical request), so their JSON
answers can be cached by a hash of those. ``cached_json`` is the only thing endpoint code calls; it
sets ``X-Cache``:

- ``HIT``    the stored JSON text was returned without running the engine;
- ``MISS``   the engine ran and its answer was stored;
- ``BYPASS`` the cache could not be used (Redis down, slow, full, or its circuit open; or the
  answer is larger than ``CACHE_MAX_VALUE_BYTES``); the engine ran and the answer was served.

Keys are namespaced by the code fingerprint (``api.cache.fingerprint``): a hash of every source
file of
``engine`` and ``api`` taken at start, so a new build never serves an old build's answer.

Redis is guarded by short socket timeouts and a ``CircuitBreaker``: after
``failure_threshold`` consecutive failures the cache is skipped outright for
``cooldown_seconds`` (no network call, no added latency), then one request probes Redis again and
the cache resumes by itself when it answers. Values are JSON text, never pickles. Errors are never
cached because ``compute`` raising means nothing is stored.

Nothing read from the backend is trusted. A reply of the wrong type (a GET answered with a number,
a SET not answered ``OK``, garbage from something that is not Redis) is a Redis fault like a
timeout: the breaker counts it and the request goes on without the cache. Every stored answer is
an *entry* (``encode_entry``): a format version, a checksum of the cache key and the answer, and
the answer, compressed (zlib, base64) when it is ``COMPRESS_FROM_BYTES`` or longer. A value that
is not such an entry, or whose checksum does not match its key and text, was not written by this
service for this key: it is never served, the request is a ``MISS`` and the entry is overwritten.
The checksum guards against foreign writers and corruption, not against someone who can write to
Redis and read this code (that one can also change answers at will; keep Redis private).

Two kinds of entries:

- the answer, under the canonical key (``cache_key``): code fingerprint, endpoint, game and the
  canonical request built by the endpoint from parsed values, so ``["10H","as"]`` and
  ``["AS","TH"]`` share it;
- a request alias (``alias_key``): method, path, the exact query string and the exact body bytes,
  pointing at the canonical key. An alias is only recorded next to a canonical entry, i.e. for a
  body that validated and computed successfully, and it is looked up *before* validation, so a
  repeated request is answered without re-running request validation at all (validation is
  deterministic). Aliases are kept only where reading them is free: in the in-process cache when
  there is no Redis, and with Redis in each worker's *alias memo* (``HOT_ALIAS_ENTRIES`` aliases,
  LRU, for ``CACHE_TTL_SECONDS``), never in Redis itself. That mapping is a pure function of the
  request bytes and the build (both are in the alias), so it can never go stale.

With Redis, round trips per request: a hot answer (the *hot layer*, ``HOT_CACHE_ENTRIES`` answers
for ``HOT_CACHE_TTL_SECONDS`` in each worker, the same keys and values) costs none; a request
whose alias the worker remembers costs one GET (the answer); any other request is validated and
costs one GET of its canonical key, plus one SET when it is a miss. An alias in Redis would save
a worker that has not seen a request its validation (about what a GET costs) but would cost every
miss a third round trip and Redis 300 B per spelling; every command names one key (Redis Cluster,
``docs/scaling.md``).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import logging
import os
import secrets
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal, Protocol

from flask import Flask, Request, Response, current_app, g

from api.cache.fingerprint import code_fingerprint
from api.cache.redis_conn import DirectCommands, connect, describe
from api.cache.worker_state import WorkerStates, default_state_dir
from api.config import Settings
from api.http.errors import BEFORE_PARSE_KEY

logger = logging.getLogger("api.cache.store")

NAMESPACE: Final = code_fingerprint()
"""This build's cache namespace (the code fingerprint)."""
KEY_PREFIX: Final = f"tunk:{NAMESPACE}:"
ALIAS_PREFIX: Final = f"tunk:{NAMESPACE}:req:"
READY_PREFIX: Final = "tunk:readyz:"
EXTENSION_KEY: Final = "tunk.cache"
CacheStatus = Literal["HIT", "MISS", "BYPASS"]
BackendState = Literal["up", "down", "open-circuit"]
Clock = Callable[[], float]


class CacheUnavailable(Exception):
    """The backend cannot be used right now; the caller serves the request without the cache."""


class MalformedReply(Exception):
    """Redis (or whatever answers on its port) replied with a value of the wrong type: a fault."""


ENTRY_VERSION: Final = "t1"
COMPRESS_FROM_BYTES: Final = 16 * 1024
"""Answers this long or longer are stored zlib-compressed (JSON compresses 5-20 times)."""
MAX_ENTRY_TEXT_BYTES: Final = 32 * 1024 * 1024
"""Most bytes a compressed entry may expand to; a larger one is foreign (a zip bomb)."""
HOT_MAX_VALUE_BYTES: Final = 32 * 1024
"""Longer answers skip the in-process hot layer, so one batch of big answers cannot grow every
worker by megabytes for ``HOT_CACHE_TTL_SECONDS``."""


def entry_checksum(key: str, text: str) -> str:
    """16 hex digits binding ``text`` to ``key`` (BLAKE2b keyed with the key's digest part)."""
    return hashlib.blake2b(
        text.encode("utf-8", "surrogatepass"), digest_size=8, key=key.encode()[-64:]
    ).hexdigest()


def encode_entry(key: str, text: str) -> str:
    """What is stored for ``text`` under ``key``: ``t1<kind>:<checksum>:<payload>``, where kind
    ``j`` is the JSON text itself and ``z`` its zlib compression in base64."""
    checksum = entry_checksum(key, text)
    if len(text) >= COMPRESS_FROM_BYTES:
        packed = zlib.compress(text.encode("utf-8", "surrogatepass"), 6)
        return f"{ENTRY_VERSION}z:{checksum}:{base64.b64encode(packed).decode('ascii')}"
    return f"{ENTRY_VERSION}j:{checksum}:{text}"


def decode_entry(key: str, stored: str) -> str | None:
    """The answer in ``stored`` if it is an entry this service wrote for ``key``, else None."""
    if len(stored) < 21 or not stored.startswith(ENTRY_VERSION) or stored[20] != ":":
        return None
    kind, checksum, payload = stored[2], stored[4:20], stored[21:]
    if stored[3] != ":":
        return None
    if kind == "j":
        text = payload
    elif kind == "z":
        try:
            inflater = zlib.decompressobj()
            packed = base64.b64decode(payload, validate=True)
            raw = inflater.decompress(packed, MAX_ENTRY_TEXT_BYTES)
            if inflater.unconsumed_tail or not inflater.eof:
                return None
            text = raw.decode("utf-8", "surrogatepass")
        except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError):
            return None
    else:
        return None
    return text if entry_checksum(key, text) == checksum else None


def _string_reply(command: str, value: Any) -> bytes | str | None:
    """A GET reply: nil or a string; anything else is a fault. :raises MalformedReply:"""
    if value is None or isinstance(value, bytes | str):
        return value
    raise MalformedReply(f"{command} replied {type(value).__name__}, expected a string or nil")


def _ok_reply(command: str, value: Any) -> None:
    """A SET reply must be ``OK``. :raises MalformedReply:"""
    if value is True or value in (b"OK", "OK"):
        return
    raise MalformedReply(f"{command} replied {str(value)[:40]!r}, expected OK")


class CacheBackend(Protocol):
    """Key/value store for JSON text with a per-entry time to live."""

    name: str

    def get(self, key: str) -> str | None:
        """The stored text, or None if absent/expired. :raises CacheUnavailable:"""
        ...

    def set(self, key: str, value: str, ttl_seconds: int | float) -> None:
        """Store ``value`` for ``ttl_seconds``. :raises CacheUnavailable:"""
        ...

    def state(self) -> BackendState:
        """Health as reported by ``/readyz``; never raises."""
        ...

    def readiness(self) -> dict[str, Any]:
        """Details for ``/readyz`` (state, and for Redis a write/read round trip); never raises."""
        ...


def canonical_json(value: Any) -> str:
    """Stable JSON for hashing: sorted keys, no whitespace, tuples as lists, UTF-8 kept."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def cache_key(
    endpoint: str,
    game: str,
    canonical_request: Mapping[str, Any],
    namespace: str = NAMESPACE,
) -> str:
    """``tunk:<fingerprint>:`` + sha256 of (namespace, endpoint, game, canonical request).

    ``canonical_request`` must already be canonical (cards as sorted ints, canonical rules):
    this function only fixes key order and formatting.
    """
    material = json.dumps(
        [namespace, endpoint, game, canonical_request], sort_keys=True, separators=(",", ":")
    )
    return KEY_PREFIX + hashlib.sha256(material.encode("ascii")).hexdigest()


def alias_key(
    path: str, query: bytes | str, body: bytes, namespace: str = NAMESPACE, method: str = "POST"
) -> str:
    """``tunk:<fingerprint>:req:`` + sha256 of (namespace, method, path, query, body bytes).

    Everything is hashed as bytes, so any body (even one holding a lone surrogate escape) has a
    key, and two requests share an alias only when they are byte-for-byte the same request.
    """
    query_bytes = query.encode("latin-1", "replace") if isinstance(query, str) else query
    head = b"".join(
        len(part).to_bytes(8, "big") + part
        for part in (namespace.encode(), method.encode(), path.encode("utf-8", "replace"))
    )
    digest = hashlib.sha256(head)
    digest.update(len(query_bytes).to_bytes(8, "big"))
    digest.update(query_bytes)
    digest.update(body)
    return ALIAS_PREFIX + digest.hexdigest()


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

    def set(self, key: str, value: str, ttl_seconds: int | float) -> None:
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

    def readiness(self) -> dict[str, Any]:
        """Memory needs no round trip: always up."""
        return {"backend": self.name, "state": "up", "entries": len(self)}


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
        self.on_change: Callable[[str, int], None] | None = None
        """Called with (new state, failures) after the circuit opens or closes."""

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

    def _changed(self, state: str) -> None:
        if self.on_change is not None:
            self.on_change(state, self._failures)

    def record_success(self) -> None:
        """The call worked: close the circuit and forget past failures."""
        with self._lock:
            changed = self._state != self.CLOSED
            if changed:
                logger.warning("cache circuit closed: backend answering again")
            self._state = self.CLOSED
            self._failures = 0
            self._probe_in_flight = False
        if changed:
            self._changed(self.CLOSED)

    def record_failure(self) -> None:
        """The call failed: count it; open at the threshold, or re-open after a failed probe."""
        opened = False
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
                    opened = True
                self._state = self.OPEN
                self._opened_at = self._clock()
        if opened:
            self._changed(self.OPEN)


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
        self.last_error: str | None = None
        """Why the last failed command failed (``/readyz`` shows it while the circuit is open)."""
        # One Redis, a Cluster or a Sentinel-managed master (api.cache.redis_conn), all with the
        # same
        # timeouts and no retries (a retry doubles the worst case; the breaker handles a Redis
        # that stays away).
        self._client, self.mode = connect(
            url, socket_timeout=socket_timeout, connect_timeout=connect_timeout
        )
        # GET and SET on one Redis skip redis-py's command layers (``DirectCommands``); a
        # Cluster routes keys and a Sentinel follows the master, so those use their client.
        self._direct = (
            DirectCommands(self._client.connection_pool) if self.mode == "standalone" else None
        )

    def describe(self) -> dict[str, Any]:
        """Mode details for ``/readyz`` (cluster slot coverage, sentinel master); never raises."""
        return describe(self._client, self.mode)

    def call(self, operation: Callable[[Any], Any]) -> Any:
        """Run ``operation(client)`` through the breaker. :raises CacheUnavailable:"""
        if not self.breaker.allow_request():
            raise CacheUnavailable("circuit open")
        try:
            result = operation(self._client)
        except Exception as exc:  # RedisError, OSError, anything: the cache must not fail a request
            self.breaker.record_failure()
            self.last_error = f"{type(exc).__name__}: {exc}"[:200]
            logger.debug("redis call failed: %r", exc)
            raise CacheUnavailable(str(exc)) from exc
        self.breaker.record_success()
        return result

    def get(self, key: str) -> str | None:
        """GET ``key``; bytes from the server are decoded as UTF-8 (undecodable bytes become
        U+FFFD, so such a value never matches what was written). A reply that is neither nil nor
        a string is a fault (``MalformedReply``, counted by the breaker)."""
        direct = self._direct
        if direct is not None:
            value = self.call(lambda client: _string_reply("GET", direct.execute("GET", key)))
        else:
            value = self.call(lambda client: _string_reply("GET", client.get(key)))
        if value is None:
            return None
        return value.decode("utf-8", "replace") if isinstance(value, bytes) else value

    def get_entry(self, key: str) -> tuple[str | None, bool]:
        """GET ``key`` and decode it as an entry (``decode_entry``): ``(answer, False)``, or
        ``(None, True)`` for a value that is not this service's entry for ``key``.

        A foreign value counts as a breaker failure (not a success) though the request goes on
        as a ``MISS``: a server that answers GET with strings but fails everything else (an
        impostor on the Redis port) then still opens the breaker.
        :raises CacheUnavailable:
        """
        stored = self.get(key)  # a success for the breaker so far
        if stored is None:
            return None, False
        text = decode_entry(key, stored)
        if text is None:
            self.breaker.record_failure()
            return None, True
        return text, False

    def set(self, key: str, value: str, ttl_seconds: int | float) -> None:
        """SET ``key`` with an expiry of ``ttl_seconds`` (whole seconds, at least 1); a reply
        other than ``OK`` is a fault."""
        ttl = max(1, int(ttl_seconds))
        direct = self._direct
        if direct is not None:
            self.call(lambda client: _ok_reply("SET", direct.execute("SET", key, value, "EX", ttl)))
        else:
            self.call(lambda client: _ok_reply("SET", client.set(key, value, ex=ttl)))

    def state(self) -> BackendState:
        """``open-circuit`` while cooling down (no network call), else ``up``/``down`` by PING."""
        if self.breaker.state == CircuitBreaker.OPEN:
            return "open-circuit"

        def ping(client: Any) -> None:
            if client.ping() is not True:
                raise MalformedReply("PING was not answered PONG")

        try:
            self.call(ping)
        except CacheUnavailable:
            return "down" if self.breaker.state == CircuitBreaker.CLOSED else "open-circuit"
        return "up"

    def readiness(self) -> dict[str, Any]:
        """A write/read round trip (SET a random token, GET it back), unless the circuit is open.

        A Redis that answers PING but refuses writes (full with ``noeviction``) reports
        ``write: false`` and state ``down``.
        """
        out: dict[str, Any] = {"backend": self.name, **self.describe()}
        write = read = None
        error = None
        if self.breaker.state != CircuitBreaker.OPEN:
            key = f"{READY_PREFIX}{os.getpid()}"
            token = secrets.token_hex(8)
            try:
                self.set(key, token, 10)
                write = True
                read = self.get(key) == token
                if not read:
                    error = "the probe value read back is not the one written"
            except CacheUnavailable as exc:
                write = bool(write)
                read = False
                error = (self.last_error or str(exc))[:200]
        breaker = self.breaker.state
        if breaker == CircuitBreaker.OPEN:
            state: BackendState = "open-circuit"
        else:
            state = "up" if write and read else "down"
        out.update(
            state=state, write=write, read=read, breaker=breaker, failures=self.breaker.failures
        )
        if error is None and breaker == CircuitBreaker.OPEN:
            error = self.last_error
        if error:
            out["error"] = error
        return out

    def close(self) -> None:
        """Drop pooled connections (used by tests and at shutdown)."""
        if self._direct is not None:
            self._direct.close()
        self._client.close()


@dataclass(slots=True)
class ResponseCache:
    """The app's cache: a backend, the TTL of every stored answer, optional in-process layers.

    ``hot`` (Redis only) holds the same answers for ``hot_ttl_seconds`` in this process;
    ``aliases`` (Redis only) remembers the canonical key of each request alias seen, for the
    answers' TTL (an alias's key never changes within a build). Request aliases are written to
    the backend only when it is in process (``aliases_in_backend``): never to Redis.
    """

    backend: CacheBackend
    ttl_seconds: int
    hot: MemoryCache | None = None
    hot_ttl_seconds: float = 5.0
    max_value_bytes: int = 256 * 1024
    aliases: MemoryCache | None = None
    aliases_in_backend: bool = False

    def fetch(self, key: str) -> tuple[str | None, CacheStatus]:
        """``(text, "HIT")``, ``(None, "MISS")`` or ``(None, "BYPASS")`` if the backend failed.

        A stored value that is not this service's entry for ``key`` (``decode_entry``) is a
        ``MISS``: the caller computes the answer and ``store`` overwrites the value.
        """
        hot = self.hot
        if hot is not None:
            text = hot.get(key)
            if text is not None:
                return text, "HIT"
        backend = self.backend
        try:
            if isinstance(backend, RedisCache):
                text, foreign = backend.get_entry(key)
            else:
                stored = backend.get(key)
                text = None if stored is None else decode_entry(key, stored)
                foreign = stored is not None and text is None
        except CacheUnavailable:
            return None, "BYPASS"
        if foreign:
            logger.warning("cache value for %s is not this service's entry: ignored", key[-12:])
            return None, "MISS"
        if text is None:
            return None, "MISS"
        if hot is not None and len(text) <= HOT_MAX_VALUE_BYTES:
            hot.set(key, text, self.hot_ttl_seconds)
        return text, "HIT"

    def known_key(self, alias: str) -> str | None:
        """The canonical key ``alias`` points to, if it is known without a network call (the
        in-process backend, or this worker's alias memo); None otherwise."""
        if self.aliases is not None:
            return self.aliases.get(alias)
        if self.aliases_in_backend:
            try:
                return self.backend.get(alias)
            except CacheUnavailable:  # pragma: no cover - an in-process backend never fails
                return None
        return None

    def store(self, key: str, text: str, alias: str | None = None) -> bool:
        """Store ``text``'s entry (one SET) and remember ``alias`` -> ``key``; False if the entry
        (compressed when long) is over ``max_value_bytes`` or the backend failed."""
        entry = encode_entry(key, text)
        if len(entry) > self.max_value_bytes:
            return False
        try:
            self.backend.set(key, entry, self.ttl_seconds)
        except CacheUnavailable:
            return False
        if self.hot is not None and len(text) <= HOT_MAX_VALUE_BYTES:
            self.hot.set(key, text, self.hot_ttl_seconds)
        if alias is not None:
            self.store_alias(alias, key)
        return True

    def store_alias(self, alias: str, key: str) -> None:
        """Remember that ``alias`` points at ``key`` (in process only: no network call)."""
        if self.aliases is not None:
            self.aliases.set(alias, key, self.ttl_seconds)
        elif self.aliases_in_backend:
            try:
                self.backend.set(alias, key, self.ttl_seconds)
            except CacheUnavailable:  # pragma: no cover - an in-process backend never fails
                return

    def readiness(self) -> dict[str, Any]:
        """The backend's readiness details (never raises)."""
        return self.backend.readiness()


def build_cache(settings: Settings) -> ResponseCache:
    """Redis (with a hot layer and an alias memo) if ``settings.redis_url`` is set, else the
    in-process LRU (which holds the aliases too)."""
    backend: CacheBackend
    hot = aliases = None
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
        if settings.hot_cache_entries > 0:
            hot = MemoryCache(settings.hot_cache_entries)
        if settings.hot_alias_entries > 0:
            aliases = MemoryCache(settings.hot_alias_entries)
    else:
        backend = MemoryCache(settings.cache_max_entries)
    return ResponseCache(
        backend,
        settings.cache_ttl_seconds,
        hot=hot,
        hot_ttl_seconds=settings.hot_cache_ttl_seconds,
        max_value_bytes=settings.cache_max_value_bytes,
        aliases=aliases,
        aliases_in_backend=not settings.redis_url,
    )


_ALIAS_KEY = "tunk_alias_key"
_MISSING_KEY = "tunk_missing_key"
STATES_EXTENSION_KEY: Final = "tunk.worker_states"


def _answer_repeated_request(req: Request, raw: bytes) -> Response | None:
    """Answer a repeated /v1 body (same bytes) from its alias, before it is even parsed.

    Called by the JSON body guard once the body is read (JSON content type, within the size
    limit); an alias only exists for a body that parsed, validated and computed. Only aliases
    known in process are used (no network call): otherwise the request is validated and
    ``cached_json`` looks up its canonical key, and records the alias next to it.
    """
    alias = alias_key(req.path, req.query_string, raw, method=req.method)
    cache = current_cache()
    key = cache.known_key(alias)
    if key is None:
        g.tunk_alias_key = alias
        return None
    text, status = cache.fetch(key)
    if text is not None:
        return _json_response(text, "HIT")
    if status == "MISS":  # the answer expired or was evicted: computed again, one GET spared
        g.tunk_missing_key = key
    return None


def init_cache(app: Flask, settings: Settings) -> ResponseCache:
    """Create the app's cache, keep it in ``app.extensions`` and install the alias lookup.

    The alias lookup is the body guard's ``BEFORE_PARSE_KEY`` hook (``api.http.errors``).
    Each worker publishes its breaker's changes for ``/readyz`` (``api.cache.worker_state``).
    """
    cache = build_cache(settings)
    app.extensions[EXTENSION_KEY] = cache
    states = WorkerStates(Path(settings.state_dir) if settings.state_dir else default_state_dir())
    app.extensions[STATES_EXTENSION_KEY] = states
    if isinstance(cache.backend, RedisCache):
        cache.backend.breaker.on_change = states.publish
    app.extensions[BEFORE_PARSE_KEY] = _answer_repeated_request
    return cache


def current_cache() -> ResponseCache:
    """The cache of the app handling the current request."""
    cache: ResponseCache = current_app.extensions[EXTENSION_KEY]
    return cache


def readiness_report() -> dict[str, Any]:
    """``/readyz``'s cache part: this worker's backend details plus every live worker's breaker."""
    cache = current_cache()
    details = cache.readiness()
    states: WorkerStates = current_app.extensions[STATES_EXTENSION_KEY]
    breaker = details.get("breaker")
    if breaker is not None:
        states.publish(str(breaker), int(details.get("failures", 0)))
    if breaker is None:
        return {**details, "workers": []}
    return {**details, "namespace": NAMESPACE, "workers": states.read()}


def _json_response(text: str, status: CacheStatus) -> Response:
    return current_app.response_class(
        text, status=200, headers={"Content-Type": "application/json", "X-Cache": status}
    )


_ENGINE_SLOT = threading.Lock()
_SLOT_POLL_SECONDS = 0.05


@contextmanager
def engine_slot() -> Iterator[None]:
    """Run one engine computation at a time in this process.

    The engine is CPU-bound pure Python: under the GIL two computations in one process take as
    long together as one after the other, and every extra runnable thread slows the threads that
    answer probes and cache hits. Waiting threads poll the lock (rather than block in C) so a
    request deadline can still interrupt them.
    """
    while not _ENGINE_SLOT.acquire(timeout=_SLOT_POLL_SECONDS):
        pass
    try:
        yield
    finally:
        _ENGINE_SLOT.release()


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
        ``EngineError`` becomes a 422), the exception propagates and nothing is cached. An answer
        whose entry (compressed from ``COMPRESS_FROM_BYTES``) is larger than
        ``CACHE_MAX_VALUE_BYTES`` is served but not stored (``BYPASS``).
    """
    cache = current_cache()
    key = cache_key(endpoint, game, canonical_request)
    ctx = g._get_current_object()  # one proxy lookup
    alias: str | None = getattr(ctx, _ALIAS_KEY, None)
    text: str | None
    status: CacheStatus
    if getattr(ctx, _MISSING_KEY, None) == key:
        text, status = None, "MISS"  # just looked up through the alias: absent
    else:
        text, status = cache.fetch(key)
    if text is not None:
        if alias is not None:
            cache.store_alias(alias, key)
        return _json_response(text, "HIT")
    with engine_slot():
        body = compute()
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":")) + "\n"
    if status == "MISS" and not cache.store(key, text, alias):
        status = "BYPASS"
    return _json_response(text, status)
