"""Brute-force reference for standard-deck melds and arrangements, used only by the tests.

Deliberately naive and independent of engine.standard.melds / engine.standard.arrange: the meld test
tries every rank for a set and every suit and window for a run, placing natural cards on their
positions in every possible way (wild-rank cards fill any position); the arrangement is a DP
over every subset of hand positions that passes that test.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations, product

RANK_POINTS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)


def brute_points(card: int, aces_high: bool) -> int:
    """GFF-1 / T13-3 value: A = 1 (15 when aces may be high), 2-10 face, J/Q/K = 10."""
    rank = card % 13
    return 15 if aces_high and rank == 0 else RANK_POINTS[rank]


@cache
def brute_is_meld(
    cards: tuple[int, ...], wild_rank: int | None, aces_high: bool, max_set: int | None
) -> bool:
    """GFF-2 / T13-4 by exhaustion. ``cards`` must be a sorted tuple."""
    n = len(cards)
    if n < 3:
        return False

    def wild(c: int) -> bool:
        return c % 13 == wild_rank

    if max_set is None or n <= max_set:
        for rank in range(13):
            if all(c % 13 == rank or wild(c) for c in cards):
                return True
    if n > 13:
        return False
    top = 13 if aces_high else 12
    for suit in range(4):
        for start in range(0, top - n + 2):
            window = range(start, start + n)
            allowed = [
                [p for p in window if c // 13 == suit and p % 13 == c % 13]
                for c in cards
                if not wild(c)
            ]
            for choice in product(*allowed):
                if len(set(choice)) == len(choice):
                    return True
    return False


def _candidate_masks(hand: Sequence[int], wild_rank: int | None) -> set[int]:
    """Every subset of hand positions whose non-wild cards share a rank or a suit.

    A meld's natural cards all share a rank (set) or a suit (run), so no meld is missed; the
    predicate above still decides each candidate.
    """
    wild = [i for i, c in enumerate(hand) if c % 13 == wild_rank]
    pools = [[i for i, c in enumerate(hand) if c % 13 == r] for r in range(13)]
    pools += [[i for i, c in enumerate(hand) if c // 13 == s] for s in range(4)]
    out: set[int] = set()
    for pool in pools:
        members = sorted(set(pool) | set(wild))
        for bits in range(1, 1 << len(members)):
            out.add(sum(1 << members[b] for b in range(len(members)) if bits >> b & 1))
    return out


def brute_best(
    hand: Sequence[int], wild_rank: int | None, aces_high: bool, max_set: int | None
) -> tuple[int, int, list[tuple[int, ...]], list[int]]:
    """(least deadwood points, most cards melded among those, melds, deadwood) by DP on subsets."""
    n = len(hand)
    melds_by_low: list[list[int]] = [[] for _ in range(n)]
    for mask in _candidate_masks(hand, wild_rank):
        cards = tuple(sorted(hand[i] for i in range(n) if mask >> i & 1))
        if len(cards) >= 3 and brute_is_meld(cards, wild_rank, aces_high, max_set):
            low = (mask & -mask).bit_length() - 1
            melds_by_low[low].append(mask)
    memo: dict[int, tuple[int, int, int]] = {}

    def best(mask: int) -> tuple[int, int, int]:
        """(points, dead count, first choice) for the cards in ``mask``."""
        if not mask:
            return (0, 0, 0)
        if mask in memo:
            return memo[mask]
        low = (mask & -mask).bit_length() - 1
        sub = best(mask & ~(1 << low))
        answer = (sub[0] + brute_points(hand[low], aces_high), sub[1] + 1, 1 << low)
        for meld in melds_by_low[low]:
            if meld & mask == meld:
                sub = best(mask & ~meld)
                if (sub[0], sub[1]) < answer[:2]:
                    answer = (sub[0], sub[1], meld)
        memo[mask] = answer
        return answer

    full = (1 << n) - 1
    points, dead_count, _ = best(full)
    melds: list[tuple[int, ...]] = []
    dead: list[int] = []
    mask = full
    while mask:
        choice = best(mask)[2]
        picked = tuple(sorted(hand[i] for i in range(n) if choice >> i & 1))
        if bin(choice).count("1") == 1 and not (
            len(picked) >= 3 and brute_is_meld(picked, wild_rank, aces_high, max_set)
        ):
            dead.extend(picked)
        else:
            melds.append(picked)
        mask &= ~choice
    return points, n - dead_count, melds, sorted(dead)


def brute_arrangements(
    hand: Sequence[int], wild_rank: int | None, aces_high: bool, max_set: int | None
) -> set[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]]:
    """Every partition of a small hand into melds + deadwood, as (sorted melds, sorted deadwood)."""
    out: set[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]] = set()

    def walk(rest: list[int], melds: list[tuple[int, ...]], dead: list[int]) -> None:
        if not rest:
            out.add((tuple(sorted(melds)), tuple(sorted(dead))))
            return
        first, others = rest[0], rest[1:]
        walk(others, melds, [*dead, first])
        for size in range(2, len(others) + 1):
            for picks in _index_subsets(len(others), size):
                meld = tuple(sorted([first, *(others[i] for i in picks)]))
                if brute_is_meld(meld, wild_rank, aces_high, max_set):
                    left = [c for i, c in enumerate(others) if i not in picks]
                    walk(left, [*melds, meld], dead)

    walk(sorted(hand), [], [])
    return out


def _index_subsets(n: int, size: int) -> list[set[int]]:
    return [set(c) for c in combinations(range(n), size)]


def check_arrangement(
    hand: Sequence[int],
    melds: Sequence[Sequence[int]],
    deadwood: Sequence[int],
    wild_rank: int | None,
    aces_high: bool,
    max_set: int | None,
) -> None:
    """Assert the melds pass the brute test and melds + deadwood use exactly the hand's cards."""
    for meld in melds:
        assert brute_is_meld(tuple(sorted(meld)), wild_rank, aces_high, max_set), meld
    used = sorted([c for meld in melds for c in meld] + list(deadwood))
    assert used == sorted(hand), (used, sorted(hand))
