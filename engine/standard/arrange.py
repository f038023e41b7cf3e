"""Best arrangement of a standard-deck hand (C-2, GFF-2, T13-4) and its equal-point ties.

C-2 order. Arrangements compare by (deadwood points, fewer deadwood cards = more cards melded,
deadwood cards as a sorted tuple, ``partition_key`` of the melds); the best is the first. The
general search (:mod:`engine.standard.search`) finds the least (points, cards) and the smallest
deadwood tuple; the melds are then the first partition of the rest
(:mod:`engine.standard.partition`).

Fast path (without ties). A hand of distinct cards with at most one wild is first read as a
52-bit mask (:mod:`engine.standard.masks`); a few shifts find the naturals that can be in no
meld (certain deadwood). Nothing meldable returns at once; with no wild, a meldable part that
is one meld, or melds no card of which could join another, is the answer; otherwise the same
recursion runs on the meldable mask. With one wild the general search runs on the meldable
cards only. Copies or 2+ wilds take the general search.

Ties (``max_ties``): every other partition worth as few points is listed by a depth-first scan
cut with the exact search, capped at ``TIE_SCAN_LIMIT`` partitions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.core.cards import Card
from engine.core.types import Arrangement, BestResult
from engine.standard.masks import (
    _BIT,
    _RANK_MASK,
    _mask_best,
    _mask_cards,
    _meld_cards,
    _meldable,
    _one_meld,
    _separate_melds,
)
from engine.standard.melds import (
    StdContext,
    StdMeld,
    _describe_sorted,
    describe_meld,
    legal_meld_tuples,
)
from engine.standard.partition import _partition, partition_key
from engine.standard.search import _F, _least_dead, _natural_points, _Prepared, _solver

TIE_SCAN_LIMIT = 2_000  # equal-point arrangements scanned for ties (C-2); more: truncated
_DEAD_BLOCK = 1 << 30  # block order of a deadwood card: after every meld


def _arrangement(
    melds: Sequence[tuple[int, ...]], deadwood: Sequence[int], ctx: StdContext
) -> Arrangement[StdMeld]:
    """Melds (in the given order, described canonically) + sorted deadwood and its points."""
    described = []
    for cards in melds:
        meld = describe_meld(cards, ctx)
        assert meld is not None
        described.append(meld)
    dead = tuple(sorted(deadwood))
    return Arrangement(tuple(described), dead, sum(ctx.point_table[c] for c in dead))


def _best_parts(
    hand: Sequence[Card], ctx: StdContext
) -> tuple[list[tuple[int, ...]], list[int], _Prepared]:
    """The C-2 best arrangement as (melds, deadwood) plus the prepared hand."""
    prep = _Prepared(hand, ctx)
    w = prep.jokers
    cards = sorted(hand)
    if not prep.active:  # no group: naturals are deadwood; 3+ jokers meld alone
        if w >= 3:
            return [tuple(prep.wilds)], [c for c in cards if c not in prep.wilds], prep
        return [], cards, prep
    solve = _solver(prep)
    dead = _least_dead(prep, solve)
    isolated = prep.state - prep.active
    if isolated:
        dead = sorted(dead + _cards_of(prep, isolated))
    left = Counter(cards)
    left.subtract(dead)
    melded = sorted(left.elements())
    melds = _partition(melded, prep, ctx, solve)
    return melds, dead, prep


def _cards_of(prep: _Prepared, state: int) -> list[int]:
    """The naturals in ``state``, sorted, copies repeated."""
    out: list[int] = []
    i = 0
    while state:
        out.extend([prep.nat[i]] * (state & 15))
        state >>= _F
        i += 1
    return out


def best_arrangement(
    hand: Sequence[Card], ctx: StdContext, max_ties: int = 0
) -> BestResult[StdMeld]:
    """The C-2 best arrangement of ``hand`` and up to ``max_ties`` others with equal points."""
    fast = _fast_best(hand, ctx, alone=max_ties > 0)
    if fast is not None:
        return BestResult(fast)
    melds, dead, prep = _best_parts(hand, ctx)
    best = _arrangement(melds, dead, ctx)
    if max_ties <= 0:
        return BestResult(best)
    found, capped = _equal_point_arrangements(hand, ctx, prep, best.deadwood_points)
    mine = (tuple(sorted(melds)), tuple(sorted(dead)))
    others = sorted(
        (-(len(hand) - len(d)), d, partition_key(m), m) for m, d in found if (m, d) != mine
    )
    ties = tuple(_arrangement(m, d, ctx) for _, d, _, m in others[:max_ties])
    return BestResult(best, ties, capped or len(others) > max_ties)


def _fast_best(
    hand: Sequence[Card], ctx: StdContext, alone: bool = False
) -> Arrangement[StdMeld] | None:
    """The C-2 best by the bit-mask fast path: distinct cards, at most one wild; else None.

    With ``alone`` only when no other arrangement has as few points, so there are no ties to
    list: nothing melds (every card is deadwood), or no wild and exactly three naturals can meld
    (they form the only meld, and leaving any of them out adds its points).
    """
    pt = ctx.point_table
    nat = total = 0
    for c in hand:
        nat |= _BIT[c]
        total += pt[c]
    if nat.bit_count() != len(hand):
        return None
    wr = ctx.wild_rank
    wild = nat & _RANK_MASK[wr] if wr is not None else 0
    w = 0
    if wild:
        nat ^= wild
        w = wild.bit_count()
        if w > 1:
            return None
    cap = 4 if ctx.max_set is None else min(4, ctx.max_set)
    meldable = _meldable(nat, w, ctx.aces_high, cap)
    if not meldable:  # nothing melds; fewer than 3 wilds never meld alone
        return Arrangement((), tuple(sorted(hand)), total)
    if alone and (w or meldable.bit_count() != 3):
        return None
    if w:
        melds, dead_cards, _ = _best_parts(_mask_cards(meldable | wild), ctx)
        dead_cards.extend(_mask_cards(nat ^ meldable))
        return _arrangement(melds, dead_cards, ctx)
    if meldable.bit_count() == 3 or _one_meld(meldable, ctx.aces_high, cap):
        cards = _meld_cards(meldable)
        dead = sorted(hand)
        for c in cards:
            dead.remove(c)
            total -= pt[c]
        meld = _describe_sorted(cards, ctx)
        assert meld is not None
        return Arrangement((meld,), tuple(dead), total)
    separate = _separate_melds(meldable, ctx.aces_high, cap)
    if separate is not None:
        melds, dead_mask = [_meld_cards(m) for m in separate], nat ^ meldable
    else:
        melds, dead_mask = _mask_best(nat, meldable, ctx, cap)
    described = []
    for cards in melds:
        meld = _describe_sorted(cards, ctx)
        assert meld is not None
        described.append(meld)
        for c in cards:
            total -= pt[c]
    return Arrangement(tuple(described), _mask_cards(dead_mask), total)


def _equal_point_arrangements(
    hand: Sequence[Card], ctx: StdContext, prep: _Prepared, target: int
) -> tuple[list[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]], bool]:
    """Every partition of ``hand`` into melds + deadwood worth ``target`` points (capped scan).

    Depth-first over the smallest remaining card: it joins a meld (in sorted order) or is
    deadwood; blocks holding copies of one card are taken in non-decreasing order so each
    partition (as multisets) appears once. Branches that cannot reach ``target`` are cut with
    the exact least-deadwood search. The scan stops after ``TIE_SCAN_LIMIT`` partitions (hands
    with many wilds have thousands); the ties are then the best of those scanned, and marked
    truncated.
    """
    solve = _solver(prep)
    cards = sorted(hand)
    distinct = sorted(set(cards))
    pos = {c: i for i, c in enumerate(distinct)}
    real = sum(1 << (_F * pos[c]) for c in cards)
    guard = sum(16 << (_F * i) for i in range(len(distinct)))
    wilds = set(prep.wilds)
    pt = ctx.point_table
    jv = prep.joker_value

    def split(meld: Sequence[int]) -> tuple[int, int, int]:
        rvec = sum(1 << (_F * pos[c]) for c in meld)
        nvec = sum(1 << (_F * prep.index[c]) for c in meld if c not in wilds)
        return rvec, nvec, sum(1 for c in meld if c in wilds)

    by_low: dict[int, list[tuple[int, int, int, int, tuple[int, ...]]]] = {}
    for k, meld in enumerate(legal_meld_tuples(hand, ctx)):
        rvec, nvec, nj = split(meld)
        by_low.setdefault(pos[meld[0]], []).append((k, rvec, nvec, nj, meld))

    def least(nstate: int, j: int) -> int:
        if not nstate:
            return 0 if j == 0 or j >= 3 else j * jv
        got = solve(nstate, j) >> 8
        if j and j < 3 and got == _natural_points(prep, nstate):
            got += j * jv
        return got

    out: list[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]] = []
    melds: list[tuple[int, ...]] = []
    dead: list[int] = []
    capped = False

    def walk(rstate: int, nstate: int, j: int, acc: int, low_pos: int, min_block: int) -> None:
        nonlocal capped
        if capped:
            return
        if not rstate:
            if acc == target:
                out.append((tuple(sorted(melds)), tuple(sorted(dead))))
                if len(out) >= TIE_SCAN_LIMIT:
                    capped = True
            return
        if acc + least(nstate, j) > target:
            return
        i = ((rstate & -rstate).bit_length() - 1) // _F
        floor = min_block if i == low_pos else -1
        gs = rstate | guard
        for k, rvec, nvec, nj, meld in by_low.get(i, ()):
            if k >= floor and (gs - rvec) & guard == guard:
                melds.append(meld)
                walk(rstate - rvec, nstate - nvec, j - nj, acc, i, k)
                melds.pop()
        card = distinct[i]  # the deadwood block sorts after every meld
        dead.append(card)
        is_wild = card in wilds
        walk(
            rstate - (1 << (_F * i)),
            nstate - (0 if is_wild else 1 << (_F * prep.index[card])),
            j - int(is_wild),
            acc + pt[card],
            i,
            _DEAD_BLOCK,
        )
        dead.pop()

    walk(real, prep.state, prep.jokers, 0, -1, -1)
    return out, capped
