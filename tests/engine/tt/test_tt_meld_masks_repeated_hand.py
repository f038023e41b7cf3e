"""``meld_masks`` reuses the last hand's masks per thread without sharing mutable lists (TT-6)."""

from __future__ import annotations

from engine.core.topper import parse_topper_cards
from engine.games.tt.melds import group_features, meld_masks


def test_repeated_hand_gives_equal_fresh_lists() -> None:
    hand = sorted(parse_topper_cards(["RH1", "RH2", "RH3", "YS4"]))
    masks, feats = meld_masks(hand)
    assert masks == [0b0111]  # RH1 RH2 RH3: the only meld (TT-5 sequence, colour, shape)
    assert feats == group_features(hand)
    masks.clear()
    feats.clear()
    again, feats_again = meld_masks(list(hand))
    assert again == [0b0111] and feats_again == group_features(hand)
    other = sorted(parse_topper_cards(["RH1", "RH2", "YS4"]))
    assert meld_masks(other)[0] == []  # another hand is computed afresh
