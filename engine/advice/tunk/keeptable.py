"""Kept-hand tables: what drawing each card of the deck does to a kept Tunk hand (at most five
cards), independent of the situation, built once per hand and memoised on its bit mask.

The evaluator (:mod:`engine.advice.tunk.value`) then only intersects these bit masks with the
unseen cards. Triple Tunk tables are built by the compiled twin ``_keeptable.c`` when it is
built (the same tables: ``tests/engine/advice/test_keep_table.py``), else in pure Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from types import ModuleType
from typing import NamedTuple

from engine.advice.tunk.common import GameModel, model_for
from engine.advice.tunk.completions import (
    _CACHE_LIMIT,
    _COL_OK,
    _GFF_GROUPS,
    _NUM_OK,
    _RELATED,
    _SEQ_FILL,
    _SHP_OK,
    _TT_GROUPS,
    COMPLETIONS,
    _mask,
    gff_completions,
    related_mask,
)
from engine.core import accelerators
from engine.core.options import TRIPLE_TUNK


class KeepTable(NamedTuple):
    """What drawing each card of the deck does to a kept hand (independent of the situation).

    ``base`` is the hand's deadwood, ``best_drop`` the deadwood after throwing its best card.
    A card that joins no meld of the hand leaves ``min(base, best_drop + points)`` after the
    draw and best discard; ``gains`` lists, as (saving, card mask), the cards that do better
    than that. ``outs_extra`` are cards with saving that bring the deadwood below ``base`` although
    their plain value would not; ``empties`` the cards after which the hand can be emptied.
    """

    base: int
    best_drop: int
    gains: tuple[tuple[int, int], ...]
    outs_extra: int
    empties: int


_KEEP_TABLES: dict[tuple[str, int], KeepTable] = {}


def keep_table(model: GameModel, rest: Sequence[int]) -> KeepTable:
    """The :class:`KeepTable` of ``rest`` (memoised on its bit mask)."""
    return _keep_table(model, tuple(rest), _mask(rest))


def _keep_table(model: GameModel, rest: tuple[int, ...], rmask: int) -> KeepTable:
    """:func:`keep_table` with the bit mask of ``rest`` already known."""
    key = (model.name, rmask)
    t = _KEEP_TABLES.get(key)
    if t is None:
        t = _build_keep_table(model, rest, rmask)
        if len(_KEEP_TABLES) > _CACHE_LIMIT:
            _KEEP_TABLES.clear()
        _KEEP_TABLES[key] = t
    return t


_POINT_MASKS: dict[str, tuple[tuple[int, int], ...]] = {}


def _point_masks(model: GameModel) -> tuple[tuple[int, int], ...]:
    """(points, mask of the deck's cards worth that much), by points."""
    pm = _POINT_MASKS.get(model.name)
    if pm is None:
        by: dict[int, int] = {}
        for c in model.deck:
            by[model.points[c]] = by.get(model.points[c], 0) | (1 << c)
        pm = tuple(sorted(by.items()))
        _POINT_MASKS[model.name] = pm
    return pm


# Per kept-hand size r: its position pairs, triples and quadruples (groups of 2..min(4, r - 1)
# cards), each as (positions..., position mask).
_PAIRS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple((a, b, 1 << a | 1 << b) for a, b in combinations(range(r), 2)) if r >= 3 else ()
    for r in range(6)
)
_TRIPLES: tuple[tuple[tuple[int, int, int, int], ...], ...] = tuple(
    tuple((a, b, c, 1 << a | 1 << b | 1 << c) for a, b, c in combinations(range(r), 3))
    if r >= 4
    else ()
    for r in range(6)
)
_QUADS: tuple[tuple[tuple[int, int, int, int, int], ...], ...] = tuple(
    tuple(
        (a, b, c, d, 1 << a | 1 << b | 1 << c | 1 << d) for a, b, c, d in combinations(range(r), 4)
    )
    if r >= 5
    else ()
    for r in range(6)
)


