"""The bit-mask fast path of the standard-deck search: hands of distinct cards with at most one
wild (C-2, GFF-2, T13-4).

The hand becomes a 52-bit mask (bit ``card``). Naturals that cannot be in any meld are found
with a few shifts over the whole mask (a rank needs 3 cards counting the wild, a run card needs
a 3-window of its suit holding it with at most ``w`` gaps, a high ace also counts above the K);
they are deadwood in every arrangement. With no wild the remaining naturals are searched here
directly on masks; with one wild the general search (:mod:`engine.standard.search`) runs on the
meldable cards only. :func:`meldable_mask` is the public face (GFF-2 spreads).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.standard.melds import MAX_RUN, StdContext

_ROW = (1 << 13) - 1  # one suit's 13 ranks
_ACES = 1 | 1 << 13 | 1 << 26 | 1 << 39  # the ace of every suit; times r-bits: rank r everywhere
# _FROM[k]: ranks 0..12-k of every suit (a card with k more ranks above it in its suit)
_FROM = tuple(sum(((1 << (13 - k)) - 1) << (13 * s) for s in range(4)) for k in range(4))
_BIT: tuple[int, ...] = tuple(1 << c for c in range(52))
_RANK_MASK: tuple[int, ...] = tuple(_ACES << r for r in range(13))
_MAX_SEARCH_RUN = 5  # WLOG (as ``search._MAX_RUN_SPAN``): longer runs split into runs of 3..5


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
