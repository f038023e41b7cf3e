"""Chained scorekeeping: each settle answer's ``next`` is fed back as the next request.

A 30-deal Game Flip Flop session and an 11-round Three Thirteen game are played through the
HTTP API only; money (GFF: bankrolls + carried pots) must be conserved over the whole session.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask.testing import FlaskClient

from engine.core.cards import DECK, POINTS, card_name
from engine.games.gff.settle import stakes_for

GFF = "/v1/games/game-flip-flop/settle"
T13 = "/v1/games/three-thirteen/settle"
TT = "/v1/games/triple-tunk/settle"


def _gff_deal(rng: random.Random, nxt: dict[str, Any]) -> dict[str, Any]:
    """A random deal for the seats that can stake (GFF-6), with a random outcome."""
    n = len(nxt["bankrolls"])
    playing = [s for s, b in enumerate(nxt["bankrolls"]) if stakes_for(b, nxt["stake"]) >= 1]
    deck = list(DECK)
    rng.shuffle(deck)
    hands: list[list[int]] = [[] for _ in range(n)]
    for seat in playing:
        hands[seat] = [deck.pop() for _ in range(5)]
    dealer = nxt["dealer"]
    flip = hands[dealer][-1]  # GFF-5: the dealer's last dealt card
    totals = [sum(POINTS[c] for c in h) if h else None for h in hands]
    kind = rng.choice(["go_out", "tunk_out", "drop", "stock_exhausted"])
    outcome: dict[str, Any] = {"kind": kind}
    if kind in ("go_out", "tunk_out"):
        outcome["seat"] = rng.choice(playing)
    else:
        outcome["totals"] = totals
        if kind == "drop":
            outcome["dropper"] = rng.choice(playing)
    return {
        **nxt,
        "outcome": outcome,
        "dealt_hands": [[card_name(c) for c in h] for h in hands],
        "flip_card": card_name(flip),
    }


@pytest.mark.rule("C-3", "GFF-6")
def test_gff_session_of_30_deals_conserves_money(client: FlaskClient) -> None:
    rng = random.Random(2024)
    nxt: dict[str, Any] | None = {
        "bankrolls": [2000, 1500, 1200, 800, 3000],
        "stake": 100,
        "dealer": 0,
        "flip_carry_in": 0,
        "flop_carry_in": 0,
    }
    start = 2000 + 1500 + 1200 + 800 + 3000
    deals = 0
    eliminated_seen: set[int] = set()
    while nxt is not None and deals < 30:
        request = _gff_deal(rng, nxt)
        response = client.post(GFF, json=request)
        assert response.status_code == 200, response.get_json()
        body = response.get_json()
        deals += 1
        eliminated_seen.update(body["eliminated"])
        money = sum(body["bankrolls_after"]) + body["flip_carry_out"] + body["flop_carry_out"]
        assert money == start, f"deal {deals}: money not conserved"  # C-3 over the session
        nxt = body["next"]
        if nxt is None:
            assert body["session"]["game_over"]
            assert len(body["session"]["can_deal_in"]) < 2
            break
        assert nxt["bankrolls"] == body["bankrolls_after"]
        assert nxt["flop_carry_in"] == body["flop_carry_out"]
        assert nxt["dealer"] in body["session"]["can_deal_in"]
        for seat in body["session"]["cannot_deal_in"]:  # GFF-6: cannot keep a reserve
            assert stakes_for(nxt["bankrolls"][seat], nxt["stake"]) == 0
    assert deals == 30  # this seed keeps at least two seats in for the whole session


@pytest.mark.rule("GFF-6")
def test_gff_next_dealer_skips_seats_that_cannot_stake(client: FlaskClient) -> None:
    """Seat 1 goes all in (k = 1, GFF-6) and loses: eliminated, so seat 2 deals next."""
    body = client.post(
        GFF,
        json={
            "bankrolls": [1000, 200, 1000],
            "stake": 100,
            "dealer": 0,
            "outcome": {"kind": "go_out", "seat": 2},
        },
    ).get_json()
    assert body["eliminated"] == [1]
    assert body["next"]["dealer"] == 2
    assert body["session"]["cannot_deal_in"] == [1]
    assert body["next"]["bankrolls"] == [900, 100, 1200]


def test_gff_session_over_when_one_seat_left(client: FlaskClient) -> None:
    body = client.post(
        GFF,
        json={
            "bankrolls": [1000, 200],
            "stake": 100,
            "dealer": 1,
            "outcome": {"kind": "go_out", "seat": 0},
        },
    ).get_json()
    assert body["next"] is None
    assert body["session"]["game_over"] is True
    assert body["session"]["standings"][0] == {"seat": 0, "value": 1100, "place": 1}


@pytest.mark.rule("T13-6", "C-4", "C-3")
def test_t13_game_of_11_rounds_chains_totals(client: FlaskClient) -> None:
    rng = random.Random(13)
    nxt: dict[str, Any] | None = {"round": 1, "dealer": 0, "previous_totals": [0, 0, 0]}
    expected = [0, 0, 0]
    rounds = 0
    body: dict[str, Any] = {}
    while nxt is not None:
        went_out = rng.randrange(3)
        scores = [0 if s == went_out else rng.randrange(0, 60) for s in range(3)]
        request = {**nxt, "went_out": went_out, "round_scores": scores, "stake_per_point": 2}
        response = client.post(T13, json=request)
        assert response.status_code == 200, response.get_json()
        body = response.get_json()
        rounds += 1
        expected = [t + s for t, s in zip(expected, scores, strict=True)]
        assert body["totals"] == expected  # T13-6: scores add up over the rounds
        assert body["session"]["totals"] == expected
        nxt = body["next"]
        if nxt is not None:
            assert nxt["round"] == rounds + 1
            assert nxt["dealer"] == rounds % 3  # C-4: the deal passes to the left
    assert rounds == 11
    assert body["final"] is True and body["session"]["game_over"] is True
    best = min(expected)
    assert body["winners"] == [s for s in range(3) if expected[s] == best]
    assert sum(body["net"]) == 0  # C-3: the money after round 11 balances
    assert body["session"]["standings"][0]["value"] == best


@pytest.mark.rule("TT-13")
def test_tt_running_totals_chain(client: FlaskClient) -> None:
    """Three hands of Triple Tunk: running totals are the sums of ``net`` and always balance."""
    nxt: dict[str, Any] = {"players": 3, "unit": 10, "dealer": 0}
    outcomes = [
        {"kind": "tunk_out", "seat": 1},  # 1 collects 2 x 10 from each: [-20, 40, -20]
        {"kind": "knock", "knocker": 2, "totals": [5, 9, 3]},  # 2 strictly lowest: [-30, 30, 0]
        {"kind": "knock", "knocker": 0, "totals": [4, 4, 7]},  # 1 ties: 0 pays 1 (TT-13)
    ]
    for outcome in outcomes:
        body = client.post(TT, json={**nxt, "outcome": outcome}).get_json()
        nxt = body["next"]
        assert sum(nxt["running_totals"]) == 0
    assert nxt["running_totals"] == [-40, 40, 0]
    assert nxt["dealer"] == 0  # three hands: 0 -> 1 -> 2 -> 0
