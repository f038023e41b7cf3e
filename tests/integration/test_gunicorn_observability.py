"""Real gunicorn with three workers: metrics summed across workers, JSON access log, request ids.

Each request goes on a fresh connection, so the workers share them; ``/metrics`` must count every
request whichever worker answers the scrape (Prometheus multiprocess mode via
``PROMETHEUS_MULTIPROC_DIR`` and ``api.server.hooks``). The access log on stdout must be one
JSON object per request with timestamp, request id, route, status, duration and cache result.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from http.client import HTTPConnection
from pathlib import Path

import pytest

from tests.support.bodies import MAXIMAL_ACCEPTED
from tests.support.processes import start_gunicorn

pytestmark = pytest.mark.slow


def _request(
    port: int, method: str, path: str, body: object = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    connection = HTTPConnection("127.0.0.1", port, timeout=10)
    sent = dict(headers or {})
    payload = None
    if body is not None:
        sent["Content-Type"] = "application/json"
        payload = json.dumps(body)
    try:
        connection.request(method, path, body=payload, headers=sent)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


@pytest.fixture
def gunicorn(tmp_path: Path) -> Iterator[tuple[int, Path, Path]]:
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    env = {
        "WEB_CONCURRENCY": "3",
        # Sync workers serve one connection at a time, so sequential requests reach several
        # workers (a threaded worker may take them all); the metrics are summed the same way.
        "GUNICORN_THREADS": "1",
        "REDIS_URL": "",
        "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir),
    }
    log = tmp_path / "gunicorn.log"
    service = start_gunicorn(log, env)
    try:
        yield service.port, metrics_dir, log
    finally:
        service.stop()


_LINE = re.compile(r"^(?P<name>[a-z_]+)\{(?P<labels>[^}]*)\} (?P<value>\S+)$", re.M)


def _sample(text: str, name: str, labels: str) -> float:
    """The value of ``name{labels}`` (label order does not matter)."""
    want = set(labels.split(","))
    for match in _LINE.finditer(text):
        if match.group("name") == name and set(match.group("labels").split(",")) == want:
            return float(match.group("value"))
    raise AssertionError(f"{name}{{{labels}}} missing")


def test_metrics_sum_over_workers_and_logs_are_json(gunicorn: tuple[int, Path, Path]) -> None:
    port, metrics_dir, log = gunicorn
    # Three slow requests at once: a sync worker serves one at a time, so once several workers
    # are up, at least two answer. A loaded machine may still be booting the other workers when
    # the first round arrives (one worker then takes all three), so rounds repeat until two
    # workers have answered or a minute has passed.
    path, body = MAXIMAL_ACCEPTED[0]
    deadline = time.monotonic() + 60
    workers: set[str] = set()
    round_number = 0
    while len(workers) < 2 and time.monotonic() < deadline:
        slow = [
            threading.Thread(
                target=_request, args=(port, "POST", path, {**body, "seed": 3 * round_number + n})
            )
            for n in range(3)
        ]
        for thread in slow:
            thread.start()
        for thread in slow:
            thread.join()
        round_number += 1
        workers = {p.name.split("_")[1].split(".")[0] for p in metrics_dir.glob("counter_*.db")}
    assert len(workers) >= 2, "the requests were not shared by several workers"
    for _ in range(30):
        assert _request(port, "GET", "/v1/games")[0] == 200
    for i in range(10):
        status, headers, _ = _request(
            port,
            "POST",
            "/v1/games/game-flip-flop/melds",
            {"hand": ["AS", "2S", "3S"]},
            {"X-Request-ID": f"it-{i}"},
        )
        assert status == 200 and headers["x-request-id"] == f"it-{i}"
    for _ in range(4):  # whichever worker answers the scrape, the sums are the same
        status, headers, raw = _request(port, "GET", "/metrics")
        assert status == 200 and headers["content-type"].startswith("text/plain")
        text = raw.decode()
        games = 'method="GET",route="/v1/games",status="200"'
        melds = 'method="POST",route="/v1/games/game-flip-flop/melds",status="200"'
        assert _sample(text, "tunk_http_requests_total", games) == 30
        assert _sample(text, "tunk_http_requests_total", melds) == 10
        assert _sample(text, "tunk_http_request_duration_seconds_count", melds) == 10
        route = 'route="/v1/games/game-flip-flop/melds"'
        hits = _sample(text, "tunk_cache_results_total", route + ',result="HIT"')
        misses = _sample(text, "tunk_cache_results_total", route + ',result="MISS"')
        assert hits + misses == 10 and 1 <= misses <= 3  # one MISS per worker at most
    time.sleep(0.2)
    lines = [line for line in log.read_text().splitlines() if line.strip()]
    records = [json.loads(line) for line in lines]  # every line is JSON, gunicorn's own too
    assert any("Booting worker" in r["message"] for r in records)
    access = [r for r in records if r.get("event") == "access"]
    melds_logs = [r for r in access if r["route"] == "/v1/games/game-flip-flop/melds"]
    assert {r["request_id"] for r in melds_logs} == {f"it-{i}" for i in range(10)}
    for record in melds_logs:
        assert record["status"] == 200 and record["method"] == "POST"
        assert record["cache"] in ("HIT", "MISS")
        assert record["duration_ms"] >= 0 and record["ts"].endswith("+00:00")
    assert "Control server error" not in log.read_text()
