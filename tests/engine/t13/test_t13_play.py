"""Three Thirteen going out (T13-5): every discard that leaves the other r + 2 cards melded."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.cards import parse_card, parse_cards
from engine.core.options import ThreeThirteenRules
from engine.games.t13.play import GoOutOption, going_out_options
from engine.standard.melds import t13_context
from tests.reference import brute_std

LOW = ThreeThirteenRules()
HIGH = ThreeThirteenRules(aces="high_or_low")


def cs(text: str) -> tuple[int, ...]:
    return parse_cards(text.split())


def brute_discards(hand: list[int], round_number: int, rules: ThreeThirteenRules) -> set[int]:
    ctx = t13_context(round_number, rules)
    out = set()
    for discard in set(hand):
        rest = list(hand)
        rest.remove(discard)
        if brute_std.brute_best(rest, ctx.wild_rank, ctx.aces_high, ctx.max_set)[0] == 0:
            out.add(discard)
    return out


def check_options(hand: list[int], round_number: int, rules: ThreeThirteenRules) -> None:
    """Each option melds the other cards completely; the discards are exactly brute force's."""
    ctx = t13_context(round_number, rules)
    options = going_out_options(hand, round_number, rules)
    discards = [o.discard for o in options]
    assert discards == sorted(set(discards))
    for option in options:
        rest = list(hand)
        rest.remove(option.discard)
        arr = option.arrangement
        assert arr.deadwood == () and arr.deadwood_points == 0
        brute_std.check_arrangement(
            rest, [m.cards for m in arr.melds], (), ctx.wild_rank, ctx.aces_high, ctx.max_set
        )
    assert set(discards) == brute_discards(hand, round_number, rules)


@pytest.mark.rule("T13-5")
def test_t13_5_round_1_discard_the_odd_card() -> None:
    options = going_out_options(cs("5H 9S 5D 5C"), 1, LOW)
    assert [o.discard for o in options] == [parse_card("9S")]
    assert options[0].arrangement.melds[0].cards == cs("5H 5D 5C")


@pytest.mark.rule("T13-5")
def test_t13_5_every_distinct_discard_is_listed_once() -> None:
    # Four fives: any one can go; two copies of 5H (two decks) give one option for 5H.
    options = going_out_options(cs("5S 5H 5H 5C"), 1, LOW)
    assert [o.discard for o in options] == sorted(set(cs("5S 5H 5C")))
    assert all(isinstance(o, GoOutOption) for o in options)


@pytest.mark.rule("T13-5")
def test_t13_5_wilds_and_aces_high() -> None:
    # Round 2 (fours wild): Q-K-A of hearts only runs under high_or_low; 4S is a wild.
    hand = list(cs("QH KH AH 4S 9C"))
    assert going_out_options(hand, 2, LOW) == ()
    high = going_out_options(hand, 2, HIGH)
    assert [o.discard for o in high] == [parse_card("9C")]


@pytest.mark.rule("T13-5")
def test_t13_5_wrong_size_or_no_way_out_gives_nothing() -> None:
    assert going_out_options(cs("5H 5D 5C"), 1, LOW) == ()  # r + 2 cards: nothing drawn yet
    assert going_out_options(cs("5H 5D 5C 9S 9H"), 1, LOW) == ()  # r + 4
    assert going_out_options(cs("AS 7H 9D QC"), 1, LOW) == ()


@pytest.mark.rule("T13-5")
def test_t13_5_cross_check_random_hands() -> None:
    rng = random.Random(55)
    for k in range(300):
        round_number = rng.randint(1, 11) if k % 3 else rng.randint(1, 5)
        hand = rng.sample(list(range(52)) * 2, round_number + 3)
        for i in range(min(len(hand), rng.choice((0, 1, 2, 3, 4)))):
            hand[i] = rng.randrange(4) * 13 + round_number + 1
        if k % 5 == 0:  # make a way out likely: a run and a set from the round's cards
            hand[:3] = [6, 7, 8]
        check_options(hand, round_number, HIGH if k % 2 else LOW)


@pytest.mark.rule("T13-5")
@settings(max_examples=80, deadline=None)
@given(
    round_number=st.integers(1, 6),
    picks=st.lists(st.integers(0, 103), min_size=9, max_size=9, unique=True),
    wilds=st.integers(0, 3),
    high=st.booleans(),
)
def test_going_out_matches_brute_force(
    round_number: int, picks: list[int], wilds: int, high: bool
) -> None:
    hand = [p % 52 for p in picks[: round_number + 3]]
    for i in range(min(wilds, len(hand))):
        hand[i] = (picks[i] % 4) * 13 + round_number + 1
    check_options(hand, round_number, HIGH if high else LOW)
