"""Pieces every advice answer schema shares: numbers, the sorted hand, the explanation, the
95% interval and the one hand evaluation."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields

from api.schemas.fields import card_field_for


def number(description: str, **kwargs: Any) -> fields.Float:
    """A figure of the answer (rounded to 4 decimals by the resource)."""
    return fields.Float(metadata={"description": description}, **kwargs)


def sorted_hand_field(game: str) -> fields.List:
    """Every response's ``hand``: the asking player's hand, sorted."""
    return fields.List(card_field_for(game), metadata={"description": "Sorted hand."})


def explanation_field() -> fields.String:
    """Every response's ``explanation``."""
    return fields.String(metadata={"description": "One sentence a learner can follow."})


class IntervalOut(Schema):
    """A 95% confidence interval."""

    _NONE = "Null when no interval can be given: one stock card sampled (Three Thirteen)."
    low = fields.Float(allow_none=True, metadata={"description": "Lower bound. " + _NONE})
    high = fields.Float(allow_none=True, metadata={"description": "Upper bound. " + _NONE})


class HandEvaluationOut(Schema):
    """The one hand evaluation of a kept hand (the figures discard, draw and knock share)."""

    value = number(
        "(deadwood + expected_deadwood) / 2 - out weight x out_chance (lower is better)."
    )
    deadwood = fields.Integer(metadata={"description": "Deadwood points of the hand (C-2)."})
    outs = fields.Integer(
        metadata={"description": "Distinct unseen cards that would lower the deadwood."}
    )
    expected_deadwood = number("Expected deadwood after the next stock draw and best discard.")
    out_chance = number("Share of the unseen cards after which the hand can be emptied.")


__all__ = [
    "HandEvaluationOut",
    "IntervalOut",
    "explanation_field",
    "number",
    "sorted_hand_field",
]


def draw_common_fields(game: str) -> dict[str, fields.Field]:
    """The fields every game's draw answer starts with: the choice and the deadwood either way."""
    return {
        "game": fields.String(),
        "hand": sorted_hand_field(game),
        "choice": fields.String(
            metadata={"description": "`discard_pile` (take the top discard) or `stock`."}
        ),
        "take_discard": fields.Boolean(metadata={"description": "Take the top discard."}),
        "top_discard": card_field_for(
            game,
            allow_none=True,
            metadata={"description": "The top of the discard pile, or null when it is empty."},
        ),
        "deadwood_if_take": number(
            "Deadwood left after taking the top discard and throwing the best card (certain); "
            "null without a discard.",
            allow_none=True,
        ),
        "expected_deadwood_if_stock": number(
            "Expected deadwood after drawing from the stock and throwing the best card (every "
            "unseen card equally likely)."
        ),
        "explanation": explanation_field(),
    }
