"""Three Thirteen advice answers: the discard ranking and the draw choice.

The draw answer names its two values ``value_if_take`` / ``value_if_stock``, as the Tunk games
do; ``take_value`` / ``stock_value`` carry the same numbers for one minor version, marked
deprecated in the OpenAPI document.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from marshmallow import Schema, fields

from api.schemas.advice.response_fields import (
    IntervalOut,
    draw_common_fields,
    explanation_field,
    number,
    sorted_hand_field,
)
from api.schemas.common import make_schema, schema_name
from api.schemas.fields import card_field_for
from engine.advice.t13 import CLEAR_MARGIN, DANGER_WEIGHT, GO_OUT_WEIGHT, OUT_NOW

DEPRECATED_DRAW_ALIASES = {"take_value": "value_if_take", "stock_value": "value_if_stock"}
"""Three Thirteen draw answer fields kept for one minor version (0.2.x), and what replaces
each: the same value under the name every game's draw answer uses."""


class T13DiscardOptionBase(Schema):
    """One distinct card to discard in Three Thirteen and its figures (lower `score` is better)."""

    deadwood = fields.Integer(
        metadata={"description": "Deadwood points of the other cards (C-2, T13-3/T13-4)."}
    )
    outs = fields.Integer(
        metadata={"description": "Unseen cards (copies counted) that would lower that deadwood."}
    )
    expected_deadwood = number(
        "Expected deadwood after the next draw and best discard (the score if another player "
        "goes out first)."
    )
    go_out_chance = number("Chance of going out (T13-5) after the next draw.")
    danger = number(
        "Share of the next player's sampled hands the card helps (0-1); null when not needed "
        "(the score without it already exceeds the best option's).",
        allow_none=True,
    )
    danger_points = number(
        "Mean deadwood points the card saves the next player; null when not needed.",
        allow_none=True,
    )
    score = number(
        "The value of the hand with this discard, lower is better: (1 - risk) x "
        "expected_deadwood + risk x deadwood - (1 - risk) x "
        f"{GO_OUT_WEIGHT:g} x go_out_chance + {DANGER_WEIGHT:g} x "
        f"danger_points; going out now scores {OUT_NOW:g} + "
        f"{DANGER_WEIGHT:g} x danger_points; on a last turn (T13-5) the deadwood "
        "left plus the danger term. With `danger` null, a lower bound."
    )
    goes_out = fields.Boolean(
        metadata={"description": "Discarding this card goes out now (T13-5): the rest is combined."}
    )


@cache
def t13_discard_response_schema(game: str) -> type[Schema]:
    """The Three Thirteen discard answer."""
    card = card_field_for(game, metadata={"description": "The card to discard."})
    option = make_schema(
        schema_name(game, "DiscardOption"), T13DiscardOptionBase, {"card": card}, order=("card",)
    )
    attrs: dict[str, Any] = {
        "game": fields.String(),
        "hand": sorted_hand_field(game),
        "explanation": explanation_field(),
        "options": fields.List(
            fields.Nested(option),
            metadata={
                "description": "Every distinct card of the hand, best first: a discard that goes "
                "out now (T13-5), then the lowest score."
            },
        ),
        "round": fields.Integer(),
        "wild_rank": fields.String(metadata={"description": "This round's wild rank (T13-1)."}),
        "discard": card_field_for(
            game,
            allow_none=True,
            metadata={
                "description": "The recommended discard; null on a last turn (T13-5: the "
                "discard is optional) when keeping every card scores lower."
            },
        ),
        "value": number(
            "Value of the hand when the advice is followed (the best option's score, or "
            "keep_deadwood): what `draw` reports for taking a card (`value_if_take`). Lower is "
            "better."
        ),
        "keep_deadwood": fields.Integer(
            allow_none=True,
            metadata={
                "description": "Last turn only (T13-5): deadwood points of keeping every card "
                "without discarding; null otherwise."
            },
        ),
        "risk": number(
            "Risk aversion 0-0.5 used, from `scores` (the lead over the best opponent per round "
            "left): the weight of the deadwood held now against the expectation."
        ),
        "go_out": fields.Boolean(
            metadata={
                "description": "True: discard `discard` and go out now (T13-5, always recommended "
                "when possible: you score 0). False: hold - discard it and play on."
            }
        ),
        "last_turn": fields.Boolean(
            metadata={"description": "An opponent has gone out: this is your last turn (T13-5)."}
        ),
        "unseen": fields.Integer(
            metadata={"description": "Unseen card copies (not in hand, pile, table or known)."}
        ),
        "seed": fields.Integer(),
        "samples": fields.Integer(
            metadata={"description": "Next-player hands sampled (0 when no danger was needed)."}
        ),
    }
    order = (
        "game",
        "round",
        "wild_rank",
        "hand",
        "discard",
        "go_out",
        "last_turn",
        "value",
        "keep_deadwood",
        "risk",
        "explanation",
        "options",
        "unseen",
        "seed",
        "samples",
    )
    return make_schema(schema_name(game, "DiscardResponse"), Schema, attrs, order=order)


