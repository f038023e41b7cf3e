"""``POST /v1/games/{game}/arrangement``: a proposed arrangement to check (teaching).

The request is the game's melds request (hand, table, seat, players, rules; Three Thirteen's
round and decks) plus ``melds``, the groups the player proposes. Each proposed card must be a
card of the game; whether it is in the hand is part of the verdict (C-1), not a 422, so a
learner's slip is explained rather than refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from marshmallow import Schema, fields, post_load, validate

from api.schemas.common import layoffs_field, make_schema, schema_name
from api.schemas.fields import card_field_for
from api.schemas.melds import (
    MELDS_REQUESTS,
    MeldsQuery,
    MeldsRequestBase,
    arrangement_schema,
)
from engine.core.options import GAMES

MAX_PROPOSED_MELDS = 10


@dataclass(frozen=True, slots=True)
class ArrangementQuery:
    """The validated hand/table/rules plus the proposed melds (each sorted, order kept)."""

    base: MeldsQuery
    melds: tuple[tuple[int, ...], ...]

    def canonical(self) -> dict[str, Any]:
        """Cache-key form: the melds request's plus the proposal."""
        return {**self.base.canonical(), "melds": [list(m) for m in self.melds]}


def _melds_field(game: str) -> fields.List:
    return fields.List(
        fields.List(card_field_for(game), validate=validate.Length(min=1, max=14)),
        required=True,
        validate=validate.Length(max=MAX_PROPOSED_MELDS),
        metadata={
            "description": "The melds the player proposes, each a list of cards from `hand` "
            f"(at most {MAX_PROPOSED_MELDS}); cards in no meld are the proposed deadwood."
        },
    )


@cache
def arrangement_request_schema(game: str) -> type[Schema]:
    """``game``'s melds request plus ``melds``, loading into an :class:`ArrangementQuery`."""
    parent = MELDS_REQUESTS[game]
    names = tuple(n for n in parent.Meta.fields if n not in ("limit", "max_ties"))

    def make_query(self: MeldsRequestBase, data: dict[str, Any], **kwargs: Any) -> Any:
        melds = data.pop("melds")
        data.setdefault("limit", None)
        data.setdefault("max_ties", 0)
        base = MeldsRequestBase.make_query(self, data, **kwargs)
        return ArrangementQuery(base, tuple(tuple(sorted(m)) for m in melds))

    attrs: dict[str, Any] = {
        "melds": _melds_field(game),
        "Meta": type("Meta", (), {"fields": (names[0], "melds", *names[1:])}),
        "make_query": post_load(make_query),
        "__doc__": f"Check a proposed {game} arrangement: the hand, the melds, the context.",
    }
    return type(schema_name(game, "ArrangementRequest"), (parent,), attrs)


class VerdictOutBase(Schema):
    """One proposed meld and the verdict on it."""

    valid = fields.Boolean()
    rule = fields.String(metadata={"description": "The rule id that decides (`/v1/rules/{id}`)."})
    rule_url = fields.String(metadata={"description": "Where that rule's text is served."})
    kind = fields.String(
        allow_none=True,
        validate=validate.OneOf(("set", "run", "meld", "special")),
        metadata={"description": "`set`/`run` (standard decks), `meld`/`special` (Triple Tunk)."},
    )
    reason = fields.String(metadata={"description": "Why, in a sentence."})


class CheckOutBase(Schema):
    """The verdict on a proposed arrangement."""

    game = fields.String()
    all_valid = fields.Boolean(metadata={"description": "Every proposed meld is legal."})
    deadwood_points = fields.Integer(metadata={"description": "Of the proposal (C-2)."})
    best_deadwood_points = fields.Integer()
    difference = fields.Integer(
        metadata={"description": "Proposal's deadwood points minus the best's (0 = optimal)."}
    )
    better_split = fields.Boolean(
        metadata={
            "description": "No meld hides in the deadwood, but splitting the cards "
            "differently leaves less (see `best`)."
        }
    )
    explanation = fields.String(metadata={"description": "The verdict for a learner."})


@cache
def arrangement_response_schema(game: str) -> type[Schema]:
    """Per-game response: cards printed in ``game``'s notation."""
    card = card_field_for(game)
    verdict = make_schema(
        schema_name(game, "MeldVerdict"),
        VerdictOutBase,
        {"cards": fields.List(card_field_for(game))},
        order=("cards", "valid", "rule", "rule_url", "kind", "reason"),
    )
    attrs = {
        "hand": fields.List(card),
        "melds": fields.List(fields.Nested(verdict)),
        "deadwood": fields.List(card_field_for(game)),
        "best": fields.Nested(arrangement_schema(game)),
        "missed_melds": fields.List(
            fields.List(card_field_for(game)),
            metadata={"description": "Legal melds made only of the proposal's deadwood."},
        ),
        "layoffs": layoffs_field(
            game, "Deadwood cards that could go on the table's melds (GFF-3 / TT-8)."
        ),
    }
    return make_schema(
        schema_name(game, "ArrangementResponse"),
        CheckOutBase,
        attrs,
        order=(
            "game",
            "hand",
            "melds",
            "all_valid",
            "deadwood",
            "deadwood_points",
            "best_deadwood_points",
            "difference",
            "missed_melds",
            "better_split",
            "layoffs",
            "best",
            "explanation",
        ),
    )


ARRANGEMENT_REQUESTS = {game: arrangement_request_schema(game) for game in GAMES}
ARRANGEMENT_RESPONSES = {game: arrangement_response_schema(game) for game in GAMES}
