"""One access log line per request, JSON, with the request id, from one place (the app).

Real gunicorn (``gunicorn.conf.py``, two workers): every request, answered 200, 4xx or 404 by
any worker, is logged exactly once by ``api.access`` with the id the answer carried in
``X-Request-ID``; gunicorn's own access log (``gunicorn.access``), which ``logconfig_dict``
would otherwise turn on, writes nothing.
"""

from __future__ import annotations

import json
import time
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

import pytest

from tests.support.processes import start_gunicorn

pytestmark = pytest.mark.slow

REQUESTS: list[tuple[str, str, Any]] = [
    ("GET", "/healthz", None),
    ("POST", "/v1/games/game-flip-flop/melds", {"hand": ["AS", "2S", "3S", "KD"]}),
    ("POST", "/v1/games/game-flip-flop/melds", {"hand": ["AS", "2S", "3S", "KD"]}),
    ("POST", "/v1/games/game-flip-flop/melds", {"hand": ["ZZ"]}),
    ("GET", "/nowhere", None),
    ("GET", "/v1/games", None),
]


def _send(port: int, method: str, path: str, body: Any, request_id: str) -> tuple[int, str]:
    connection = HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"X-Request-ID": request_id}
    payload = None
    if body is not None:
        headers["Content-Type"] = "application/json"
        payload = json.dumps(body)
    try:
        connection.request(method, path, body=payload, headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status, response.getheader("X-Request-ID") or ""
    finally:
        connection.close()


def _json_lines(text: str) -> list[dict[str, Any]]:
    out = []
    for line in text.splitlines():
        if line.startswith("{"):
            try:
                out.append(json.loads(line))
            except ValueError:
                continue
    return out


def test_one_json_access_line_per_request(tmp_path: Path) -> None:
    log = tmp_path / "gunicorn.log"
    env = {"WEB_CONCURRENCY": "2", "GUNICORN_THREADS": "1", "REDIS_URL": ""}
    service = start_gunicorn(log, env)
    sent: dict[str, tuple[str, str, int]] = {}
    try:
        for round_number in range(3):
            for index, (method, path, body) in enumerate(REQUESTS):
                rid = f"access-{round_number}-{index}"
                status, echoed = _send(service.port, method, path, body, rid)
                assert echoed == rid
                sent[rid] = (method, path, status)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            access = [r for r in _json_lines(log.read_text()) if r.get("event") == "access"]
            if len({r.get("request_id") for r in access} & set(sent)) == len(sent):
                break
            time.sleep(0.1)
    finally:
        service.stop()
    records = _json_lines(log.read_text())
    ours = [r for r in records if r.get("request_id") in sent and r.get("event") == "access"]
    # Exactly one line per request, from api.access, saying what was asked and answered.
    assert sorted(r["request_id"] for r in ours) == sorted(sent)
    for record in ours:
        method, path, status = sent[record["request_id"]]
        assert record["logger"] == "api.access"
        assert (record["method"], record["path"], record["status"]) == (method, path, status)
        assert isinstance(record["duration_ms"], float | int) and record["duration_ms"] >= 0
        assert record["ts"]
    # Nothing else logs the requests: no gunicorn.access line, no plain-text access line.
    assert not [r for r in records if r.get("logger") == "gunicorn.access"]
    text = log.read_text()
    for rid in sent:
        assert text.count(rid) == 1, rid
    assert f'"{REQUESTS[1][0]} {REQUESTS[1][1]} HTTP/1.1"' not in text
