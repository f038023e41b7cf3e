"""Every failure is RFC 9457 problem+json with field paths, and nothing a client sends is a 500.

Uses the probe route from conftest (``POST /v1/probe/<game>/echo``) so the error machinery is
tested independently of the real endpoints; tests/api/test_bad_inputs.py covers those.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest
from flask import Flask
from werkzeug.test import TestResponse

from api.http.errors import MAX_JSON_DEPTH, flatten_messages, parse_json_body, problem
from api.http.problems import CODES

PROBE = "/v1/probe/game-flip-flop/echo"


def assert_problem(response: TestResponse, status: int) -> dict[str, Any]:
    """The response is a well-formed problem with ``status``; returns its body."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body: dict[str, Any] = response.get_json(force=True)
    assert body["type"] == f"/problems/{body['code'].replace('_', '-')}"
    assert body["code"] in CODES
    assert body["request_id"] == response.headers["X-Request-ID"]
    assert body["status"] == status
    assert isinstance(body["title"], str) and body["title"]
    assert isinstance(body["detail"], str) and body["detail"]
    assert "Traceback" not in response.get_data(as_text=True)
    return body


# --- flattening ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("messages", "expected"),
    [
        ({"json": {"hand": {0: ["Not a card."]}}}, {"hand[0]": ["Not a card."]}),
        (
            {"json": {"table": {1: {"cards": {2: ["Bad."]}}}}},
            {"table[1].cards[2]": ["Bad."]},
        ),
        (
            {"json": {"rules": {"aces": ["Must be one of: low."]}}},
            {"rules.aces": ["Must be one of: low."]},
        ),
        ({"json": {"_schema": ["Whole body wrong."]}}, {"body": ["Whole body wrong."]}),
        ({"json": {"table": {0: {"_schema": ["Not a meld."]}}}}, {"table[0]": ["Not a meld."]}),
        ({"json": ["Invalid JSON body."]}, {"body": ["Invalid JSON body."]}),
        ({"json": {"hand": {"3": ["Dup."]}}}, {"hand[3]": ["Dup."]}),
        ({"json": {"a": ["x"], "b": {"c": "single"}}}, {"a": ["x"], "b.c": ["single"]}),
        ({"view_args": {"game": ["Unknown."]}}, {"game": ["Unknown."]}),
        ({"hand": {0: ["No location level."]}}, {"hand[0]": ["No location level."]}),
    ],
)
def test_flatten_messages(messages: Any, expected: dict[str, list[str]]) -> None:
    assert flatten_messages(messages) == expected


def test_flatten_keeps_every_message_of_a_field() -> None:
    flat = flatten_messages({"json": {"hand": {0: ["one", "two"], 4: ["three"]}}})
    assert flat == {"hand[0]": ["one", "two"], "hand[4]": ["three"]}


# --- the helper -----------------------------------------------------------------------------------


def test_problem_helper_shape(app: Flask) -> None:
    with app.test_request_context("/", headers={"X-Request-ID": "req-1"}):
        app.preprocess_request()
        response = problem(422, "seat 9 is not at this table", {"seat": ["out of range"]})
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
    assert response.get_json(force=True) == {
        "type": "/problems/validation-error",
        "title": "Unprocessable Content",
        "status": 422,
        "detail": "seat 9 is not at this table",
        "code": "validation_error",
        "request_id": "req-1",
        "errors": {"seat": ["out of range"]},
    }


def test_problem_helper_omits_empty_errors(app: Flask) -> None:
    with app.test_request_context("/"):
        body = problem(404, "unknown game 'poker'").get_json(force=True)
    assert "errors" not in body and body["title"] == "Not Found"


# --- routing --------------------------------------------------------------------------------------


def test_unknown_path_is_404_problem(probe_app: Flask) -> None:
    body = assert_problem(probe_app.test_client().get("/v1/nothing-here"), 404)
    assert "/v1/nothing-here" in body["detail"]


def test_unknown_path_with_bad_body_is_still_404(probe_app: Flask) -> None:
    response = probe_app.test_client().post("/v1/nope", data="{not json", content_type="text/plain")
    assert_problem(response, 404)


def test_wrong_method_is_405_with_allow(probe_app: Flask) -> None:
    response = probe_app.test_client().get(PROBE)
    assert_problem(response, 405)
    assert "POST" in response.headers["Allow"]
    response = probe_app.test_client().delete("/healthz")
    assert_problem(response, 405)
    assert "GET" in response.headers["Allow"]


# --- the body guard -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "application/xml", None]
)
def test_non_json_content_type_is_415(probe_app: Flask, content_type: str | None) -> None:
    kwargs: dict[str, Any] = {"data": '{"hand": ["AS"]}'}
    if content_type:
        kwargs["content_type"] = content_type
    assert_problem(probe_app.test_client().post(PROBE, **kwargs), 415)


