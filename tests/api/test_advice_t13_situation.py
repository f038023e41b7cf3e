"""Three Thirteen advice through the test client: the last turn's optional discard (T13-5),
the draw's take value equal to the follow-up discard's value, the situation fields (`scores`,
`opponents[].discarded`) and the work caps (422 naming the maximum)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api.schemas.advice import T13_MAX_SAMPLES, T13_MAX_STOCK_SAMPLES
from tests.support.client import post
from tests.support.client import problem_fields as problem

T13 = "/v1/games/three-thirteen"


@pytest.mark.rule("T13-5")
def test_last_turn_keeps_every_card(client: FlaskClient) -> None:
    # T13-5: seat 1 went out; A-A-A and 2-3-4 of clubs combine all six cards (score 0), while
    # discarding the AS would leave AD AH = 2 points.
    body = {
        "hand": ["AD", "AH", "AS", "2C", "3C", "4C"],
        "round": 3,
        "players": 2,
        "seat": 0,
        "out": 1,
        "discard_pile": ["2D", "8S", "7C"],
    }
    data = post(client, f"{T13}/discard", body)
    assert data["discard"] is None and data["go_out"] is False and data["last_turn"] is True
    assert data["keep_deadwood"] == 0 and data["value"] == 0.0
    assert data["options"][0]["card"] == "AS" and data["options"][0]["deadwood"] == 2
    assert "Keep all your cards" in data["explanation"]


def test_draw_take_value_is_the_follow_up_discard_value(client: FlaskClient) -> None:
    # Round 3 (fives wild): the 8H fills 6-7-8-9 of hearts.
    body = {
        "hand": ["6H", "7H", "9H", "KD", "2C"],
        "round": 3,
        "players": 2,
        "discard_pile": ["8H", "QS"],
    }
    draw = post(client, f"{T13}/draw", body)
    follow = post(
        client,
        f"{T13}/discard",
        {**body, "hand": [*body["hand"], "8H"], "discard_pile": ["QS"]},
    )
    assert draw["take_discard"] is True
    assert draw["value_if_take"] == follow["value"]
    assert draw["discard_after_take"] == follow["discard"] != "8H"
    assert draw["value_if_take"] < draw["value_if_stock"]
    assert 1 <= draw["samples"] <= 12
    # The 0.1 names stay for one minor version, with the same values (deprecated aliases).
    assert draw["take_value"] == draw["value_if_take"]
    assert draw["stock_value"] == draw["value_if_stock"]


def test_draw_answer_names_its_values_like_the_tunk_games(app: Flask) -> None:
    """Every game's draw answer says value_if_take / value_if_stock; Three Thirteen's old names
    are documented as deprecated aliases."""
    schemas = app.extensions["tunk.api"].spec.to_dict()["components"]["schemas"]
    for prefix in ("Gff", "Tt", "T13"):
        props = schemas[f"{prefix}DrawResponse"]["properties"]
        assert {"value_if_take", "value_if_stock"} <= set(props)
        assert not props["value_if_take"].get("deprecated", False)
    t13 = schemas["T13DrawResponse"]["properties"]
    assert t13["take_value"]["deprecated"] is True
    assert t13["stock_value"]["deprecated"] is True
    assert "take_value" not in schemas["GffDrawResponse"]["properties"]


def test_scores_and_opponent_discards_are_accepted_and_change_the_answer(
    client: FlaskClient,
) -> None:
    body: dict[str, Any] = {
        "hand": ["5S", "10S", "KS", "6H", "KH", "6D", "7C"],
        "round": 4,
        "players": 2,
        "discard_pile": ["7D"],
        "opponents": [{"seat": 1, "discarded": ["7D"]}],
    }
    level = post(client, f"{T13}/discard", {**body, "scores": [50, 50]})
    ahead = post(client, f"{T13}/discard", {**body, "scores": [10, 400]})
    assert (level["discard"], level["risk"]) == ("7C", 0.0)
    assert (ahead["discard"], ahead["risk"]) == ("10S", 0.5)


def test_scores_need_one_total_per_seat(client: FlaskClient) -> None:
    body = {"hand": ["AS", "2S", "3S", "9D"], "round": 1, "players": 3, "scores": [1, 2]}
    assert "scores" in problem(client, f"{T13}/discard", body)


def test_work_caps_name_the_maximum(client: FlaskClient) -> None:
    body = {"hand": ["AS", "2S", "3S"], "round": 1, "players": 2, "discard_pile": ["9D"]}
    errors = problem(client, f"{T13}/draw", {**body, "samples": T13_MAX_STOCK_SAMPLES + 1})
    assert str(T13_MAX_STOCK_SAMPLES) in str(errors["samples"])
    errors = problem(
        client, f"{T13}/discard", {**body, "hand": [*body["hand"], "4S"], "samples": 10_000}
    )
    assert str(T13_MAX_SAMPLES) in str(errors["samples"])
    assert "precision" in problem(client, f"{T13}/draw", {**body, "precision": 0})


def test_a_long_discard_pile_and_many_opponent_discards_stay_answerable(
    client: FlaskClient,
) -> None:
    # T13-8: reshuffles let a round run long; the pile and each seat's discards have no limit
    # beyond the decks (C-1 counts copies of the pile only).
    ranks = ["A", "2", "3", "4", "6", "7", "8", "9", "10", "J", "Q", "K"]
    pile = [f"{r}{s}" for s in "CD" for r in ranks]
    thrown = [f"{r}{s}" for _ in range(30) for s in "CD" for r in ranks[:8]]
    body = {
        "hand": ["AS", "2S", "3S"],
        "round": 1,
        "players": 2,
        "discard_pile": pile,
        "opponents": [{"seat": 1, "discarded": thrown}],
    }
    data = post(client, f"{T13}/draw", body)
    assert data["choice"] in {"stock", "discard_pile"}
