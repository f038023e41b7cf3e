"""Bookkeeping shared by every game's advice: unseen cards, consistent sampling of opponents'
hidden hands, outs and the expected deadwood after the next draw.

Everything here is generic over a :class:`~engine.advice.tunk.models.GameModel` (a deck, card
points and a deadwood function), so other advice can reuse it with its own model; the two Tunk
models live in :mod:`engine.advice.tunk.models` (re-exported here).

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

import copy
import random
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from types import ModuleType
from typing import cast

from engine.advice.situation import Observation
from engine.advice.tunk.models import (
    _GFF_MELD3,
    GFF_MODEL,
    TT_MODEL,
    GameModel,
    _mask,
    best_spreads,
    clear_caches,
    gff_deadwood,
    gff_meld3,
    gff_spreads_in,
    model_for,
    tt_deadwood,
    tt_meld3,
)
from engine.core import accelerators
from engine.core.errors import EngineError
from engine.core.types import TableMeld
from engine.games import find_game
from engine.games.tt.melds import _FEATURE as _TT_FEATURE
from engine.games.tt.melds import _MELD_SIZES as _TT_MELD_SIZES

DEFAULT_LAY_PROBABILITY = 0.98
MAX_REJECTIONS = 8  # also in _sampler.c


def check_observation(obs: Observation, model: GameModel) -> None:
    """Validate an advice question before answering it (the HTTP layer calls this once).

    :raises EngineError: seats out of range, per-seat tuples of the wrong length, hand sizes
        that do not match, or a card shown in two places (hand, table, discard pile, known
        cards of a seat).
    """
    n = obs.n_players
    low, high = find_game(model.name).players  # GFF-1, TT-1
    if not low <= n <= high:
        raise EngineError(f"{n} players: a table seats {low} to {high}", field="n_players")
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

    ``keeps``: under the first two hypotheses, the chance that its hand is drawn as one keeping
    the game's flexible cards (:attr:`GameModel.flexible`) whatever their points: its capped
    cards may then also be any flexible card above the cap.
    """

    baseline: float
    hoarder: float
    random: float
    meld: float = 0.0
    cap: int | None = None
    keeps: float = 0.0


UNIFORM = Behaviour(0.0, 0.0, 1.0)


def fixed_behaviour(lay_probability: float) -> Behaviour:
    """The opponent model without inference: baseline-like with ``lay_probability``, else
    uniform."""
    return Behaviour(lay_probability, 0.0, 1.0 - lay_probability)


def meld3_list(model: GameModel) -> tuple[tuple[int, int, int], ...] | None:
    """Every 3-card meld of the game's deck when the game has few (Game Flip Flop: 96, listed
    once at import); None for Triple Tunk, whose wild cards make 57,038 (18% of all triples):
    its samplers draw random triples until one is a meld instead of listing them."""
    return model.meld3_list


_MELD_TRIES = 40  # also in _sampler.c


def _load_sampler() -> ModuleType | None:
    """The compiled twin of :meth:`HandSampler.sample` with its meld tables loaded, or None
    (see :mod:`engine.core.accelerators`)."""
    module = accelerators.load("engine.advice.tunk._sampler")
    if module is not None:
        module.init(_TT_FEATURE, _TT_MELD_SIZES, sorted(_GFF_MELD3))
    return module


