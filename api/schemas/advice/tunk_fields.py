"""Game Flip Flop / Triple Tunk advice request fields, and the per-game request schema classes.

Fields every Tunk game shares are built by :func:`tunk_common_fields`; each game adds its own
(Game Flip Flop: dealer and flip card, stake, bankrolls and carried pots; Triple Tunk: early
tunk claim, waiting counter, unit and running totals) from a table keyed by game, built once.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from marshmallow import Schema, fields, validate

from api.schemas.advice.fields import MAX_OPPONENTS, MAX_WAITING, discard_pile_field
from api.schemas.advice.opponents import opponents_field, tunk_opponent_schema
from api.schemas.advice.queries import DISCARD, DRAW, KNOCK, PROFILE
from api.schemas.advice.tunk import (
    TUNK_DEFAULT_SAMPLES,
    TUNK_MAX_SAMPLES,
    TUNK_REQUEST_BASES,
    hand_limit,
)
from api.schemas.common import (
    cards_field,
    make_schema,
    players_field,
    schema_name,
    seat_field,
    table_field,
)
from api.schemas.fields import (
    MAX_MONEY,
    RulesField,
    StrictBoolean,
    at_most,
    bounded_money,
    card_field_for,
)
from api.schemas.side_pots import money_field
from engine.advice.tunk import knock as tunk_knock
from engine.advice.tunk.draw import DEFAULT_DRAW_PRECISION
from engine.advice.tunk.profile import PROFILE_DRAWS
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK

PLAYERS_DOC = "Seats at the table (required: the advice depends on it)"
_WHEN = {
    DISCARD: "after the draw",
    DRAW: "before the draw",
    KNOCK: "at the start of the turn, before the draw",
    PROFILE: "when the deal ended",
}
_TABLE_DOC = (
    "Melds on the table with their owners and the cards others added (`added`): cards that can "
    "be laid off, and (Triple Tunk) specials that set the TT-14 multipliers."
)
_SAMPLES_NOTE = {
    DISCARD: "The discard figures are exact enumerations over the unseen cards, so `samples` and "
    "`seed` do not change them.",
    DRAW: "Stock cards evaluated for the stock's value, drawn without replacement in a seeded "
    "order until the 95% half-width reaches `precision` or the choice is settled (every unseen "
    "card at most: then the value is exact).",
    KNOCK: "Opponents' hands sampled for `win_probability` and the expected payout.",
    PROFILE: "Not used: each shown hand is read against a fixed number of sampled hands "
    f"({PROFILE_DRAWS} per playing hypothesis).",
}
_SAMPLES_DEFAULT = {
    DISCARD: "not used.",
    DRAW: "every unseen card.",
    KNOCK: f"{TUNK_DEFAULT_SAMPLES} (or the table's work cap if lower); a request above the "
    "table's work cap (players, hand sizes, opponents constrained by the model) gets a 422 "
    "naming the maximum.",
    PROFILE: "not used.",
}
_PRECISION_DOC = {
    DISCARD: "Accepted for symmetry; the discard figures are exact.",
    DRAW: "Target 95% half-width of the stock's value `value_if_stock` (default "
    f"{DEFAULT_DRAW_PRECISION:g}): stock cards are evaluated until it is reached, the choice is "
    "settled, or `samples` cards were evaluated.",
    KNOCK: "Target 95% half-width of `win_probability` (default "
    f"{tunk_knock.DEFAULT_PRECISION:g}): opponents' hands are sampled in batches until it is "
    "reached or `samples` (at most the work cap for the table) were drawn.",
    PROFILE: "Not used.",
}


def _money_field(description: str) -> fields.Integer:
    """``stake`` (GFF) / ``unit`` (TT): a positive whole amount, optional."""
    return bounded_money(metadata={"description": description})


def tunk_common_fields(game: str, endpoint: str) -> dict[str, Any]:
    """The fields every Tunk game's ``endpoint`` request has."""
    return {
        "hand": cards_field(
            game,
            f"The asking player's cards {_WHEN[endpoint]} (at most "
            f"{hand_limit(game, endpoint)})"
            + (", the card to throw among them." if endpoint == DISCARD else "."),
            required=True,
        ),
        "table": table_field(game, _TABLE_DOC),
        "discard_pile": discard_pile_field(
            game, "The discard pile, top card first (the card a `draw` could take is the first)."
        ),
        "players": players_field(game, PLAYERS_DOC, required=True),
        "opponents": opponents_field(tunk_opponent_schema(game)),
        "rules": RulesField(game),
        "samples": fields.Integer(
            strict=True,
            load_default=None,
            validate=validate.Range(
                min=1,
                max=TUNK_MAX_SAMPLES,
                error=f"samples must be between 1 and {TUNK_MAX_SAMPLES} (the hard cap)",
            ),
            metadata={
                "description": f"{_SAMPLES_NOTE[endpoint]} (hard cap {TUNK_MAX_SAMPLES}). "
                f"Default: {_SAMPLES_DEFAULT[endpoint]}"
            },
        ),
        "precision": fields.Float(
            validate=validate.Range(min=0.001, max=10.0),
            metadata={"description": _PRECISION_DOC[endpoint]},
        ),
    }


