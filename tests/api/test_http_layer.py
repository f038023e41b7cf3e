"""CORS, request ids, JSON logs, /metrics, ETag/304, gzip, the front door and guiding 404s."""

from __future__ import annotations

import gzip
import json
import logging
import re
from collections.abc import Callable, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api.http.cors import PREFLIGHT_MAX_AGE, parse_origins
from api.http.observability import JsonFormatter, choose_request_id

MELDS = "/v1/games/game-flip-flop/melds"
_SAMPLE = re.compile(r"^(?P<name>[a-z_]+)\{(?P<labels>[^}]*)\} (?P<value>\S+)$", re.M)


def metric(text: str, name: str, **labels: str) -> float:
    """The value of ``name`` with exactly ``labels`` (any order), 0 when absent."""
    want = {f'{k}="{v}"' for k, v in labels.items()}
    for match in _SAMPLE.finditer(text):
        if match.group("name") == name and set(match.group("labels").split(",")) == want:
            return float(match.group("value"))
    return 0.0


HAND = {"hand": ["7H", "8H", "9H", "7S", "7D", "KC"]}


# --- CORS ---------------------------------------------------------------------------------------


def test_parse_origins() -> None:
    assert parse_origins(None) is None and parse_origins(" * ") is None
    assert parse_origins("https://a.example/, http://127.0.0.1:5173") == frozenset(
        {"https://a.example", "http://127.0.0.1:5173"}
    )


def test_default_allows_any_origin_and_exposes_headers(client: FlaskClient) -> None:
    response = client.post(MELDS, json=HAND, headers={"Origin": "http://teach.example"})
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    exposed = response.headers["Access-Control-Expose-Headers"]
    assert "X-Cache" in exposed and "X-Request-ID" in exposed and "Retry-After" in exposed
    assert "Access-Control-Allow-Credentials" not in response.headers  # no credentials taken


def test_preflight_is_answered_and_cacheable(client: FlaskClient) -> None:
    response = client.options(
        MELDS,
        headers={
            "Origin": "http://teach.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type,x-request-id",
        },
    )
    assert response.status_code == 204
    assert response.headers["Access-Control-Max-Age"] == str(PREFLIGHT_MAX_AGE)
    assert "POST" in response.headers["Access-Control-Allow-Methods"]
    allowed = response.headers["Access-Control-Allow-Headers"].lower()
    assert "content-type" in allowed and "x-request-id" in allowed


def test_listed_origins_only(make_app: Callable[..., Flask]) -> None:
    client = make_app(CORS_ORIGINS="https://teach.example").test_client()
    ok = client.get("/v1/games", headers={"Origin": "https://teach.example"})
    assert ok.headers["Access-Control-Allow-Origin"] == "https://teach.example"
    assert "Origin" in ok.headers["Vary"]
    other = client.get("/v1/games", headers={"Origin": "https://elsewhere.example"})
    assert "Access-Control-Allow-Origin" not in other.headers
    preflight = client.options(
        MELDS,
        headers={"Origin": "https://elsewhere.example", "Access-Control-Request-Method": "POST"},
    )
    assert "Access-Control-Allow-Methods" not in preflight.headers


# --- request ids and logs -------------------------------------------------------------------------


def test_choose_request_id() -> None:
    assert choose_request_id("abc-123", None) == "abc-123"
    trace = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    assert choose_request_id(None, trace) == "4bf92f3577b34da6a3ce929d0e0e4736"
    assert choose_request_id("bad id with spaces", trace) == "4bf92f3577b34da6a3ce929d0e0e4736"
    generated = choose_request_id("x" * 200, "garbage")
    assert len(generated) == 32 and generated != "x" * 32


def test_request_id_echoed_generated_and_on_errors(client: FlaskClient) -> None:
    assert client.get("/healthz", headers={"X-Request-ID": "r-1"}).headers["X-Request-ID"] == "r-1"
    generated = client.get("/healthz").headers["X-Request-ID"]
    assert len(generated) == 32
    bad = client.post(MELDS, json={"hand": ["ZZ"]}, headers={"X-Request-ID": "r-2"})
    assert bad.status_code == 422 and bad.headers["X-Request-ID"] == "r-2"


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []
        self.setFormatter(JsonFormatter())

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture
def access_log() -> Iterator[_Capture]:
    handler = _Capture()
    logger = logging.getLogger("api.access")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)


def test_access_log_is_json_with_request_fields(client: FlaskClient, access_log: _Capture) -> None:
    client.post(MELDS, json=HAND, headers={"X-Request-ID": "log-1"})
    record = json.loads(access_log.lines[-1])
    assert record["request_id"] == "log-1"
    assert record["event"] == "access"
    assert record["method"] == "POST" and record["route"] == MELDS
    assert record["status"] == 200 and record["cache"] == "MISS"
    assert record["duration_ms"] >= 0
    assert record["ts"].endswith("+00:00") and record["level"] == "INFO"