# Per (game, base, best_drop): per value v after the draw, the cards whose plain value
# exceeds v and, per point class among them, (card mask, saving, v < base <= plain).
_SPLITS: dict[tuple[str, int, int], dict[int, tuple[int, tuple[tuple[int, int, bool], ...]]]] = {}


def _split(
    model: GameModel, base: int, best_drop: int, v: int
) -> tuple[int, tuple[tuple[int, int, bool], ...]]:
    """The point classes a drawn card reaching ``v`` gains in (see :data:`_SPLITS`)."""
    above = 0
    parts = []
    for p, pm in _point_masks(model):
        plain = base if best_drop + p > base else best_drop + p
        if v < plain:
            above |= pm
            parts.append((pm, plain - v, v < base <= plain))
    return above, tuple(parts)


_GE_MASKS: dict[str, tuple[int, ...]] = {}


def _ge_masks(model: GameModel) -> tuple[int, ...]:
    """Per t: the mask of the deck's cards worth at least t points (0 past the highest)."""
    ge = _GE_MASKS.get(model.name)
    if ge is None:
        pm = _point_masks(model)
        ge = tuple(sum(m for p, m in pm if p >= t) for t in range(max(p for p, _m in pm) + 2))
        _GE_MASKS[model.name] = ge
    return ge


def _gff_group(cards: tuple[int, ...], gm: int) -> int:
    """gff_completions of a group of 3-4 cards whose bit mask is ``gm`` (memoised on it)."""
    m = _GFF_GROUPS.get(gm)
    if m is None:
        m = gff_completions(cards)
    return m


def _add_inside(
    inside: dict[int, int],
    pm: int,
    g: int,
    own: int,
    pos_of: dict[int, int],
    pr: Sequence[int],
) -> None:
    """Record the melds inside a kept hand that a group (positions ``pm``, ``g`` points)
    makes with each card of ``own`` (card bits of the hand): position mask -> points."""
    while own:
        low = own & -own
        i = pos_of[low.bit_length() - 1]
        inside[pm | 1 << i] = g + pr[i]
        own ^= low


def _build_keep_table(model: GameModel, rest: tuple[int, ...], rmask: int) -> KeepTable:
    """The :class:`KeepTable` of ``rest``: compiled for Triple Tunk when the accelerator is
    built (the same table, ``tests/engine/advice/test_keep_table.py``), else the pure-Python
    builder."""
    # The compiled builder reads packed TT-6 features (Triple Tunk's melds).
    if _ACCEL is not None and 0 < len(rest) <= 5 and COMPLETIONS[model.name].features is not None:
        return KeepTable._make(_ACCEL.build(rest))
    return _build_keep_table_py(model, rest, rmask)


