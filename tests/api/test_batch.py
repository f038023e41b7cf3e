"""``POST /v1/batch``: items answered in order, each with its own status, body and cache result."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

import api.resources.batch as batch_module
from api.schemas.batch import MAX_BATCH_ITEMS

MELDS = "/v1/games/game-flip-flop/melds"


def item(path: str, body: dict[str, object]) -> dict[str, object]:
    return {"method": "POST", "path": path, "body": body}


def test_items_in_order_with_their_own_status_and_cache(client: FlaskClient) -> None:
    requests = [
        item(MELDS, {"hand": ["AS", "2S", "3S", "10H"]}),
        item(MELDS, {"hand": ["AS", "ZZ"]}),
        item(
            "/v1/games/three-thirteen/settle", {"round": 1, "went_out": 0, "round_scores": [0, 7]}
        ),
        item(MELDS, {"hand": ["AS", "2S", "3S", "10H"]}),
    ]
    response = client.post("/v1/batch", json={"requests": requests})
    assert response.status_code == 200
    answers = response.get_json()["responses"]
    assert [a["status"] for a in answers] == [200, 422, 200, 200]
    assert [a["cache"] for a in answers] == ["MISS", None, "MISS", "HIT"]
    assert answers[0]["body"]["best"]["deadwood_points"] == 10  # A-2-3 run, 10H left (GFF-2)
    assert answers[1]["body"]["errors"] == {"hand[1]": answers[1]["body"]["errors"]["hand[1]"]}
    assert answers[1]["body"]["status"] == 422
    assert answers[2]["body"]["totals"] == [0, 7]
    assert answers[3]["body"] == answers[0]["body"]
    # the single endpoint now hits the cache the batch filled
    assert client.post(MELDS, json={"hand": ["AS", "2S", "3S", "10H"]}).headers["X-Cache"] == "HIT"


def test_only_analysis_endpoints(client: FlaskClient) -> None:
    requests = [
        item("/v1/games/game-flip-flop/knock", {}),
        item("/v1/batch", {"requests": []}),
        item("/v1/games/gin-rummy/melds", {"hand": ["AS"]}),
        item(MELDS, {"hand": ["AS"]}),
    ]
    answers = client.post("/v1/batch", json={"requests": requests}).get_json()["responses"]
    assert [a["status"] for a in answers] == [422, 422, 422, 200]
    assert "requests[0].path" in answers[0]["body"]["errors"]


def test_limits(client: FlaskClient) -> None:
    too_many = [item(MELDS, {"hand": ["AS"]})] * (MAX_BATCH_ITEMS + 1)
    response = client.post("/v1/batch", json={"requests": too_many})
    assert response.status_code == 422
    assert f"1 to {MAX_BATCH_ITEMS}" in response.get_json()["errors"]["requests"][0]
    empty = client.post("/v1/batch", json={"requests": []})
    assert empty.status_code == 422
    get = client.post(
        "/v1/batch", json={"requests": [{"method": "GET", "path": MELDS, "body": {}}]}
    )
    assert get.status_code == 422 and "requests[0].method" in get.get_json()["errors"]


def test_answer_size_budget_refuses_items_that_do_not_fit(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    single = client.post(MELDS, json={"hand": ["AS", "2S", "3S", "10H"]}).get_data(as_text=True)
    size = len(single.strip())
    monkeypatch.setattr(batch_module, "BATCH_ANSWER_BUDGET_BYTES", 2 * size + 10)
    requests = [item(MELDS, {"hand": ["AS", "2S", "3S", "10H"]})] * 4
    response = client.post("/v1/batch", json={"requests": requests})
    assert response.status_code == 200
    answers = response.get_json()["responses"]
    assert [a["status"] for a in answers] == [200, 200, 413, 413]
    detail = answers[2]["body"]["detail"]
    assert f"answer-size budget ({2 * size + 10:,} bytes" in detail
    assert f"its answer ({size:,} bytes)" in detail
    assert answers[2]["body"]["errors"] == {"requests[2]": [detail]}
    assert "its answer is over" in answers[3]["body"]["detail"]  # not computed at all


def test_work_budget_answers_late_items_503(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batch_module, "BATCH_WORK_BUDGET_SECONDS", 0.0)
    ticks = iter([0.0, 0.0, 1.0, 1.0])
    monkeypatch.setattr(batch_module.time, "monotonic", lambda: next(ticks))
    requests = [item(MELDS, {"hand": ["AS"]}), item(MELDS, {"hand": ["2S"]})]
    answers = client.post("/v1/batch", json={"requests": requests}).get_json()["responses"]
    assert [a["status"] for a in answers] == [200, 503]
    assert "work budget (0 s)" in answers[1]["body"]["detail"]
    assert answers[1]["cache"] is None


def test_answer_is_the_items_json_spliced_as_text(client: FlaskClient) -> None:
    response = client.post("/v1/batch", json={"requests": [item(MELDS, {"hand": ["AS"]})]})
    single = client.post(MELDS, json={"hand": ["AS"]})
    assert response.mimetype == "application/json"
    text = response.get_data(as_text=True)
    body = single.get_data(as_text=True).strip()
    assert text == '{"responses":[{"status":200,"cache":"MISS","body":' + body + "}]}\n"
