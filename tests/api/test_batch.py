"""``POST /v1/batch``: items answered in order, each with its own status, body and cache result."""

from __future__ import annotations

from flask.testing import FlaskClient

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
