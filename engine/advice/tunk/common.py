"""Bookkeeping shared by every game's advice: unseen cards, consistent sampling of opponents'
hidden hands, outs and the expected deadwood after the next draw.

Everything here is generic over a :class:`GameModel` (a deck, card points and a deadwood
function), so Three Thirteen advice reuses it with its own model. The two Tunk models,
:data:`GFF_MODEL` (GFF-1/GFF-2) and :data:`TT_MODEL` (TT-1..TT-6), are defined at the bottom; their
deadwood functions are memoised on a bit mask of the hand because the simulators and the Monte
Carlo samplers ask the same small hands again and again.

Opponent model (:class:`HandSampler`, :func:`sample_hidden`): hidden cards come from the unseen
cards only. An opponent who has not played a turn yet is unconstrained (its dealt cards are
uniform). One who has is a :class:`Behaviour` mixture, weighted per opponent by
:func:`engine.advice.tunk.styles.behaviour` from what it did:

- baseline-like (throws its highest deadwood card, lays melds and lay-offs at once): it holds
  no meld (every card it holds now was in its hand at its last laying step, known pickups
  included), no card it could lay off, and no card ranking above the lowest card it discarded
  this deal or the top discards it left lying (when it threw that card everything it kept was
  no higher; a card drawn later and higher than everything held is the next one thrown);
- hoarder (throws its highest deadwood card, holds its melds): possibly a 3-card meld of any
  cards, its other cards as the baseline's;
- random (throws any card): uniform hidden cards.

Without inferred behaviours (``behaviours`` empty) the baseline-like part applies with
probability ``lay_probability`` (default 0.98) and the rest is uniform.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from engine.advice.situation import Observation
from engine.core import cards as std
from engine.core import topper
from engine.core.errors import EngineError
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.core.types import TableMeld
from engine.games.tt.arrange import tt_min_deadwood
from engine.games.tt.melds import _FEATURE as _TT_FEATURE
from engine.games.tt.melds import _MELD_SIZES as _TT_MELD_SIZES
from engine.games.tt.melds import meld_masks

DeadwoodFn = Callable[[Sequence[int]], int]

DEFAULT_LAY_PROBABILITY = 0.98
MAX_REJECTIONS = 8


@dataclass(frozen=True, slots=True)
class GameModel:
    """What the generic advice needs to know about a game.

    ``deck`` lists every card once per copy (several decks repeat cards), ``points`` maps a card
    to its deadwood value, ``deadwood`` gives the fewest deadwood points of a hand (C-2) and
    ``meld3`` says whether three cards form a meld, and ``order`` ranks the cards in the order
    a player throws them among equal deadwood (higher first: points, then rank);
    ``best_discard`` (optional fast path) gives the fewest deadwood points after throwing one
    card. A card takes part in some meld of a hand exactly when it forms a 3-card meld with two
    other cards of it (a 4- or 5-card set, run or Triple Tunk meld always holds a 3-card one
    through any of its cards), which is what lets the
    draw estimates below skip the cards that cannot combine with the hand.
    """

    name: str
    deck: tuple[int, ...]
    points: tuple[int, ...]
    deadwood: DeadwoodFn
    meld3: Callable[[int, int, int], bool]
    order: tuple[int, ...]
    best_discard: DeadwoodFn | None = None

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


def check_observation(obs: Observation, model: GameModel) -> None:
    """Validate an advice question before answering it (the HTTP layer calls this once).

    :raises EngineError: seats out of range, per-seat tuples of the wrong length, hand sizes
        that do not match, or a card shown in two places (hand, table, discard pile, known
        cards of a seat).
    """
    n = obs.n_players
    if not 2 <= n <= 8:
        raise EngineError(f"{n} players: a table seats 2 to 8", field="n_players")
    for name, value in (("seat", obs.seat), ("dealer", obs.dealer)):
        if not 0 <= value < n:
            raise EngineError(f"{name} {value} is not one of the seats 0..{n - 1}", field=name)
    if len(obs.hand_sizes) != n:
        raise EngineError(f"hand_sizes needs one entry per seat ({n})", field="hand_sizes")
    for name in ("known", "turns", "waiting", "early", "discard_history", "declined", "passes"):
        value = getattr(obs, name)
        if value and len(value) != n:
            raise EngineError(f"{name} needs one entry per seat ({n})", field=name)
    if obs.hand_sizes[obs.seat] != len(obs.hand):
        raise EngineError("hand_sizes must give this seat's hand size", field="hand_sizes")
    for j, cards in enumerate(obs.known):
        if len(cards) > obs.hand_sizes[j]:
            raise EngineError(f"seat {j} is known to hold more cards than it has", f"known[{j}]")
    deck = set(model.deck)
    seen: set[int] = set()
    groups: list[tuple[str, Sequence[int]]] = [("hand", obs.hand), ("discards", obs.discards)]
    groups += [(f"table[{i}]", m.cards) for i, m in enumerate(obs.table)]
    groups += [(f"known[{j}]", k) for j, k in enumerate(obs.known) if j != obs.seat]
    for field, group in groups:
        for c in group:
            if c not in deck:
                raise EngineError(f"{c!r} is not a card of this game", field=field)
            if c in seen:
                raise EngineError("a card is shown in two places", field=field)
            seen.add(c)


def unseen_cards(
    deck: Sequence[int],
    hand: Iterable[int],
    table: Iterable[TableMeld],
    discards: Iterable[int],
    known_elsewhere: Iterable[Iterable[int]] = (),
) -> tuple[int, ...]:
    """The cards of ``deck`` not seen anywhere: not in hand, on the table, in the discard pile,
    nor known to be in an opponent's hand. Multisets are respected (several decks)."""
    full = _distinct_deck_mask(deck)
    seen_mask = 0
    if full is not None:  # one copy of each card (the Tunk decks): bit masks, ascending
        hand, discards = tuple(hand), tuple(discards)
        table, known_elsewhere = tuple(table), tuple(tuple(g) for g in known_elsewhere)
        try:
            for c in hand:
                seen_mask |= 1 << c
            for meld in table:
                for c in meld.cards:
                    seen_mask |= 1 << c
            for c in discards:
                seen_mask |= 1 << c
            for group in known_elsewhere:
                for c in group:
                    seen_mask |= 1 << c
        except (TypeError, ValueError):  # a card that is no small int: the general count
            full = None
    if full is not None:
        left = full & ~seen_mask
        cards: list[int] = []
        while left:
            low = left & -left
            cards.append(low.bit_length() - 1)
            left ^= low
        return tuple(cards)
    remaining: dict[int, int] = {}
    for c in deck:
        remaining[c] = remaining.get(c, 0) + 1
    seen: list[int] = list(hand)
    for meld in table:
        seen.extend(meld.cards)
    seen.extend(discards)
    for group in known_elsewhere:
        seen.extend(group)
    for c in seen:
        left = remaining.get(c, 0)
        if left > 0:
            remaining[c] = left - 1
    out: list[int] = []
    for c in sorted(remaining):
        out.extend([c] * remaining[c])
    return tuple(out)


