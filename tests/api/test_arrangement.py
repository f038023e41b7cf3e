"""``POST /v1/games/{game}/arrangement``: check my arrangement, golden cases worked by hand."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient


def check(client: FlaskClient, game: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"/v1/games/{game}/arrangement", json=body)
    assert response.status_code == 200, response.get_json()
    data: dict[str, Any] = response.get_json()
    return data


@pytest.mark.rule("C-2", "GFF-2", "GFF-3")
def test_gff_legal_set_but_the_run_is_better_and_a_layoff_is_missed(client: FlaskClient) -> None:
    # Three 7s leave 8H 9H KC = 8 + 9 + 10 = 27; the run 7-8-9 of hearts leaves 7S 7D KC = 24
    # (C-2). No meld hides in 8H 9H KC, so it is a better split. 9H goes on 10-J-Q of hearts
    # directly, 8H after it (GFF-3).
    data = check(
        client,
        "game-flip-flop",
        {
            "hand": ["7H", "8H", "9H", "7S", "7D", "KC"],
            "melds": [["7S", "7D", "7H"]],
            "table": [{"owner": 1, "cards": ["10H", "JH", "QH"]}],
            "players": 4,
        },
    )
    (verdict,) = data["melds"]
    assert verdict["valid"] is True and verdict["kind"] == "set"
    assert verdict["rule"] == "GFF-2" and verdict["rule_url"] == "/v1/rules/GFF-2"
    assert data["deadwood"] == ["8H", "9H", "KC"]
    assert data["deadwood_points"] == 27
    assert data["best_deadwood_points"] == 24
    assert data["difference"] == 3
    assert data["missed_melds"] == [] and data["better_split"] is True
    assert data["layoffs"] == [
        {"card": "9H", "meld_index": 0, "requires": []},
        {"card": "8H", "meld_index": 0, "requires": ["9H"]},
    ]
    assert "27" in data["explanation"] and "24" in data["explanation"]
    assert "GFF-3" in data["explanation"]


@pytest.mark.rule("C-1")
def test_gff_qka_is_not_a_run_and_a_foreign_card_is_c1(client: FlaskClient) -> None:
    data = check(
        client,
        "game-flip-flop",
        {"hand": ["QS", "KS", "AS", "2C", "3D"], "melds": [["QS", "KS", "AS"], ["4H", "5H", "6H"]]},
    )
    qka, foreign = data["melds"]
    assert qka["valid"] is False and qka["rule"] == "GFF-2"
    assert "Q-K-A" in qka["reason"]
    assert foreign["valid"] is False and foreign["rule"] == "C-1"
    assert "4H is not in the hand" in foreign["reason"]
    assert data["all_valid"] is False
    assert data["deadwood_points"] == 10 + 10 + 1 + 2 + 3  # nothing melds
    assert data["difference"] == 0


@pytest.mark.rule("TT-6", "TT-7")
def test_tt_special_and_number_meld_are_optimal(client: FlaskClient) -> None:
    # RH1-RH2-RH3: sequence + colour + shape = special (TT-7); YT4 GT4 KB4 match in shape
    # (blob wild) and number (TT-6): nothing left over.
    data = check(
        client,
        "triple-tunk",
        {
            "hand": ["RH1", "RH2", "RH3", "YT4", "GT4", "KB4"],
            "melds": [["RH1", "RH2", "RH3"], ["YT4", "GT4", "KB4"]],
        },
    )
    special, plain = data["melds"]
    assert (special["kind"], special["rule"]) == ("special", "TT-7")
    assert (plain["kind"], plain["rule"]) == ("meld", "TT-6")
    assert data["deadwood_points"] == 0 and data["difference"] == 0
    assert "best possible" in data["explanation"]


@pytest.mark.rule("TT-6")
def test_tt_group_matching_nothing(client: FlaskClient) -> None:
    data = check(
        client,
        "triple-tunk",
        {"hand": ["RH1", "RH2", "RH3", "YT4", "GT4", "KB4"], "melds": [["RH1", "RH2", "YT4"]]},
    )
    (verdict,) = data["melds"]
    assert verdict["valid"] is False and verdict["rule"] == "TT-6"
    assert "matches in nothing" in verdict["reason"]
    assert data["deadwood_points"] == 1 + 2 + 3 + 4 + 4 + 4
    assert ["RH1", "RH2", "RH3"] in data["missed_melds"]


@pytest.mark.rule("T13-1", "T13-4")
def test_t13_wild_extends_the_run(client: FlaskClient) -> None:
    # Round 3: fives wild (T13-1). 6-7-8 of hearts leaves 5S 9H KD = 5 + 9 + 10 = 24; the 5S as
    # 10H makes 6-7-8-9-10 and leaves KD = 10 (T13-4).
    data = check(
        client,
        "three-thirteen",
        {"hand": ["5S", "6H", "7H", "8H", "9H", "KD"], "melds": [["6H", "7H", "8H"]], "round": 3},
    )
    assert data["melds"][0]["rule"] == "T13-4" and data["melds"][0]["kind"] == "run"
    assert data["deadwood_points"] == 24 and data["best_deadwood_points"] == 10
    assert data["difference"] == 14 and data["better_split"] is True


@pytest.mark.rule("T13-3")
def test_t13_aces_house_rule_decides_qka(client: FlaskClient) -> None:
    body: dict[str, Any] = {
        "hand": ["QS", "KS", "AS", "2C", "3D", "4H"],
        "melds": [["QS", "KS", "AS"]],
        "round": 4,
    }
    low = check(client, "three-thirteen", body)
    assert low["melds"][0]["valid"] is False and low["melds"][0]["rule"] == "T13-3"
    high = check(client, "three-thirteen", {**body, "rules": {"aces": "high_or_low"}})
    assert high["melds"][0]["valid"] is True
    assert high["deadwood_points"] == 2 + 3 + 4


def test_bad_requests_are_problems(client: FlaskClient) -> None:
    missing_round = client.post(
        "/v1/games/three-thirteen/arrangement", json={"hand": ["AS", "2S", "3S"], "melds": []}
    )
    assert missing_round.status_code == 422 and "round" in missing_round.get_json()["errors"]
    bad_card = client.post(
        "/v1/games/game-flip-flop/arrangement", json={"hand": ["AS"], "melds": [["ZZ"]]}
    )
    assert bad_card.status_code == 422 and "melds[0][0]" in bad_card.get_json()["errors"]
