"""``POST /v1/games/{game}/profile``: opponent profiles learned from the hands shown at a knock
(TT-13) or drop (GFF-8), and sent back as each opponent's ``profile`` in the next deal."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from flask.testing import FlaskClient

from api.resources.examples import ADVICE_EXAMPLES
from api.schemas.advice.opponents import DROP_TOTAL_NAMES
from engine.advice.tunk.profile import DEFAULT_PROFILE
from engine.advice.tunk.styles import (
    DEFAULT_DROP_TOTALS,
    DROP_STYLE_PRIOR,
    KEEPS_FLOOR,
    KEEPS_PRIOR,
)
from tests.support.client import post, problem_fields

GFF = "/v1/games/game-flip-flop"
TT = "/v1/games/triple-tunk"


def example(game: str) -> dict[str, Any]:
    return copy.deepcopy(ADVICE_EXAMPLES[game]["profile"]["example"]["value"])


@pytest.mark.rule("GFF-8")
def test_a_high_hand_after_high_discards_moves_the_profile_towards_random_play(
    client: FlaskClient,
) -> None:
    # Seat 2 threw a QH and a 10S, then showed 41 points (GFF-1: KD QS JH 10 each, 9C, 2C);
    # seat 1 dropped with 9 points and its card play is not learned from (GFF-8: its total is
    # its choice); its drop teaches its drop timing only.
    data = post(client, f"{GFF}/profile", example("game-flip-flop"))
    one, two = data["profiles"]
    assert (one["seat"], one["learned"], one["shown_total"]) == (1, False, 9)
    assert "ended the deal" in one["reason"]
    card_play = {k: one["profile"][k] for k in ("baseline", "hoarder", "random")}
    assert card_play == dict(zip(("baseline", "hoarder", "random"), DEFAULT_PROFILE, strict=True))
    assert one["profile"]["drops_when_lowest"] != DROP_STYLE_PRIOR
    assert (two["seat"], two["learned"], two["shown_total"]) == (2, True, 41)
    lk = two["likelihoods"]
    # no meld in it, so a hoarder's high hands (holding one) do not match it either
    assert lk["random"] > lk["hoarder"] >= lk["baseline"]
    sent = {"baseline": 0.7, "hoarder": 0.15, "random": 0.15}  # the example's profile for seat 2
    got = two["profile"]
    assert got["random"] > sent["random"] and got["baseline"] < sent["baseline"]
    assert got["baseline"] + got["hoarder"] + got["random"] == pytest.approx(1.0, abs=1e-3)
    assert "Seat 2 showed 41 points" in data["explanation"]


@pytest.mark.rule("TT-13")
def test_a_low_hand_after_low_discards_moves_the_profile_towards_throwing_the_highest(
    client: FlaskClient,
) -> None:
    data = post(client, f"{TT}/profile", example("triple-tunk"))
    one = data["profiles"][0]
    assert (one["seat"], one["learned"], one["shown_total"]) == (1, True, 4)
    assert one["profile"]["baseline"] > DEFAULT_PROFILE[0]


def test_the_answer_does_not_depend_on_the_order_of_the_shown_hands(client: FlaskClient) -> None:
    body = example("game-flip-flop")
    flipped = copy.deepcopy(body)
    flipped["final_hands"].reverse()
    flipped["final_hands"][1]["cards"].reverse()
    assert post(client, f"{GFF}/profile", body) == post(client, f"{GFF}/profile", flipped)


def test_a_profile_sent_back_changes_the_win_probability(client: FlaskClient) -> None:
    # GFF-8 drop question with 30 points: the opponent threw a 10 and a 9. Read as throwing its
    # highest card, it keeps nothing above 9 points (GFF-1) and rarely more than 30 in five
    # cards; read as throwing any card, it may hold anything, so 30 is likelier the lowest.
    base: dict[str, Any] = {
        "hand": ["9S", "8D", "6C", "3H", "4S"],
        "players": 2,
        "discard_pile": ["9C", "10H"],
        "opponents": [{"seat": 1, "discarded": ["9C", "10H"], "turns": 2}],
        "samples": 2000,
        "precision": 0.001,
    }

    def win(profile: dict[str, float]) -> float:
        body = copy.deepcopy(base)
        for opp in body["opponents"]:
            opp["profile"] = profile
        return float(post(client, f"{GFF}/knock", body)["win_probability"])

    random_like = win({"baseline": 0.02, "hoarder": 0.02, "random": 0.96})
    highest_like = win({"baseline": 0.96, "hoarder": 0.02, "random": 0.02})
    assert random_like > highest_like + 0.3
    # weights are shares: scaling them changes nothing
    assert win({"baseline": 0.01, "hoarder": 0.01, "random": 0.48}) == random_like


@pytest.mark.rule("GFF-8")
def test_an_opponent_that_drops_when_likely_lowest_and_plays_on_is_read_higher(
    client: FlaskClient,
) -> None:
    # GFF-8 drop question heads-up with 24 points; the opponent has played three turns. If it
    # drops whenever its total is likely lowest, playing on says its total is not low.
    base: dict[str, Any] = {
        "hand": ["9S", "8D", "3C", "2H", "2S"],
        "players": 2,
        "opponents": [{"seat": 1, "turns": 3}],
        "samples": 2000,
        "precision": 0.001,
    }

    def win(drops: float | None) -> float:
        body = copy.deepcopy(base)
        profile = {"baseline": 0.7, "hoarder": 0.15, "random": 0.15, "drops_when_lowest": drops}
        body["opponents"][0]["profile"] = profile
        return float(post(client, f"{GFF}/knock", body)["win_probability"])

    assert win(0.9) > win(0.0)
    assert win(None) == win(DROP_STYLE_PRIOR)  # absent: the default prior


@pytest.mark.rule("GFF-8")
def test_the_learned_fixed_totals_come_back_and_go_in(client: FlaskClient) -> None:
    # Seat 1 dropped on 9 points (the example): of the fixed totals only "at 10" drops there,
    # so its weight rises and the drop timing's shares still sum to 1.
    data = post(client, f"{GFF}/profile", example("game-flip-flop"))
    totals = data["profiles"][0]["profile"]["drop_totals"]
    assert set(totals) == set(DROP_TOTAL_NAMES)
    assert sum(totals.values()) == pytest.approx(1.0, abs=1e-3)
    assert totals["at_10"] > DEFAULT_DROP_TOTALS[2]
    assert totals["never"] < DEFAULT_DROP_TOTALS[0]
    assert "at 10 or less" in data["explanation"]
    # sent back (halved: shares, they mean the same), the next request reads them
    body = example("game-flip-flop")
    scaled = {k: v / 2 for k, v in totals.items()}
    body["opponents"][0]["profile"] = {**data["profiles"][0]["profile"], "drop_totals": scaled}
    again = post(client, f"{GFF}/profile", body)["profiles"][0]["profile"]["drop_totals"]
    assert again["at_10"] > totals["at_10"]


def with_drop_totals(totals: dict[str, float]) -> Any:
    """A change giving seat 1's entry a profile with these ``drop_totals``."""
    profile = {"baseline": 1, "hoarder": 0, "random": 0, "drop_totals": totals}
    return lambda b: b["opponents"][1].update(profile=profile)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda b: b.pop("final_hands"), "final_hands"),
        (lambda b: b.update(final_hands=[]), "final_hands"),
        (lambda b: b["final_hands"][0].update(seat=0), "final_hands[0].seat"),
        (lambda b: b["final_hands"][1].update(seat=1), "final_hands[1].seat"),
        (lambda b: b["final_hands"][0].update(seat=7), "final_hands[0].seat"),
        (lambda b: b["final_hands"][0]["cards"].pop(), "final_hands[0].cards"),
        (lambda b: b["final_hands"][1]["cards"].__setitem__(0, "AS"), "final_hands[1].cards[0]"),
        (lambda b: b.update(ended_by=5), "ended_by"),
        (
            lambda b: b["opponents"][1].update(profile={"baseline": 0, "hoarder": 0, "random": 0}),
            "opponents[1].profile",
        ),
        (
            lambda b: b["opponents"][1].update(profile={"baseline": 2, "hoarder": 0, "random": 0}),
            "opponents[1].profile.baseline",
        ),
        (
            lambda b: b["opponents"][1].update(
                profile={"baseline": 1, "hoarder": 0, "random": 0, "drops_when_lowest": 1.5}
            ),
            "opponents[1].profile.drops_when_lowest",
        ),
        (
            lambda b: b["opponents"][1].update(
                profile={"baseline": 1, "hoarder": 0, "random": 0, "keeps_flexible": -0.1}
            ),
            "opponents[1].profile.keeps_flexible",
        ),
        (
            with_drop_totals({"never": 0, "at_5": 0, "at_10": 0, "at_random": 0}),
            "opponents[1].profile.drop_totals",
        ),
        (
            with_drop_totals({"never": 1, "at_5": 0, "at_10": 0}),
            "opponents[1].profile.drop_totals.at_random",
        ),
        (
            lambda b: b["opponents"][1].update(picked_up=["7C"]),
            "final_hands[1].cards",
        ),
    ],
)
def test_bad_profile_requests_name_the_field(client: FlaskClient, change: Any, field: str) -> None:
    body = example("game-flip-flop")
    change(body)
    errors = problem_fields(client, f"{GFF}/profile", body)
    assert any(k == field or k.startswith(field) for k in errors), errors