_DECK_MASKS: dict[int, tuple[Sequence[int], int | None]] = {}


def _distinct_deck_mask(deck: Sequence[int]) -> int | None:
    """The bit mask of ``deck`` when it holds each card once as a small non-negative int, else
    None (memoised per deck object: the game models' decks are module constants)."""
    got = _DECK_MASKS.get(id(deck))
    if got is not None and got[0] is deck:
        return got[1]
    mask: int | None = 0
    for c in deck:
        if not isinstance(c, int) or c < 0 or c > 4096 or mask is None or mask >> c & 1:
            mask = None
            break
        mask |= 1 << c
    if len(_DECK_MASKS) > 64:
        _DECK_MASKS.clear()
    _DECK_MASKS[id(deck)] = (deck, mask)
    return mask


@dataclass(frozen=True, slots=True)
class Behaviour:
    """How one opponent's hidden cards are drawn: a mixture of three hypotheses about its play
    (weights sum to 1; :func:`engine.advice.tunk.styles.behaviour` infers them from what it did).

    - ``baseline``: throws its highest deadwood card and lays every meld and lay-off at once, so
      it holds no meld, no card it could lay off and no card above its discard cap;
    - ``hoarder``: throws its highest deadwood card but holds its melds: with chance ``meld`` it
      holds a 3-card meld of any cards, and its other cards obey the caps and lay-offs;
    - ``random``: throws at random: its hidden cards are uniform over the unseen cards.

    ``cap``: the throwing order (:attr:`GameModel.order`) its hidden cards rank below under the
    first two hypotheses, from the discards read as its highest card (a discard better explained
    as a slip sets none); None: the caps given to the sampler.
    """

    baseline: float
    hoarder: float
    random: float
    meld: float = 0.0
    cap: int | None = None


