"""The two decks as values: how their cards are written, read and counted (C-1, GFF-1, TT-1, T13-2).

A :class:`Deck` bundles one deck's card parser, printer, point table and notation, so code that
handles "a card of this game" asks the deck instead of branching on the game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from engine.core import cards, topper


@dataclass(frozen=True, slots=True)
class Deck:
    """One deck: ``kind`` names it in the API, ``size`` cards, ``max_decks`` shuffled together."""

    kind: str
    size: int
    max_decks: int
    points: tuple[int, ...]
    parse: Callable[[str], int]
    parse_many: Callable[[Iterable[str]], tuple[int, ...]]
    name: Callable[[int], str]
    notation: str
    """How a card is written (for docs and error messages)."""
    pattern: str
    """A regular expression every accepted card string matches (case-insensitive)."""
    examples: tuple[str, ...]

    def names(self, hand: Iterable[int]) -> list[str]:
        """The canonical names of ``hand``'s cards, in order."""
        return [self.name(c) for c in hand]


MAX_DECKS = 8
"""T13-2: at most this many standard decks shuffled together."""

STANDARD = Deck(
    kind="standard",
    size=len(cards.DECK),
    max_decks=1,
    points=cards.POINTS,
    parse=cards.parse_card,
    parse_many=cards.parse_cards,
    name=cards.card_name,
    notation=(
        "Standard card: rank A 2-10 J Q K (T or 0 also mean ten) followed by suit S H D C "
        "(or a suit symbol), case-insensitive, e.g. AS, 10H, th, Q♦. Printed back as AS, 10H, QD."
    ),
    pattern=r"^\s*(?:[aA2-9tTjJqQkK0]|10)[sShHdDcC♠♥♦♣]\s*$",
    examples=tuple(cards.card_name(c) for c in (0, 22, 37, 51)),
)
"""The 52-card deck of Game Flip Flop (GFF-1) and Three Thirteen (T13-2, one deck)."""

STANDARD_MULTI = replace(STANDARD, max_decks=MAX_DECKS)
"""Three Thirteen's standard decks: up to :data:`MAX_DECKS` shuffled together (T13-2)."""

TRIPLE_TOPPER = Deck(
    kind="triple-topper",
    size=len(topper.DECK),
    max_decks=1,
    points=topper.POINTS,
    parse=topper.parse_topper_card,
    parse_many=topper.parse_topper_cards,
    name=topper.topper_card_name,
    notation=(
        "Triple Topper card: colour R Y G B K (K = black, wild), shape C H T S B (B = blob, "
        "wild), number 1 2 3 4 ? (? counts 5), e.g. RH3, KB?; also spelled out: 'red heart 3'. "
        "Printed back as RH3."
    ),
    pattern=r"^\s*[rRyYgGbBkK][cChHtTsSbB][1-4?]\s*$",
    examples=tuple(topper.topper_card_name(c) for c in (0, 37, 124)),
)
"""The 125-card Triple Topper deck of Triple Tunk (TT-1)."""
