"""The going-out search skips hopeless discards (GFF-9/GFF-10) without changing any answer.

``gff_going_out`` prunes cards that fit in no spread of the hand and on no table meld (such a card
can only be the discard). The reference below is the unpruned search: every discard (or none)
through ``_disposals``, best plan by the same key. Hypothesis compares both on hands of 1-6 cards
with tables of 0-3 random legal spreads (GFF-2), plus golden cases.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.cards import parse_cards
from engine.core.types import TableMeld
from engine.games.gff.play import GffGoingOut, _disposals, gff_going_out


def reference_going_out(hand: Sequence[int], table: Sequence[TableMeld], seat: int) -> GffGoingOut:
    """The search without pruning (as it was written before): every discard is tried."""
    cards = tuple(sorted(hand))
    own = [m for m in table if m.owner == seat]
    tunk_ready = (not own and len(cards) == 6) or (
        len(own) == 1 and len(own[0].own_cards()) == 3 and len(cards) == 3
    )
    if tunk_ready:
        for plan in _disposals(cards, ()):
            if all(len(s) == 3 for s in plan.spreads):
                return GffGoingOut("tunk_out", plan.spreads)
    best = None
    for discard in (None, *cards):
        rest = cards if discard is None else tuple(c for c in cards if c != discard)
        for plan in _disposals(rest, table):
            key = (
                len(plan.layoffs),
                discard is not None,
                -1 if discard is None else discard,
                plan.spreads,
                tuple((lo.meld_index, lo.card) for lo in plan.layoffs),
            )
            if best is None or key < best[0]:
                best = (key, GffGoingOut("go_out", plan.spreads, plan.layoffs, discard))
    return best[1] if best is not None else GffGoingOut(None)


@st.composite
def spread(draw: st.DrawFn) -> tuple[int, ...]:
    """A random GFF-2 spread: a set of 3-4 of a rank or a run of 3-5 in a suit (ace low)."""
    if draw(st.booleans()):
        rank = draw(st.integers(0, 12))
        suits = draw(st.lists(st.integers(0, 3), min_size=3, max_size=4, unique=True))
        return tuple(sorted(s * 13 + rank for s in suits))
    length = draw(st.integers(3, 5))
    low = draw(st.integers(0, 13 - length))
    suit = draw(st.integers(0, 3))
    return tuple(suit * 13 + r for r in range(low, low + length))


@st.composite
def situation(draw: st.DrawFn) -> tuple[list[int], list[TableMeld], int]:
    """A table of disjoint spreads and a hand of other cards, biased towards near-melds."""
    used: set[int] = set()
    table: list[TableMeld] = []
    for _ in range(draw(st.integers(0, 3))):
        cards = draw(spread())
        if used.isdisjoint(cards):
            used.update(cards)
            table.append(TableMeld(draw(st.integers(0, 3)), cards))
    hand: list[int] = []
    if draw(st.booleans()):  # start from a spread so that plans exist
        hand.extend(c for c in draw(spread()) if c not in used)
    free = [c for c in range(52) if c not in used and c not in hand]
    extra = draw(st.lists(st.sampled_from(free), max_size=6, unique=True))
    hand.extend(extra)
    hand = list(dict.fromkeys(hand))[:6] or [free[0]]
    return hand, table, draw(st.integers(0, 3))


@pytest.mark.rule("GFF-9", "GFF-10")
@settings(max_examples=600, deadline=None)
@given(situation())
def test_pruned_search_gives_the_reference_answer(
    case: tuple[list[int], list[TableMeld], int],
) -> None:
    hand, table, seat = case
    assert gff_going_out(hand, table, seat) == reference_going_out(hand, table, seat)


@pytest.mark.rule("GFF-9", "GFF-10")
def test_every_six_card_hand_of_a_sample_matches_the_reference() -> None:
    # Deterministic sweep: 6-card windows over a shuffled-by-stride deck, no table.
    for start in range(0, 52 * 7, 7):
        hand = sorted({(start + 11 * i) % 52 for i in range(6)})
        assert gff_going_out(hand, [], 0) == reference_going_out(hand, [], 0)


@pytest.mark.rule("GFF-10")
def test_two_dead_cards_mean_no_going_out() -> None:
    # 5H and KC fit nowhere (no spread in hand, no table): nothing can be emptied (GFF-10).
    assert gff_going_out(parse_cards(["AS", "2S", "3S", "5H", "KC"]), [], 0).kind is None


@pytest.mark.rule("GFF-10")
def test_one_dead_card_is_the_discard() -> None:
    got = gff_going_out(parse_cards(["AS", "2S", "3S", "KC"]), [], 0)
    assert (got.kind, got.discard) == ("go_out", parse_cards(["KC"])[0])
