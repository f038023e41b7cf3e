"""Triple Tunk endpoints through the test client, answers worked out from docs/rules.md.

Triple Topper ints (engine.core.topper) are colour*25 + shape*5 + number, colours R Y G B K, shapes
C H T S B, numbers 1 2 3 4 ?; hands and melds come back sorted by that int.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

BASE = "/v1/games/triple-tunk"


def post(client: FlaskClient, endpoint: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"{BASE}/{endpoint}", json=body)
    assert response.status_code == 200, response.get_json()
    data: dict[str, Any] = response.get_json()
    return data


def meld(
    cards: list[str], colour: bool, shape: bool, number: bool, seq: bool, special: bool
) -> dict[str, Any]:
    return {
        "cards": cards,
        "matches": {"colour": colour, "shape": shape, "number": number},
        "sequence": seq,
        "special": special,
    }


RED_123 = meld(["RH1", "RH2", "RH3"], True, True, False, True, True)
FOURS = meld(["YT4", "GT4", "KB4"], False, True, True, False, False)


@pytest.mark.rule("TT-2", "TT-3", "TT-7", "C-2", "TT-11", "TT-14")
def test_melds_full_answer(client: FlaskClient) -> None:
    # Legal melds (TT-3..TT-7), by size then cards. KB4 (black blob) is wild in colour and shape:
    #  RH1 RH2 RH3     red hearts 1-2-3: colour + shape + sequence -> special (TT-7)
    #  RH1 RH2 KB4     colour + shape, numbers 1 2 4 neither match nor run -> regular
    #  RH1 RH3 KB4     colour + shape, 1 3 4 -> regular
    #  RH2 RH3 KB4     colour + shape, 2-3-4 a sequence -> special
    #  YT4 GT4 KB4     shape (triangle + blob) + number 4 4 4; yellow vs green -> regular
    #  RH1 RH2 RH3 KB4 1-2-3-4 red hearts -> special
    # No other group of 3+ shares two attributes or a sequence with colour/shape.
    # Best (C-2): the two 3-card melds cover all six cards -> deadwood 0; the only such split.
    # TT-11 two 3-card melds, no discard; TT-14 x2 tunk out x2 early tunk x2 one 3-card
    # special = 8.
    body = {
        "hand": ["KB4", "RH3", "GT4", "RH1", "YT4", "RH2"],
        "seat": 0,
        "players": 4,
        "early_tunk_claimed": True,
    }
    data = post(client, "melds", body)
    assert data == {
        "game": "triple-tunk",
        "hand": ["RH1", "RH2", "RH3", "YT4", "GT4", "KB4"],
        "hand_points": 18,  # 1 + 2 + 3 + 4 + 4 + 4 (TT-2)
        "legal_melds": [
            RED_123,
            meld(["RH1", "RH2", "KB4"], True, True, False, False, False),
            meld(["RH1", "RH3", "KB4"], True, True, False, False, False),
            meld(["RH2", "RH3", "KB4"], True, True, False, True, True),
            FOURS,
            meld(["RH1", "RH2", "RH3", "KB4"], True, True, False, True, True),
        ],
        "legal_melds_count": 6,
        "legal_melds_truncated": False,
        "best": {
            "melds": [RED_123, FOURS],
            "deadwood": [],
            "deadwood_points": 0,
            "melded_count": 6,
            "special_bonus": 2,
        },
        "ties": [],
        "ties_truncated": False,
        "layoffs": [],
        "going_out": {
            "possible": True,
            "rule": "TT-11",
            "pays": data["going_out"]["pays"],
            "shape": "two_three_melds",
            "melds": [RED_123, FOURS],
            "layoffs": [],
            "discard": None,
            "multiplier": 8,
            "special_bonus": 2,
        },
        "layoff_plan": [],  # no table melds
    }


def test_spelled_out_cards_hit_the_same_cache_entry(client: FlaskClient) -> None:
    first = client.post(f"{BASE}/melds", json={"hand": ["RH1", "RH2", "RH3"]})
    second = client.post(
        f"{BASE}/melds", json={"hand": ["red heart 3", "rh2", "red heart 1"], "max_ties": 10}
    )
    assert (first.headers["X-Cache"], second.headers["X-Cache"]) == ("MISS", "HIT")
    assert first.get_json() == second.get_json()


BLUE_123 = [{"owner": 1, "cards": ["BC1", "BC2", "BC3"]}]


@pytest.mark.rule("TT-8")
def test_layoffs_respect_special_protection(client: FlaskClient) -> None:
    # Seat 1's blue circles 1-2-3 are special. BC4 keeps them special (1-2-3-4 blue circles);
    # YC4 would make a regular meld (circles in sequence, colours differ): an opponent may not
    # (TT-8). BC? (= 5) fits only after BC4: chained.
    data = post(client, "melds", {"hand": ["BC4", "YC4", "BC?"], "table": BLUE_123, "seat": 0})
    assert data["layoffs"] == [
        {"card": "BC4", "meld_index": 0, "requires": []},
        {"card": "BC?", "meld_index": 0, "requires": ["BC4"]},
    ]


@pytest.mark.rule("TT-8")
def test_owner_may_break_their_own_special(client: FlaskClient) -> None:
    # TT-8: the owner may extend into a regular meld, so YC4 is allowed for seat 1.
    data = post(client, "melds", {"hand": ["BC4", "YC4"], "table": BLUE_123, "seat": 1})
    assert {(lo["card"], tuple(lo["requires"])) for lo in data["layoffs"]} == {
        ("BC4", ()),
        ("YC4", ()),
    }


@pytest.mark.rule("TT-11")
def test_no_tunk_out(client: FlaskClient) -> None:
    data = post(client, "melds", {"hand": ["RC1", "YH3", "GT?"]})
    assert data["legal_melds"] == []
    assert data["best"]["deadwood_points"] == 1 + 3 + 5
    assert data["going_out"]["possible"] is False
    assert data["going_out"]["multiplier"] == 1


@pytest.mark.rule("TT-2", "TT-9")
def test_early_tunk_eligible(client: FlaskClient) -> None:
    # 5 + 5 + 5 + 4 + 1 = 20 (TT-2: ? counts 5): one of the default totals 20, 24, 25 (TT-9).
    data = post(client, "early-tunk", {"hand": ["KB?", "RH?", "YT?", "GC4", "BS1"]})
    assert data == {
        "game": "triple-tunk",
        "hand": ["RH?", "YT?", "GC4", "BS1", "KB?"],
        "total": 20,
        "eligible": True,
        "rule": "TT-9",
        "totals": [20, 24, 25],
        "multiplier": 2,
        "pays": data["pays"],
    }


@pytest.mark.rule("TT-9")
def test_early_tunk_house_rule_totals(client: FlaskClient) -> None:
    hand = ["RC1", "RC2", "RC3", "YC1", "YC2"]  # 1 + 2 + 3 + 1 + 2 = 9
    plain = post(client, "early-tunk", {"hand": hand})
    assert (plain["total"], plain["eligible"], plain["multiplier"]) == (9, False, 1)
    house = post(client, "early-tunk", {"hand": hand, "rules": {"early_tunk_totals": [9, 25]}})
    assert (house["eligible"], house["totals"], house["multiplier"]) == (True, [9, 25], 2)


@pytest.mark.rule("TT-13")
def test_settle_knock_lowest(client: FlaskClient) -> None:
    # TT-13: seat 0 holds 3, everyone else more -> each of the 3 others pays 1 unit (10).
    body = {
        "players": 4,
        "unit": 10,
        "dealer": 3,
        "outcome": {"kind": "knock", "knocker": 0, "totals": [3, 8, 12, 5]},
    }
    data = post(client, "settle", body)
    assert data["winners"] == [0] and data["knocker_caught"] is False
    assert data["net"] == [30, -10, -10, -10]
    assert [(p["payer"], p["payee"], p["amount"]) for p in data["payments"]] == [
        (1, 0, 10),
        (2, 0, 10),
        (3, 0, 10),
    ]


@pytest.mark.rule("TT-13")
def test_settle_knocker_caught_pays_at_each_winners_multiplier(client: FlaskClient) -> None:
    # Knocker 0 holds 6; seat 1 ties (6), seat 2 beats (2) -> caught (TT-13). Seat 1 claimed an
    # early tunk (x2), seat 2 owns a 4-card special (x3): pays 5 x 2 = 10 and 5 x 3 = 15.
    body = {
        "players": 3,
        "unit": 5,
        "outcome": {
            "kind": "knock",
            "knocker": 0,
            "totals": [6, 6, 2],
            "early_tunk": [False, True, False],
            "special_bonus": [1, 1, 3],
        },
    }
    data = post(client, "settle", body)
    assert data["knocker_caught"] is True and data["winners"] == [1, 2]
    assert data["net"] == [-25, 10, 15]
    assert data["multipliers"] == [1, 2, 3]


@pytest.mark.rule("TT-14")
def test_settle_tunk_out_with_bonus_from_the_table(client: FlaskClient) -> None:
    # Seat 0 tunks out (x2), claimed an early tunk (x2) and owns the special red hearts 1-2-3
    # on the table (x2, TT-14): 8 units from each of the two others.
    body = {
        "players": 3,
        "unit": 1,
        "outcome": {"kind": "tunk_out", "seat": 0, "early_tunk": [True, False, False]},
        "table": [
            {"owner": 0, "cards": ["RH1", "RH2", "RH3"]},
            {"owner": 1, "cards": ["YC1", "YH1", "YT1"]},
        ],
    }
    data = post(client, "settle", body)
    assert data["special_bonus"] == [2, 1, 1]
    assert data["multipliers"] == [8, 1, 1]
    assert data["net"] == [16, -8, -8]
    assert sum(data["net"]) == 0


@pytest.mark.rule("TT-11", "TT-8", "TT-14")
def test_tunk_out_with_a_meld_and_two_layoffs(client: FlaskClient) -> None:
    # TT-11 third shape: lay red hearts 1-2-3 (special), put YC4 then YC? on seat 1's yellow
    # circles 1-2-3 (1-2-3-4-? stays special, so an opponent may extend it, TT-8), discard GT2.
    # No 5-card meld exists (1-2-3-4-? of mixed colours and shapes). TT-14: x2 tunk out x2 for
    # the own 3-card special = 4 (the sideways cards earn nothing).
    body = {
        "hand": ["RH1", "RH2", "RH3", "YC4", "YC?", "GT2"],
        "table": [{"owner": 1, "cards": ["YC1", "YC2", "YC3"]}],
        "seat": 0,
    }
    out = post(client, "melds", body)["going_out"]
    assert out["shape"] == "three_meld_two_layoffs"
    assert [m["cards"] for m in out["melds"]] == [["RH1", "RH2", "RH3"]]
    assert out["layoffs"] == [
        {"card": "YC4", "meld_index": 0, "requires": []},
        {"card": "YC?", "meld_index": 0, "requires": ["YC4"]},
    ]
    assert out["discard"] == "GT2"
    assert (out["special_bonus"], out["multiplier"]) == (2, 4)
