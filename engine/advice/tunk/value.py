"""One evaluation of a Tunk hand, shared by the discard, draw, knock and lay-down advice.

A *kept hand* ``R`` is what the player holds at the end of a turn, after the discard. Its
value (lower is better, in deadwood points) is

    keep(R) = (deadwood + expected_deadwood) / 2 - OUT_POINTS * out_chance

- ``deadwood``: C-2 deadwood points of ``R``;
- ``expected_deadwood``: the mean, over the unseen cards (each equally likely to be the next
  stock card), of the deadwood after drawing it and throwing the best card;
- ``out_chance``: the share of those cards after which the hand can be emptied (every card
  melded - two melds of three, or one of three from two cards - or all but one, to discard).

Discarding ``x`` from the hand after the draw ``H`` is worth

    discard(H, x) = keep(H - x) + DANGER_POINTS * danger(x)

where ``danger`` is the chance that ``x`` helps the next player (it lays off on a table meld,
GFF-3 / TT-8, or completes a meld with two cards they are known or likely to hold). The value of
a hand after the draw is its best discard's value, or :data:`END_VALUE` when it ends the play
now (GFF-9/GFF-10 going or tunking out, TT-11 tunking out). ``draw`` reports for the top discard
the value of the hand after taking it, and for the stock the mean of the same value over the
unseen cards; ``discard`` reports the same numbers, so the two never disagree. ``knock`` reads
the value of playing on from ``keep(H)`` of the hand as it is (``engine.advice.tunk.knock``), the
value ``draw`` reports as ``hand_value`` and ``discard`` gives the option that leaves ``H``.

Speed: the part of ``keep`` that does not depend on the situation (for each card of the deck,
how much drawing it would lower the hand's deadwood) is a table built once per kept hand and
memoised on its bit mask (:func:`keep_table`); the situation then only intersects bit masks
with the unseen cards. Completions ("which cards make a meld with these cards") are memoised
on the cards' packed features (Triple Tunk) or their bit mask (Game Flip Flop).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from types import ModuleType
from typing import NamedTuple

from engine.advice.situation import Observation
from engine.advice.tunk.common import GameModel, known_hands, model_for, unseen_cards
from engine.core import accelerators, topper
from engine.core import cards as std
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.games.gff.play import gff_going_out, spread_kind
from engine.games.tt.melds import _FEATURE as _TT_FEATURE
from engine.games.tt.melds import MAX_MELD
from engine.games.tt.play import (
    _first_legal_order,
    _shortest_requirement,
    can_extend,
    tt_can_tunk_out,
    tt_tunk_out,
    tt_tunk_sizes,
)

# Points a discard that feeds the next player costs: what they typically shed by using it
# (a card of their deadwood, about half a ten) - tuned in heads-up tournaments.
DANGER_POINTS = 4.0
# Points one unit of "chance to empty the hand after the next draw" is worth (tunk out / go out
# ends the deal in the player's favour, TT-11 pays double) - tuned in tournaments.
OUT_POINTS: dict[str, float] = {GAME_FLIP_FLOP: 10.0, "triple-tunk": 20.0}
# Value of a hand that ends the play this turn: twice a certain out next turn.
END_FACTOR = 2.0

_CACHE_LIMIT = 300_000


def end_value(game: str) -> float:
    """The value of ending the play now (lower than any hand that plays on)."""
    return -END_FACTOR * OUT_POINTS.get(game, 0.0)


def _mask(cards: Sequence[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# --------------------------------------------------------------------------- completions


def _attr_masks(of: Sequence[int], wild: int) -> tuple[int, tuple[int, ...]]:
    """(mask of the wild cards, per attribute value the mask of cards with it)."""
    masks = [0] * 5
    for c, v in enumerate(of):
        masks[v] |= 1 << c
    return masks[wild], tuple(masks)


_ALL_TT = (1 << 125) - 1
_BLACK_M, _COLOUR_M = _attr_masks(topper.COLOUR_OF, topper.BLACK)
_BLOB_M, _SHAPE_M = _attr_masks(topper.SHAPE_OF, topper.BLOB)
_QMARK_M, _NUMBER_M = _attr_masks(topper.NUMBER_OF, topper.QUESTION)


def _seq_fill(values: int) -> int:
    """Cards whose number, added to the distinct number ``values`` (bits, ``?`` = 5 high),
    makes consecutive values (TT-5)."""
    out = 0
    for v in range(5):
        if not values >> v & 1:
            t = values | 1 << v
            low = t & -t
            run = t // low
            if run & (run + 1) == 0:
                out |= _NUMBER_M[v]
    return out


_SEQ_FILL: tuple[int, ...] = tuple(_seq_fill(v) for v in range(32))


def _compatible(bits: int, wild: int, by_value: tuple[int, ...]) -> int:
    """Cards that keep a group matching in one attribute (TT-3/TT-4): ``bits`` are the group's
    non-wild values (one bit each)."""
    if not bits:
        return _ALL_TT
    if bits & (bits - 1):
        return 0
    return by_value[bits.bit_length() - 1] | wild


# _compatible for every 4-bit set of non-wild values, per attribute (lookups in the hot path).
_COL_OK = tuple(_compatible(b, _BLACK_M, _COLOUR_M) for b in range(16))
_SHP_OK = tuple(_compatible(b, _BLOB_M, _SHAPE_M) for b in range(16))
_NUM_OK = tuple(_compatible(b, _QMARK_M, _NUMBER_M) for b in range(16))


def _tt_comp_raw(f: int, k: int) -> int:
    """Cards that make a (k+1)-card TT-6 meld with a k-card group of packed features ``f``:
    matching in two of colour, shape, number, or in sequence (TT-5, ``?`` = 5 high only) and
    matching in colour or shape."""
    col = _COL_OK[f & 0xF]
    shp = _SHP_OK[(f >> 4) & 0xF]
    num = _NUM_OK[(f >> 8) & 0xF]
    out = (col & shp) | (col & num) | (shp & num)
    values = f >> 12
    if values.bit_count() == k:  # distinct values: which cards extend them to a sequence
        out |= _SEQ_FILL[values] & (col | shp)
    return out


_TT_PAIR_ROWS: dict[int, tuple[int, ...]] = {}


def _tt_pair_row(card: int) -> tuple[int, ...]:
    """For every card a: the cards that make a 3-card meld with ``card`` and a."""
    row = _TT_PAIR_ROWS.get(card)
    if row is None:
        fc = _TT_FEATURE[card]
        row = tuple(
            _tt_comp_raw(fc | fa, 2) & ~((1 << card) | (1 << a)) if a != card else 0
            for a, fa in enumerate(_TT_FEATURE)
        )
        _TT_PAIR_ROWS[card] = row
    return row


def tt_completions(cards: Sequence[int]) -> int:
    """Bit mask of the cards that make a TT-6 meld with ``cards`` (2..4 distinct cards)."""
    if len(cards) == 2:
        return _tt_pair_row(cards[0])[cards[1]]
    f = 0
    m = 0
    for c in cards:
        f |= _TT_FEATURE[c]
        m |= 1 << c
    return _tt_comp_raw(f, len(cards)) & ~m


_GFF_PAIR_ROWS: dict[int, tuple[int, ...]] = {}


def _gff_comp_raw(cards: Sequence[int]) -> int:
    """GFF-2: the cards that make a spread with ``cards`` (a set of 3-4, a run ace low)."""
    ranks = sorted(std.RANK_OF[c] for c in cards)
    suits = {std.SUIT_OF[c] for c in cards}
    k = len(cards)
    if ranks[0] == ranks[-1]:
        if k > 3:
            return 0
        out = 0
        for s in range(4):
            c = s * 13 + ranks[0]
            if c not in cards:
                out |= 1 << c
        return out
    if len(suits) != 1 or len(set(ranks)) != k:
        return 0
    base = suits.pop() * 13
    span = ranks[-1] - ranks[0]
    if span == k - 1:  # contiguous: either end
        out = 0
        if ranks[0] > 0:
            out |= 1 << (base + ranks[0] - 1)
        if ranks[-1] < 12:
            out |= 1 << (base + ranks[-1] + 1)
        return out
    if span == k:  # one gap
        gap = next(r for r in range(ranks[0], ranks[-1]) if r not in ranks)
        return 1 << (base + gap)
    return 0


def _gff_pair_row(card: int) -> tuple[int, ...]:
    row = _GFF_PAIR_ROWS.get(card)
    if row is None:
        row = tuple(_gff_comp_raw((card, a)) if a != card else 0 for a in range(52))
        _GFF_PAIR_ROWS[card] = row
    return row


_GFF_GROUPS: dict[int, int] = {}
# Triple Tunk groups of 3-4 cards: their completions by the group's bit mask (kept-hand tables).
_TT_GROUPS: dict[int, int] = {}


def gff_completions(cards: Sequence[int]) -> int:
    """Bit mask of the cards that make a GFF-2 spread with ``cards`` (2..4 distinct cards)."""
    if len(cards) == 2:
        return _gff_pair_row(cards[0])[cards[1]]
    key = _mask(cards)
    m = _GFF_GROUPS.get(key)
    if m is None:
        m = _gff_comp_raw(cards)
        if len(_GFF_GROUPS) > _CACHE_LIMIT:
            _GFF_GROUPS.clear()
        _GFF_GROUPS[key] = m
    return m


_RELATED: dict[tuple[str, int], int] = {}


def related_mask(game: str, card: int) -> int:
    """The cards that make a 3-card meld with ``card`` and some third card (its pair row's
    non-empty entries). A card related to no card of a kept hand joins none of its melds,
    then or after any draw (a card of a meld of 4+ also lies in a 3-card sub-meld with another
    card of it: TT-6 matching is hereditary, TT-5/GFF-2 runs have consecutive triples)."""
    m = _RELATED.get((game, card))
    if m is None:
        m = 0
        for a, row in enumerate(pair_row_for(game)(card)):
            if row:
                m |= 1 << a
        _RELATED[(game, card)] = m
    return m


def pair_row_for(game: str) -> Callable[[int], tuple[int, ...]]:
    """Per card, its row of 3-card completions with every other card."""
    return _gff_pair_row if game == GAME_FLIP_FLOP else _tt_pair_row


def completions_for(game: str) -> Callable[[Sequence[int]], int]:
    """The completion function of a Tunk game."""
    return gff_completions if game == GAME_FLIP_FLOP else tt_completions


# --------------------------------------------------------------------------- kept-hand tables


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
    if _ACCEL is not None and model.name == TRIPLE_TUNK and 0 < len(rest) <= 5:
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
    tt = name != GAME_FLIP_FLOP
    # A card related to no other card of rest is in no group with completions (see
    # related_mask): groups holding such a card are skipped. (Memo lookups inline: this is
    # the draw advice's innermost builder.)
    row_memo = _GFF_PAIR_ROWS if not tt else _TT_PAIR_ROWS
    rows = []
    dead = 0
    for i, c in enumerate(rest):
        row = row_memo.get(c)
        rows.append(row if row is not None else pair_row_for(name)(c))
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
        feats = [_TT_FEATURE[c] for c in rest] if tt else []
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
        empties = completions_for(name)(rest) & outside  # one meld of three after the draw
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
        module.init(_TT_FEATURE, tt.points, _COL_OK, _SHP_OK, _NUM_OK, _SEQ_FILL, _point_masks(tt))
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


# --------------------------------------------------------------------------- the evaluator


@dataclass(frozen=True, slots=True)
class KeepFigures:
    """The figures of a kept hand in one situation (see the module docstring)."""

    deadwood: int
    expected_deadwood: float
    outs: int
    out_chance: float
    value: float


@dataclass(frozen=True, slots=True)
class DiscardFigures:
    """One discard of a hand after the draw: the kept hand's figures, the card's danger and
    ``score`` = keep value + DANGER_POINTS * danger."""

    card: int
    keep: KeepFigures
    danger: float
    score: float


@dataclass(frozen=True, slots=True)
class HandValue:
    """The value of a hand after the draw: its ending (``"go_out"``/``"tunk_out"`` with the
    discard, possibly None) or its ranked discards; ``value`` is what ``draw`` and ``discard``
    report for it."""

    value: float
    ends: str | None
    discard: int | None
    options: tuple[DiscardFigures, ...]


@dataclass(frozen=True, slots=True)
class _StockPrep:
    """Per hand before the draw, what every stock card's evaluation shares: the hand kept as
    is, its distinct cards with the kept hand without each (and that hand's related cards),
    and the necessary condition for ending the play after the draw."""

    kept: KeepFigures
    drops: tuple[tuple[int, tuple[int, ...], int, int], ...]  # (card, rest, rest mask, related)
    any_fit: bool  # a card of the hand fits a table meld
    fit_cards: int  # with a table fit, the draws that may end the play (mask; -1: all)
    ending_cards: int  # without one, the draws that may end the play (mask; -1: all)
    table: KeepTable  # of the hand before the draw: what each drawn card leaves
    proxy_ends: int  # the draws after which the hand can be emptied (mask): the proxy's jump
    proxy_mean: float  # exact mean of :meth:`Evaluator.stock_proxy` over the unseen cards


class Evaluator:
    """Evaluates hands in one situation (the unseen cards, the next player, the table).

    Built once per question; the draw advice evaluates many hands with one evaluator, so every
    figure it reports is the one the discard advice gives for the same hand.
    """

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.game = obs.game
        self.model = model = model_for(obs.game)
        self.comp = completions_for(obs.game)
        self.pair_row = pair_row_for(obs.game)
        known = known_hands(obs)
        others = [known[j] for j in obs.opponents()]
        self.unseen = unseen_cards(model.deck, obs.hand, obs.table, obs.discards, others)
        self.umask = _mask(self.unseen)
        self._distinct = tuple(_bits(self.umask))  # the distinct unseen cards
        self.n_unseen = len(self.unseen)
        top = max(model.points) + 1
        hist = [0] * top
        for c in self.unseen:
            hist[model.points[c]] += 1
        self.hist = tuple((p, k) for p, k in enumerate(hist) if k)
        self.out_weight = OUT_POINTS.get(obs.game, 0.0)
        # The next player in the deal: seats not dealt in (GFF-6, hand size 0) are skipped.
        nxt = next(
            (j for j in obs.opponents() if obs.hand_sizes[j] > 0), (obs.seat + 1) % obs.n_players
        )
        self.next_seat = nxt if nxt != obs.seat else None
        self.known_next: tuple[int, ...] = known[nxt] if self.next_seat is not None else ()
        hidden = max(0, obs.hand_sizes[nxt] - len(self.known_next)) if self.next_seat else 0
        u = self.n_unseen
        self.p_one = hidden / u if u else 0.0
        self.p_two = hidden * (hidden - 1) / (u * (u - 1)) if u > 1 else 0.0
        self._keep: dict[int, KeepFigures] = {}
        self._danger: dict[int, float] = {}
        self._plain_keep: dict[tuple[int, int], KeepFigures] = {}
        self._fits_own: dict[int, bool] = {}
        self._extend: dict[tuple[int, int | None, int], bool] = {}
        self._legal: dict[tuple[int, tuple[int, ...], bool], bool] = {}
        self._sideways: dict[tuple[int, ...], bool] = {}  # tt_can_tunk_out's sideways plans
        self._owns_meld = any(m.owner == obs.seat for m in obs.table)
        self._tunk_sizes = (
            tt_tunk_sizes(obs.table, obs.seat) if obs.game != GAME_FLIP_FLOP else frozenset()
        )

    # ---- kept hands

    def keep(self, rest: Sequence[int]) -> KeepFigures:
        """The figures of keeping ``rest`` (memoised per evaluator)."""
        return self._keep_masked(tuple(rest), _mask(rest))

    def _keep_masked(self, rest: tuple[int, ...], key: int) -> KeepFigures:
        """:meth:`keep` with the bit mask ``key`` of ``rest`` already known."""
        f = self._keep.get(key)
        if f is None:
            f = self._keep_raw(_keep_table(self.model, rest, key))
            self._keep[key] = f
        return f

    def _keep_raw(self, t: KeepTable) -> KeepFigures:
        u = self.n_unseen
        base = t.base
        if not u:
            return KeepFigures(base, float(base), 0, 0.0, float(base))
        um = self.umask
        total = 0
        outs = 0
        for p, k in self.hist:
            plain = base if t.best_drop + p > base else t.best_drop + p
            total += k * plain
            if plain < base:
                outs += k
        for saving, cmask in t.gains:
            total -= saving * (cmask & um).bit_count()
        outs += (t.outs_extra & um).bit_count()
        expected = total / u
        chance = 1.0 if base == 0 else (t.empties & um).bit_count() / u
        value = (base + expected) / 2 - self.out_weight * chance
        return KeepFigures(base, expected, outs, chance, value)

    # ---- danger of a discard

    def fits_table(self, card: int, seat: int) -> bool:
        """Whether ``seat`` could lay ``card`` off on a table meld (GFF-3 / TT-8)."""
        for meld in self.obs.table:
            if self.game == GAME_FLIP_FLOP:
                if spread_kind((*meld.cards, card)) is not None:
                    return True
            elif can_extend(meld.cards, card, meld.owner == seat):
                return True
        return False

    def danger(self, card: int) -> float:
        """Chance that ``card`` helps the next player (0..1; module docstring)."""
        d = self._danger.get(card)
        if d is None:
            d = self._danger_raw(card)
            self._danger[card] = d
        return d

    def _danger_raw(self, card: int) -> float:
        nxt = self.next_seat
        if nxt is None or not self.n_unseen:
            return 0.0
        if self.fits_table(card, nxt):
            return 1.0
        comp = self.comp
        um = self.umask
        kn = self.known_next
        for a, b in combinations(kn, 2):
            if comp((a, b)) >> card & 1:
                return 1.0
        row = self.pair_row(card)
        n_one = 0
        for a in kn:
            n_one += (row[a] & um).bit_count()
        # Over the distinct unseen cards a (row[a] is 0 for a card unrelated to ``card``).
        pairs2 = sum(map(int.bit_count, map(um.__and__, map(row.__getitem__, self._distinct))))
        total = n_one * self.p_one + pairs2 // 2 * self.p_two
        return min(1.0, total)

    # ---- hands after the draw

    def discard_figures(self, hand: Sequence[int], card: int) -> DiscardFigures:
        """The figures of throwing ``card`` from ``hand`` (the hand after the draw)."""
        i = list(hand).index(card)
        rest = tuple(hand[:i]) + tuple(hand[i + 1 :])
        k = self.keep(rest)
        d = self.danger(card)
        return DiscardFigures(card, k, d, k.value + DANGER_POINTS * d)

    def options(self, hand: Sequence[int]) -> tuple[DiscardFigures, ...]:
        """Every distinct discard of ``hand``, best (lowest score) first; ties go to the higher
        card (more points thrown away, then the higher card)."""
        pts = self.model.points
        seen: set[int] = set()
        out = []
        for c in hand:
            if c not in seen:
                seen.add(c)
                out.append(self.discard_figures(hand, c))
        out.sort(key=lambda o: (o.score, -pts[o.card], -o.card))
        return tuple(out)

    def ending(self, hand: Sequence[int], quick: bool = True) -> tuple[str, int | None] | None:
        """How ``hand`` (after the draw) ends the play now, if it does: GFF-9/GFF-10 via
        ``gff_going_out``, TT-11 via ``tt_tunk_out``. ``quick`` first applies a necessary
        condition (at most one card outside every meld of the hand and every table meld)."""
        obs = self.obs
        if quick and not self._may_end(hand):
            return None
        if self.game == GAME_FLIP_FLOP:
            plan = gff_going_out(tuple(hand), obs.table, obs.seat)
            return (plan.kind, plan.discard) if plan.kind is not None else None
        if not self._ends(hand):  # the early-stopping search first: most hands do not end
            return None
        option = tt_tunk_out(tuple(hand), obs.table, obs.seat)
        return ("tunk_out", option.discard) if option is not None else None

    def _ends(self, hand: Sequence[int]) -> bool:
        """``ending(hand, quick=False) is not None``; Triple Tunk stops its TT-11 search at
        the first option (:func:`tt_can_tunk_out`)."""
        if self.game == GAME_FLIP_FLOP:
            return self.ending(hand, quick=False) is not None
        return tt_can_tunk_out(
            hand, self.obs.table, self.obs.seat, self._fits_chain, self._legal_on, self._sideways
        )

    def _legal_on(self, index: int, cards: tuple[int, ...], by_owner: bool) -> bool:
        """Whether ``cards`` (sorted) can be laid on table meld ``index`` in some order
        (TT-8, memoised per evaluator)."""
        key = (index, cards, by_owner)
        got = self._legal.get(key)
        if got is None:
            meld = self.obs.table[index]
            got = _first_legal_order(meld.cards, cards, by_owner) is not None
            self._legal[key] = got
        return got

    def _extends(self, index: int, before: int | None, card: int) -> bool:
        """TT-8 ``can_extend`` of table meld ``index`` (after ``before`` laid on it) by
        ``card`` for this seat (memoised per evaluator)."""
        key = (index, before, card)
        got = self._extend.get(key)
        if got is None:
            meld = self.obs.table[index]
            cards = meld.cards if before is None else (*meld.cards, before)
            got = can_extend(cards, card, meld.owner == self.obs.seat)
            self._extend[key] = got
        return got

    def _fits_chain(self, card: int, others: Sequence[int]) -> bool:
        """``engine.games.tt.play._fits_table(card, others, table, seat)``: ``card`` fits a table
        meld directly or after one of ``others`` laid on it first (a meld of three has room for
        two more cards, MAX_MELD); longer chains, for smaller melds, ask ``tt_play``."""
        obs = self.obs
        for index, meld in enumerate(obs.table):
            room = MAX_MELD - len(meld.cards)
            if room <= 0:
                continue
            if room > 2:
                owner = meld.owner == obs.seat
                if _shortest_requirement(meld.cards, card, others, owner) is not None:
                    return True
                continue
            if self._extends(index, None, card):
                return True
            if room == 2:
                for s in others:
                    if self._extends(index, None, s) and self._extends(index, s, card):
                        return True
        return False

    def _may_end(self, hand: Sequence[int]) -> bool:
        """Necessary condition for ending now: when no card of the hand fits a table meld, the
        hand must be all melded, or all but one card (the discard). With lay-offs possible,
        chains (a card that fits only after another) make a cheaper test unsafe, except that in
        Triple Tunk every TT-11 shape holds a meld of the player's own: without one on the
        table, the hand must hold a meld."""
        model = self.model
        if self.game != GAME_FLIP_FLOP and len(hand) not in self._tunk_sizes:
            return False  # no TT-11 shape has that many cards left to dispose of
        if any(self._fits_me(c) for c in hand):
            if self.game == GAME_FLIP_FLOP or self._owns_meld:
                return True
            return model.deadwood(hand) < model.total(hand)
        return model.deadwood(hand) == 0 or (
            model.best_discard is not None and model.best_discard(hand) == 0
        )

    def _fits_me(self, card: int) -> bool:
        f = self._fits_own.get(card)
        if f is None:
            f = self.fits_table(card, self.obs.seat)
            self._fits_own[card] = f
        return f

    def stock_prep(self, hand: Sequence[int]) -> _StockPrep:
        """What :meth:`after_draw` shares across the stock cards for ``hand`` (before the draw).

        Ending the play after drawing c needs (without a table fit) the hand plus c all melded
        or all but one card: exactly the hand already melded (deadwood 0) or c among the kept
        hand's ``empties`` (two melds of three, or a draw that leaves no deadwood)."""
        hand = tuple(hand)
        kept = self.keep(hand)
        drops = []
        for i, x in enumerate(hand):
            rest = hand[:i] + hand[i + 1 :]
            rel = 0
            for a in rest:
                rel |= related_mask(self.game, a)
            drops.append((x, rest, _mask(rest), rel))
        if len(hand) > 5:
            raise ValueError("a Tunk hand before the draw holds at most five cards")
        table = keep_table(self.model, hand)
        any_fit = any(self._fits_me(c) for c in hand)
        ending = -1 if table.base == 0 else table.empties
        fit_cards = -1
        if self.game != GAME_FLIP_FLOP and len(hand) + 1 not in self._tunk_sizes:
            fit_cards = ending = 0  # no TT-11 shape has that many cards to dispose of
        elif (
            self.game != GAME_FLIP_FLOP
            and not self._owns_meld
            and table.base == self.model.total(hand)
        ):  # TT-11 with no own meld on the table or in the hand: the draw must make one
            fit_cards = 0
            for a, b in combinations(hand, 2):
                fit_cards |= self.pair_row(a)[b]
        ends = self.umask if table.base == 0 else table.empties & self.umask
        # The proxy is the drawn deadwood (whose mean is kept's expected deadwood) except on
        # the cards that empty the hand, where it jumps to the ending value.
        end = end_value(self.game)
        jump = sum(end - _drawn_deadwood(self.model, table, c) for c in _bits(ends))
        proxy_mean = kept.expected_deadwood + jump / self.n_unseen if self.n_unseen else 0.0
        return _StockPrep(kept, tuple(drops), any_fit, fit_cards, ending, table, ends, proxy_mean)

    def stock_proxy(self, prep: _StockPrep, card: int) -> float:
        """The control variate of the stock mean (``engine.advice.tunk.draw.stock_estimate``): the
        deadwood after drawing ``card`` and throwing the best card, or the value of ending the
        play when the hand can then be emptied. It tracks ``after_draw``'s value closely and
        its mean over the unseen cards is exact (``prep.proxy_mean``)."""
        if prep.proxy_ends >> card & 1:
            return end_value(self.game)
        return float(_drawn_deadwood(self.model, prep.table, card))

    def _keep_plus(self, rest: tuple[int, ...], rmask: int, related: int, card: int) -> KeepFigures:
        """``keep(rest + card)``; a card related to no card of ``rest`` adds only its points, so
        its figures are shared by every such card of the same points."""
        if related >> card & 1:
            return self._keep_masked((*rest, card), rmask | 1 << card)
        key = (rmask, self.model.points[card])
        f = self._plain_keep.get(key)
        if f is None:
            f = self._keep_masked((*rest, card), rmask | 1 << card)
            self._plain_keep[key] = f
        return f

    def after_draw(self, prep: _StockPrep, hand: Sequence[int], card: int) -> tuple[float, int]:
        """(value, deadwood of the advised line) of ``hand`` + ``card``: exactly
        ``hand_value((*hand, card), quick=True)``'s value and its best option's deadwood (0
        when the play ends), computed from ``prep`` without ranking every option: throwing
        ``card`` back is only weighed (its danger computed) when it can still be best."""
        if prep.any_fit or self._fits_me(card):
            maybe = prep.fit_cards >> card & 1
        else:
            maybe = prep.ending_cards >> card & 1
        if maybe and self._ends((*hand, card)):
            return end_value(self.game), 0
        pts = self.model.points
        best: tuple[float, int, int] | None = None
        best_dead = 0
        for x, rest, rmask, rel in prep.drops:
            k = self._keep_plus(rest, rmask, rel, card)
            key = (k.value + DANGER_POINTS * self.danger(x), -pts[x], -x)
            if best is None or key < best:
                best, best_dead = key, k.deadwood
        back = prep.kept.value
        if best is None or back <= best[0]:
            key = (back + DANGER_POINTS * self.danger(card), -pts[card], -card)
            if best is None or key < best:
                best, best_dead = key, prep.kept.deadwood
        return best[0], best_dead

    def hand_value(self, hand: Sequence[int], quick: bool = True) -> HandValue:
        """The value of ``hand`` after the draw (module docstring)."""
        end = self.ending(hand, quick)
        options = self.options(hand)
        if end is not None:
            return HandValue(end_value(self.game), end[0], end[1], options)
        best = options[0]
        return HandValue(best.score, None, best.card, options)


def card_text(game: str, card: int) -> str:
    """The card's canonical text for explanations (the engine otherwise speaks ints)."""
    return std.card_name(card) if game == GAME_FLIP_FLOP else topper.topper_card_name(card)


def clear_value_caches() -> None:
    """Empty the situation-independent memo tables (benchmarks of cold answers)."""
    _KEEP_TABLES.clear()
    _SPLITS.clear()
    _TT_PAIR_ROWS.clear()
    _GFF_PAIR_ROWS.clear()
    _GFF_GROUPS.clear()
    _TT_GROUPS.clear()
    _RELATED.clear()


__all__ = [
    "DANGER_POINTS",
    "DiscardFigures",
    "END_FACTOR",
    "Evaluator",
    "HandValue",
    "KeepFigures",
    "KeepTable",
    "OUT_POINTS",
    "card_text",
    "clear_value_caches",
    "completions_for",
    "end_value",
    "gff_completions",
    "keep_table",
    "related_mask",
    "tt_completions",
]