UNIFORM = Behaviour(0.0, 0.0, 1.0)


def fixed_behaviour(lay_probability: float) -> Behaviour:
    """The opponent model without inference: baseline-like with ``lay_probability``, else
    uniform."""
    return Behaviour(lay_probability, 0.0, 1.0 - lay_probability)


def meld3_list(model: GameModel) -> tuple[tuple[int, int, int], ...] | None:
    """Every 3-card meld of the game's deck when the game has few (Game Flip Flop: 96, listed
    once at import); None for Triple Tunk, whose wild cards make 57,038 (18% of all triples):
    its samplers draw random triples until one is a meld instead of listing them."""
    return _GFF_MELD3_LIST if model.name == GAME_FLIP_FLOP else None


_MELD_TRIES = 40


class HandSampler:
    """Draws opponents' full hands consistently with what is known (see :func:`sample_hidden`).

    Built once per question; every table a sample needs is made here: the unseen cards sorted by
    throwing order, per opponent the cards allowed under its caps and lay-offs, the 3-card melds
    inside the unseen cards (Game Flip Flop; :func:`meld3_list`). A sample picks one hypothesis
    per opponent (:class:`Behaviour`) and deals its hidden cards from the matching list,
    tracking the cards already dealt in one bit mask.
    """

    def __init__(
        self,
        unseen: Sequence[int],
        hidden_counts: Sequence[int],
        known: Sequence[Sequence[int]],
        constrained: Sequence[bool],
        model: GameModel,
        caps: Sequence[Sequence[int]] = (),
        lay_probability: float = DEFAULT_LAY_PROBABILITY,
        layoffs: Sequence[frozenset[int]] = (),
        behaviours: Sequence[Behaviour] = (),
    ) -> None:
        if sum(hidden_counts) > len(unseen):
            raise ValueError("opponents hold more hidden cards than there are unseen cards")
        order = model.order
        self.pool = sorted(unseen, key=lambda c: (order[c], c))
        self.orders = [order[c] for c in self.pool]
        self.counts = tuple(hidden_counts)
        self.known = tuple(tuple(k) for k in known)
        self.constrained = tuple(constrained)
        self.model = model
        self.lay_probability = lay_probability
        n = len(self.counts)
        layoffs = tuple(layoffs) + (frozenset(),) * (n - len(layoffs))
        self.layoffs = layoffs
        fixed = fixed_behaviour(lay_probability)
        self.meld3 = model.meld3
        # Triple Tunk meld tests read the packed features directly (tt_meld3 without a call).
        self._tt = model.name == TRIPLE_TUNK and model.meld3 is tt_meld3
        self._gff = model.name == GAME_FLIP_FLOP and model.meld3 is gff_meld3
        # Per opponent: the cards below its cap that it could not lay off, and its mixture as
        # cumulative thresholds (baseline, baseline + hoarder) plus the hoarder's meld chance.
        low: list[tuple[int, ...]] = []
        mix: list[tuple[float, float, float]] = []
        for j in range(n):
            if not self.constrained[j]:
                b = UNIFORM
            elif j < len(behaviours):
                b = behaviours[j]
            else:
                b = fixed
            history = caps[j] if j < len(caps) else ()
            if b.cap is not None:
                size = bisect_left(self.orders, b.cap)
            else:
                size = bisect_left(self.orders, min(history)) if history else len(self.pool)
            banned = layoffs[j]
            low.append(tuple(c for c in self.pool[:size] if c not in banned))
            total = b.baseline + b.hoarder + b.random
            if total <= 0:
                b, total = UNIFORM, 1.0
            mix.append((b.baseline / total, (b.baseline + b.hoarder) / total, b.meld))
        self.low = tuple(low)
        self.mix = tuple(mix)
        self.known_masks = tuple(_mask(k) for k in self.known)
        pool_mask = _mask(self.pool)
        triples = meld3_list(model)
        self.pool_melds: tuple[tuple[int, int, int], ...] | None = (
            None if triples is None else tuple(t for t in triples if _mask(t) & ~pool_mask == 0)
        )

    def _has_meld(self, hand: Sequence[int]) -> bool:
        """Whether three cards of ``hand`` form a meld (``GameModel.has_meld``)."""
        if not self._tt:
            if self._gff:  # gff_meld3 inline: the three cards' mask among the 3-card spreads
                spreads = _GFF_MELD3
                bits = [1 << c for c in hand]
                return any(a | b | c in spreads for a, b, c in combinations(bits, 3))
            m3 = self.meld3
            return any(m3(a, b, c) for a, b, c in combinations(hand, 3))
        feat, sizes = _TT_FEATURE, _TT_MELD_SIZES  # tt_meld3 inline: distinct cards, TT-6
        n = len(hand)
        for i in range(n - 2):
            a = hand[i]
            fa = feat[a]
            for j in range(i + 1, n - 1):
                b = hand[j]
                if b == a:
                    continue
                fab = fa | feat[b]
                for k in range(j + 1, n):
                    c = hand[k]
                    if c != a and c != b and sizes[fab | feat[c]] & 8:
                        return True
        return False

    def _meld(self, rng: random.Random, taken: int) -> tuple[int, ...]:
        """A 3-card meld of free unseen cards, uniform over such melds (empty: none found)."""
        rand = rng.random
        if self.pool_melds is not None:
            melds = self.pool_melds
            for _ in range(_MELD_TRIES):
                if not melds:
                    break
                t = melds[int(rand() * len(melds))]
                if not taken & _mask(t):
                    return t
            return ()
        pool = self.pool
        size = len(pool)
        m3 = self.meld3
        if self._tt:  # tt_meld3 inline (the three cards are distinct here)
            feat, sizes = _TT_FEATURE, _TT_MELD_SIZES
            for _ in range(_MELD_TRIES):
                a, b = pool[int(rand() * size)], pool[int(rand() * size)]
                c = pool[int(rand() * size)]
                m = (1 << a) | (1 << b) | (1 << c)
                if m.bit_count() == 3 and not taken & m and sizes[feat[a] | feat[b] | feat[c]] & 8:
                    return (a, b, c)
            return ()
        for _ in range(_MELD_TRIES):
            a, b, c = pool[int(rand() * size)], pool[int(rand() * size)], pool[int(rand() * size)]
            m = (1 << a) | (1 << b) | (1 << c)
            if m.bit_count() == 3 and not taken & m and m3(a, b, c):
                return (a, b, c)
        return ()

    def _deal(self, rng: random.Random, cards: Sequence[int], need: int, taken: int) -> list[int]:
        """``need`` distinct cards of ``cards`` not in ``taken``, uniform; when they run short,
        the rest uniform over every free unseen card."""
        rand = rng.random
        size = len(cards)
        out: list[int] = []
        got = 0
        tries = 4 * need + 4 if size else 0
        while got < need and tries:
            tries -= 1
            c = cards[int(rand() * size)]
            if not taken >> c & 1:
                taken |= 1 << c
                out.append(c)
                got += 1
        if got < need:  # few free cards left in the list: list them
            free = [c for c in cards if not taken >> c & 1]
            if len(free) < need - len(out):
                out += free
                for c in free:
                    taken |= 1 << c
                free = [c for c in self.pool if not taken >> c & 1]
            for c in rng.sample(free, need - len(out)):
                out.append(c)
        return out

    def sample(self, rng: random.Random) -> tuple[tuple[int, ...], ...]:
        """One joint draw of every opponent's hand (known cards first)."""
        taken = 0
        hands: list[tuple[int, ...]] = []
        rand = rng.random
        for j, need in enumerate(self.counts):
            known = self.known[j]
            if not need:
                hands.append(known)
                continue
            to_baseline, to_hoarder, meld_chance = self.mix[j]
            u = rand()
            if u < to_baseline:  # holds no meld: redraw a hand holding one
                mine = self._deal(rng, self.low[j], need, taken)
                tries = MAX_REJECTIONS
                while tries and self._has_meld(known + tuple(mine)):
                    mine = self._deal(rng, self.low[j], need, taken)
                    tries -= 1
            elif u < to_hoarder:
                meld = self._meld(rng, taken) if need >= 3 and rand() < meld_chance else ()
                extra = _mask(meld)
                mine = [*meld, *self._deal(rng, self.low[j], need - len(meld), taken | extra)]
            else:
                mine = self._deal(rng, self.pool, need, taken)
            for c in mine:
                taken |= 1 << c
            hands.append(known + tuple(mine))
        return tuple(hands)


