"""A batch costs a bounded amount (real gunicorn with ``gunicorn.conf.py`` and a real Redis).

The batch: 50 Three Thirteen melds requests (round 11, 8 decks, 14 cards, ``max_ties`` 100,
``limit`` 1000) whose answers are about 280 KB each, 14 MB in all. Asserted: the answer is at
most 5 MB and arrives within 3 s (items past the budgets are problems naming them), a repeat is
answered from the cache (the big answers are stored compressed), and the worker's resident
memory is back within 10% of its level before the batch.

The worker is warmed up first with the same 50 requests at ``limit`` 999, one at a time (the
same work under other cache keys): the engine's meld memo (an LRU of 16,384 melds, about 10 MB)
then holds what these hands need, and is as full as it ever gets. What is measured is what a big
batch leaves behind beyond that bounded table: nothing more than 10%.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

import pytest
from conftest import RedisServer

from api.resources.batch import BATCH_ANSWER_BUDGET_BYTES
from tests.support.processes import GunicornProcess, poll_until, start_gunicorn

pytestmark = pytest.mark.slow

PATH = "/v1/games/three-thirteen/melds"
MAX_BYTES = 5 * 1024 * 1024
MAX_SECONDS = 3.0


def _hand(i: int) -> list[str]:
    """Four wild kings (round 11), two more, and two runs: hundreds of meld choices."""
    suits = "SHDC"
    a, b = suits[i % 4], suits[(i // 4) % 4]
    if a == b:
        b = suits[(i + 1) % 4]
    start = 2 + i % 5
    runs = [f"{r}{a}" for r in range(start, start + 5)] + [
        f"{r}{b}" for r in range(start, start + 3)
    ]
    return ["KS", "KH", "KD", "KC", "KS", "KH", *runs]


def _items(limit: int) -> list[dict[str, Any]]:
    return [
        {
            "method": "POST",
            "path": PATH,
            "body": {"round": 11, "decks": 8, "hand": _hand(i), "max_ties": 100, "limit": limit},
        }
        for i in range(50)
    ]


ITEMS = _items(1000)


@pytest.fixture
def service(redis_server: RedisServer, tmp_path: Path) -> Iterator[GunicornProcess]:
    env = {"WEB_CONCURRENCY": "1", "REDIS_URL": redis_server.url}
    service = start_gunicorn(tmp_path / "gunicorn.log", env)
    try:
        yield service
    finally:
        service.stop()


def _post(port: int, path: str, body: Any) -> tuple[int, bytes, float]:
    connection = HTTPConnection("127.0.0.1", port, timeout=60)
    start = time.monotonic()
    try:
        connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        response = connection.getresponse()
        data = response.read()
        return response.status, data, time.monotonic() - start
    finally:
        connection.close()


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_big_batch_stays_within_its_budgets(service: GunicornProcess) -> None:
    (worker,) = service.workers()
    status, single, _ = _post(service.port, PATH, ITEMS[0]["body"])
    assert status == 200 and len(single) > 200_000
    for warm in _items(999):
        assert _post(service.port, PATH, warm["body"])[0] == 200
    assert _post(service.port, "/v1/batch", {"requests": ITEMS[:2]})[0] == 200
    before = _rss_kb(worker)

    first_served = 0
    for attempt in ("first", "repeat"):
        status, data, seconds = _post(service.port, "/v1/batch", {"requests": ITEMS})
        assert status == 200
        assert len(data) <= MAX_BYTES and seconds <= MAX_SECONDS, (attempt, len(data), seconds)
        answers = json.loads(data)["responses"]
        statuses = [a["status"] for a in answers]
        served = statuses.count(200)
        assert served >= 5 and set(statuses) <= {200, 413, 503}, statuses
        assert statuses[:served] == [200] * served  # answered in order until a budget ran out
        for answer in answers[served:]:
            assert "budget" in answer["body"]["detail"], answer
        bodies = sum(len(json.dumps(a["body"], separators=(",", ":"))) for a in answers)
        assert bodies <= BATCH_ANSWER_BUDGET_BYTES, bodies
        if attempt == "repeat":  # the first batch's big answers were cached (compressed)
            assert {a["cache"] for a in answers[:first_served]} == {"HIT"}, statuses
        first_served = served

    def settled() -> bool:
        return _rss_kb(worker) <= before * 1.10

    poll_until(settled, 10, lambda: f"RSS {_rss_kb(worker)} kB, before {before} kB", step=0.5)
