"""A settle answer's ``next`` merged into an advice request of the same game.

``next`` (bankrolls, stake, dealer, carried pots, running totals, previous totals, ...) is taken
from a real settle answer through the test client, merged with the hand and table, and posted
to every advice endpoint of the game. Fields that mean something change the advice (GFF-6: a
seat that cannot stake is not dealt in; T13-6: the totals set the risk); fields that contradict
the rest of the request are a 422 naming the field.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.support.client import post
from tests.support.client import problem_fields as problem

GFF = "/v1/games/game-flip-flop"
TT = "/v1/games/triple-tunk"
T13 = "/v1/games/three-thirteen"


def gff_next(client: FlaskClient) -> dict[str, Any]:
    """Seat 1 goes all in (200 at stake 100: k = 1, GFF-6) and loses: 100 left, k = 0."""
    settled = post(
        client,
        f"{GFF}/settle",
        {
            "bankrolls": [1000, 200, 1000],
            "stake": 100,
            "dealer": 0,
            "outcome": {"kind": "go_out", "seat": 2},
        },
    )
    nxt: dict[str, Any] = settled["next"]
    assert nxt["bankrolls"] == [900, 100, 1200] and nxt["dealer"] == 2
    return nxt


TT_HANDS = {
    "discard": ["RH1", "RH2", "RH3", "YT4", "GC?", "BS2"],
    "draw": ["RH1", "RH2", "YT4", "GC?", "BS2"],
    "knock": ["RH1", "YC2", "GT2", "BS3"],
}

GFF_HANDS = {
    "discard": ["2S", "3H", "9D", "9C", "KH", "QS"],
    "draw": ["2S", "3H", "9D", "9C", "KH"],
    "knock": ["AS", "2H", "3D", "4C", "9H"],
}


@pytest.mark.parametrize("endpoint", ["discard", "draw", "knock"])
def test_gff_next_is_accepted_by_every_advice_endpoint(client: FlaskClient, endpoint: str) -> None:
    nxt = gff_next(client)
    body = {**nxt, "hand": GFF_HANDS[endpoint], "players": 3, "discard_pile": ["7C"]}
    assert post(client, f"{GFF}/{endpoint}", body)["game"] == "game-flip-flop"


@pytest.mark.rule("GFF-6")
def test_gff_seat_that_cannot_stake_is_not_dealt_in(client: FlaskClient) -> None:
    """GFF-6: seat 1 (100 units, stake 100: k = 0) holds no cards, as `hand_size` 0 says."""
    nxt = gff_next(client)
    # An explicit precision samples to the end (no early stop once the advice is settled), so
    # both estimates below are within about 0.01 and their order is the model's, not noise's.
    hand = {
        "hand": GFF_HANDS["knock"],
        "players": 3,
        "seed": 7,
        "samples": 4000,
        "precision": 0.005,
    }
    chained = post(client, f"{GFF}/knock", {**nxt, **hand})
    spelled = client.post(
        f"{GFF}/knock",
        json={**hand, "dealer": 2, "stake": 100, "opponents": [{"seat": 1, "hand_size": 0}]},
    )
    # The same question, so the same cache entry: the key holds what the bankrolls mean.
    assert (spelled.status_code, spelled.headers["X-Cache"]) == (200, "HIT")
    spelled_out = spelled.get_json()
    both_dealt_in = post(client, f"{GFF}/knock", {**hand, "dealer": 2, "stake": 100})
    assert chained == spelled_out
    # One opponent fewer: a 10-point hand is more often strictly the lowest.
    assert chained["win_probability"] > both_dealt_in["win_probability"]
    # With both opponents the payout of a won drop is two stakes, with one only one (GFF-8).
    assert (chained["payout_if_win"], both_dealt_in["payout_if_win"]) == (1.0, 2.0)


@pytest.mark.rule("C-4", "GFF-6")
def test_gff_default_dealer_skips_a_seat_not_dealt_in(client: FlaskClient) -> None:
    """Without `dealer`, the nearest seat to the right that is dealt in deals (C-4, GFF-6)."""
    body = {"hand": GFF_HANDS["knock"], "players": 3, "seat": 2, "seed": 3, "samples": 500}
    bankrolls = {"bankrolls": [900, 100, 1200], "stake": 100}
    assert post(client, f"{GFF}/knock", {**body, **bankrolls}) == post(
        client,
        f"{GFF}/knock",
        {**body, "dealer": 0, "stake": 100, "opponents": [{"seat": 1, "hand_size": 0}]},
    )


@pytest.mark.rule("GFF-6")
def test_gff_next_fields_that_contradict_the_request_are_named(client: FlaskClient) -> None:
    nxt = gff_next(client)
    base = {**nxt, "hand": GFF_HANDS["knock"], "players": 3}
    path = f"{GFF}/knock"
    errors = problem(client, path, {**base, "opponents": [{"seat": 1, "hand_size": 5}]})
    assert "not dealt in" in str(errors["opponents[0].hand_size"])
    errors = problem(client, path, {**base, "opponents": [{"seat": 2, "hand_size": 0}]})
    assert "contradicts" in str(errors["opponents[0].hand_size"])
    assert "GFF-6" in str(problem(client, path, {**base, "dealer": 1})["dealer"])
    assert "bankrolls[1]" in problem(client, path, {**base, "seat": 1})
    assert "stake" in problem(client, path, {k: v for k, v in base.items() if k != "stake"})
    assert "bankrolls" in problem(client, path, {**base, "bankrolls": [900, 1200]})
    assert "flop_carry_in" in problem(client, path, {**base, "flop_carry_in": -1})
    assert "bankrolls" in problem(client, path, {**base, "bankrolls": [900, 100, 100]})


@pytest.mark.rule("TT-14", "C-4")
@pytest.mark.parametrize("endpoint", ["discard", "draw", "knock"])
def test_tt_next_is_accepted_and_running_totals_do_not_change_the_advice(
    client: FlaskClient, endpoint: str
) -> None:
    settled = post(
        client,
        f"{TT}/settle",
        {"players": 3, "unit": 10, "dealer": 0, "outcome": {"kind": "tunk_out", "seat": 1}},
    )
    nxt = settled["next"]
    assert nxt["running_totals"] == [-20, 40, -20] and nxt["dealer"] == 1  # TT-11, C-4
    body = {"hand": TT_HANDS[endpoint], "discard_pile": ["RC4"], "seed": 5, "samples": 300}
    chained = post(client, f"{TT}/{endpoint}", {**nxt, **body})
    assert chained == post(
        client, f"{TT}/{endpoint}", {**body, "players": 3, "unit": 10, "dealer": 1}
    )
    errors = problem(client, f"{TT}/{endpoint}", {**nxt, **body, "running_totals": [1, 2]})
    assert "3 seats" in str(errors["running_totals"])


T13_BODY: dict[str, Any] = {
    "hand": ["5S", "10S", "KS", "6H", "KH", "6D", "7C"],
    "players": 2,
    "discard_pile": ["7D"],
    "opponents": [{"seat": 1, "discarded": ["7D"]}],
}


def t13_next(client: FlaskClient) -> dict[str, Any]:
    """Round 3 of a two-player game: seat 1 reaches 400 points, seat 0 stays at 10."""
    settled = post(
        client,
        f"{T13}/settle",
        {
            "round": 3,
            "dealer": 0,
            "previous_totals": [10, 380],
            "went_out": 0,
            "round_scores": [0, 20],
        },
    )
    nxt: dict[str, Any] = settled["next"]
    assert (nxt["round"], nxt["dealer"], nxt["previous_totals"]) == (4, 1, [10, 400])
    return nxt


@pytest.mark.rule("T13-6")
def test_t13_previous_totals_mean_scores_and_change_the_advice(client: FlaskClient) -> None:
    """T13-6: far ahead (10 against 400) the player keeps the safest hand (risk 0.5)."""
    nxt = t13_next(client)
    chained = post(client, f"{T13}/discard", {**nxt, **T13_BODY})
    by_scores = post(client, f"{T13}/discard", {**T13_BODY, "round": 4, "scores": [10, 400]})
    without = post(client, f"{T13}/discard", {**T13_BODY, "round": 4})
    assert chained == by_scores
    assert (chained["discard"], chained["risk"]) == ("10S", 0.5)
    assert (without["discard"], without["risk"]) == ("7C", 0.0)
    agreeing = post(client, f"{T13}/discard", {**nxt, **T13_BODY, "scores": [10, 400]})
    assert agreeing == chained


def test_t13_next_is_accepted_by_draw(client: FlaskClient) -> None:
    nxt = t13_next(client)
    body = {**nxt, **T13_BODY, "hand": T13_BODY["hand"][:-1], "samples": 5}
    assert post(client, f"{T13}/draw", body)["round"] == 4


@pytest.mark.rule("T13-1")
def test_t13_next_fields_that_contradict_the_request_are_named(client: FlaskClient) -> None:
    nxt = t13_next(client)
    path = f"{T13}/discard"
    errors = problem(client, path, {**nxt, **T13_BODY, "scores": [10, 399]})
    assert "contradicts" in str(errors["previous_totals"])
    assert "previous_totals" in problem(client, path, {**nxt, **T13_BODY, "previous_totals": [1]})
    assert "dealer" in problem(client, path, {**nxt, **T13_BODY, "dealer": 2})
    round_one = {
        **nxt,
        **T13_BODY,
        "round": 1,
        "hand": ["AS", "2S", "3S", "9D"],
        "opponents": [],
        "discard_pile": [],
    }
    assert "round 1" in str(problem(client, path, round_one)["previous_totals"])
    # The hand must fit the round `next` names (T13-1): a round-3 hand is 6 cards, not 7.
    assert "hand" in problem(client, path, {**nxt, **T13_BODY, "round": 3})