def _deprecated(name: str) -> fields.Float:
    """A deprecated alias of ``name``: the same value, ``deprecated: true`` in the document."""
    return fields.Float(
        allow_none=True,
        metadata={
            "description": f"Deprecated alias of `{name}` (the same value), kept for one minor "
            f"version: read `{name}`.",
            "deprecated": True,
        },
    )


@cache
def t13_draw_response_schema(game: str) -> type[Schema]:
    """The Three Thirteen draw answer."""
    attrs: dict[str, Any] = {
        **draw_common_fields(game),
        "round": fields.Integer(),
        "discard_after_take": card_field_for(
            game,
            allow_none=True,
            metadata={"description": "The card to throw after taking the top discard."},
        ),
        "go_out_chance_if_stock": number(
            "Share of the evaluated stock cards that let you go out this turn (T13-5)."
        ),
        "unseen": fields.Integer(
            metadata={"description": "Unseen card copies the stock card is drawn from."}
        ),
        "value_if_take": number(
            "Value (lower is better) of the hand with the top discard: exactly the `value` of "
            "the `discard` answer on that hand (same seed, default samples). Null without a "
            "discard.",
            allow_none=True,
        ),
        "value_if_stock": number(
            "Mean value of the hand after a stock draw (the same function, over the stock card)."
        ),
        **{old: _deprecated(new) for old, new in DEPRECATED_DRAW_ALIASES.items()},
        "stock_interval": fields.Nested(
            IntervalOut,
            metadata={
                "description": "95% interval of `value_if_stock` (Student's for two or three "
                "stock cards; null bounds when one card settled the choice, being more than "
                f"{CLEAR_MARGIN:g} points from `value_if_take`)."
            },
        ),
        "samples": fields.Integer(
            metadata={"description": "Stock cards evaluated (0 when the choice needed none)."}
        ),
        "exact": fields.Boolean(
            metadata={"description": "Every unseen card was evaluated: `value_if_stock` is exact."}
        ),
        "risk": number("Risk aversion used (see the discard answer)."),
        "seed": fields.Integer(),
    }
    order = (
        "game",
        "round",
        "hand",
        "choice",
        "take_discard",
        "top_discard",
        "value_if_take",
        "value_if_stock",
        "stock_interval",
        "deadwood_if_take",
        "discard_after_take",
        "expected_deadwood_if_stock",
        "go_out_chance_if_stock",
        "risk",
        "explanation",
        "unseen",
        "seed",
        "samples",
        "exact",
        *DEPRECATED_DRAW_ALIASES,
    )
    return make_schema(schema_name(game, "DrawResponse"), Schema, attrs, order=order)


__all__ = [
    "DEPRECATED_DRAW_ALIASES",
    "t13_discard_response_schema",
    "t13_draw_response_schema",
]
