"""Every problem ``code`` the service has, produced by a real request, with its ``type`` page.

A client branches on ``code``; ``type`` is ``/problems/<code with hyphens>``, served by the app;
``request_id`` equals the ``X-Request-ID`` answer header. The list of codes lives in
``api.http.problems`` and is the ``enum`` of ``Problem.code`` in the spec and the table in
docs/problems.md: each is checked here, and each code is produced at least once below.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from flask import Flask, abort
from flask.testing import FlaskClient

from api.http.problems import BY_CODE, CODES, KINDS, classify
from api.server.error_log import problem_bytes
from tests.support.bodies import MAXIMAL_KNOCK

REPO_ROOT = Path(__file__).resolve().parents[2]
GFF_MELDS = "/v1/games/game-flip-flop/melds"
JSON = "application/json"


def problem_code(response: Any, status: int) -> str:
    """Check the problem's shape (type page, code, request id) and return its code."""
    assert response.status_code == status, response.get_data(as_text=True)[:400]
    assert response.mimetype == "application/problem+json"
    body: dict[str, Any] = response.get_json(force=True)
    code = body["code"]
    assert code in CODES
    assert BY_CODE[code].status == status
    assert body["type"] == "/problems/" + code.replace("_", "-")
    assert body["request_id"] == response.headers["X-Request-ID"]
    assert body["status"] == status and body["title"] and body["detail"]
    return str(code)


# (code, method, path, json body or raw bytes, content type, status)
REQUESTS: list[tuple[str, str, str, Any, str, int]] = [
    ("invalid_json", "post", GFF_MELDS, b'{"hand": [', JSON, 400),
    ("not_found", "get", "/nowhere", None, "", 404),
    ("unknown_game", "post", "/v1/games/gin-rummy/melds", {"hand": ["AS"]}, "", 404),
    ("unknown_endpoint", "post", "/v1/games/game-flip-flop/nope", {"hand": ["AS"]}, "", 404),
    ("unknown_rule", "get", "/v1/rules/GFF-999", None, "", 404),
    ("method_not_allowed", "put", GFF_MELDS, {"hand": ["AS"]}, "", 405),
    ("payload_too_large", "post", GFF_MELDS, b'{"hand": ["' + b"A" * 300_000 + b'"]}', JSON, 413),
    ("unsupported_media_type", "post", GFF_MELDS, b"hand=AS", "text/plain", 415),
    ("validation_error", "post", GFF_MELDS, {"hand": ["AS"], "colour": "red"}, "", 422),
    ("validation_error", "post", GFF_MELDS, {}, "", 422),
    ("invalid_card", "post", GFF_MELDS, {"hand": ["AS", "ZZ"]}, "", 422),
    ("invalid_card", "post", "/v1/games/triple-tunk/melds", {"hand": ["AS"]}, "", 422),
    ("invalid_card", "post", "/v1/games/triple-tunk/melds", {"hand": ["ZZ9"]}, "", 422),
    ("invalid_card", "post", GFF_MELDS, {"hand": [5]}, "", 422),
    ("duplicate_card", "post", GFF_MELDS, {"hand": ["AS", "2S", "AS"]}, "", 422),
    (
        "hand_too_large",
        "post",
        GFF_MELDS,
        {"hand": ["AS", "2S", "3S", "4S", "5S", "6S", "7S"]},
        "",
        422,
    ),
    (
        "wrong_hand_size",
        "post",
        "/v1/games/three-thirteen/draw",
        {"hand": ["AS"], "round": 11, "players": 3},
        "",
        422,
    ),
    (
        "invalid_rule_option",
        "post",
        GFF_MELDS,
        {"hand": ["AS"], "rules": {"jokers": "wild"}},
        "",
        422,
    ),
    ("work_cap", "post", "/v1/games/triple-tunk/knock", MAXIMAL_KNOCK, "", 422),
]


@pytest.mark.parametrize(
    ("code", "method", "path", "body", "content_type", "status"),
    REQUESTS,
    ids=[f"{r[0]}-{i}" for i, r in enumerate(REQUESTS)],
)
def test_each_request_answers_its_code(
    client: FlaskClient,
    code: str,
    method: str,
    path: str,
    body: Any,
    content_type: str,
    status: int,
) -> None:
    send = getattr(client, method)
    if isinstance(body, bytes):
        response = send(path, data=body, content_type=content_type)
    else:
        response = send(path, json=body)
    assert problem_code(response, status) == code


def test_rate_limited(make_app: Any) -> None:
    client = make_app(RATE_LIMIT_REQUESTS=1, RATE_LIMIT_WINDOW_SECONDS=3600).test_client()
    assert client.post(GFF_MELDS, json={"hand": ["AS"]}).status_code == 200
    response = client.post(GFF_MELDS, json={"hand": ["AS"]})
    assert problem_code(response, 429) == "rate_limited"
    assert int(response.headers["Retry-After"]) >= 1


def test_deadline_exceeded(make_app: Any) -> None:
    app = make_app(REQUEST_DEADLINE_SECONDS=0.2)

    @app.post("/v1/probe/slow")
    def slow() -> Any:  # pure Python work the deadline stops
        total = 0
        for i in range(10**10):
            total += i
        return {"total": total}

    started = time.monotonic()
    response = app.test_client().post("/v1/probe/slow", json={})
    assert time.monotonic() - started < 5
    assert problem_code(response, 503) == "deadline_exceeded"


def test_internal_error_and_bad_request(probe_app: Flask) -> None:
    @probe_app.get("/probe-bad-request")
    def bad_request() -> Any:
        abort(400)

    client = probe_app.test_client()
    crash = client.post("/v1/probe/game-flip-flop/echo", json={"hand": ["AS"], "fail": "crash"})
    assert problem_code(crash, 500) == "internal_error"
    assert "secret" not in crash.get_data(as_text=True)
    assert problem_code(client.get("/probe-bad-request"), 400) == "bad_request"


