"""What the asking player knows about each opponent: the per-game ``opponents`` schemas and the
checks that span them (seats, known cards against hand sizes, deck copies).

Game Flip Flop and Triple Tunk opponents share one base and differ in a few fields (chosen from
a table keyed by game, built once); Three Thirteen's opponent is its own schema.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from marshmallow import Schema, fields, validate

from api.schemas.advice.fields import (
    MAX_HISTORY,
    MAX_OPPONENTS,
    MAX_PASS_TOTAL,
    MAX_TURNS,
    MAX_WAITING,
)
from api.schemas.common import cards_field, check_seat, make_schema, schema_name, seat_field
from api.schemas.fields import StrictBoolean, path_error
from engine.advice.t13 import DISCARDED_NEAR_WEIGHT
from engine.advice.tunk.styles import (
    DEFAULT_DROP_TOTALS,
    DROP_STYLE_PRIOR,
    KEEPS_PRIOR,
    RANDOM_KNOCK,
)
from engine.core.options import GAME_FLIP_FLOP, THREE_THIRTEEN, TRIPLE_TUNK
from engine.games import THREE_THIRTEEN_GAME, find_game


class OpponentBase(Schema):
    """What the asking player knows about one opponent (any seat left out: nothing known)."""

    seat = seat_field("The opponent's seat (0..players-1, not the asking player's).", required=True)


class TunkOpponentBase(OpponentBase):
    """A Game Flip Flop / Triple Tunk opponent."""

    turns = fields.Integer(
        strict=True,
        validate=validate.Range(min=0, max=MAX_TURNS),
        metadata={
            "description": "Turns the opponent has completed this deal (default: the number of "
            "`discarded` cards). An opponent who has played a turn is assumed, usually, to hold no "
            "meld and nothing it could lay off: it would have laid them (opponent model)."
        },
    )


# The API's names of the fixed-total drop styles, in engine.advice.tunk.styles.FIXED_STYLES order.
DROP_TOTAL_NAMES = ("never", "at_5", "at_10", "at_random")

_DEFAULT_TOTALS_TEXT = ", ".join(
    f"{name} {w:.2f}" for name, w in zip(DROP_TOTAL_NAMES, DEFAULT_DROP_TOTALS, strict=True)
)


def _share(description: str) -> fields.Float:
    """A required weight in [0, 1] of a set of shares (normalised when read)."""
    return fields.Float(
        required=True,
        validate=validate.Range(min=0.0, max=1.0),
        metadata={"description": description},
    )


def _learned_chance(description: str) -> fields.Float:
    """An optional learned chance in [0, 1]; null or absent reads the default prior."""
    return fields.Float(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0.0, max=1.0),
        metadata={"description": description},
    )


class DropTotalsIn(Schema):
    """The weights of the fixed-total drop styles of an opponent, learned over earlier deals by
    the `profile` advice (shares: they are normalised)."""

    never = _share("Weight of never dropping (knocking) on a total.")
    at_5 = _share("Weight of dropping (knocking) on any total of 5 or less.")
    at_10 = _share("Weight of dropping (knocking) on any total of 10 or less.")
    at_random = _share(
        f"Weight of dropping (knocking) on {RANDOM_KNOCK:.0%} of turn starts, whatever the total."
    )


class OpponentProfile(Schema):
    """An opponent's card-play profile: the weights of the opponent model's three playing
    hypotheses, learned over earlier deals by the `profile` advice."""

    baseline = _share('Weight of "throws its highest card, lays melds at once".')
    hoarder = _share('Weight of "throws its highest card, holds its melds".')
    random = _share('Weight of "throws any card".')
    drops_when_lowest = _learned_chance(
        'Weight of the drop timing "drops (knocks) when its total is likely the lowest", '
        "learned from the totals it dropped and passed with; against it, the fixed totals "
        "(never, at 5, at 10, at random). While it plays on, such an opponent is read as not "
        f"likely lowest. Null or absent: the default prior ({DROP_STYLE_PRIOR})."
    )
    keeps_flexible = _learned_chance(
        "Triple Tunk: chance that this opponent keeps the black, blob and `?` cards (TT-3, "
        "TT-4: they fit more melds) whatever their points, learned from its discards; such an "
        "opponent is read as holding them above the cards it throws. Null or absent: the "
        f"default prior ({KEEPS_PRIOR}). Game Flip Flop ignores it."
    )
    drop_totals = fields.Nested(
        DropTotalsIn,
        load_default=None,
        allow_none=True,
        metadata={
            "description": "Weights of the fixed-total drop styles this opponent was seen to "
            'follow, that "drops when likely lowest" is weighed against and that the knock '
            "threat reads (Triple Tunk lays its melds under that threat). Null or absent: "
            f"the default prior ({_DEFAULT_TOTALS_TEXT})."
        },
    )


class T13OpponentBase(OpponentBase):
    """A Three Thirteen opponent."""

    hand_size = fields.Integer(
        strict=True,
        validate=validate.Range(min=0, max=THREE_THIRTEEN_GAME.max_hand_size()),
        metadata={"description": "Cards the opponent holds now (default round+2, the deal)."},
    )
    discarded = cards_field(
        THREE_THIRTEEN,
        "Cards the opponent discarded this round, any order, no length limit (a round may run "
        "through several reshuffles, T13-8). Opponent model: a player who throws a card does not "
        "collect around it, so its imagined hand holds cards of that rank, or of that suit "
        f"within two ranks, {DISCARDED_NEAR_WEIGHT:g} times as often.",
        load_default=list,
    )


def _picked_up(game: str) -> fields.List:
    """``picked_up``: cards taken from the pile and still held (at most a full hand)."""
    return cards_field(
        game,
        "Cards the opponent picked up from the discard pile and still holds (known to be in "
        "its hand; never imagined anywhere else).",
        load_default=list,
        validate=validate.Length(max=find_game(game).max_hand_size()),
    )


def _gff_opponent_fields(game: str) -> dict[str, Any]:
    """Game Flip Flop: what it showed for the side pots (GFF-5); 0 cards when not dealt in."""
    deal = find_game(game).deal_size()
    return {
        "shown": "the lowest cards it showed for the flip or flop pot (GFF-5).",
        "hand_size": fields.Integer(
            strict=True,
            validate=validate.Range(min=0, max=find_game(game).max_hand_size()),
            metadata={
                "description": f"Cards the opponent holds now (default {deal}, the deal; 0 when "
                "`bankrolls` show the seat cannot stake). 0: the seat was not dealt in (GFF-6: it "
                "could not keep a stake in reserve, or sits out); it holds no cards, takes no turn "
                "and is not compared at a drop (GFF-8). With `bankrolls`, a seat that cannot "
                "stake must have 0 here and a seat that can stake must not (422)."
            },
        ),
    }


def _tt_opponent_fields(game: str) -> dict[str, Any]:
    """Triple Tunk: its early-tunk hand (TT-9) and its TT-12 waiting counter."""
    deal = find_game(game).deal_size()
    return {
        "shown": "the hand it showed to claim an early tunk (TT-9), less what it has laid or "
        "thrown since.",
        "hand_size": fields.Integer(
            strict=True,
            load_default=deal,
            validate=validate.Range(min=1, max=find_game(game).max_hand_size()),
            metadata={"description": f"Cards the opponent holds now (default {deal}, the deal)."},
        ),
        "waiting": fields.Integer(
            strict=True,
            load_default=0,
            validate=validate.Range(min=0, max=MAX_WAITING),
            metadata={
                "description": "The opponent's TT-12 waiting counter now: 3 per card others "
                "laid on its melds, less one per turn it started. A positive counter at the "
                "start of its next turn means it cannot knock then, so it is no knock threat "
                "before your next turn (the lay-down plan of `discard` holds melds longer)."
            },
        ),
        "early_tunk": StrictBoolean(
            load_default=False,
            metadata={
                "description": "The opponent claimed an early tunk (TT-9): a caught knocker "
                "pays it double (TT-14)."
            },
        ),
    }


_TUNK_OPPONENT_FIELDS: dict[str, Callable[[str], dict[str, Any]]] = {
    GAME_FLIP_FLOP: _gff_opponent_fields,
    TRIPLE_TUNK: _tt_opponent_fields,
}
"""Each Tunk game's own opponent fields (``shown`` is the text of what its shown cards are)."""


