"""Game Flip Flop / Triple Tunk advice answers: discard, draw and knock (drop).

Both games share every schema; where their words differ (drop or knock, stakes or units, the
rule ids) the text comes from :data:`~api.schemas.advice.words.TUNK_WORDS`, and the two fields
only Game Flip Flop's drop answer has (what a caught drop costs, all in) follow its
``caught_figures``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from marshmallow import Schema, fields

from api.schemas.advice.response_fields import (
    HandEvaluationOut,
    IntervalOut,
    draw_common_fields,
    explanation_field,
    number,
    sorted_hand_field,
)
from api.schemas.advice.words import TUNK_WORDS
from api.schemas.common import make_schema, schema_name
from api.schemas.fields import card_field_for
from api.schemas.melds import layoff_step_schema
from engine.advice.tunk.discard import DANGER_POINTS, OUT_POINTS


class TunkDiscardOptionBase(Schema):
    """One distinct card to discard and its figures (lower `score` is better)."""

    deadwood = fields.Integer(
        metadata={"description": "Deadwood points left in the hand after this discard (C-2)."}
    )
    outs = fields.Integer(
        metadata={
            "description": "Distinct unseen cards that would lower that deadwood after the next "
            "draw and discard."
        }
    )
    expected_deadwood = number(
        "Expected deadwood after the next stock draw and best discard (every unseen card "
        "equally likely)."
    )
    danger = number(
        "Chance (0-1) that the card helps the next player: it lays off on a table meld "
        "(GFF-3 / TT-8), or completes a meld with cards they are known or likely to hold."
    )
    out_chance = number(
        "Share of the unseen cards that would let the hand be emptied after the next draw "
        "(every card melded, or all but one to discard; lay-offs not counted)."
    )
    keep_value = number(
        "Value of the hand kept after this discard, `score` without the danger term: "
        "(deadwood + expected_deadwood) / 2 - out weight x out_chance. The `knock` answer's "
        "`hand_value` for that hand."
    )


def tunk_score_doc(game: str) -> str:
    """How the engine scores a Tunk discard option (its weights, read from the engine)."""
    out = OUT_POINTS.get(game, 0.0)
    return (
        f"(deadwood + expected_deadwood) / 2 + {DANGER_POINTS:g} x danger - {out:g} x "
        "out_chance; lower is better."
    )


@cache
def tunk_discard_response_schema(game: str) -> type[Schema]:
    """A Tunk game's discard answer: the ranking and the lay-down plan."""
    words = TUNK_WORDS[game]
    option = make_schema(
        schema_name(game, "DiscardOption"),
        TunkDiscardOptionBase,
        {
            "card": card_field_for(game, metadata={"description": "The card to discard."}),
            "score": number(tunk_score_doc(game)),
        },
        order=("card",),
    )
    attrs: dict[str, Any] = {
        "game": fields.String(),
        "hand": sorted_hand_field(game),
        "explanation": explanation_field(),
        "options": fields.List(
            fields.Nested(option),
            metadata={
                "description": "Every distinct card of the hand, lowest score first. When the "
                "hand can end now (`ends`), `discard` is the recommendation whatever the scores "
                "say."
            },
        ),
        "discard": card_field_for(
            game,
            allow_none=True,
            metadata={
                "description": "The recommended discard; null when the hand tunks out with no "
                "discard (two 3-card melds, GFF-9 / TT-11)."
            },
        ),
        "ends": fields.String(allow_none=True, metadata={"description": words.ends}),
        "lay_melds": fields.Boolean(metadata={"description": words.lay_melds}),
        "melds_to_lay": fields.List(
            fields.List(card_field_for(game)),
            metadata={
                "description": "The plan: new melds to lay down this turn, before the lay-offs "
                "and the discard (empty: lay none). " + words.melds_to_lay
            },
        ),
        "layoffs": fields.List(
            fields.Nested(layoff_step_schema(game)),
            metadata={
                "description": "The plan's lay-offs, in laying order, after `melds_to_lay` "
                "(meld indexes: the request's table, then the new melds): the best set that "
                "can all be made together (GFF-3 / TT-8, at most 5 cards a meld)."
            },
        ),
        "knock_threat": number(
            "Chance that some opponent knocks (TT-13) before your next turn, from the opponent "
            "model and its styles (0 in Game Flip Flop, and when the hand holds no meld)."
        ),
        "value": number(
            "The hand's value (lower is better): the recommended option's `score`, or "
            f"{-2 * OUT_POINTS.get(game, 0.0):g} when the hand ends now. `draw` reports the same "
            "number for this hand (`value_if_take`)."
        ),
    }
    order = (
        "game",
        "hand",
        "discard",
        "ends",
        "lay_melds",
        "melds_to_lay",
        "layoffs",
        "knock_threat",
        "value",
        "explanation",
        "options",
    )
    return make_schema(schema_name(game, "DiscardResponse"), Schema, attrs, order=order)


