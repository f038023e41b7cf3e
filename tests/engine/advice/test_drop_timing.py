"""Drop timing of opponents (engine.advice.tunk.styles, .profile, .knock): the style "drops when
likely lowest", the total it stops on, how its weight is learned across deals from the drops
(GFF-8) and knocks (TT-13) that end them, and how the win probability reads an opponent that
passed up its turn starts."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.advice.situation import Observation
from engine.advice.tunk.knock import (
    PlayOnState,
    knock_advice,
    likely_lowest,
    play_on_value,
    win_probability,
)
from engine.advice.tunk.profile import (
    DROP_STYLE_PRIOR,
    PROFILE_FLOOR,
    learn_profiles,
    updated_drop_style,
)
from engine.advice.tunk.styles import (
    KNOCK_LIMIT,
    drop_style,
    drop_style_likelihoods,
    fixed_drop_chance,
    lowest_cutoff,
    passes_posterior,
)
from engine.core.cards import parse_cards
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.core.stats import wilson_interval
from tests.support.observations import gff_observation


def heads_up(hand: str, **fields: object) -> Observation:
    """Seat 0 of a heads-up GFF deal at its turn start; seat 1 has played three turns."""
    defaults: dict[str, object] = dict(seat=0, dealer=1, turns=(3, 3), stock_size=30)
    return gff_observation(hand, **{**defaults, **fields})


def test_the_cutoff_is_the_highest_total_lowest_often_enough() -> None:
    totals = list(range(1, 101))  # one drawn total of each of 1..100
    # 2 players at 0.75: S(t) = (100 - t) / 100 >= 0.75 up to t = 25
    assert lowest_cutoff(totals, 2, 0.75) == 25
    # 3 players at 0.75: S(t) ** 2 >= 0.75 <=> S(t) >= 0.866, so t <= 13
    assert lowest_cutoff(totals, 3, 0.75) == 13
    assert lowest_cutoff([], 3, 0.75) == -1
    assert lowest_cutoff([7, 7, 7, 9], 2, 0.75) == 6  # below every drawn total


@given(st.lists(st.integers(0, 60), min_size=1, max_size=80), st.integers(2, 6))
def test_the_cutoff_meets_its_definition(totals: list[int], players: int) -> None:
    totals.sort()
    likely = 0.75
    cut = lowest_cutoff(totals, players, likely)

    def lowest(t: int) -> float:
        return (sum(x > t for x in totals) / len(totals)) ** (players - 1)

    assert lowest(cut + 1) < likely
    assert cut < totals[0] or lowest(cut) >= likely - 1e-12


@pytest.mark.rule("GFF-8", "TT-13")
def test_the_stopping_chance_is_where_knocking_meets_playing_on() -> None:
    for game, caught in ((GAME_FLIP_FLOP, -2.0), (TRIPLE_TUNK, -1.0)):
        for players in (2, 3, 4):
            p = likely_lowest(game, players)
            value = {GAME_FLIP_FLOP: 15.0, TRIPLE_TUNK: 1.0}[game]
            edge = p * (players - 1) + (1 - p) * caught
            on = play_on_value(game, players, p, PlayOnState(value), edge)
            assert edge == pytest.approx(on, abs=1e-6)
    # more opponents, more stakes to win: a player stops on a smaller chance
    assert likely_lowest(GAME_FLIP_FLOP, 2) > likely_lowest(GAME_FLIP_FLOP, 3)
    assert likely_lowest(GAME_FLIP_FLOP, 3) > likely_lowest(GAME_FLIP_FLOP, 4)


def test_a_drop_or_pass_on_a_high_total_tells_the_styles_apart_only_by_the_cutoff() -> None:
    # above the cutoff and above every fixed style's total: no evidence either way
    assert drop_style_likelihoods(20, True, 12) == pytest.approx(
        (fixed_drop_chance(KNOCK_LIMIT + 1),) * 2
    )
    assert drop_style_likelihoods(20, False, 12)[0] == pytest.approx(
        drop_style_likelihoods(20, False, 12)[1]
    )
    # a drop on 18 when 18 was likely lowest: only that style drops there
    lowest, fixed = drop_style_likelihoods(18, True, 20)
    assert lowest > 50 * fixed
    # passing on 4 when it was likely lowest: evidence against the style
    lowest, fixed = drop_style_likelihoods(4, False, 8)
    assert lowest < fixed / 5


def test_the_weight_moves_with_the_evidence_and_keeps_a_floor() -> None:
    assert updated_drop_style(None, None) == pytest.approx(DROP_STYLE_PRIOR)
    up = updated_drop_style(0.2, drop_style_likelihoods(18, True, 20))
    down = updated_drop_style(0.2, drop_style_likelihoods(4, False, 8))
    assert up > 0.2 > down
    weight = 1.0
    for _ in range(200):  # passing on likely lowest totals deal after deal
        weight = updated_drop_style(weight, drop_style_likelihoods(3, False, 8))
    assert PROFILE_FLOOR * DROP_STYLE_PRIOR <= weight < 0.02


@pytest.mark.rule("GFF-8")
def test_a_drop_on_a_likely_lowest_high_total_raises_the_ender_weight() -> None:
    obs = heads_up("KS QD JC TH 9C", turns=(1, 1), discards=(), stock_size=40)
    # dropped on 20 after one turn: no fixed style drops there, while five unseen cards total
    # more than 20 most of the time (the cutoff of this table is about 22)
    shown = {1: tuple(parse_cards(["9S", "5D", "3C", "2H", "AC"]))}
    _, styles = learn_profiles(obs, shown, ender=1)
    assert styles[0] is None  # the asking seat is not learned
    assert styles[1] is not None and styles[1] > 2 * DROP_STYLE_PRIOR
    # the same 20 shown by a seat that did not end the deal: it passed up a likely lowest total
    _, styles = learn_profiles(obs, shown, ender=0)
    assert styles[1] is not None and styles[1] < 0.8 * DROP_STYLE_PRIOR


@pytest.mark.rule("GFF-8")
def test_an_opponent_that_drops_when_likely_lowest_and_did_not_is_read_higher() -> None:
    # heads-up, 2 player chance is monotone in the weight: the draws that the style rules out
    # are those where the opponent's total was likely lowest, losses or narrow wins for us
    obs = heads_up("AS 2D 3C 4H 6C")
    never = replace(obs, drop_styles=(None, 0.0))
    reads = replace(obs, drop_styles=(None, 0.9))
    p0, _ = win_probability(never, samples=2000, seed=3)
    p9, (lo, hi) = win_probability(reads, samples=2000, seed=3)
    assert p9 > p0
    assert lo <= p9 <= hi
    assert drop_style(obs, 1) == DROP_STYLE_PRIOR


def test_passes_on_likely_lowest_totals_count_against_the_style() -> None:
    assert passes_posterior(0.5, (), 8) == 0.5
    assert passes_posterior(0.5, (12, 15), 8) == pytest.approx(0.5)  # above every style's total
    assert passes_posterior(0.5, (3,), 8) < 0.1  # it played on holding 3, likely lowest
    assert passes_posterior(0.0, (3,), 8) == 0.0


@pytest.mark.rule("GFF-8")
def test_an_opponent_seen_passing_on_a_low_total_is_read_as_before() -> None:
    # the heads-up case above, with the opponent seen playing on holding 2 points (``passes``):
    # it does not drop when likely lowest, so its low draws count again
    obs = replace(heads_up("AS 2D 3C 4H 6C"), drop_styles=(None, 0.9))
    never = replace(obs, drop_styles=(None, 0.0))
    passed = replace(obs, passes=((), (2,)))
    p_never, _ = win_probability(never, samples=2000, seed=3)
    p_reads, _ = win_probability(obs, samples=2000, seed=3)
    p_passed, _ = win_probability(passed, samples=2000, seed=3)
    assert p_never <= p_passed < p_reads


def test_an_opponent_who_has_not_played_is_not_read_by_its_drop_timing() -> None:
    obs = heads_up("AS 2D 3C 4H 6C", turns=(1, 0))
    a = win_probability(replace(obs, drop_styles=(None, 0.0)), samples=800, seed=5)
    b = win_probability(replace(obs, drop_styles=(None, 0.9)), samples=800, seed=5)
    assert a == b


@pytest.mark.rule("GFF-8")
def test_weighted_draws_count_for_fewer_in_the_interval() -> None:
    obs = replace(heads_up("AS 2D 3C 4H 6C"), drop_styles=(None, 0.9))
    advice = knock_advice(obs, samples=600, precision=None)
    assert advice.samples == 600
    p = advice.win_probability
    lo, hi = advice.interval
    full_lo, full_hi = wilson_interval(p * 600, 600)  # as wide as 600 unweighted draws at p
    assert lo <= p <= hi
    assert hi - lo > full_hi - full_lo
