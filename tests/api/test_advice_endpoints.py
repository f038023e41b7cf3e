"""Advice endpoints through the test client: discard, draw and knock/drop.

Cases with one clearly right answer, worked out by hand from docs/rules.md: a discard that goes or
tunks out now is recommended; taking a discard that completes a run is certain; a 1-2 point hand
is almost surely the strictly lowest. Plus reproducibility (same request, same answer, cached),
the samples cap, the counts the answers rest on, and every documented example.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api.resources.examples import ADVICE_EXAMPLES
from api.schemas.advice import T13_MAX_SAMPLES, TUNK_MAX_SAMPLES
from tests.support.client import post, problem_fields

GFF = "/v1/games/game-flip-flop"
TT = "/v1/games/triple-tunk"
T13 = "/v1/games/three-thirteen"


# --- discard: going / tunking out now is recommended ----------------------------------------------


@pytest.mark.rule("GFF-10")
def test_gff_discard_that_goes_out_is_recommended(client: FlaskClient) -> None:
    # GFF-10: A-2-3-4-5 of spades is one spread; throwing the KH empties the hand.
    data = post(
        client, f"{GFF}/discard", {"hand": ["AS", "2S", "3S", "4S", "5S", "KH"], "players": 2}
    )
    assert data["discard"] == "KH"
    assert data["ends"] == "go_out"
    assert "go out" in data["explanation"]
    # Every distinct card is ranked, each once, with the engine's figures.
    assert sorted(o["card"] for o in data["options"]) == sorted(data["hand"])
    ks = {o["card"]: o for o in data["options"]}["KH"]
    assert ks["deadwood"] == 0  # the five-card run is all that is left (C-2)
    assert 0.0 <= ks["danger"] <= 1.0


@pytest.mark.rule("GFF-9")
def test_gff_two_spreads_of_three_tunk_out_without_discard(client: FlaskClient) -> None:
    # GFF-9: 3-4-5 of spades and three 9s, laid by the player: a tunk out, no card thrown.
    data = post(
        client, f"{GFF}/discard", {"hand": ["3S", "4S", "5S", "9H", "9D", "9C"], "players": 3}
    )
    assert data["discard"] is None
    assert data["ends"] == "tunk_out"


@pytest.mark.rule("GFF-3", "GFF-10")
def test_gff_go_out_by_laying_off_on_the_table(client: FlaskClient) -> None:
    # GFF-3 + GFF-10: the 9H and 8H extend the 10-J-Q of hearts, 7-7-7 is a set, throw the KC.
    body = {
        "hand": ["7S", "7D", "7C", "8H", "9H", "KC"],
        "table": [{"owner": 1, "cards": ["10H", "JH", "QH"]}],
        "players": 2,
    }
    data = post(client, f"{GFF}/discard", body)
    assert (data["discard"], data["ends"]) == ("KC", "go_out")


def test_lay_melds_advice(client: FlaskClient) -> None:
    # GFF: lay the 7-8-9 of hearts (it no longer counts in a drop, GFF-8); TT: hold the red-heart
    # sequence and go down all at once with a tunk out (TT-11).
    gff = post(
        client, f"{GFF}/discard", {"hand": ["7H", "8H", "9H", "KS", "QD", "2C"], "players": 2}
    )
    assert (gff["ends"], gff["lay_melds"]) == (None, True)
    tt_body = {"hand": ["RH1", "RH2", "RH3", "YT4", "GC?", "BS2"], "players": 3}
    tt = post(client, f"{TT}/discard", tt_body)
    assert (tt["ends"], tt["lay_melds"]) == (None, False)


@pytest.mark.rule("TT-11")
def test_tt_tunk_out_is_recommended(client: FlaskClient) -> None:
    # TT-11: red-heart 1-2-3 (a sequence) and three 4s through the black blob wild.
    body = {"hand": ["RH1", "RH2", "RH3", "YT4", "GT4", "KB4"], "players": 3}
    data = post(client, f"{TT}/discard", body)
    assert data["discard"] is None
    assert data["ends"] == "tunk_out"
    assert "tunk out" in data["explanation"]


@pytest.mark.rule("T13-1", "T13-5")
def test_t13_discard_that_goes_out_is_recommended(client: FlaskClient) -> None:
    # Round 3 (five cards, fives wild, T13-1): 5S is the 10H of 6-7-8-9-10 of hearts; KD goes.
    body = {"hand": ["5S", "6H", "7H", "8H", "9H", "KD"], "round": 3, "players": 2}
    data = post(client, f"{T13}/discard", body)
    assert data["discard"] == "KD"
    assert data["go_out"] is True
    assert data["wild_rank"] == "5"
    best = data["options"][0]
    assert best == {**best, "card": "KD", "deadwood": 0, "goes_out": True}
    assert "T13-5" in data["explanation"]
    assert all(not o["goes_out"] for o in data["options"][1:])


def test_t13_hold_when_no_card_goes_out(client: FlaskClient) -> None:
    body = {"hand": ["6H", "7H", "9H", "KD", "2C", "2S"], "round": 3, "players": 2}
    data = post(client, f"{T13}/discard", body)
    assert data["go_out"] is False
    assert data["last_turn"] is False
    scores = [o["score"] for o in data["options"]]
    assert scores == sorted(scores)
    assert data["discard"] == data["options"][0]["card"]


@pytest.mark.rule("T13-5")
def test_t13_last_turn_after_an_opponent_went_out(client: FlaskClient) -> None:
    body = {"hand": ["6H", "7H", "9H", "KD", "2C", "2S"], "round": 3, "players": 3, "out": 2}
    data = post(client, f"{T13}/discard", body)
    assert data["last_turn"] is True
    # Last turn (T13-5): nothing more to draw, so the expected deadwood is the deadwood kept.
    for option in data["options"]:
        assert option["expected_deadwood"] == option["deadwood"]


# --- draw -----------------------------------------------------------------------------------------


@pytest.mark.rule("GFF-2", "GFF-7")
def test_gff_take_the_discard_that_completes_a_run(client: FlaskClient) -> None:
    # 7H 8H + 9H is a run (GFF-2); then throw a 10-pointer: KS/QD + 2C left, 10 + 2 = 12.
    body = {"hand": ["7H", "8H", "KS", "QD", "2C"], "discard_pile": ["9H", "4D"], "players": 3}
    data = post(client, f"{GFF}/draw", body)
    assert data["choice"] == "discard_pile"
    assert data["take_discard"] is True
    assert data["top_discard"] == "9H"
    assert data["deadwood_now"] == 7 + 8 + 10 + 10 + 2
    assert data["deadwood_if_take"] == 12
    assert data["expected_deadwood_if_stock"] > 12


def test_draw_from_the_stock_when_the_pile_is_empty(client: FlaskClient) -> None:
    data = post(client, f"{GFF}/draw", {"hand": ["7H", "8H", "KS", "QD", "2C"], "players": 2})
    assert data["choice"] == "stock"
    assert data["top_discard"] is None
    assert data["deadwood_if_take"] is None


def test_t13_take_the_card_that_fills_a_run(client: FlaskClient) -> None:
    # Round 3: 6-7-8-9 of hearts with the 8H; throw the KD, the 2C is left: 2 points.
    body = {
        "hand": ["6H", "7H", "9H", "KD", "2C"],
        "round": 3,
        "players": 2,
        "discard_pile": ["8H"],
    }
    data = post(client, f"{T13}/draw", body)
    assert data["choice"] == "discard_pile"
    assert data["deadwood_if_take"] == 2
    assert data["discard_after_take"] == "KD"
    assert data["unseen"] == 52 - 5 - 1  # one deck minus the hand and the pile


def test_known_pickups_are_not_unseen(client: FlaskClient) -> None:
    # Cards known to be elsewhere are never imagined drawn: two known pickups, two fewer unseen.
    body = {
        "hand": ["6H", "7H", "9H", "KD", "2C"],
        "round": 3,
        "players": 2,
        "discard_pile": ["8H"],
        "opponents": [{"seat": 1, "picked_up": ["QS", "QD"]}],
    }
    assert post(client, f"{T13}/draw", body)["unseen"] == 52 - 5 - 1 - 2


def test_shown_combinations_are_not_unseen(client: FlaskClient) -> None:
    # The player who went out showed 9-9-9 (T13-5): three fewer unseen cards, last turn.
    body = {
        "hand": ["6H", "7H", "9H", "KD", "2C"],
        "round": 3,
        "players": 2,
        "discard_pile": ["8H"],
        "table": [{"owner": 1, "cards": ["9S", "9D", "9C"]}],
        "out": 1,
    }
    data = post(client, f"{T13}/draw", body)
    assert data["unseen"] == 52 - 5 - 1 - 3
    assert data["top_discard"] == "8H"


# --- knock / drop ---------------------------------------------------------------------------------


@pytest.mark.rule("GFF-8")
@pytest.mark.parametrize("hand", [["AS"], ["AS", "AD"]])
def test_gff_drop_with_one_or_two_points_is_a_near_certain_win(
    client: FlaskClient, hand: list[str]
) -> None:
    data = post(client, f"{GFF}/knock", {"hand": hand, "players": 4, "stake": 10})
    assert data["hand_total"] == len(hand)
    assert data["win_probability"] >= 0.99
    low, high = data["interval"]["low"], data["interval"]["high"]
    assert 0.0 <= low <= data["win_probability"] <= high <= 1.0
    assert data["knock"] is True and data["allowed"] is True
    assert data["payout_if_win"] == 3  # GFF-8: the game pot, one stake from each of 3 others
    assert data["expected_payout_money"] == pytest.approx(data["expected_payout"] * 10)
    assert data["unit"] == "stakes"


def test_tt_knock_with_two_points(client: FlaskClient) -> None:
    data = post(client, f"{TT}/knock", {"hand": ["RH1", "YC1"], "players": 3})
    assert data["win_probability"] >= 0.99
    assert 0.0 <= data["interval"]["low"] <= data["interval"]["high"] <= 1.0
    assert data["knock"] is True
    assert data["payout_if_win"] == 2  # TT-13: one unit from each of the two others


@pytest.mark.rule("TT-13", "TT-14")
@pytest.mark.parametrize(("early", "multiplier"), [(False, 2), (True, 4)])
def test_tt_knock_pays_the_multipliers(client: FlaskClient, early: bool, multiplier: int) -> None:
    # TT-14: the player owns a 3-card special (red-heart 1-2-3: sequence, colour and shape) on
    # the table, x2; an early-tunk claim doubles again. Each of the two others pays that.
    body = {
        "hand": ["YC1", "GT2"],
        "table": [{"owner": 0, "cards": ["RH1", "RH2", "RH3"]}],
        "players": 3,
        "early_tunk_claimed": early,
    }
    data = post(client, f"{TT}/knock", body)
    assert data["payout_if_win"] == multiplier * 2


@pytest.mark.rule("TT-12")
def test_tt_waiting_forbids_knocking(client: FlaskClient) -> None:
    data = post(client, f"{TT}/knock", {"hand": ["RH1", "YC1"], "players": 3, "waiting": 3})
    assert data["allowed"] is False
    assert data["knock"] is False
    assert "TT-12" in data["explanation"]


def test_interval_narrows_as_precision_tightens(client: FlaskClient) -> None:
    body = {"hand": ["9S", "8H", "7D", "6C"], "players": 2, "samples": 4000}
    widths = []
    used = []
    for precision in (0.1, 0.03, 0.01):
        data = post(client, f"{GFF}/knock", {**body, "precision": precision})
        used.append(data["samples"])
        widths.append(data["interval"]["high"] - data["interval"]["low"])
        assert widths[-1] / 2 <= precision or data["samples"] == 4000
    assert widths[0] > widths[1] > widths[2]
    assert used[0] < used[1] < used[2] <= 4000


def test_samples_above_the_tables_work_cap_are_refused(client: FlaskClient) -> None:
    # Six players, every opponent constrained by the opponent model: the cap names the maximum.
    opponents = [{"seat": s, "turns": 50, "discarded": ["RC1"]} for s in (1,)] + [
        {"seat": s, "turns": 50} for s in (2, 3, 4, 5)
    ]
    body = {"hand": ["RH2", "YT3", "GS4", "BB?", "KH1"], "players": 6, "opponents": opponents}
    errors = problem_fields(client, f"{TT}/knock", {**body, "samples": 20_000})
    assert "at most" in errors["samples"][0]
    cap = int(errors["samples"][0].split()[2])
    assert 500 <= cap < 20_000


# --- reproducible, cached, canonical --------------------------------------------------------------


def test_same_request_same_answer_and_a_cache_hit(client: FlaskClient) -> None:
    body = {"hand": ["9S", "8H", "7D", "6C"], "players": 3, "seed": 7, "samples": 500}
    first = client.post(f"{GFF}/knock", json=body)
    second = client.post(f"{GFF}/knock", json=body)
    assert first.headers["X-Cache"] == "MISS"
    assert second.headers["X-Cache"] == "HIT"
    assert first.get_json() == second.get_json()
    # Written another way (order, case, ten spelling): the same canonical request, a HIT.
    other = {**body, "hand": ["6c", "7D", "8h", "9S"]}
    third = client.post(f"{GFF}/knock", json=other)
    assert third.headers["X-Cache"] == "HIT"
    assert third.get_json() == first.get_json()


def test_same_answer_without_the_cache(make_app: Any) -> None:
    body = {"hand": ["9S", "8H", "7D", "6C"], "players": 3, "seed": 11, "samples": 400}
    answers = [make_app().test_client().post(f"{GFF}/knock", json=body) for _ in range(2)]
    assert [a.headers["X-Cache"] for a in answers] == ["MISS", "MISS"]
    assert answers[0].get_json() == answers[1].get_json()


def test_the_seed_is_part_of_a_sampled_answer(client: FlaskClient) -> None:
    body = {"hand": ["9S", "8H", "7D", "6C"], "players": 3, "samples": 300}
    a = client.post(f"{GFF}/knock", json={**body, "seed": 1})
    b = client.post(f"{GFF}/knock", json={**body, "seed": 2})
    assert b.headers["X-Cache"] == "MISS"
    assert (a.get_json()["seed"], b.get_json()["seed"]) == (1, 2)


def test_exact_answers_ignore_seed_and_samples(client: FlaskClient) -> None:
    # Tunk discard figures are exact enumerations: another seed is the same answer (a HIT).
    body = {"hand": ["AS", "2S", "3S", "4S", "5S", "KH"], "players": 2}
    first = client.post(f"{GFF}/discard", json={**body, "seed": 1})
    second = client.post(f"{GFF}/discard", json={**body, "seed": 2, "samples": 5})
    assert second.headers["X-Cache"] == "HIT"
    assert first.get_json() == second.get_json()


def test_cards_come_back_in_canonical_notation(client: FlaskClient) -> None:
    body = {"hand": ["th", "jh", "qh", "2c", "3d", "ks"], "players": 2}
    data = post(client, f"{GFF}/discard", body)
    assert "10H" in data["hand"] and "KS" in data["hand"]
    assert {o["card"] for o in data["options"]} == set(data["hand"])


# --- the samples cap ------------------------------------------------------------------------------


def test_samples_above_the_cap_is_a_422(client: FlaskClient) -> None:
    body = {"hand": ["AS", "AD"], "players": 2, "samples": TUNK_MAX_SAMPLES + 1}
    errors = problem_fields(client, f"{GFF}/knock", body)
    assert list(errors) == ["samples"]
    assert str(TUNK_MAX_SAMPLES) in errors["samples"][0]
    t13 = {
        "hand": ["6H", "7H", "9H", "KD", "2C", "2S"],
        "round": 3,
        "players": 2,
        "samples": T13_MAX_SAMPLES + 1,
    }
    assert list(problem_fields(client, f"{T13}/discard", t13)) == ["samples"]


def test_samples_at_the_cap_is_accepted(client: FlaskClient) -> None:
    body = {"hand": ["6H", "7H", "9H", "KD", "2C", "2S"], "round": 3, "players": 2}
    data = post(client, f"{T13}/discard", {**body, "samples": T13_MAX_SAMPLES})
    assert data["samples"] == T13_MAX_SAMPLES


def test_the_cap_is_documented(app: Flask) -> None:
    schemas = app.extensions["tunk.api"].spec.to_dict()["components"]["schemas"]
    samples = schemas["GffKnockRequest"]["properties"]["samples"]
    assert samples["maximum"] == TUNK_MAX_SAMPLES
    assert f"hard cap {TUNK_MAX_SAMPLES}" in samples["description"]
    assert schemas["T13DiscardRequest"]["properties"]["samples"]["maximum"] == T13_MAX_SAMPLES


# --- consistency checks ---------------------------------------------------------------------------


@pytest.mark.rule("GFF-5")
def test_flip_card_is_known_in_the_dealers_hand(client: FlaskClient) -> None:
    # GFF-5: the flip card stays with the dealer; a dealer whose hand is all known has no room.
    body = {
        "hand": ["AS", "AD"],
        "players": 2,
        "dealer": 1,
        "flip_card": "9D",
        "opponents": [{"seat": 1, "hand_size": 1, "picked_up": ["4C"]}],
    }
    assert list(problem_fields(client, f"{GFF}/knock", body)) == ["opponents[0].hand_size"]
    ok = {**body, "opponents": [{"seat": 1, "hand_size": 2, "picked_up": ["4C"]}]}
    data = post(client, f"{GFF}/knock", ok)
    # The dealer holds 4C + 9D = 13 > 2: the drop cannot lose.
    assert data["win_probability"] == 1.0


def test_known_cards_decide_the_drop(client: FlaskClient) -> None:
    # Everything the opponent holds is known (5 points): 9 points in hand always loses.
    body = {
        "hand": ["5S", "4S"],
        "players": 2,
        "opponents": [{"seat": 1, "hand_size": 2, "picked_up": ["2C", "3C"]}],
    }
    data = post(client, f"{GFF}/knock", body)
    assert data["win_probability"] == 0.0
    assert data["knock"] is False
    assert data["expected_payout"] == -2  # GFF-8: caught, the stake plus one extra


# --- the documented examples ----------------------------------------------------------------------


def _examples() -> list[tuple[str, str, str, dict[str, Any]]]:
    out = []
    for game, endpoints in ADVICE_EXAMPLES.items():
        for endpoint, named in endpoints.items():
            for name, example in named.items():
                out.append((game, endpoint, name, example["value"]))
    return out


@pytest.mark.parametrize(
    ("game", "endpoint", "name", "body"),
    _examples(),
    ids=[f"{g}-{e}-{n}" for g, e, n, _ in _examples()],
)
def test_every_advice_example_is_answered(
    client: FlaskClient, game: str, endpoint: str, name: str, body: dict[str, Any]
) -> None:
    data = post(client, f"/v1/games/{game}/{endpoint}", body)
    assert data["game"] == game
    assert data["explanation"]


def test_every_game_has_its_advice_routes(client: FlaskClient) -> None:
    for game in ("game-flip-flop", "triple-tunk"):
        for endpoint in ("discard", "draw", "knock"):
            assert client.get(f"/v1/games/{game}/{endpoint}").status_code == 405
    assert client.get(f"{T13}/discard").status_code == 405
    assert client.post(f"{T13}/knock", json={}).status_code == 404  # T13 has no knocking
