"""``POST /v1/games/game-flip-flop/side-pots``: who wins the flip and flop pots (GFF-5, GFF-6)."""

from __future__ import annotations

from typing import Any

from flask_smorest import Blueprint

from api.resources._helpers import add_cached_post
from api.resources.examples import SIDE_POTS_EXAMPLE
from api.schemas.side_pots import SidePotsQuery, SidePotsRequest, SidePotsResponse
from engine.core.cards import SUIT_LETTERS
from engine.core.options import GAME_FLIP_FLOP, GameFlipFlopRules
from engine.games.gff.play import WITH_FLIP, WITH_FLOP, SidePotResult, side_pots


def _pot(result: SidePotResult, amount: int | None) -> dict[str, Any]:
    return {
        "pot": result.pot,
        "suit": SUIT_LETTERS[result.suit],
        "lowest_card": result.lowest_card,
        "lowest_holder": result.lowest_holder,
        "winner": result.winner,
        "winning_card": result.winning_card,
        "carried_over": result.carried_over,
        "fallback": result.fallback,
        "amount": amount,
    }


def analyse(q: SidePotsQuery) -> dict[str, Any]:
    """GFF-5 winners from the dealt hands; pot sizes from the stake and carry-ins (GFF-6)."""
    assert isinstance(q.rules, GameFlipFlopRules)
    stakes = q.stakes_in if q.stakes_in is not None else (WITH_FLOP,) * len(q.dealt_hands)
    result = side_pots(q.dealt_hands, q.dealer, q.flip_card, stakes, q.rules)
    flip_amount = flop_amount = None
    if q.stake is not None:
        flip_amount = q.stake * sum(1 for k in stakes if k >= WITH_FLIP) + q.flip_carry_in
        flop_amount = q.stake * sum(1 for k in stakes if k >= WITH_FLOP) + q.flop_carry_in
    return {
        "flip_card": result.flip_card,
        "stakes_in": list(stakes),
        "flip": _pot(result.flip, flip_amount),
        "flop": _pot(result.flop, flop_amount),
    }


def add_routes(blp: Blueprint) -> None:
    """Register ``POST /side-pots`` on the Game Flip Flop blueprint."""
    add_cached_post(
        blp,
        "/side-pots",
        endpoint="side_pots",
        cache_name="side-pots",
        game=GAME_FLIP_FLOP,
        request_schema=SidePotsRequest,
        response_schema=SidePotsResponse,
        answer=analyse,
        response_description="Both side pots of the deal.",
        summary="Flip and flop pot winners from the dealt hands, or carry-over",
        description="GFF-5: the flip card (the dealer's last dealt card, still in the dealer's "
        "hand) names the flip suit; the lowest dealt card of that suit wins the flip pot (aces "
        "low, so it is always won). The lowest dealt card of the other suit of the same colour "
        "wins the flop pot; with none dealt, the flop pot carries over. GFF-6: a holder who did "
        "not stake in a pot cannot win it; `rules.side_pot_fallback` gives it to the next lowest "
        "staker (default) or carries it over.",
        example=SIDE_POTS_EXAMPLE,
    )
