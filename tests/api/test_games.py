"""``GET /v1/games`` and the per-game routing: the catalogue is the engine's, examples all work."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from engine.core.options import GAMES


def _game(client: FlaskClient, name: str) -> dict[str, Any]:
    body = client.get("/v1/games").get_json()
    return next(g for g in body["games"] if g["game"] == name)


def test_lists_the_three_games_in_order(client: FlaskClient) -> None:
    response = client.get("/v1/games")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert [g["game"] for g in response.get_json()["games"]] == list(GAMES)


@pytest.mark.rule("GFF-1", "GFF-6")
def test_game_flip_flop_entry(client: FlaskClient) -> None:
    game = _game(client, "game-flip-flop")
    assert game["title"] == "Game, Flip, Flop"
    assert game["deck"]["kind"] == "standard"
    assert game["deck"]["size"] == 52  # GFF-1
    assert game["deck"]["max_decks"] == 1
    assert game["deck"]["examples"] == ["AS", "10H", "QD", "KC"]
    assert game["players"] == {"min": 2, "max": 8}  # GFF-1
    assert game["hand_sizes"] == [{"round": None, "dealt": 5, "max": 6, "wild_rank": None}]
    assert game["options"] == [
        {
            "name": "side_pot_fallback",
            "type": "string",
            "default": "next_lowest",  # GFF-6 default
            "allowed": ["next_lowest", "carry_over"],
            "rule": "GFF-6",
            "description": game["options"][0]["description"],
        }
    ]
    assert game["endpoints"] == [
        "POST /v1/games/game-flip-flop/melds",
        "POST /v1/games/game-flip-flop/early-tunk",
        "POST /v1/games/game-flip-flop/side-pots",
        "POST /v1/games/game-flip-flop/settle",
        "POST /v1/games/game-flip-flop/discard",
        "POST /v1/games/game-flip-flop/draw",
        "POST /v1/games/game-flip-flop/knock",
        "POST /v1/games/game-flip-flop/profile",
        "POST /v1/games/game-flip-flop/arrangement",
    ]


@pytest.mark.rule("TT-1", "TT-9")
def test_triple_tunk_entry(client: FlaskClient) -> None:
    game = _game(client, "triple-tunk")
    assert game["deck"]["kind"] == "triple-topper"
    assert game["deck"]["size"] == 125  # TT-1: 5 x 5 x 5
    assert game["deck"]["examples"] == ["RC1", "YT3", "KB?"]
    assert game["players"] == {"min": 3, "max": 6}  # TT-1
    (option,) = game["options"]
    assert option["name"] == "early_tunk_totals"
    assert option["default"] == [20, 24, 25]  # TT-9
    assert option["allowed"] == list(range(5, 26))  # five cards worth 1..5 each
    assert option["rule"] == "TT-9"
    assert "side-pots" not in " ".join(game["endpoints"])


@pytest.mark.rule("T13-1", "T13-3")
def test_three_thirteen_entry(client: FlaskClient) -> None:
    game = _game(client, "three-thirteen")
    assert game["deck"]["max_decks"] == 8
    sizes = game["hand_sizes"]
    assert len(sizes) == 11  # T13-1
    # round r deals r + 2; the wild rank is the deal size: 3s in round 1, 10s in 8, kings in 11
    assert sizes[0] == {"round": 1, "dealt": 3, "max": 4, "wild_rank": "3"}
    assert sizes[7] == {"round": 8, "dealt": 10, "max": 11, "wild_rank": "10"}
    assert sizes[10] == {"round": 11, "dealt": 13, "max": 14, "wild_rank": "K"}
    assert game["options"][0]["name"] == "aces"
    assert game["options"][0]["default"] == "low"  # T13-3
    assert game["options"][0]["allowed"] == ["low", "high_or_low"]
    assert game["endpoints"] == [
        "POST /v1/games/three-thirteen/melds",
        "POST /v1/games/three-thirteen/settle",
        "POST /v1/games/three-thirteen/discard",
        "POST /v1/games/three-thirteen/draw",
        "POST /v1/games/three-thirteen/arrangement",
    ]


def _post_examples(app: Flask) -> list[tuple[str, dict[str, Any]]]:
    spec = app.extensions["tunk.api"].spec.to_dict()
    out: list[tuple[str, dict[str, Any]]] = []
    for path, item in spec["paths"].items():
        if "post" not in item:
            continue
        content = item["post"]["requestBody"]["content"]["application/json"]
        if "example" in content:
            out.append((path, content["example"]))
        for example in content.get("examples", {}).values():
            out.append((path, example["value"]))
    return out


def test_every_documented_example_is_accepted(app: Flask, client: FlaskClient) -> None:
    """The examples in the OpenAPI document (and so the README) are real, valid requests."""
    examples = _post_examples(app)
    paths = {path for path, _ in examples}
    # melds x3, early-tunk x2, side-pots x1, settle x3, discard x3, draw x3, knock x2,
    # profile x2, arrangement x3, batch x1
    assert len(paths) == 23
    for path, body in examples:
        response = client.post(path, json=body)
        assert response.status_code == 200, (path, response.get_json())


def test_every_game_route_is_documented_with_its_own_schemas(app: Flask) -> None:
    spec = app.extensions["tunk.api"].spec.to_dict()
    schemas = spec["components"]["schemas"]
    for prefix in ("Gff", "Tt", "T13"):
        assert f"{prefix}MeldsRequest" in schemas
        assert f"{prefix}MeldsResponse" in schemas
    gff_card = schemas["GffMeldsRequest"]["properties"]["hand"]["items"]
    tt_card = schemas["TtMeldsRequest"]["properties"]["hand"]["items"]
    assert gff_card["example"] == "10H"
    assert tt_card["example"] == "RH3"
    rules = schemas["TtMeldsRequest"]["properties"]["rules"]
    assert rules["properties"]["early_tunk_totals"]["default"] == [20, 24, 25]
    for path, item in spec["paths"].items():
        if path.startswith("/v1/games/") and "post" in item:
            assert item["post"]["summary"], path
