"""Field factories every advice request shares: seed, samples, the discard pile, limits.

Each limit that is a rule fact (hand sizes, deck sizes) is read from the game's
:class:`~engine.games.base.Game`; the rest are service limits named here.
"""

from __future__ import annotations

from typing import Any

from marshmallow import fields, validate

from api.schemas.common import cards_field
from api.schemas.fields import path_error
from engine.games import TRIPLE_TUNK_GAME, find_game

MAX_SEED = 2**63 - 1
MAX_WAITING = 3 * TRIPLE_TUNK_GAME.deck.size
"""TT-12: 3 turns per card laid on the player's melds, at most the deck."""
# A Tunk deal has no turn limit (GFF players may draw from the pile forever, TT-15 recycles the
# pile), so per-opponent histories are bounded only by the request body size (MAX_BODY_BYTES).
MAX_HISTORY = 100_000
MAX_PASS_TOTAL = 10
MAX_TURNS = 10**9
MAX_OPPONENTS = 7
"""Most opponents a request may describe (eight seats at most, GFF-1 / T13)."""


def max_pile(game: str) -> int:
    """Most cards a discard pile can hold: every card of the most decks (C-1, T13-2)."""
    deck = find_game(game).deck
    return deck.size * deck.max_decks


def seed_field(default: int) -> fields.Integer:
    """``seed``: fixes the pseudo-random draws, so an answer is reproducible (and cacheable)."""
    return fields.Integer(
        strict=True,
        load_default=default,
        validate=validate.Range(min=0, max=MAX_SEED),
        metadata={
            "description": f"Seed of the pseudo-random draws (default {default}); the same "
            "request with the same seed gets the same answer."
        },
    )


def samples_field(default: int, cap: int, note: str) -> fields.Integer:
    """``samples``: the Monte Carlo budget, 1..``cap`` (422 above the cap)."""
    return fields.Integer(
        strict=True,
        load_default=default,
        validate=validate.Range(
            min=1, max=cap, error=f"samples must be between 1 and {cap} (the hard cap)"
        ),
        metadata={
            "description": f"Monte Carlo samples (default {default}, hard cap {cap}: more is a "
            f"422). {note}"
        },
    )


def discard_pile_field(game: str, description: str, **kwargs: Any) -> fields.List:
    """The discard pile, top card first, at most every card of the game's decks."""
    return cards_field(
        game,
        description,
        load_default=list,
        validate=validate.Length(max=max_pile(game)),
        **kwargs,
    )


def opponent_seats(seat: int, players: int) -> tuple[int, ...]:
    """Every other seat, clockwise from ``seat``'s left (C-4)."""
    return tuple((seat + i) % players for i in range(1, players))


def check_fits_deck(deck_size: int, shown: int, held: int, what: str) -> None:
    """The hands, table and pile must fit the deck(s): ``shown`` + ``held`` <= ``deck_size``."""
    if shown + held > deck_size:
        raise path_error(
            "opponents",
            f"the counts do not fit {what}: {shown} cards shown (hand, table, discard pile) plus "
            f"{held} in opponents' hands is more than its {deck_size} cards",
        )


__all__ = [
    "MAX_HISTORY",
    "MAX_OPPONENTS",
    "MAX_PASS_TOTAL",
    "MAX_SEED",
    "MAX_TURNS",
    "MAX_WAITING",
    "check_fits_deck",
    "discard_pile_field",
    "max_pile",
    "opponent_seats",
    "samples_field",
    "seed_field",
]