def gff_fields(game: str) -> dict[str, Any]:
    """Game Flip Flop's own request fields: dealer and flip card (GFF-5), money (GFF-6)."""
    return {
        "dealer": seat_field(
            "The dealer's seat (C-4). Required with `flip_card`: the flip card stays in the "
            "dealer's hand (GFF-5). Default: the seat to the asking player's right."
        ),
        "flip_card": card_field_for(
            game,
            load_default=None,
            allow_none=True,
            metadata={
                "description": "The flip card (GFF-5): it stays in the dealer's hand, so it is "
                "known to be there until it shows up elsewhere."
            },
        ),
        "stake": _money_field(
            "One stake in units (C-3); `knock` then also gives the expected payout in units. "
            "Payouts are always given in stakes. Required with `bankrolls` (GFF-6)."
        ),
        "bankrolls": fields.List(
            fields.Integer(
                strict=True,
                validate=[
                    validate.Range(min=0, error="a bankroll is a whole number of units >= 0"),
                    at_most(MAX_MONEY),
                ],
            ),
            metadata={
                "description": "Each seat's bankroll before this deal, seat 0 first (a settle "
                "answer's `next.bankrolls`), with `stake`: a seat that cannot stake and keep one "
                "stake in reserve (GFF-6: k <= 0) is not dealt in, exactly as `hand_size` 0; "
                "it cannot be the dealer, and the default dealer is the nearest seat to your "
                "right that is dealt in. One entry per seat; your own seat must be dealt in."
            },
        ),
        "flip_carry_in": money_field(
            "Units already in the flip pot from earlier deals (a settle answer's "
            "`next.flip_carry_in`). Accepted so `next` can be sent as is; the advice is about "
            "the game pot (GFF-8..GFF-11), which a carried side pot does not change."
        ),
        "flop_carry_in": money_field(
            "Units carried over in the flop pot (GFF-5; `next.flop_carry_in`). Accepted so "
            "`next` can be sent as is; it does not change the advice (see `flip_carry_in`)."
        ),
    }


def tt_fields(game: str) -> dict[str, Any]:
    """Triple Tunk's own request fields: early tunk (TT-9), waiting (TT-12), unit, totals."""
    return {
        "dealer": seat_field(
            "The dealer's seat (C-4); default: the seat to the asking player's right."
        ),
        "early_tunk_claimed": StrictBoolean(
            load_default=False,
            metadata={
                "description": "The asking player claimed an early tunk (TT-9): a won knock "
                "pays double (TT-14)."
            },
        ),
        "waiting": fields.Integer(
            strict=True,
            load_default=0,
            validate=validate.Range(min=0, max=MAX_WAITING),
            metadata={
                "description": "The asking player's TT-12 waiting counter at the start of this "
                "turn: positive means knocking is not allowed this turn."
            },
        ),
        "unit": _money_field(
            "One unit in money (C-3); `knock` then also gives the expected payout in money. "
            "Payouts are always given in units."
        ),
        "running_totals": fields.List(
            fields.Integer(strict=True),
            metadata={
                "description": "Each seat's money so far, seat 0 first (a settle answer's "
                "`next.running_totals`; one entry per seat). Accepted so `next` can be sent as "
                "is; it does not change the advice: Triple Tunk has no set end, so each hand is "
                "played for its own expected payout (TT-13, TT-14)."
            },
        ),
    }


