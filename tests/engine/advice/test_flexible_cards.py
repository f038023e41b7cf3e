"""Flexible cards in the Tunk opponent model: Triple Tunk's black, blob and ``?`` (TT-3, TT-4),
which a player reading its melds keeps whatever their points (engine.advice.tunk.styles
.keeps_posterior, the sampler's ``keeps``, the learned ``keeps_flexible``)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.advice.tunk.common import GFF_MODEL, TT_MODEL, Behaviour, HandSampler, unseen_cards
from engine.advice.tunk.profile import profile_updates, updated_keeps
from engine.advice.tunk.styles import (
    KEEPER_THROWS_FLEXIBLE,
    KEEPS_FLOOR,
    KEEPS_PRIOR,
    KEPT_HANDS,
    POINTS_THROWS_FLEXIBLE,
    behaviour,
    keeps_posterior,
)
from engine.core.cards import parse_cards
from engine.core.topper import BLACK, BLOB, COLOUR_OF, DECK, NUMBER_OF, QUESTION, SHAPE_OF
from engine.core.topper import parse_topper_cards as parse_topper
from tests.support.observations import gff_observation, tt_observation

FLEX = parse_topper(["KC1", "RB2", "YH?"])  # black, blob, ?
PLAIN = parse_topper(["RC1", "YH2", "GT3", "BS4"])


@pytest.mark.rule("TT-3")
def test_the_flexible_cards_are_black_blob_or_question() -> None:
    # 5 colours x 5 shapes x 5 numbers (TT-1); the 4 x 4 x 4 = 64 cards with no wild part are
    # the only ones that are not flexible: 125 - 64 = 61.
    assert len(TT_MODEL.flexible) == 61
    for c in DECK:
        wild = COLOUR_OF[c] == BLACK or SHAPE_OF[c] == BLOB or NUMBER_OF[c] == QUESTION
        assert (c in TT_MODEL.flexible) == wild
    assert set(FLEX) <= TT_MODEL.flexible and not set(PLAIN) & TT_MODEL.flexible
    assert GFF_MODEL.flexible == frozenset()


def test_the_keeping_chance_read_off_the_discards_by_hand() -> None:
    k, p = KEEPER_THROWS_FLEXIBLE, POINTS_THROWS_FLEXIBLE
    one_flexible = 0.5 * k / (0.5 * k + 0.5 * p)
    assert keeps_posterior(0.5, FLEX[:1], TT_MODEL) == pytest.approx(one_flexible)
    assert keeps_posterior(0.5, FLEX[:1], TT_MODEL) == pytest.approx(0.18 / 0.59)
    assert keeps_posterior(0.5, PLAIN[:1], TT_MODEL) == pytest.approx(0.82 / 1.41)
    both = 0.18 * 0.82 / (0.18 * 0.82 + 0.41 * 0.59)
    assert keeps_posterior(0.5, (FLEX[0], PLAIN[0]), TT_MODEL) == pytest.approx(both)
    assert keeps_posterior(0.3, (), TT_MODEL) == 0.3
    # Game Flip Flop has no flexible card: nothing to read
    assert keeps_posterior(0.3, parse_cards(["KH", "QS"]), GFF_MODEL) == 0.3


@given(st.lists(st.sampled_from(FLEX + PLAIN), max_size=8), st.floats(0.01, 0.99))
def test_the_keeping_chance_does_not_depend_on_the_order_of_the_discards(
    discards: list[int], prior: float
) -> None:
    forward = keeps_posterior(prior, discards, TT_MODEL)
    assert keeps_posterior(prior, discards[::-1], TT_MODEL) == pytest.approx(forward)
    flexible = sum(c in TT_MODEL.flexible for c in discards)
    if flexible == len(discards) and discards:
        assert forward < prior  # every discard flexible: evidence against keeping them
    if flexible == 0 and discards:
        assert forward > prior


def _sampler(keeps: float, hoarder: bool) -> tuple[HandSampler, int]:
    """A heads-up Triple Tunk opponent capped below its 2-point discard, under one hypothesis."""
    hand = parse_topper(["RC1", "YH2", "GT3", "BS4", "RH3"])
    pile = parse_topper(["GS2"])
    unseen = unseen_cards(TT_MODEL.deck, hand, (), pile)
    cap = TT_MODEL.order[pile[0]]
    b = Behaviour(0.0 if hoarder else 1.0, 1.0 if hoarder else 0.0, 0.0, 0.0, cap, keeps)
    sampler = HandSampler(unseen, [5], [()], [True], TT_MODEL, [(cap,)], behaviours=[b])
    return sampler, cap


@pytest.mark.parametrize("hoarder", [False, True])
def test_a_keeper_holds_flexible_cards_above_its_cap_and_nothing_else(hoarder: bool) -> None:
    sampler, cap = _sampler(1.0, hoarder)
    rng = random.Random(7)
    above = [c for _ in range(300) for c in sampler.sample(rng)[0] if TT_MODEL.order[c] >= cap]
    assert above  # flexible cards worth more than the 2 it threw
    assert all(c in TT_MODEL.flexible for c in above)
    # keeping nothing whatever its points, every card ranks below the cap
    sampler, cap = _sampler(0.0, hoarder)
    assert all(TT_MODEL.order[c] < cap for _ in range(300) for c in sampler.sample(rng)[0])


def test_keeping_flexible_cards_reads_a_higher_hand() -> None:
    rng = random.Random(8)
    means = []
    for keeps in (0.0, 1.0):
        sampler, _ = _sampler(keeps, True)
        means.append(sum(TT_MODEL.total(sampler.sample(rng)[0]) for _ in range(400)) / 400)
    assert means[1] > means[0] + 1.0


def test_the_learned_chance_is_the_prior_of_the_next_deal() -> None:
    obs = tt_observation(
        "RC1 YH2 GT3 BS4 RH3 YC3",
        discards=FLEX[:2],
        discard_history=((), FLEX[:1], FLEX[1:2]),
        turns=(1, 1, 1),
        keeps_flexible=(None, 0.9, None),
    )
    unseen_points = sorted(TT_MODEL.points[c] for c in TT_MODEL.deck)
    # the sampler draws KEPT_HANDS of a keeper's hands with the flexible cards above its cap
    assert behaviour(obs, 1, TT_MODEL, unseen_points).keeps == pytest.approx(
        KEPT_HANDS * keeps_posterior(0.9, FLEX[:1], TT_MODEL)
    )
    assert behaviour(obs, 2, TT_MODEL, unseen_points).keeps == pytest.approx(
        KEPT_HANDS * keeps_posterior(KEEPS_PRIOR, FLEX[1:2], TT_MODEL)
    )
    # after the deal: the same reading with KEEPS_FLOOR of the prior mixed back
    read = keeps_posterior(0.9, FLEX[:1], TT_MODEL)
    after = (1 - KEEPS_FLOOR) * read + KEEPS_FLOOR * KEEPS_PRIOR
    assert updated_keeps(obs, 1) == pytest.approx(after)
    shown = {
        1: parse_topper(["YH1", "GC1", "RT1", "BT1", "GS1"]),
        2: parse_topper(["YS3", "GH4", "RB1", "BC2", "GC2"]),
    }
    by_seat = {u.seat: u for u in profile_updates(obs, shown, ender=0)}
    assert by_seat[1].keeps_flexible == pytest.approx(after)
    assert by_seat[2].keeps_flexible < KEEPS_PRIOR  # it threw a blob


def test_game_flip_flop_learns_no_keeping_chance() -> None:
    obs = gff_observation("9S 9D 4C 5C 7H", discard_history=(parse_cards(["KH"]), ()))
    assert updated_keeps(obs, 0) is None
