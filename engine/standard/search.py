"""The general least-deadwood search of a standard-deck hand, wild cards and copies included
(C-2, GFF-2, T13-4): the hand in search form and the memoised recursion on it.

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

The recursion's value is ``points << 8 | cards`` (C-2: fewer points, then fewer deadwood cards;
small ints stay fast); :func:`_least_dead` walks the optimal choices again for the smallest
deadwood tuple. The tables built here at import (set partners, run groups per neighbour
pattern) are shared with :mod:`engine.standard.solver` and :mod:`engine.standard.memo`. Hands
are assumed valid (the Game validates them at the API boundary).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import product

from engine.core.cards import RANK_OF, SUIT_OF, Card
from engine.standard.melds import StdContext

_F = 5  # bits per natural's count field
_MAX_SET_GROUP = 5  # WLOG set groups hold at most 5 naturals (6+ split into 3 + 3..)
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
