"""The response cache: LRU + TTL, key canonicalisation, the circuit breaker, Redis for real.

Only the breaker's clock is faked. Everything that talks to Redis uses the ``redis_server``
fixture (a real ``redis-server`` process the test can kill, pause and restart).
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
import zlib
from collections.abc import Callable
from typing import Any

import pytest
from conftest import PROBE_CALLS, PROBE_VIEWS, RedisServer
from flask import Flask

from api.cache.store import (
    ALIAS_PREFIX,
    COMPRESS_FROM_BYTES,
    KEY_PREFIX,
    MAX_ENTRY_TEXT_BYTES,
    NAMESPACE,
    CacheUnavailable,
    CircuitBreaker,
    MemoryCache,
    RedisCache,
    alias_key,
    cache_key,
    canonical_json,
    current_cache,
    decode_entry,
    encode_entry,
    entry_checksum,
)
from api.config import SettingsError, load_settings

PROBE = "/v1/probe/game-flip-flop/echo"


class FakeClock:
    """A settable monotonic clock."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


# --- in-process LRU -----------------------------------------------------------------------------


def test_memory_cache_round_trip_and_ttl() -> None:
    clock = FakeClock()
    cache = MemoryCache(10, clock=clock)
    cache.set("k", '{"a":1}', ttl_seconds=60)
    assert cache.get("k") == '{"a":1}'
    clock.advance(59.9)
    assert cache.get("k") == '{"a":1}'
    clock.advance(0.1)
    assert cache.get("k") is None
    assert len(cache) == 0  # expired entries are dropped when seen


def test_memory_cache_set_refreshes_ttl() -> None:
    clock = FakeClock()
    cache = MemoryCache(10, clock=clock)
    cache.set("k", "old", 10)
    clock.advance(8)
    cache.set("k", "new", 10)
    clock.advance(8)
    assert cache.get("k") == "new"


def test_memory_cache_evicts_least_recently_used() -> None:
    cache = MemoryCache(3, clock=FakeClock())
    for key in "abc":
        cache.set(key, key.upper(), 60)
    assert cache.get("a") == "A"  # a is now most recent; b is the oldest
    cache.set("d", "D", 60)
    assert cache.get("b") is None
    assert [cache.get(k) for k in "acd"] == ["A", "C", "D"]
    assert len(cache) == 3


def test_memory_cache_rejects_zero_capacity() -> None:
    with pytest.raises(ValueError):
        MemoryCache(0)


def test_memory_cache_is_thread_safe() -> None:
    cache = MemoryCache(50)
    errors: list[BaseException] = []

    def worker(n: int) -> None:
        try:
            for i in range(2000):
                key = f"{n}:{i % 80}"
                cache.set(key, str(i), 60)
                value = cache.get(key)
                assert value is None or value.isdigit()
        except BaseException as exc:  # pragma: no cover - only on failure
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert len(cache) <= 50


# --- keys -----------------------------------------------------------------------------------------


def test_key_ignores_mapping_order_and_is_prefixed() -> None:
    a = cache_key("melds", "game-flip-flop", {"hand": [0, 22], "rules": {"x": 1, "y": 2}})
    b = cache_key("melds", "game-flip-flop", {"rules": {"y": 2, "x": 1}, "hand": [0, 22]})
    assert a == b
    assert a.startswith(KEY_PREFIX)
    assert len(a) == len(KEY_PREFIX) + 64


@pytest.mark.parametrize(
    "other",
    [
        ("layoffs", "game-flip-flop", {"hand": [0, 22]}, NAMESPACE),
        ("melds", "three-thirteen", {"hand": [0, 22]}, NAMESPACE),
        ("melds", "game-flip-flop", {"hand": [22, 0]}, NAMESPACE),
        ("melds", "game-flip-flop", {"hand": [0, 22], "limit": 5}, NAMESPACE),
        ("melds", "game-flip-flop", {"hand": [0, 22]}, "999.0.0"),
    ],
)
def test_key_changes_with_every_part(other: tuple[str, str, dict[str, Any], str]) -> None:
    base = cache_key("melds", "game-flip-flop", {"hand": [0, 22]})
    assert cache_key(*other) != base


def test_canonical_json_is_compact_sorted_and_type_exact() -> None:
    assert canonical_json({"b": (1, 2), "a": {"d": True, "c": None}}) == (
        '{"a":{"c":null,"d":true},"b":[1,2]}'
    )
    assert canonical_json({"x": 1}) != canonical_json({"x": True})
    assert canonical_json({"x": 1}) != canonical_json({"x": "1"})


