"""``legal_meld_tuples`` reuses its last answer for the same hand tuple and context (T13-4).

The melds endpoint and the arrangement search enumerate one hand twice per request; the second
call must give the same melds without enumerating again, and never share a mutable list.
"""

from __future__ import annotations

import pytest

from engine.core.cards import parse_cards
from engine.core.options import ThreeThirteenRules
from engine.standard import melds as std_melds
from engine.standard.melds import gff_context, legal_meld_tuples, t13_context


def test_same_hand_and_context_enumerate_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = std_melds._legal_meld_tuples

    def counting(*args: object) -> list[tuple[int, ...]]:
        calls.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(std_melds, "_legal_meld_tuples", counting)
    ctx = t13_context(1, ThreeThirteenRules())  # round 1: threes are wild (T13-1)
    hand = tuple(sorted(parse_cards(["3S", "4S", "5S", "5H", "5D", "KC"])))
    first = legal_meld_tuples(hand, ctx)
    first.clear()  # a caller's change never reaches the next caller
    second = legal_meld_tuples(hand, ctx)
    assert len(calls) == 1
    assert second == real(hand, ctx, None) and second
    legal_meld_tuples(tuple(hand), gff_context())  # another context: enumerated again
    legal_meld_tuples(list(hand), ctx)  # a list may change between calls: never reused
    legal_meld_tuples(hand, ctx, hand[0])  # another ``must``
    assert len(calls) == 4


def test_reused_answer_equals_a_fresh_enumeration() -> None:
    ctx = gff_context()
    hand = tuple(sorted(parse_cards(["AS", "2S", "3S", "4S", "4H", "4D"])))
    fresh = std_melds._legal_meld_tuples(hand, ctx, None)
    assert legal_meld_tuples(hand, ctx) == fresh == legal_meld_tuples(hand, ctx)
    # GFF-2: runs A-2-3, A-2-3-4, 2-3-4 of spades and the set of three 4s.
    assert sorted(map(sorted, fresh)) == sorted(
        sorted(parse_cards(m))
        for m in (
            ["AS", "2S", "3S"],
            ["AS", "2S", "3S", "4S"],
            ["2S", "3S", "4S"],
            ["4S", "4H", "4D"],
        )
    )