def _build_keep_table_py(model: GameModel, rest: tuple[int, ...], rmask: int) -> KeepTable:
    """Drawing card c (worth p) and keeping it in a new meld with a group G of ``rest`` while
    throwing x (not in G) leaves ``total - G - x`` when that meld beats the best meld left in
    ``rest - x`` (else keeping c is no better than its plain value), so per (G, p) the best x
    is the highest card outside G whose remaining best meld is worth at most ``G + p``. Each
    drawn card keeps its lowest such value: the values are collected per value (card masks)
    and handed out lowest first.

    A kept hand holds at most five cards, hence at most one meld (3 + 3 > 5): its deadwood is
    its total less its best meld, and the melds inside it come from the same completion masks.
    """
    r = len(rest)
    if r == 0:
        return KeepTable(0, 0, (), 0, 0)
    if r > 5:
        raise ValueError("a kept Tunk hand holds at most five cards")
    name = model.name
    pts = model.points
    # Positions by points, highest first (the table does not depend on the order): the card
    # thrown is then the lowest position the rule allows.
    rest = tuple(sorted(rest, key=pts.__getitem__, reverse=True))
    pr = [pts[c] for c in rest]
    total = sum(pr)
    melds = COMPLETIONS[name]
    features = melds.features  # TT-6 packed features: groups tested inline; None for GFF-2
    tt = features is not None
    # A card related to no other card of rest is in no group with completions (see
    # related_mask): groups holding such a card are skipped. (Memo lookups inline: this is
    # the draw advice's innermost builder.)
    row_memo = melds.rows
    rows = []
    dead = 0
    for i, c in enumerate(rest):
        row = row_memo.get(c)
        rows.append(row if row is not None else melds.pair_row(c))
        rel = _RELATED.get((name, c))
        if rel is None:
            rel = related_mask(name, c)
        if not rel & rmask:
            dead |= 1 << i
    pos_of = {c: i for i, c in enumerate(rest)}
    outside = ~rmask
    groups: list[tuple[int, int, int]] = []  # (positions mask, points, outside completions)
    pair_groups: list[tuple[int, int]] = []  # r == 5: (positions mask, outside completions)
    inside: dict[int, int] = {}  # melds inside rest: position mask -> points
    for a, b, pm in _PAIRS[r]:
        if pm & dead:
            continue
        cm = rows[a][rest[b]]
        if not cm:
            continue
        g = pr[a] + pr[b]
        own = cm & rmask
        if own:
            _add_inside(inside, pm, g, own, pos_of, pr)
        out = cm & outside
        if out:
            groups.append((pm, g, out))
            if r == 5:
                pair_groups.append((pm, out))
    if r >= 4:
        bits = [1 << c for c in rest]
        feats = [features[c] for c in rest] if features is not None else []
        col_ok, shp_ok, num_ok, seq_fill = _COL_OK, _SHP_OK, _NUM_OK, _SEQ_FILL
        tt_groups = _TT_GROUPS
        if len(tt_groups) > _CACHE_LIMIT:
            tt_groups.clear()
        for a, b, c, pm in _TRIPLES[r]:
            if pm & dead:
                continue
            gm = bits[a] | bits[b] | bits[c]
            if tt:  # _tt_comp_raw(f, 3) inline, memoised on the group's card mask
                got = tt_groups.get(gm)
                if got is None:
                    f = feats[a] | feats[b] | feats[c]
                    col = col_ok[f & 0xF]
                    shp = shp_ok[(f >> 4) & 0xF]
                    num = num_ok[(f >> 8) & 0xF]
                    got = (col & shp) | (col & num) | (shp & num)
                    if (f >> 12).bit_count() == 3:
                        got |= seq_fill[f >> 12] & (col | shp)
                    got &= ~gm
                    tt_groups[gm] = got
                cm = got
            else:
                cm = _gff_group((rest[a], rest[b], rest[c]), gm)
            if not cm:
                continue
            g = pr[a] + pr[b] + pr[c]
            own = cm & rmask
            if own:
                _add_inside(inside, pm, g, own, pos_of, pr)
            out = cm & outside
            if out:
                groups.append((pm, g, out))
        for a, b, c, d, pm in _QUADS[r]:
            if pm & dead:
                continue
            gm = bits[a] | bits[b] | bits[c] | bits[d]
            if tt:  # _tt_comp_raw(f, 4) inline, memoised on the group's card mask
                got = tt_groups.get(gm)
                if got is None:
                    f = feats[a] | feats[b] | feats[c] | feats[d]
                    col = col_ok[f & 0xF]
                    shp = shp_ok[(f >> 4) & 0xF]
                    num = num_ok[(f >> 8) & 0xF]
                    got = (col & shp) | (col & num) | (shp & num)
                    if (f >> 12).bit_count() == 4:
                        got |= seq_fill[f >> 12] & (col | shp)
                    got &= ~gm
                    tt_groups[gm] = got
                cm = got
            else:
                cm = _gff_group((rest[a], rest[b], rest[c], rest[d]), gm)
            if not cm:
                continue
            g = pr[a] + pr[b] + pr[c] + pr[d]
            own = cm & rmask
            if own:
                _add_inside(inside, pm, g, own, pos_of, pr)
            out = cm & outside
            if out:
                groups.append((pm, g, out))
    empties = 0
    if len(inside) == 1:  # the usual case: one meld
        ((mm, best_all),) = inside.items()
        b_x = [0 if mm >> i & 1 else best_all for i in range(r)]
        best_drop = min([total - pr[i] - b_x[i] for i in range(r)])
    elif inside:
        best_all = max(inside.values())
        b_x = [max((v for m, v in inside.items() if not m >> i & 1), default=0) for i in range(r)]
        best_drop = min(total - pr[i] - b_x[i] for i in range(r))
    else:
        best_all = 0
        b_x = [0] * r
        best_drop = total - max(pr)
    base = total - best_all
    if r == 2:
        empties = melds.complete(rest) & outside  # one meld of three after the draw
    if not groups:
        return KeepTable(base, best_drop, (), 0, empties)
    by_value: dict[int, int] = {}  # value after the draw -> cards that reach it
    if not inside:  # no meld left to keep: throw the highest card outside the group
        for gmask, g, cmask in groups:
            v = total - g - pr[((gmask + 1) & ~gmask).bit_length() - 1]  # first position free
            by_value[v] = by_value.get(v, 0) | cmask
    else:  # per class p, the highest card outside G with b_x <= G + p: classes from the top
        ge = _ge_masks(model)
        top = len(ge) - 1
        everything = ge[0]
        for gmask, g, cmask in groups:
            claimed = 0  # cards of the classes already given their thrown card
            for i in range(r):
                if gmask >> i & 1:
                    continue
                th = b_x[i] - g  # classes p >= th may throw position i
                if th >= top:
                    continue
                cl = ge[th] if th > 0 else everything
                m = cmask & cl & ~claimed
                if m:
                    v = total - g - pr[i]
                    by_value[v] = by_value.get(v, 0) | m
                if cl == everything:
                    break
                claimed |= cl
        full = (1 << r) - 1
        for gmask, cmask in pair_groups:
            if full & ~gmask in inside:
                empties |= cmask  # two melds of three after the draw
    gains: dict[int, int] = {}
    outs_extra = 0
    assigned = 0
    splits = _SPLITS.get((name, base, best_drop))
    if splits is None:
        splits = _SPLITS[(name, base, best_drop)] = {}
    for v in sorted(by_value):
        split = splits.get(v)
        if split is None:
            split = splits[v] = _split(model, base, best_drop, v)
        new = by_value[v] & split[0] & ~assigned  # only the cards whose plain value exceeds v
        if not new:
            continue
        assigned |= new
        if v == 0:
            empties |= new
        for pm, saving, out in split[1]:
            m = new & pm
            if m:
                gains[saving] = gains.get(saving, 0) | m
                if out:
                    outs_extra |= m
    return KeepTable(base, best_drop, tuple(sorted(gains.items())), outs_extra, empties)


def _load_accelerator() -> ModuleType | None:
    """``engine.advice.tunk._keeptable`` loaded with this module's tables, or None (pure Python:
    see :mod:`engine.core.accelerators`)."""
    module = accelerators.load("engine.advice.tunk._keeptable")
    if module is not None:
        tt = model_for(TRIPLE_TUNK)
        features = COMPLETIONS[TRIPLE_TUNK].features
        module.init(features, tt.points, _COL_OK, _SHP_OK, _NUM_OK, _SEQ_FILL, _point_masks(tt))
    return module


_ACCEL = _load_accelerator()


def _drawn_deadwood(model: GameModel, table: KeepTable, card: int) -> int:
    """Deadwood of the hand of ``table`` after drawing ``card`` and throwing its best card."""
    p = model.points[card]
    v = table.base if table.best_drop + p > table.base else table.best_drop + p
    for saving, cmask in table.gains:
        if cmask >> card & 1:
            return v - saving
    return v


def clear_table_caches() -> None:
    """Empty the memo tables of this module (benchmarks of cold answers)."""
    _KEEP_TABLES.clear()
    _SPLITS.clear()


__all__ = ["KeepTable", "clear_table_caches", "keep_table"]