def test_request_written_two_ways_hits_the_same_entry(probe_app: Flask) -> None:
    client = probe_app.test_client()
    first = client.post(PROBE, json={"hand": ["th", "As"]})
    second = client.post(PROBE, json={"hand": ["AS", "TH"]})
    assert (first.headers["X-Cache"], second.headers["X-Cache"]) == ("MISS", "HIT")
    assert first.get_data() == second.get_data()
    assert probe_app.extensions[PROBE_CALLS] == 1


def test_alias_key_depends_on_method_path_query_and_exact_body() -> None:
    body = b'{"hand": ["AS", "TH"]}'
    base = alias_key("/v1/games/game-flip-flop/melds", b"", body)
    assert base.startswith(ALIAS_PREFIX)
    assert alias_key("/v1/games/game-flip-flop/melds", "", body) == base
    for other in (
        alias_key("/v1/games/three-thirteen/melds", b"", body),
        alias_key("/v1/games/game-flip-flop/melds", b"limit=1", body),
        alias_key("/v1/games/game-flip-flop/melds", b"bust=1", body),
        alias_key("/v1/games/game-flip-flop/melds", b"", b'{"hand": ["TH", "AS"]}'),
        alias_key("/v1/games/game-flip-flop/melds", b"", b'{"hand":["AS","TH"]}'),
        alias_key("/v1/games/game-flip-flop/melds", b"", body, "0123456789abcdef"),
        alias_key("/v1/games/game-flip-flop/melds", b"", body, method="PUT"),
        # the boundary between path and query is part of the key
        alias_key("/v1/games/game-flip-flop/meldsx", b"", body),
    ):
        assert other != base
    # A lone surrogate escape is valid JSON text: its alias key is computed like any other.
    assert alias_key("/v1/x", b"", b'{"x":"\\ud800"}').startswith(ALIAS_PREFIX)


def test_repeated_body_is_answered_before_validation(probe_app: Flask) -> None:
    client = probe_app.test_client()
    first = client.post(PROBE, json={"hand": ["th", "As"]})
    assert first.headers["X-Cache"] == "MISS"
    assert probe_app.extensions[PROBE_VIEWS] == 1
    # Same bytes again: the alias answers, the view never runs.
    again = client.post(PROBE, data='{"hand": ["th", "As"]}', content_type="application/json")
    assert again.headers["X-Cache"] == "HIT" and again.get_data() == first.get_data()
    assert probe_app.extensions[PROBE_VIEWS] == 1
    # Another spelling: validated, then a canonical hit, which also records its alias.
    other = client.post(PROBE, json={"hand": ["AS", "10H"]})
    assert other.headers["X-Cache"] == "HIT" and probe_app.extensions[PROBE_VIEWS] == 2
    client.post(PROBE, json={"hand": ["AS", "10H"]})
    assert probe_app.extensions[PROBE_VIEWS] == 2
    assert probe_app.extensions[PROBE_CALLS] == 1


def test_invalid_bodies_never_get_an_alias(probe_app: Flask) -> None:
    client = probe_app.test_client()
    for _ in range(2):
        response = client.post(PROBE, json={"hand": ["AS", "TOOLONG"]})
        assert response.status_code == 422 and "X-Cache" not in response.headers
        assert probe_app.extensions[PROBE_VIEWS] == 0
    for attempt in (1, 2):
        response = client.post(PROBE, json={"hand": ["AS"], "fail": "engine"})
        assert response.status_code == 422
        assert probe_app.extensions[PROBE_VIEWS] == attempt


# --- circuit breaker ------------------------------------------------------------------------------


def test_breaker_opens_after_threshold_consecutive_failures() -> None:
    clock = FakeClock()
    breaker = CircuitBreaker(3, 5.0, clock=clock)
    for _ in range(2):
        assert breaker.allow_request()
        breaker.record_failure()
    assert breaker.state == CircuitBreaker.CLOSED
    assert breaker.allow_request()
    breaker.record_failure()
    assert breaker.state == CircuitBreaker.OPEN
    assert not breaker.allow_request()


