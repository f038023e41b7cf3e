"""The C-2 (3) order of meld partitions and the first partition of a completely meldable
multiset of standard cards (wilds included).

Once the search has fixed the deadwood (:mod:`engine.standard.search`), the melds are chosen
greedily: the smallest card's meld is the longest (then lexicographically smallest) one whose
remainder still melds completely, which is the first partition in :func:`partition_key` order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.core.cards import RANK_OF, SUIT_OF
from engine.standard.melds import MAX_RUN, StdContext, is_meld, run_naturals, sub_multisets
from engine.standard.search import _F, _Prepared


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


def partition_key(melds: Sequence[tuple[int, ...]]) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """C-2 (3) order of meld partitions: melds by (smallest card, longer first, cards)."""
    return tuple(sorted((m[0], -len(m), m) for m in melds))
