"""Triple Topper deck (TT-1): 125 cards, colour x shape x number, one int per card.

Layout: ``card = colour * 25 + shape * 5 + number`` with colour 0..4 = red, yellow, green,
blue, black (K); shape 0..4 = circle, heart, triangle, square, blob (B); number 0..4 = 1, 2, 3,
4, ``?``. Black (colour 4) and blob (shape 4) are wild (TT-3); ``?`` counts 5 (TT-2).
So ``RC1`` = 0, ``KB?`` = 124.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.core.errors import CardError
from engine.core.notation import parse_each

TCard = int

COLOUR_LETTERS = "RYGBK"
SHAPE_LETTERS = "CHTSB"
NUMBER_TEXT: tuple[str, ...] = ("1", "2", "3", "4", "?")
COLOUR_WORDS: tuple[str, ...] = ("red", "yellow", "green", "blue", "black")
SHAPE_WORDS: tuple[str, ...] = ("circle", "heart", "triangle", "square", "blob")
BLACK = 4
BLOB = 4
QUESTION = 4
DECK: tuple[TCard, ...] = tuple(range(125))

COLOUR_OF: tuple[int, ...] = tuple(c // 25 for c in DECK)
SHAPE_OF: tuple[int, ...] = tuple((c // 5) % 5 for c in DECK)
NUMBER_OF: tuple[int, ...] = tuple(c % 5 for c in DECK)
# TT-2: numbers 1..4 count face value, ? counts 5 (also its place in a sequence, TT-5).
NUMBER_VALUE: tuple[int, ...] = (1, 2, 3, 4, 5)
POINTS: tuple[int, ...] = tuple(NUMBER_VALUE[n] for n in NUMBER_OF)

_COLOUR_BY_TEXT = {ch: i for i, ch in enumerate(COLOUR_LETTERS)} | {
    w: i for i, w in enumerate(COLOUR_WORDS)
}
_SHAPE_BY_TEXT = {ch: i for i, ch in enumerate(SHAPE_LETTERS)} | {
    w: i for i, w in enumerate(SHAPE_WORDS)
}
_NUMBER_BY_TEXT = {t: i for i, t in enumerate(NUMBER_TEXT)}
_FORMAT_HINT = (
    "colour R Y G B K, shape C H T S B, number 1 2 3 4 ? (e.g. RH3, KB?), "
    "or spelled out (e.g. 'red heart 3', 'black blob ?')"
)


def make_topper_card(colour: int, shape: int, number: int) -> TCard:
    """The card with these attribute indexes (number index 4 is ``?``)."""
    return colour * 25 + shape * 5 + number


def parse_topper_card(text: str) -> TCard:
    """Parse ``RH3``, ``kb?`` or ``red heart 3`` into a card; raise CardError otherwise.

    :raises CardError: when the text is not a Triple Topper card.
    """
    if not isinstance(text, str):
        raise CardError(f"{text!r} is not a Triple Topper card: expected {_FORMAT_HINT}")
    words = text.strip().lower().split()
    if len(words) == 1 and len(words[0]) == 3:
        words = list(words[0])
    if len(words) == 3:
        colour = _COLOUR_BY_TEXT.get(words[0].upper() if len(words[0]) == 1 else words[0])
        shape = _SHAPE_BY_TEXT.get(words[1].upper() if len(words[1]) == 1 else words[1])
        number = _NUMBER_BY_TEXT.get(words[2])
        if colour is not None and shape is not None and number is not None:
            return colour * 25 + shape * 5 + number
    raise CardError(f"{text!r} is not a Triple Topper card: expected {_FORMAT_HINT}")


def topper_card_name(card: TCard) -> str:
    """Canonical text of ``card``: ``RH3``, ``KB?``."""
    return COLOUR_LETTERS[card // 25] + SHAPE_LETTERS[(card // 5) % 5] + NUMBER_TEXT[card % 5]


def parse_topper_cards(texts: Iterable[str]) -> tuple[TCard, ...]:
    """Parse each text; the error names the position of the bad one."""
    return parse_each(parse_topper_card, texts)
