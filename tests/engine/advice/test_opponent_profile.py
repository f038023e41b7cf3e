"""Opponent profiles across deals (engine.advice.tunk.profile): the card-play prior each opponent
is read with, learned from the hands shown when a knock (TT-13) or drop (GFF-8) ends a deal."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine.sim.policies as policies
from engine.advice.situation import Observation
from engine.advice.tunk.common import GFF_MODEL, unseen_cards
from engine.advice.tunk.profile import (
    DEFAULT_PROFILE,
    PROFILE_DRAWS,
    PROFILE_FLOOR,
    PROFILE_RATE,
    SMALL_OUT,
    Learned,
    learn_from_out,
    learn_profiles,
    out_likelihoods,
    out_pass_likelihoods,
    out_updates,
    shown_likelihoods,
    updated_profile,
)
from engine.advice.tunk.styles import (
    DEFAULT_DROP_TOTALS,
    DROP_STYLE_PRIOR,
    RANDOM_KNOCK,
    behaviour,
)
from engine.core.cards import parse_cards
from engine.core.topper import parse_topper_cards
from engine.games.tt.play import tt_can_tunk_out
from engine.sim.policies import AdvisorPolicy
from tests.support.observations import gff_observation, tt_observation

LOW_THROWER = parse_cards(["5H", "4S"])  # thrown as its highest cards: it keeps fives and below


def gff_end(**fields: object) -> Observation:
    """Seat 0 of a heads-up GFF deal at its end: seat 1 played two turns and threw a 5 and a 4
    (GFF-1 points), so under "throws its highest card" it keeps nothing above five."""
    defaults: dict[str, object] = dict(
        seat=0,
        dealer=1,
        turns=(2, 2),
        stock_size=30,
        discards=LOW_THROWER,
        discard_history=((), LOW_THROWER),
    )
    return gff_observation("9S 9D 4C 5C 7H", **{**defaults, **fields})


def _posterior_baseline(obs: Observation) -> float:
    unseen = unseen_cards(GFF_MODEL.deck, obs.hand, obs.table, obs.discards)
    return behaviour(obs, 1, GFF_MODEL, sorted(GFF_MODEL.points[c] for c in unseen)).baseline


@pytest.mark.rule("GFF-1", "GFF-8")
def test_a_high_shown_hand_is_likelier_under_random_play_than_under_throwing_the_highest() -> None:
    shown = parse_cards(["KS", "KD", "QC", "JH", "TC"])  # 50 points, far above its cap
    # a total this high is rare under every hypothesis: four readings, pooled
    readings = [shown_likelihoods(gff_end(), 1, shown, random.Random(s)) for s in range(4)]
    base, hoard, rand = (sum(r[i] for r in readings if r) for i in range(3))
    assert rand > 5 * base
    assert rand > hoard


@pytest.mark.rule("GFF-1", "GFF-8")
def test_a_low_shown_hand_is_likelier_under_throwing_the_highest() -> None:
    shown = parse_cards(["AS", "2D", "3C", "2H", "AC"])  # 9 points, under its cap of five
    base, _, rand = shown_likelihoods(gff_end(), 1, shown, random.Random(1)) or (0, 0, 0)
    assert base > rand


@pytest.mark.rule("GFF-1", "GFF-2", "GFF-8")
def test_a_meld_shown_at_a_drop_was_held_and_reads_as_a_hoarder() -> None:
    # The same 12 points under its cap of five, once holding a set of threes and once not. A
    # player who lays at once never shows a meld, so the first is the hoarder's; without one,
    # the hand fits the player who lays at once best.
    held = parse_cards(["3S", "3D", "3C", "AS", "2H"])
    loose = parse_cards(["4S", "3D", "2C", "AH", "2H"])
    assert GFF_MODEL.has_meld(held) and not GFF_MODEL.has_meld(loose)
    base, hoard, rand = shown_likelihoods(gff_end(), 1, held, random.Random(1)) or (0, 0, 0)
    assert base < 1 / PROFILE_DRAWS  # none of its draws holds a meld: the floor alone
    assert hoard > 10 * base
    base, hoard, rand = shown_likelihoods(gff_end(), 1, loose, random.Random(1)) or (0, 0, 0)
    assert base > hoard > 0


def test_no_evidence_from_an_opponent_who_has_not_played() -> None:
    shown = parse_cards(["KS", "KD", "QC", "JH", "TC"])
    obs = gff_end(turns=(2, 0), discard_history=((), ()), discards=())
    assert shown_likelihoods(obs, 1, shown, random.Random(1)) is None


@pytest.mark.rule("GFF-8")
def test_the_ender_and_the_asking_seat_keep_their_profiles() -> None:
    shown = {1: tuple(parse_cards(["KS", "KD", "QC", "JH", "TC"]))}
    prior = (0.5, 0.25, 0.25)
    obs = gff_end(profiles=(None, prior))
    assert learn_profiles(obs, shown, ender=1).profiles == (None, prior)
    learned = learn_profiles(obs, shown, ender=0).profiles
    assert learned[0] is None
    assert learned[1] is not None and learned[1][2] > prior[2]


def test_the_learned_profile_is_the_prior_the_in_deal_evidence_starts_from() -> None:
    obs = gff_end()
    assert (
        _posterior_baseline(replace(obs, profiles=(None, (0.98, 0.01, 0.01))))
        > (_posterior_baseline(obs))
        > _posterior_baseline(replace(obs, profiles=(None, (0.01, 0.01, 0.98))))
    )


def test_one_deal_moves_the_weights_by_the_rate_towards_the_evidence() -> None:
    # Evidence that rules out everything but random play: the random weight moves PROFILE_RATE of
    # the way to 1, then PROFILE_FLOOR of the default prior is mixed back.
    got = updated_profile(DEFAULT_PROFILE, (0.0, 0.0, 1.0))
    moved = [(1 - PROFILE_RATE) * d for d in DEFAULT_PROFILE]
    moved[2] += PROFILE_RATE
    want = [
        (1 - PROFILE_FLOOR) * m + PROFILE_FLOOR * d
        for m, d in zip(moved, DEFAULT_PROFILE, strict=True)
    ]
    assert all(abs(a - b) < 1e-12 for a, b in zip(got, want, strict=True))


weights = st.tuples(*(st.floats(0.01, 1.0),) * 3).map(lambda w: tuple(x / sum(w) for x in w))
likelihoods = st.tuples(*(st.floats(0.001, 1.0),) * 3)


@given(weights, likelihoods)
def test_a_profile_stays_a_mixture_and_the_likeliest_hypothesis_gains(
    prior: tuple[float, float, float], lk: tuple[float, float, float]
) -> None:
    got = updated_profile(prior, lk)
    assert abs(sum(got) - 1.0) < 1e-9
    assert min(got) >= PROFILE_FLOOR * min(DEFAULT_PROFILE) - 1e-12
    best = max(range(3), key=lambda k: lk[k])
    if lk[best] > 1.01 * max(lk[k] for k in range(3) if k != best):
        # without the floor's pull the likeliest hypothesis's weight rises
        no_floor = [
            (g - PROFILE_FLOOR * d) / (1 - PROFILE_FLOOR)
            for g, d in zip(got, DEFAULT_PROFILE, strict=True)
        ]
        assert no_floor[best] >= prior[best] - 1e-9


def test_the_advisor_reads_its_profiles_into_every_question(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[Observation] = []
    advisor = AdvisorPolicy("game-flip-flop", random.Random(1), samples=50)
    advisor.learn(Learned((None, (0.1, 0.1, 0.8)), (), ()))
    real = policies.knock_advice

    def spy(o: Observation, **kw: object):  # type: ignore[no-untyped-def]
        seen.append(o)
        return real(o, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(policies, "knock_advice", spy)
    advisor.knock(gff_end())
    assert seen[0].profiles == (None, (0.1, 0.1, 0.8))


# Seat 1 of a 3-player Triple Tunk deal tunked out on its fourth turn with two 3-card melds, none
# laid before (TT-11): it held one of them through its earlier turns.
WENT_OUT = parse_topper_cards(["RH1", "RH2", "RH3", "YC4", "GC4", "BC4"])
THROWN = parse_topper_cards(["GS?", "YH?"])


def tt_turn_start(**fields: object) -> Observation:
    """Seat 0's view at the start of the turn on which seat 1 went out with :data:`WENT_OUT`."""
    defaults: dict[str, object] = dict(
        turns=(3, 3, 3),
        hand_sizes=(5, 5, 5),
        discards=THROWN,
        discard_history=((), THROWN, ()),
        stock_size=80,
    )
    return tt_observation("RS2 YS3 GH1 BH2 YH3", **{**defaults, **fields})


