"""Hand validation per game (C-1, GFF-1, TT-1, T13-1/T13-2): sizes and repeated cards."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.core.cards import card_name
from engine.core.errors import HandError
from engine.core.options import GAME_FLIP_FLOP, THREE_THIRTEEN, TRIPLE_TUNK
from engine.core.topper import topper_card_name

TUNK_MAX_HAND = 6  # five dealt plus the drawn card
MAX_ROUND = 11
MAX_DECKS = 8


def deal_size(round_number: int) -> int:
    """T13-1: round r deals r + 2 cards."""
    return round_number + 2


def max_hand_size(game: str, round_number: int | None = None) -> int:
    """Largest hand a player can hold: 6 in the Tunk games, the deal + 1 in Three Thirteen."""
    if game == THREE_THIRTEEN:
        return deal_size(round_number or MAX_ROUND) + 1
    return TUNK_MAX_HAND


def validate_hand(
    game: str,
    cards: Sequence[int],
    *,
    round_number: int | None = None,
    decks: int = 1,
    field: str = "hand",
    min_size: int = 1,
) -> None:
    """Raise HandError when ``cards`` is too small/large or repeats a card more than allowed.

    :raises HandError: naming ``field`` and the offending card or size.
    """
    limit = max_hand_size(game, round_number)
    if len(cards) < min_size:
        raise HandError(f"a hand needs at least {min_size} card(s)", field=field)
    if len(cards) > limit:
        where = f"in round {round_number}" if game == THREE_THIRTEEN else f"in {game}"
        raise HandError(
            f"{len(cards)} cards is too many: a hand holds at most {limit} {where}", field=field
        )
    copies = decks if game == THREE_THIRTEEN else 1
    name = topper_card_name if game == TRIPLE_TUNK else card_name
    for card, count in Counter(cards).items():
        if count > copies:
            if copies == 1:
                raise HandError(
                    f"{name(card)} appears {count} times; the deck has one", field=field
                )
            raise HandError(
                f"{name(card)} appears {count} times; {copies} decks hold {copies} copies",
                field=field,
            )


def validate_distinct_across(
    game: str, groups: Sequence[tuple[str, Sequence[int]]], decks: int = 1
) -> None:
    """Raise HandError when a card shows up across hand, table and piles too often."""
    copies = decks if game == THREE_THIRTEEN else 1
    name = topper_card_name if game == TRIPLE_TUNK else card_name
    seen: Counter[int] = Counter()
    for field, cards in groups:
        for card in cards:
            seen[card] += 1
            if seen[card] > copies:
                raise HandError(
                    f"{name(card)} is shown more often than the deck holds it", field=field
                )


__all__ = ["GAME_FLIP_FLOP", "validate_hand", "validate_distinct_across", "max_hand_size"]
