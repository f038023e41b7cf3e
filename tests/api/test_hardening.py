"""Regression tests for what an attacker tried: every case answers with its documented status.

Each numbered case of the hardening review is one test (or one parametrised group) below: a slow
handler, lone surrogates, non-ASCII digit field names, huge integers, cache pollution, stale
answers across builds, chunked bodies past the limit, error amplification, loose booleans,
gunicorn's own errors, security headers, ``/readyz`` and impossible Triple Tunk tables.
"""

from __future__ import annotations

import copy
import io
import json
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
import redis
from conftest import RedisServer
from flask.testing import FlaskClient

from api.cache.fingerprint import fingerprint_of
from api.cache.store import ALIAS_PREFIX, KEY_PREFIX, NAMESPACE, current_cache
from api.http.errors import MAX_ERROR_ENTRIES, MAX_MESSAGE_CHARS
from api.resources.examples import (
    EARLY_TUNK_EXAMPLES,
    GFF_SETTLE_EXAMPLES,
    SIDE_POTS_EXAMPLE,
    T13_SETTLE_EXAMPLE,
    TT_KNOCK_EXAMPLES,
    TT_SETTLE_EXAMPLE,
)
from api.schemas.fields import MAX_MONEY
from api.schemas.melds import DEFAULT_MELDS_LIMIT, MAX_MELDS_LIMIT
from api.server.error_log import problem_bytes
from tests.support.bodies import MAXIMAL_KNOCK

GFF = "/v1/games/game-flip-flop"
TT = "/v1/games/triple-tunk"
T13 = "/v1/games/three-thirteen"
PROBLEM = "application/problem+json"
HUGE = int("9" * 4300)  # the largest integer Python's JSON parser reads by default


def problem_of(response: Any, status: int) -> dict[str, Any]:
    """Assert a problem+json answer with ``status``; return its body."""
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    assert response.mimetype == PROBLEM
    body: dict[str, Any] = json.loads(response.get_data())
    assert body["status"] == status and body["type"] == "/problems/" + body["code"].replace(
        "_", "-"
    )
    return body


def post_raw(client: FlaskClient, path: str, raw: bytes) -> Any:
    return client.post(path, data=raw, content_type="application/json")


# --- 1. a handler past the request deadline ----------------------------------------------------


def test_1_a_handler_past_the_deadline_is_a_503_with_retry_after(make_probe_app: Any) -> None:
    app = make_probe_app(REQUEST_DEADLINE_SECONDS=0.3)

    @app.post("/v1/probe/slow")
    def slow() -> Any:  # pure Python work that would run for a minute
        total = 0
        for i in range(10**10):
            total += i
        return {"total": total}

    client = app.test_client()
    start = time.monotonic()
    body = problem_of(client.post("/v1/probe/slow", json={}), 503)
    assert time.monotonic() - start < 5  # stopped, not run to the end
    assert "deadline" in body["detail"]
    response = client.post("/v1/probe/slow", json={})
    assert int(response.headers["Retry-After"]) >= 1
    # The process (here: the test's thread) serves the next request normally.
    assert client.get("/healthz").status_code == 200
    assert client.post("/v1/probe/game-flip-flop/echo", json={"hand": ["AS"]}).status_code == 200
    assert app.extensions["tunk.deadline"].fired == 2


def test_1_the_reported_knock_request_ends_in_an_answer_or_a_503(make_app: Any) -> None:
    client = make_app(REQUEST_DEADLINE_SECONDS=0.5).test_client()
    response = client.post(f"{TT}/knock", json=MAXIMAL_KNOCK)
    assert response.status_code in (200, 422, 503)
    if response.status_code != 200:
        problem_of(response, response.status_code)


# --- 2. lone surrogates --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        (b'{"x":"\\ud800"}', "x"),
        (b'{"hand":["\\ud800"]}', "hand[0]"),
        (b'{"\\udfff":1,"hand":["AS"]}', "\udfff"),
    ],
)
def test_2_a_lone_surrogate_is_a_422(client: FlaskClient, raw: bytes, field: str) -> None:
    body = problem_of(post_raw(client, f"{GFF}/melds", raw), 422)
    assert field in body["errors"]


# --- 3. field names that are non-ASCII digits ---------------------------------------------------


@pytest.mark.parametrize("name", ["²", "٣", "３", "7"])
def test_3_a_digit_field_name_is_reported_as_a_name(client: FlaskClient, name: str) -> None:
    response = client.post(f"{GFF}/melds", json={"hand": ["AS", "2S", "3S"], name: 1})
    body = problem_of(response, 422)
    assert body["errors"] == {name: ["Unknown field."]}


