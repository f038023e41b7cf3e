"""The optional rate limit: off by default; per client address; 429 problem+json + Retry-After."""

from __future__ import annotations

import json
from typing import Any

from conftest import RedisServer

from api.cache.store import current_cache
from api.http.ratelimit import install_rate_limit

MELDS = "/v1/games/game-flip-flop/melds"


def test_off_by_default(client: Any) -> None:
    for _ in range(30):
        assert client.post(MELDS, json={"hand": ["AS"]}).status_code == 200


def test_memory_counter_per_address(make_app: Any) -> None:
    client = make_app(RATE_LIMIT_REQUESTS=3, RATE_LIMIT_WINDOW_SECONDS=3600).test_client()
    for _ in range(3):
        assert client.post(MELDS, json={"hand": ["AS"]}).status_code == 200
    over = client.post(MELDS, json={"hand": ["AS"]})
    assert over.status_code == 429 and over.mimetype == "application/problem+json"
    assert json.loads(over.get_data())["status"] == 429
    assert 1 <= int(over.headers["Retry-After"]) <= 3600
    # Another address has its own count; probes are never limited.
    other = client.post(MELDS, json={"hand": ["AS"]}, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 200
    assert client.get("/healthz").status_code == 200


def test_window_end_gives_retry_after(make_app: Any) -> None:
    app = make_app()
    now = [7205.0]  # 5 s into a 60 s window that started at 7200
    app.before_request_funcs[None] = [
        f for f in app.before_request_funcs[None] if f.__name__ != "check"
    ]
    install_rate_limit(app, 1, 60, clock=lambda: now[0])
    client = app.test_client()
    assert client.post(MELDS, json={"hand": ["AS"]}).status_code == 200
    assert client.post(MELDS, json={"hand": ["AS"]}).headers["Retry-After"] == "55"
    now[0] = 7260.0  # next window
    assert client.post(MELDS, json={"hand": ["AS"]}).status_code == 200


def test_redis_counter_is_shared_by_every_app(make_app: Any, redis_server: RedisServer) -> None:
    apps = [
        make_app(REDIS_URL=redis_server.url, RATE_LIMIT_REQUESTS=4, RATE_LIMIT_WINDOW_SECONDS=60)
        for _ in range(2)
    ]
    try:
        statuses = [
            apps[n % 2].test_client().post(MELDS, json={"hand": ["AS"]}).status_code
            for n in range(6)
        ]
        assert statuses == [200, 200, 200, 200, 429, 429]  # two "workers", one count
        inspect = redis_server.client()
        keys = inspect.keys("tunk:rl:*")
        assert len(keys) == 1 and 0 < inspect.ttl(keys[0]) <= 61
        inspect.close()
        redis_server.kill()  # no Redis: let requests through rather than refuse them
        assert apps[0].test_client().post(MELDS, json={"hand": ["KS"]}).status_code == 200
    finally:
        for app in apps:
            with app.app_context():
                current_cache().backend.close()  # type: ignore[attr-defined]
