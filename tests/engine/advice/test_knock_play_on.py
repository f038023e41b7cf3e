"""The Triple Tunk value of playing on is not carried past the hand values where it was measured,
so a hand far from tunking out plays on rather than knocking into a near-certain catch."""

from __future__ import annotations

import random

import pytest

from engine.advice.situation import Observation
from engine.advice.tunk.knock import PLAY_ON_VALUE_RANGE, play_on_value
from engine.core.options import TRIPLE_TUNK
from engine.sim.core import Policy
from engine.sim.policies import AdvisorPolicy, StrongPolicy
from engine.sim.tt import play_tt_deal


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_line_is_flat_past_the_last_trusted_hand_value(players: int) -> None:
    hi = PLAY_ON_VALUE_RANGE[TRIPLE_TUNK][1]
    at_edge = play_on_value(TRIPLE_TUNK, players, 0.5, hi)
    assert play_on_value(TRIPLE_TUNK, players, 0.5, hi + 7.0) == at_edge
    assert play_on_value(TRIPLE_TUNK, players, 0.5, hi - 1.0) > at_edge  # worse hands, less


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
    """Against three-seat tables of the strong player the advice used to knock about one deal in
    twenty with under a 10% chance of being lowest (a bad hand's play on read as worse than a
    catch); with the line cut it plays those hands on."""
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
