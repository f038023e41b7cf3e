"""Triple Tunk melds (TT-3..TT-7) and the special bonus (TT-14), on ``engine.core.topper`` card
ints.

Each card gets one packed attribute mask at import; OR-ing the masks of a group and two tiny
lookup tables answer "which attributes match, is it a sequence" without per-card loops.

Packed mask bits (``_FEATURE[card]``)::

    bits  0..3   colour bit (red..blue); black (wild, TT-3) sets none
    bits  4..7   shape bit (circle..square); blob (wild, TT-3) sets none
    bits  8..11  number bit (1..4); ``?`` sets none (TT-4 "non-? numbers")
    bits 12..16  value bit for the sequence test, ``?`` = 5 (TT-5), always set

A group matches in colour when its OR-ed colour bits hold at most one bit (all non-black cards
share one colour; all black matches), likewise shape and number.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from operator import itemgetter
from typing import cast

from engine.core.errors import HandError
from engine.core.topper import BLACK, BLOB, COLOUR_OF, DECK, NUMBER_OF, QUESTION, SHAPE_OF
from engine.games.tt.game import MAX_MELD, MIN_MELD

MAX_ANALYSED = 10  # subset tables are 2**n: refuse absurd hands (TT-1 hands hold at most 6)

_COLOUR_FLAG = 1
_SHAPE_FLAG = 2
_NUMBER_FLAG = 4


def _feature(card: int) -> int:
    colour, shape, number = COLOUR_OF[card], SHAPE_OF[card], NUMBER_OF[card]
    f = 1 << (12 + number)
    if colour != BLACK:
        f |= 1 << colour
    if shape != BLOB:
        f |= 1 << (4 + shape)
    if number != QUESTION:
        f |= 1 << (8 + number)
    return f


_FEATURE: tuple[int, ...] = tuple(_feature(c) for c in DECK)
_Q_BIT = 1 << (12 + QUESTION)


def _at_most_one(bits: int) -> bool:
    return bits & (bits - 1) == 0


# _MATCH[f & 0xFFF]: which of colour/shape/number match (TT-3, TT-4) as _*_FLAG bits.
# TT-4's second clause (">= 2 non-? cards or >= 2 ? cards") always holds for 3+ cards: with at
# most one non-? card the other 2+ are ?. So for melds "all non-? numbers equal" decides it.
_MATCH: tuple[int, ...] = tuple(
    (_COLOUR_FLAG if _at_most_one(i & 0xF) else 0)
    | (_SHAPE_FLAG if _at_most_one((i >> 4) & 0xF) else 0)
    | (_NUMBER_FLAG if _at_most_one((i >> 8) & 0xF) else 0)
    for i in range(1 << 12)
)
_MATCH_COUNT: tuple[int, ...] = tuple(bin(i).count("1") for i in range(8))


def _run_length(values: int) -> int:
    """Length of the run when the set value bits are consecutive, else 0 (TT-5)."""
    if values == 0:
        return 0
    low = values & -values
    t = values // low
    return t.bit_length() if t & (t + 1) == 0 else 0


# _RUN[f >> 12]: run length of the value bits (a group of k cards is in sequence iff == k,
# which also makes the k values distinct).
_RUN: tuple[int, ...] = tuple(_run_length(v) for v in range(32))


@dataclass(frozen=True, slots=True)
class TTMeld:
    """A legal Triple Tunk meld (TT-6): its sorted cards and which attributes match.

    ``sequence`` is TT-5, ``special`` is TT-7 (sequence + colour + shape, or all three match).
    """

    cards: tuple[int, ...]
    colour: bool
    shape: bool
    number: bool
    sequence: bool
    special: bool

    @property
    def size(self) -> int:
        """Number of cards in the meld."""
        return len(self.cards)


def group_feature(cards: Iterable[int]) -> int:
    """The OR of the cards' packed attribute masks (see module docstring)."""
    f = 0
    for c in cards:
        f |= _FEATURE[c]
    return f


def matches_colour(cards: Sequence[int]) -> bool:
    """TT-3: all non-black cards share one colour (all-black matches)."""
    return _at_most_one(group_feature(cards) & 0xF)


def matches_shape(cards: Sequence[int]) -> bool:
    """TT-3: all non-blob cards share one shape (all-blob matches)."""
    return _at_most_one((group_feature(cards) >> 4) & 0xF)


def matches_number(cards: Sequence[int]) -> bool:
    """TT-4: non-? numbers all equal, and >= 2 non-? cards or >= 2 ? cards (3-3-?, ?-?-? yes)."""
    if not _at_most_one((group_feature(cards) >> 8) & 0xF):
        return False
    questions = sum(1 for c in cards if NUMBER_OF[c] == QUESTION)
    return len(cards) - questions >= 2 or questions >= 2