def sample_hidden(
    rng: random.Random,
    unseen: Sequence[int],
    hidden_counts: Sequence[int],
    known: Sequence[Sequence[int]],
    constrained: Sequence[bool],
    model: GameModel,
    caps: Sequence[Sequence[int]] = (),
    lay_probability: float = DEFAULT_LAY_PROBABILITY,
    layoffs: Sequence[frozenset[int]] = (),
    behaviours: Sequence[Behaviour] = (),
) -> tuple[tuple[int, ...], ...]:
    """One draw of every opponent's full hand, consistent with what is known.

    Opponent ``j`` holds ``known[j]`` plus ``hidden_counts[j]`` cards drawn without replacement
    from ``unseen`` (so a card seen elsewhere is never imagined in a hand, and no card is given
    twice). An opponent who has not played (``constrained[j]`` false) gets uniform cards; one who
    has is drawn from its :class:`Behaviour` mixture ``behaviours[j]`` (default: baseline-like
    with ``lay_probability``, else uniform): ``caps[j]`` are the :attr:`GameModel.order` values
    of the cards it discarded (a highest-card thrower's other cards rank below the lowest of
    them), ``layoffs[j]`` the cards it could lay off on the table; a baseline-like hand holding
    a meld is redrawn, at most :data:`MAX_REJECTIONS` times.
    """
    sampler = HandSampler(
        unseen, hidden_counts, known, constrained, model, caps, lay_probability, layoffs, behaviours
    )
    return sampler.sample(rng)