@pytest.mark.rule("TT-11")
@pytest.mark.parametrize("picked", [None, WENT_OUT[2]])
def test_going_out_with_two_fresh_melds_is_read_as_holding_melds(picked: int | None) -> None:
    # A player who lays every meld at once holds none before its draw, so it cannot go out with
    # two melds laid this turn (its likelihood stays near the floor); a hoarder holds one.
    assert tt_can_tunk_out(WENT_OUT, (), 1)
    base, hoard, rand = out_likelihoods(tt_turn_start(), 1, WENT_OUT, picked, random.Random(1)) or (
        0,
        0,
        0,
    )
    floor = 0.5 / (PROFILE_DRAWS + 1)
    assert base < 10 * floor
    assert hoard > 10 * base
    assert rand > 5 * base


@pytest.mark.rule("TT-11")
def test_only_the_seat_that_went_out_is_learned_from() -> None:
    prior = (0.5, 0.25, 0.25)
    obs = tt_turn_start(profiles=(None, DEFAULT_PROFILE, prior))
    after = learn_from_out(obs, 1, WENT_OUT, None, seed=3)
    learned = after.profiles
    assert after.drop_styles[0] is None and after.drop_styles[2] is None
    assert after.drop_totals[0] is None and after.drop_totals[2] is None
    assert learned[0] is None and learned[2] == prior
    assert learned[1] is not None and learned[1][1] > DEFAULT_PROFILE[1]
    assert learned[1][0] < DEFAULT_PROFILE[0]
    # the asking seat itself, or a seat that had not played, teaches nothing
    assert learn_from_out(obs, 0, WENT_OUT, None).profiles == obs.profiles
    unplayed = tt_turn_start(turns=(3, 0, 3), discard_history=((), (), ()), discards=())
    assert learn_from_out(unplayed, 1, WENT_OUT, None).profiles == (None, None, None)


