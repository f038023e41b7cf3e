"""Schemas of ``GET /v1/rules`` and ``GET /v1/rules/{id}``: the rules document by entry."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

RULE_GAMES = ("common", "game-flip-flop", "triple-tunk", "three-thirteen")


class RulesQuery(Schema):
    """Query string of ``GET /v1/rules``."""

    game = fields.String(
        validate=validate.OneOf(RULE_GAMES),
        metadata={
            "description": "Only this game's rules (`common` for the C-n rules). The common "
            "rules apply to every game, so filtering by a game also lists them."
        },
    )


class RuleOut(Schema):
    """One rule: the reading the engine applies, in the service's words."""

    id = fields.String(metadata={"description": "Rule id cited in answers (`GFF-10`, `C-3`)."})
    game = fields.String(
        validate=validate.OneOf(RULE_GAMES),
        metadata={"description": "Game slug, or `common`."},
    )
    title = fields.String()
    text = fields.String(
        metadata={"description": "The rule; paragraphs separated by a blank line."}
    )
    house_rule = fields.String(
        allow_none=True,
        metadata={"description": "Name of the `rules` option that switches this reading, or null."},
    )
    url = fields.String(metadata={"description": "This entry's own path (`/v1/rules/{id}`)."})


class RulesOut(Schema):
    """The rules document, entry by entry in document order."""

    url_template = fields.String(
        metadata={"description": "Where a cited id resolves: `/v1/rules/{id}`."}
    )
    rules = fields.List(fields.Nested(RuleOut))
