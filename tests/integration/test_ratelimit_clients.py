"""Two clients, one rate-limit budget each, batch items included (real gunicorn with
``gunicorn.conf.py`` and a real Redis holding the counters).

The clients connect from two loopback addresses (127.0.0.2 and 127.0.0.3), so gunicorn sees two
``REMOTE_ADDR``s. A batch from one spends that client's budget (one for the batch, one per item)
and leaves the other's requests and batch items untouched; ``RateLimit`` reports both.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

import pytest
from conftest import RedisServer

from tests.support.processes import GunicornProcess, start_gunicorn

pytestmark = pytest.mark.slow

LIMIT = 20
MELDS = "/v1/games/game-flip-flop/melds"
A = "127.0.0.2"
B = "127.0.0.3"


@pytest.fixture
def service(redis_server: RedisServer, tmp_path: Path) -> Iterator[GunicornProcess]:
    env = {
        "WEB_CONCURRENCY": "2",
        "REDIS_URL": redis_server.url,
        "RATE_LIMIT_REQUESTS": str(LIMIT),
        "RATE_LIMIT_WINDOW_SECONDS": "3600",
    }
    service = start_gunicorn(tmp_path / "gunicorn.log", env)
    try:
        yield service
    finally:
        service.stop()


def _post(port: int, source: str, path: str, body: Any) -> tuple[int, dict[str, str], Any]:
    connection = HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    try:
        connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), json.loads(response.read())
    finally:
        connection.close()


def _batch(n: int) -> dict[str, Any]:
    return {"requests": [{"method": "POST", "path": MELDS, "body": {"hand": ["AS"]}}] * n}


def _remaining(headers: dict[str, str]) -> int:
    assert headers["RateLimit-Policy"] == f'"client";q={LIMIT};w=3600'
    name, remaining, reset = headers["RateLimit"].split(";")
    assert name == '"client"' and 1 <= int(reset.removeprefix("t=")) <= 3600
    return int(remaining.removeprefix("r="))


def test_each_client_spends_its_own_budget(service: GunicornProcess) -> None:
    port = service.port
    status, headers, body = _post(port, A, "/v1/batch", _batch(15))
    assert status == 200 and [i["status"] for i in body["responses"]] == [200] * 15
    assert _remaining(headers) == LIMIT - 16  # the batch and its 15 items

    status, headers, _ = _post(port, B, MELDS, {"hand": ["AS"]})
    assert status == 200 and _remaining(headers) == LIMIT - 1  # B untouched by A's batch
    status, headers, body = _post(port, B, "/v1/batch", _batch(5))
    assert [i["status"] for i in body["responses"]] == [200] * 5
    assert _remaining(headers) == LIMIT - 7

    # A has 4 left: the batch takes one, three items pass, the last two are A's 429s.
    status, headers, body = _post(port, A, "/v1/batch", _batch(5))
    assert status == 200
    assert [i["status"] for i in body["responses"]] == [200, 200, 200, 429, 429]
    assert body["responses"][3]["body"]["status"] == 429
    assert _remaining(headers) == 0
    status, headers, body = _post(port, A, MELDS, {"hand": ["AS"]})
    assert status == 429 and int(headers["Retry-After"]) >= 1 and _remaining(headers) == 0

    # B's requests and batch items are still answered.
    status, headers, body = _post(port, B, "/v1/batch", _batch(2))
    assert [i["status"] for i in body["responses"]] == [200, 200]
    assert _remaining(headers) == LIMIT - 10
