"""bench.knock_oracle: the seat that knocks by the real hands plays the same deals as the
tournament, knocks exactly when it is strictly lowest, and is never caught."""

from __future__ import annotations

import random

import pytest

from bench.knock_oracle import (
    NeverKnocker,
    OracleKnocker,
    Question,
    hero_policy,
    measure,
    play_one_deal,
    questions_chunk,
    questions_table,
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
    answers: list[bool] = []
    for d in range(10):
        policies, rng = _policies(TRIPLE_TUNK, "never", 2, d)
        never = policies[0]
        assert isinstance(never, NeverKnocker)
        original = never.knock

        def spy(obs, _knock=original):  # type: ignore[no-untyped-def]
            answers.append(_knock(obs))
            return answers[-1]

        never.knock = spy  # type: ignore[method-assign]
        play_one_deal(TRIPLE_TUNK, policies, d % 2, rng)
    assert answers and not any(answers)


def test_the_split_into_jobs_does_not_change_the_deals() -> None:
    one = measure(TRIPLE_TUNK, 3, "strong", "oracle", 30, 4, 1)
    three = measure(TRIPLE_TUNK, 3, "strong", "oracle", 30, 4, 3)
    assert one.nets == three.nets and one.shares == three.shares
    assert len(one.nets) == 30


def test_unknown_hero_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown hero"):
        hero_policy("psychic", TRIPLE_TUNK, random.Random(0))


@pytest.mark.parametrize("players", [2, 3])
def test_a_knock_made_then_settles_as_the_deal_did(players: int) -> None:
    """Where the advice did knock, the settlement computed for "knock then" is the deal's own,
    so the two columns can be compared where it played on."""
    asked = questions_chunk((players, "strong", 7, 0, 60))
    knocked = [q for q in asked if q.knocked]
    assert knocked and len(asked) > len(knocked)
    for q in knocked:
        assert (q.knock_net, q.knock_share) == (q.net, q.share)
    for q in asked:
        assert 0.0 <= q.chance <= 1.0 and q.knock_share in (0.0, 0.5, 1.0, 1 / 3)


def test_the_questions_table_groups_and_averages() -> None:
    group = [Question(0.05, 8.0, True, -2.0, 0.0, -2.0, 0.0)] * 14
    group += [Question(0.07, 9.0, True, 1.0, 1.0, 1.0, 1.0)]
    played = [Question(0.95, 1.0, False, 1.0, 1.0, 2.0, 0.5)] * 20
    lines = questions_table(group + played)
    assert len(lines) == 3  # the header and two groups of at least 15
    assert lines[1].split() == [
        "played",
        "on",
        "0.9-1.0",
        "<=",
        "2",
        "20",
        "1.000",
        "+1.00",
        "|",
        "0.500",
        "+2.00",
    ]
    assert lines[2].split()[:4] == ["knocked", "0.0-0.1", ">", "6"]
    assert lines[2].split()[4:] == ["15", "0.067", "-1.80", "|", "0.067", "-1.80"]
    assert questions_table(group[:3]) == lines[:1]
