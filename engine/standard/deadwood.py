"""Least deadwood points of a standard-deck hand (C-2), the figure simulations and advice ask
most: :func:`min_deadwood` and, after the discard that follows a draw (T13-5, GFF-8),
:func:`min_deadwood_after_discard`.

A hand of distinct cards with at most one wild is first read as a 52-bit mask
(:mod:`engine.standard.masks`): nothing meldable, one meld, or melds no card of which could join
another answer at once; with no wild the mask search runs on the meldable cards, with one wild
the general search (:mod:`engine.standard.search`) does. Copies or 2+ wilds take the general
search. The compiled twin ``engine.standard._deadwood`` (``_deadwood.c`` beside this file)
answers distinct hands without a wild when :mod:`engine.core.accelerators` loads it;
:func:`min_deadwood_py` is its pure-Python twin and gives the same answers.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import accelerators
from engine.core.cards import Card
from engine.standard.masks import (
    _BIT,
    _RANK_MASK,
    _mask_cards,
    _mask_points,
    _mask_solver,
    _meldable,
    _one_meld,
    _search_melds,
    _separate_melds,
)
from engine.standard.melds import StdContext
from engine.standard.memo import DeadwoodMemo
from engine.standard.search import _natural_points, _Prepared, _solver

_ACCEL = accelerators.load("engine.standard._deadwood")


def min_deadwood(hand: Sequence[Card], ctx: StdContext) -> int:
    """Least deadwood points of ``hand`` (C-2); the fast path for simulations (compiled for
    distinct cards without a wild when ``engine.standard._deadwood`` is built)."""
    pt = ctx.point_table
    if _ACCEL is not None:
        wr = ctx.wild_rank
        cap = 4 if ctx.max_set is None else ctx.max_set
        got: int = _ACCEL.min_deadwood(hand, pt, -1 if wr is None else wr, ctx.aces_high, cap)
        if got >= 0:
            return got
    return min_deadwood_py(hand, ctx)


def min_deadwood_py(hand: Sequence[Card], ctx: StdContext) -> int:
    """:func:`min_deadwood` in pure Python (every hand; the compiled path's twin)."""
    pt = ctx.point_table
    nat = total = 0
    for c in hand:
        nat |= _BIT[c]
        total += pt[c]
    if nat.bit_count() == len(hand):  # distinct cards: the bit-mask fast path may apply
        wr = ctx.wild_rank
        wild = nat & _RANK_MASK[wr] if wr is not None else 0
        nat ^= wild
        w = wild.bit_count()
        if w <= 1:
            cap = 4 if ctx.max_set is None else min(4, ctx.max_set)
            meldable = _meldable(nat, w, ctx.aces_high, cap)
            if not meldable:  # nothing melds; fewer than 3 wilds never meld alone
                return total
            fixed = total - _mask_points(meldable, pt)  # naturals in no meld, and the wild
            if w:
                fixed -= _mask_points(wild, pt)
                return fixed + _min_deadwood_search(_mask_cards(meldable | wild), ctx)
            if meldable.bit_count() == 3 or _one_meld(meldable, ctx.aces_high, cap):
                return fixed
            if _separate_melds(meldable, ctx.aces_high, cap) is not None:
                return fixed
            by_low = _search_melds(meldable, ctx.aces_high, cap)
            return fixed + _mask_solver(by_low, pt, 0)[0](meldable)
    return _min_deadwood_search(hand, ctx)


def _min_deadwood_search(hand: Sequence[Card], ctx: StdContext) -> int:
    """``min_deadwood`` by the general search (copies, any number of wilds)."""
    prep = _Prepared(hand, ctx)
    w = prep.jokers
    fixed = _natural_points(prep, prep.state - prep.active)
    if not prep.active:  # no group: naturals are deadwood; 3+ jokers meld alone
        return fixed + (w * prep.joker_value if w < 3 else 0)
    return fixed + (_solver(prep)(prep.active, w) >> 8)


def min_deadwood_after_discard(hand: Sequence[Card], ctx: StdContext) -> int:
    """Least deadwood points of ``hand`` less its best single discard (C-2 after T13-5 / GFF-8).

    Equal to ``min(min_deadwood(hand - c) for c in hand)``, by one search (the "one card
    still to throw" flag of ``engine.standard.solver``). ``hand`` holds at least one card.
    """
    return DeadwoodMemo.for_context(ctx).after_discard(hand)
