"""Three Thirteen going out (T13-5): which discards leave every other card in combinations."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.core.cards import Card
from engine.core.options import ThreeThirteenRules
from engine.core.types import Arrangement
from engine.games.t13.game import GAME
from engine.standard.arrange import best_arrangement
from engine.standard.deadwood import min_deadwood
from engine.standard.melds import StdMeld, t13_context


@dataclass(frozen=True, slots=True)
class GoOutOption:
    """Discarding ``discard`` goes out: ``arrangement`` melds the other r + 2 cards completely."""

    discard: int
    arrangement: Arrangement[StdMeld]


def going_out_options(
    hand: Sequence[Card], round_number: int, rules: ThreeThirteenRules
) -> tuple[GoOutOption, ...]:
    """T13-5: every distinct discard (ascending) leaving the other r + 2 cards with no deadwood.

    Empty when the hand does not hold exactly r + 3 cards or no discard works. Every card is
    worth at least one point, so zero deadwood points means every other card is melded.
    """
    ctx = t13_context(round_number, rules)
    if len(hand) != GAME.max_hand_size(round_number):  # the deal plus the drawn card
        return ()
    # A discard that works leaves an arrangement of the whole hand with only that card as
    # deadwood, so it is worth at least the hand's least deadwood: a cheap filter.
    floor = min_deadwood(hand, ctx)
    options: list[GoOutOption] = []
    for discard in sorted(set(hand)):
        if ctx.points(discard) < floor:
            continue
        rest = list(hand)
        rest.remove(discard)
        if min_deadwood(rest, ctx) == 0:
            options.append(GoOutOption(discard, best_arrangement(rest, ctx).best))
    return tuple(options)