def test_batch_items_carry_codes(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    item = {"method": "POST", "path": "/v1/batch", "body": {}}
    response = client.post("/v1/batch", json={"requests": [item]}, headers={"X-Request-ID": "b"})
    (answer,) = response.get_json()["responses"]
    body = answer["body"]
    assert (answer["status"], body["code"], body["type"]) == (
        422,
        "not_batchable",
        "/problems/not-batchable",
    )
    assert body["request_id"] == "b.0"
    item = {"method": "POST", "path": GFF_MELDS, "body": {"hand": ["AS"]}}
    monkeypatch.setattr("api.resources.batch.BATCH_ANSWER_BUDGET_BYTES", 10)
    (answer,) = client.post("/v1/batch", json={"requests": [item]}).get_json()["responses"]
    assert (answer["status"], answer["body"]["code"]) == (413, "batch_answer_too_large")
    assert answer["body"]["type"] == "/problems/batch-answer-too-large"
    monkeypatch.setattr("api.resources.batch.BATCH_WORK_BUDGET_SECONDS", -1.0)
    (answer,) = client.post("/v1/batch", json={"requests": [item]}).get_json()["responses"]
    assert (answer["status"], answer["body"]["code"]) == (503, "batch_budget_spent")


@pytest.mark.parametrize(
    ("status", "reason", "code"),
    [
        (414, "Request-URI Too Long", "uri_too_long"),
        (431, "Request Header Fields Too Large", "headers_too_large"),
        (501, "Not Implemented", "not_implemented"),
        (400, "Bad Request", "bad_request"),
    ],
)
def test_gunicorn_level_problems_carry_codes(status: int, reason: str, code: str) -> None:
    """gunicorn answers these before the app sees the request (api.server.error_log)."""
    head, _, raw = problem_bytes(status, reason, "gunicorn's message").partition(b"\r\n\r\n")
    body = json.loads(raw)
    assert (body["status"], body["code"], body["type"]) == (
        status,
        code,
        "/problems/" + code.replace("_", "-"),
    )
    assert f"X-Request-ID: {body['request_id']}".encode() in head.split(b"\r\n")


def test_client_request_id_is_echoed_in_the_problem(client: FlaskClient) -> None:
    response = client.post(GFF_MELDS, json={"hand": ["ZZ"]}, headers={"X-Request-ID": "abc-123"})
    assert response.get_json()["request_id"] == "abc-123"
    assert response.headers["X-Request-ID"] == "abc-123"


def test_classify_falls_back_on_the_status() -> None:
    assert classify(404, {"game": ["x"]}) == "unknown_game"
    assert classify(404, None) == "not_found"
    assert classify(422, {"rules.aces": ["Must be one of: low."]}) == "invalid_rule_option"
    assert classify(422, {"seat": ["out of range"]}) == "validation_error"
    assert classify(418, None) == "bad_request"
    assert classify(502, None) == "internal_error"


# Codes the tests below REQUESTS produce, each in its own test.
PRODUCED_BY_OTHER_TESTS = {
    "rate_limited": "test_rate_limited",
    "deadline_exceeded": "test_deadline_exceeded",
    "internal_error": "test_internal_error_and_bad_request",
    "bad_request": "test_internal_error_and_bad_request",
    "not_batchable": "test_batch_items_carry_codes",
    "batch_budget_spent": "test_batch_items_carry_codes",
    "batch_answer_too_large": "test_batch_items_carry_codes",
    "request_timeout": "test_timeout_answer_is_a_408_problem",
    "uri_too_long": "test_gunicorn_level_problems_carry_codes",
    "headers_too_large": "test_gunicorn_level_problems_carry_codes",
    "not_implemented": "test_gunicorn_level_problems_carry_codes",
}


def test_every_code_is_produced_by_a_test() -> None:
    produced = {request[0] for request in REQUESTS} | set(PRODUCED_BY_OTHER_TESTS)
    assert produced == set(CODES)
    elsewhere = {"test_timeout_answer_is_a_408_problem"}  # tests/api/test_request_reader.py
    assert all(name in globals() or name in elsewhere for name in PRODUCED_BY_OTHER_TESTS.values())


@pytest.mark.parametrize("kind", KINDS, ids=[k.code for k in KINDS])
def test_each_type_uri_is_a_served_page(client: FlaskClient, kind: Any) -> None:
    page = client.get(kind.type_uri)
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert f"<code>{kind.code}</code>" in page.get_data(as_text=True)
    as_json = client.get(kind.type_uri, headers={"Accept": "application/json"}).get_json()
    assert as_json == {
        "type": kind.type_uri,
        "code": kind.code,
        "status": kind.status,
        "title": kind.title,
        "explanation": kind.explanation,
    }


def test_problem_index_lists_every_kind(client: FlaskClient) -> None:
    listed = client.get("/problems", headers={"Accept": "application/json"}).get_json()
    assert [p["code"] for p in listed["problems"]] == list(CODES)
    assert client.get("/problems/no-such-kind").get_json()["code"] == "not_found"


def test_codes_are_in_the_spec_and_the_docs() -> None:
    spec = yaml.safe_load((REPO_ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    problem = spec["components"]["schemas"]["Problem"]["properties"]
    assert problem["code"]["enum"] == list(CODES)
    assert {"type", "code", "request_id"} <= set(problem)
    doc = (REPO_ROOT / "docs" / "problems.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z_]+)` \| (\d{3}) \| `(/problems/[a-z-]+)` \|", doc, re.M)
    assert [(c, int(s), t) for c, s, t in rows] == [(k.code, k.status, k.type_uri) for k in KINDS]
