"""``POST /v1/games/{game}/arrangement``: check my arrangement (a teaching endpoint).

The player proposes melds from their hand; the answer judges each (legal or not, the deciding
rule and a link to it), gives the deadwood the proposal leaves and how far it is from the best
arrangement (C-2), and what was missed: a meld in the deadwood, a better split, or a lay-off
onto the table (GFF-3, TT-8). ``engine.teach.check_arrangement`` does the work.
"""

from __future__ import annotations

from typing import Any

from flask_smorest import Blueprint

from api.docs.rules_doc import rule_url
from api.resources._helpers import add_cached_post
from api.resources.examples import ARRANGEMENT_EXAMPLES
from api.resources.melds import MELD_PRESENTERS, arrangement, layoff
from api.schemas.arrangement import ARRANGEMENT_REQUESTS, ARRANGEMENT_RESPONSES, ArrangementQuery
from engine.games import find_game
from engine.teach.check_arrangement import check_arrangement


def check_query(q: ArrangementQuery) -> dict[str, Any]:
    """Run the check and shape the answer (cards as ints; the schema prints them)."""
    base = q.base
    result = check_arrangement(
        base.game,
        base.hand,
        q.melds,
        base.rules,
        round_number=base.round,
        table=base.table,
        seat=base.seat,
    )
    present = MELD_PRESENTERS[find_game(base.game).deck.kind]
    return {
        "game": base.game,
        "hand": list(base.hand),
        "melds": [
            {
                "cards": list(v.cards),
                "valid": v.valid,
                "rule": v.rule,
                "rule_url": rule_url(v.rule),
                "kind": v.kind,
                "reason": v.reason,
            }
            for v in result.verdicts
        ],
        "all_valid": result.all_valid,
        "deadwood": list(result.deadwood),
        "deadwood_points": result.deadwood_points,
        "best_deadwood_points": result.best.deadwood_points,
        "difference": result.difference,
        "missed_melds": [list(m) for m in result.missed_melds],
        "better_split": result.better_split,
        "layoffs": [layoff(lo) for lo in result.layoffs],
        "best": arrangement(result.best, present),
        "explanation": result.explanation,
    }


_DESCRIPTION = (
    "Send the hand and the melds the player proposes (`melds`: lists of cards from `hand`). "
    "Each meld gets a verdict with the rule that decides it (GFF-2, TT-6/TT-7, T13-4, or C-1 "
    "for a card the hand does not hold) and a link to that rule. The answer gives the deadwood "
    "the proposal leaves, the best arrangement (C-2) and the difference, a legal meld left in "
    "the deadwood (`missed_melds`), whether a different split would do better "
    "(`better_split`), and, with a `table`, deadwood cards that could be laid off (GFF-3, "
    "TT-8; Three Thirteen has no lay-offs, T13-7). `explanation` says it all in sentences."
)


def add_routes(blp: Blueprint, game: str) -> None:
    """Register ``POST /arrangement`` for ``game``."""
    add_cached_post(
        blp,
        "/arrangement",
        endpoint="arrangement",
        cache_name="arrangement",
        game=game,
        request_schema=ARRANGEMENT_REQUESTS[game],
        response_schema=ARRANGEMENT_RESPONSES[game],
        answer=check_query,
        response_description="The verdict on each meld and on the whole arrangement.",
        summary="Check my arrangement: is each meld legal, what did I miss (teaching)",
        description=_DESCRIPTION
        + (" Three Thirteen also needs `round`." if find_game(game).rounds is not None else ""),
        example=ARRANGEMENT_EXAMPLES[game],
    )
