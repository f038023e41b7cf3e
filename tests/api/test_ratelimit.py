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


def _batch(n: int, first_card: str = "AS") -> dict[str, Any]:
    return {
        "requests": [
            {"method": "POST", "path": MELDS, "body": {"hand": [first_card]}} for _ in range(n)
        ]
    }


A = {"REMOTE_ADDR": "10.0.0.1"}
B = {"REMOTE_ADDR": "10.0.0.2"}


def test_batch_items_count_against_their_sender_only(make_app: Any) -> None:
    client = make_app(RATE_LIMIT_REQUESTS=10, RATE_LIMIT_WINDOW_SECONDS=3600).test_client()
    # A's batch of 8: the batch itself and its 8 items make 9 of A's 10.
    batch = client.post("/v1/batch", json=_batch(8), environ_base=A)
    assert batch.status_code == 200
    assert [a["status"] for a in batch.get_json()["responses"]] == [200] * 8
    assert batch.headers["RateLimit-Policy"] == '"client";q=10;w=3600'
    remaining = batch.headers["RateLimit"]
    assert remaining.startswith('"client";r=1;t=')  # 10 - 9: the items are counted
    # B is untouched: its own one-item batch and direct requests all pass, from a full budget.
    other = client.post("/v1/batch", json=_batch(1), environ_base=B)
    assert [a["status"] for a in other.get_json()["responses"]] == [200]
    assert other.headers["RateLimit"].startswith('"client";r=8;t=')
    assert client.post(MELDS, json={"hand": ["AS"]}, environ_base=B).status_code == 200
    # A has 1 left: a batch of 3 costs 1 (the batch), then its items are over the limit.
    over = client.post("/v1/batch", json=_batch(3), environ_base=A)
    assert over.status_code == 200
    items = over.get_json()["responses"]
    assert [a["status"] for a in items] == [429, 429, 429]
    assert items[0]["body"]["status"] == 429 and "batch items count" in items[0]["body"]["detail"]
    assert over.headers["RateLimit"].startswith('"client";r=0;t=')
    direct = client.post(MELDS, json={"hand": ["AS"]}, environ_base=A)
    assert direct.status_code == 429 and int(direct.headers["Retry-After"]) >= 1
    assert direct.headers["RateLimit"].startswith('"client";r=0;t=')


def test_client_behind_a_trusted_proxy_is_the_forwarded_address(make_app: Any) -> None:
    app = make_app()
    install_rate_limit(app, 2, 60, forwarded_allow_ips="10.9.0.0/16")
    client = app.test_client()
    proxy = {"REMOTE_ADDR": "10.9.0.5"}

    def send(forwarded: str, environ: dict[str, str]) -> int:
        headers = {"X-Forwarded-For": forwarded}
        return client.post(
            MELDS, json={"hand": ["AS"]}, headers=headers, environ_base=environ
        ).status_code

    # Through the proxy: the last forwarded address is the client (earlier ones are the
    # client's own claims and are ignored).
    assert [send("6.6.6.6, 1.1.1.1", proxy) for _ in range(3)] == [200, 200, 429]
    assert send("1.1.1.1, 2.2.2.2", proxy) == 200
    # Not through a trusted proxy: the header is ignored, the peer is the client.
    assert [send(f"3.3.3.{n}", {"REMOTE_ADDR": "8.8.8.8"}) for n in range(3)] == [200, 200, 429]


def test_rate_limit_headers_on_every_v1_answer(make_app: Any) -> None:
    client = make_app(RATE_LIMIT_REQUESTS=5, RATE_LIMIT_WINDOW_SECONDS=60).test_client()
    ok = client.post(MELDS, json={"hand": ["AS"]})
    bad = client.post(MELDS, json={"hand": ["ZZ"]})
    assert (ok.status_code, bad.status_code) == (200, 422)
    assert ok.headers["RateLimit"].startswith('"client";r=4;t=')
    assert bad.headers["RateLimit"].startswith('"client";r=3;t=')
    assert "RateLimit" not in client.get("/healthz").headers


class _GarbagePipeline:
    """A pipeline whose replies are what a server that is not Redis might send."""

    def __init__(self, replies: Any) -> None:
        self.replies = replies

    def incr(self, key: str) -> None:
        pass

    def expire(self, key: str, ttl: int, nx: bool = False) -> None:
        pass

    def execute(self) -> Any:
        return self.replies


def test_malformed_counter_replies_are_redis_faults(
    make_app: Any, redis_server: RedisServer, monkeypatch: Any
) -> None:
    app = make_app(
        REDIS_URL=redis_server.url,
        RATE_LIMIT_REQUESTS=100,
        BREAKER_FAILURE_THRESHOLD=3,
        BREAKER_COOLDOWN_SECONDS=60,
    )
    client = app.test_client()
    with app.app_context():
        backend: Any = current_cache().backend
    try:
        for replies in ([b"not a number", True], [0, True], [True, True], [5], "OK"):
            monkeypatch.setattr(
                backend._client,
                "pipeline",
                lambda transaction=False, r=replies: _GarbagePipeline(r),
            )
            answer = client.post(MELDS, json={"hand": ["AS"]})
            assert answer.status_code == 200  # failed open, never a 500
            assert "RateLimit" not in answer.headers  # the count is unknown: not guessed
        assert backend.breaker.state == "open"  # the faults were counted
    finally:
        backend.close()
