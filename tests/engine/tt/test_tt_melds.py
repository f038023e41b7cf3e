"""Triple Tunk melds: golden cases per rule id (TT-1..TT-7, TT-14) and a brute-force cross-check."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.topper import DECK, POINTS, parse_topper_cards
from engine.games.tt.melds import (
    TTMeld,
    describe_tt_meld,
    in_sequence,
    is_tt_meld,
    is_tt_special,
    iter_tt_melds,
    matches_colour,
    matches_number,
    matches_shape,
    special_bonus,
    special_bonus_for,
)

try:
    from tests.reference import brute_tt
except ImportError:  # pragma: no cover - pytest rootdir-less import mode
    import brute_tt  # type: ignore[no-redef]


def cards(text: str) -> tuple[int, ...]:
    """'RH1 KB?' -> card ints."""
    return parse_topper_cards(text.split())


def meld(text: str) -> TTMeld:
    found = describe_tt_meld(cards(text))
    assert found is not None, text
    return found


# ---------------------------------------------------------------- TT-1 / TT-2


@pytest.mark.rule("TT-1")
def test_tt1_deck_has_125_unique_cards() -> None:
    assert len(DECK) == 125 == len(set(DECK))


@pytest.mark.rule("TT-2")
def test_tt2_points_face_value_question_is_five() -> None:
    assert [POINTS[c] for c in cards("RC1 YH2 GT3 BS4 KB?")] == [1, 2, 3, 4, 5]


# ---------------------------------------------------------------- TT-3 wilds


@pytest.mark.rule("TT-3")
def test_tt3_black_is_wild_colour() -> None:
    assert matches_colour(cards("RC1 KH2 RT3"))
    assert matches_colour(cards("KC1 KH2 KT3"))  # all black matches
    assert not matches_colour(cards("RC1 YC1 KC1"))


@pytest.mark.rule("TT-3")
def test_tt3_blob_is_wild_shape() -> None:
    assert matches_shape(cards("RH1 YB2 GH3"))
    assert matches_shape(cards("RB1 YB2 GB3"))  # all blob matches
    assert not matches_shape(cards("RH1 RC1 RB1"))


@pytest.mark.rule("TT-3")
def test_tt3_wild_colour_makes_a_meld_a_plain_colour_cannot() -> None:
    assert is_tt_meld(cards("RC1 KC1 RH1"))  # colour (black wild) + number
    assert not is_tt_meld(cards("RC1 YC1 GH1"))  # number only


# ---------------------------------------------------------------- TT-4 numbers


@pytest.mark.rule("TT-4")
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("RC3 RH3 RT?", True),  # 3-3-?
        ("RC3 RH? RT?", True),  # 3-?-?
        ("RC? RH? RT?", True),  # ?-?-?
        ("RC1 RH? RT3", False),  # 1-?-3
        ("RC3 RH3 RT3 RS3", True),
        ("RC3 RH?", False),  # a single ? needs a pair beside it
        ("RC? RH?", True),  # two ? match anything
        ("RC3 RH3", True),
    ],
)
def test_tt4_matching_numbers(text: str, expected: bool) -> None:
    assert matches_number(cards(text)) is expected
    assert brute_tt.match_number(cards(text)) is expected


@pytest.mark.rule("TT-4")
def test_tt4_one_question_between_different_numbers_is_no_meld() -> None:
    # 1-?-3 all red: colour only (no number match, 1-5-3 not a sequence) -> no meld.
    assert describe_tt_meld(cards("RC1 RH? RT3")) is None
    m = meld("RC3 RH3 RT?")
    assert (m.colour, m.shape, m.number, m.sequence) == (True, False, True, False)


# ---------------------------------------------------------------- TT-5 sequences


@pytest.mark.rule("TT-5")
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("RC3 RH4 RT?", True),  # 3-4-?
        ("RC1 RH2 RT3 RS4 RB?", True),  # 1-2-3-4-?
        ("RC? RH1 RT2", False),  # ? is high only
        ("RC2 RH? RT4", False),  # ? is never wild in a sequence
        ("RC1 RH2 RT2", False),  # distinct
        ("RC1 RH3 RT4", False),  # consecutive
    ],
)
def test_tt5_sequences(text: str, expected: bool) -> None:
    assert in_sequence(cards(text)) is expected
    assert is_tt_meld(cards(text)) is expected  # all red: colour + sequence or nothing


# ---------------------------------------------------------------- TT-6 melds


@pytest.mark.rule("TT-6")
def test_tt6_size_three_to_five_only() -> None:
    assert not is_tt_meld(cards("RH1 RH2"))
    assert is_tt_meld(cards("RH1 RH2 RH3 RH4 RH?"))
    six = cards("RH1 RH2 RH3 RH4 RH? KH1")
    assert not is_tt_meld(six)  # six-card group is never a meld (seed rule 12)
    assert describe_tt_meld(six) is None


@pytest.mark.rule("TT-6")
def test_tt6_two_matches_or_sequence_plus_colour_or_shape() -> None:
    assert is_tt_meld(cards("RC2 YC2 GC?"))  # (a) shape + number
    assert is_tt_meld(cards("RH1 RH3 RH?"))  # (a) colour + shape, any numbers
    assert is_tt_meld(cards("RC1 YC2 GC3"))  # (b) sequence + shape
    assert not is_tt_meld(cards("RC1 YH2 GT3"))  # sequence alone
    assert not is_tt_meld(cards("RC1 RH1 RT2"))  # colour alone
    assert not is_tt_meld(cards("RC1 RC1 RC1"))  # a repeated card never melds (C-1)


# ---------------------------------------------------------------- TT-7 specials


@pytest.mark.rule("TT-7")
def test_tt7_sequence_matching_colour_and_shape_is_special() -> None:
    m = meld("RH2 RH3 RH4")  # 2-3-4 red hearts
    assert m == TTMeld(cards("RH2 RH3 RH4"), True, True, False, True, True)


@pytest.mark.rule("TT-7")
def test_tt7_three_yellow_triangle_twos_with_wilds_is_special() -> None:
    m = meld("YT2 KT2 YB2")
    assert (m.colour, m.shape, m.number, m.special) == (True, True, True, True)


@pytest.mark.rule("TT-7")
def test_tt7_regular_melds_are_not_special() -> None:
    assert not meld("RC2 RH3 RT4").special  # colour + sequence
    assert not meld("RH1 RH3 RH?").special  # colour + shape, numbers 1-3-5
    assert not meld("RC2 YC2 GC2").special  # shape + number
    assert is_tt_special(cards("RH1 RH2 RH3 RH4 RH?"))


# ---------------------------------------------------------------- TT-14 special bonus


@pytest.mark.rule("TT-14")
def test_tt14_bonus_by_size_of_own_special() -> None:
    assert special_bonus([]) == 1
    assert special_bonus([cards("RC2 RH3 RT4")]) == 1  # regular meld
    assert special_bonus([cards("RH2 RH3 RH4")]) == 2
    assert special_bonus([cards("RH1 RH2 RH3 RH4")]) == 3
    assert special_bonus([cards("RH1 RH2 RH3 RH4 RH?")]) == 4
    assert special_bonus([cards("RH1 RH2 RH3"), cards("YT2 KT2 YB2")]) == 4  # two 3-card


@pytest.mark.rule("TT-14")
def test_tt14_largest_bonus_not_product() -> None:
    three_specials = [cards("RH1 RH2 RH3"), cards("YT2 KT2 YB2"), cards("GC1 GC2 GC3 GC4")]
    assert special_bonus(three_specials) == 4  # not 2 * 2 * 3
    assert special_bonus([cards("RH2 RH3 RH4"), cards("RC2 RH3 RT4")]) == 2


@pytest.mark.rule("TT-14")
def test_tt14_own_cards_not_special_earn_nothing() -> None:
    # Own cards 1-2-3-? red hearts (an opponent's 4 completes the sequence on the table).
    assert special_bonus([cards("RH1 RH2 RH3 RH?")]) == 1
    assert special_bonus([cards("RH1 RH2")]) == 1
    assert special_bonus_for is special_bonus


@pytest.mark.rule("TT-14")
def test_tt14_house_reading_four_special_plus_three_special_is_four() -> None:
    # "two 3-card specials" read as any two specials, so adding a card never lowers the bonus.
    assert special_bonus([cards("RH1 RH2 RH3 RH4"), cards("YT2 KT2 YB2")]) == 4


# ---------------------------------------------------------------- enumeration / brute force


@pytest.mark.rule("TT-6")
def test_iter_tt_melds_golden_hand() -> None:
    hand = cards("YB2 RH1 KT2 RH2 YT2 RH3")
    got = [m.cards for m in iter_tt_melds(hand)]
    assert got == [
        cards("RH1 RH2 RH3"),
        cards("RH1 RH3 YB2"),  # shape (blob wild) + sequence 1-2-3
        cards("RH1 RH3 KT2"),  # colour (black wild) + sequence
        cards("YT2 YB2 KT2"),
    ]
    assert got == brute_tt.melds_in(hand)


@pytest.mark.rule("TT-6")
def test_iter_tt_melds_matches_brute_force_on_seeded_hands() -> None:
    rng = random.Random(7)
    rich = [c for c in DECK if c // 25 in (0, 4) or (c // 5) % 5 in (1, 4)]
    for _ in range(2000):
        pool = rich if rng.random() < 0.6 else DECK
        hand = rng.sample(pool, rng.randint(1, 6))
        got = [m.cards for m in iter_tt_melds(hand)]
        assert got == brute_tt.melds_in(hand), hand


@pytest.mark.rule("TT-6", "TT-7")
def test_every_group_of_three_to_five_from_a_slice_agrees_with_brute() -> None:
    # All 3..5-subsets of 12 meld-dense cards (red/black x heart/blob, numbers mixed).
    pool = cards("RH1 RH2 RH3 RH4 RH? KH2 KB3 RB? KB1 YH4 RC2 KT?")
    for k in (3, 4, 5):
        for group in combinations(pool, k):
            m = describe_tt_meld(group)
            assert (m is not None) == brute_tt.is_meld(group), group
            assert is_tt_special(group) == brute_tt.is_special(group), group


@pytest.mark.rule("TT-3", "TT-4", "TT-5", "TT-6", "TT-7")
@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=3, max_size=5, unique=True))
def test_property_predicate_agrees_with_rule_text(group: list[int]) -> None:
    m = describe_tt_meld(group)
    assert (m is not None) == brute_tt.is_meld(group)
    if m is not None:
        assert m.cards == tuple(sorted(group))
        assert m.colour == brute_tt.match_colour(group)
        assert m.shape == brute_tt.match_shape(group)
        assert m.number == brute_tt.match_number(group)
        assert m.sequence == brute_tt.in_sequence(group)
        assert m.special == brute_tt.is_special(group)


@pytest.mark.rule("TT-6")
@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=0, max_size=6, unique=True))
def test_property_enumeration_is_exactly_the_melds(hand: list[int]) -> None:
    got = list(iter_tt_melds(hand))
    assert [m.cards for m in got] == brute_tt.melds_in(hand)
    assert all(describe_tt_meld(m.cards) == m for m in got)