def test_breaker_success_resets_the_count() -> None:
    breaker = CircuitBreaker(2, 5.0, clock=FakeClock())
    breaker.record_failure()
    breaker.record_success()
    breaker.record_failure()
    assert breaker.state == CircuitBreaker.CLOSED and breaker.failures == 1


def test_breaker_half_open_allows_one_probe_then_closes_on_success() -> None:
    clock = FakeClock()
    breaker = CircuitBreaker(1, 5.0, clock=clock)
    breaker.record_failure()
    clock.advance(4.99)
    assert not breaker.allow_request()
    clock.advance(0.01)
    assert breaker.state == CircuitBreaker.HALF_OPEN
    assert breaker.allow_request()  # the probe
    assert not breaker.allow_request()  # everyone else waits for its verdict
    breaker.record_success()
    assert breaker.state == CircuitBreaker.CLOSED
    assert breaker.allow_request() and breaker.allow_request()


def test_breaker_failed_probe_reopens_for_a_full_cooldown() -> None:
    clock = FakeClock()
    breaker = CircuitBreaker(3, 5.0, clock=clock)
    for _ in range(3):
        breaker.record_failure()
    clock.advance(5)
    assert breaker.allow_request()
    breaker.record_failure()  # one failed probe is enough to re-open
    assert breaker.state == CircuitBreaker.OPEN
    clock.advance(4.9)
    assert not breaker.allow_request()
    clock.advance(0.1)
    assert breaker.allow_request()


def test_breaker_lost_probe_is_replaced_after_a_cooldown() -> None:
    clock = FakeClock()
    breaker = CircuitBreaker(1, 5.0, clock=clock)
    breaker.record_failure()
    clock.advance(5)
    assert breaker.allow_request()  # this probe never reports back
    clock.advance(4.9)
    assert not breaker.allow_request()
    clock.advance(0.1)
    assert breaker.allow_request()


def test_breaker_rejects_zero_threshold() -> None:
    with pytest.raises(ValueError):
        CircuitBreaker(0, 1.0)


# --- Redis backend, against a real server ---------------------------------------------------------


def make_redis_cache(server: RedisServer, clock: Callable[[], float] | None = None) -> RedisCache:
    breaker = CircuitBreaker(3, 0.3, clock=clock or time.monotonic)
    return RedisCache(server.url, connect_timeout=0.05, socket_timeout=0.1, breaker=breaker)


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    try:
        result: Any = fn()
    except CacheUnavailable as exc:
        result = exc
    return time.perf_counter() - start, result


def test_redis_cache_round_trip_with_ttl(redis_server: RedisServer) -> None:
    cache = make_redis_cache(redis_server)
    try:
        assert cache.get("tunk:v1:x") is None
        cache.set("tunk:v1:x", '{"ok":"é"}', ttl_seconds=120)
        assert cache.get("tunk:v1:x") == '{"ok":"é"}'
        inspect = redis_server.client()
        try:
            assert 110 < inspect.ttl("tunk:v1:x") <= 120
            assert json.loads(inspect.get("tunk:v1:x")) == {"ok": "é"}  # JSON text, not pickle
        finally:
            inspect.close()
        assert cache.state() == "up"
    finally:
        cache.close()


def test_redis_cache_dead_server_fails_fast_then_opens_circuit(redis_server: RedisServer) -> None:
    cache = make_redis_cache(redis_server)
    try:
        cache.set("k", "v", 60)
        redis_server.kill()
        for _ in range(3):
            elapsed, result = timed(lambda: cache.get("k"))
            assert isinstance(result, CacheUnavailable)
            assert elapsed < 0.2
        assert cache.breaker.state == CircuitBreaker.OPEN
        assert cache.state() == "open-circuit"
        elapsed, result = timed(lambda: cache.get("k"))
        assert isinstance(result, CacheUnavailable) and elapsed < 0.005  # no network at all
    finally:
        cache.close()


def test_redis_cache_hung_server_is_bounded_by_the_read_timeout(
    redis_server: RedisServer,
) -> None:
    cache = make_redis_cache(redis_server)
    try:
        cache.set("k", "v", 60)
        redis_server.pause()
        try:
            for _ in range(3):
                elapsed, result = timed(lambda: cache.get("k"))
                assert isinstance(result, CacheUnavailable)
                assert elapsed < 0.25  # 100 ms read timeout, no retries
            elapsed, result = timed(lambda: cache.get("k"))
            assert isinstance(result, CacheUnavailable) and elapsed < 0.005
        finally:
            redis_server.resume()
    finally:
        cache.close()


