"""The tunk-out search prunes hopeless branches (TT-11) without changing any answer.

``tt_tunk_out_options`` skips cards that fit in no meld of the hand and on no table meld (such a
card can only be the discard), and shapes that need sideways cards when no opponent has a meld.
The reference below is the unpruned search, copied from the engine as it was: every shape, every
discard, every sideways choice. Hypothesis compares the full option tuples (melds, lay-offs,
discard, bonus, order) on random hands and tables (TT-6, TT-8), plus golden cases.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.topper import DECK, parse_topper_cards
from engine.core.types import TableMeld
from engine.games.tt.melds import describe_tt_meld
from engine.games.tt.play import (
    TUNK_SHAPES,
    TTTunkOut,
    _extension_plans,
    _option,
    _option_key,
    _sideways_count,
    _sideways_plans,
    _split_melds,
    tt_tunk_out_options,
)


def reference_tunk_out_options(
    hand: Iterable[int], table: Sequence[TableMeld], seat: int
) -> tuple[TTTunkOut, ...]:
    """The search as written before pruning: every discard and every sideways choice."""
    cards = tuple(sorted(set(hand)))
    if not cards:
        return ()
    own_idx = [i for i, m in enumerate(table) if m.owner == seat]
    opp_idx = [i for i, m in enumerate(table) if m.owner != seat]
    own_cards = {i: table[i].own_cards() for i in own_idx}
    side0 = _sideways_count(table, seat)
    found: dict[tuple[object, ...], TTTunkOut] = {}

    for shape, (sizes, sideways, discards) in TUNK_SHAPES.items():
        need_side = sideways - side0
        if need_side < 0 or len(own_idx) > len(sizes):
            continue
        for slots in set(permutations(range(len(sizes)), len(own_idx))):
            ext_need = {
                i: sizes[s] - len(own_cards[i]) for i, s in zip(own_idx, slots, strict=True)
            }
            if any(n < 0 for n in ext_need.values()):
                continue
            new_sizes = tuple(sizes[s] for s in range(len(sizes)) if s not in slots)
            total = sum(ext_need.values()) + sum(new_sizes) + need_side + (1 if discards else 0)
            if total != len(cards):
                continue
            for discard in cards if discards else (None,):
                rest = tuple(c for c in cards if c != discard)
                for side in combinations(rest, need_side):
                    after_side = tuple(c for c in rest if c not in side)
                    for side_plan in _sideways_plans(table, opp_idx, side):
                        for ext_plan, left in _extension_plans(
                            table, own_idx, ext_need, after_side
                        ):
                            for melds in _split_melds(left, new_sizes):
                                option = _option(
                                    shape, table, own_cards, melds, ext_plan, side_plan, discard
                                )
                                found.setdefault(_option_key(option), option)
    return tuple(found[k] for k in sorted(found))


# ---------------------------------------------------------------- random positions


@st.composite
def position(draw: st.DrawFn) -> tuple[list[int], list[TableMeld], int]:
    """A table of 0-3 disjoint TT-6 melds (some with sideways cards) and a hand of other cards.

    Cards come from a small dense pool (two colours, three shapes) most of the time so that melds,
    lay-offs and tunk-outs are frequent; the hand has 1-7 cards, seats 0-2.
    """
    dense = [c for c in DECK if c // 25 in (0, 4) and (c // 5) % 5 in (0, 1, 4)]
    pool = sorted(dense if draw(st.booleans()) or draw(st.booleans()) else DECK)
    seat = draw(st.integers(0, 2))
    used: set[int] = set()
    table: list[TableMeld] = []
    for _ in range(draw(st.integers(0, 3))):
        group = draw(st.lists(st.sampled_from(pool), min_size=3, max_size=5, unique=True))
        if not used.isdisjoint(group) or describe_tt_meld(group) is None:
            continue
        owner = draw(st.integers(0, 2))
        added: list[tuple[int, int]] = []
        if len(group) > 3 and draw(st.booleans()):  # the last card came from another seat
            added.append((group[-1], (owner + 1) % 3))
        used.update(group)
        table.append(TableMeld(owner, tuple(group), tuple(added)))
    free = [c for c in pool if c not in used]
    hand = draw(st.lists(st.sampled_from(free), min_size=1, max_size=7, unique=True))
    return hand, table, seat


@pytest.mark.rule("TT-11")
@settings(max_examples=400, deadline=None)
@given(position())
def test_pruned_search_gives_the_reference_options(
    case: tuple[list[int], list[TableMeld], int],
) -> None:
    hand, table, seat = case
    assert tt_tunk_out_options(hand, table, seat) == reference_tunk_out_options(hand, table, seat)


@pytest.mark.rule("TT-11")
@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=6, max_size=6, unique=True))
def test_six_card_hands_without_a_table_match_the_reference(hand: list[int]) -> None:
    assert tt_tunk_out_options(hand, [], 0) == reference_tunk_out_options(hand, [], 0)


@pytest.mark.rule("TT-11")
def test_every_six_card_hand_of_a_sample_matches_the_reference() -> None:
    # Deterministic sweep: 6-card windows over the deck by stride, no table.
    for start in range(0, 125 * 3, 3):
        hand = sorted({(start + 17 * i) % 125 for i in range(6)})
        assert tt_tunk_out_options(hand, [], 0) == reference_tunk_out_options(hand, [], 0)


# ---------------------------------------------------------------- golden cases


@pytest.mark.rule("TT-11")
def test_two_cards_that_fit_nowhere_mean_no_tunk_out() -> None:
    # RH1 RH2 RH3 is a meld; YS4 and GT? share nothing with it or each other (TT-6): TT-11 fails.
    assert tt_tunk_out_options(parse_topper_cards(["RH1", "RH2", "RH3", "YS4", "GT?"]), [], 0) == ()


@pytest.mark.rule("TT-11")
def test_one_card_that_fits_nowhere_is_the_discard() -> None:
    # RC1-RC5 (? = 5) is a five-card special meld (TT-5, TT-7); GT2 fits nowhere: five_meld.
    hand = parse_topper_cards(["RC1", "RC2", "RC3", "RC4", "RC?", "GT2"])
    (option,) = tt_tunk_out_options(hand, [], 0)
    assert (option.shape, option.discard) == ("five_meld", parse_topper_cards(["GT2"])[0])
    assert option.special_bonus == 4  # TT-14: a 5-card special
