"""Best arrangement and least deadwood of a standard-deck hand (C-2, GFF-2, T13-4).

Search model. Every wild-rank card is a joker (it may stand for any card, itself included), and
all wilds of a round have the same rank, hence the same value. The hand is then a multiset of
natural cards plus ``w`` interchangeable jokers. A *group* is a multiset of naturals that becomes
a meld with ``need`` jokers. Without loss of generality groups are small: a set of 6+ naturals
splits into two sets and a run longer than 5 splits into two runs of 3+ with the same jokers, so
sets hold 1-5 naturals and runs span at most 5 positions. Jokers beyond the groups' needs are
always absorbed (added to a set, or a run split to make room; a wild may stand for a card that
is also in the hand), so once one group exists every joker is melded; with no group, 3+ jokers
meld alone and fewer are deadwood.

The search is a memoised recursion on (naturals left, jokers left): the lowest natural is either
deadwood or joins one of its precomputed groups. Naturals are stored as a count vector packed in
5-bit fields (4 count bits + a guard bit), so duplicate cards (several decks, T13-2) cost nothing
and "does this group still fit" is one subtraction (``(state | GUARD) - vec`` keeps every guard).
Naturals in no group are set aside as deadwood, and of the naturals whose only use is card + 2
jokers only the highest ``w // 2`` values are kept (a fast path when no meld can exist).

C-2 order. Arrangements compare by (deadwood points, fewer deadwood cards = more cards melded,
deadwood cards as a sorted tuple, ``partition_key`` of the melds); the best is the first. The
recursion's value is ``points << 8 | cards`` (small ints stay fast); a second walk through the
optimal choices picks the smallest deadwood tuple; the melds are then chosen greedily: the
smallest card's meld is the longest (then lexicographically smallest) one whose remainder still
melds completely. Hands are assumed valid (``engine.games.hands.validate_hand`` runs at the API
boundary).

Fast path (``min_deadwood`` and ``best_arrangement`` without ties). A hand of distinct cards with
at most one wild is first read as a 52-bit mask; a few shifts find the naturals that can be in
no meld (certain deadwood, set aside with their points). Nothing meldable returns at once; with
no wild, a meldable part that is one meld, or melds no card of which could join another, is the
answer; otherwise the same recursion (lowest card dead or in one of its melds, then the smallest
deadwood tuple, then the greedy partition) runs on the meldable mask. With one wild the general
search runs on the meldable cards only. Copies or 2+ wilds take the general search.

Advice (``DeadwoodMemo``) asks the least deadwood of a hand plus one card after the best discard
for every card it may draw: never a search of hand + card, but of the hand less the group that
card would join (sets of its rank, runs through it), a search shared by every card and every
hand that leaves the same cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING, Any

from engine.core import accelerators
from engine.core.cards import RANK_OF, SUIT_OF, Card
from engine.core.types import Arrangement, BestResult
from engine.standard.melds import (
    MAX_RUN,
    StdContext,
    StdMeld,
    _describe_sorted,
    describe_meld,
    is_meld,
    legal_meld_tuples,
    run_naturals,
    sub_multisets,
)

if TYPE_CHECKING:
    from engine.standard import _solver as _card_solver

_F = 5  # bits per natural's count field
TIE_SCAN_LIMIT = 2_000  # equal-point arrangements scanned for ties (C-2); more: truncated
_MAX_SET_GROUP = 5  # WLOG set groups hold at most 5 naturals (6+ split into 3 + 3..)
_DEAD_BLOCK = 1 << 30  # block order of a deadwood card: after every meld
_LOW_BITS = sum(1 << (_F * i) for i in range(16))  # bit 0 of every count field
_MAX_RUN_SPAN = 5  # WLOG run groups span at most 5 positions (6+ split into 3 + 3..)


class _Prepared:
    """One hand in search form: distinct naturals, their count state, groups and jokers."""

    __slots__ = (
        "nat",
        "counts",
        "index",
        "state",
        "guard",
        "jokers",
        "wilds",
        "joker_value",
        "groups",
        "pts",
        "active",
    )

    def __init__(self, hand: Sequence[Card], ctx: StdContext) -> None:
        wr = ctx.wild_rank
        wilds = sorted(c for c in hand if RANK_OF[c] == wr)
        nat: list[Card] = []
        counts: list[int] = []
        pts: list[int] = []
        pt = ctx.point_table
        suit_bits = [0, 0, 0, 0]
        state = guard = 0
        for c in sorted(c for c in hand if RANK_OF[c] != wr):
            if nat and nat[-1] == c:
                counts[-1] += 1
                state += 1 << (_F * (len(nat) - 1))
                continue
            state += 1 << (_F * len(nat))
            guard += 16 << (_F * len(nat))
            nat.append(c)
            counts.append(1)
            pts.append(pt[c])
            suit_bits[SUIT_OF[c]] |= 1 << RANK_OF[c]
        self.wilds, self.nat, self.counts, self.pts = wilds, nat, counts, pts
        self.index = dict(zip(nat, range(len(nat)), strict=True))
        self.state, self.guard = state, guard
        self.jokers = w = len(wilds)
        self.joker_value = pt[wilds[0]] if wilds else 0
        self.groups = self._all_groups(ctx, suit_bits)
        if w == 1:
            self._keep_best_free_pair()
        elif w >= 2:
            self._drop_lonely()
        covered = 0
        for options in self.groups:
            for vec, _ in options:
                covered |= vec
        # Naturals in no group are deadwood in every arrangement: the search skips them.
        self.active = state & _presence(covered) * 15

    def _keep_best_free_pair(self) -> None:
        """With one joker, keep only the best of the one-joker groups that touch no natural meld.

        One such group can be used; removing its cards changes no natural meld, so it saves
        exactly its own points and cards. Groups saving less (points, then cards) drop out.
        """
        natural = 0
        for options in self.groups:
            for vec, need in options:
                if need:
                    break
                natural |= vec
        natural = _presence(natural)
        free: list[tuple[int, int, int]] = []  # (saving key, group owner, vec)
        for i, options in enumerate(self.groups):
            for vec, need in options:
                if need == 1 and not _presence(vec) & natural:
                    free.append((self._saving(vec), i, vec))
        if len(free) < 2:
            return
        top = max(free)[0]
        for key, i, vec in free:
            if key < top:
                self.groups[i].remove((vec, 1))

    def _saving(self, vec: int) -> int:
        """Points then cards a group takes out of the deadwood, as one comparable int."""
        points, cards, i = 0, 0, 0
        while vec:
            k = vec & 15
            points += k * self.pts[i]
            cards += k
            vec >>= _F
            i += 1
        return points << 8 | cards

    def _drop_lonely(self) -> None:
        """Keep card + 2 jokers only for the highest naturals that no other group touches.

        At most ``jokers // 2`` of them can be saved that way, and saving a lower one while a
        higher one stays deadwood is never best, so values below the k-th highest drop out.
        """
        lonely = [i for i, g in enumerate(self.groups) if len(g) == 1 and g[0][1] == 2]
        if len(lonely) <= self.jokers // 2:
            return
        others = 0
        for i, options in enumerate(self.groups):
            if i not in lonely:
                for vec, _ in options:
                    others |= vec
        alone = [i for i in lonely if not others >> (_F * i) & 15]
        keep = self.jokers // 2
        if len(alone) <= keep:
            return
        floor = sorted((self.pts[i] for i in alone), reverse=True)[keep - 1]
        for i in alone:
            if self.pts[i] < floor:
                self.groups[i] = []

    def _all_groups(self, ctx: StdContext, suit_bits: list[int]) -> list[list[tuple[int, int]]]:
        """Per natural ``i``, the groups whose lowest natural is ``i``: (count vector, need).

        Only groups needing at most the hand's jokers are kept, fewest needed first.
        """
        nat, counts, index, w = self.nat, self.counts, self.index, self.jokers
        runs = _RUN_SUBSETS_BY_JOKERS[min(w, 3)]
        cap = ctx.max_set if ctx.max_set is not None else _MAX_SET_GROUP
        aces_high = ctx.aces_high
        left_of_rank = [0] * 13  # copies of each rank not yet passed (this suit and higher)
        for i, c in enumerate(nat):
            left_of_rank[RANK_OF[c]] += counts[i]
        useful = _USEFUL_RUN_NEIGHBOURS[min(w, 3)]
        out: list[list[tuple[int, int]]] = []
        for i, card in enumerate(nat):
            rank, suit = RANK_OF[card], SUIT_OF[card]
            unit = 1 << (_F * i)
            present = suit_bits[suit] >> (rank + 1) & 15
            available = left_of_rank[rank]  # copies of this rank a set starting here may use
            left_of_rank[rank] -= counts[i]
            set_ok = available + w >= 3 and available > 1
            if not (set_ok or useful[present] or (aces_high and rank == 0)):
                out.append([(unit, 2)] if w >= 2 else [])
                continue
            options: list[tuple[int, int]] = []
            # Sets (GFF-2 3-4 cards, T13-4 3+ with copies): this card, copies, higher suits.
            if set_ok:
                members = [i] + [index[c] for c in _SET_PARTNERS[card] if c in index]
                shifts = [_F * j for j in members]
                for combo, size in _set_combos(tuple(counts[j] for j in members), cap):
                    need = 3 - size if size < 3 else 0
                    if need <= w:
                        vec = 0
                        for k, sh in zip(combo, shifts, strict=True):
                            vec += k << sh
                        options.append((vec, need))
            elif w >= 2:
                options.append((unit, 2))
            # Runs: same suit, distinct ranks, within 5 positions above (or below a high ace).
            for sub, need in runs[present]:
                vec = unit
                for offset in _BITS[sub]:
                    vec += 1 << (_F * index[card + offset])
                options.append((vec, need))
            if aces_high and rank == 0:  # a high ace sits above the K, Q, J, 10 of its suit
                top = card + 13
                for sub, need in runs[_REV4[suit_bits[suit] >> 9 & 15]]:
                    vec = unit
                    for offset in _BITS[sub]:
                        vec += 1 << (_F * index[top - offset])
                    options.append((vec, need))
            if len(options) > 1:
                options.sort(key=_by_need)
            out.append(options)
        return out


def _presence(vec: int) -> int:
    """Bit 0 of each count field that is non-zero in ``vec``."""
    return (vec | vec >> 1 | vec >> 2 | vec >> 3) & _LOW_BITS


def _by_need(item: tuple[int, int]) -> int:
    """Sort key: groups needing fewer jokers first (the search stops at the first too costly)."""
    return item[1]


@lru_cache(maxsize=4096)
def _set_combos(counts: tuple[int, ...], cap: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Copies to take of each same-rank natural (first one at least once), with the set size."""
    ranges = [range(1, counts[0] + 1)] + [range(k + 1) for k in counts[1:]]
    return tuple((combo, sum(combo)) for combo in product(*ranges) if sum(combo) <= cap)


