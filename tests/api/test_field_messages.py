"""Field messages that say what is expected (not marshmallow's generic wording)."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient


@pytest.mark.parametrize(
    ("path", "body", "field", "words"),
    [
        (
            "three-thirteen/melds",
            {"hand": ["AS", "2S", "3S"]},
            "round",
            "required: a whole number 1-11",
        ),
        ("three-thirteen/melds", {"hand": ["AS", "2S", "3S"], "round": "3"}, "round", "1-11"),
        ("three-thirteen/melds", {"hand": ["AS", "2S", "3S"], "round": 12}, "round", "1-11"),
        ("triple-tunk/melds", {"hand": ["RH1"], "round": 3}, "round", "Triple Tunk does not take"),
        ("game-flip-flop/melds", {"hand": ["AS"], "decks": 2}, "decks", "Three Thirteen (T13-2)"),
        ("game-flip-flop/melds", {"hand": "AS 2S 3S"}, "hand", 'such as ["AS", "10H"]'),
        ("triple-tunk/melds", {"hand": "RH1"}, "hand", 'such as ["RH3", "KB?"]'),
        (
            "game-flip-flop/melds",
            {"hand": ["AS"], "table": [["2S", "3S", "4S"]]},
            "table[0]",
            "expected an object {owner, cards}",
        ),
    ],
)
def test_message_says_what_is_expected(
    client: FlaskClient, path: str, body: dict[str, object], field: str, words: str
) -> None:
    response = client.post(f"/v1/games/{path}", json=body)
    assert response.status_code == 422
    problem = response.get_json()
    assert words in problem["errors"][field][0], problem
    assert words in problem["detail"]


def test_other_unknown_fields_keep_the_standard_message(client: FlaskClient) -> None:
    problem = client.post("/v1/games/game-flip-flop/melds", json={"hand": ["AS"], "hnad": []})
    assert problem.get_json()["errors"] == {"hnad": ["Unknown field."]}
