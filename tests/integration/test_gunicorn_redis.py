"""Real processes end to end: gunicorn serving ``create_app()`` with a real ``redis-server``.

Both run on free loopback ports and are started (and killed) by this test. It checks what the
cache promises over HTTP: the same melds request written two ways is a MISS then a HIT; with Redis
killed every answer is still a correct 200 (``X-Cache: BYPASS``) at normal latency; after Redis
comes back on the same port, caching resumes by itself.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

import pytest
from conftest import RedisServer

from tests.support.processes import GunicornProcess, start_gunicorn

MELDS = "/v1/games/game-flip-flop/melds"
MAX_LATENCY = 0.25  # seconds; a healthy answer takes a few milliseconds
BREAKER_COOLDOWN = 0.5

pytestmark = pytest.mark.slow


@dataclass
class Answer:
    """One HTTP exchange, timed."""

    status: int
    headers: dict[str, str]
    body: Any
    seconds: float


class Service(GunicornProcess):
    """A gunicorn master (2 sync workers) on 127.0.0.1:``port``."""

    def request(self, method: str, path: str, body: Any = None, raw: bytes | None = None) -> Answer:
        """Send one request (``body`` as JSON, or ``raw`` bytes) on a fresh connection, timed."""
        connection = HTTPConnection("127.0.0.1", self.port, timeout=10)
        headers = {"Content-Type": "application/json"} if body is not None or raw else {}
        payload = raw if raw is not None else json.dumps(body) if body is not None else None
        start = time.perf_counter()
        try:
            connection.request(method, path, body=payload, headers=headers)
            response = connection.getresponse()
            raw = response.read()
            seconds = time.perf_counter() - start
            return Answer(
                response.status,
                {k.lower(): v for k, v in response.getheaders()},
                json.loads(raw),
                seconds,
            )
        finally:
            connection.close()


@pytest.fixture
def service(redis_server: RedisServer, tmp_path: Path) -> Iterator[Service]:
    """gunicorn from this interpreter's environment, cached by ``redis_server``."""
    env = {
        "WEB_CONCURRENCY": "2",
        "REDIS_URL": redis_server.url,
        "BREAKER_COOLDOWN_SECONDS": str(BREAKER_COOLDOWN),
        "HOT_CACHE_ENTRIES": "0",  # every lookup goes to Redis: the BYPASS cases below see it
    }
    # Ready once every worker booted enough to answer /healthz.
    service = start_gunicorn(tmp_path / "gunicorn.log", env, Service)
    try:
        yield service
    finally:
        service.stop()


def expect_ok(service: Service, answer: Answer, reference: Any, cache: set[str]) -> None:
    assert answer.status == 200, (answer.body, service.log_tail())
    assert answer.headers.get("x-cache") in cache, (answer.headers, service.log_tail())
    assert answer.body == reference
    assert answer.seconds < MAX_LATENCY, f"{answer.seconds * 1000:.0f} ms"


def test_cache_hit_miss_bypass_and_recovery(service: Service, redis_server: RedisServer) -> None:
    ready = service.request("GET", "/readyz")
    assert ready.status == 200
    assert ready.body["status"] == "ready"
    assert (ready.body["cache"]["backend"], ready.body["cache"]["state"]) == ("redis", "up")

    # Golden answer, by hand: A-2-3 of spades is a run (GFF-2); 10H is left over, 10 points.
    golden = service.request("POST", MELDS, {"hand": ["AS", "2S", "3S", "10H"]})
    assert golden.status == 200 and golden.headers["x-cache"] == "MISS"
    assert golden.body["best"]["deadwood_points"] == 10
    assert golden.body["best"]["deadwood"] == ["10H"]
    assert [m["cards"] for m in golden.body["best"]["melds"]] == [["AS", "2S", "3S"]]

    # The same request written two ways: card order and notation do not matter.
    miss = service.request("POST", MELDS, {"hand": ["10H", "as"]})
    assert miss.status == 200 and miss.headers["x-cache"] == "MISS", miss
    assert miss.body["best"]["deadwood_points"] == 11  # ace 1 + ten 10, nothing melds
    hit = service.request("POST", MELDS, {"hand": ["AS", "TH"]})
    expect_ok(service, hit, miss.body, {"HIT"})
    # Errors go through unchanged and are never cached.
    for _ in range(2):
        bad = service.request("POST", MELDS, {"hand": ["AS", "ZZ"]})
        assert bad.status == 422 and "x-cache" not in bad.headers
        assert "hand[1]" in bad.body["errors"]

    # The error paths behave the same under gunicorn as under the test client.
    for raw, status in (
        (b'{"hand": ["AS", "TH"', 400),  # truncated JSON
        (b"[" * 20_000 + b"]" * 20_000, 400),  # nesting past the recursion limit
        (b'{"hand": ["AS"], "pad": "' + b"x" * 100_000 + b'"}', 413),  # over 64 KiB
    ):
        answer = service.request("POST", MELDS, raw=raw)
        assert answer.status == status, (answer.body, service.log_tail())
        assert answer.headers["content-type"] == "application/problem+json"
        assert answer.body["status"] == status
    assert service.request("GET", "/v1/games/poker/melds").status == 404

    redis_server.kill()
    for hand in (["TH", "AS"], ["10h", "AS"], ["AS", "TH"]) * 3:
        expect_ok(service, service.request("POST", MELDS, {"hand": hand}), miss.body, {"BYPASS"})
    fresh = service.request("POST", MELDS, {"hand": ["AS", "2S", "3S", "10H"]})
    expect_ok(service, fresh, golden.body, {"BYPASS"})
    ready = service.request("GET", "/readyz")
    assert ready.status == 200
    assert ready.body["cache"]["backend"] == "redis"
    assert ready.body["cache"]["state"] in {"down", "open-circuit"}

    redis_server.restart()  # same port, empty
    time.sleep(BREAKER_COOLDOWN + 0.2)
    seen: list[str] = []
    for _ in range(10):
        answer = service.request("POST", MELDS, {"hand": ["AS", "TH"]})
        expect_ok(service, answer, miss.body, {"HIT", "MISS", "BYPASS"})
        seen.append(answer.headers["x-cache"])
        if seen[-1] == "HIT":
            break
    assert "MISS" in seen and seen[-1] == "HIT", seen
    again = service.request("POST", MELDS, {"hand": ["3s", "2s", "as", "th"]})
    expect_ok(service, again, golden.body, {"MISS", "HIT"})
    repeat = service.request("POST", MELDS, {"hand": ["AS", "2S", "3S", "TH"]})
    expect_ok(service, repeat, golden.body, {"HIT"})
    ready = service.request("GET", "/readyz")
    assert ready.body["cache"]["state"] == "up" and ready.body["cache"]["write"] is True