_ACCEL = _load_sampler()
_KIND_TT, _KIND_GFF = 1, 2  # the compiled twin's meld tests


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
        # Triple Tunk meld tests read the packed features directly (tt_meld3 without a call),
        # Game Flip Flop's the 3-card spreads' masks (gff_meld3 without a call).
        self._tt = model.meld3 is tt_meld3
        self._gff = model.meld3 is gff_meld3
        # Per opponent: the cards below its cap that it could not lay off (and with them the
        # flexible cards above it), and its mixture as cumulative thresholds (baseline,
        # baseline + hoarder) plus the hoarder's meld chance and the chance it keeps flexible cards.
        low: list[tuple[int, ...]] = []
        kept_low: list[tuple[int, ...]] = []
        mix: list[tuple[float, float, float, float]] = []
        flexible = model.flexible
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
            above: tuple[int, ...] = ()
            if b.keeps and flexible:  # only a possible keeper needs the flexible cards above
                above = tuple(c for c in self.pool[size:] if c in flexible and c not in banned)
            kept_low.append(low[-1] + above)
            total = b.baseline + b.hoarder + b.random
            if total <= 0:
                b, total = UNIFORM, 1.0
            keeps = b.keeps if above else 0.0
            mix.append((b.baseline / total, (b.baseline + b.hoarder) / total, b.meld, keeps))
        self.low = tuple(low)
        self.kept_low = tuple(kept_low)
        self.mix = tuple(mix)
        self.known_masks = tuple(_mask(k) for k in self.known)
        pool_mask = _mask(self.pool)
        triples = meld3_list(model)
        self.pool_melds: tuple[tuple[int, int, int], ...] | None = (
            None if triples is None else tuple(t for t in triples if _mask(t) & ~pool_mask == 0)
        )
        self._plan: object | None = None  # the compiled twin's packed tables, built on first use

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

    def with_hypothesis(self, index: int, hypothesis: int) -> HandSampler:
        """A copy that draws opponent ``index`` (its place in ``hidden_counts``) from one playing
        hypothesis alone: 0 baseline, 1 hoarder, 2 random (its caps and meld chance kept)."""
        _, _, meld, keeps = self.mix[index]
        mix = list(self.mix)
        mix[index] = ((1.0, 1.0), (0.0, 1.0), (0.0, 0.0))[hypothesis] + (meld, keeps)
        out = copy.copy(self)
        out.mix = tuple(mix)
        out._plan = None
        return out

    def sample(self, rng: random.Random) -> tuple[tuple[int, ...], ...]:
        """One joint draw of every opponent's hand (known cards first): by the compiled twin
        where it is built and the tables fit it (the same hands for the same generator state),
        else :meth:`sample_py`."""
        plan = self._compiled()
        if plan is not None and _ACCEL is not None:
            return cast(tuple[tuple[int, ...], ...], _ACCEL.sample(plan, rng))
        return self.sample_py(rng)

    def totals(self, rng: random.Random, draws: int = 1) -> list[int]:
        """Each opponent's hand points in ``draws`` joint draws, draw after draw: the hands of
        :meth:`sample` summed (what the knock question reads of them), without building them
        where the compiled twin runs."""
        plan = self._compiled()
        if plan is not None and _ACCEL is not None:
            return cast(list[int], _ACCEL.totals(plan, rng, draws))
        points = self.model.points.__getitem__
        return [sum(map(points, h)) for _ in range(draws) for h in self.sample_py(rng)]

    def _compiled(self) -> object | None:
        """The compiled twin's tables for this sampler, built on first use; None where the twin
        is not built or does not fit them (another game's meld test, card ids of 128 or more,
        more than eight opponents)."""
        if _ACCEL is None:
            return None
        if self._plan is None:
            got = self._compiled_plan()
            self._plan = False if got is None else got
        return None if self._plan is False else self._plan

    def _compiled_plan(self) -> object | None:
        """Packs this sampler's tables for the compiled twin (None: they do not fit it)."""
        assert _ACCEL is not None
        kind = _KIND_TT if self._tt else _KIND_GFF if self._gff else 0
        return cast(
            object | None,
            _ACCEL.plan(
                kind,
                self.pool,
                self.counts,
                self.known,
                self.mix,
                self.low,
                self.kept_low,
                self.pool_melds,
                self.model.points,
            ),
        )

    def sample_py(self, rng: random.Random) -> tuple[tuple[int, ...], ...]:
        """:meth:`sample` in Python: the reference the compiled twin follows draw for draw."""
        taken = 0
        hands: list[tuple[int, ...]] = []
        rand = rng.random
        for j, need in enumerate(self.counts):
            known = self.known[j]
            if not need:
                hands.append(known)
                continue
            to_baseline, to_hoarder, meld_chance, keeps = self.mix[j]
            u = rand()
            if u < to_hoarder:
                low = self.kept_low[j] if keeps and rand() < keeps else self.low[j]
            if u < to_baseline:  # holds no meld: redraw a hand holding one
                mine = self._deal(rng, low, need, taken)
                tries = MAX_REJECTIONS
                while tries and self._has_meld(known + tuple(mine)):
                    mine = self._deal(rng, low, need, taken)
                    tries -= 1
            elif u < to_hoarder:
                meld = self._meld(rng, taken) if need >= 3 and rand() < meld_chance else ()
                extra = _mask(meld)
                mine = [*meld, *self._deal(rng, low, need - len(meld), taken | extra)]
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


def known_hands(obs: Observation) -> tuple[tuple[int, ...], ...]:
    """Per seat, the cards known to be in that hand; the GFF-5 flip card stays in the dealer's
    hand until it shows up elsewhere (hand, table, discard pile, another seat's pickups)."""
    known = [tuple(k) for k in obs.known] + [()] * (obs.n_players - len(obs.known))
    known[obs.seat] = ()
    flip = obs.flip_card
    # GFF-5: the flip card exists in a game with flip and flop pots.
    if flip is not None and obs.dealer != obs.seat and find_game(obs.game).side_pots:
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
