"""Least deadwood of thousands of related standard-deck hands, memoised (C-2 after T13-5):
:class:`DeadwoodMemo` and the :class:`Profile` of a hand it reads, used by Three Thirteen advice
and simulation.

Advice asks the least deadwood of a hand plus one card after the best discard for every card it
may draw: never a search of hand + card, but of the hand less the group that card would join
(sets of its rank, runs through it), a search (:mod:`engine.standard.solver`) shared by every
card and every hand that leaves the same cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import Any

from engine.core.cards import RANK_OF, SUIT_OF, Card
from engine.standard.melds import StdContext
from engine.standard.search import _F, _MAX_RUN_SPAN, _MAX_SET_GROUP, _by_need
from engine.standard.solver import _PATTERN_LIMIT, _CardSolver

# Groups that hold one given natural ``c`` (the card a hand is about to receive), with their
# other naturals taken from the hand: sets of ``c``'s rank (copies included, at most ``cap``
# naturals) and runs through ``c`` spanning at most 5 positions (as ``_CardSolver`` groups).
# Keyed by the hand's pattern around ``c``; hand-independent, so shared by every memo.
_WITH_GROUPS: dict[int, tuple[tuple[int, int], ...]] = {}


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