def in_sequence(cards: Sequence[int]) -> bool:
    """TT-5: numbers with ? = 5 are distinct and consecutive; ? is high only (3-4-? yes)."""
    return len(cards) > 0 and _RUN[group_feature(cards) >> 12] == len(cards)


def _meld_from(cards: tuple[int, ...], f: int) -> TTMeld | None:
    """The TTMeld for sorted ``cards`` with OR-ed mask ``f``, or None (TT-6, TT-7)."""
    k = len(cards)
    m = _MATCH[f & 0xFFF]
    seq = _RUN[f >> 12] == k
    if _MATCH_COUNT[m] >= 2 or (seq and m & (_COLOUR_FLAG | _SHAPE_FLAG)):
        colour = bool(m & _COLOUR_FLAG)
        shape = bool(m & _SHAPE_FLAG)
        number = bool(m & _NUMBER_FLAG)
        return TTMeld(cards, colour, shape, number, seq, colour and shape and (seq or number))
    return None


def _is_special_feature(f: int, k: int) -> bool:
    m = _MATCH[f & 0xFFF]
    both = _COLOUR_FLAG | _SHAPE_FLAG
    return m & both == both and (bool(m & _NUMBER_FLAG) or _RUN[f >> 12] == k)


def describe_tt_meld(cards: Iterable[int]) -> TTMeld | None:
    """The meld ``cards`` form (TT-6: 3..5 cards, two matches or sequence + colour/shape), or None.

    Cards are assumed distinct (C-1, TT-1); a repeated card never makes a meld.
    """
    group = tuple(sorted(cards))
    k = len(group)
    if not MIN_MELD <= k <= MAX_MELD or len(set(group)) != k:
        return None
    return _meld_from(group, group_feature(group))


def extension_cards(cards: Sequence[int], special_only: bool) -> tuple[int, ...]:
    """Every deck card ``c`` not in ``cards`` for which ``cards + c`` is a meld (TT-6; a
    special one, TT-7, when ``special_only``): one mask lookup per card, no meld built."""
    k = len(cards) + 1
    if not MIN_MELD <= k <= MAX_MELD:
        return ()
    base = group_feature(cards)
    taken = set(cards)
    out = []
    for c, feature in enumerate(_FEATURE):
        f = base | feature
        if not _MELD_SIZES[f] >> k & 1 or c in taken:
            continue
        if special_only and not _is_special_feature(f, k):
            continue
        out.append(c)
    return tuple(out)


def is_tt_meld(cards: Iterable[int]) -> bool:
    """True when ``cards`` form a legal Triple Tunk meld (TT-6)."""
    return describe_tt_meld(cards) is not None


def is_tt_special(cards: Iterable[int]) -> bool:
    """True when ``cards`` form a special meld (TT-7)."""
    meld = describe_tt_meld(cards)
    return meld is not None and meld.special


def _sizes_for(match: int, run: int) -> int:
    """Bit k set when a k-card group (3..5) with match flags and value run is a meld (TT-6)."""
    if _MATCH_COUNT[match] >= 2:
        return 0b111000
    return 1 << run if run >= MIN_MELD and match & (_COLOUR_FLAG | _SHAPE_FLAG) else 0


def _build_meld_sizes() -> bytes:
    """_MELD_SIZES[f] for every packed group mask f < 2**17, one 4096-byte row per value set."""
    match_bytes = bytes(_MATCH)
    rows = [
        match_bytes.translate(bytes(_sizes_for(m, _RUN[hi]) if m < 8 else 0 for m in range(256)))
        for hi in range(32)
    ]
    return b"".join(rows)


# _MELD_SIZES[f]: TT-6 verdict (bit k: a k-card group is a meld) for every packed group mask.
_MELD_SIZES: bytes = _build_meld_sizes()


class _Layout:
    """Per hand size n: the 3..5-subsets of positions in canonical order, with lookups."""

    __slots__ = ("masks", "size_bit", "getter")

    def __init__(self, n: int) -> None:
        # Canonical order: by size, then lexicographic positions (= sorted card tuples).
        self.masks: tuple[int, ...] = tuple(
            sum(1 << i for i in combo)
            for k in range(MIN_MELD, min(MAX_MELD, n) + 1)
            for combo in combinations(range(n), k)
        )
        self.size_bit: tuple[int, ...] = tuple(1 << m.bit_count() for m in range(1 << n))
        self.getter: tuple[Callable[[Sequence[int]], tuple[int, ...]], ...] = tuple(
            _getter([i for i in range(n) if m >> i & 1]) for m in range(1 << n)
        )