def test_redis_cache_resumes_after_restart(redis_server: RedisServer) -> None:
    cache = make_redis_cache(redis_server)
    try:
        redis_server.kill()
        for _ in range(3):
            with pytest.raises(CacheUnavailable):
                cache.get("k")
        assert cache.state() == "open-circuit"
        redis_server.restart()
        time.sleep(0.35)  # breaker cool-down is 0.3 s
        cache.set("k", "back", 60)  # the half-open probe succeeds and closes the circuit
        assert cache.breaker.state == CircuitBreaker.CLOSED
        assert cache.get("k") == "back"
        assert cache.state() == "up"
    finally:
        cache.close()


# --- cached_json through the app ------------------------------------------------------------------


def test_errors_are_never_cached(probe_app: Flask) -> None:
    client = probe_app.test_client()
    request = {"hand": ["AS", "TH"], "fail": "engine"}
    for attempt in (1, 2):
        response = client.post(PROBE, json=request)
        assert response.status_code == 422
        assert "X-Cache" not in response.headers
        assert probe_app.extensions[PROBE_CALLS] == attempt  # computed again: nothing stored
    with probe_app.app_context():
        assert len(current_cache().backend) == 0  # type: ignore[arg-type]


def test_crash_is_not_cached(probe_app: Flask) -> None:
    client = probe_app.test_client()
    assert client.post(PROBE, json={"hand": ["AS"], "fail": "crash"}).status_code == 500
    assert client.post(PROBE, json={"hand": ["AS"], "fail": "crash"}).status_code == 500
    assert probe_app.extensions[PROBE_CALLS] == 2


def test_memory_backend_hit_miss_and_ttl_setting(make_probe_app: Any) -> None:
    app = make_probe_app(CACHE_TTL_SECONDS=1)
    client = app.test_client()
    assert client.post(PROBE, json={"hand": ["AS"]}).headers["X-Cache"] == "MISS"
    hit = client.post(PROBE, json={"hand": ["as"]})
    assert hit.headers["X-Cache"] == "HIT" and hit.mimetype == "application/json"
    assert hit.get_json() == {"game": "game-flip-flop", "hand": ["AS"], "size": 1}
    assert client.post(PROBE, json={"hand": ["KS"]}).headers["X-Cache"] == "MISS"
    other_game = client.post("/v1/probe/three-thirteen/echo", json={"hand": ["AS"]})
    assert other_game.headers["X-Cache"] == "MISS"
    time.sleep(1.05)
    assert client.post(PROBE, json={"hand": ["AS"]}).headers["X-Cache"] == "MISS"


def test_readyz_memory(client: Any) -> None:
    response = client.get("/readyz")
    assert response.status_code == 200
    body = response.get_json()
    assert body["status"] == "ready"
    assert body["cache"]["backend"] == "memory" and body["cache"]["state"] == "up"


def _calls(inspect: Any, command: str) -> int:
    """``command`` (``get``, ``set``) commands the Redis server has run so far."""
    return int(inspect.info("commandstats").get(f"cmdstat_{command}", {}).get("calls", 0))


def test_a_request_costs_one_get_and_a_miss_one_set_and_redis_holds_no_alias(
    make_probe_app: Any, redis_server: RedisServer, tmp_path: Any
) -> None:
    settings = {
        "REDIS_URL": redis_server.url,
        "HOT_CACHE_ENTRIES": 0,  # no hot answers: every answer is read from Redis
        "STATE_DIR": str(tmp_path / "state"),
    }
    first, second = make_probe_app(**settings), make_probe_app(**settings)  # two workers
    raw = b'{"hand": ["th", "As"]}'
    inspect = redis_server.client()

    def post(app: Flask) -> tuple[str, int, int, bytes]:
        gets, sets = _calls(inspect, "get"), _calls(inspect, "set")
        response = app.test_client().post(PROBE, data=raw, content_type="application/json")
        return (
            response.headers["X-Cache"],
            _calls(inspect, "get") - gets,
            _calls(inspect, "set") - sets,
            response.get_data(),
        )

    try:
        cache, gets, sets, answer = post(first)
        assert (cache, gets, sets) == ("MISS", 1, 1)  # the canonical key: absent, then stored
        assert first.extensions[PROBE_VIEWS] == 1
        # The worker that stored it remembers the alias's key: one GET, no validation.
        assert post(first) == ("HIT", 1, 0, answer)
        assert first.extensions[PROBE_VIEWS] == 1
        # Another worker validates the request and reads the canonical key: one GET; then it
        # remembers the alias too.
        assert post(second) == ("HIT", 1, 0, answer)
        assert second.extensions[PROBE_VIEWS] == 1
        assert post(second) == ("HIT", 1, 0, answer)
        assert second.extensions[PROBE_VIEWS] == 1
        # Redis holds the one answer and no alias (no memory per spelling).
        keys = [k.decode() for k in inspect.keys(KEY_PREFIX + "*")]
        (answer_key,) = keys
        assert not answer_key.startswith(ALIAS_PREFIX)
        # An answer gone from Redis (evicted) is computed again, though the alias is
        # remembered: the GET through the alias is the only one, then one SET.
        inspect.delete(answer_key)
        assert post(first)[:3] == ("MISS", 1, 1) and first.extensions[PROBE_CALLS] == 2
        assert post(first)[:3] == ("HIT", 1, 0)
    finally:
        inspect.close()
        for app in (first, second):
            with app.app_context():
                current_cache().backend.close()  # type: ignore[attr-defined]


