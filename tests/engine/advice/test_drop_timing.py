"""Drop timing of opponents (engine.advice.tunk.styles, .profile, .knock): the style "drops when
likely lowest", how likely it stops on each total, how its weight is learned across deals from
the drops (GFF-8) and knocks (TT-13) that end them, and how the win probability reads an
opponent that passed up its turn starts."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.advice.situation import Observation
from engine.advice.tunk.knock import knock_advice, seen_by, stop_chances, win_probability
from engine.advice.tunk.profile import (
    DROP_STYLE_PRIOR,
    PASS_FLOOR,
    PROFILE_FLOOR,
    drop_timing_likelihoods,
    learn_profiles,
    pass_under_limit,
    updated_drop_timing,
)
from engine.advice.tunk.styles import (
    DEFAULT_DROP_TOTALS,
    DROP_CURVE,
    chance_at,
    curve_at,
    drop_chances,
    drop_curve,
    drop_style,
    drop_style_likelihoods,
    fixed_drop_chance,
    knock_curve,
    likely_lowest,
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


def stops_up_to(cut: int, likely: float = 0.95, unlikely: float = 0.02) -> tuple[float, ...]:
    """Stopping chances per total 0..60 of a player that stops on ``cut`` points or less."""
    return tuple(likely if t <= cut else unlikely for t in range(61))


def test_the_curve_is_read_between_the_middles_of_its_tenths() -> None:
    curve = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.0)
    assert curve_at(curve, 0.0) == 0.0
    assert curve_at(curve, 0.05) == 0.0  # the middle of the first tenth
    assert curve_at(curve, 0.15) == pytest.approx(0.1)
    assert curve_at(curve, 0.5) == pytest.approx(0.45)  # halfway from 0.4 (0.45) to 0.5 (0.55)
    assert curve_at(curve, 0.95) == 1.0
    assert curve_at(curve, 1.0) == 1.0


def test_the_stopping_chance_per_total_is_the_curve_at_how_likely_lowest_it_is() -> None:
    totals = list(range(1, 101))  # one drawn total of each of 1..100
    curve = DROP_CURVE[GAME_FLIP_FLOP][2]
    chances = drop_chances(totals, 2, GAME_FLIP_FLOP)
    assert len(chances) == 102
    # 2 players, t = 50: S = 0.5, halfway between the fifth and sixth tenths
    assert chances[50] == pytest.approx((curve[4] + curve[5]) / 2)
    assert chances[0] == curve[-1]  # every draw above: surely lowest
    assert chances[100] == chances[101] == curve[0]  # none above
    assert chance_at(chances, 500) == curve[0]
    # 3 players, t = 50: q = 0.25, the middle of the third tenth
    three = DROP_CURVE[GAME_FLIP_FLOP][3]
    assert drop_chances(totals, 3, GAME_FLIP_FLOP)[50] == pytest.approx(three[2])
    assert drop_chances([], 3, GAME_FLIP_FLOP) == ()
    assert chance_at((), 7) == 0.0


@given(
    st.lists(st.integers(0, 60), min_size=1, max_size=80),
    st.integers(2, 6),
    st.sampled_from((GAME_FLIP_FLOP, TRIPLE_TUNK)),
)
def test_the_stopping_chance_meets_its_definition(
    totals: list[int], players: int, game: str
) -> None:
    totals.sort()
    chances = drop_chances(totals, players, game)
    curve = drop_curve(game, players)
    for t, chance in enumerate(chances):
        lowest = (sum(x > t for x in totals) / len(totals)) ** (players - 1)
        assert chance == pytest.approx(curve_at(curve, lowest))
    # a higher total is no likelier lowest, so no likelier a stop
    assert all(a >= b - 1e-12 for a, b in zip(chances, chances[1:], strict=False))


@pytest.mark.rule("GFF-8", "TT-13")
def test_the_measured_curves_are_chances_that_rise_with_how_likely_lowest() -> None:
    for by_size in DROP_CURVE.values():
        for curve in by_size.values():
            assert len(curve) == 10
            assert all(0.0 <= c <= 1.0 for c in curve)
            assert all(a <= b for a, b in zip(curve, curve[1:], strict=False))
            assert curve[-1] > curve[0] + 0.4  # a likely lowest total is far likelier a stop
    assert drop_curve(TRIPLE_TUNK, 6) == DROP_CURVE[TRIPLE_TUNK][4]  # the largest measured


def test_a_drop_or_pass_is_read_against_the_stopping_chance_of_its_total() -> None:
    cut12 = stops_up_to(12)
    # a drop on 20, above the cut and above every fixed style's total
    assert drop_style_likelihoods(20, True, cut12) == pytest.approx((0.02, fixed_drop_chance(20)))
    assert drop_style_likelihoods(20, False, cut12) == pytest.approx(
        (0.98, 1 - fixed_drop_chance(20))
    )
    # a drop on 18 when 18 was likely lowest: only that style drops there
    lowest, fixed = drop_style_likelihoods(18, True, stops_up_to(20))
    assert lowest > 50 * fixed
    # passing on 4 when it was likely lowest: evidence against the style
    lowest, fixed = drop_style_likelihoods(4, False, stops_up_to(8))
    assert lowest < fixed / 5


def test_the_weight_moves_with_the_evidence_and_keeps_a_floor() -> None:
    r, totals = updated_drop_timing(None, None, None)
    assert r == pytest.approx(DROP_STYLE_PRIOR)
    assert totals == pytest.approx(DEFAULT_DROP_TOTALS)
    game = GAME_FLIP_FLOP
    up, _ = updated_drop_timing(0.2, None, drop_timing_likelihoods(game, 18, True, stops_up_to(20)))
    down, _ = updated_drop_timing(
        0.2, None, drop_timing_likelihoods(game, 4, False, stops_up_to(8))
    )
    assert up > 0.2 > down
    weight, fixed = 1.0, None
    for _ in range(200):  # passing on likely lowest totals deal after deal
        read = drop_timing_likelihoods(game, 3, False, stops_up_to(8))
        weight, fixed = updated_drop_timing(weight, fixed, read)
    assert PROFILE_FLOOR * DROP_STYLE_PRIOR <= weight < 0.02
    assert sum(fixed) == pytest.approx(1.0)


@pytest.mark.parametrize("game", [GAME_FLIP_FLOP, TRIPLE_TUNK])
def test_a_pass_shown_under_a_limit_is_less_likely_the_further_under(game: str) -> None:
    # the total shown at the end came after the pass (a draw, a discard, maybe a meld laid)
    assert pass_under_limit(game, 11, 10) == 1.0
    near, far = pass_under_limit(game, 10, 10), pass_under_limit(game, 6, 10)
    assert 1.0 > near > far >= PASS_FLOOR
    assert pass_under_limit(game, 0, 10) == PASS_FLOOR


@pytest.mark.rule("TT-13")
def test_a_player_that_never_knocks_is_not_read_as_knocking_when_likely_lowest() -> None:
    # Passes on low totals that were not likely lowest (the style stops there 2% of the time):
    # against the fixed styles at their prior (at 5 and at 10 would have knocked there) each
    # pass looked like "likely lowest"; weighed against what the player is seen to be, the
    # weight settles under its prior and "never" takes the fixed styles' weight.
    weight, fixed = None, None
    against_prior = None  # the fixed styles kept at their prior weights
    for t in [1, 2, 3, 4, 5, 6] * 20:
        read = drop_timing_likelihoods(TRIPLE_TUNK, t, False, stops_up_to(0))
        weight, fixed = updated_drop_timing(weight, fixed, read)
        against_prior, _ = updated_drop_timing(against_prior, None, read)
    assert weight is not None and fixed is not None and against_prior is not None
    assert against_prior > 0.7  # read as a player that knocks when likely lowest
    assert weight < 1.5 * DROP_STYLE_PRIOR  # stays near its prior: the passes say little
    never, at_5, at_10, at_random = fixed
    assert never > 0.75 and max(at_5, at_10) < 0.1


@pytest.mark.rule("GFF-8")
def test_a_player_that_drops_at_ten_is_learned_as_one() -> None:
    weight, fixed = None, None
    for t in [7, 8, 9, 10] * 10:  # drops on 7-10, totals that are not likely lowest
        read = drop_timing_likelihoods(GAME_FLIP_FLOP, t, True, stops_up_to(3))
        weight, fixed = updated_drop_timing(weight, fixed, read)
        read = drop_timing_likelihoods(GAME_FLIP_FLOP, t + 8, False, stops_up_to(3))
        weight, fixed = updated_drop_timing(weight, fixed, read)  # passes above its limit
    assert weight is not None and fixed is not None
    assert weight < 0.05
    assert fixed[2] > 0.85  # at 10
    # the knock threat reads it: a total of 8 now knocks with about that weight
    obs = replace(heads_up("AS 2D 3C 4H 6C"), drop_totals=(None, fixed))
    assert knock_curve(obs, 1)[8] == pytest.approx(fixed[2] + fixed[3] * 0.05, abs=1e-9)
    assert knock_curve(heads_up("AS 2D 3C 4H 6C"), 1)[8] < 0.3


@pytest.mark.rule("GFF-8")
def test_a_drop_on_a_likely_lowest_high_total_raises_the_ender_weight() -> None:
    obs = heads_up("KS QD JC TH 9C", turns=(1, 1), discards=(), stock_size=40)
    # dropped on 20 after one turn: no fixed style drops there, while five unseen cards total
    # more than 20 most of the time, so the style stops there often
    shown = {1: tuple(parse_cards(["9S", "5D", "3C", "2H", "AC"]))}
    styles = learn_profiles(obs, shown, ender=1).drop_styles
    assert styles[0] is None  # the asking seat is not learned
    assert styles[1] is not None and styles[1] > 2 * DROP_STYLE_PRIOR
    # the same 20 shown by a seat that did not end the deal: it passed up a likely lowest total
    styles = learn_profiles(obs, shown, ender=0).drop_styles
    assert styles[1] is not None and styles[1] < 0.9 * DROP_STYLE_PRIOR


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
    cut8 = stops_up_to(8)
    assert passes_posterior(0.5, (), cut8) == 0.5
    # above every style's total: both play on there nearly always
    assert passes_posterior(0.5, (12, 15), cut8) == pytest.approx(0.5, abs=0.01)
    assert passes_posterior(0.5, (3,), cut8) < 0.1  # it played on holding 3, likely lowest
    assert passes_posterior(0.0, (3,), cut8) == 0.0


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


def test_how_likely_lowest_a_total_is_read() -> None:
    totals = list(range(1, 11))  # the other hands as the player reads them, 1..10
    assert likely_lowest(totals, 4, 2) == pytest.approx(0.6)  # 6 of 10 above 4
    assert likely_lowest(totals, 4, 3) == pytest.approx(0.36)  # (6/10) ** 2
    assert likely_lowest(totals, 10, 2) == 0.0
    assert likely_lowest(totals, 0, 4) == 1.0


def test_an_opponent_view_is_the_same_table_and_nothing_learned() -> None:
    obs = replace(
        heads_up("AS 2D 3C 4H 6C", discards=tuple(parse_cards(["9C"]))),
        profiles=(None, (0.2, 0.3, 0.5)),
        drop_styles=(None, 0.7),
        drop_totals=(None, (0.1, 0.2, 0.3, 0.4)),
        keeps_flexible=(None, 0.9),
    )
    hand = tuple(parse_cards(["KS", "QD", "JC", "TH", "9S"]))
    view = seen_by(obs, 1, hand)
    assert (view.seat, view.hand) == (1, hand)
    assert (view.discards, view.turns, view.hand_sizes) == (obs.discards, obs.turns, obs.hand_sizes)
    assert (view.profiles, view.drop_styles, view.drop_totals, view.keeps_flexible) == ((),) * 4


@pytest.mark.rule("GFF-8")
def test_a_passing_opponent_stops_on_what_it_sees_of_the_asking_player() -> None:
    # Seat 1 holding 15 points sees the three cards seat 0 picked up from the pile. Kings and a
    # queen (30 points shown) leave 15 likely lowest; aces and a two (4 points) do not.
    opponent_hand = parse_cards(["AH", "2S", "5C", "3D", "4C"])
    chances = []
    for hand in ("KH KS QC 2D 3C", "AS AD 2C 2D 3C"):
        cards = parse_cards(hand.split())
        obs = heads_up(hand, known=(tuple(cards[:3]), ()))
        chances.append(stop_chances(obs, 1, opponent_hand, random.Random(1)))
    after_kings, after_aces = chances
    assert chance_at(after_kings, 15) > chance_at(after_aces, 15) + 0.2
    for read in chances:  # a higher total is never likelier to stop on
        assert all(a >= b for a, b in zip(read, read[1:], strict=False))