@cache
def tunk_draw_response_schema(game: str) -> type[Schema]:
    """A Tunk game's draw answer: the top discard's certain value against the stock's mean."""
    attrs: dict[str, Any] = {
        **draw_common_fields(game),
        "deadwood_now": fields.Integer(
            metadata={"description": "Deadwood of the hand before the draw (C-2)."}
        ),
        "value_if_take": number(
            "Value (lower is better) of the hand after taking the top discard: exactly the "
            "`value` the `discard` endpoint answers for that hand. Null without a discard.",
            allow_none=True,
        ),
        "value_if_stock": number(
            "Mean of the same value over the stock cards (each unseen card equally likely)."
        ),
        "stock_interval": fields.Nested(
            IntervalOut,
            metadata={
                "description": "95% interval of `value_if_stock` (zero width when every unseen "
                "card was evaluated)."
            },
        ),
        "discard_after_take": card_field_for(
            game,
            allow_none=True,
            metadata={
                "description": "The card the `discard` advice throws after taking the top "
                "discard (null: none, or the take ends the hand)."
            },
        ),
        "throw_back": fields.Boolean(
            metadata={
                "description": "True when the advised line is a pass: take the top discard and "
                "throw it straight back (C-5); the explanation says why."
            }
        ),
        "seed": fields.Integer(),
        "samples": fields.Integer(
            metadata={"description": "Stock cards evaluated for `value_if_stock`."}
        ),
        "hand_value": number(
            "Value of the hand before the draw, kept as it is (the one hand evaluation: the "
            "`keep_value` `discard` gives the option that leaves this hand, and the "
            "`hand_value` `knock` weighs for playing on)."
        ),
    }
    order = (
        "game",
        "hand",
        "choice",
        "take_discard",
        "top_discard",
        "discard_after_take",
        "throw_back",
        "deadwood_now",
        "deadwood_if_take",
        "expected_deadwood_if_stock",
        "value_if_take",
        "value_if_stock",
        "stock_interval",
        "explanation",
        "seed",
        "samples",
    )
    return make_schema(schema_name(game, "DrawResponse"), Schema, attrs, order=order)


@cache
def tunk_knock_response_schema(game: str) -> type[Schema]:
    """A Tunk game's knock (GFF: drop) answer."""
    words = TUNK_WORDS[game]
    word, unit = words.knock, words.unit
    attrs: dict[str, Any] = {
        "game": fields.String(),
        "hand": sorted_hand_field(game),
        "hand_total": fields.Integer(
            metadata={"description": "Points of every card in hand (what is shown and totalled)."}
        ),
        "knock": fields.Boolean(
            metadata={"description": f"The advice: {word} now (true) or play on (false)."}
        ),
        "allowed": fields.Boolean(metadata={"description": words.allowed}),
        "win_probability": number(
            "Chance that your total is strictly the lowest now (Monte Carlo over opponents' "
            "hands drawn by the opponent model)."
        ),
        "interval": fields.Nested(
            IntervalOut,
            metadata={"description": "95% Wilson interval of `win_probability` over `samples`."},
        ),
        "expected_payout": number(
            f"Expected settlement of {word}ping now, in {unit} ({words.knock_rule})."
        ),
        "payout_if_win": number(f"What a won {word} pays you, in {unit}."),
        "value_of_playing_on": number(
            f"Estimated value of playing on instead, in {unit}: {words.play_on}"
        ),
        "hand_value": number(
            "The hand's value in the one hand evaluation that `discard` and `draw` use "
            "(`hand_evaluation.value`; lower is better): what playing on is worth is read from it."
        ),
        "hand_evaluation": fields.Nested(
            HandEvaluationOut,
            metadata={"description": "The figures of that evaluation for the hand as it is."},
        ),
        "unit": fields.String(metadata={"description": f"`{unit}`: the unit of the payouts."}),
        "explanation": explanation_field(),
        "seed": fields.Integer(),
        "samples": fields.Integer(),
        "expected_payout_money": number(
            f"`expected_payout` x `{words.money}` when the request gives `{words.money}`, else "
            "null.",
            allow_none=True,
        ),
    }
    if words.caught_figures:
        attrs["payout_if_caught"] = number(
            "What a caught drop costs you, in stakes (GFF-8: your stake and one extra stake, "
            "settled by the settlement itself with the request's `bankrolls` and `stake`)."
        )
        attrs["all_in"] = fields.Boolean(
            metadata={
                "description": "You stake in the game pot only (GFF-6 with `bankrolls` and "
                "`stake`): unless you win the game pot, by a drop or otherwise, you are "
                "eliminated."
            }
        )
    order = (
        "game",
        "hand",
        "hand_total",
        "knock",
        "allowed",
        "win_probability",
        "interval",
        "expected_payout",
        "expected_payout_money",
        "payout_if_win",
        "value_of_playing_on",
        "unit",
        "explanation",
        "seed",
        "samples",
    )
    return make_schema(schema_name(game, "KnockResponse"), Schema, attrs, order=order)