_HEAD = ("hand", "table", "discard_pile", "seat", "players", "dealer")
_TAIL = ("rules", "seed", "samples", "precision")
TUNK_GAME_FIELDS: dict[str, tuple[Callable[[str], dict[str, Any]], tuple[str, ...]]] = {
    GAME_FLIP_FLOP: (
        gff_fields,
        (
            *_HEAD,
            "flip_card",
            "opponents",
            "stake",
            "bankrolls",
            "flip_carry_in",
            "flop_carry_in",
            *_TAIL,
        ),
    ),
    TRIPLE_TUNK: (
        tt_fields,
        (
            *_HEAD,
            "opponents",
            "early_tunk_claimed",
            "waiting",
            "unit",
            "running_totals",
            *_TAIL,
        ),
    ),
}
"""Each Tunk game's own fields and the order its request schema lists every field in."""


@cache
@cache
def final_hand_schema(game: str) -> type[Schema]:
    """One opponent's hand as shown when the deal ended (``profile`` requests)."""
    return make_schema(
        schema_name(game, "FinalHand"),
        Schema,
        {
            "seat": seat_field("The opponent's seat.", required=True),
            "cards": cards_field(game, "Every card it showed.", required=True),
        },
    )


@cache
def went_out_schema(game: str) -> type[Schema]:
    """The opponent that ended the deal by emptying its hand (``profile`` requests)."""
    return make_schema(
        schema_name(game, "WentOut"),
        Schema,
        {
            "seat": seat_field("The opponent's seat.", required=True),
            "cards": cards_field(
                game,
                "Every card it held after its draw, all laid, laid off or thrown as it went "
                "out: one more than it held at the start of the turn.",
                required=True,
            ),
            "picked_up": card_field_for(
                game,
                load_default=None,
                allow_none=True,
                metadata={
                    "description": "The top discard it took on that turn (the first card of "
                    "`discard_pile`); null or absent: it drew from the stock."
                },
            ),
        },
    )


def profile_fields(game: str) -> dict[str, Any]:
    """The ``profile`` request's own fields: the hands shown at the end and who ended it, or
    the opponent that went out."""
    return {
        "final_hands": fields.List(
            fields.Nested(final_hand_schema(game)),
            load_default=None,
            validate=validate.Length(min=1, max=MAX_OPPONENTS),
            metadata={
                "description": "The opponents' hands as shown when a knock or drop ended the "
                "deal (every hand is shown), one entry per seat; seats left out teach nothing. "
                "Give this or `went_out`."
            },
        ),
        "went_out": fields.Nested(
            went_out_schema(game),
            load_default=None,
            metadata={
                "description": "Instead of `final_hands`, when an opponent ended the deal by "
                "emptying its hand (a tunk out or going out shows no other hand): that "
                "opponent and its cards. The rest of the request is then the situation at the "
                "start of that opponent's turn, before its draw."
            },
        ),
        "ended_by": seat_field(
            "The seat that knocked or dropped, if an opponent: its hand is low because it chose "
            "to end the deal, which says nothing about how it plays, so it is not learned from.",
            load_default=None,
            allow_none=True,
        ),
    }


def tunk_request_schema(game: str, endpoint: str) -> type[Schema]:
    """The request schema of ``endpoint`` (discard/draw/knock/profile) in a Tunk game."""
    own, order = TUNK_GAME_FIELDS[game]
    attrs = {
        **tunk_common_fields(game, endpoint),
        **own(game),
        **(profile_fields(game) if endpoint == PROFILE else {}),
        "game": game,
        "endpoint": endpoint,
    }
    name = schema_name(game, endpoint.capitalize() + "Request")
    attrs["__doc__"] = f"{name}: what the asking player knows, for `{endpoint}` advice."
    return make_schema(name, TUNK_REQUEST_BASES[game], attrs, order=order)


__all__ = ["PLAYERS_DOC", "TUNK_GAME_FIELDS", "tunk_request_schema"]