def _build_tables() -> tuple[
    list[tuple[int, ...]], list[list[tuple[int, int]]], list[tuple[int, ...]], list[int]
]:
    """Set partners per card and run groups per neighbour pattern, built once at import.

    A run pattern is 4 bits: bit d-1 set when the card d ranks above is present (or d ranks
    below, for a high ace). Each option is (offsets taken as bits, jokers needed).
    """
    set_partners = [tuple(s * 13 + c % 13 for s in range(c // 13 + 1, 4)) for c in range(52)]
    bits = [tuple(b + 1 for b in range(4) if m >> b & 1) for m in range(16)]
    subsets: list[list[tuple[int, int]]] = []
    for present in range(16):
        options = []
        for sub in range(1, 16):
            if sub & present == sub:
                span = bits[sub][-1] + 1
                size = len(bits[sub]) + 1
                options.append((sub, span - size + max(0, 3 - span)))
        subsets.append(options)
    rev4 = [sum(1 << (3 - b) for b in range(4) if m >> b & 1) for m in range(16)]
    return set_partners, subsets, bits, rev4


_SET_PARTNERS, _RUN_SUBSETS, _BITS, _REV4 = _build_tables()
# Run options per neighbour pattern keeping only those within 0, 1, 2 or 3+ jokers.
_RUN_SUBSETS_BY_JOKERS = [
    [[(sub, need) for sub, need in options if need <= w] for options in _RUN_SUBSETS]
    for w in range(4)
]
_USEFUL_RUN_NEIGHBOURS = [[bool(options) for options in by_w] for by_w in _RUN_SUBSETS_BY_JOKERS]


def _solver(prep: _Prepared) -> Callable[[int, int], int]:
    """Memoised least (deadwood points << 8 | deadwood cards) of naturals ``state``, ``j`` jokers.

    Only groups count here; the caller adds the no-group case for the jokers.
    """
    memo: dict[int, int] = {}
    groups, guard = prep.groups, prep.guard
    dead = [(p << 8) + 1 for p in prep.pts]

    def solve(state: int, j: int) -> int:
        if not state:
            return 0
        key = state << 4 | j
        got = memo.get(key)
        if got is not None:
            return got
        i = ((state & -state).bit_length() - 1) // _F
        best = dead[i] + solve(state - (1 << (_F * i)), j)
        gs = state | guard
        for vec, need in groups[i]:
            if need > j:
                break
            if (gs - vec) & guard == guard:
                val = solve(state - vec, j - need)
                if val < best:
                    best = val
                    if not val:
                        break
        memo[key] = best
        return best

    return solve


def _least_dead(prep: _Prepared, solve: Callable[[int, int], int]) -> list[int]:
    """The deadwood naturals of the C-2 best: least (points, cards), then smallest sorted tuple.

    Walks only optimal choices. Leaving a copy of the lowest card dead, when optimal, always
    gives the smaller tuple; otherwise the optimal groups' remainders are compared.
    """
    memo: dict[int, tuple[int, ...]] = {}
    groups, guard, nat = prep.groups, prep.guard, prep.nat
    dead = [(p << 8) + 1 for p in prep.pts]

    def walk(state: int, j: int) -> tuple[int, ...]:
        if not state:
            return ()
        key = state << 4 | j
        got = memo.get(key)
        if got is not None:
            return got
        target = solve(state, j)
        i = ((state & -state).bit_length() - 1) // _F
        unit = 1 << (_F * i)
        best: tuple[int, ...] | None = None
        if dead[i] + solve(state - unit, j) == target:
            best = (nat[i], *walk(state - unit, j))
        else:
            gs = state | guard
            for vec, need in groups[i]:
                if need > j:
                    break
                if (gs - vec) & guard == guard and solve(state - vec, j - need) == target:
                    found = walk(state - vec, j - need)
                    if best is None or found < best:
                        best = found
        assert best is not None
        memo[key] = best
        return best

    return list(walk(prep.active, prep.jokers))


def _natural_points(prep: _Prepared, state: int) -> int:
    """Points of every natural in ``state``."""
    total, i = 0, 0
    while state:
        total += (state & 15) * prep.pts[i]
        state >>= _F
        i += 1
    return total


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


def _partition(
    melded: list[int], prep: _Prepared, ctx: StdContext, solve: Callable[[int, int], int]
) -> list[tuple[int, ...]]:
    """The C-2 (3) first partition (``partition_key``) of a completely meldable multiset.

    Greedy: the smallest card's meld is the longest (then smallest) one whose remainder still
    melds completely, and so on. Wilds are interchangeable for legality, so a candidate is a
    natural part plus a number ``k`` of wilds, and only the ``k`` smallest wilds are tried.
    """
    wr = ctx.wild_rank
    nat = [c for c in melded if RANK_OF[c] != wr]
    wilds = [c for c in melded if RANK_OF[c] == wr]
    index = prep.index
    state = sum(1 << (_F * index[c]) for c in nat)
    out: list[tuple[int, ...]] = []
    while nat or wilds:
        rest = sorted(nat + wilds)
        if is_meld(rest, ctx):
            out.append(tuple(rest))
            break
        part, k = _first_part(nat, wilds, state, ctx, prep, solve)
        out.append(tuple(sorted(part + wilds[:k])))
        for c in part:
            nat.remove(c)
            state -= 1 << (_F * index[c])
        wilds = wilds[k:]
    return out


def _first_part(
    nat: list[int],
    wilds: list[int],
    state: int,
    ctx: StdContext,
    prep: _Prepared,
    solve: Callable[[int, int], int],
) -> tuple[list[int], int]:
    """The natural part and wild count of the first meld (see ``_partition``)."""
    w = len(wilds)
    low = nat[0] if nat and (not wilds or nat[0] < wilds[0]) else None
    candidates: list[tuple[int, tuple[int, ...], list[int], int]] = []
    parts = _natural_parts(nat, None, w, ctx) if low is None else _parts_with(low, nat, w, ctx)
    for part, kmin, kmax in parts:
        if low is None:
            kmin = max(kmin, 1)  # the smallest card is a wild: the meld must hold it
        for k in range(kmin, kmax + 1):
            cards = tuple(sorted(part + wilds[:k]))
            candidates.append((-len(cards), cards, part, k))
    candidates.sort()
    index = prep.index
    for _, _, part, k in candidates:
        left = state
        for c in part:
            left -= 1 << (_F * index[c])
        j = w - k
        if (solve(left, j) == 0) if left else (j == 0 or j >= 3):
            return part, k
    raise AssertionError("a completely meldable multiset always has a first meld")


def _parts_with(
    low: int, nat: list[int], w: int, ctx: StdContext
) -> list[tuple[list[int], int, int]]:
    """``_natural_parts`` for the smallest natural ``low`` of ``nat`` (sorted): melds holding it."""
    rank, suit = RANK_OF[low], SUIT_OF[low]
    cap = ctx.max_set
    out: list[tuple[list[int], int, int]] = []
    others = tuple(c for c in nat[1:] if RANK_OF[c] == rank)
    for sub in sub_multisets(others):
        size = len(sub) + 1
        kmin = 3 - size if size < 3 else 0
        kmax = w if cap is None else min(w, cap - size)
        if kmin <= kmax:
            out.append(([low, *sub], kmin, kmax))
    present = {RANK_OF[c] for c in nat if SUIT_OF[c] == suit}
    starts = [(rank, 1)]
    if ctx.aces_high and rank == 0:
        starts.append((13, -1))  # a high ace: the run grows downward from it
    for start, step in starts:
        chosen = [low]
        _extend_run(chosen, start, start, step, suit, present, w, out, w)
    return out


def _extend_run(
    chosen: list[int],
    first: int,
    last: int,
    step: int,
    suit: int,
    present: set[int],
    w: int,
    out: list[tuple[list[int], int, int]],
    budget: int,
) -> None:
    """Add every run part growing ``chosen`` (positions ``first``..``last``) by ``step``.

    ``w`` is the number of wilds; ``budget`` how many of them are still free to fill gaps.
    """
    pos = last + step
    while 0 <= pos <= 12 and abs(pos - first) < MAX_RUN:
        gaps = abs(pos - last) - 1
        if gaps > budget:
            break
        if pos in present and pos != 0:
            chosen.append(suit * 13 + pos)
            span = abs(pos - first) + 1
            size = len(chosen)
            kmin = max(3, span) - size
            kmax = min(w, MAX_RUN - size)
            if kmin <= kmax:
                out.append((sorted(chosen), kmin, kmax))
            _extend_run(chosen, first, pos, step, suit, present, w, out, budget - gaps)
            chosen.pop()
        pos += step


def _natural_parts(
    nat: list[int], low: int | None, w: int, ctx: StdContext
) -> list[tuple[list[int], int, int]]:
    """Natural parts of melds from ``nat`` (holding ``low`` if given) with their wild range.

    Each item is (sorted naturals, fewest wilds, most wilds) for which naturals + wilds is a
    meld. With ``low`` None the wild-only part ``[]`` is included.
    """
    out: list[tuple[list[int], int, int]] = []
    seen: set[tuple[int, ...]] = set()
    cap = ctx.max_set
    if low is None and w >= 3:
        out.append(([], 3, w if cap is None else min(w, cap)))
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[int, list[int]] = {}
    for c in nat:
        if low is None or RANK_OF[c] == RANK_OF[low]:
            by_rank.setdefault(RANK_OF[c], []).append(c)
        if (low is None or SUIT_OF[c] == SUIT_OF[low]) and c not in by_suit.get(SUIT_OF[c], ()):
            by_suit.setdefault(SUIT_OF[c], []).append(c)
    for group in by_rank.values():
        for sub in sub_multisets(tuple(group))[1:]:
            if low is not None and low not in sub:
                continue
            size = len(sub)
            kmax = w if cap is None else min(w, cap - size)
            if max(0, 3 - size) <= kmax:
                seen.add(sub)
                out.append((list(sub), max(0, 3 - size), kmax))
    for suited in by_suit.values():
        for chosen, span in run_naturals(suited, w, ctx):
            if low is not None and low not in chosen:
                continue
            part = tuple(sorted(chosen))
            kmin = max(3, span) - len(part)
            kmax = min(w, MAX_RUN - len(part))
            if kmin <= kmax and part not in seen:
                seen.add(part)
                out.append((list(part), kmin, kmax))
    return out


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


def partition_key(melds: Sequence[tuple[int, ...]]) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """C-2 (3) order of meld partitions: melds by (smallest card, longer first, cards)."""
    return tuple(sorted((m[0], -len(m), m) for m in melds))


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


# --------------------------------------------------------------------------------------------
# Bit-mask fast path: hands of distinct cards with at most one wild.
#
# The hand becomes a 52-bit mask (bit ``card``). Naturals that cannot be in any meld are found
# with a few shifts over the whole mask (a rank needs 3 cards counting the wild, a run card needs
# a 3-window of its suit holding it with at most ``w`` gaps, a high ace also counts above the K);
# they are deadwood in every arrangement. With no wild the remaining naturals are searched here
# directly on masks; with one wild the general search runs on the meldable cards only.

_ROW = (1 << 13) - 1  # one suit's 13 ranks
_ACES = 1 | 1 << 13 | 1 << 26 | 1 << 39  # the ace of every suit; times r-bits: rank r everywhere
# _FROM[k]: ranks 0..12-k of every suit (a card with k more ranks above it in its suit)
_FROM = tuple(sum(((1 << (13 - k)) - 1) << (13 * s) for s in range(4)) for k in range(4))
_BIT: tuple[int, ...] = tuple(1 << c for c in range(52))
_RANK_MASK: tuple[int, ...] = tuple(_ACES << r for r in range(13))
_MAX_SEARCH_RUN = 5  # WLOG (as ``_MAX_RUN_SPAN``): longer runs split into runs of 3..5


def _meldable(nat: int, w: int, aces_high: bool, cap: int) -> int:
    """Naturals of mask ``nat`` (distinct cards) in some meld with at most ``w`` <= 1 wilds."""
    a, b = nat & _ROW, nat >> 13 & _ROW
    c, d = nat >> 26 & _ROW, nat >> 39 & _ROW
    if w == 0:
        s3 = nat & nat >> 1 & nat >> 2 & _FROM[2]  # lowest card of 3 in a row, same suit
        cover = s3 | s3 << 1 | s3 << 2
        if aces_high:
            h = nat & nat >> 11 & nat >> 12 & _ACES  # Q K A
            cover |= h | h << 11 | h << 12
        ranks = (a & b & (c | d)) | (c & d & (a | b)) if cap >= 3 else 0
    else:
        p1 = nat & nat >> 1 & _FROM[1]  # two in a row, same suit
        p2 = nat & nat >> 2 & _FROM[2]  # one gap between
        cover = p1 | p1 << 1 | p2 | p2 << 2
        if aces_high:
            k = nat & nat >> 12 & _ACES  # K A
            q = nat & nat >> 11 & _ACES  # Q _ A
            cover |= k | k << 12 | q | q << 11
        ranks = (a | b) & (c | d) | a & b | c & d if cap >= 3 else 0
    return nat & (cover | ranks * _ACES)


def meldable_mask(mask: int, aces_high: bool = False) -> int:
    """The cards of ``mask`` (distinct cards, bit ``card``, no wilds) in some meld made of them:
    3+ of a rank or 3+ in a row of one suit (GFF-2 spreads; T13-4 without wilds)."""
    return _meldable(mask, 0, aces_high, 4)


_SUIT_CARDS: dict[int, tuple[int, ...]] = {}  # one suit's part of a mask -> its cards


def _mask_cards(mask: int) -> tuple[int, ...]:
    """The cards of ``mask``, ascending."""
    out: tuple[int, ...] = ()
    get = _SUIT_CARDS.get
    for part in (mask & _ROW, mask & _ROW << 13, mask & _ROW << 26, mask & _ROW << 39):
        if part:
            got = get(part)
            if got is None:
                cards = []
                bits = part
                while bits:
                    low = bits & -bits
                    cards.append(low.bit_length() - 1)
                    bits ^= low
                _SUIT_CARDS[part] = got = tuple(cards)
            out += got
    return out


_MELD_CARDS: dict[int, tuple[int, ...]] = {}  # meld mask -> its cards (a few hundred melds)


def _meld_cards(meld: int) -> tuple[int, ...]:
    """``_mask_cards`` of a meld, cached (there are few distinct melds)."""
    got = _MELD_CARDS.get(meld)
    if got is None:
        _MELD_CARDS[meld] = got = _mask_cards(meld)
    return got


def _mask_points(mask: int, pt: tuple[int, ...]) -> int:
    """Points of the cards in ``mask``."""
    total = 0
    while mask:
        low = mask & -mask
        total += pt[low.bit_length() - 1]
        mask ^= low
    return total


def _one_meld(mask: int, aces_high: bool, cap: int) -> bool:
    """True when the naturals of ``mask`` (distinct cards, no wild) form one meld."""
    if mask.bit_count() < 3:
        return False
    low = mask & -mask
    i = low.bit_length() - 1
    if not mask & ~_RANK_MASK[i % 13]:
        return mask.bit_count() <= cap
    shift = i - i % 13
    row = mask >> shift
    if row > _ROW:
        return False  # two suits
    if not (row + (row & -row)) & row:
        return True  # consecutive ranks
    if aces_high and row & 1:
        row = row ^ 1 | 1 << 13
        return not (row + (row & -row)) & row
    return False


def _separate_melds(meldable: int, aces_high: bool, cap: int) -> list[int] | None:
    """The melds of ``meldable`` (no wild, distinct cards) when no card could join two melds.

    When the run cards (3+ in a row) and the set cards (ranks with 3+) are disjoint, with no
    Q K A (a high ace might join two runs) and every set within ``cap``, each run stretch and
    each rank is one meld and every meldable card is melded: C-2's only best, with the melds
    in the order of their smallest card. Otherwise None.
    """
    if aces_high and meldable & meldable >> 11 & meldable >> 12 & _ACES:
        return None
    a, b = meldable & _ROW, meldable >> 13 & _ROW
    c, d = meldable >> 26 & _ROW, meldable >> 39 & _ROW
    ranks = (a & b & (c | d)) | (c & d & (a | b)) if cap >= 3 else 0
    set_cards = meldable & ranks * _ACES
    s3 = meldable & meldable >> 1 & meldable >> 2 & _FROM[2]
    run_cards = meldable & (s3 | s3 << 1 | s3 << 2)
    if set_cards & run_cards:
        return None
    melds: list[int] = []
    while ranks:
        r = ranks & -ranks
        ranks ^= r
        meld = set_cards & r * _ACES
        if meld.bit_count() > cap:
            return None
        melds.append(meld)
    while run_cards:
        low = run_cards & -run_cards
        block = run_cards ^ (run_cards & (run_cards + low))  # the lowest stretch of 1s
        if block >> 13 * ((low.bit_length() - 1) // 13 + 1):
            block &= _ROW << 13 * ((low.bit_length() - 1) // 13)  # a stretch ends at the K
        melds.append(block)
        run_cards ^= block
    if len(melds) > 1:
        melds.sort(key=_lowest_bit)
    return melds


def _lowest_bit(mask: int) -> int:
    """Sort key: the lowest set bit of ``mask``."""
    return mask & -mask


_RUN_CACHE: dict[int, tuple[tuple[int, int], ...]] = {}


def _row_runs(row: int, aces_high: bool, longest: int) -> tuple[tuple[int, int], ...]:
    """Runs of 3..``longest`` inside one suit's 13-bit ``row``: (lowest bit, run mask) pairs."""
    key = row | aces_high << 13 | longest << 14
    got = _RUN_CACHE.get(key)
    if got is not None:
        return got
    ext = row | (row & 1) << 13 if aces_high else row
    out: list[tuple[int, int]] = []
    for start in range(12):
        for size in range(3, min(longest, 14 - start) + 1):
            window = ((1 << size) - 1) << start
            if ext & window != window:
                break
            run = (window & _ROW) | window >> 13
            out.append((run & -run, run))
    _RUN_CACHE[key] = got = tuple(out)
    return got


def _set_masks(nat: int, cap: int, low_only: int = 0) -> list[int]:
    """Every set (3..``cap`` cards of one rank) inside ``nat``; with ``low_only``, holding it."""
    a, b = nat & _ROW, nat >> 13 & _ROW
    c, d = nat >> 26 & _ROW, nat >> 39 & _ROW
    ranks = (a & b & (c | d)) | (c & d & (a | b)) if cap >= 3 else 0
    if low_only:
        ranks &= _RANK_MASK[(low_only.bit_length() - 1) % 13] & _ROW
    out: list[int] = []
    while ranks:
        r = ranks & -ranks
        ranks ^= r
        full = nat & r * _ACES
        if full.bit_count() == 4:
            if cap >= 4:
                out.append(full)
            rest = full
            while rest:
                one = rest & -rest
                rest ^= one
                out.append(full ^ one)
        else:
            out.append(full)
    if low_only:
        return [m for m in out if m & low_only]
    return out


def _search_melds(nat: int, aces_high: bool, cap: int) -> dict[int, list[int]]:
    """Melds of the search (sets, runs of 3..5) inside ``nat``, by their lowest card's bit."""
    by_low: dict[int, list[int]] = {}
    for shift in (0, 13, 26, 39):
        row = nat >> shift & _ROW
        if row:
            for low, run in _row_runs(row, aces_high, _MAX_SEARCH_RUN):
                low <<= shift
                if low in by_low:
                    by_low[low].append(run << shift)
                else:
                    by_low[low] = [run << shift]
    for meld in _set_masks(nat, cap):
        low = meld & -meld
        if low in by_low:
            by_low[low].append(meld)
        else:
            by_low[low] = [meld]
    return by_low


def _mask_solver(
    by_low: dict[int, list[int]], pt: tuple[int, ...], shift: int
) -> tuple[Callable[[int], int], dict[int, int]]:
    """Memoised least deadwood of a natural mask: points, or with ``shift`` 8 the C-2 value
    ``points << 8 | cards``. Returns ``solve`` (for a mask not yet in the memo) and the memo.
    """
    memo: dict[int, int] = {0: 0}
    get = memo.get
    empty: list[int] = []
    one = 1 if shift else 0

    def solve(mask: int) -> int:
        low = mask & -mask
        rest = mask ^ low
        best = get(rest)
        if best is None:
            best = solve(rest)
        best += (pt[low.bit_length() - 1] << shift) + one
        for meld in by_low.get(low, empty):
            if meld & mask == meld:
                rest = mask ^ meld
                val = get(rest)
                if val is None:
                    val = solve(rest)
                if val < best:
                    best = val
                    if not val:
                        break
        memo[mask] = best
        return best

    return solve, memo


def _mask_best(
    nat: int, meldable: int, ctx: StdContext, cap: int
) -> tuple[list[tuple[int, ...]], int]:
    """C-2 best of distinct naturals ``nat`` with no wild, ``meldable`` the naturals in some
    meld: (melds in order, deadwood mask)."""
    aces_high = ctx.aces_high
    forced = nat ^ meldable
    by_low = _search_melds(meldable, aces_high, cap)
    pt = ctx.point_table
    search, known = _mask_solver(by_low, pt, 8)
    get = known.get

    def solve(mask: int) -> int:
        got = get(mask)
        return search(mask) if got is None else got

    target = search(meldable)
    # The smallest deadwood tuple among the optimal choices (as in ``_least_dead``).
    memo: dict[int, tuple[int, ...]] = {0: ()}
    empty: list[int] = []

    def walk(mask: int) -> tuple[int, ...]:
        got = memo.get(mask)
        if got is not None:
            return got
        goal = known[mask]
        low = mask & -mask
        best: tuple[int, ...] | None = None
        if (pt[low.bit_length() - 1] << 8) + 1 + known[mask ^ low] == goal:
            best = (low.bit_length() - 1, *walk(mask ^ low))
        else:
            for meld in by_low.get(low, empty):
                if meld & mask == meld and solve(mask ^ meld) == goal:
                    found = walk(mask ^ meld)
                    if best is None or found < best:
                        best = found
        assert best is not None
        memo[mask] = best
        return best

    dead_mask = forced
    if target:
        for card in walk(meldable):
            dead_mask |= _BIT[card]
    # Greedy partition (as ``_partition``): the smallest card's meld is the longest, then the
    # smallest, whose remainder still melds completely.
    rest = nat & ~dead_mask
    melds: list[tuple[int, ...]] = []
    while rest:
        if _one_meld(rest, aces_high, cap):
            melds.append(_meld_cards(rest))
            break
        low = rest & -rest
        i = low.bit_length() - 1
        shift = i - i % 13
        row_low = low >> shift
        candidates = [
            m << shift
            for lb, m in _row_runs(rest >> shift & _ROW, aces_high, MAX_RUN)
            if lb == row_low
        ]
        if (rest & _RANK_MASK[i % 13]).bit_count() >= 3:
            candidates += _set_masks(rest, cap, low)
        if len(candidates) > 1:
            candidates.sort(key=_meld_order)
        for meld in candidates:
            if solve(rest ^ meld) == 0:
                melds.append(_meld_cards(meld))
                rest ^= meld
                break
        else:
            raise AssertionError("a completely meldable mask always has a first meld")
    return melds, dead_mask


def _meld_order(meld: int) -> tuple[int, tuple[int, ...]]:
    """C-2 (3) order of melds sharing their smallest card: longest, then smallest cards."""
    return -meld.bit_count(), _meld_cards(meld)


# --------------------------------------------------------------------------------------------
# Least deadwood after throwing one card away (the discard that follows a draw, T13-5, GFF-8),
# by the same search as ``min_deadwood`` with a "one card still to throw" flag, and a memo of
# both figures per hand for callers that ask about thousands of related hands (advice).

_INF = 1 << 40


def min_deadwood_after_discard(hand: Sequence[Card], ctx: StdContext) -> int:
    """Least deadwood points of ``hand`` less its best single discard (C-2 after T13-5 / GFF-8).

    Equal to ``min(min_deadwood(hand - c) for c in hand)``, by one search (the "one card still
    to throw" flag of :class:`_CardSolver`). ``hand`` holds at least one card.
    """
    return DeadwoodMemo.for_context(ctx).after_discard(hand)


# Per card: the count fields of the (up to) four cards above it in its suit, and for an ace the
# fields of its suit's 10, J, Q, K (the cards below a high ace), as masks of ``state >> ...``.
_ABOVE_MASK = tuple((1 << (_F * min(4, 12 - c % 13))) - 1 for c in range(52))
_BELOW_ACE_MASK = (1 << (_F * 4)) - 1


def _key_masks(high: bool) -> tuple[int, ...]:
    """Per card ``c``: the fields of ``state >> 5c`` that decide the groups of ``c`` as the
    lowest natural: its own count, the four cards above it in its suit, its rank in the higher
    suits and (a high ace) its suit's 10, J, Q, K."""
    out = []
    for c in range(52):
        m = 15 | _ABOVE_MASK[c] << _F
        for t in range(c + 13, 52, 13):
            m |= 15 << (_F * (t - c))
        if high and c % 13 == 0:
            m |= _BELOW_ACE_MASK << (_F * 9)
        out.append(m)
    return tuple(out)


_KEY_MASK = _key_masks(False)
_KEY_MASK_HIGH = _key_masks(True)


_CARD_ACCEL = accelerators.load("engine.standard._solver")

# Groups of a lowest natural per pattern of the counts around it (``_CardSolver``): they depend
# on the pattern and the rules only, so every solver of those rules shares them (bounded).
_SOLVER_GROUPS: dict[tuple[bool, int], dict[int, tuple[tuple[int, int], ...]]] = {}
_PATTERN_LIMIT = 1 << 15  # per table: about 20 MB at most


class _CardSolver:
    """Least deadwood, optionally after throwing one card, memoised across hands of a context.

    ``solve(state, j, melded, free)``: the least deadwood points of naturals ``state`` with
    ``j`` jokers. ``melded`` tells that a group exists already (every spare joker then joins a
    meld; without one, 3+ jokers meld alone and fewer are deadwood). ``free`` asks for exactly
    one card to be thrown away: the lowest natural when it is reached, or a spare joker at the
    end. The lowest natural is deadwood, thrown, or in one of its groups (as ``_solver``).

    A hand's naturals are a count vector with one 5-bit field per card (``5 * card``), so every
    hand of a context shares one memo: advice asks about thousands of hands that differ by a
    card or two, and their sub-problems (the cards above the lowest few) coincide. The groups
    of the lowest natural are built from the counts of its run neighbours and of its rank in
    the higher suits, cached per pattern. WLOG limits as ``_Prepared`` (sets of at most 5
    naturals, runs spanning at most 5 positions).
    """

    __slots__ = ("ctx", "limit", "_memo", "_groups", "_pt", "_cap", "_wild", "solve", "compiled")

    def __init__(self, ctx: StdContext, limit: int = 1 << 17) -> None:
        self.ctx = ctx
        self.limit = limit
        self._memo: dict[int, int] = {}
        self._pt = ctx.point_table
        self._cap = ctx.max_set if ctx.max_set is not None else _MAX_SET_GROUP
        self._groups = _SOLVER_GROUPS.setdefault((ctx.aces_high, self._cap), {})
        self._wild = ctx.wild_rank
        # The same search compiled (engine/standard/_solver.c), when built; else the closure.
        self.compiled: _card_solver.Solver | None = None
        if _CARD_ACCEL is not None:
            jv = self._pt[self._wild] if self._wild is not None else 0
            self.compiled = _CARD_ACCEL.Solver(self._pt, jv, self._cap, ctx.aces_high, limit)
            self.solve: Callable[[int, int, bool, bool], int] = self.compiled.solve
        else:
            self.solve = self._make_solve()

    def split(self, hand: Sequence[Card]) -> tuple[int, int]:
        """(natural count state, number of wilds) of ``hand``."""
        state = jokers = 0
        wr = self._wild
        for c in hand:
            if RANK_OF[c] == wr:
                jokers += 1
            else:
                state += 1 << (_F * c)
        return state, jokers

    def _build_groups(self, state: int, c: int, jj: int) -> tuple[tuple[int, int], ...]:
        """Groups whose lowest natural is ``c`` inside ``state``: (count vector, jokers), fewest
        jokers first, only those needing at most ``jj`` (at most 3) jokers. The search caches
        them on the raw counts that decide them: the four cards above ``c`` in its suit, the
        same rank in the higher suits, ``c``'s own copies, the cards below a high ace."""
        r = RANK_OF[c]
        p = 0
        for k in range(1, min(4, 12 - r) + 1):
            if state >> (_F * (c + k)) & 15:
                p |= 1 << (k - 1)
        hp = 0
        if r == 0 and self.ctx.aces_high:
            for k in range(1, 5):
                if state >> (_F * (c + 13 - k)) & 15:
                    hp |= 1 << (k - 1)
        own = min(state >> (_F * c) & 15, 5)
        unit = 1 << (_F * c)
        options: list[tuple[int, int]] = []
        for sub, need in _RUN_SUBSETS_BY_JOKERS[jj][p]:
            vec = unit
            for off in _BITS[sub]:
                vec += 1 << (_F * (c + off))
            options.append((vec, need))
        for sub, need in _RUN_SUBSETS_BY_JOKERS[jj][hp] if hp else ():
            vec = unit
            for off in _BITS[sub]:
                vec += 1 << (_F * (c + 13 - off))
            options.append((vec, need))
        partners = list(range(c + 13, 52, 13))
        counts = [state >> (_F * t) & 15 for t in partners]
        ranges = [range(1, own + 1)] + [range(min(k, 5) + 1) for k in counts]
        for combo in product(*ranges):
            size = sum(combo)
            need = 3 - size if size < 3 else 0
            if size > self._cap or need > jj:
                continue
            vec = combo[0] * unit
            for k, t in zip(combo[1:], partners, strict=True):
                vec += k << (_F * t)
            options.append((vec, need))
        options.sort(key=_by_need)
        return tuple(options)

    def _make_solve(self) -> Callable[[int, int, bool, bool], int]:
        """The memoised search as a closure over local tables (the hot path)."""
        memo = self._memo
        get = memo.get
        groups = self._groups
        build = self._build_groups
        pt = self._pt
        jv = pt[self._wild] if self._wild is not None else 0
        limit = self.limit
        key_mask = _KEY_MASK_HIGH if self.ctx.aces_high else _KEY_MASK

        def solve(state: int, j: int, melded: bool, free: bool) -> int:
            if not state:
                if free:
                    if not j:
                        return _INF
                    j -= 1
                return 0 if (not j or melded or j >= 3) else j * jv
            tail = j << 2 | melded << 1 | free
            key = state << 8 | tail
            got = get(key)
            if got is not None:
                return got
            c = ((state & -state).bit_length() - 1) // _F
            base = _F * c
            rest = state - (1 << base)
            # Sub-problems are looked up here first (a call costs more than the lookup).
            val = get(rest << 8 | tail)
            best = pt[c] + (solve(rest, j, melded, free) if val is None else val)
            if free:
                val = get(rest << 8 | tail ^ 1)
                if val is None:
                    val = solve(rest, j, melded, False)
                if val < best:
                    best = val
            if best:
                jj = j if j < 3 else 3
                gkey = ((state >> base & key_mask[c]) << 6 | c) << 2 | jj
                options = groups.get(gkey)
                if options is None:
                    if len(groups) >= _PATTERN_LIMIT:
                        groups.clear()
                    options = groups[gkey] = build(state, c, jj)
                for vec, need in options:
                    if need > j:
                        break
                    sub = state - vec
                    val = get(sub << 8 | (j - need) << 2 | 2 | free)
                    if val is None:
                        val = solve(sub, j - need, True, free)
                    if val < best:
                        best = val
                        if not val:
                            break
            if len(memo) >= limit:
                memo.clear()
            memo[key] = best
            return best

        return solve


# Groups that hold one given natural ``c`` (the card a hand is about to receive), with their
# other naturals taken from the hand: sets of ``c``'s rank (copies included, at most ``cap``
# naturals) and runs through ``c`` spanning at most 5 positions (as ``_CardSolver`` groups).
# Keyed by the hand's pattern around ``c``; hand-independent, so shared by every memo.
_WITH_GROUPS: dict[int, tuple[tuple[int, int], ...]] = {}
_WINDOW = 0x1FF  # positions p-4..p+4 of a suit row, p at bit 4
_CENTRE = 1 << 4


def _groups_with(
    c: Card, win: int, hwin: int, setcnt: int, jj: int, cap: int
) -> tuple[tuple[int, int], ...]:
    """Groups holding ``c`` as (count vector of the other naturals, jokers needed <= ``jj``),
    fewest jokers first. ``win``/``hwin``: the suit's naturals at positions ``p-4..p+4`` around
    ``c``'s position (``hwin``: around 13, a high ace); ``setcnt``: copies of ``c``'s rank in the
    four suits, 4 bits each (clubs lowest)."""
    r, s = RANK_OF[c], SUIT_OF[c]
    options: list[tuple[int, int]] = []
    partners = [t * 13 + r for t in range(4)]
    counts = [min(setcnt >> (4 * t) & 15, cap) for t in range(4)]
    for combo in product(*(range(k + 1) for k in counts)):
        size = 1 + sum(combo)
        need = 3 - size if size < 3 else 0
        if size > cap or need > jj:
            continue
        vec = 0
        for k, t in zip(combo, partners, strict=True):
            vec += k << (_F * t)
        options.append((vec, need))
    for p, w in ((r, win), (13, hwin)):
        present = [k - 4 for k in range(9) if w >> k & 1 and k != 4]
        n = len(present)
        for sub in range(1, 1 << n):
            offs = [present[i] for i in range(n) if sub >> i & 1]
            span = max(0, offs[-1]) - min(0, offs[0]) + 1
            if span > _MAX_RUN_SPAN:
                continue
            need = span - len(offs) - 1 + (3 - span if span < 3 else 0)
            if need > jj:
                continue
            vec = 0
            for o in offs:
                vec += 1 << (_F * (s * 13 + (p + o) % 13))
            options.append((vec, need))
    options.sort(key=_by_need)
    return tuple(options)


class Profile:
    """A hand as :meth:`DeadwoodMemo.after_adding` reads it: natural count state, wilds, each
    suit's naturals as a row of positions (bit 13: the ace again when aces may be high), the
    highest card value, and its deadwood and after-discard deadwood (searched when first asked)."""

    __slots__ = (
        "hand",
        "state",
        "wilds",
        "rows",
        "sets",
        "top_points",
        "values",
        "_memo",
        "_dw",
        "_ad",
        "_aw",
        "_base",
        "_plus",
    )

    def __init__(
        self,
        memo: DeadwoodMemo,
        hand: Sequence[Card],
        base: Profile | None = None,
        plus: Card = 0,
    ) -> None:
        wr = memo._wild
        pt = memo._pt
        aces_high = memo.ctx.aces_high
        rows: list[int]
        sets: list[int]
        hand_cards: Sequence[Card]
        if base is not None:  # base's figures plus the one card
            state, wilds, top = base.state, base.wilds, base.top_points
            rows, sets, hand_cards = list(base.rows), list(base.sets), (plus,)
        else:
            state = wilds = top = 0
            rows = [0, 0, 0, 0]
            sets = [0] * 13
            hand_cards = hand
        for c in hand_cards:
            if pt[c] > top:
                top = pt[c]
            r = RANK_OF[c]
            if r == wr:
                wilds += 1
                continue
            state += 1 << (_F * c)
            sets[r] += 1 << (4 * SUIT_OF[c])
            rows[SUIT_OF[c]] |= (1 | 1 << 13) if (aces_high and r == 0) else 1 << r
        self.hand = tuple(hand)
        self.state: int = state
        self.wilds: int = wilds
        self.rows: tuple[int, ...] = tuple(rows)
        self.top_points: int = top
        self.sets: list[int] = sets  # copies of each rank per suit, 4 bits each (clubs lowest)
        self.values: dict[int, int] = {}  # after_adding per card, once known
        self._memo = memo
        self._dw: int | None = None
        self._ad: int | None = None
        self._aw: int | None = None
        self._base = base  # this hand is ``base`` + ``plus``: figures through that card
        self._plus = plus

    @property
    def deadwood(self) -> int:
        """``min_deadwood`` of the hand."""
        if self._dw is None:
            base = self._base
            if base is None:
                self._dw = self._memo.deadwood(self.hand)
            else:
                self._dw = self._memo._through(base, self._plus, 0, False)
        return self._dw

    @property
    def after_discard(self) -> int:
        """``min_deadwood_after_discard`` of the hand."""
        if self._ad is None:
            base = self._base
            if base is None:
                self._ad = self._memo.after_discard(self.hand)
            else:
                self._ad = self._memo.after_adding(base, self._plus)
        return self._ad

    @property
    def with_wild(self) -> int:
        """Least deadwood of the hand plus one more wild, less its best discard."""
        if self._aw is None:
            base = self._base
            if base is None:
                self._aw = self._memo._solver.solve(self.state, self.wilds + 1, False, True)
            else:
                self._aw = self._memo._through(base, self._plus, 1, True)
        return self._aw


SHARED_CONTEXTS = 4  # memos kept by ``DeadwoodMemo.for_context`` (rounds / rule sets in use)


def _hand_key(hand: Sequence[Card]) -> int:
    """One int per multiset of cards: a 3-bit count per card (at most 7 copies)."""
    key = 0
    for c in hand:
        key += 1 << (3 * c)
    return key


class DeadwoodMemo:
    """``min_deadwood`` and ``min_deadwood_after_discard`` of many related hands, memoised.

    Advice asks about thousands of hands that differ by a card or two (every discard, every next
    card); each figure is searched once. The memo is bounded: past ``limit`` hands it starts
    afresh (each memo holds at most ``limit`` hands per figure, its search at most ``1 << 17``
    states). Instances are shared per context (:meth:`for_context`).
    """

    __slots__ = ("ctx", "limit", "_dw", "_ad", "_pt", "_wild", "_cap", "_solver", "_compiled")
    _SHARED: dict[StdContext, DeadwoodMemo] = {}

    def __init__(self, ctx: StdContext, limit: int = 1 << 16) -> None:
        self.ctx = ctx
        self.limit = limit
        self._dw: dict[int, int] = {}
        self._ad: dict[int, int] = {}
        self._pt = ctx.point_table
        self._wild = ctx.wild_rank
        self._cap = ctx.max_set if ctx.max_set is not None else _MAX_SET_GROUP
        self._solver = _CardSolver(ctx)
        self._compiled = self._solver.compiled

    @classmethod
    def for_context(cls, ctx: StdContext) -> DeadwoodMemo:
        """The shared memo of ``ctx``; at most ``SHARED_CONTEXTS`` are kept (the least recently
        used goes), so a long-running service holds a bounded amount of memory."""
        shared = cls._SHARED
        got = shared.pop(ctx, None)
        if got is None:
            got = cls(ctx)
            while len(shared) >= SHARED_CONTEXTS:
                del shared[next(iter(shared))]
        shared[ctx] = got  # most recently used last
        return got

    @classmethod
    def clear_all(cls) -> None:
        """Forget every shared memo (benchmarks time cold requests with this)."""
        cls._SHARED.clear()

    def points(self, card: Card) -> int:
        """Deadwood value of ``card``."""
        return self._pt[card]

    def deadwood(self, hand: Sequence[Card]) -> int:
        """``min_deadwood(hand, ctx)``."""
        return self._memo_solve(self._dw, hand, False)

    def after_discard(self, hand: Sequence[Card]) -> int:
        """``min_deadwood_after_discard(hand, ctx)``."""
        return self._memo_solve(self._ad, hand, True)

    def _memo_solve(self, memo: dict[int, int], hand: Sequence[Card], free: bool) -> int:
        """The search of ``hand`` (less one card if ``free``), memoised in ``memo`` (bounded)."""
        key = _hand_key(hand)
        got = memo.get(key)
        if got is None:
            if len(memo) >= self.limit:
                memo.clear()
            state, j = self._solver.split(hand)
            got = memo[key] = self._solver.solve(state, j, False, free)
        return got

    def profile(self, hand: Sequence[Card]) -> Profile:
        """What :meth:`after_adding` and :meth:`gain_of_adding` read (see :class:`Profile`)."""
        return Profile(self, hand)

    def profile_plus(self, base: Profile, card: Card) -> Profile:
        """:meth:`profile` of ``base``'s hand + ``card``, whose figures are searched through
        that card on ``base`` (as :meth:`after_adding`): hands that share a base (every hand a
        draw values, less one card of the hand before the draw) share those searches."""
        return Profile(self, (*base.hand, card), base, card)

    def _through(self, base: Profile, card: Card, extra: int, free: bool) -> int:
        """Least deadwood of ``base`` + ``card`` + ``extra`` wilds (less one card if ``free``):
        the card is deadwood, thrown (``free``), or in a group with cards of ``base``."""
        solve = self._solver.solve
        state, j = base.state, base.wilds + extra
        if RANK_OF[card] == self._wild:
            return solve(state, j + 1, False, free)
        best = self._pt[card] + solve(state, j, False, free)
        if free:
            val = solve(state, j, False, False)
            if val < best:
                best = val
        if best:
            best = self._in_groups(base, card, j, best, free)
        return best

    def _in_groups(self, prof: Profile, card: Card, j: int, best: int, free: bool) -> int:
        """``min(best, ...)`` over the groups holding natural ``card`` with naturals of the
        profiled hand (within ``j`` jokers) of the least deadwood of the rest of the hand with
        that group made (less one card if ``free``); stops at 0."""
        if self._compiled is not None:
            return self._compiled.through(prof.state, j, card, best, free)
        solve = self._solver.solve
        state = prof.state
        for vec, need in self._options_with(prof, card, j):
            if need > j:
                break
            val = solve(state - vec, j - need, True, free)
            if val < best:
                best = val
                if not val:
                    break
        return best

    def _fewest_jokers(self, prof: Profile, card: Card) -> int:
        """Fewest jokers (of the hand's) that a group holding natural ``card`` with naturals of
        the profiled hand needs; -1 when no group can hold it."""
        if self._compiled is not None:
            return self._compiled.fewest_jokers(prof.state, prof.wilds, card)
        options = self._options_with(prof, card)
        return options[0][1] if options else -1

    def _options_with(self, prof: Profile, card: Card, j: int = -1) -> tuple[tuple[int, int], ...]:
        """Groups holding natural ``card`` with naturals of the profiled hand (cached), within
        ``j`` jokers (default: the hand's wilds)."""
        r = RANK_OF[card]
        if j < 0:
            j = prof.wilds
        jj = j if j < 3 else 3
        row = prof.rows[SUIT_OF[card]] << 4
        win = row >> r & 0x1EF
        hwin = row >> 13 & 0x1EF if (r == 0 and self.ctx.aces_high) else 0
        setcnt = prof.sets[r]
        key = (((((card << 9 | win) << 9 | hwin) << 16 | setcnt) << 2 | jj) << 3) | self._cap
        options = _WITH_GROUPS.get(key)
        if options is None:
            if len(_WITH_GROUPS) >= _PATTERN_LIMIT:
                _WITH_GROUPS.clear()
            options = _WITH_GROUPS[key] = _groups_with(card, win, hwin, setcnt, jj, self._cap)
        return options

    def after_adding(self, prof: Profile, card: Card) -> int:
        """Least deadwood after adding ``card`` to the profiled hand and throwing one card.

        Without a search of hand + card: the card is thrown (the hand's deadwood), in one group
        with cards of the hand (sets of its rank, runs through it; as the search's groups), the
        rest of the hand then giving up one card with a meld already made, or kept as deadwood
        (its points + the hand's after-discard deadwood, searched only when that can win: never
        when no card of the hand is worth more, since throwing a card ``y`` saves at most its
        points, nor when the card's points alone reach the best so far). A wild is one more
        joker. Only the searches of the hand less each group's cards remain, and
        they are shared by every card (and every hand) that leaves the same cards.
        """
        got = prof.values.get(card)
        if got is not None:
            return got
        if RANK_OF[card] == self._wild:
            return prof.with_wild
        best = prof.deadwood
        if best:
            best = self._in_groups(prof, card, prof.wilds, best, True)
        pts = self._pt[card]
        if pts < best and pts < prof.top_points:  # else kept as deadwood it cannot do better
            kept = pts + prof.after_discard
            if kept < best:
                best = kept
        prof.values[card] = best
        return best

    def adding_bound(self, prof: Profile, card: Card) -> int:
        """A lower bound of :meth:`after_adding` without its group searches (exact for a wild or
        a card that fits no group of the hand): a card in a meld can be replaced by a wild, so
        nothing beats the hand plus one more wild (:attr:`Profile.with_wild`)."""
        if RANK_OF[card] == self._wild:
            return prof.with_wild
        best = prof.deadwood
        pts = self._pt[card]
        if pts < prof.top_points:
            kept = pts + prof.after_discard
            if kept < best:
                best = kept
        if best and self._fewest_jokers(prof, card) >= 0:
            wild = prof.with_wild
            if wild < best:
                best = wild
        else:
            prof.values[card] = best  # exact: no group holds the card
        return best

    def adding_bounds(
        self, prof: Profile, counts: Sequence[tuple[Card, int]]
    ) -> tuple[int, int, list[tuple[Card, int, int, int, int]]]:
        """A lower bound of :meth:`after_adding` for every ``(card, copies)`` at once (a known
        value, else :meth:`adding_bound`): (sum of bound x copies, copies whose bound is 0, and
        the cards whose bound may be below the value as (card, copies, bound, ceiling, jokers),
        where the ceiling is the value unless a group with the card does better and jokers the
        fewest a group with it needs).

        A bound is exact unless the card fits a group of the hand and the hand plus a wild
        beats the card thrown or kept as deadwood; exact ones are stored as known values.
        """
        if self._compiled is not None:  # the same loop compiled
            sums = self._compiled.adding_bounds(*self._compiled_args(prof, counts))
            self._keep_searched(prof, sums[3], sums[4])
            return sums[0], sums[1], sums[2]
        wr = self._wild
        pt = self._pt
        values = prof.values
        dw = prof.deadwood
        top = prof.top_points
        acc = zero = 0
        loose: list[tuple[Card, int, int, int, int]] = []
        ad = ww = -1
        for card, copies in counts:
            v = values.get(card)
            if v is None:
                if RANK_OF[card] == wr:
                    if ww < 0:
                        ww = prof.with_wild
                    v = values[card] = ww
                else:
                    v = dw
                    pts = pt[card]
                    if pts < top:
                        if ad < 0:
                            ad = prof.after_discard
                        if pts + ad < v:
                            v = pts + ad
                    fewest = self._fewest_jokers(prof, card) if v else -1
                    if fewest >= 0:
                        if ww < 0:
                            ww = prof.with_wild
                        if ww < v:
                            loose.append((card, copies, ww, v, fewest))
                            v = ww
                        else:
                            values[card] = v
                    else:
                        values[card] = v
            acc += v * copies
            if v == 0:
                zero += copies
        return acc, zero, loose

    def _compiled_args(
        self, prof: Profile, cards: object, searched: bool = True
    ) -> tuple[Any, ...]:  # (state, j, deadwood, top, wild_rank, cards, values, ad, ww)
        """The arguments of the compiled per-card loops for the profiled hand and ``cards`` (the
        loop's cards, or one card): its deadwood searched first unless ``searched`` is False
        (then -1 when not yet known: the compiled call searches it if it needs it)."""
        dw = prof.deadwood if searched else -1 if prof._dw is None else prof._dw
        return (
            prof.state,
            prof.wilds,
            dw,
            prof.top_points,
            -1 if self._wild is None else self._wild,
            cards,
            prof.values,
            -1 if prof._ad is None else prof._ad,
            -1 if prof._aw is None else prof._aw,
        )

    @staticmethod
    def _keep_searched(prof: Profile, ad: int, ww: int) -> None:
        """Store the after-discard and one-more-wild figures a compiled loop searched."""
        if ad >= 0:
            prof._ad = ad
        if ww >= 0:
            prof._aw = ww

    def adding_sums(
        self, prof: Profile, counts: Sequence[tuple[Card, int]]
    ) -> tuple[int, int, int]:
        """Over ``(card, copies)``: (sum of :meth:`after_adding` x copies, copies whose value is
        below the hand's deadwood, copies whose value is 0), the per-card values memoised as
        :meth:`after_adding` does."""
        if self._compiled is not None:  # the same loop compiled
            sums = self._compiled.adding_sums(*self._compiled_args(prof, counts))
            self._keep_searched(prof, sums[3], sums[4])
            return sums[0], sums[1], sums[2]
        dw = prof.deadwood
        acc = outs = zero = 0
        after_adding = self.after_adding
        for card, copies in counts:
            v = after_adding(prof, card)
            acc += v * copies
            if v < dw:
                outs += copies
            if v == 0:
                zero += copies
        return acc, outs, zero

    def raised_bound(
        self,
        prof: Profile,
        loose: Sequence[tuple[Card, int, int, int, int]],
        acc: int,
        zero: int,
        best: float,
        risk: float,
        total: int,
        weight: float,
    ) -> float | None:
        """Tighten the bound of a Three Thirteen kept hand's value (``advice.t13``:
        ``(1 - risk) * acc / total + risk * deadwood - (1 - risk) * weight * zero / total``) with
        the exact :meth:`after_adding` of each ``loose`` card of :meth:`adding_bounds`, the
        likeliest to raise it most first (those whose groups need the most wilds, the bound's
        spare wild helping them most, then the widest range), and stop once it exceeds
        ``best``: that value, or None when it never does (the value is then exact)."""
        if self._compiled is not None:  # the same loop compiled
            state, wilds, dw, top, wild, _, values, ad, _ = self._compiled_args(prof, ())
            raised, ad = self._compiled.raised_bound(
                state, wilds, dw, top, wild, loose, values, ad, acc, zero, best, risk, total, weight
            )
            self._keep_searched(prof, ad, -1)
            return raised
        dw = prof.deadwood
        shortfall = weight + 1  # a go-out the bound assumes weighs more than a point
        for card, copies, low, _, _ in sorted(
            loose,
            key=lambda t: (-t[4], (t[2] - t[3]) * t[1] - (shortfall * t[1] if t[2] == 0 else 0)),
        ):
            v = self.after_adding(prof, card)
            if v != low:
                acc += (v - low) * copies
                if low == 0:
                    zero -= copies
                lower = (
                    (1 - risk) * (acc / total) + risk * dw - (1 - risk) * weight * (zero / total)
                )
                if lower > best:
                    return lower
        return None

    def gain_of_adding(self, prof: Profile, card: Card) -> int:
        """Deadwood the profiled hand saves by taking ``card`` and throwing its best card:
        ``deadwood - after_adding``, 0 without any search when the card fits no group of the
        hand and is worth at least its every card."""
        if self._compiled is not None:  # the same figure compiled
            gain, dw, ad, ww = self._compiled.gain(*self._compiled_args(prof, card, False))
            if dw >= 0:
                prof._dw = dw
            self._keep_searched(prof, ad, ww)
            return gain
        if (
            RANK_OF[card] != self._wild
            and self._pt[card] >= prof.top_points
            and self._fewest_jokers(prof, card) < 0  # (every group needs at most 3 jokers)
        ):
            return 0
        return prof.deadwood - self.after_adding(prof, card)