def best_after_draw(model: GameModel, hand: Sequence[int], card: int) -> int:
    """Fewest deadwood points after adding ``card`` to ``hand`` and discarding the best card."""
    full = (*hand, card)
    if model.best_discard is not None:
        return model.best_discard(full)
    dw = model.deadwood
    best = dw(hand)  # throwing the drawn card back
    for i in range(len(hand)):
        rest = full[:i] + full[i + 1 :]
        v = dw(rest)
        if v < best:
            best = v
    return best


def outs(model: GameModel, hand: Sequence[int], unseen: Sequence[int]) -> tuple[int, ...]:
    """Distinct unseen cards that would lower the hand's deadwood after drawing and discarding."""
    base = model.deadwood(hand)
    return tuple(c for c in sorted(set(unseen)) if best_after_draw(model, hand, c) < base)


def expected_deadwood_after_draw(
    model: GameModel, hand: Sequence[int], unseen: Sequence[int]
) -> float:
    """Mean over the unseen cards (each equally likely to be drawn) of the deadwood after
    drawing it and discarding the best card: the expected deadwood after the next stock draw.

    A drawn card that forms no meld with the hand only adds its points, so for it the answer is
    ``min(deadwood(hand), points(card) + min over x of deadwood(hand - x))`` without a search.
    """
    if not unseen:
        return float(model.deadwood(hand))
    return sum(after_draw_values(model, hand, unseen)) / len(unseen)


