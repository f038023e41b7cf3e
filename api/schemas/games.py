"""``GET /v1/games``: what each game is played with, built from the engine's own tables."""

from __future__ import annotations

from marshmallow import Schema, fields


class DeckOut(Schema):
    """The deck a game uses and how its cards are written."""

    kind = fields.String(metadata={"description": "`standard` (52 cards) or `triple-topper`."})
    size = fields.Integer(metadata={"description": "Cards in one deck."})
    max_decks = fields.Integer(
        metadata={"description": "Most decks a request may combine (`decks`, Three Thirteen)."}
    )
    notation = fields.String(metadata={"description": "How to write a card in requests."})
    examples = fields.List(fields.String(), metadata={"description": "Canonical card names."})


class PlayersOut(Schema):
    """How many seats the game takes."""

    min = fields.Integer()
    max = fields.Integer()


class HandSizeOut(Schema):
    """Dealt and largest hand sizes (per round in Three Thirteen, T13-1)."""

    round = fields.Integer(allow_none=True, metadata={"description": "Round (Three Thirteen)."})
    dealt = fields.Integer(metadata={"description": "Cards dealt."})
    max = fields.Integer(metadata={"description": "Most cards held (after drawing)."})
    wild_rank = fields.String(
        allow_none=True, metadata={"description": "Wild rank of the round (T13-1), else null."}
    )


class OptionOut(Schema):
    """A house-rule option accepted in the request's `rules` object."""

    name = fields.String()
    type = fields.String(metadata={"description": "`string` or `array of integers`."})
    default = fields.Raw(metadata={"description": "Value used when the option is omitted."})
    allowed = fields.List(fields.Raw(), metadata={"description": "Allowed values (or items)."})
    rule = fields.String(metadata={"description": "Rule id (docs/rules.md) of the house rule."})
    description = fields.String()


class GameOut(Schema):
    """One game the service analyses."""

    game = fields.String(metadata={"description": "The `{game}` path segment."})
    title = fields.String()
    deck = fields.Nested(DeckOut)
    players = fields.Nested(PlayersOut)
    hand_sizes = fields.List(fields.Nested(HandSizeOut))
    options = fields.List(fields.Nested(OptionOut))
    endpoints = fields.List(fields.String(), metadata={"description": "Analysis endpoints."})


class GamesOut(Schema):
    """Every game, its deck, notation, hand sizes and house-rule options."""

    games = fields.List(fields.Nested(GameOut))
