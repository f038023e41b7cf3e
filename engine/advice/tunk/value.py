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

The figures of a kept hand come from its kept-hand table (:mod:`engine.advice.tunk.keeptable`,
built once per kept hand and memoised on its bit mask): the situation then only intersects bit
masks with the unseen cards. How the play ends (GFF-9/GFF-10 going out, TT-11 tunking out) and
what a card lays off on (GFF-3, TT-8) differ by game: ``Evaluator(obs)`` is the game's own
subclass (:class:`GffEvaluator`, :class:`TtEvaluator`), chosen once per question.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from engine.advice.situation import Observation
from engine.advice.tunk.common import known_hands, model_for, unseen_cards
from engine.advice.tunk.completions import (
    COMPLETIONS,
    _bits,
    _mask,
    clear_completion_caches,
    related_mask,
)
from engine.advice.tunk.keeptable import (
    KeepTable,
    _drawn_deadwood,
    _keep_table,
    clear_table_caches,
    keep_table,
)
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.games import find_game
from engine.games.gff.play import gff_going_out, spread_kind
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
OUT_POINTS: dict[str, float] = {GAME_FLIP_FLOP: 10.0, TRIPLE_TUNK: 20.0}
# Value of a hand that ends the play this turn: twice a certain out next turn.
END_FACTOR = 2.0