def after_draw_values(model: GameModel, hand: Sequence[int], unseen: Sequence[int]) -> list[int]:
    """For each unseen card: the deadwood after drawing it and discarding the best card."""
    dw = model.deadwood
    pts = model.points
    base = dw(hand)
    tup = tuple(hand)
    best_drop = min((dw(tup[:i] + tup[i + 1 :]) for i in range(len(tup))), default=0)
    cache: dict[int, int] = {}
    out: list[int] = []
    for c in unseen:
        v = cache.get(c)
        if v is None:
            if model.related(c, tup):
                v = best_after_draw(model, tup, c)
            else:
                v = min(base, pts[c] + best_drop)
            cache[c] = v
        out.append(v)
    return out


# --------------------------------------------------------------------------- game models

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

GFF_MODEL = GameModel(
    "game-flip-flop",
    std.DECK,
    std.POINTS,
    gff_deadwood,
    gff_meld3,
    GFF_ORDER,
    _memo_by_mask(_gff_best_discard_raw),
)
TT_MODEL = GameModel(
    "triple-tunk",
    topper.DECK,
    topper.POINTS,
    tt_deadwood,
    tt_meld3,
    TT_ORDER,
    _memo_by_mask(_tt_best_discard_raw),
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


def model_for(game: str) -> GameModel:
    """The advice model of a Tunk game."""
    if game == GAME_FLIP_FLOP:
        return GFF_MODEL
    if game == TRIPLE_TUNK:
        return TT_MODEL
    raise ValueError(f"no Tunk advice model for {game!r}")


def known_hands(obs: Observation) -> tuple[tuple[int, ...], ...]:
    """Per seat, the cards known to be in that hand; the GFF-5 flip card stays in the dealer's
    hand until it shows up elsewhere (hand, table, discard pile, another seat's pickups)."""
    known = [tuple(k) for k in obs.known] + [()] * (obs.n_players - len(obs.known))
    known[obs.seat] = ()
    flip = obs.flip_card
    if obs.game == GAME_FLIP_FLOP and flip is not None and obs.dealer != obs.seat:
        elsewhere = set(obs.hand) | set(obs.discards)
        for meld in obs.table:
            elsewhere.update(meld.cards)
        for k in known:
            elsewhere.update(k)
        if flip not in elsewhere and obs.hand_sizes[obs.dealer] > 0:
            known[obs.dealer] = (*known[obs.dealer], flip)
    return tuple(known)


__all__ = [
    "DEFAULT_LAY_PROBABILITY",
    "Behaviour",
    "GFF_MODEL",
    "GameModel",
    "HandSampler",
    "TT_MODEL",
    "after_draw_values",
    "best_after_draw",
    "check_observation",
    "clear_caches",
    "gff_meld3",
    "tt_meld3",
    "expected_deadwood_after_draw",
    "gff_deadwood",
    "best_spreads",
    "gff_spreads_in",
    "fixed_behaviour",
    "known_hands",
    "meld3_list",
    "model_for",
    "outs",
    "sample_hidden",
    "tt_deadwood",
    "unseen_cards",
]
