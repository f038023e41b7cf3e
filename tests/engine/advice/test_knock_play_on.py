"""The Triple Tunk value of playing on (TT-13): knocking's payout now plus a fitted advantage of
playing on, read from the win chance, the hand, the nearest opponent to tunking out and how far
the deal has gone. A hand far from tunking out plays on rather than knocking into a near-certain
catch, and a sure win on a poor hand knocks."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.advice.situation import Observation
from engine.advice.tunk.knock import (
    CLOSEST_OUT_CAP,
    DRAWN_CAP,
    PLAY_ON_ADVANTAGE,
    PlayOnState,
    knock_advice,
    play_on_advantage,
    play_on_features,
    play_on_state,
    play_on_value,
)
from engine.core.options import TRIPLE_TUNK, TripleTunkRules
from engine.sim.core import Policy
from engine.sim.policies import AdvisorPolicy, StrongPolicy
from engine.sim.tt import deal_tt, play_tt_deal


def _start(players: int, seed: int = 5) -> Observation:
    """Seat 0's view at the first knock question of a fresh deal."""
    deal = deal_tt(players, players - 1, random.Random(seed), TripleTunkRules())
    return deal.observation(0, 0)


@pytest.mark.rule("TT-13")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_table_has_one_coefficient_per_term(players: int) -> None:
    terms = play_on_features(TRIPLE_TUNK, 0.4, 0.2, PlayOnState(1.5, 3, 4))
    assert len(PLAY_ON_ADVANTAGE[(TRIPLE_TUNK, players)]) == len(terms) == 12
    assert terms == pytest.approx((1, 0.4, 0.16, 1.5, 0.6, 0, 0, 3, 1.2, 0.4, 0.2, 0.08))


@pytest.mark.rule("TT-13")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_state_reads_cards_drawn_and_the_nearest_opponent(players: int) -> None:
    obs = _start(players)
    assert play_on_state(obs, 2.0) == PlayOnState(2.0, 5, 0)  # 125 - 5n - 1 cards in the stock
    later = replace(obs, stock_size=obs.stock_size - 7, hand_sizes=(5, 3, *obs.hand_sizes[2:]))
    assert play_on_state(later, 2.0) == PlayOnState(2.0, 3, 7)
    # a stock rebuilt from the discards (TT-15) larger than the dealt one: read as late
    rebuilt = replace(obs, stock_size=obs.stock_size + 1)
    assert play_on_state(rebuilt, 2.0).drawn == DRAWN_CAP[TRIPLE_TUNK]
    # an opponent out of the deal (no cards) is nobody's nearest
    gone = replace(obs, hand_sizes=(5, 0, *obs.hand_sizes[2:]))
    assert play_on_state(gone, 2.0).closest_out == 5


@pytest.mark.rule("TT-13")
def test_terms_past_their_caps_read_as_the_cap() -> None:
    cap = DRAWN_CAP[TRIPLE_TUNK]
    capped = play_on_features(TRIPLE_TUNK, 0.5, 0.0, PlayOnState(40.0, 9, 99))
    at_cap = play_on_features(TRIPLE_TUNK, 0.5, 0.0, PlayOnState(20.0, CLOSEST_OUT_CAP, cap))
    assert capped == at_cap


@pytest.mark.rule("TT-13")
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("hand_value", [-6.0, 1.0, 5.0, 12.0])
def test_a_sure_catch_plays_on_and_a_sure_win_on_a_poor_hand_knocks(
    players: int, hand_value: float
) -> None:
    caught = -float(players - 1)  # every other seat is lower: each is paid its unit
    state = PlayOnState(hand_value, 5, 2)
    assert play_on_value(TRIPLE_TUNK, players, 0.0, state, caught) > caught
    if hand_value >= 5.0:  # far from tunking out: take the sure win
        won = float(players - 1)
        assert play_on_value(TRIPLE_TUNK, players, 1.0, state, won) < won


@pytest.mark.rule("TT-13")
def test_larger_tables_read_the_nearest_fitted_table() -> None:
    state = PlayOnState(1.0, 4, 3)
    for players in (5, 6):
        assert play_on_advantage(TRIPLE_TUNK, players, 0.6, 1.2, state) == play_on_advantage(
            TRIPLE_TUNK, 4, 0.6, 1.2, state
        )


@pytest.mark.rule("TT-13")
def test_the_advice_reports_the_value_it_decided_by() -> None:
    obs = _start(3, seed=11)
    advice = knock_advice(obs, samples=200, precision=None)
    assert advice.hand_value is not None
    state = play_on_state(obs, advice.hand_value)
    expected = advice.expected_payout + (
        play_on_advantage(TRIPLE_TUNK, 3, advice.win_probability, advice.expected_payout, state)
        or 0.0
    )
    assert advice.value_of_playing_on == pytest.approx(expected)
    assert advice.knock == (advice.expected_payout > advice.value_of_playing_on)


class _Asked(AdvisorPolicy):
    """The advisor, noting the win probability of every knock it makes."""

    knocks: list[float]

    def knock(self, obs: Observation) -> bool:
        answer = super().knock(obs)
        if answer and self.last_win_probability is not None:
            self.knocks.append(self.last_win_probability)
        return answer


@pytest.mark.rule("TT-13")
def test_the_advice_does_not_knock_a_hopeless_hand_at_three_players() -> None:
    """Against three-seat tables of the strong player a play-on value carried past the hands it
    was measured on once had the advice knock about one deal in twenty with under a 10% chance
    of being lowest; the advantage, fitted over every chance, plays those hands on."""
    knocks: list[float] = []
    for d in range(150):
        rng = random.Random(9_000 + d)
        advisor = _Asked(TRIPLE_TUNK, random.Random(rng.getrandbits(64)))
        advisor.knocks = knocks
        policies: list[Policy] = [
            advisor,
            StrongPolicy(TRIPLE_TUNK, random.Random(rng.getrandbits(64))),
            StrongPolicy(TRIPLE_TUNK, random.Random(rng.getrandbits(64))),
        ]
        play_tt_deal(policies, d % 3, rng)
    assert len(knocks) > 20
    assert min(knocks) >= 0.1