def test_alias_memo_is_bounded_and_can_be_turned_off(make_app: Any, tmp_path: Any) -> None:
    settings = {"REDIS_URL": "redis://127.0.0.1:1/0", "STATE_DIR": str(tmp_path / "state")}
    with make_app(**settings).app_context():
        memo = current_cache().aliases
        assert memo is not None and memo.max_entries == 10_000  # the default
    with make_app(**settings, HOT_ALIAS_ENTRIES=3).app_context():
        memo = current_cache().aliases
        assert memo is not None and memo.max_entries == 3  # an LRU: at most 3 aliases kept
    with make_app(**settings, HOT_ALIAS_ENTRIES=0).app_context():
        assert current_cache().aliases is None
    with make_app(REDIS_URL=None).app_context():  # in process the aliases are local anyway
        assert current_cache().aliases is None


def test_redis_backend_end_to_end(
    make_probe_app: Any, redis_server: RedisServer, tmp_path: Any
) -> None:
    app = make_probe_app(
        REDIS_URL=redis_server.url,
        CACHE_TTL_SECONDS=300,
        BREAKER_COOLDOWN_SECONDS=0.3,
        HOT_CACHE_ENTRIES=0,  # every lookup goes to Redis (the hot layer has its own test)
        STATE_DIR=str(tmp_path / "state"),
    )
    client = app.test_client()
    try:
        ready = client.get("/readyz").get_json()["cache"]
        assert ready["backend"] == "redis" and ready["state"] == "up"
        assert ready["mode"] == "standalone"
        assert (ready["write"], ready["read"], ready["breaker"]) == (True, True, "closed")
        miss = client.post(PROBE, json={"hand": ["10H", "as"]})
        hit = client.post(PROBE, json={"hand": ["AS", "TH"]})
        assert (miss.headers["X-Cache"], hit.headers["X-Cache"]) == ("MISS", "HIT")
        assert miss.get_data() == hit.get_data()
        inspect = redis_server.client()
        try:
            keys = sorted(k.decode() for k in inspect.keys(KEY_PREFIX + "*"))
            # One canonical entry, and no alias: the spellings are remembered in process.
            assert len(keys) == 1 and not keys[0].startswith(ALIAS_PREFIX)
            stored = inspect.get(keys[0]).decode()
            assert stored.startswith("t1j:")  # a short answer is stored as its JSON text
            assert json.loads(decode_entry(keys[0], stored) or "") == miss.get_json()
            for key in keys:
                assert 290 < inspect.ttl(key) <= 300
        finally:
            inspect.close()

        redis_server.kill()
        for _ in range(5):
            start = time.perf_counter()
            bypass = client.post(PROBE, json={"hand": ["AS", "TH"]})
            assert time.perf_counter() - start < 0.25
            assert bypass.status_code == 200 and bypass.headers["X-Cache"] == "BYPASS"
            assert bypass.get_data() == miss.get_data()
        ready = client.get("/readyz")
        assert ready.status_code == 200
        cache = ready.get_json()["cache"]
        assert (cache["state"], cache["breaker"], cache["write"]) == ("open-circuit", "open", None)
        # This worker published its open breaker for the others' /readyz.
        assert [w["breaker"] for w in cache["workers"]] == ["open"]

        redis_server.restart()
        time.sleep(0.35)
        assert client.post(PROBE, json={"hand": ["AS", "TH"]}).headers["X-Cache"] == "MISS"
        assert client.post(PROBE, json={"hand": ["TH", "AS"]}).headers["X-Cache"] == "HIT"
    finally:
        with app.app_context():
            current_cache().backend.close()  # type: ignore[attr-defined]


