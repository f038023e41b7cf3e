"""Value types shared by every game: table melds, lay-offs, arrangements.

Cards inside these are the game's int encoding (``engine.core.cards`` or ``engine.core.topper``);
melds
are the game's own frozen description (``StdMeld`` or ``TTMeld``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

MeldT = TypeVar("MeldT")


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld lying on the table.

    ``cards`` is every card in it; ``added`` lists ``(card, seat)`` for the cards a player other
    than ``owner`` laid on it (the "sideways" cards of TT-8). The owner's own cards are the rest.
    """

    owner: int
    cards: tuple[int, ...]
    added: tuple[tuple[int, int], ...] = ()

    def own_cards(self) -> tuple[int, ...]:
        """The cards the owner laid or added (TT-11, TT-14 and GFF-9 count only these)."""
        rest = list(self.cards)
        for card, _seat in self.added:
            rest.remove(card)
        return tuple(rest)


@dataclass(frozen=True, slots=True)
class Layoff:
    """Hand card ``card`` can be laid on table meld ``meld_index`` once ``requires`` are laid there.

    ``requires`` is empty for a direct lay-off and lists the hand cards that must go first for a
    chained one (a 9 that fits only after the 8).
    """

    card: int
    meld_index: int
    requires: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Arrangement(Generic[MeldT]):
    """One way to split a hand into melds and deadwood (C-2)."""

    melds: tuple[MeldT, ...]
    deadwood: tuple[int, ...]
    deadwood_points: int
    special_bonus: int = 1

    @property
    def melded_count(self) -> int:
        """How many cards the melds use (C-2's first tie-break)."""
        return sum(len(m.cards) for m in self.melds)  # type: ignore[attr-defined,misc]


@dataclass(frozen=True, slots=True)
class BestResult(Generic[MeldT]):
    """The best arrangement (C-2) and other arrangements with the same deadwood points."""

    best: Arrangement[MeldT]
    ties: tuple[Arrangement[MeldT], ...] = ()
    ties_truncated: bool = False
