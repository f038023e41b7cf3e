"""``GET /v1/rules`` and ``GET /v1/rules/{id}``: the text behind every rule id an answer cites.

The text comes from ``docs/rules.md`` (``api.docs.rules_doc``). Both documents are static per
release, so they carry an ETag and ``Cache-Control`` (``api.http.conditional``).
"""

from __future__ import annotations

from typing import Any

from flask_smorest import Blueprint

from api.docs.rules_doc import RULE_URL_TEMPLATE, RuleEntry, all_rules, rule_url, rules_by_id
from api.http.errors import problem
from api.schemas.rules import RuleOut, RulesOut, RulesQuery

_EXAMPLE_RULE = {
    "id": "GFF-10",
    "game": "game-flip-flop",
    "title": "Going out",
    "text": "A player who ends a turn with an empty hand in any other way (by discarding their "
    "last card, or by laying or adding their last cards) takes the game pot.",
    "house_rule": None,
    "url": "/v1/rules/GFF-10",
}


def rule_body(entry: RuleEntry) -> dict[str, Any]:
    """One entry as the API prints it."""
    return {
        "id": entry.id,
        "game": entry.game,
        "title": entry.title,
        "text": entry.text,
        "house_rule": entry.house_rule,
        "url": rule_url(entry.id),
    }


def make_blueprint() -> Blueprint:
    """The ``rules`` blueprint (fresh per app)."""
    blp = Blueprint(
        "rules",
        __name__,
        url_prefix="/v1/rules",
        description="The rules the engine applies, by id: every `rule` an answer cites "
        "resolves at `/v1/rules/{id}`.",
    )

    @blp.route("", methods=["GET"])
    @blp.arguments(RulesQuery, location="query", as_kwargs=True)
    @blp.response(
        200,
        RulesOut,
        description="The rules, in document order.",
        example={"url_template": RULE_URL_TEMPLATE, "rules": [_EXAMPLE_RULE]},
    )
    @blp.doc(
        operationId="listRules",
        summary="List the rules (all, or one game's plus the common ones)",
        description="Each entry is one reading of the rule sheets, with the `rules` option "
        "that switches it when tables play it differently (`house_rule`).",
    )
    def list_rules(game: str | None = None) -> dict[str, Any]:
        entries = [e for e in all_rules() if game is None or e.game == game or e.game == "common"]
        return {"url_template": RULE_URL_TEMPLATE, "rules": [rule_body(e) for e in entries]}

    @blp.route("/<string:rule_id>", methods=["GET"])
    @blp.response(200, RuleOut, description="The rule.", example=_EXAMPLE_RULE)
    @blp.alt_response(404, description="No rule has this id; the body lists the valid ids.")
    @blp.doc(
        operationId="getRule",
        summary="One rule by id (`GFF-10`, `TT-14`, `T13-5`, `C-3`, ...)",
        description="Ids are case-insensitive (`gff-10` works).",
    )
    def get_rule(rule_id: str) -> Any:
        entry = rules_by_id().get(rule_id.upper())
        if entry is None:
            ids = ", ".join(e.id for e in all_rules())
            return problem(
                404,
                f"There is no rule {rule_id!r}. Rule ids are: {ids}. "
                f"GET {RULE_URL_TEMPLATE.format(id='')[:-1]} lists them with their text.",
                {"rule_id": [f"unknown rule id; one of {ids}"]},
            )
        return rule_body(entry)

    return blp