def test_a_profile_answer_goes_back_into_the_next_deal_as_is(client: FlaskClient) -> None:
    learned = post(client, f"{GFF}/profile", example("game-flip-flop"))["profiles"][1]["profile"]
    # Every draw made (no early stop), so that seat 2's weight of random play, 0.15 -> 0.34,
    # shows in its draws: in-deal evidence already reads it as mostly random (it picked up a
    # jack above the ten it threw), so a few dozen draws can come out the same either way.
    plain = copy.deepcopy(ADVICE_EXAMPLES["game-flip-flop"]["knock"]["example"]["value"])
    plain.update(samples=2000, precision=0.001)
    body = copy.deepcopy(plain)
    body["opponents"][1]["profile"] = learned
    sent = post(client, f"{GFF}/knock", body)
    assert sent["win_probability"] != post(client, f"{GFF}/knock", plain)["win_probability"]


@pytest.mark.rule("TT-3")
def test_a_tt_opponent_keeping_its_flexible_cards_is_read_higher(client: FlaskClient) -> None:
    # TT-13 knock question on 12 points: seat 1 threw a 2 and a 3 (TT-2), so a player throwing
    # by points holds nothing above 3; one keeping black, blob and ? cards (TT-3, TT-4) may
    # hold them whatever they are worth, so 12 points is likelier the lowest.
    base: dict[str, Any] = {
        "hand": ["RH3", "YC4", "GT3", "BS2"],
        "players": 3,
        "discard_pile": ["GS2", "YT3"],
        "opponents": [
            {"seat": 1, "discarded": ["GS2", "YT3"], "turns": 2, "hand_size": 4},
            {"seat": 2, "turns": 0},
        ],
        "samples": 2000,
        "precision": 0.001,
    }
    chances = []
    for keeps in (0.0, 1.0):
        body = copy.deepcopy(base)
        body["opponents"][0]["profile"] = {
            **dict(zip(("baseline", "hoarder", "random"), DEFAULT_PROFILE, strict=True)),
            "keeps_flexible": keeps,
        }
        chances.append(post(client, f"{TT}/knock", body)["win_probability"])
    assert chances[1] > chances[0] + 0.05


