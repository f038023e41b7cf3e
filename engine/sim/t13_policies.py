"""Three Thirteen policies for the simulator: the advisor and a panel of other styles.

* :class:`AdvisorT13Policy` follows ``engine.advice.t13``'s draw and discard advice (seeded per
  decision, so a game is reproducible), with the whole situation: running totals, each
  opponent's pickups and discards, who went out.
* The panel (``PANEL``), each going out whenever it can unless said otherwise (T13-5):

  - ``greedy`` (the club player's baseline): takes the top discard when it lowers the best
    deadwood after the best discard, else draws from the stock; discards the card whose removal
    leaves the lowest deadwood, ties the higher card.
  - ``stock``: always draws from the stock; discards like ``greedy``.
  - ``hoarder``: takes the top discard when it pairs with a card in hand (same rank, or same suit
    within two ranks) and discards the card with the fewest such partners (then the highest),
    keeping pairs for later combinations.
  - ``waiter``: plays like ``greedy`` but does not go out before its third turn of the round,
    hoping to catch the others with more points.
  - ``random``: draws from either pile at random, discards a random card; goes out half of
    the times it can.
  - ``strong``: :class:`engine.sim.t13_strong.StrongT13Policy`, the strongest fixed heuristic
    player (reach over the unseen cards, no feeding the next player, score pressure).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.advice.t13 import (
    DEFAULT_PRECISION,
    DEFAULT_SAMPLES,
    DEFAULT_STOCK_SAMPLES,
    T13Situation,
    t13_discard_advice,
    t13_draw_advice,
)
from engine.core.cards import RANK_OF, SUIT_OF
from engine.games.t13.play import going_out_options
from engine.sim.t13 import T13Policy, T13View
from engine.sim.t13_strong import StrongT13Policy
from engine.standard.melds import t13_context
from engine.standard.memo import DeadwoodMemo


def _memo(view: T13View) -> DeadwoodMemo:
    return DeadwoodMemo.for_context(t13_context(view.round_number, view.rules))


def greedy_discard(view: T13View) -> tuple[int, bool]:
    """The card whose removal leaves the lowest deadwood (ties: the higher card), and whether
    that goes out (T13-5)."""
    scorer = _memo(view)
    best_key: tuple[int, int, int] | None = None
    best_card = view.hand[0]
    for card in set(view.hand):
        rest = list(view.hand)
        rest.remove(card)
        key = (scorer.deadwood(rest), -scorer.points(card), -card)
        if best_key is None or key < best_key:
            best_key, best_card = key, card
    assert best_key is not None
    return best_card, best_key[0] == 0


def _my_turns(view: T13View) -> int:
    """Turns this seat has finished this round (its discards, pickups it threw back included)."""
    return len(view.thrown[view.seat]) if view.thrown else 0


class BaselineT13Policy:
    """``greedy``: greedy on C-2 deadwood (the club player's baseline)."""

    def take_discard(self, view: T13View) -> bool:
        scorer = _memo(view)
        top = view.discards[0]
        return scorer.after_discard((*view.hand, top)) < scorer.deadwood(view.hand)

    def discard(self, view: T13View) -> tuple[int | None, bool]:
        return greedy_discard(view)


class StockT13Policy(BaselineT13Policy):
    """``stock``: never takes the top discard."""

    def take_discard(self, view: T13View) -> bool:
        return False


class WaiterT13Policy(BaselineT13Policy):
    """``waiter``: does not go out before its third turn of the round."""

    def discard(self, view: T13View) -> tuple[int | None, bool]:
        card, out = greedy_discard(view)
        if out and _my_turns(view) < 2 and view.out_seat is None:
            # Hold the combinations: throw the card that hurts least while staying close.
            return card, False
        return card, out


def _partners(card: int, hand: tuple[int, ...], wild: int) -> int:
    """Cards of ``hand`` that pair with ``card``: same rank, or same suit within two ranks."""
    r, s = RANK_OF[card], SUIT_OF[card]
    n = 0
    for c in hand:
        if c == card:
            continue
        if RANK_OF[c] == wild or RANK_OF[c] == r or (SUIT_OF[c] == s and abs(RANK_OF[c] - r) <= 2):
            n += 1
    return n


class HoarderT13Policy:
    """``hoarder``: collects pairs and keeps them."""

    def take_discard(self, view: T13View) -> bool:
        wild = view.round_number + 1
        top = view.discards[0]
        return RANK_OF[top] == wild or _partners(top, view.hand, wild) > 0

    def discard(self, view: T13View) -> tuple[int | None, bool]:
        options = going_out_options(view.hand, view.round_number, view.rules)
        if options and view.out_seat is None:
            return options[-1].discard, True
        wild = view.round_number + 1
        scorer = _memo(view)
        candidates = [c for c in set(view.hand) if RANK_OF[c] != wild] or list(view.hand)
        card = min(
            candidates,
            key=lambda c: (_partners(c, view.hand, wild), -scorer.points(c), c),
        )
        return card, False


class RandomT13Policy:
    """``random``: legal random moves (seeded)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def take_discard(self, view: T13View) -> bool:
        return self.rng.random() < 0.5

    def discard(self, view: T13View) -> tuple[int | None, bool]:
        if view.out_seat is None and self.rng.random() < 0.5:
            options = going_out_options(view.hand, view.round_number, view.rules)
            if options:
                return self.rng.choice(options).discard, True
        return self.rng.choice(view.hand), False


def situation_from_view(view: T13View) -> T13Situation:
    """The advice request a player could send from what it sees at the table."""
    opponents = view.opponents()
    out = None
    if view.out_seat is not None and view.out_seat != view.seat:
        out = opponents.index(view.out_seat)
    return T13Situation(
        hand=view.hand,
        round_number=view.round_number,
        players=view.n_players,
        decks=view.decks,
        discard_pile=view.discards,
        known=tuple(view.known[s] for s in opponents),
        hand_sizes=tuple(view.hand_sizes[s] for s in opponents),
        out=out,
        rules=view.rules,
        scores=(view.totals[view.seat], *(view.totals[s] for s in opponents)),
        discarded=tuple(view.thrown[s] for s in opponents) if view.thrown else (),
    )


class AdvisorT13Policy:
    """Plays the service's own advice (``t13_draw_advice`` and ``t13_discard_advice``)."""

    def __init__(
        self,
        samples: int = DEFAULT_SAMPLES,
        seed: int = 0,
        stock_samples: int = DEFAULT_STOCK_SAMPLES,
        precision: float = DEFAULT_PRECISION,
    ) -> None:
        self.samples = samples
        self.seed = seed
        self.stock_samples = stock_samples
        self.precision = precision

    def decision_seed(self, view: T13View) -> int:
        # One seed per turn: the draw's "take" figure is then the very discard answer played.
        return self.seed * 1_000_003 + view.round_number * 10_007 + view.turn_number

    def take_discard(self, view: T13View) -> bool:
        advice = t13_draw_advice(
            situation_from_view(view),
            seed=self.decision_seed(view),
            samples=self.stock_samples,
            precision=self.precision,
            danger_samples=self.samples,
            figures=False,
        )
        return advice.take_discard

    def discard(self, view: T13View) -> tuple[int | None, bool]:
        advice = t13_discard_advice(
            situation_from_view(view),
            seed=self.decision_seed(view),
            samples=self.samples,
            figures=False,
        )
        return advice.discard, advice.go_out


PANEL: dict[str, Callable[[random.Random], T13Policy]] = {
    "greedy": lambda rng: BaselineT13Policy(),
    "stock": lambda rng: StockT13Policy(),
    "hoarder": lambda rng: HoarderT13Policy(),
    "waiter": lambda rng: WaiterT13Policy(),
    "random": lambda rng: RandomT13Policy(rng),
    "strong": lambda rng: StrongT13Policy(rng),
}

__all__ = [
    "PANEL",
    "AdvisorT13Policy",
    "BaselineT13Policy",
    "HoarderT13Policy",
    "RandomT13Policy",
    "StockT13Policy",
    "StrongT13Policy",
    "WaiterT13Policy",
    "greedy_discard",
    "situation_from_view",
]
