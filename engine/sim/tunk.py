"""Turn and deal scaffolding shared by the Game Flip Flop and Triple Tunk simulators.

Both keep a mutable deal with the same piles (:class:`TunkDeal`, which each game's deal extends
with its own fields); these helpers deal the cards (C-4), show a seat what it sees, draw, discard
and check card conservation the same way for both games.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.advice.situation import Observation
from engine.core.types import TableMeld


@dataclass(slots=True)
class TunkDeal:
    """Mutable state of one deal shared by both games (the simulator's own; policies never see
    it)."""

    n: int
    dealer: int
    hands: list[list[int]]
    stock: list[int]  # top is the end of the list
    discards: list[int]  # top is the end of the list
    table: list[TableMeld]
    known: list[set[int]]
    turns: list[int]
    history: list[list[int]]
    declined: list[list[int]]


def deal_hands(
    deck_size: int, n: int, dealer: int, rng: random.Random, dealt: int
) -> tuple[list[int], list[list[int]]]:
    """Shuffle ``deck_size`` cards and deal ``dealt`` each, one at a time clockwise from the
    dealer's left, dealer last (C-4); returns the rest of the deck (top last) and the hands."""
    deck = list(range(deck_size))
    rng.shuffle(deck)
    hands: list[list[int]] = [[] for _ in range(n)]
    order = [(dealer + 1 + i) % n for i in range(n)]
    for _ in range(dealt):
        for seat in order:
            hands[seat].append(deck.pop())
    return deck, hands


def check_conservation(deal: TunkDeal, deck_size: int) -> None:
    """Every one of the ``deck_size`` cards is in exactly one place (hand, stock, discards,
    table)."""
    everything = [c for h in deal.hands for c in h] + deal.stock + deal.discards
    everything += [c for m in deal.table for c in m.cards]
    if sorted(everything) != list(range(deck_size)):
        raise AssertionError("card conservation broken")


def observe(deal: TunkDeal, game: str, seat: int, turn_number: int, **extra: Any) -> Observation:
    """What ``seat`` sees now: the fields both games share, plus the game's own ``extra``."""
    return Observation(
        game=game,
        seat=seat,
        dealer=deal.dealer,
        n_players=deal.n,
        hand=tuple(deal.hands[seat]),
        table=tuple(deal.table),
        discards=tuple(reversed(deal.discards)),
        known=tuple(tuple(sorted(k)) if s != seat else () for s, k in enumerate(deal.known)),
        hand_sizes=tuple(len(h) for h in deal.hands),
        turns=tuple(deal.turns),
        stock_size=len(deal.stock),
        discard_history=tuple(tuple(reversed(h)) for h in deal.history),
        declined=tuple(tuple(reversed(h)) for h in deal.declined),
        turn_number=turn_number,
        **extra,
    )


KnockHook = Callable[[int, tuple[int, ...], bool], None]
# Sees a deal that a knock (TT-13) or drop (GFF-8) ended, every hand shown: (the deal, the seat
# that knocked or dropped, the turn number), before it is settled.
EndHook = Callable[[Any, int, int], None]
# Sees a deal that a player ended by emptying its hand (TT-11 tunk out; GFF-9 / GFF-10): (the
# deal as it stood at the start of that turn, the seat, the turn number, every card it held after
# its draw, the top discard it took or None for a stock draw).
OutHook = Callable[[Any, int, int, tuple[int, ...], "int | None"], None]
"""Called at every knock / drop decision with (seat, every seat's total right now, knocked or
dropped): calibration reads :func:`strictly_lowest` of the totals, model checks the totals."""


def strictly_lowest(totals: Sequence[int], seat: int) -> bool:
    """Whether ``seat``'s total is strictly below every other seat's."""
    return all(totals[seat] < totals[s] for s in range(len(totals)) if s != seat)


def draw_card(deal: TunkDeal, seat: int, take: bool) -> int:
    """Take the top discard (known to the others) or draw from the stock (noting the top
    discard left lying), into ``seat``'s hand; returns the card."""
    if take:
        card = deal.discards.pop()
        deal.known[seat].add(card)
    else:
        if deal.discards:
            deal.declined[seat].append(deal.discards[-1])
        card = deal.stock.pop()
    deal.hands[seat].append(card)
    return card


def discard_card(deal: TunkDeal, seat: int, throw: int) -> None:
    """``seat`` discards ``throw`` (already checked legal), ending its turn."""
    deal.hands[seat].remove(throw)
    deal.known[seat].discard(throw)
    deal.discards.append(throw)
    deal.history[seat].append(throw)
    deal.turns[seat] += 1


__all__ = [
    "EndHook",
    "KnockHook",
    "OutHook",
    "TunkDeal",
    "check_conservation",
    "deal_hands",
    "discard_card",
    "draw_card",
    "observe",
    "strictly_lowest",
]
