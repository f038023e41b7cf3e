"""Best Triple Tunk arrangement of a hand (C-2 with TT-2 points and the TT-14 special bonus).

An arrangement is a set of disjoint melds (TT-6); the rest is deadwood. In a hand of at most six
cards at most two melds fit, and two only as 3 + 3 covering the whole hand, so the candidates are
"no meld", every single meld, and every meld whose complement is also a meld. Larger hands (not
legal in Triple Tunk, kept for completeness) go through a general search over disjoint melds.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.core.topper import POINTS
from engine.core.types import Arrangement, BestResult
from engine.games.tt.melds import (
    TTMeld,
    _bonus_for_sizes,
    _is_special_feature,
    _meld_from,
    layout,
    meld_masks,
)

Candidate = tuple[int, ...]  # position masks of the melds, ascending


def _candidates(n: int, melds: list[int]) -> list[Candidate]:
    """Every set of pairwise disjoint melds (as ascending mask tuples), the empty set first."""
    out: list[Candidate] = [()]
    if n <= 6:
        out.extend((m,) for m in melds)
        if n == 6:
            full = (1 << n) - 1
            present = set(melds)
            for m in melds:
                other = full ^ m
                if m.bit_count() == 3 and m < other and other in present:
                    out.append((m, other))
        return out

    def extend(start: int, used: int, chosen: Candidate) -> None:
        for j in range(start, len(melds)):
            m = melds[j]
            if not m & used:
                picked = (*chosen, m)
                out.append(tuple(sorted(picked)))
                extend(j + 1, used | m, picked)

    extend(0, 0, ())
    return out


Scored = tuple[int, int, Candidate]  # (melded points, cards melded, candidate)


def _scored(n: int, melds: list[int], melded: dict[int, int]) -> list[Scored]:
    """Every candidate with its melded points (TT-2) and melded card count."""
    return [
        (sum(melded[m] for m in c), sum(m.bit_count() for m in c), c) for c in _candidates(n, melds)
    ]


class _Hand:
    """Per-hand tables used to rank and build arrangements."""

    __slots__ = ("cards", "feats", "getter", "full")

    def __init__(self, cards: list[int], feats: list[int]) -> None:
        self.cards = cards
        self.feats = feats
        self.getter = layout(len(cards)).getter
        self.full = (1 << len(cards)) - 1

    def bonus(self, cand: Candidate) -> int:
        """TT-14 special bonus of the candidate's melds (in a hand every card is own)."""
        feats = self.feats
        return _bonus_for_sizes(
            m.bit_count() for m in cand if _is_special_feature(feats[m], m.bit_count())
        )

    def canon(self, cand: Candidate) -> tuple[tuple[int, ...], ...]:
        """Stable canonical form: the melds' sorted card tuples, sorted (C-2 last tie-break)."""
        getter, cards = self.getter, self.cards
        return tuple(sorted(getter[m](cards) for m in cand))

    def tie_key(self, scored: Scored) -> tuple[int, int, tuple[tuple[int, ...], ...]]:
        """C-2 order among equal deadwood points: more melded, higher bonus, canonical."""
        _pts, count, cand = scored
        return -count, -self.bonus(cand), self.canon(cand)

    def arrangement(self, cand: Candidate) -> Arrangement[TTMeld]:
        """Build the frozen Arrangement of a candidate."""
        cards, getter, feats = self.cards, self.getter, self.feats
        melds: list[TTMeld] = []
        used = 0
        for m in cand:
            used |= m
            meld = _meld_from(getter[m](cards), feats[m])
            assert meld is not None
            melds.append(meld)
        if len(melds) > 1:
            melds.sort(key=lambda x: x.cards)
        deadwood = getter[self.full ^ used](cards)
        return Arrangement(
            melds=tuple(melds),
            deadwood=deadwood,
            deadwood_points=sum(POINTS[c] for c in deadwood),
            special_bonus=self.bonus(cand),
        )


def best_tt_arrangement(hand: Iterable[int], max_ties: int = 0) -> BestResult[TTMeld]:
    """C-2 best arrangement: fewest deadwood points (TT-2), then more cards melded, then the
    higher special bonus (TT-14), then the canonical order (smallest sorted meld tuples).

    ``ties`` holds up to ``max_ties`` other arrangements with the same deadwood points, in that
    order; ``ties_truncated`` says more exist. The answer depends only on the card multiset.
    Cards must be distinct (validated at the entry point, TT-1).

    :raises HandError: for a hand of more than ``MAX_ANALYSED`` cards.
    """
    cards = sorted(hand)
    melds, feats = meld_masks(cards)
    if not melds:
        dead = tuple(cards)
        return BestResult(best=Arrangement((), dead, sum(POINTS[c] for c in dead), 1))
    h = _Hand(cards, feats)
    points = [POINTS[c] for c in cards]
    getter = h.getter
    melded = {m: sum(getter[m](points)) for m in melds}
    scored = _scored(len(cards), melds, melded)
    best_points = max(s[0] for s in scored)
    top = [s for s in scored if s[0] == best_points]
    if max_ties <= 0:
        best = top[0] if len(top) == 1 else min(top, key=h.tie_key)
        return BestResult(best=h.arrangement(best[2]), ties=(), ties_truncated=len(top) > 1)
    top.sort(key=h.tie_key)
    return BestResult(
        best=h.arrangement(top[0][2]),
        ties=tuple(h.arrangement(s[2]) for s in top[1 : max_ties + 1]),
        ties_truncated=len(top) > max_ties + 1,
    )


def tt_min_deadwood(hand: Iterable[int]) -> int:
    """Fewest deadwood points the hand can be left with (C-2, TT-2): the fast path."""
    cards = sorted(hand)
    points = [POINTS[c] for c in cards]
    total = sum(points)
    melds, _feats = meld_masks(cards)
    if not melds:
        return total
    getter = layout(len(cards)).getter
    melded = {m: sum(getter[m](points)) for m in melds}
    return total - max(sum(melded[m] for m in c) for c in _candidates(len(cards), melds))


__all__ = ["best_tt_arrangement", "tt_min_deadwood"]
