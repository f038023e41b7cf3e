"""Completions of Tunk melds: which cards make a meld with a group of cards (GFF-2 spreads, TT-6
Triple Tunk melds), as bit masks over the deck, memoised.

Triple Tunk groups are read from the cards' packed features (``engine.games.tt.melds``), Game
Flip Flop groups from their bit mask. Each game's tables are one :class:`Completions` record,
found by slug in :data:`COMPLETIONS` (chosen once per question or per table, never per card).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.core import cards as std
from engine.core import topper
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.games.tt.melds import _FEATURE as _TT_FEATURE

_CACHE_LIMIT = 300_000


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


@dataclass(frozen=True, slots=True)
class Completions:
    """One Tunk game's completion tables.

    ``pair_row(card)`` gives, for every card ``a``, the cards that make a 3-card meld with
    ``card`` and ``a`` (memoised in ``rows``, which the keep-table builder reads inline);
    ``complete(cards)`` the cards that make a meld with 2..4 cards; ``features`` the packed TT-6
    features when the game's melds are read from them (Triple Tunk: the keep-table builder
    tests groups of 3-4 inline and may be compiled), None otherwise (Game Flip Flop).
    """

    pair_row: Callable[[int], tuple[int, ...]]
    rows: dict[int, tuple[int, ...]]
    complete: Callable[[Sequence[int]], int]
    features: tuple[int, ...] | None


COMPLETIONS: dict[str, Completions] = {
    GAME_FLIP_FLOP: Completions(_gff_pair_row, _GFF_PAIR_ROWS, gff_completions, None),
    TRIPLE_TUNK: Completions(_tt_pair_row, _TT_PAIR_ROWS, tt_completions, _TT_FEATURE),
}
"""The completion tables of each Tunk game, by slug."""

_RELATED: dict[tuple[str, int], int] = {}


def related_mask(game: str, card: int) -> int:
    """The cards that make a 3-card meld with ``card`` and some third card (its pair row's
    non-empty entries). A card related to no card of a kept hand joins none of its melds,
    then or after any draw (a card of a meld of 4+ also lies in a 3-card sub-meld with another
    card of it: TT-6 matching is hereditary, TT-5/GFF-2 runs have consecutive triples)."""
    m = _RELATED.get((game, card))
    if m is None:
        m = 0
        for a, row in enumerate(COMPLETIONS[game].pair_row(card)):
            if row:
                m |= 1 << a
        _RELATED[(game, card)] = m
    return m


def pair_row_for(game: str) -> Callable[[int], tuple[int, ...]]:
    """Per card, its row of 3-card completions with every other card."""
    return COMPLETIONS[game].pair_row


def completions_for(game: str) -> Callable[[Sequence[int]], int]:
    """The completion function of a Tunk game."""
    return COMPLETIONS[game].complete


def clear_completion_caches() -> None:
    """Empty the memo tables of this module (benchmarks of cold answers)."""
    _TT_PAIR_ROWS.clear()
    _GFF_PAIR_ROWS.clear()
    _GFF_GROUPS.clear()
    _TT_GROUPS.clear()
    _RELATED.clear()


__all__ = [
    "COMPLETIONS",
    "Completions",
    "clear_completion_caches",
    "completions_for",
    "gff_completions",
    "pair_row_for",
    "related_mask",
    "tt_completions",
]