@pytest.mark.rule("TT-11")
def test_an_out_from_one_or_two_cards_teaches_nothing() -> None:
    # two held cards and the one drawn (TT-11: with melds laid on earlier turns): any way of
    # playing goes out from such a hand about as often, so the profile keeps its prior, and
    # the update says why
    small = parse_topper_cards(["RH1", "RH2", "RH3"])
    assert len(small) - 1 == SMALL_OUT
    obs = tt_turn_start(hand_sizes=(5, 2, 5), profiles=(None, DEFAULT_PROFILE, None))
    (seat1, _) = out_updates(obs, 1, small, None, seed=3)
    assert seat1.seat == 1 and seat1.likelihoods is None and seat1.profile == DEFAULT_PROFILE
    assert "went out from 2 cards" in seat1.reason
    # the five cards held before the draw of WENT_OUT are read
    (read, _) = out_updates(replace(obs, hand_sizes=(5, 5, 5)), 1, WENT_OUT, None, seed=3)
    assert read.likelihoods is not None and read.profile != DEFAULT_PROFILE


LOW_OUT = parse_topper_cards(["RH1", "YH1", "GH1", "RC1", "YC1", "BS?"])  # 10 points


@pytest.mark.rule("TT-11", "TT-13", "C-5")
def test_a_player_that_went_out_passed_up_that_turn_start() -> None:
    obs = tt_turn_start()
    # it took the ? from the pile: it started the turn on 5 points, where "at 5" and "at 10"
    # knock; "likely lowest" is left neutral (a hand about to go out is a chosen sample)
    lowest, fixed = out_pass_likelihoods(obs, 1, LOW_OUT, LOW_OUT[-1]) or (0.0, ())
    assert lowest is None
    assert fixed == pytest.approx((1.0, 0.0, 0.0, 1 - RANDOM_KNOCK))
    # from the stock, any of its six cards was the one drawn: a 1 leaves 9 (only "at 10"
    # knocks), the ? leaves 5
    _, fixed = out_pass_likelihoods(obs, 1, LOW_OUT, None) or (0.0, ())
    assert fixed == pytest.approx((1.0, 5 / 6, 0.0, 1 - RANDOM_KNOCK))
    # a turn start with a positive TT-12 counter offered no knock: nothing to read
    assert out_pass_likelihoods(replace(obs, waiting=(0, 2, 0)), 1, LOW_OUT, None) is None


@pytest.mark.rule("TT-11", "TT-13")
def test_going_out_from_a_low_total_moves_the_fixed_totals_towards_never() -> None:
    after = learn_from_out(tt_turn_start(), 1, LOW_OUT, LOW_OUT[-1], seed=3)
    never, at_5, at_10, at_random = after.drop_totals[1] or (0.0, 0.0, 0.0, 0.0)
    assert never > DEFAULT_DROP_TOTALS[0]
    assert at_5 < DEFAULT_DROP_TOTALS[1] and at_10 < DEFAULT_DROP_TOTALS[2]
    assert sum((never, at_5, at_10, at_random)) == pytest.approx(1.0)
    # neutral for "likely lowest": its weight stays as it was, the prior or a learned one
    assert after.drop_styles[1] == pytest.approx(DROP_STYLE_PRIOR)
    learned = tt_turn_start(drop_styles=(None, 0.6, None))
    assert learn_from_out(learned, 1, LOW_OUT, LOW_OUT[-1], seed=3).drop_styles[1] == 0.6