def test_the_learned_keeping_chance_comes_back(client: FlaskClient) -> None:
    # Each opponent of the example threw one card with no wild part (RC4, GS4): evidence for
    # keeping the flexible ones, read from the prior 0.5 (styles.keeps_posterior).
    data = post(client, f"{TT}/profile", example("triple-tunk"))
    read = 0.5 * 0.82 / (0.5 * 0.82 + 0.5 * 0.59)
    expected = (1 - KEEPS_FLOOR) * read + KEEPS_FLOOR * KEEPS_PRIOR
    for entry in data["profiles"]:
        assert entry["profile"]["keeps_flexible"] == pytest.approx(expected, abs=1e-3)
    assert "keeping wild and ? cards" in data["explanation"]
    gff = post(client, f"{GFF}/profile", example("game-flip-flop"))
    assert all(e["profile"]["keeps_flexible"] is None for e in gff["profiles"] if e["profile"])


def tt_went_out() -> dict[str, Any]:
    """Seat 1 of a 3-player Triple Tunk deal tunked out with two 3-card melds, none laid before
    (TT-11); the situation is the one at the start of its turn, from seat 0."""
    return {
        "hand": ["RS2", "YS3", "GH1", "BH2", "YH3"],
        "players": 3,
        "dealer": 2,
        "discard_pile": ["YH?", "GS?"],
        "opponents": [
            {"seat": 1, "hand_size": 5, "turns": 3, "discarded": ["YH?", "GS?"]},
            {
                "seat": 2,
                "hand_size": 5,
                "turns": 3,
                "profile": {"baseline": 0.5, "hoarder": 0.25, "random": 0.25},
            },
        ],
        "went_out": {"seat": 1, "cards": ["RH1", "RH2", "RH3", "YC4", "GC4", "BC4"]},
    }


