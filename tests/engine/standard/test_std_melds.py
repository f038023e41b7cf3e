"""Standard-deck melds: GFF-2 spreads, T13-4 combinations with wilds, T13-3 aces, descriptions."""

from __future__ import annotations

import random
from collections import Counter
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.cards import RANK_OF, SUIT_OF, parse_card, parse_cards
from engine.core.options import ThreeThirteenRules
from engine.standard.melds import (
    StdContext,
    StdMeld,
    describe_meld,
    gff_context,
    is_meld,
    iter_legal_melds,
    t13_context,
)
from tests.reference import brute_std

LOW = ThreeThirteenRules()
HIGH = ThreeThirteenRules(aces="high_or_low")
GFF = gff_context()


def cs(text: str) -> tuple[int, ...]:
    return parse_cards(text.split())


def c(text: str) -> int:
    return parse_card(text)


def brute(cards: tuple[int, ...], ctx: StdContext) -> bool:
    return brute_std.brute_is_meld(tuple(sorted(cards)), ctx.wild_rank, ctx.aces_high, ctx.max_set)


# --- contexts (GFF-1, GFF-2, T13-1, T13-3) ---------------------------------------------------


@pytest.mark.rule("GFF-1", "GFF-2")
def test_gff_context_has_no_wilds_aces_low_sets_of_3_or_4() -> None:
    assert (GFF.wild_rank, GFF.aces_high, GFF.max_set) == (None, False, 4)
    assert [GFF.points(c(x)) for x in ("AS", "9H", "10D", "JC", "KS")] == [1, 9, 10, 10, 10]


@pytest.mark.rule("T13-1")
@pytest.mark.parametrize(("round_number", "wild"), [(1, "3"), (8, "10"), (9, "J"), (11, "K")])
def test_t13_1_wild_rank_is_round_plus_two_cards(round_number: int, wild: str) -> None:
    ctx = t13_context(round_number, LOW)
    assert ctx.wild_rank == RANK_OF[c(wild + "S")]
    assert ctx.is_wild(c(wild + "H")) and not ctx.is_wild(c("AS"))


@pytest.mark.rule("T13-3")
def test_t13_3_ace_counts_15_only_when_aces_may_be_high() -> None:
    assert t13_context(1, LOW).points(c("AH")) == 1
    assert t13_context(1, HIGH).points(c("AH")) == 15
    assert t13_context(1, HIGH).points(c("KH")) == 10


@pytest.mark.rule("T13-1")
def test_t13_context_rejects_round_out_of_range() -> None:
    with pytest.raises(ValueError):
        t13_context(12, LOW)


# --- GFF-2 -----------------------------------------------------------------------------------


@pytest.mark.rule("GFF-2")
@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("AS 2S 3S", True),  # GFF-2: A-2-3 yes
        ("QS KS AS", False),  # GFF-2: Q-K-A no, aces low only
        ("KS AS 2S", False),  # no wrap-around
        ("9H 10H JH QH KH", True),
        ("7S 7H 7D", True),
        ("7S 7H 7D 7C", True),
        ("7S 7H", False),
        ("2S 3S 5S", False),  # a gap needs a wild; GFF has none
        ("2S 3H 4S", False),  # runs are one suit
        ("3S 3H 4S", False),
    ],
)
def test_gff_2_spreads(text: str, ok: bool) -> None:
    assert is_meld(cs(text), GFF) is ok
    assert (describe_meld(cs(text), GFF) is not None) is ok


@pytest.mark.rule("GFF-2")
def test_gff_2_sets_hold_at_most_four_cards() -> None:
    # Only reachable with a malformed (two-deck) hand, but the limit is GFF-2's.
    assert not is_meld(cs("7S 7H 7D 7C 7S"), GFF)


# --- T13-3 / T13-4 ---------------------------------------------------------------------------