def test_metrics_count_routes_and_cache_results(client: FlaskClient) -> None:
    def counts(text: str) -> tuple[float, float]:
        requests = metric(
            text, "tunk_http_requests_total", method="POST", route=MELDS, status="200"
        )
        return requests, metric(text, "tunk_cache_results_total", route=MELDS, result="HIT")

    before = counts(client.get("/metrics").get_data(as_text=True))
    client.post(MELDS, json={"hand": ["2C", "3C", "4C"]})
    client.post(MELDS, json={"hand": ["2C", "3C", "4C"]})
    after = client.get("/metrics").get_data(as_text=True)
    assert counts(after)[0] - before[0] == 2
    assert counts(after)[1] - before[1] == 1
    assert "tunk_http_request_duration_seconds_bucket" in after
    assert "tunk_advice_samples_total" in after and "tunk_cache_breaker_state" in after


def test_advice_samples_are_counted(client: FlaskClient) -> None:
    from api.resources.examples import ADVICE_EXAMPLES

    examples = ADVICE_EXAMPLES["game-flip-flop"]["knock"]
    body = dict(next(iter(examples.values()))["value"])
    body["samples"] = 37

    def value() -> float:
        text = client.get("/metrics").get_data(as_text=True)
        return metric(text, "tunk_advice_samples_total", game="game-flip-flop", endpoint="knock")

    before = value()
    assert client.post("/v1/games/game-flip-flop/knock", json=body).status_code == 200
    assert value() - before == 37


# --- conditional GETs and gzip ------------------------------------------------------------------


@pytest.mark.parametrize(
    "path", ["/v1/games", "/openapi.yaml", "/v1/rules", "/v1/rules/TT-14", "/"]
)
def test_static_documents_have_etag_and_304(client: FlaskClient, path: str) -> None:
    first = client.get(path)
    assert first.status_code == 200
    tag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "public, max-age=300"
    again = client.get(path, headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == tag
    changed = client.get(path, headers={"If-None-Match": '"something-else"'})
    assert changed.status_code == 200


def test_large_answers_are_gzipped_when_asked(client: FlaskClient) -> None:
    plain = client.get("/openapi.yaml")
    packed = client.get("/openapi.yaml", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert gzip.decompress(packed.data) == plain.data
    assert len(packed.data) * 4 < len(plain.data)
    assert packed.headers["ETag"] == plain.headers["ETag"][:-1] + '-gzip"'
    again = client.get(
        "/openapi.yaml",
        headers={"Accept-Encoding": "gzip", "If-None-Match": packed.headers["ETag"]},
    )
    assert again.status_code == 304
    small = client.get("/healthz", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in small.headers  # below the size threshold


def test_large_post_answer_gzipped(client: FlaskClient) -> None:
    body = {"round": 11, "hand": ["5S", "5H", "5D", "5C", "6S", "6H", "6D", "6C", "7S", "7H"]}
    body["hand"] += ["7D", "7C", "8S"]
    plain = client.post("/v1/games/three-thirteen/melds", json=body)
    packed = client.post(
        "/v1/games/three-thirteen/melds", json=body, headers={"Accept-Encoding": "gzip"}
    )
    assert len(plain.data) > 2048
    assert packed.headers["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(packed.data)) == plain.get_json()


# --- front door and 404s ------------------------------------------------------------------------


def test_front_door(client: FlaskClient) -> None:
    body = client.get("/").get_json()
    assert body["service"] == "Tunk Hand Analysis"
    assert body["games"] == ["game-flip-flop", "triple-tunk", "three-thirteen"]
    for name in ("docs", "openapi", "games", "rules"):
        assert client.get(body["links"][name]).status_code == 200, name


@pytest.mark.parametrize(
    ("path", "suggestion"),
    [
        ("/v1/games/gin-rummy/melds", None),
        ("/v1/games/Game-Flip-Flop/melds", "game-flip-flop"),
        ("/v1/games/game_flip_flop/melds", "game-flip-flop"),
        ("/v1/games/tripletunk/settle", "triple-tunk"),
    ],
)
def test_unknown_game_lists_the_valid_ones(
    client: FlaskClient, path: str, suggestion: str | None
) -> None:
    response = client.post(path, json=HAND)
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"
    problem = response.get_json()
    assert "game-flip-flop, triple-tunk, three-thirteen" in problem["detail"]
    assert "GET /v1/games" in problem["detail"]
    assert list(problem["errors"]) == ["game"]
    if suggestion:
        assert f"Did you mean '{suggestion}'?" in problem["detail"]


def test_missing_endpoint_of_a_known_game_lists_its_endpoints(client: FlaskClient) -> None:
    problem = client.post("/v1/games/three-thirteen/early-tunk", json={}).get_json()
    assert problem["status"] == 404
    assert "arrangement, discard, draw, melds, settle" in problem["detail"]
    assert client.get(MELDS).status_code == 405  # wrong method is still a 405
    assert client.get("/nowhere").status_code == 404
