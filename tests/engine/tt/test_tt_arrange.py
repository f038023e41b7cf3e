"""Triple Tunk best arrangement (C-2, TT-2 points, TT-14 bonus): golden cases and brute force."""

from __future__ import annotations

import random
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import HandError
from engine.core.topper import DECK, POINTS, parse_topper_cards
from engine.core.types import Arrangement
from engine.games.tt.arrange import best_tt_arrangement, tt_min_deadwood
from engine.games.tt.melds import TTMeld, describe_tt_meld, special_bonus

try:
    from tests.reference import brute_tt
except ImportError:  # pragma: no cover - pytest rootdir-less import mode
    import brute_tt  # type: ignore[no-redef]


def cards(text: str) -> tuple[int, ...]:
    return parse_topper_cards(text.split())


def key_of(hand: tuple[int, ...] | list[int], arr: Arrangement[TTMeld]) -> brute_tt.ArrKey:
    """The brute-force C-2 key of an engine arrangement (checks it is valid on the way)."""
    melds = [m.cards for m in arr.melds]
    used = [c for m in melds for c in m]
    assert len(used) == len(set(used)), "melds overlap"
    assert sorted(used + list(arr.deadwood)) == sorted(hand), "not a split of the hand"
    assert all(brute_tt.is_meld(m) for m in melds)
    assert arr.deadwood_points == sum(POINTS[c] for c in arr.deadwood)
    assert arr.special_bonus == brute_tt.bonus(melds)
    assert list(arr.melds) == sorted(arr.melds, key=lambda m: m.cards)
    return brute_tt.arrangement_key(hand, frozenset(melds))


# ---------------------------------------------------------------- golden cases


@pytest.mark.rule("C-2", "TT-2")
def test_c2_tt2_empty_and_meldless_hands_are_all_deadwood() -> None:
    assert best_tt_arrangement(()).best == Arrangement((), (), 0, 1)
    hand = cards("KB? RC1")
    result = best_tt_arrangement(hand)
    assert result.best == Arrangement((), tuple(sorted(hand)), 6, 1)  # ? counts 5 (TT-2)
    assert tt_min_deadwood(hand) == 6


@pytest.mark.rule("C-2")
def test_c2_two_specials_cover_the_hand() -> None:
    hand = cards("RH1 YB2 RH2 KT2 RH3 YT2")
    best = best_tt_arrangement(hand).best
    assert [m.cards for m in best.melds] == [cards("RH1 RH2 RH3"), cards("YT2 YB2 KT2")]
    assert (best.deadwood, best.deadwood_points, best.special_bonus) == ((), 0, 4)


@pytest.mark.rule("C-2")
def test_c2_fewest_points_beats_more_cards() -> None:
    # RH3 KC? KH? (colour + number 3-?-?, 13 points) leaves GB1 KB1 = 2 points;
    # GB1 KC? KH? KB1 (colour + number, 4 cards, 12 points) would leave RH3 = 3 points.
    hand = cards("RH3 GB1 KC? KH? KB1")
    result = best_tt_arrangement(hand, max_ties=5)
    assert result.best.melds[0].cards == tuple(sorted(cards("RH3 KC? KH?")))
    assert (result.best.deadwood_points, result.best.melded_count) == (2, 3)
    assert result.ties == ()
    assert tt_min_deadwood(hand) == 2


@pytest.mark.rule("C-2")
def test_c2_tie_break_more_cards_melded() -> None:
    # Both leave 4 points: GB? KC2 KT2 KT? (colour + number, 4 cards, 14 points; RB4 dead)
    # and RB4 GB? KT? (shape + number 4-?-?, 3 cards, 14 points; KC2 KT2 dead).
    hand = cards("RB4 GB? KC2 KT2 KT?")
    result = best_tt_arrangement(hand, max_ties=5)
    assert result.best.melds[0].cards == tuple(sorted(cards("GB? KC2 KT2 KT?")))
    assert result.best.deadwood == cards("RB4")
    assert [t.melds[0].cards for t in result.ties] == [tuple(sorted(cards("RB4 GB? KT?")))]
    assert result.ties[0].deadwood_points == 4
    assert not result.ties_truncated


@pytest.mark.rule("C-2")
def test_c2_tie_break_higher_special_bonus() -> None:
    # GH4 GB2 KB3 (2-3-4 green hearts with wilds: special) vs YH3 GH4 GB2 (shape + sequence).
    hand = cards("YH3 GH4 GB2 KB3")
    result = best_tt_arrangement(hand, max_ties=3)
    assert result.best.melds[0].cards == tuple(sorted(cards("GH4 GB2 KB3")))
    assert result.best.special_bonus == 2
    assert [t.special_bonus for t in result.ties] == [1]
    assert result.ties[0].deadwood_points == result.best.deadwood_points == 3


