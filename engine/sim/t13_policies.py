"""Three Thirteen policies for the simulator: the club player's baseline and the advisor.

* :class:`BaselineT13Policy` (issue 4): take the top discard when it lowers the best deadwood
  (after the best discard), else draw from the stock; discard the card whose removal leaves the
  lowest deadwood, ties the higher card; go out whenever possible (T13-5).
* :class:`AdvisorT13Policy`: follows ``engine.advice.t13``'s draw and discard advice, seeded per
  decision so a game is reproducible.
"""

from __future__ import annotations

from engine.advice.t13 import (
    DEFAULT_SAMPLES,
    T13Scorer,
    T13Situation,
    t13_discard_advice,
    t13_draw_advice,
)
from engine.sim.t13 import T13View


class BaselineT13Policy:
    """Greedy on C-2 deadwood (issue 4's baseline)."""

    def take_discard(self, view: T13View) -> bool:
        scorer = T13Scorer.for_rules(view.round_number, view.rules)
        top = view.discards[0]
        return scorer.after_discard((*view.hand, top)) < scorer.deadwood(view.hand)

    def discard(self, view: T13View) -> tuple[int, bool]:
        scorer = T13Scorer.for_rules(view.round_number, view.rules)
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
    )


class AdvisorT13Policy:
    """Plays the service's own advice (``t13_draw_advice`` and ``t13_discard_advice``)."""

    def __init__(self, samples: int = DEFAULT_SAMPLES, seed: int = 0) -> None:
        self.samples = samples
        self.seed = seed

    def _seed(self, view: T13View, phase: int) -> int:
        return (self.seed * 1_000_003 + view.round_number * 10_007 + view.turn_number) * 2 + phase

    def take_discard(self, view: T13View) -> bool:
        advice = t13_draw_advice(
            situation_from_view(view), seed=self._seed(view, 0), samples=self.samples
        )
        return advice.take_discard

    def discard(self, view: T13View) -> tuple[int, bool]:
        advice = t13_discard_advice(
            situation_from_view(view), seed=self._seed(view, 1), samples=self.samples
        )
        return advice.discard, advice.go_out


__all__ = ["AdvisorT13Policy", "BaselineT13Policy", "situation_from_view"]