@pytest.mark.rule("TT-11")
def test_an_opponent_that_went_out_holding_a_meld_is_read_as_holding_its_melds(
    client: FlaskClient,
) -> None:
    # A player who lays every meld at once would have laid one of the two melds before this
    # turn; one who holds its melds went out this way. Nobody else showed a hand.
    data = post(client, f"{TT}/profile", tt_went_out())
    one, two = data["profiles"]
    assert (one["seat"], one["learned"], one["shown_total"]) == (1, True, None)
    assert one["likelihoods"]["hoarder"] > 10 * one["likelihoods"]["baseline"]
    assert one["profile"]["hoarder"] > DEFAULT_PROFILE[1]
    assert one["profile"]["baseline"] < DEFAULT_PROFILE[0]
    assert one["profile"]["drops_when_lowest"] == pytest.approx(DROP_STYLE_PRIOR, abs=1e-3)
    assert (two["seat"], two["learned"]) == (2, False)
    assert "went out" in two["reason"]
    assert two["profile"] == {
        "baseline": 0.5,
        "hoarder": 0.25,
        "random": 0.25,
        "drops_when_lowest": DROP_STYLE_PRIOR,
        "drop_totals": dict(zip(DROP_TOTAL_NAMES, DEFAULT_DROP_TOTALS, strict=True)),
        "keeps_flexible": KEEPS_PRIOR,  # it discarded nothing this deal: the prior stays
    }
    assert "Seat 1 went out, likeliest for a player who holds its melds" in data["explanation"]