@pytest.mark.rule("C-2")
def test_c2_tie_break_canonical_order_and_ties() -> None:
    # RC1 RH2 RT3 and RC1 RH2 RS3: both red 1-2-3 (regular), both leave a 3 dead.
    hand = cards("RS3 RT3 RH2 RC1")
    result = best_tt_arrangement(hand, max_ties=1)
    assert result.best.melds[0].cards == cards("RC1 RH2 RT3")  # (0, 6, 12) < (0, 6, 17)
    assert result.best.deadwood == cards("RS3")
    assert result.ties[0].melds[0].cards == cards("RC1 RH2 RS3")
    assert not result.ties_truncated
    only_best = best_tt_arrangement(hand)
    assert only_best.best == result.best
    assert only_best.ties == () and only_best.ties_truncated  # a tie exists, none asked for


@pytest.mark.rule("C-2")
def test_ties_truncated_when_more_than_asked() -> None:
    hand = cards("RH1 RH2 RH3 RH4 RH? KH1")  # many red-heart melds
    full = best_tt_arrangement(hand, max_ties=1000)
    brute = brute_tt.ranked_arrangements(hand)
    same = [k for k in brute if k[0] == brute[0][0]]
    assert len(full.ties) == len(same) - 1 and not full.ties_truncated
    assert [key_of(hand, a) for a in (full.best, *full.ties)] == same
    some = best_tt_arrangement(hand, max_ties=1)
    assert len(some.ties) == 1 and some.ties_truncated


# ---------------------------------------------------------------- brute-force cross-check


def _random_hands(count: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    dense = [c for c in DECK if c // 25 in (0, 4) and (c // 5) % 5 in (1, 2, 4)]
    hands = []
    for _ in range(count):
        pool = dense if rng.random() < 0.5 else DECK
        hands.append(rng.sample(pool, rng.randint(1, 6)))
    return hands


@pytest.mark.rule("C-2")
def test_best_arrangement_matches_brute_force_on_seeded_hands() -> None:
    for hand in _random_hands(2000, seed=2026):
        ranked = brute_tt.ranked_arrangements(hand)
        result = best_tt_arrangement(hand, max_ties=3)
        assert key_of(hand, result.best) == ranked[0], hand
        same = [k for k in ranked if k[0] == ranked[0][0]]
        assert [key_of(hand, t) for t in result.ties] == same[1:4], hand
        assert result.ties_truncated == (len(same) > 4), hand
        assert tt_min_deadwood(hand) == ranked[0][0], hand
        assert best_tt_arrangement(hand).best == result.best


def test_larger_hands_use_the_general_search() -> None:
    rng = random.Random(11)
    dense = [c for c in DECK if c // 25 in (0, 4) and (c // 5) % 5 in (1, 4)]
    for _ in range(15):
        hand = rng.sample(dense, 7)
        ranked = brute_tt.ranked_arrangements(hand)
        assert key_of(hand, best_tt_arrangement(hand).best) == ranked[0]


def test_absurd_hand_sizes_are_refused() -> None:
    with pytest.raises(HandError):
        best_tt_arrangement(DECK[:11])
    with pytest.raises(HandError):
        tt_min_deadwood(DECK[:11])


# ---------------------------------------------------------------- properties

hands_st = st.lists(st.sampled_from(DECK), min_size=1, max_size=6, unique=True)


@settings(max_examples=150, deadline=None)
@given(hands_st, st.randoms(use_true_random=False))
def test_property_answer_independent_of_card_order(hand: list[int], rnd: random.Random) -> None:
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    assert best_tt_arrangement(shuffled, max_ties=4) == best_tt_arrangement(hand, max_ties=4)
    assert tt_min_deadwood(shuffled) == tt_min_deadwood(hand)


def test_order_independence_over_every_permutation() -> None:
    hand = cards("RB4 GB? KC2 KT2 KT?")
    expected = best_tt_arrangement(hand, max_ties=9)
    for order in permutations(hand):
        assert best_tt_arrangement(order, max_ties=9) == expected


@pytest.mark.rule("C-2")
@settings(max_examples=150, deadline=None)
@given(hands_st, st.data())
def test_property_no_arrangement_beats_the_best(hand: list[int], data: st.DataObject) -> None:
    best = best_tt_arrangement(hand).best
    best_key = (best.deadwood_points, -best.melded_count, -best.special_bonus)
    # Build a random arrangement greedily from random melds of the hand.
    left = set(hand)
    melds: list[tuple[int, ...]] = []
    for _ in range(2):
        choices = brute_tt.melds_in(sorted(left))
        if not choices or not data.draw(st.booleans()):
            break
        chosen = data.draw(st.sampled_from(choices))
        assert describe_tt_meld(chosen) is not None
        melds.append(chosen)
        left -= set(chosen)
    dead = sum(POINTS[c] for c in left)
    other = (dead, -(len(hand) - len(left)), -special_bonus(melds))
    assert best_key <= other
