"""The inferred opponent model of the Tunk knock/drop advice: behaviour posteriors from what an
opponent was seen to do, and the hidden hands drawn from them (engine.advice.tunk.styles.behaviour,
engine.advice.tunk.common.HandSampler)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.advice.situation import Observation
from engine.advice.tunk.common import (
    GFF_MODEL,
    TT_MODEL,
    Behaviour,
    HandSampler,
    sample_hidden,
    unseen_cards,
)
from engine.advice.tunk.knock import knock_advice
from engine.advice.tunk.styles import BEHAVIOUR_PRIOR, behaviour, no_meld_yet
from engine.core.cards import POINTS, parse_cards
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.core.types import TableMeld
from tests.support.observations import gff_observation


def gff_obs(hand: str, **fields: object) -> Observation:
    """Seat 0 of a heads-up deal (dealer 1), three turns in, 30 cards in the stock."""
    defaults: dict[str, object] = dict(seat=0, dealer=1, turns=(3, 3), stock_size=30)
    return gff_observation(hand, **{**defaults, **fields})


def _posterior(obs: Observation, seat: int = 1) -> Behaviour:
    unseen = unseen_cards(GFF_MODEL.deck, obs.hand, obs.table, obs.discards)
    return behaviour(obs, seat, GFF_MODEL, sorted(GFF_MODEL.points[c] for c in unseen))


def test_an_early_ace_discard_is_evidence_against_throwing_the_highest_card() -> None:
    # GFF-1: an ace counts 1, the lowest card; a player who throws its highest card throws
    # an ace from six cards only when all six are aces or lower: almost never.
    ace = parse_cards(["AH"])
    obs = gff_obs("9S 9D 4C 5C 7H", discards=ace, discard_history=((), ace), turns=(1, 1))
    post = _posterior(obs)
    prior_highest = BEHAVIOUR_PRIOR.baseline + BEHAVIOUR_PRIOR.hoarder
    assert post.baseline + post.hoarder < prior_highest / 2
    assert post.random > 0.5


def test_high_discards_raise_the_weight_of_throwing_the_highest_card() -> None:
    history = parse_cards(["KH", "QS", "KD"])
    obs = gff_obs("AS 2D 4C 5C 7H", discards=history, discard_history=((), history))
    post = _posterior(obs)
    assert post.baseline + post.hoarder > BEHAVIOUR_PRIOR.baseline + BEHAVIOUR_PRIOR.hoarder
    assert post.random < BEHAVIOUR_PRIOR.random


def test_an_opponent_who_laid_a_meld_is_not_a_hoarder() -> None:
    table = (TableMeld(1, parse_cards(["7H", "8H", "9H"])),)
    obs = gff_obs("AS 2D 4C 5C 7D", table=table, hand_sizes=(5, 2))
    post = _posterior(obs)
    assert post.hoarder < 0.1 and post.hoarder < BEHAVIOUR_PRIOR.hoarder / 5


def test_no_meld_after_many_turns_shifts_weight_to_hoarding() -> None:
    # A player who lays at once shows no meld after t turns less and less often.
    assert no_meld_yet(GAME_FLIP_FLOP, 12) < no_meld_yet(GAME_FLIP_FLOP, 1) <= 1.0
    assert no_meld_yet(TRIPLE_TUNK, 12) < no_meld_yet(TRIPLE_TUNK, 1) <= 1.0
    early = _posterior(gff_obs("AS 2D 4C 5C 7D", turns=(1, 1)))
    late = _posterior(gff_obs("AS 2D 4C 5C 7D", turns=(14, 14)))
    assert late.hoarder > early.hoarder
    assert late.meld > early.meld


def test_an_ace_thrower_is_not_imagined_to_hold_only_aces() -> None:
    ace = parse_cards(["AH"])
    obs = gff_obs("9S 9D 4C 5C 7H", discards=ace, discard_history=((), ace), turns=(1, 1))
    totals = []
    for seed in range(40):
        advice = knock_advice(obs, seed=seed, precision=None, samples=60)
        totals.append(advice.win_probability)
    # 26 points against a hand limited to the three other aces and one card: nearly always lost
    # under "aces only"; the mixture leaves the opponent a fair chance of a high hand.
    assert sum(totals) / len(totals) > 0.15


def test_the_same_request_gives_the_same_answer() -> None:
    history = parse_cards(["KH", "4S"])
    obs = gff_obs("AS 2D 4C 5C 3H", discards=history, discard_history=((), history))
    assert knock_advice(obs, seed=7) == knock_advice(obs, seed=7)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    weights=st.tuples(*(st.floats(0, 1) for _ in range(4))),
    tt=st.booleans(),
    n_known=st.integers(0, 2),
)
def test_every_hypothesis_deals_only_unseen_cards_once(
    seed: int, weights: tuple[float, float, float, float], tt: bool, n_known: int
) -> None:
    model = TT_MODEL if tt else GFF_MODEL
    rng = random.Random(seed)
    deck = list(model.deck)
    rng.shuffle(deck)
    hand, table_cards, pile = deck[:5], deck[5:8], deck[8:14]
    known = [deck[14 : 14 + n_known], deck[20:21], []]
    table = (TableMeld(0, tuple(table_cards)),)
    unseen = unseen_cards(model.deck, hand, table, pile, known)
    seen = set(hand) | set(table_cards) | set(pile)
    counts = [5 - n_known, 4, 5]
    caps = [tuple(model.order[c] for c in pile[:2]), (), (model.order[pile[3]],)]
    b = Behaviour(weights[0], weights[1], weights[2], weights[3])
    for _ in range(5):
        hands = sample_hidden(
            rng, unseen, counts, known, [True, True, True], model, caps, behaviours=[b, b, b]
        )
        dealt = [c for h in hands for c in h]
        assert len(dealt) == len(set(dealt))
        for j, h in enumerate(hands):
            assert len(h) == len(known[j]) + counts[j]
            assert set(known[j]) <= set(h)
            assert not (set(h) - set(known[j])) & seen
            assert not (set(h) - set(known[j])) & {c for k in known for c in k}


def test_a_hoarder_holds_a_meld_and_low_deadwood() -> None:
    # Only the hoarder hypothesis, holding a meld for sure: every hand holds a 3-card meld and
    # its other two cards rank below the cap (the 6 it threw).
    hand = parse_cards(["AS", "2D", "4C", "5C", "3H"])
    pile = parse_cards(["6D"])
    unseen = unseen_cards(GFF_MODEL.deck, hand, (), pile)
    cap = (GFF_MODEL.order[pile[0]],)
    sampler = HandSampler(
        unseen, [5], [()], [True], GFF_MODEL, [cap], behaviours=[Behaviour(0, 1, 0, 1.0)]
    )
    rng = random.Random(3)
    for _ in range(200):
        (h,) = sampler.sample(rng)
        assert GFF_MODEL.has_meld(h)
        assert sum(1 for c in h if POINTS[c] > 6) <= 3


def test_a_baseline_hand_holds_no_meld_and_stays_under_the_cap() -> None:
    hand = parse_cards(["AS", "2D", "4C", "5C", "3H"])
    pile = parse_cards(["9D"])
    unseen = unseen_cards(GFF_MODEL.deck, hand, (), pile)
    cap = (GFF_MODEL.order[pile[0]],)
    sampler = HandSampler(
        unseen, [5], [()], [True], GFF_MODEL, [cap], behaviours=[Behaviour(1, 0, 0, 0.0)]
    )
    rng = random.Random(4)
    melds = 0
    for _ in range(200):
        (h,) = sampler.sample(rng)
        assert all(GFF_MODEL.order[c] < cap[0] for c in h)
        melds += GFF_MODEL.has_meld(h)
    assert melds <= 2  # redrawn up to MAX_REJECTIONS times: a meld survives very rarely


def test_a_discard_read_as_a_slip_does_not_bound_the_kept_cards() -> None:
    # An ace thrown from six GFF cards (GFF-1: aces count 1) is far likelier a slip than the
    # highest of six cards: the baseline and hoarder hands are then not capped below the ace.
    ace = parse_cards(["AH"])
    obs = gff_obs("9S 9D 4C 5C 7H", discards=ace, discard_history=((), ace), turns=(1, 1))
    post = _posterior(obs)
    assert post.cap == max(GFF_MODEL.order) + 1
    # A king thrown first is read as its highest card: its other cards rank below it.
    king = parse_cards(["KH"])
    obs = gff_obs("9S 9D 4C 5C 7H", discards=king, discard_history=((), king), turns=(1, 1))
    assert _posterior(obs).cap == GFF_MODEL.order[king[0]]


def test_the_sampler_caps_by_the_behaviour_cap_over_the_given_caps() -> None:
    hand = parse_cards(["AS", "2D", "4C", "5C", "3H"])
    pile = parse_cards(["2H", "9D"])
    unseen = unseen_cards(GFF_MODEL.deck, hand, (), pile)
    low_cap = (GFF_MODEL.order[pile[0]],)  # what the discards alone say: below the 2
    nine = GFF_MODEL.order[pile[1]]
    b = Behaviour(1, 0, 0, 0.0, nine)
    sampler = HandSampler(unseen, [5], [()], [True], GFF_MODEL, [low_cap], behaviours=[b])
    rng = random.Random(5)
    hands = [sampler.sample(rng)[0] for _ in range(200)]
    assert all(GFF_MODEL.order[c] < nine for h in hands for c in h)
    assert any(POINTS[c] > 2 for h in hands for c in h)  # not held below the 2
