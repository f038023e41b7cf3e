"""The Tunk games' advice models: what the generic advice needs to know about a game (a deck,
card points, a deadwood function, its 3-card melds and throwing order) as a :class:`GameModel`,
and the two Tunk models, :data:`GFF_MODEL` (GFF-1/GFF-2) and :data:`TT_MODEL` (TT-1..TT-6),
found by slug with :func:`model_for`.

Their deadwood functions are memoised on a bit mask of the hand because the simulators and the
Monte Carlo samplers ask the same small hands again and again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from engine.core import cards as std
from engine.core import topper
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.games.tt.arrange import tt_min_deadwood
from engine.games.tt.melds import _FEATURE as _TT_FEATURE
from engine.games.tt.melds import _MELD_SIZES as _TT_MELD_SIZES
from engine.games.tt.melds import meld_masks

DeadwoodFn = Callable[[Sequence[int]], int]


@dataclass(frozen=True, slots=True)
class GameModel:
    """What the generic advice needs to know about a game.

    ``deck`` lists every card once per copy (several decks repeat cards), ``points`` maps a card
    to its deadwood value, ``deadwood`` gives the fewest deadwood points of a hand (C-2) and
    ``meld3`` says whether three cards form a meld, and ``order`` ranks the cards in the order
    a player throws them among equal deadwood (higher first: points, then rank);
    ``best_discard`` (optional fast path) gives the fewest deadwood points after throwing one
    card; ``meld3_list`` lists the 3-card melds when they are few. A card takes part in some
    meld of a hand exactly when it forms a 3-card meld with two other cards of it (a 4- or
    5-card set, run or Triple Tunk meld always holds a 3-card one through any of its cards),
    which is what lets the draw estimates skip the cards that cannot combine with the hand.
    """

    name: str
    deck: tuple[int, ...]
    points: tuple[int, ...]
    deadwood: DeadwoodFn
    meld3: Callable[[int, int, int], bool]
    order: tuple[int, ...]
    best_discard: DeadwoodFn | None = None
    meld3_list: tuple[tuple[int, int, int], ...] | None = None
    """Every 3-card meld of the deck when the game has few (Game Flip Flop: 96, listed once at
    import); None when they are too many to list (Triple Tunk's wild cards make 57,038, 18% of
    all triples: its samplers draw random triples until one is a meld)."""
    flexible: frozenset[int] = frozenset()
    """Cards that fit more melds than their points say, which a player reading its melds keeps
    whatever they are worth (Triple Tunk: black and blob, TT-3, and ``?``, TT-4); none in Game
    Flip Flop."""

    def total(self, hand: Iterable[int]) -> int:
        """Points of every card in ``hand`` (GFF-8 / TT-13 totals count melds still held)."""
        pts = self.points
        return sum(pts[c] for c in hand)

    def has_meld(self, hand: Sequence[int]) -> bool:
        """Whether some meld lies inside ``hand`` (it then holds a 3-card meld)."""
        m3 = self.meld3
        return any(m3(a, b, c) for a, b, c in combinations(hand, 3))

    def related(self, card: int, hand: Sequence[int]) -> bool:
        """Whether ``card`` forms a meld with two cards of ``hand``."""
        m3 = self.meld3
        return any(m3(card, a, b) for a, b in combinations(hand, 2))


_CACHE_LIMIT = 400_000


_CACHES: list[dict[int, int]] = []


def clear_caches() -> None:
    """Empty the memo tables of the game models (benchmarks of cold answers)."""
    for cache in _CACHES:
        cache.clear()


def _memo_by_mask(fn: DeadwoodFn) -> DeadwoodFn:
    cache: dict[int, int] = {}
    _CACHES.append(cache)

    def wrapped(hand: Sequence[int]) -> int:
        mask = 0
        for c in hand:
            mask |= 1 << c
        v = cache.get(mask)
        if v is None:
            if len(cache) > _CACHE_LIMIT:
                cache.clear()
            v = fn(hand)
            cache[mask] = v
        return v

    return wrapped


def _gff_spread_masks() -> tuple[tuple[int, int], ...]:
    """Every GFF-2 spread of the deck as (bit mask, points): sets of 3-4, runs of 3+ ace low."""
    out: list[tuple[int, int]] = []
    for rank in range(13):
        cards = [s * 13 + rank for s in range(4)]
        for k in (3, 4):
            for combo in combinations(cards, k):
                out.append((_mask(combo), sum(std.POINTS[c] for c in combo)))
    for suit in range(4):
        for lo in range(13):
            for hi in range(lo + 2, 13):
                combo = tuple(suit * 13 + r for r in range(lo, hi + 1))
                out.append((_mask(combo), sum(std.POINTS[c] for c in combo)))
    return tuple(out)


def _mask(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


_GFF_SPREADS = _gff_spread_masks()
_GFF_SPREADS_BY_CARD: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(s for s in _GFF_SPREADS if s[0] >> c & 1) for c in range(52)
)


def gff_spreads_in(hand: Sequence[int]) -> list[tuple[int, int]]:
    """Every GFF-2 spread inside ``hand`` as (mask, points), each once."""
    mask = _mask(hand)
    found: dict[int, int] = {}
    for c in hand:
        for m, p in _GFF_SPREADS_BY_CARD[c]:
            if m & mask == m:
                found[m] = p
    return list(found.items())


def _gff_deadwood_raw(hand: Sequence[int]) -> int:
    total = sum(std.POINTS[c] for c in hand)
    spreads = gff_spreads_in(hand)
    best = 0
    for i, (m1, p1) in enumerate(spreads):
        if p1 > best:
            best = p1
        for m2, p2 in spreads[i + 1 :]:
            if not m1 & m2 and p1 + p2 > best:
                # Hands here hold at most 7 cards, so at most two disjoint spreads fit.
                best = p1 + p2
    return total - best


def _tt_deadwood_raw(hand: Sequence[int]) -> int:
    return tt_min_deadwood(hand)


def _gff_best_discard_raw(hand: Sequence[int]) -> int:
    """Fewest deadwood points after throwing one card: over every set of disjoint spreads
    (none, one, two), throw the highest card left outside them."""
    pts = std.POINTS
    total = sum(pts[c] for c in hand)
    spreads = gff_spreads_in(hand)
    cands: list[tuple[int, int]] = [(0, 0), *spreads]
    for i, (m1, p1) in enumerate(spreads):
        for m2, p2 in spreads[i + 1 :]:
            if not m1 & m2:
                cands.append((m1 | m2, p1 + p2))
    best = total
    for mask, melded in cands:
        top = max((pts[c] for c in hand if not mask >> c & 1), default=-1)
        if top >= 0 and total - melded - top < best:
            best = total - melded - top
    return best


def _tt_best_discard_raw(hand: Sequence[int]) -> int:
    """As :func:`_gff_best_discard_raw` with Triple Tunk melds (TT-6)."""
    cards = sorted(hand)
    melds, _feats = meld_masks(cards)
    n = len(cards)
    full = (1 << n) - 1
    pts = [topper.POINTS[c] for c in cards]
    cands: list[int] = [0, *melds]
    for i, m1 in enumerate(melds):
        for m2 in melds[i + 1 :]:
            if not m1 & m2:
                cands.append(m1 | m2)
    best = sum(pts)
    for used in cands:
        dead = full ^ used
        if not dead:
            continue
        left = [pts[i] for i in range(n) if dead >> i & 1]
        v = sum(left) - max(left)
        if v < best:
            best = v
    return best


gff_deadwood: DeadwoodFn = _memo_by_mask(_gff_deadwood_raw)
"""GFF-2/C-2: fewest deadwood points of a hand of up to seven cards (memoised)."""

tt_deadwood: DeadwoodFn = _memo_by_mask(_tt_deadwood_raw)
"""TT-6/C-2: fewest deadwood points of a Triple Tunk hand (memoised ``tt_min_deadwood``)."""

_GFF_MELD3: frozenset[int] = frozenset(m for m, _p in _GFF_SPREADS if m.bit_count() == 3)
_GFF_MELD3_LIST: tuple[tuple[int, int, int], ...] = tuple(
    sorted((a, b, c) for a, b, c in (tuple(i for i in range(52) if m >> i & 1) for m in _GFF_MELD3))
)


def gff_meld3(a: int, b: int, c: int) -> bool:
    """GFF-2: whether three distinct cards form a spread."""
    return ((1 << a) | (1 << b) | (1 << c)) in _GFF_MELD3


def tt_meld3(a: int, b: int, c: int) -> bool:
    """TT-6: whether three distinct cards form a meld (the packed-feature table of tt_melds)."""
    if a in (b, c) or b == c:
        return False
    return bool(_TT_MELD_SIZES[_TT_FEATURE[a] | _TT_FEATURE[b] | _TT_FEATURE[c]] & 8)


# Throwing order among equal deadwood: points, then rank (K before Q before J before 10), suit.
GFF_ORDER: tuple[int, ...] = tuple(
    std.POINTS[c] * 64 + std.RANK_OF[c] * 4 + std.SUIT_OF[c] for c in std.DECK
)
# Triple Tunk: points (TT-2), then the card's index.
TT_ORDER: tuple[int, ...] = tuple(topper.POINTS[c] * 128 + c for c in topper.DECK)
# Triple Tunk's wild colour and shape (TT-3) and its any-number ``?`` (TT-4).
TT_FLEXIBLE: frozenset[int] = frozenset(
    c
    for c in topper.DECK
    if topper.COLOUR_OF[c] == topper.BLACK
    or topper.SHAPE_OF[c] == topper.BLOB
    or topper.NUMBER_OF[c] == topper.QUESTION
)

GFF_MODEL = GameModel(
    GAME_FLIP_FLOP,
    std.DECK,
    std.POINTS,
    gff_deadwood,
    gff_meld3,
    GFF_ORDER,
    _memo_by_mask(_gff_best_discard_raw),
    _GFF_MELD3_LIST,
)
TT_MODEL = GameModel(
    TRIPLE_TUNK,
    topper.DECK,
    topper.POINTS,
    tt_deadwood,
    tt_meld3,
    TT_ORDER,
    _memo_by_mask(_tt_best_discard_raw),
    flexible=TT_FLEXIBLE,
)


def best_spreads(hand: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """The spreads of the best arrangement (C-2: most points melded, then more cards melded)."""
    spreads = gff_spreads_in(hand)
    best: tuple[int, int, tuple[int, ...]] = (0, 0, ())
    cand: tuple[int, int, tuple[int, ...]]
    for i, (m1, p1) in enumerate(spreads):
        cand = (p1, m1.bit_count(), (m1,))
        if cand[:2] > best[:2]:
            best = cand
        for m2, p2 in spreads[i + 1 :]:
            if not m1 & m2:
                cand = (p1 + p2, (m1 | m2).bit_count(), (m1, m2))
                if cand[:2] > best[:2]:
                    best = cand
    return tuple(tuple(c for c in sorted(hand) if m >> c & 1) for m in best[2])


_MODELS: dict[str, GameModel] = {GAME_FLIP_FLOP: GFF_MODEL, TRIPLE_TUNK: TT_MODEL}


def model_for(game: str) -> GameModel:
    """The advice model of a Tunk game.

    :raises ValueError: ``game`` is no Tunk game.
    """
    model = _MODELS.get(game)
    if model is None:
        raise ValueError(f"no Tunk advice model for {game!r}")
    return model


__all__ = [
    "GFF_MODEL",
    "GFF_ORDER",
    "TT_FLEXIBLE",
    "TT_MODEL",
    "TT_ORDER",
    "DeadwoodFn",
    "GameModel",
    "best_spreads",
    "clear_caches",
    "gff_deadwood",
    "gff_meld3",
    "gff_spreads_in",
    "model_for",
    "tt_deadwood",
    "tt_meld3",
]
