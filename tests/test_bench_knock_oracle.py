"""bench.knock_oracle: the seat that knocks by the real hands plays the same deals as the
tournament, knocks exactly when it is strictly lowest, and is never caught."""

from __future__ import annotations

import random

import pytest

from bench.knock_oracle import (
    NeverKnocker,
    OracleKnocker,
    hero_policy,
    measure,
    play_one_deal,
)
from bench.tournament import deal_seed, opponents, play_deal
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.sim.core import Policy
from engine.sim.tunk import strictly_lowest

GAMES = (GAME_FLIP_FLOP, TRIPLE_TUNK)


def _policies(game: str, hero: str, players: int, d: int, style: str = "strong"):  # type: ignore[no-untyped-def]
    rng = random.Random(deal_seed(5, d, style))
    first = hero_policy(hero, game, random.Random(rng.getrandbits(64)))
    policies: list[Policy] = [first, *opponents(game, players, style, None, rng)]
    return policies, rng


@pytest.mark.parametrize("game", GAMES)
def test_dealing_here_plays_the_tournaments_deal(game: str) -> None:
    """With the advice in seat 0, a deal dealt by the bench ends exactly as the tournament's own
    deal from the same seed: the oracle sees the cards the simulator plays."""
    for d in range(6):
        mine, rng_a = _policies(game, "advice", 3, d)
        theirs, rng_b = _policies(game, "advice", 3, d)
        ours, _ = play_one_deal(game, mine, d % 3, rng_a)
        reference, _ = play_deal(game, theirs, d % 3, rng_b, None)
        assert (ours.net, ours.end, ours.turns) == (reference.net, reference.end, reference.turns)


@pytest.mark.parametrize("game", GAMES)
def test_the_oracle_knocks_exactly_when_strictly_lowest(game: str) -> None:
    """At every question it is asked the oracle's answer is the truth the calibration scores
    against (strictly lowest by every seat's real total), and a deal it ends is one it wins."""
    asked = knocked = 0
    for d in range(40):
        policies, rng = _policies(game, "oracle", 3, d)
        oracle = policies[0]
        assert isinstance(oracle, OracleKnocker)
        seen: list[tuple[tuple[int, ...], bool]] = []
        original = oracle.knock

        def spy(obs, _seen=seen, _knock=original, _o=oracle):  # type: ignore[no-untyped-def]
            answer = _knock(obs)
            _seen.append((tuple(_o.deal.totals()), answer))
            return answer

        oracle.knock = spy  # type: ignore[method-assign]
        result, _ = play_one_deal(game, policies, d % 3, rng)
        for totals, answer in seen:
            asked += 1
            assert answer == strictly_lowest(totals, 0)
        if seen and seen[-1][1]:
            knocked += 1
            assert result.game_net[0] > 0  # a strictly lowest knocker / dropper is paid
    assert asked > 20 and knocked > 0


def test_never_knocker_never_knocks() -> None:
    policies, rng = _policies(TRIPLE_TUNK, "never", 2, 0)
    assert isinstance(policies[0], NeverKnocker)
    obs_calls: list[bool] = []
    original = policies[0].knock

    def spy(obs):  # type: ignore[no-untyped-def]
        obs_calls.append(original(obs))
        return obs_calls[-1]

    policies[0].knock = spy  # type: ignore[method-assign]
    for d in range(10):
        policies, rng = _policies(TRIPLE_TUNK, "never", 2, d)
        policies[0].knock = spy  # type: ignore[method-assign]
        play_one_deal(TRIPLE_TUNK, policies, d % 2, rng)
    assert obs_calls and not any(obs_calls)


def test_the_split_into_jobs_does_not_change_the_deals() -> None:
    one = measure(TRIPLE_TUNK, 3, "strong", "oracle", 30, 4, 1)
    three = measure(TRIPLE_TUNK, 3, "strong", "oracle", 30, 4, 3)
    assert one.nets == three.nets and one.shares == three.shares
    assert len(one.nets) == 30


def test_unknown_hero_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown hero"):
        hero_policy("psychic", TRIPLE_TUNK, random.Random(0))
