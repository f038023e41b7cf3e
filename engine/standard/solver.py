"""Least deadwood of many related standard-deck hands, optionally after throwing one card
(C-2 after T13-5 / GFF-8): :class:`_CardSolver`, the Python twin of the compiled
``engine.standard._solver`` (``_solver.c`` beside this file), which runs instead when
:mod:`engine.core.accelerators` loads it. Both give the same answers (tests check each pair).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import product
from typing import TYPE_CHECKING

from engine.core import accelerators
from engine.core.cards import RANK_OF, Card
from engine.standard.melds import StdContext
from engine.standard.search import _BITS, _F, _MAX_SET_GROUP, _RUN_SUBSETS_BY_JOKERS, _by_need

if TYPE_CHECKING:
    from engine.standard import _solver as _card_solver

_INF = 1 << 40

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
    end. The lowest natural is deadwood, thrown, or in one of its groups (as ``search._solver``).

    A hand's naturals are a count vector with one 5-bit field per card (``5 * card``), so every
    hand of a context shares one memo: advice asks about thousands of hands that differ by a
    card or two, and their sub-problems (the cards above the lowest few) coincide. The groups
    of the lowest natural are built from the counts of its run neighbours and of its rank in
    the higher suits, cached per pattern. WLOG limits as ``search._Prepared`` (sets of at most 5
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
