"""Three Thirteen endpoints through the test client, answers worked out from docs/rules.md."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

BASE = "/v1/games/three-thirteen"


def post(client: FlaskClient, endpoint: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"{BASE}/{endpoint}", json=body)
    assert response.status_code == 200, response.get_json()
    data: dict[str, Any] = response.get_json()
    return data


RUN_6_10 = {
    "cards": ["5S", "6H", "7H", "8H", "9H"],
    "kind": "run",
    "rank": None,
    "suit": "H",
    "low": "6",
    "high": "10",
    "wilds": [{"card": "5S", "stands_for": "10H"}],
}


@pytest.mark.rule("T13-1", "T13-4", "T13-5", "T13-7")
def test_melds_before_drawing(client: FlaskClient) -> None:
    # Round 3 deals 5 cards; fives are wild (T13-1). Natural hearts 6 7 8 9 and the wild 5S.
    # Legal combinations (T13-4): natural runs 6-8, 7-9, 6-9 (3); with the wild, every 2+
    # naturals spanning at most one more than their count: pairs 67 68 78 79 89 (not 69) = 5,
    # triples 678 679 689 789 = 4, all four = 1 -> 10; no set (one natural per rank) -> 13.
    # Best: all five in one run, deadwood 0. Holding round+2 cards, going out needs a draw
    # first (T13-5); everything is combined, so any draw lets the player go out.
    data = post(client, "melds", {"round": 3, "hand": ["9H", "8H", "7H", "6H", "5S"]})
    assert data["round"] == 3 and data["wild_rank"] == "5"
    assert data["hand"] == ["5S", "6H", "7H", "8H", "9H"]
    assert data["hand_points"] == 5 + 6 + 7 + 8 + 9
    assert data["legal_melds_count"] == 13
    assert all(m["kind"] == "run" and m["suit"] == "H" for m in data["legal_melds"])
    assert data["best"] == {
        "melds": [RUN_6_10],
        "deadwood": [],
        "deadwood_points": 0,
        "melded_count": 5,
    }
    assert data["layoffs"] == []  # T13-7
    going_out = data["going_out"]
    assert going_out["possible"] is False and going_out["ready"] is True
    assert going_out["options"] == []


@pytest.mark.rule("T13-5")
def test_going_out_after_the_draw(client: FlaskClient) -> None:
    # Same round with the KD drawn (6 = round + 3 cards): only discarding the KD leaves five
    # combined cards (T13-5); any other discard keeps the KD unmatched.
    body = {"round": 3, "players": 2, "hand": ["5S", "6H", "7H", "8H", "9H", "KD"]}
    data = post(client, "melds", body)
    assert data["best"]["deadwood"] == ["KD"] and data["best"]["deadwood_points"] == 10
    assert data["going_out"]["possible"] is True
    assert data["going_out"]["rule"] == "T13-5"
    assert data["going_out"]["options"] == [
        {
            "discard": "KD",
            "arrangement": {
                "melds": [RUN_6_10],
                "deadwood": [],
                "deadwood_points": 0,
                "melded_count": 5,
            },
        }
    ]


@pytest.mark.rule("T13-5")
def test_cannot_go_out_after_the_draw(client: FlaskClient) -> None:
    body = {"round": 1, "hand": ["AS", "5H", "9D", "KC"]}  # threes wild, none held
    data = post(client, "melds", body)
    assert data["going_out"]["possible"] is False and data["going_out"]["options"] == []
    assert data["best"]["deadwood_points"] == 1 + 5 + 9 + 10


@pytest.mark.rule("T13-3")
def test_aces_house_rule(client: FlaskClient) -> None:
    # T13-3: Q-K-A is no run with aces low: 10 + 10 + 1 = 21. Under high_or_low it is a run.
    hand = ["QS", "KS", "AS"]
    low = post(client, "melds", {"round": 1, "hand": hand})
    assert low["legal_melds"] == [] and low["best"]["deadwood_points"] == 21
    high = post(client, "melds", {"round": 1, "hand": hand, "rules": {"aces": "high_or_low"}})
    assert high["best"]["deadwood_points"] == 0
    assert high["best"]["melds"][0]["low"] == "Q" and high["best"]["melds"][0]["high"] == "A"
    # An unmelded ace counts 15 under high_or_low: A + 7 + 9 of mixed suits.
    loose = post(
        client, "melds", {"round": 1, "hand": ["AS", "7H", "9D"], "rules": {"aces": "high_or_low"}}
    )
    assert loose["best"]["deadwood_points"] == 15 + 7 + 9


@pytest.mark.rule("T13-2", "T13-4")
def test_two_decks_allow_a_repeated_card_in_a_set(client: FlaskClient) -> None:
    # T13-2/T13-4: with two decks the 7H may appear twice and both may sit in one set.
    body = {"round": 1, "decks": 2, "hand": ["7H", "7S", "7h"]}
    data = post(client, "melds", body)
    assert data["hand"] == ["7S", "7H", "7H"]
    assert data["best"]["melds"][0]["kind"] == "set"
    assert data["best"]["melds"][0]["rank"] == "7"
    assert data["best"]["deadwood_points"] == 0


@pytest.mark.rule("T13-2")
def test_decks_default_from_players(client: FlaskClient) -> None:
    # T13-2: 3-4 players default to two decks, so a repeated card is accepted without `decks`.
    body = {"round": 1, "players": 3, "hand": ["7H", "7S", "7H"]}
    assert post(client, "melds", body)["best"]["deadwood_points"] == 0


@pytest.mark.rule("T13-6", "C-4")
def test_settle_round_from_final_hands(client: FlaskClient) -> None:
    # Round 1, threes wild. Seat 0 went out: 0. Seat 1: the 3S stands in a 7-8-9 of hearts -> 0.
    # Seat 2: K, Q, 2 combine with nothing -> 10 + 10 + 2 = 22 (T13-6).
    body = {
        "round": 1,
        "went_out": 0,
        "final_hands": [[], ["7H", "8H", "3S"], ["KD", "QC", "2S"]],
        "previous_totals": [0, 0, 0],
    }
    data = post(client, "settle", body)
    assert data == {
        "game": "three-thirteen",
        "round": 1,
        "went_out": 0,
        "round_scores": [0, 0, 22],
        "totals": [0, 0, 22],
        "final": False,
        "winners": [],
        "net": [0, 0, 0],
        "stake_per_point": 0,
        "next": {  # the next round's settle fields (C-4: the deal passes left)
            "round": 2,
            "dealer": 1,
            "previous_totals": [0, 0, 22],
            "decks": 2,
            "stake_per_point": 0,
            "rules": {"aces": "low"},
        },
        "session": {
            "totals": [0, 0, 22],
            "game_over": False,
            "standings": [
                {"seat": 0, "value": 0, "place": 1},
                {"seat": 1, "value": 0, "place": 1},
                {"seat": 2, "value": 22, "place": 3},
            ],
        },
    }


def test_settle_last_round_winner_and_money(client: FlaskClient) -> None:
    # Round 11: totals 40 + 0, 30 + 12, 50 + 5 = 40, 42, 55 -> seat 0 wins (lowest). At 2 per
    # point the others pay (42 - 40) x 2 = 4 and (55 - 40) x 2 = 30 -> +34, -4, -30.
    body = {
        "round": 11,
        "went_out": 0,
        "round_scores": [0, 12, 5],
        "previous_totals": [40, 30, 50],
        "stake_per_point": 2,
    }
    data = post(client, "settle", body)
    assert data["totals"] == [40, 42, 55]
    assert data["final"] is True and data["winners"] == [0]
    assert data["net"] == [34, -4, -30]


@pytest.mark.rule("C-3")
def test_settle_last_round_tie_splits_by_c3(client: FlaskClient) -> None:
    # Totals 40, 40, 55: seats 0 and 1 share the win (T13-6). Seat 2 pays 15 at 1 per point;
    # split 7/8 with the odd unit to seat 1, the first winner left of dealer 0 (C-3).
    body = {
        "round": 11,
        "went_out": 0,
        "round_scores": [0, 10, 5],
        "previous_totals": [40, 30, 50],
        "stake_per_point": 1,
        "dealer": 0,
    }
    data = post(client, "settle", body)
    assert data["winners"] == [0, 1]
    assert data["net"] == [7, 8, -15]
    assert sum(data["net"]) == 0


def test_same_hand_written_differently_hits_the_cache(client: FlaskClient) -> None:
    first = client.post(f"{BASE}/melds", json={"round": 3, "hand": ["9H", "8H", "7H", "6H", "5S"]})
    second = client.post(
        f"{BASE}/melds",
        json={"round": 3, "players": 2, "decks": 1, "hand": ["5s", "6♥", "7h", "8H", "9h"]},
    )
    assert (first.headers["X-Cache"], second.headers["X-Cache"]) == ("MISS", "HIT")
    assert first.get_json() == second.get_json()


@pytest.mark.rule("T13-7")
def test_table_combinations_are_accepted_but_give_no_layoffs(client: FlaskClient) -> None:
    # T13-7: cards are never added to another player's combinations, even a perfect fit (10H).
    body = {
        "round": 1,
        "hand": ["7H", "8H", "10H"],
        "table": [{"owner": 1, "cards": ["JH", "QH", "KH"]}],
    }
    data = post(client, "melds", body)
    assert data["layoffs"] == []


def test_draw_interval_from_one_stock_card_is_null_not_infinite(client: FlaskClient) -> None:
    # One stock card gives a mean but no spread: the interval's bounds are null (JSON has no
    # infinity; `-Infinity` would break a browser's JSON.parse), and from two cards on they are
    # numbers around the mean (Student's interval for two cards).
    body = {
        "hand": ["AD", "AH", "3S", "5C", "7C"],
        "round": 3,
        "players": 2,
        "seat": 0,
        "discard_pile": ["2D", "8S"],
    }
    one = client.post(f"{BASE}/draw", json={**body, "samples": 1})
    assert one.status_code == 200 and "Infinity" not in one.get_data(as_text=True)
    data = one.get_json()
    assert data["samples"] == 1 and data["stock_interval"] == {"low": None, "high": None}
    two = post(client, "draw", {**body, "samples": 2})
    interval = two["stock_interval"]
    assert two["samples"] == 2 and interval["low"] < two["value_if_stock"] < interval["high"]
