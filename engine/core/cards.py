"""Standard 52-card deck: one int per card, parse/print pairs and lookup tables.

Layout: ``card = suit * 13 + rank`` with ``rank`` 0..12 = A, 2, ..., 10, J, Q, K and ``suit``
0..3 = spades, hearts, diamonds, clubs. So ``AS`` = 0, ``KS`` = 12, ``AH`` = 13, ``KC`` = 51.
Tables indexed by card (``RANK_OF``, ``SUIT_OF``, ``POINTS``) are built once at import.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.core.errors import CardError
from engine.core.notation import parse_each

Card = int
Rank = int
Suit = int

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
SUIT_LETTERS = "SHDC"
RANK_NAMES: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
ACE, JACK, QUEEN, KING = 0, 10, 11, 12
DECK: tuple[Card, ...] = tuple(range(52))

RANK_OF: tuple[Rank, ...] = tuple(c % 13 for c in DECK)
SUIT_OF: tuple[Suit, ...] = tuple(c // 13 for c in DECK)
# GFF-1 / T13-3: A = 1, 2..10 face value, J/Q/K = 10.
RANK_POINTS: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
POINTS: tuple[int, ...] = tuple(RANK_POINTS[r] for r in RANK_OF)
# GFF-5: the other suit of the same colour (spades <-> clubs, hearts <-> diamonds).
PARTNER_SUIT: tuple[Suit, ...] = (CLUBS, DIAMONDS, HEARTS, SPADES)

_RANK_BY_TEXT: dict[str, Rank] = {name: i for i, name in enumerate(RANK_NAMES)}
_RANK_BY_TEXT.update({"T": 9, "0": 9})
_SUIT_BY_TEXT: dict[str, Suit] = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3}
_SUIT_BY_TEXT.update({"♤": 0, "♡": 1, "♢": 2, "♧": 3})
_FORMAT_HINT = "a rank A 2-10 J Q K (T or 0 for ten) followed by a suit S H D C, e.g. AS, 10H, QD"


def make_card(rank: Rank, suit: Suit) -> Card:
    """The card of ``rank`` (0 = ace .. 12 = king) in ``suit`` (0..3 = S H D C)."""
    return suit * 13 + rank


def parse_card(text: str) -> Card:
    """Parse ``AS``, ``10h``, ``T♥``, ``0d`` ... into a card.

    :raises CardError: when the text is not a standard card.
    """
    if not isinstance(text, str):
        raise CardError(f"{text!r} is not a card: expected {_FORMAT_HINT}")
    cleaned = text.strip().upper()
    if len(cleaned) >= 2:
        rank = _RANK_BY_TEXT.get(cleaned[:-1])
        suit = _SUIT_BY_TEXT.get(cleaned[-1])
        if rank is not None and suit is not None:
            return suit * 13 + rank
    raise CardError(f"{text!r} is not a card: expected {_FORMAT_HINT}")


def card_name(card: Card) -> str:
    """Canonical text of ``card``: ``AS``, ``10H``, ``QD``."""
    return RANK_NAMES[card % 13] + SUIT_LETTERS[card // 13]


def parse_cards(texts: Iterable[str]) -> tuple[Card, ...]:
    """Parse each text with :func:`parse_card`; the error names the position of the bad one."""
    return parse_each(parse_card, texts)