def test_readyz_reports_down_before_the_circuit_opens(
    make_app: Any, redis_server: RedisServer
) -> None:
    app = make_app(REDIS_URL=redis_server.url, BREAKER_FAILURE_THRESHOLD=5)
    client = app.test_client()
    try:
        redis_server.kill()
        response = client.get("/readyz")
        assert response.status_code == 200
        cache = response.get_json()["cache"]
        assert (cache["state"], cache["write"], cache["breaker"]) == ("down", False, "closed")
    finally:
        with app.app_context():
            current_cache().backend.close()  # type: ignore[attr-defined]


# --- settings -------------------------------------------------------------------------------------


def test_settings_from_environment() -> None:
    settings = load_settings(
        environ={
            "REDIS_URL": " redis://127.0.0.1:6379/0 ",
            "CACHE_TTL_SECONDS": "60",
            "REDIS_CONNECT_TIMEOUT_MS": "20",
            "REDIS_SOCKET_TIMEOUT_MS": "80",
            "BREAKER_COOLDOWN_SECONDS": "2.5",
            "UNRELATED": "ignored",
        }
    )
    assert settings.redis_url == "redis://127.0.0.1:6379/0"
    assert settings.cache_ttl_seconds == 60
    assert settings.redis_connect_timeout == pytest.approx(0.02)
    assert settings.redis_socket_timeout == pytest.approx(0.08)
    assert settings.breaker_cooldown_seconds == 2.5
    assert settings.max_body_bytes == 64 * 1024  # default


def test_settings_overrides_win_and_empty_redis_url_means_memory() -> None:
    environ = {"REDIS_URL": "redis://elsewhere:6379/0", "CACHE_TTL_SECONDS": "60"}
    settings = load_settings({"REDIS_URL": "", "CACHE_TTL_SECONDS": 5}, environ=environ)
    assert settings.redis_url is None and settings.cache_ttl_seconds == 5
    assert load_settings({"REDIS_URL": None}, environ=environ).redis_url is None


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("CACHE_TTL_SECONDS", "soon"),
        ("CACHE_TTL_SECONDS", "0"),
        ("CACHE_MAX_ENTRIES", "-1"),
        ("MAX_BODY_BYTES", "10"),
        ("REDIS_SOCKET_TIMEOUT_MS", "0"),
        ("BREAKER_COOLDOWN_SECONDS", "nan"),
        ("BREAKER_FAILURE_THRESHOLD", "1.5"),
    ],
)
def test_bad_settings_stop_start_up_naming_the_variable(name: str, value: str) -> None:
    with pytest.raises(SettingsError, match=name):
        load_settings(environ={name: value})


def test_create_app_applies_the_body_limit_and_cache_settings(make_app: Any) -> None:
    app = make_app(MAX_BODY_BYTES=4096, CACHE_TTL_SECONDS=42, CACHE_MAX_ENTRIES=7)
    assert app.config["MAX_CONTENT_LENGTH"] == 4096
    with app.app_context():
        cache = current_cache()
        assert cache.ttl_seconds == 42
        assert isinstance(cache.backend, MemoryCache) and cache.backend.max_entries == 7


# --- entries: version and checksum, compression, foreign values, malformed replies -------------


def test_entry_round_trip_plain_and_compressed() -> None:
    key = cache_key("melds", "game-flip-flop", {"hand": [1]})
    short = '{"a":1}\n'
    entry = encode_entry(key, short)
    assert entry.startswith("t1j:") and entry.endswith(short) and len(entry) == 21 + len(short)
    assert decode_entry(key, entry) == short
    long = json.dumps([{"cards": ["AS", "2S", "3S"], "n": n % 7} for n in range(2000)])
    assert len(long) >= COMPRESS_FROM_BYTES
    packed = encode_entry(key, long)
    assert packed.startswith("t1z:") and len(packed) < len(long) // 5
    assert decode_entry(key, packed) == long
    # An entry is bound to its key: the same value under another key is foreign.
    assert decode_entry(key + "0", entry) is None
    tampered = entry[:-3] + "2}\n"
    for foreign in ("not json at all <script>", "", tampered, "t1z:" + entry[4:], "t9" + entry[2:]):
        assert decode_entry(key, foreign) is None, foreign