class HypothesisWeightsOut(Schema):
    """A weight (or likelihood) per playing hypothesis of the opponent model."""

    baseline = number("Throws its highest card and lays its melds at once.")
    hoarder = number("Throws its highest card and holds its melds.")
    random = number("Throws any card.")


class DropTotalsOut(Schema):
    """The weights of the fixed-total drop styles (shares summing to 1)."""

    never = number("Never drops (knocks) on a total.")
    at_5 = number("Drops (knocks) on any total of 5 or less.")
    at_10 = number("Drops (knocks) on any total of 10 or less.")
    at_random = number("Drops (knocks) now and then, whatever the total.")


class ProfileOut(HypothesisWeightsOut):
    """An opponent's profile: its card-play weights and its drop timing."""

    drops_when_lowest = number(
        'Weight of the drop timing "drops (knocks) when its total is likely the lowest".'
    )
    keeps_flexible = fields.Float(
        allow_none=True,
        metadata={
            "description": "Triple Tunk: chance that this opponent keeps the black, blob and `?` "
            "cards whatever their points, after this deal's discards (null in Game Flip Flop)."
        },
    )
    drop_totals = fields.Nested(
        DropTotalsOut,
        metadata={
            "description": 'The fixed-total drop styles "drops when likely lowest" is weighed '
            "against, as learned for this opponent."
        },
    )


def _weights_field(description: str) -> fields.Nested:
    """A nullable set of per-hypothesis figures."""
    return fields.Nested(
        HypothesisWeightsOut, allow_none=True, metadata={"description": description}
    )


@cache
def tunk_profile_response_schema(game: str) -> type[Schema]:
    """A Tunk game's profile answer: each opponent's card-play profile for the next deal."""
    entry = make_schema(
        schema_name(game, "ProfileEntry"),
        Schema,
        {
            "seat": fields.Integer(),
            "profile": fields.Nested(
                ProfileOut,
                allow_none=True,
                metadata={
                    "description": "The profile to send back as this opponent's `profile` in "
                    "the next deal (card-play weights summing to 1, and the drop timing "
                    "weight); null: none yet (the default prior)."
                },
            ),
            "learned": fields.Boolean(
                metadata={"description": "Whether this deal's shown hand moved the profile."}
            ),
            "shown_total": fields.Integer(
                allow_none=True,
                metadata={"description": "Points of the hand it showed (null: not shown)."},
            ),
            "likelihoods": _weights_field(
                "Relative likelihood of `shown_total` under each hypothesis alone (null when "
                "not learned from)."
            ),
            "reason": fields.String(
                metadata={"description": "Why the hand was not learned from (empty if it was)."}
            ),
        },
    )
    attrs: dict[str, Any] = {
        "game": fields.String(),
        "profiles": fields.List(
            fields.Nested(entry),
            metadata={"description": "Every opponent, clockwise from your left."},
        ),
        "explanation": explanation_field(),
        "seed": fields.Integer(),
    }
    return make_schema(schema_name(game, "ProfileResponse"), Schema, attrs)


__all__ = [
    "tunk_discard_response_schema",
    "tunk_draw_response_schema",
    "tunk_knock_response_schema",
    "tunk_profile_response_schema",
]