@cache
def tunk_opponent_schema(game: str) -> type[Schema]:
    """A Game Flip Flop / Triple Tunk opponent (the card notation and a few fields differ)."""
    own = _TUNK_OPPONENT_FIELDS[game](game)
    shown_doc = own.pop("shown")
    attrs: dict[str, Any] = {
        "picked_up": _picked_up(game),
        "discarded": cards_field(
            game,
            "Cards the opponent discarded this deal, most recent first. The opponent model "
            "weighs by them whether it throws its highest deadwood card (its hidden cards then "
            "rank below the lowest of these) or plays at random (used by `knock`).",
            load_default=list,
            validate=validate.Length(max=MAX_HISTORY),
        ),
        "declined": cards_field(
            game,
            "Top discards the opponent left lying when it drew from the stock instead, most "
            "recent first: it would have taken a card that lowered its hand (used by `knock`). "
            "Any number is accepted; the most recent ones are enough.",
            load_default=list,
            validate=validate.Length(max=MAX_HISTORY),
        ),
        "shown": cards_field(
            game,
            "Cards the opponent has shown and still holds: "
            + shown_doc
            + " Like `picked_up`, known to be in its hand and never imagined anywhere else.",
            load_default=list,
            validate=validate.Length(max=find_game(game).max_hand_size()),
        ),
        "profile": fields.Nested(
            OpponentProfile,
            metadata={
                "description": "The opponent's card-play profile from earlier deals: the "
                "`profiles` entry of a `profile` answer at the end of the last deal, sent back "
                "as is. The opponent model starts this deal from it instead of its default "
                "prior (the weights are normalised; at least one must be above 0). Without it, "
                "every deal reads the opponent afresh."
            },
        ),
        "passes": fields.List(
            fields.Integer(strict=True, validate=validate.Range(min=0, max=MAX_PASS_TOTAL)),
            load_default=list,
            validate=validate.Length(max=MAX_HISTORY),
            metadata={
                "description": "Hand totals (at most 10) the opponent was seen to hold at turn "
                "starts where it could have knocked or dropped and played on (shown at the end of "
                "an earlier deal, or worked out): evidence against the aggressive knocking styles "
                "of the opponent model and, on a total that was likely the lowest, against "
                "dropping when likely lowest (engine.advice.tunk.styles)."
            },
        ),
        **own,
    }
    return make_schema(
        schema_name(game, "AdviceOpponent"),
        TunkOpponentBase,
        attrs,
        order=("seat", "hand_size", "turns"),
    )