@pytest.mark.rule("TT-11")
def test_an_opponent_that_went_out_from_two_cards_is_not_learned_from(
    client: FlaskClient,
) -> None:
    # Seat 1 laid red hearts 1-2-3 on an earlier turn and held two cards; with the one drawn it
    # puts YC4 then YC? on seat 2's yellow circles 1-2-3 and throws GT2 (TT-11, a 3-card meld
    # and two lay-offs). Any way of playing goes out from so few cards about as often, so its
    # profile is sent back unchanged, with the reason.
    body = tt_went_out()
    body["table"] = [
        {"owner": 1, "cards": ["RH1", "RH2", "RH3"]},
        {"owner": 2, "cards": ["YC1", "YC2", "YC3"]},
    ]
    body["opponents"][0]["hand_size"] = 2
    body["went_out"]["cards"] = ["YC4", "YC?", "GT2"]
    data = post(client, f"{TT}/profile", body)
    one = data["profiles"][0]
    assert (one["seat"], one["learned"], one["likelihoods"]) == (1, False, None)
    assert "went out from 2 cards" in one["reason"]
    # none was sent and its card play was not learned from: the default prior; its drop
    # timing reads the turn start it passed up holding 11 points or less (C-5)
    card_play = {k: one["profile"][k] for k in ("baseline", "hoarder", "random")}
    assert card_play == dict(zip(("baseline", "hoarder", "random"), DEFAULT_PROFILE, strict=True))
    body["opponents"][0]["profile"] = {"baseline": 0.6, "hoarder": 0.3, "random": 0.1}
    one = post(client, f"{TT}/profile", body)["profiles"][0]
    assert not one["learned"]
    assert {k: one["profile"][k] for k in ("baseline", "hoarder", "random")} == pytest.approx(
        {"baseline": 0.6, "hoarder": 0.3, "random": 0.1}
    )


@pytest.mark.rule("TT-10", "TT-11")
def test_an_opponent_that_went_out_with_the_top_discard(client: FlaskClient) -> None:
    # Seat 1 took the RH3 seat 0 had just thrown (TT-10) and tunked out: the card drawn is known,
    # and the answer does not depend on the order its cards are listed in.
    body = tt_went_out()
    body["discard_pile"] = ["RH3", *body["discard_pile"]]
    body["went_out"]["picked_up"] = "RH3"
    data = post(client, f"{TT}/profile", body)
    one = data["profiles"][0]
    assert one["learned"] and one["likelihoods"]["hoarder"] > 10 * one["likelihoods"]["baseline"]
    body["went_out"]["cards"].reverse()
    assert post(client, f"{TT}/profile", body) == data


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda b: b.update(final_hands=[{"seat": 2, "cards": ["KB?"] * 5}]), "went_out"),
        (lambda b: b.update(ended_by=1), "ended_by"),
        (lambda b: b["went_out"].update(seat=0), "went_out.seat"),
        (lambda b: b["went_out"].update(seat=5), "went_out.seat"),
        (lambda b: b["went_out"]["cards"].pop(), "went_out.cards"),
        (lambda b: b["went_out"]["cards"].__setitem__(0, "RS2"), "went_out.cards"),
        (lambda b: b["went_out"].update(picked_up="GS?"), "went_out.picked_up"),
        (lambda b: b["went_out"].update(picked_up="RH1"), "went_out.picked_up"),
        (lambda b: b["opponents"][0].update(picked_up=["KB?"]), "went_out.cards"),
        (lambda b: b["went_out"].pop("cards"), "went_out.cards"),
        (lambda b: b["went_out"]["cards"].__setitem__(5, "YS1"), "went_out.cards"),
    ],
)
def test_bad_went_out_requests_name_the_field(client: FlaskClient, change: Any, field: str) -> None:
    body = tt_went_out()
    change(body)
    errors = problem_fields(client, f"{TT}/profile", body)
    assert any(k == field or k.startswith(field) for k in errors), errors


@pytest.mark.rule("GFF-9")
def test_a_game_flip_flop_opponent_that_tunked_out_is_learned_from(client: FlaskClient) -> None:
    # Seat 1 tunked out with two fresh spreads (GFF-9): a player who lays every spread at once
    # holds none before its draw, so no drawn hand under that reading matches.
    body: dict[str, Any] = {
        "hand": ["9S", "9D", "4C", "5C", "7H"],
        "players": 2,
        "discard_pile": ["KH", "QD", "KS"],
        "opponents": [{"seat": 1, "turns": 8, "discarded": ["KH", "QD", "KS"]}],
        "went_out": {"seat": 1, "cards": ["2S", "3S", "4S", "8D", "8C", "8H"]},
    }
    one = post(client, f"{GFF}/profile", body)["profiles"][0]
    assert one["learned"]
    lk = one["likelihoods"]
    assert lk["baseline"] <= min(lk["hoarder"], lk["random"])