def end_value(game: str) -> float:
    """The value of ending the play now (lower than any hand that plays on)."""
    return -END_FACTOR * OUT_POINTS.get(game, 0.0)


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
    figure it reports is the one the discard advice gives for the same hand. ``Evaluator(obs)``
    builds the game's own subclass (:data:`_EVALUATORS`): how the play ends and what a card lays
    off on are its hooks (:meth:`fits_table`, :meth:`_ending`, :meth:`_ends`, ...).
    """

    def __new__(cls, obs: Observation) -> Evaluator:
        """The evaluator of ``obs.game`` (its subclass; this class for a game it does not know,
        whose ``__init__`` then refuses it)."""
        kind = _EVALUATORS.get(obs.game, cls) if cls is Evaluator else cls
        return object.__new__(kind)

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.game = obs.game
        self.model = model = model_for(obs.game)
        melds = COMPLETIONS[obs.game]
        self.comp = melds.complete
        self.pair_row = melds.pair_row
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
        raise NotImplementedError

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
        if quick and not self._may_end(hand):
            return None
        return self._ending(hand)

    def _ending(self, hand: Sequence[int]) -> tuple[str, int | None] | None:
        """:meth:`ending` without the quick test (the game's own search)."""
        raise NotImplementedError

    def _ends(self, hand: Sequence[int]) -> bool:
        """``ending(hand, quick=False) is not None`` (a game may stop its search early)."""
        return self.ending(hand, quick=False) is not None

    def _may_end(self, hand: Sequence[int]) -> bool:
        """Necessary condition for ending now: when no card of the hand fits a table meld, the
        hand must be all melded, or all but one card (the discard). With lay-offs possible,
        chains (a card that fits only after another) make a cheaper test unsafe
        (:meth:`_may_end_with_fit` may narrow it)."""
        model = self.model
        if any(self._fits_me(c) for c in hand):
            return self._may_end_with_fit(hand)
        return model.deadwood(hand) == 0 or (
            model.best_discard is not None and model.best_discard(hand) == 0
        )

    def _may_end_with_fit(self, hand: Sequence[int]) -> bool:
        """:meth:`_may_end` when a card of ``hand`` fits a table meld."""
        return True

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
        fit_cards, ending = self._end_masks(hand, table, -1 if table.base == 0 else table.empties)
        ends = self.umask if table.base == 0 else table.empties & self.umask
        # The proxy is the drawn deadwood (whose mean is kept's expected deadwood) except on
        # the cards that empty the hand, where it jumps to the ending value.
        end = end_value(self.game)
        jump = sum(end - _drawn_deadwood(self.model, table, c) for c in _bits(ends))
        proxy_mean = kept.expected_deadwood + jump / self.n_unseen if self.n_unseen else 0.0
        return _StockPrep(kept, tuple(drops), any_fit, fit_cards, ending, table, ends, proxy_mean)

    def _end_masks(self, hand: tuple[int, ...], table: KeepTable, ending: int) -> tuple[int, int]:
        """(draws that may end the play with a table fit, without one; masks, -1: all) for
        ``hand`` before the draw, given the draws that empty it (``ending``)."""
        return -1, ending

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


class GffEvaluator(Evaluator):
    """Game Flip Flop: spreads lay off by GFF-3; the play ends by going or tunking out
    (GFF-9/GFF-10, ``gff_going_out``)."""

    def fits_table(self, card: int, seat: int) -> bool:
        """Whether ``seat`` could lay ``card`` off on a table spread (GFF-3)."""
        return any(spread_kind((*meld.cards, card)) is not None for meld in self.obs.table)

    def _ending(self, hand: Sequence[int]) -> tuple[str, int | None] | None:
        obs = self.obs
        plan = gff_going_out(tuple(hand), obs.table, obs.seat)
        return (plan.kind, plan.discard) if plan.kind is not None else None


class TtEvaluator(Evaluator):
    """Triple Tunk: melds lay off by TT-8 (chains of lay-offs, memoised per evaluator); the play
    ends by tunking out (TT-11), whose shapes fix how many cards may be left to dispose of and
    always hold a meld of the player's own."""

    def __init__(self, obs: Observation) -> None:
        super().__init__(obs)
        self._extend: dict[tuple[int, int | None, int], bool] = {}
        self._legal: dict[tuple[int, tuple[int, ...], bool], bool] = {}
        self._sideways: dict[tuple[int, ...], bool] = {}  # tt_can_tunk_out's sideways plans
        self._owns_meld = any(m.owner == obs.seat for m in obs.table)
        self._tunk_sizes = tt_tunk_sizes(obs.table, obs.seat)

    def fits_table(self, card: int, seat: int) -> bool:
        """Whether ``seat`` could lay ``card`` off on a table meld (TT-8)."""
        return any(can_extend(meld.cards, card, meld.owner == seat) for meld in self.obs.table)

    def _ending(self, hand: Sequence[int]) -> tuple[str, int | None] | None:
        if not self._ends(hand):  # the early-stopping search first: most hands do not end
            return None
        obs = self.obs
        option = tt_tunk_out(tuple(hand), obs.table, obs.seat)
        return ("tunk_out", option.discard) if option is not None else None

    def _ends(self, hand: Sequence[int]) -> bool:
        """``ending(hand, quick=False) is not None``, stopping the TT-11 search at the first
        option (:func:`tt_can_tunk_out`)."""
        return tt_can_tunk_out(
            hand, self.obs.table, self.obs.seat, self._fits_chain, self._legal_on, self._sideways
        )

    def _may_end(self, hand: Sequence[int]) -> bool:
        """:meth:`Evaluator._may_end`, after the TT-11 shapes' sizes."""
        if len(hand) not in self._tunk_sizes:
            return False  # no TT-11 shape has that many cards left to dispose of
        return Evaluator._may_end(self, hand)

    def _may_end_with_fit(self, hand: Sequence[int]) -> bool:
        """Every TT-11 shape holds a meld of the player's own: without one on the table, the
        hand must hold a meld."""
        if self._owns_meld:
            return True
        model = self.model
        return model.deadwood(hand) < model.total(hand)

    def _end_masks(self, hand: tuple[int, ...], table: KeepTable, ending: int) -> tuple[int, int]:
        if len(hand) + 1 not in self._tunk_sizes:
            return 0, 0  # no TT-11 shape has that many cards to dispose of
        fit_cards = -1
        if not self._owns_meld and table.base == self.model.total(hand):
            # TT-11 with no own meld on the table or in the hand: the draw must make one
            fit_cards = 0
            for a, b in combinations(hand, 2):
                fit_cards |= self.pair_row(a)[b]
        return fit_cards, ending

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


_EVALUATORS: dict[str, type[Evaluator]] = {
    GAME_FLIP_FLOP: GffEvaluator,
    TRIPLE_TUNK: TtEvaluator,
}
"""Each Tunk game's evaluator, by slug (``Evaluator(obs)`` builds the one of ``obs.game``)."""


def card_text(game: str, card: int) -> str:
    """The card's canonical text for explanations (the engine otherwise speaks ints)."""
    return find_game(game).deck.name(card)


def clear_value_caches() -> None:
    """Empty the situation-independent memo tables (benchmarks of cold answers)."""
    clear_table_caches()
    clear_completion_caches()


__all__ = [
    "DANGER_POINTS",
    "END_FACTOR",
    "OUT_POINTS",
    "DiscardFigures",
    "Evaluator",
    "GffEvaluator",
    "HandValue",
    "KeepFigures",
    "TtEvaluator",
    "card_text",
    "clear_value_caches",
    "end_value",
]