@cache
def t13_opponent_schema(game: str) -> type[Schema]:
    """A Three Thirteen opponent."""
    return make_schema(
        schema_name(game, "AdviceOpponent"), T13OpponentBase, {"picked_up": _picked_up(game)}
    )


def opponents_field(opponent: type[Schema]) -> fields.List:
    """A request's ``opponents``: a list of ``opponent`` entries, one per seat at most."""
    return fields.List(
        fields.Nested(opponent),
        load_default=list,
        validate=validate.Length(max=MAX_OPPONENTS),
        metadata={
            "description": "What is known about each opponent, one entry per seat at most. "
            "Seats left out hold the deal's cards with nothing known about them."
        },
    )


def shown_cards(
    data: dict[str, Any], hand: list[int], opponents: list[dict[str, Any]]
) -> list[tuple[str, list[int]]]:
    """Every card group the request shows, with its field path, for the deck-copies check."""
    return (
        [("hand", hand)]
        + [(f"table[{i}].cards", m["cards"]) for i, m in enumerate(data["table"])]
        + [("discard_pile", data["discard_pile"])]
        + [(f"opponents[{i}].picked_up", o["picked_up"]) for i, o in enumerate(opponents)]
        + [(f"opponents[{i}].shown", o["shown"]) for i, o in enumerate(opponents) if "shown" in o]
    )


def check_opponents(raw: Sequence[dict[str, Any]], seat: int, players: int) -> None:
    """Opponent seats in range, not the asking seat, each at most once; known <= held."""
    seen: dict[int, int] = {}
    for i, opp in enumerate(raw):
        where = f"opponents[{i}]"
        check_seat(f"{where}.seat", opp["seat"], players)
        if opp["seat"] == seat:
            raise path_error(f"{where}.seat", "this is the asking player's own seat")
        if opp["seat"] in seen:
            raise path_error(
                f"{where}.seat",
                f"seat {opp['seat']} is listed twice (first at opponents[{seen[opp['seat']]}])",
            )
        seen[opp["seat"]] = i
        size = opp.get("hand_size")
        held = len(opp["picked_up"]) + len(opp.get("shown", ()))
        if size is not None and held > size:
            raise path_error(
                f"{where}.picked_up",
                f"{held} cards known to be held, but the opponent holds {size}",
            )


__all__ = [
    "DROP_TOTAL_NAMES",
    "DropTotalsIn",
    "OpponentProfile",
    "check_opponents",
    "opponents_field",
    "shown_cards",
    "t13_opponent_schema",
    "tunk_opponent_schema",
]
