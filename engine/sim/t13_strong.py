"""The bench panel's strongest fixed heuristic Three Thirteen player (``strong``), T13-1..T13-8.

:class:`StrongT13Policy` plays from what it sees at the table (:class:`~engine.sim.t13.T13View`)
and never asks the advisor (``engine.advice.t13``); its numbers are :class:`StrongWeights`.

* **Unseen cards**: every copy of the round's decks (T13-2) not in its hand, not in the discard
  pile and not picked up by an opponent and still held. Each is equally likely to come next.
* **A kept hand** (after the discard) is valued by its *reach*: the mean C-2 deadwood after one
  more card from the unseen ones and the best discard, less ``go_out`` points times the share of
  unseen cards that would let it go out. This counts every partial meld (pair, gap run, a wild
  waiting for a partner, the round's wild rank T13-1 included) by the live cards that complete
  it, so flexible hands beat rigid ones with the same deadwood.
* **Feeding**: a discard costs ``feed`` points when the next player visibly collects around it
  (a card of the rank, or of the suit within two ranks, of a card they picked up and hold), and
  ``wild_feed`` points when it is of the wild rank; a card near what they threw costs half.
* **Score pressure** (T13-6, lowest total wins): ahead, it weighs the deadwood it holds now
  (what it pays if caught) up to ``ahead_risk``; behind, it raises the value of going out up to
  ``behind_go_out`` times, chasing the hands that can go out over the ones that are merely low.
* **Draw**: it takes the top discard when the hand with it (best discard made) beats the mean
  stock card by ``take_margin`` points, or when it is within ``near_slack`` of it and joins a
  near-meld (a pair, a suited card within two ranks, or a wild); never a card thrown more often
  than it has copies (two players passing it back and forth would never end the round).
* **Going out**: as soon as it can (T13-5), throwing the card that feeds the next player least.
  On a last turn it throws a card only when that lowers its deadwood.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.core.cards import RANK_OF, SUIT_OF
from engine.sim.t13 import ROUNDS, T13View, unseen_counts
from engine.standard.melds import t13_context
from engine.standard.memo import DeadwoodMemo


@dataclass(frozen=True, slots=True)
class StrongWeights:
    """The tunable numbers of :class:`StrongT13Policy` (points unless said otherwise)."""

    go_out: float = 6.0  # value of a certain go-out next turn beyond the zero deadwood
    feed: float = 1.5  # discard near a card the next player picked up and holds
    wild_feed: float = 3.0  # discard of the wild rank while the next player still plays
    take_margin: float = 0.0  # the top discard must beat the mean stock card by this much
    near_slack: float = 0.5  # ... or come this close and join a near-meld
    ahead_risk: float = 0.5  # most weight on the deadwood held now when ahead
    behind_go_out: float = 1.0  # go-out weight x (1 + this) when far behind
    lead_per_round: float = 15.0  # lead (points) per round left for the full effect
    late_risk: float = 0.0  # weight on the deadwood held per turn played (others may go out)
    stock_samples: int = 0  # draw valued one draw deeper with this many stock cards (0: not)


DEFAULT_WEIGHTS = StrongWeights()


def _memo(view: T13View) -> DeadwoodMemo:
    return DeadwoodMemo.for_context(t13_context(view.round_number, view.rules))


def _without(hand: Sequence[int], card: int) -> list[int]:
    """``hand`` less one copy of ``card``."""
    rest = list(hand)
    rest.remove(card)
    return rest


def _near(a: int, b: int) -> bool:
    """Same rank, or same suit within two ranks: ``a`` and ``b`` can share a meld."""
    if RANK_OF[a] == RANK_OF[b]:
        return True
    return SUIT_OF[a] == SUIT_OF[b] and abs(RANK_OF[a] - RANK_OF[b]) <= 2


def pressure(view: T13View, w: StrongWeights) -> tuple[float, float]:
    """(weight on the deadwood held now, go-out weight) from the running totals (T13-6)."""
    others = [t for s, t in enumerate(view.totals) if s != view.seat]
    if not others:
        return 0.0, w.go_out
    lead = min(others) - view.totals[view.seat]
    rounds_left = ROUNDS - view.round_number + 1
    scale = min(1.0, abs(lead) / (w.lead_per_round * rounds_left))
    if lead > 0:
        return w.ahead_risk * scale, w.go_out
    return 0.0, w.go_out * (1.0 + w.behind_go_out * scale)


class StrongT13Policy:
    """``strong``: values each kept hand by its reach over the unseen cards, avoids feeding the
    next player, takes the discard only when it beats the stock (see the module docstring)."""

    def __init__(self, rng: random.Random | None = None, weights: StrongWeights | None = None):
        self.rng = rng  # stock cards sampled by a two-step draw (``stock_samples``)
        self.w = weights or DEFAULT_WEIGHTS

    # -- the draw -------------------------------------------------------------------------

    def take_discard(self, view: T13View) -> bool:
        """Take the top discard when it beats the mean stock card (or nearly, joining a
        near-meld); on a last turn when it lowers the deadwood more than the stock would."""
        memo = _memo(view)
        top = view.discards[0]
        prof = memo.profile(view.hand)
        counts = unseen_counts(view)
        total = sum(k for _, k in counts)
        v_take = memo.after_adding(prof, top)
        if not total:
            return v_take < prof.deadwood
        if v_take > 0 and sum(t.count(top) for t in view.thrown) > view.decks:
            return False  # the card went round the table: taking it again would loop the round
        acc, _, zero = memo.adding_sums(prof, counts)
        _, go = pressure(view, self.w)
        if view.out_seat is not None:
            go = 0.0  # a last turn: only the deadwood counts
        stock = acc / total - go * zero / total
        take = v_take - (go if v_take == 0 else 0.0)
        if view.out_seat is None and self.w.stock_samples > 0 and v_take > 0:
            take, stock = self._two_step(view, memo, counts, total, top, stock, go)
        if take < stock - self.w.take_margin:
            return True
        wild = view.round_number + 1
        joins = RANK_OF[top] == wild or any(_near(top, c) for c in view.hand if RANK_OF[c] != wild)
        return joins and view.out_seat is None and take <= stock + self.w.near_slack

    def _two_step(
        self,
        view: T13View,
        memo: DeadwoodMemo,
        counts: list[tuple[int, int]],
        total: int,
        top: int,
        stock: float,
        go: float,
    ) -> tuple[float, float]:
        """(take, stock) valued one draw deeper: the best kept hand after each; the stock's
        mean from ``stock_samples`` seeded cards, their one-step values as control variate."""
        prof = memo.profile(view.hand)
        pool = [c for c, k in counts for _ in range(k)]
        rng = self.rng or random.Random(view.round_number * 1009 + view.turn_number)
        picks = rng.sample(pool, min(len(pool), self.w.stock_samples))
        diff = 0.0
        for c in picks:
            v1 = memo.after_adding(prof, c)
            diff += self._best_kept(view, memo, (*view.hand, c), counts, total)[0] - (
                v1 - (go if v1 == 0 else 0.0)
            )
        take = self._best_kept(view, memo, (*view.hand, top), counts, total)[0]
        return take, stock + diff / len(picks)

    # -- the discard ----------------------------------------------------------------------

    def feed_cost(self, view: T13View, card: int) -> float:
        """Points charged for handing ``card`` to the next player (0 when they have no turn)."""
        nxt = (view.seat + 1) % view.n_players
        if view.out_seat is not None and view.out_seat == nxt:
            return 0.0
        if RANK_OF[card] == view.round_number + 1:
            return self.w.wild_feed
        held = view.known[nxt] if view.known else ()
        if not any(_near(card, c) for c in held):
            return 0.0
        thrown = view.thrown[nxt] if view.thrown else ()
        return self.w.feed / 2 if any(_near(card, c) for c in thrown) else self.w.feed

    def discard(self, view: T13View) -> tuple[int | None, bool]:
        """Go out when possible; on a last turn lower the deadwood; else the best kept hand."""
        memo = _memo(view)
        if view.out_seat is not None:
            return self._last_turn(view, memo)
        if memo.after_discard(view.hand) == 0:  # T13-5 (memoised: rollouts ask on every turn)
            outs = [c for c in set(view.hand) if memo.deadwood(_without(view.hand, c)) == 0]
            card = min(outs, key=lambda c: (self.feed_cost(view, c), -memo.points(c), c))
            return card, True
        counts = unseen_counts(view)
        total = sum(k for _, k in counts)
        return self._best_kept(view, memo, view.hand, counts, total)[1], False

    def _best_kept(
        self,
        view: T13View,
        memo: DeadwoodMemo,
        hand: Sequence[int],
        counts: list[tuple[int, int]],
        total: int,
    ) -> tuple[float, int]:
        """(score, card) of the best discard from ``hand`` (r+3 cards): the kept hand's reach,
        its deadwood under pressure, and the feeding cost; going out scores below them all."""
        now_w, go = pressure(view, self.w)
        turns = len(view.thrown[view.seat]) if view.thrown else 0
        late = min(0.6, self.w.late_risk * turns * (view.n_players - 1) / (view.round_number + 2))
        now_w = 1 - (1 - now_w) * (1 - late)
        best: tuple[float, int, int] | None = None
        for card in sorted(set(hand)):
            prof = memo.profile(_without(hand, card))
            dw = prof.deadwood
            if dw == 0:
                score = -go - 1.0
            elif total:
                acc, _, zero = memo.adding_sums(prof, counts)
                reach = acc / total - go * zero / total
                score = (1 - now_w) * reach + now_w * dw
            else:
                score = float(dw)
            score += self.feed_cost(view, card)
            key = (score, -memo.points(card), card)
            if best is None or key < best:
                best = key
        assert best is not None
        return best[0], best[2]

    def _last_turn(self, view: T13View, memo: DeadwoodMemo) -> tuple[int | None, bool]:
        """T13-5 last turn: throw the card that lowers the deadwood most, else keep all."""
        keep = memo.deadwood(view.hand)
        best: tuple[int, float, int, int] | None = None
        for card in set(view.hand):
            key = (
                memo.deadwood(_without(view.hand, card)),
                self.feed_cost(view, card),
                -memo.points(card),
                card,
            )
            if best is None or key < best:
                best = key
        if best is None or best[0] >= keep:
            return None, False
        return best[3], False


__all__ = [
    "DEFAULT_WEIGHTS",
    "StrongT13Policy",
    "StrongWeights",
    "pressure",
    "unseen_counts",
]
