"""Draw advice for the Tunk games (GFF-7, TT-10): take the top discard or draw from the stock.

Taking the discard gives a sure result: the deadwood after adding it and throwing the best card
(C-5 allows throwing it straight back). Drawing from the stock gives the expected deadwood over
the unseen cards, each equally likely to be the next stock card. The advice takes the discard
when that is lower.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.advice.common import best_after_draw, expected_deadwood_after_draw, unseen_cards
from engine.advice.knock import known_hands, model_for
from engine.sim.core import Observation


@dataclass(frozen=True, slots=True)
class DrawAdvice:
    """``take_discard`` and the expected deadwood of each choice (None: no discard to take)."""

    take_discard: bool
    discard_top: int | None
    deadwood_now: int
    deadwood_if_take: int | None
    expected_deadwood_if_stock: float
    explanation: str


def draw_advice(obs: Observation) -> DrawAdvice:
    """Take the top discard or draw from the stock, for ``obs.hand`` before the draw."""
    model = model_for(obs.game)
    known = known_hands(obs)
    hand = tuple(obs.hand)
    top = obs.discards[0] if obs.discards else None
    pile = obs.discards
    unseen = unseen_cards(model.deck, hand, obs.table, pile, [known[j] for j in obs.opponents()])
    now = model.deadwood(hand)
    stock = expected_deadwood_after_draw(model, hand, unseen)
    if top is None:
        return DrawAdvice(
            False, None, now, None, stock, "Draw from the stock: the discard pile is empty."
        )
    take_value = best_after_draw(model, hand, top)
    take = take_value < stock
    if take:
        text = (
            f"Take the discard: it leaves {take_value} deadwood points for sure, against about "
            f"{stock:.1f} expected from the stock."
        )
    else:
        text = (
            f"Draw from the stock: about {stock:.1f} deadwood points expected, against "
            f"{take_value} with the discard."
        )
    return DrawAdvice(take, top, now, take_value, stock, text)


__all__ = ["DrawAdvice", "draw_advice"]