@pytest.mark.rule("T13-3")
def test_t13_3_q_k_a_is_a_run_only_under_high_or_low() -> None:
    hand = cs("QS KS AS")  # round 1: threes are wild
    assert not is_meld(hand, t13_context(1, LOW))
    meld = describe_meld(hand, t13_context(1, HIGH))
    assert meld == StdMeld(tuple(sorted(hand)), "run", RANK_OF[c("QS")], 0, ())
    assert not is_meld(cs("KS AS 2S"), t13_context(1, HIGH))  # still no wrap-around


@pytest.mark.rule("T13-4", "C-1")
def test_t13_4_two_copies_of_one_card_may_share_a_set() -> None:
    ctx = t13_context(1, LOW)
    assert is_meld(cs("7S 7S 7H"), ctx)
    assert describe_meld(cs("7S 7S 7H"), ctx) == StdMeld(cs("7S 7S 7H"), "set", 6, None, ())
    assert not is_meld(cs("5S 5S 6S"), ctx)  # a run holds each rank once


@pytest.mark.rule("T13-4")
def test_t13_4_sets_have_no_length_limit() -> None:
    ctx = t13_context(1, LOW)
    assert is_meld(cs("7S 7S 7H 7H 7D 7D 7C 7C"), ctx)


@pytest.mark.rule("T13-4")
def test_t13_4_a_combination_may_be_wilds_only() -> None:
    ctx = t13_context(11, LOW)  # kings wild
    meld = describe_meld(cs("KS KH KD"), ctx)
    assert meld == StdMeld(cs("KS KH KD"), "set", 12, None, ())
    assert is_meld(cs("KS KS KH"), ctx)  # two decks


@pytest.mark.rule("T13-4")
def test_t13_4_wild_fills_a_gap_and_a_natural_stands_as_itself() -> None:
    ctx = t13_context(11, LOW)
    meld = describe_meld(cs("5S 7S KD"), ctx)
    assert meld == StdMeld(cs("5S 7S KD"), "run", 4, 0, ((c("KD"), c("6S")),))
    # KS plays itself in J-Q-K of spades: no substitution at all.
    assert describe_meld(cs("JS QS KS"), ctx) == StdMeld(cs("JS QS KS"), "run", 10, 0, ())
    # Two kings with J-Q: KS is the king, KH extends the run downward (aces are low).
    meld = describe_meld(cs("JS QS KS KH"), ctx)
    assert meld == StdMeld(cs("JS QS KS KH"), "run", 9, 0, ((c("KH"), c("10S")),))


def test_wild_descriptions_are_canonical() -> None:
    ctx = t13_context(11, LOW)
    # Set: the wild takes the first suit not yet in the set (spades, hearts used -> diamonds).
    assert describe_meld(cs("5S 5H KC"), ctx) == StdMeld(
        cs("5S 5H KC"), "set", 4, None, ((c("KC"), c("5D")),)
    )
    # Natural + two wilds is both a set and a run: equal substitutions, the set wins.
    meld = describe_meld(cs("5S KH KD"), ctx)
    assert meld is not None and meld.kind == "set" and meld.rank == 4
    # A run extends upward first: 5-6 + wild is 5-6-7.
    assert describe_meld(cs("5S 6S KD"), ctx) == StdMeld(
        cs("5S 6S KD"), "run", 4, 0, ((c("KD"), c("7S")),)
    )
    # ...unless it reaches the top: Q-K (round 1, threes wild) + wild is J-Q-K.
    r1 = t13_context(1, LOW)
    assert describe_meld(cs("QS KS 3H"), r1) == StdMeld(
        cs("QS KS 3H"), "run", 10, 0, ((c("3H"), c("JS")),)
    )
    # Under high_or_low an ace with two wilds is a set (the set wins the tie with A-2-3).
    meld = describe_meld(cs("AS 3H 3D"), t13_context(1, HIGH))
    assert meld is not None and meld.kind == "set" and meld.rank == 0