def test_json_suffix_and_charset_are_accepted(probe_app: Flask) -> None:
    client = probe_app.test_client()
    for content_type in ("application/json; charset=utf-8", "application/problem+json"):
        response = client.post(PROBE, data='{"hand": ["AS"]}', content_type=content_type)
        assert response.status_code == 200, response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        (b"{not json", "syntax"),
        (b"", "empty body"),
        (b'{"hand": ["AS"]', "truncated"),
        (b'{"hand": ["AS"]} trailing', "trailing data"),
        (b'{"hand": [NaN]}', "NaN is not JSON"),
        (b'{"hand": [Infinity]}', "Infinity is not JSON"),
        (b'{"hand": ["\xff\xfe"]}', "invalid UTF-8"),
        (b'{"n": ' + b"9" * 5000 + b"}", "integer too long to convert"),
        (b"[" * 20_000 + b"]" * 20_000, "nesting past the recursion limit"),
        (b'{"a":' * 10_000 + b"1" + b"}" * 10_000, "deep objects"),
        (b"[" * (MAX_JSON_DEPTH + 1) + b"]" * (MAX_JSON_DEPTH + 1), "just past the depth limit"),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_unparsable_body_is_400_on_body(probe_app: Flask, raw: bytes, why: str) -> None:
    response = probe_app.test_client().post(PROBE, data=raw, content_type="application/json")
    body = assert_problem(response, 400)
    assert list(body["errors"]) == ["body"], why


def test_depth_limit_allows_realistic_nesting() -> None:
    value, reason = parse_json_body(b'{"table": [{"cards": ["AS"], "added": [{"card": "2S"}]}]}')
    assert reason is None and value["table"][0]["cards"] == ["AS"]
    nested = b"[" * MAX_JSON_DEPTH + b"]" * MAX_JSON_DEPTH
    assert parse_json_body(nested)[1] is None


@pytest.mark.parametrize(
    "raw", [b"[]", b'["AS", "TH"]', b'"hand"', b"42", b"null", b"true"], ids=repr
)
def test_body_that_is_not_an_object_is_422_on_body(probe_app: Flask, raw: bytes) -> None:
    response = probe_app.test_client().post(PROBE, data=raw, content_type="application/json")
    body = assert_problem(response, 422)
    assert body["errors"] == {"body": ["The request body must be a JSON object."]}


def test_body_over_the_limit_is_413(make_probe_app: Any) -> None:
    app = make_probe_app(MAX_BODY_BYTES=2048)
    client = app.test_client()
    big = '{"hand": ["AS"], "pad": "' + "x" * 4000 + '"}'
    body = assert_problem(client.post(PROBE, data=big, content_type="application/json"), 413)
    assert "2048" in body["detail"]
    # Just under the limit is parsed (and then rejected by validation for the unknown field).
    small = '{"hand": ["AS"], "pad": "' + "x" * 1000 + '"}'
    assert client.post(PROBE, data=small, content_type="application/json").status_code == 422


def test_default_body_limit_is_64_kib(probe_app: Flask) -> None:
    assert probe_app.config["MAX_CONTENT_LENGTH"] == 64 * 1024
    huge = '{"hand": [' + ", ".join(['"AS"'] * 20_000) + "]}"
    response = probe_app.test_client().post(PROBE, data=huge, content_type="application/json")
    assert_problem(response, 413)


# --- validation and engine errors -----------------------------------------------------------------


def test_webargs_validation_is_422_with_flat_paths(probe_app: Flask) -> None:
    request = {
        "hand": ["AS", "TOOLONG"],
        "table": [{"owner": 0, "cards": ["2S", "3S"]}, {"owner": "x", "cards": ["4S", "X"]}],
        "rules": {"aces": "sideways"},
        "surprise": 1,
    }
    body = assert_problem(probe_app.test_client().post(PROBE, json=request), 422)
    assert set(body["errors"]) == {
        "hand[1]",
        "table[1].owner",
        "table[1].cards[1]",
        "rules.aces",
        "surprise",
    }
    assert all(isinstance(m, list) and m for m in body["errors"].values())
    assert body["detail"].startswith("Invalid request: ")


def test_missing_required_field_is_422(probe_app: Flask) -> None:
    body = assert_problem(probe_app.test_client().post(PROBE, json={}), 422)
    assert list(body["errors"]) == ["hand"]


def test_engine_error_is_422_at_its_field(probe_app: Flask) -> None:
    response = probe_app.test_client().post(PROBE, json={"hand": ["AS", "TH"], "fail": "engine"})
    body = assert_problem(response, 422)
    assert body["errors"] == {"hand[1]": ["TH is not allowed here"]}
    assert body["detail"] == "TH is not allowed here"


def test_engine_error_without_field_points_at_body(probe_app: Flask) -> None:
    response = probe_app.test_client().post(PROBE, json={"hand": ["AS"], "fail": "engine-no-field"})
    body = assert_problem(response, 422)
    assert body["errors"] == {"body": ["the hand cannot be played"]}


@pytest.mark.parametrize("fail", ["crash", "recursion"])
def test_unexpected_exception_is_500_without_details(
    probe_app: Flask, fail: str, caplog: pytest.LogCaptureFixture
) -> None:
    logging.getLogger("api").propagate = True  # let caplog see it
    try:
        with caplog.at_level(logging.ERROR, logger="api"):
            response = probe_app.test_client().post(PROBE, json={"hand": ["AS"], "fail": fail})
    finally:
        logging.getLogger("api").propagate = False
    body = assert_problem(response, 500)
    text = response.get_data(as_text=True)
    assert "secret internal detail" not in text and "RuntimeError" not in text
    assert "errors" not in body
    assert any("unhandled error" in r.getMessage() for r in caplog.records)


def test_get_routes_are_not_guarded(probe_app: Flask) -> None:
    response = probe_app.test_client().get("/healthz", data="junk", content_type="text/plain")
    assert response.status_code == 200