# --- 4. huge integers ----------------------------------------------------------------------------


def _with(body: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(body)
    node = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return out


GFF_SETTLE = GFF_SETTLE_EXAMPLES["seed_drop_caught"]["value"]
BIG_INT_CASES = [
    (f"{GFF}/settle", GFF_SETTLE, ("stake",), "stake"),
    (f"{GFF}/settle", GFF_SETTLE, ("bankrolls", 0), "bankrolls[0]"),
    (f"{GFF}/early-tunk", EARLY_TUNK_EXAMPLES["game-flip-flop"], ("stake",), "stake"),
    (f"{GFF}/side-pots", SIDE_POTS_EXAMPLE, ("stake",), "stake"),
    (f"{GFF}/side-pots", {**SIDE_POTS_EXAMPLE, "flip_carry_in": 0}, ("flip_carry_in",), None),
    (f"{TT}/settle", TT_SETTLE_EXAMPLE, ("unit",), "unit"),
    (f"{TT}/settle", TT_SETTLE_EXAMPLE, ("outcome", "totals", 1), "outcome.totals[1]"),
    (f"{T13}/settle", T13_SETTLE_EXAMPLE, ("previous_totals", 2), "previous_totals[2]"),
    (f"{TT}/knock", TT_KNOCK_EXAMPLES["mid_hand"]["value"], ("unit",), "unit"),
]


@pytest.mark.parametrize(("path", "body", "where", "field"), BIG_INT_CASES)
@pytest.mark.parametrize("value", [HUGE, 10**309, MAX_MONEY + 1])
def test_4_huge_integers_are_a_422_naming_the_field(
    client: FlaskClient, path: str, body: dict[str, Any], where: tuple[Any, ...], field: str | None,
    value: int,
) -> None:  # fmt: skip
    response = client.post(path, json=_with(body, where, value))
    problem = problem_of(response, 422)
    if field is not None:
        assert field in problem["errors"], problem


def test_4_the_largest_money_still_settles(client: FlaskClient) -> None:
    body = _with(TT_SETTLE_EXAMPLE, ("unit",), MAX_MONEY)
    response = client.post(f"{TT}/settle", json=body)
    assert response.status_code == 200
    assert max(response.get_json()["net"]) == 3 * MAX_MONEY  # seat 0 wins a unit from three


def test_4_knock_stake_at_the_float_limit(client: FlaskClient) -> None:
    body = {"hand": ["7H", "8H", "KH", "QD", "2C"], "players": 3, "stake": 10**309}
    assert "stake" in problem_of(client.post(f"{GFF}/knock", json=body), 422)["errors"]


# --- 5. cache pollution --------------------------------------------------------------------------


def test_5_query_and_spelling_variants_store_nothing_more_in_redis(
    make_app: Any, redis_server: RedisServer
) -> None:
    app = make_app(REDIS_URL=redis_server.url)
    client = app.test_client()
    inspect = redis_server.client()
    try:
        spellings = ['"10S"', '"TS"', '" ts "', '"10s"']
        for n in range(30):
            card = spellings[n % len(spellings)]
            raw = f'{{"hand":["AS","2S",{card}]}}'.encode()
            response = client.post(
                f"{GFF}/melds?bust={n}", data=raw, content_type="application/json"
            )
            assert response.status_code == 200
        # 30 variants of one request: one answer in Redis and nothing per variant (request
        # aliases are remembered in each worker, never written to Redis).
        keys = [k.decode() for k in inspect.keys(KEY_PREFIX + "*")]
        assert len(keys) == 1 and not keys[0].startswith(ALIAS_PREFIX)
        assert inspect.strlen(keys[0]) > 4 * len(keys[0])
    finally:
        inspect.close()
        with app.app_context():
            current_cache().backend.close()  # type: ignore[attr-defined]


def test_5_answers_over_the_value_cap_are_served_but_not_stored(make_app: Any) -> None:
    client = make_app(CACHE_MAX_VALUE_BYTES=1024).test_client()
    body = {"hand": ["AS", "2S", "3S", "4S", "5S", "6S"]}
    first = client.post(f"{GFF}/melds", json=body)
    again = client.post(f"{GFF}/melds", json=body)
    assert len(first.get_data()) > 1024
    assert (first.headers["X-Cache"], again.headers["X-Cache"]) == ("BYPASS", "BYPASS")
    assert first.get_data() == again.get_data()


# --- 6. stale answers across builds --------------------------------------------------------------


def test_6_the_cache_namespace_is_a_fingerprint_of_the_code(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parent.parent.parent
    assert f"tunk:{NAMESPACE}:" == KEY_PREFIX and fingerprint_of(root) == NAMESPACE
    for package in ("engine", "api"):
        shutil.copytree(root / package, tmp_path / package)
    before = fingerprint_of(tmp_path)
    assert before == NAMESPACE
    rules = tmp_path / "engine" / "core" / "options.py"
    rules.write_text(rules.read_text() + "\n# a one-line change\n")
    assert fingerprint_of(tmp_path) != before
    (tmp_path / "api" / "new_module.py").write_text("")
    rules.write_text(rules.read_text().removesuffix("\n# a one-line change\n"))
    with_module = fingerprint_of(tmp_path)
    assert with_module != before
    compiled = tmp_path / "engine" / "standard" / "_deadwood.c"  # a compiled twin is code too
    compiled.write_text(compiled.read_text() + "\n/* a one-line change */\n")
    assert fingerprint_of(tmp_path) not in (before, with_module)


def test_6_readyz_names_the_namespace(make_app: Any, redis_server: RedisServer) -> None:
    app = make_app(REDIS_URL=redis_server.url)
    try:
        assert app.test_client().get("/readyz").get_json()["cache"]["namespace"] == NAMESPACE
    finally:
        with app.app_context():
            current_cache().backend.close()  # type: ignore[attr-defined]


# --- 7. chunked bodies past the limit ------------------------------------------------------------


def _post_chunked(client: FlaskClient, raw: bytes) -> Any:
    """POST ``raw`` to the GFF melds endpoint as a chunked body (no Content-Length)."""
    return client.post(
        f"{GFF}/melds",
        input_stream=io.BytesIO(raw),
        content_type="application/json",
        headers={"Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True},
    )


def test_7_a_chunked_body_over_the_limit_is_a_413(make_app: Any) -> None:
    client = make_app(MAX_BODY_BYTES=2048).test_client()
    raw = b'{"hand": ["AS"]' + b" " * 4000 + b"}"
    response = _post_chunked(client, raw)
    problem_of(response, 413)
    small = b'{"hand": ["AS"]}'
    response = _post_chunked(client, small)
    assert response.status_code == 200


# --- 8. error amplification ----------------------------------------------------------------------


def test_8_many_bad_cards_give_a_bounded_problem(client: FlaskClient) -> None:
    raw = json.dumps({"hand": ["Z" * 40] * 1200}).encode()
    assert len(raw) > 48_000
    response = post_raw(client, f"{GFF}/melds", raw)
    body = problem_of(response, 422)
    assert len(body["errors"]) == MAX_ERROR_ENTRIES
    assert body["more_errors"] == 1200 - MAX_ERROR_ENTRIES
    assert len(response.get_data()) < 10_000
    for messages in body["errors"].values():
        assert all(len(m) <= MAX_MESSAGE_CHARS for m in messages)


def test_8_echoed_input_is_cut(client: FlaskClient) -> None:
    body = problem_of(client.post(f"{GFF}/melds", json={"hand": ["X" * 5000]}), 422)
    assert len(body["detail"]) <= MAX_MESSAGE_CHARS
    assert all(len(m) <= MAX_MESSAGE_CHARS for m in body["errors"]["hand[0]"])
    long_path = "/v1/" + "a" * 5000
    assert len(problem_of(client.get(long_path), 404)["detail"]) <= MAX_MESSAGE_CHARS


T13_WILD = {
    "round": 11,
    "decks": 2,
    "hand": ["KS", "KH", "KD", "KC", "QS", "QH", "JS", "JH", "10S", "10H", "9S", "9H", "8S"],
    "max_ties": 100,
}


def test_8_legal_melds_are_paged_by_default(client: FlaskClient) -> None:
    data = client.post(f"{T13}/melds", json=T13_WILD).get_json()
    count = data["legal_melds_count"]
    assert count > MAX_MELDS_LIMIT // 2  # kings wild: hundreds of combinations
    assert len(data["legal_melds"]) == DEFAULT_MELDS_LIMIT and data["legal_melds_truncated"]
    page = client.post(f"{T13}/melds", json={**T13_WILD, "limit": 50, "offset": 100}).get_json()
    assert page["legal_melds"] == data["legal_melds"][100:150] if len(data["legal_melds"]) > 100 \
        else len(page["legal_melds"]) == 50  # fmt: skip
    last = client.post(f"{T13}/melds", json={**T13_WILD, "offset": count - 3}).get_json()
    assert len(last["legal_melds"]) == 3 and not last["legal_melds_truncated"]
    too_many = client.post(f"{T13}/melds", json={**T13_WILD, "limit": MAX_MELDS_LIMIT + 1})
    assert "limit" in problem_of(too_many, 422)["errors"]


def test_8_pages_cover_every_meld_once(client: FlaskClient) -> None:
    everything = client.post(f"{T13}/melds", json={**T13_WILD, "limit": MAX_MELDS_LIMIT}).get_json()
    count = everything["legal_melds_count"]
    pages: list[Any] = []
    for offset in range(0, count, 300):
        page = client.post(f"{T13}/melds", json={**T13_WILD, "limit": 300, "offset": offset})
        pages.extend(page.get_json()["legal_melds"])
    assert pages[: len(everything["legal_melds"])] == everything["legal_melds"]
    assert len(pages) == count


# --- 9. strict booleans --------------------------------------------------------------------------

TT_MELDS = {"hand": ["RH1", "RH2", "RH3"]}
TT_SETTLE_TUNK = {"players": 3, "unit": 1, "outcome": {"kind": "tunk_out", "seat": 0}}
KNOCK = TT_KNOCK_EXAMPLES["mid_hand"]["value"]


@pytest.mark.parametrize("value", [0, 1, "yes", "on", "true", None, 1.0])
@pytest.mark.parametrize(
    ("path", "body", "where", "field"),
    [
        (f"{TT}/melds", TT_MELDS, ("early_tunk_claimed",), "early_tunk_claimed"),
        (f"{TT}/knock", KNOCK, ("early_tunk_claimed",), "early_tunk_claimed"),
        (f"{TT}/knock", KNOCK, ("opponents", 1, "early_tunk"), "opponents[1].early_tunk"),
        (
            f"{TT}/settle",
            {**TT_SETTLE_TUNK, "outcome": {**TT_SETTLE_TUNK["outcome"], "early_tunk": [1, 0, 0]}},
            ("outcome", "early_tunk", 0),
            "outcome.early_tunk[0]",
        ),
    ],
)
def test_9_booleans_are_json_booleans_only(
    client: FlaskClient, path: str, body: dict[str, Any], where: tuple[Any, ...], field: str,
    value: Any,
) -> None:  # fmt: skip
    response = client.post(path, json=_with(body, where, value))
    assert field in problem_of(response, 422)["errors"]


def test_9_true_and_false_still_work(client: FlaskClient) -> None:
    for flag in (True, False):
        assert (
            client.post(f"{TT}/melds", json={**TT_MELDS, "early_tunk_claimed": flag}).status_code
            == 200
        )


# --- 10. gunicorn's own errors -------------------------------------------------------------------


def test_10_gunicorn_errors_are_problem_json() -> None:
    raw = problem_bytes(431, "Request Header Fields Too Large", "x" * 1000)
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    assert lines[0] == "HTTP/1.1 431 Request Header Fields Too Large"
    assert "Content-Type: application/problem+json" in lines
    assert f"Content-Length: {len(body)}" in lines
    problem = json.loads(body)
    assert problem["status"] == 431 and len(problem["detail"]) <= 160


# --- 11. security headers ------------------------------------------------------------------------


def test_11_api_answers_carry_nosniff_and_no_store(client: FlaskClient) -> None:
    for response in (
        client.post(f"{GFF}/melds", json={"hand": ["AS"]}),
        client.post(f"{GFF}/melds", json={"hand": ["AS"]}),  # a HIT
        client.post(f"{GFF}/melds", json={"hand": ["ZZ"]}),  # a 422
        client.get("/healthz"),
        client.get("/nowhere"),
    ):
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Cache-Control"] == "no-store"
        assert "Server" not in response.headers  # gunicorn's is renamed in gunicorn.conf.py


def test_11_docs_have_a_csp_and_cannot_be_framed(client: FlaskClient) -> None:
    page = client.get("/docs")
    csp = page.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
    assert "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    assert page.headers["X-Frame-Options"] == "DENY"
    assert "<script>" not in page.get_data(as_text=True)  # no inline script for the CSP to block


# --- 12. /readyz sees failed writes --------------------------------------------------------------


COOLDOWN = 0.5  # seconds; a short breaker cool-down, so recovery is seen without waiting 5 s


def test_12_readyz_reports_a_redis_that_refuses_writes(
    make_app: Any, redis_server: RedisServer, tmp_path: Path
) -> None:
    app = make_app(
        REDIS_URL=redis_server.url,
        STATE_DIR=str(tmp_path / "state"),
        BREAKER_COOLDOWN_SECONDS=COOLDOWN,
    )
    client = app.test_client()
    admin = redis_server.client()
    try:
        assert client.get("/readyz").get_json()["cache"]["write"] is True
        admin.config_set("maxmemory-policy", "noeviction")
        admin.config_set("maxmemory", 1)  # full: every write is refused, reads still work
        with pytest.raises(redis.ResponseError, match="maxmemory"):
            admin.set("filler", "x")
        cache = client.get("/readyz").get_json()["cache"]
        assert (cache["state"], cache["write"]) == ("down", False)
        assert "maxmemory" in cache["error"]
        # Answers are still served (computed), marked BYPASS.
        response = client.post(f"{GFF}/melds", json={"hand": ["AS", "2S"]})
        assert response.status_code == 200 and response.headers["X-Cache"] == "BYPASS"
        admin.flushall()
        admin.config_set("maxmemory", 0)
        time.sleep(COOLDOWN + 0.1)  # the breaker's cool-down
        assert client.get("/readyz").get_json()["cache"]["state"] == "up"
    finally:
        admin.close()
        with app.app_context():
            current_cache().backend.close()  # type: ignore[attr-defined]


def test_12_readyz_lists_every_live_worker(
    make_app: Any, redis_server: RedisServer, tmp_path: Path
) -> None:
    state_dir = tmp_path / "state"
    state_dir.mkdir()
    (state_dir / "999999999.json").write_text(
        json.dumps({"pid": 999999999, "breaker": "open", "failures": 3, "at": time.time()})
    )  # a worker that died: not listed
    app = make_app(REDIS_URL=redis_server.url, STATE_DIR=str(state_dir))
    try:
        workers = app.test_client().get("/readyz").get_json()["cache"]["workers"]
        assert [w["breaker"] for w in workers] == ["closed"]
        assert not (state_dir / "999999999.json").exists()
    finally:
        with app.app_context():
            current_cache().backend.close()  # type: ignore[attr-defined]


# --- 13. impossible Triple Tunk tables -----------------------------------------------------------

FOUR_AND_THREE_SPECIALS = [
    {"owner": 0, "cards": ["RH1", "RH2", "RH3", "RH4"]},
    {"owner": 0, "cards": ["YC1", "YC2", "YC3"]},
]


@pytest.mark.rule("TT-11")
def test_13_a_seat_cannot_have_laid_seven_cards(client: FlaskClient) -> None:
    body = {**TT_SETTLE_EXAMPLE, "table": FOUR_AND_THREE_SPECIALS}
    problem = problem_of(client.post(f"{TT}/settle", json=body), 422)
    assert "TT-11" in problem["errors"]["table"][0] and "seat 0" in problem["errors"]["table"][0]


@pytest.mark.rule("TT-11")
@pytest.mark.parametrize(
    ("table", "ok"),
    [
        (FOUR_AND_THREE_SPECIALS, False),  # 7 own cards: no shape has them
        ([{"owner": 0, "cards": ["RH1", "RH2", "RH3", "RH4", "RH?"]}], True),  # five_meld
        (
            [
                {"owner": 0, "cards": ["RH1", "RH2", "RH3"]},
                {"owner": 0, "cards": ["YC1", "YC2", "YC3"]},
            ],
            True,
        ),  # two_three_melds
        (
            [
                {"owner": 0, "cards": ["RH1", "RH2", "RH3", "RH4"]},
                {"owner": 1, "cards": ["YC1", "YC2", "YC3", "YC4", "YC?"],
                 "added": [{"card": "YC4", "seat": 0}, {"card": "YC?", "seat": 0}]},
            ],
            False,
        ),  # a 4-card meld with two lay-offs: no shape (four_meld_one_layoff has one)
        ([{"owner": 0, "cards": ["RH1", "RH2", "RH3"]}], True),  # part of a shape (rest laid now)
    ],
)  # fmt: skip
def test_13_a_tunkers_table_must_fit_a_tt11_shape(
    client: FlaskClient, table: list[Any], ok: bool
) -> None:
    body = {**TT_SETTLE_TUNK, "table": table}
    response = client.post(f"{TT}/settle", json=body)
    if ok:
        assert response.status_code == 200, response.get_json()
    else:
        assert "TT-11" in problem_of(response, 422)["errors"]["table"][0]


def test_13_melds_reject_a_table_no_play_reaches(client: FlaskClient) -> None:
    body = {"hand": ["GT1", "GT2"], "table": FOUR_AND_THREE_SPECIALS, "seat": 1}
    assert "table" in problem_of(client.post(f"{TT}/melds", json=body), 422)["errors"]
