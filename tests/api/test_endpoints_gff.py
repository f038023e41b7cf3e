"""Game Flip Flop endpoints through the test client, answers worked out from docs/rules.md.

Card ints (engine.core.cards) sort suit-major S, H, D, C then A..K, which is the order hands and
melds come back in.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

BASE = "/v1/games/game-flip-flop"


def post(client: FlaskClient, endpoint: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"{BASE}/{endpoint}", json=body)
    assert response.status_code == 200, response.get_json()
    assert response.mimetype == "application/json"
    data: dict[str, Any] = response.get_json()
    return data


SET_7 = {
    "cards": ["7S", "7H", "7D"],
    "kind": "set",
    "rank": "7",
    "suit": None,
    "low": None,
    "high": None,
}
RUN_7_9H = {
    "cards": ["7H", "8H", "9H"],
    "kind": "run",
    "rank": None,
    "suit": "H",
    "low": "7",
    "high": "9",
}
MELDS_BODY = {
    "hand": ["7H", "8H", "9H", "7S", "7D", "KC"],
    "table": [{"owner": 1, "cards": ["10H", "JH", "QH"]}],
    "seat": 0,
    "players": 4,
}


@pytest.mark.rule("GFF-2", "C-2", "GFF-3", "GFF-9", "GFF-10")
def test_melds_full_answer(client: FlaskClient) -> None:
    # GFF-2: the only spreads are the three 7s (a set) and 7-8-9 of hearts (a run); 6 cards.
    # C-2: run -> deadwood 7S 7D KC = 7 + 7 + 10 = 24; set -> 8H 9H KC = 27; so the run, no tie.
    # GFF-3: the 10-J-Q of hearts takes the 9H, then the 8H after it, then the 7H after both.
    # GFF-9 needs two 3-card spreads covering all six cards: 7s + (8H 9H KC) no, run + (7S 7D
    # KC) no. GFF-10: lay the 7s, add 9H and 8H to the hearts run, discard KC.
    data = post(client, "melds", MELDS_BODY)
    assert data == {
        "game": "game-flip-flop",
        "hand": ["7S", "7H", "8H", "9H", "7D", "KC"],
        "hand_points": 48,  # 7 + 7 + 8 + 9 + 7 + 10
        "legal_melds": [SET_7, RUN_7_9H],
        "legal_melds_count": 2,
        "legal_melds_truncated": False,
        "best": {
            "melds": [RUN_7_9H],
            "deadwood": ["7S", "7D", "KC"],
            "deadwood_points": 24,
            "melded_count": 3,
        },
        "ties": [],
        "ties_truncated": False,
        "layoffs": [
            {"card": "9H", "meld_index": 0, "requires": []},
            {"card": "8H", "meld_index": 0, "requires": ["9H"]},
            {"card": "7H", "meld_index": 0, "requires": ["9H", "8H"]},
        ],
        "going_out": {
            "possible": True,
            "rule": "GFF-10",
            "pays": data["going_out"]["pays"],
            "kind": "go_out",
            "spreads": [SET_7],
            "layoffs": [
                {"card": "9H", "meld_index": 0, "requires": []},
                {"card": "8H", "meld_index": 0, "requires": ["9H"]},
            ],
            "discard": "KC",
            "extra_stakes_per_opponent": 0,
        },
        # The best arrangement's deadwood (7S 7D KC) fits no table spread.
        "layoff_plan": [],
    }
    assert "GFF-10" in data["going_out"]["pays"]


def test_same_request_written_differently_hits_the_cache(client: FlaskClient) -> None:
    """Card order, case and ten spelling do not matter: one cache entry, identical answers."""
    first = client.post(f"{BASE}/melds", json=MELDS_BODY)
    other = {
        "hand": ["kc", "7d", "7S", "9h", "8H", "7♥"],
        "table": [{"owner": 1, "cards": ["QH", "th", "JH"]}],
        "players": 4,
        "rules": {"side_pot_fallback": "next_lowest"},  # the default, spelled out
    }
    second = client.post(f"{BASE}/melds", json=other)
    assert first.headers["X-Cache"] == "MISS"
    assert second.headers["X-Cache"] == "HIT"
    assert first.get_json() == second.get_json()


@pytest.mark.rule("GFF-9")
def test_tunk_out_with_two_three_card_spreads(client: FlaskClient) -> None:
    # GFF-9: 2-3-4 of spades and three 9s, no discard: every other player adds one extra stake.
    data = post(client, "melds", {"hand": ["9H", "2S", "9C", "3S", "9D", "4S"]})
    out = data["going_out"]
    assert out["possible"] is True
    assert out["kind"] == "tunk_out"
    assert out["rule"] == "GFF-9"
    assert [s["cards"] for s in out["spreads"]] == [["2S", "3S", "4S"], ["9H", "9D", "9C"]]
    assert out["layoffs"] == [] and out["discard"] is None
    assert out["extra_stakes_per_opponent"] == 1
    assert data["best"]["deadwood_points"] == 0 and data["best"]["melded_count"] == 6


@pytest.mark.rule("GFF-9")
def test_tunk_out_with_an_earlier_own_spread(client: FlaskClient) -> None:
    # GFF-9 "possibly on different turns": seat 0 already laid K-K-K (3 own cards) and now
    # lays 5-6-7 of diamonds with its last three cards.
    body = {"hand": ["5D", "6D", "7D"], "table": [{"owner": 0, "cards": ["KS", "KH", "KD"]}]}
    out = post(client, "melds", body)["going_out"]
    assert out["kind"] == "tunk_out"
    assert [s["cards"] for s in out["spreads"]] == [["5D", "6D", "7D"]]


@pytest.mark.rule("GFF-10")
def test_cannot_go_out(client: FlaskClient) -> None:
    data = post(client, "melds", {"hand": ["2S", "9H", "KD"]})
    assert data["legal_melds"] == [] and data["layoffs"] == []
    assert data["best"] == {
        "melds": [],
        "deadwood": ["2S", "9H", "KD"],
        "deadwood_points": 21,
        "melded_count": 0,
    }
    assert data["going_out"]["possible"] is False
    assert data["going_out"]["kind"] is None and data["going_out"]["rule"] is None


def test_limit_truncates_legal_melds(client: FlaskClient) -> None:
    # 2..6 of spades: runs 2-4, 3-5, 4-6, 2-5, 3-6, 2-6 = 6 spreads (GFF-2); no sets.
    data = post(client, "melds", {"hand": ["2S", "3S", "4S", "5S", "6S"], "limit": 2})
    assert data["legal_melds_count"] == 6
    assert len(data["legal_melds"]) == 2
    assert data["legal_melds_truncated"] is True
    assert data["best"]["deadwood_points"] == 0
    everything = post(client, "melds", {"hand": ["2S", "3S", "4S", "5S", "6S"]})
    assert len(everything["legal_melds"]) == 6
    assert everything["legal_melds_truncated"] is False


@pytest.mark.rule("C-2")
def test_tied_arrangements(client: FlaskClient) -> None:
    # Three 5s or 4-5-6 of hearts: each leaves 10 points (6H + 4H, or 5S + 5D), 3 cards melded,
    # so C-2 keeps both: one is best (canonical order), the other its tie.
    data = post(client, "melds", {"hand": ["5S", "5H", "5D", "4H", "6H"]})
    arrangements = [data["best"], *data["ties"]]
    assert len(arrangements) == 2
    assert {a["deadwood_points"] for a in arrangements} == {10}
    assert sorted(a["melds"][0]["kind"] for a in arrangements) == ["run", "set"]
    assert (
        post(client, "melds", {"hand": ["5S", "5H", "5D", "4H", "6H"], "max_ties": 0})[
            "ties_truncated"
        ]
        is True
    )


@pytest.mark.rule("GFF-1", "GFF-4")
def test_early_tunk_49(client: FlaskClient) -> None:
    # K + Q + J + 10 + 9 = 49 (GFF-1 values): wins the game pot (GFF-4). 5 players at 100:
    # the pot holds 500, 100 of it the declarer's own stake -> nets 400.
    body = {"hand": ["KS", "QH", "JD", "10C", "9S"], "players": 5, "stake": 100}
    data = post(client, "early-tunk", body)
    assert data == {
        "game": "game-flip-flop",
        "hand": ["9S", "KS", "QH", "JD", "10C"],
        "total": 49,
        "eligible": True,
        "rule": "GFF-4",
        "declares": 49,
        "pays": data["pays"],
        "wins_game_pot": True,
        "extra_stake_from_each_player": False,
        "net_if_sole_declarer": 400,
    }


@pytest.mark.rule("GFF-4")
def test_early_tunk_50_collects_an_extra_stake(client: FlaskClient) -> None:
    # 10 + 10 + 10 + 10 + 10 = 50: the pot (net 400) plus one extra stake from each of 4 -> 800.
    body = {"hand": ["KS", "QH", "JD", "10C", "10S"], "players": 5, "stake": 100}
    data = post(client, "early-tunk", body)
    assert data["declares"] == 50
    assert data["extra_stake_from_each_player"] is True
    assert data["net_if_sole_declarer"] == 800


@pytest.mark.rule("GFF-4")
def test_early_tunk_not_eligible(client: FlaskClient) -> None:
    data = post(client, "early-tunk", {"hand": ["AS", "2S", "3S", "4S", "5S"]})
    assert data["total"] == 15 and data["eligible"] is False
    assert data["declares"] is None and data["net_if_sole_declarer"] is None


DEAL = [
    ["KS", "QS", "10C", "5H", "JD"],
    ["2H", "3C", "4S", "8D", "KC"],
    ["AD", "7S", "6C", "QH", "9C"],
    ["9H", "2S", "3S", "JC", "4D"],
]


@pytest.mark.rule("GFF-5")
def test_side_pots_flip_and_flop(client: FlaskClient) -> None:
    # Flip card 9H (dealer seat 3): hearts dealt 5H, 2H, QH, 9H -> 2H (seat 1) wins the flip.
    # Flop suit = diamonds (GFF-5): JD, 8D, AD, 4D -> AD (seat 2). Stake 100 x 4 stakers.
    data = post(
        client, "side-pots", {"dealt_hands": DEAL, "dealer": 3, "flip_card": "9H", "stake": 100}
    )
    assert data == {
        "flip_card": "9H",
        "stakes_in": [3, 3, 3, 3],
        "flip": {
            "pot": "flip",
            "suit": "H",
            "lowest_card": "2H",
            "lowest_holder": 1,
            "winner": 1,
            "winning_card": "2H",
            "carried_over": False,
            "fallback": False,
            "amount": 400,
        },
        "flop": {
            "pot": "flop",
            "suit": "D",
            "lowest_card": "AD",
            "lowest_holder": 2,
            "winner": 2,
            "winning_card": "AD",
            "carried_over": False,
            "fallback": False,
            "amount": 400,
        },
    }


@pytest.mark.rule("GFF-5")
def test_side_pots_flop_carries_over(client: FlaskClient) -> None:
    # No diamond dealt: the flop pot carries over and grows (GFF-5): 3 x 10 + 30 carried = 60.
    hands = [
        ["KS", "QS", "10C", "5H", "JS"],
        ["2H", "3C", "4S", "8S", "KC"],
        ["AC", "7S", "6C", "QH", "9C"],
    ]
    body = {"dealt_hands": hands, "dealer": 2, "flip_card": "QH", "stake": 10, "flop_carry_in": 30}
    data = post(client, "side-pots", body)
    assert data["flip"]["winner"] == 1 and data["flip"]["winning_card"] == "2H"
    assert data["flip"]["amount"] == 30
    assert data["flop"]["winner"] is None and data["flop"]["carried_over"] is True
    assert data["flop"]["lowest_card"] is None
    assert data["flop"]["amount"] == 60


@pytest.mark.rule("GFF-6")
def test_side_pots_holder_who_did_not_stake(client: FlaskClient) -> None:
    # Seat 1 (2H) staked the game pot only: GFF-6 next_lowest gives the flip to 5H (seat 0).
    body = {"dealt_hands": DEAL, "dealer": 3, "flip_card": "9H", "stakes_in": [3, 1, 3, 3]}
    flip = post(client, "side-pots", body)["flip"]
    assert (flip["lowest_holder"], flip["winner"], flip["winning_card"]) == (1, 0, "5H")
    assert flip["fallback"] is True and flip["amount"] is None
    # House rule carry_over: the pot waits for the next deal instead.
    body["rules"] = {"side_pot_fallback": "carry_over"}
    flip = post(client, "side-pots", body)["flip"]
    assert flip["winner"] is None and flip["carried_over"] is True


SEED = {"bankrolls": [1000] * 5, "stake": 100, "dealer": 4}


@pytest.mark.rule("GFF-4")
def test_settle_seed_49_50(client: FlaskClient) -> None:
    # Seed (GFF-4), stake 100, 5 players, A=49, B=50: A and B split the 500 game pot (250
    # each); A, C, D, E (not holding 50) pay 100 each into a new pot that B takes (400).
    # A: -100 + 250 - 100 = +50; B: -100 + 250 + 400 = +550; C, D, E: -100 - 100 = -200.
    body = {
        **SEED,
        "outcome": {
            "kind": "early_win",
            "declarations": [{"seat": 0, "total": 49}, {"seat": 1, "total": 50}],
        },
    }
    data = post(client, "settle", body)
    assert data["net"] == [50, 550, -200, -200, -200]
    assert sum(data["net"]) == 0
    assert data["game_winners"] == [0, 1]
    pots = {p["name"]: p for p in data["pots"]}
    assert pots["game"]["amount"] == 500
    assert pots["game"]["shares"] == [{"seat": 0, "amount": 250}, {"seat": 1, "amount": 250}]
    assert pots["fifty"]["amount"] == 400 and pots["fifty"]["winners"] == [1]
    assert [e["seat"] for e in data["extra_payments"]] == [0, 2, 3, 4]
    assert data["eliminated"] == [] and data["carry_out"] == 0


@pytest.mark.rule("GFF-8")
def test_settle_seed_drop_caught(client: FlaskClient) -> None:
    # Seed (GFF-8): A drops but ties C and D for lowest -> caught: A adds 100, the 600 pot goes
    # to C and D (300 each). A -200, C +200, D +200, B and E -100.
    body = {**SEED, "outcome": {"kind": "drop", "dropper": 0, "totals": [12, 20, 12, 12, 30]}}
    data = post(client, "settle", body)
    assert data["net"] == [-200, -100, 200, 200, -100]
    assert data["game_winners"] == [2, 3]
    assert data["pots"][0]["amount"] == 600
    assert data["extra_payments"] == [{"seat": 0, "amount": 100, "pot": "game", "reason": "caught"}]


@pytest.mark.rule("GFF-8")
def test_settle_drop_strictly_lowest_wins(client: FlaskClient) -> None:
    body = {**SEED, "outcome": {"kind": "drop", "dropper": 0, "totals": [11, 20, 12, 12, 30]}}
    assert post(client, "settle", body)["net"] == [400, -100, -100, -100, -100]


@pytest.mark.rule("GFF-9")
def test_settle_tunk_out_pays_an_extra_stake_each(client: FlaskClient) -> None:
    # GFF-9, 4 players at 10: pot 40 + 3 extra stakes = 70 to seat 2 -> +60; others -20.
    body = {
        "bankrolls": [100] * 4,
        "stake": 10,
        "dealer": 0,
        "outcome": {"kind": "tunk_out", "seat": 2},
    }
    data = post(client, "settle", body)
    assert data["net"] == [-20, -20, 60, -20]
    assert data["pots"][0]["amount"] == 70


@pytest.mark.rule("GFF-6", "GFF-10")
def test_settle_all_in_player_is_eliminated(client: FlaskClient) -> None:
    # GFF-6: bankroll 20 at stake 10 -> min(3, 20 // 10 - 1) = 1 pot: all in; seat 1 goes out
    # (GFF-10) and takes the 40 pot, so seat 0 is eliminated.
    body = {
        "bankrolls": [20, 100, 100, 100],
        "stake": 10,
        "dealer": 3,
        "outcome": {"kind": "go_out", "seat": 1},
    }
    data = post(client, "settle", body)
    assert data["stakes_in"] == [1, 3, 3, 3]
    assert data["all_in"] == [0] and data["eliminated"] == [0]
    assert data["net"] == [-10, 30, -10, -10]
    assert data["bankrolls_after"] == [10, 130, 90, 90]


def test_settle_with_side_winners_and_flop_carry(client: FlaskClient) -> None:
    # 3 players at 10, all stake 3 pots (30 each). Game pot 30 -> seat 0, flip 30 -> seat 1,
    # flop carries over (30): nets 0, 0, -30, and sum(net) = carry_in - carry_out = -30.
    body = {
        "bankrolls": [1000] * 3,
        "stake": 10,
        "dealer": 2,
        "outcome": {"kind": "go_out", "seat": 0},
        "side_winners": {"flip": 1, "flop": None},
    }
    data = post(client, "settle", body)
    assert data["net"] == [0, 0, -30]
    assert data["carry_out"] == 30 and data["flop_carry_out"] == 30
    assert sum(data["net"]) == data["carry_in"] - data["carry_out"]


def test_settle_side_pots_from_the_deal(client: FlaskClient) -> None:
    # The DEAL above at stake 100, everyone rich: game pot 400 -> seat 3 (went out), flip 400 ->
    # seat 1 (2H), flop 400 -> seat 2 (AD). Each paid 300.
    body = {
        "bankrolls": [1000] * 4,
        "stake": 100,
        "dealer": 3,
        "dealt_hands": DEAL,
        "flip_card": "9H",
        "outcome": {"kind": "go_out", "seat": 3},
    }
    data = post(client, "settle", body)
    assert data["net"] == [-300, 100, 100, 100]


@pytest.mark.rule("GFF-11", "C-3")
def test_settle_split_leftover_goes_from_the_dealers_left(client: FlaskClient) -> None:
    # GFF-11 with a 15 pot (3 x 5) split by seats 0 and 1: 7 each, the leftover unit to the
    # first of them clockwise from the dealer's left (C-3): dealer 0 -> seat 1 gets 8.
    body = {
        "bankrolls": [100] * 3,
        "stake": 5,
        "dealer": 0,
        "outcome": {"kind": "stock_exhausted", "totals": [4, 4, 9]},
    }
    data = post(client, "settle", body)
    assert data["net"] == [2, 3, -5]