@pytest.mark.rule("T13-4")
def test_run_never_exceeds_thirteen_cards() -> None:
    ctx = t13_context(1, HIGH)
    spades = cs("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS")
    assert is_meld(spades, ctx)
    assert not is_meld((*spades, c("3H")), ctx)  # 14 long would need the ace twice


def _substituted(meld: StdMeld) -> list[int]:
    """The meld's cards with each substituting wild replaced by the card it stands for."""
    cards = list(meld.cards)
    for wild, stands_for in meld.wilds:
        cards.remove(wild)
        cards.append(stands_for)
    return cards


def _check_description(meld: StdMeld, ctx: StdContext) -> None:
    """The description is a natural meld once the wilds are replaced (T13-4)."""
    natural = _substituted(meld)
    wild_cards = Counter(w for w, _ in meld.wilds)
    assert all(ctx.is_wild(w) for w in wild_cards)
    assert not wild_cards - Counter(meld.cards)
    if meld.kind == "set":
        assert meld.suit is None and {RANK_OF[x] for x in natural} == {meld.rank}
    else:
        assert meld.rank is not None and meld.suit is not None
        assert {SUIT_OF[x] for x in natural} == {meld.suit}
        positions = sorted(13 if RANK_OF[x] == 0 and meld.rank > 0 else RANK_OF[x] for x in natural)
        assert positions == list(range(meld.rank, meld.rank + len(natural)))


# --- enumeration cross-check against the brute predicate --------------------------------------


def _sub_multisets(hand: list[int]) -> set[tuple[int, ...]]:
    counts = sorted(Counter(hand).items())
    out = set()
    for picks in product(*(range(k + 1) for _, k in counts)):
        out.add(
            tuple(sorted(x for (card, _), k in zip(counts, picks, strict=True) for x in [card] * k))
        )
    return out


def _random_case(rng: random.Random) -> tuple[list[int], StdContext]:
    if rng.random() < 0.25:
        return rng.sample(range(52), rng.randint(1, 6)), GFF
    round_number = rng.randint(1, 11)
    ctx = t13_context(round_number, rng.choice((LOW, HIGH)))
    deck = list(range(52)) * rng.choice((1, 2))
    hand = rng.sample(deck, rng.randint(1, 9))
    for k in range(min(len(hand), rng.choice((0, 0, 1, 2, 3)))):  # bias toward wilds
        hand[k] = rng.randrange(4) * 13 + round_number + 1
    return hand, ctx


@pytest.mark.rule("GFF-2", "T13-4")
def test_iter_legal_melds_matches_brute_force_on_every_sub_multiset() -> None:
    rng = random.Random(411)
    for _ in range(300):
        hand, ctx = _random_case(rng)
        melds = list(iter_legal_melds(hand, ctx))
        cards = [m.cards for m in melds]
        assert cards == sorted(cards) and len(set(cards)) == len(cards)
        expected = {s for s in _sub_multisets(hand) if len(s) >= 3 and brute(s, ctx)}
        assert set(cards) == expected, (hand, ctx)
        for meld in melds:
            _check_description(meld, ctx)
            assert describe_meld(meld.cards, ctx) == meld


@pytest.mark.rule("GFF-2", "T13-4")
@settings(max_examples=300, deadline=None)
@given(
    cards=st.lists(st.integers(0, 51), min_size=0, max_size=7),
    round_number=st.integers(1, 11),
    high=st.booleans(),
)
def test_is_meld_and_describe_agree_with_brute(
    cards: list[int], round_number: int, high: bool
) -> None:
    ctx = t13_context(round_number, HIGH if high else LOW)
    expected = len(cards) >= 3 and brute(tuple(cards), ctx)
    assert is_meld(cards, ctx) is expected
    meld = describe_meld(cards, ctx)
    assert (meld is not None) is expected
    if meld is not None:
        assert meld.cards == tuple(sorted(cards))
        _check_description(meld, ctx)
        assert describe_meld(list(reversed(cards)), ctx) == meld  # order never matters
