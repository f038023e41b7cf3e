"""Compiled least deadwood of distinct standard cards without a wild
(engine/standard/_deadwood.c)."""

from collections.abc import Sequence

def min_deadwood(
    hand: Sequence[int], point_table: Sequence[int], wild_rank: int, aces_high: bool, cap: int
) -> int: ...