def _getter(pos: list[int]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """A fast ``seq -> tuple(seq[i] for i in pos)``."""
    if len(pos) >= 2:
        return cast(Callable[[Sequence[int]], tuple[int, ...]], itemgetter(*pos))
    if len(pos) == 1:
        i = pos[0]
        return lambda seq: (seq[i],)
    return lambda seq: ()


_LAYOUTS: dict[int, _Layout] = {n: _Layout(n) for n in range(7)}


def layout(n: int) -> _Layout:
    """The cached subset layout for hands of n cards."""
    lay = _LAYOUTS.get(n)
    if lay is None:
        lay = _LAYOUTS[n] = _Layout(n)
    return lay


def group_features(hand: Sequence[int]) -> list[int]:
    """OR-ed packed mask of every subset of positions of ``hand`` (index = position mask)."""
    feats = [0]
    table = _FEATURE
    for card in hand:
        f = table[card]
        feats += [x | f for x in feats]
    return feats


def meld_masks(hand: Sequence[int]) -> tuple[list[int], list[int]]:
    """Position masks of every meld in ``hand`` in canonical order, and the feature table.

    ``hand`` should be sorted so that the order is the card order of :func:`iter_tt_melds`.
    The last hand's answer is remembered per thread (``_LAST_MASKS``).
    """
    if len(hand) > MAX_ANALYSED:
        raise HandError(
            f"{len(hand)} cards is too many: a Triple Tunk hand holds at most 6 "
            f"(the analysis accepts up to {MAX_ANALYSED})",
            field="hand",
        )
    key = tuple(hand)
    last = getattr(_LAST_MASKS, "entry", None)
    if last is not None and last[0] == key:
        return list(last[1]), list(last[2])
    feats = group_features(hand)
    lay = layout(len(hand))
    sizes, size_bit = _MELD_SIZES, lay.size_bit
    masks = [m for m in lay.masks if sizes[feats[m]] & size_bit[m]]
    _LAST_MASKS.entry = (key, tuple(masks), tuple(feats))
    return masks, feats


# Per thread: the last hand's (cards, meld masks, features). One melds request asks for the same
# hand's masks three times (listing, best arrangement, tunk out); fresh lists are returned.
_LAST_MASKS = threading.local()


def cards_of_mask(hand: Sequence[int], mask: int) -> tuple[int, ...]:
    """The cards of ``hand`` at the positions set in ``mask``, in hand order."""
    return layout(len(hand)).getter[mask](hand)


def iter_tt_melds(hand: Iterable[int]) -> Iterator[TTMeld]:
    """Every legal meld inside ``hand`` (TT-6): by size 3, 4, 5, then by sorted card tuple."""
    cards = sorted(hand)
    masks, feats = meld_masks(cards)
    getter = layout(len(cards)).getter
    for mask in masks:
        meld = _meld_from(getter[mask](cards), feats[mask])
        assert meld is not None
        yield meld


def _bonus_for_sizes(special_sizes: Iterable[int]) -> int:
    """TT-14 bonus from the own-card sizes of special melds: the largest that applies."""
    best = 1
    count = 0
    for size in special_sizes:
        count += 1
        if size >= 5:
            best = 4
        elif size == 4:
            best = max(best, 3)
        elif size == 3:
            best = max(best, 2)
    # "two 3-card specials" -> x4, read as any two specials of 3+ own cards, so that growing a
    # special to 4 cards never lowers the bonus (house reading; docs/rules.md does not say).
    if count >= 2:
        best = 4
    return best


def special_bonus(own_meld_cards: Sequence[tuple[int, ...]]) -> int:
    """TT-14: x2 / x3 / x4 for the specials among these melds, judged on each meld's own cards.

    Each entry is one meld's OWNER'S OWN cards; an entry that is not by itself a special meld
    of its own size earns nothing (cards laid sideways earn nothing). Returns 1 when none.
    """
    sizes: list[int] = []
    for own in own_meld_cards:
        k = len(own)
        distinct = MIN_MELD <= k <= MAX_MELD and len(set(own)) == k
        if distinct and _is_special_feature(group_feature(own), k):
            sizes.append(k)
    return _bonus_for_sizes(sizes)


# Name used by docs/architecture.md.
special_bonus_for = special_bonus

__all__ = [
    "MAX_MELD",
    "MIN_MELD",
    "TTMeld",
    "describe_tt_meld",
    "extension_cards",
    "in_sequence",
    "is_tt_meld",
    "is_tt_special",
    "iter_tt_melds",
    "matches_colour",
    "matches_number",
    "matches_shape",
    "special_bonus",
    "special_bonus_for",
]