def test_a_bomb_is_foreign() -> None:
    key = cache_key("melds", "game-flip-flop", {"hand": [2]})
    bomb = zlib.compress(b" " * (MAX_ENTRY_TEXT_BYTES + 1), 9)
    checksum = entry_checksum(key, " " * (MAX_ENTRY_TEXT_BYTES + 1))
    entry = f"t1z:{checksum}:{base64.b64encode(bomb).decode()}"
    assert decode_entry(key, entry) is None


def test_foreign_value_is_a_miss_and_is_overwritten(
    make_probe_app: Callable[..., Flask], redis_server: RedisServer
) -> None:
    app = make_probe_app(REDIS_URL=redis_server.url, HOT_CACHE_ENTRIES=0, HOT_ALIAS_ENTRIES=0)
    client = app.test_client()
    first = client.post(PROBE, json={"hand": ["AS"]})
    assert first.headers["X-Cache"] == "MISS"
    inspect = redis_server.client()
    try:
        (key,) = [k.decode() for k in inspect.keys(KEY_PREFIX + "*")]
        for foreign in (b"not json at all <script>", b'{"game":"evil"}', b"\xff\xfe garbage"):
            inspect.set(key, foreign)
            again = client.post(PROBE, json={"hand": ["AS"]})
            assert again.status_code == 200 and again.headers["X-Cache"] == "MISS"
            assert again.get_json() == first.get_json()
            assert decode_entry(key, inspect.get(key).decode()) == first.get_data(as_text=True)
            assert client.post(PROBE, json={"hand": ["AS"]}).headers["X-Cache"] == "HIT"
    finally:
        inspect.close()
        with app.app_context():
            current_cache().backend.close()  # type: ignore[attr-defined]


def test_big_answers_are_cached_compressed_and_skip_the_hot_layer(
    make_probe_app: Callable[..., Flask],
) -> None:
    app = make_probe_app(CACHE_MAX_VALUE_BYTES=64 * 1024)
    with app.test_request_context():
        cache = current_cache()
        key = cache_key("probe", "g", {"n": 1})
        text = json.dumps(["AS 2S 3S"] * 20_000)  # 220 KB, compresses to a few KB
        assert cache.store(key, text)
        assert cache.fetch(key) == (text, "HIT")
        incompressible = json.dumps(base64.b64encode(os.urandom(80_000)).decode())
        assert not cache.store(key + "x", incompressible)  # still over the cap: not stored
        assert cache.fetch(key + "x") == (None, "MISS")


class _Replies:
    """A DirectCommands stand-in answering every command with one fixed reply."""

    def __init__(self, reply: Any) -> None:
        self.reply = reply

    def execute(self, *args: Any) -> Any:
        return self.reply

    def close(self) -> None:
        pass


def test_malformed_replies_are_faults_that_open_the_breaker(
    make_probe_app: Callable[..., Flask], redis_server: RedisServer
) -> None:
    app = make_probe_app(
        REDIS_URL=redis_server.url,
        HOT_CACHE_ENTRIES=0,
        BREAKER_FAILURE_THRESHOLD=2,
        BREAKER_COOLDOWN_SECONDS=60,
    )
    client = app.test_client()
    with app.app_context():
        backend: Any = current_cache().backend
    real = backend._direct
    try:
        for reply in (42, [b"a", b"b"], b"QUEUED"):
            backend.breaker.record_success()
            backend._direct = _Replies(reply)
            answers = [client.post(PROBE, json={"hand": [card]}) for card in ("2S", "3S", "4S")]
            assert [a.status_code for a in answers] == [200, 200, 200]
            assert [a.headers["X-Cache"] for a in answers] == ["BYPASS"] * 3
            assert backend.breaker.state == "open"
        backend.breaker.record_success()
        backend._direct = _Replies(b"definitely not OK")  # GET gives a foreign string; SET not OK
        ready = client.get("/readyz").get_json()["cache"]
        assert (ready["state"], ready["write"]) == ("down", False)
        assert "SET replied" in ready["error"] and "expected OK" in ready["error"]
    finally:
        backend._direct = real
        backend.close()
