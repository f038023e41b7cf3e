"""``GET /v1/games``: the catalogue of games, read from the engine (rules, decks, hand sizes).

Nothing here is a hand-kept copy of an engine table: options, defaults and allowed values come
from ``engine.core.options``; titles, seat ranges, decks, hand sizes and which endpoints a game
has (early win, side pots, knock) from its :class:`~engine.games.base.Game`.
"""

from __future__ import annotations

import re
from dataclasses import fields as dataclass_fields
from typing import Any

from flask_smorest import Blueprint

from api.resources.advice import endpoints_for
from api.schemas.games import GamesOut
from engine.core.cards import RANK_NAMES
from engine.core.options import (
    EARLY_TUNK_RANGE,
    GAMES,
    OPTION_CHOICES,
    RULES_CLASSES,
    canonical_rules,
    default_rules,
)
from engine.games import find_game

_RULE_ID = re.compile(r"^([A-Z0-9]+-\d+)")


def _options(game: str) -> list[dict[str, Any]]:
    """House-rule options of ``game`` from its engine rules class (defaults and allowed values)."""
    cls = RULES_CLASSES[game]
    doc = (cls.__doc__ or "").strip()
    match = _RULE_ID.match(doc)
    defaults = canonical_rules(default_rules(game))
    out: list[dict[str, Any]] = []
    for f in dataclass_fields(cls):
        allowed: list[Any]
        if f.name in OPTION_CHOICES:
            kind, allowed = "string", list(OPTION_CHOICES[f.name])
        else:
            kind, allowed = "array of integers", list(EARLY_TUNK_RANGE)
        out.append(
            {
                "name": f.name,
                "type": kind,
                "default": defaults[f.name],
                "allowed": allowed,
                "rule": match.group(1) if match else "",
                "description": doc,
            }
        )
    return out


def _hand_sizes(game: str) -> list[dict[str, Any]]:
    rules_of = find_game(game)
    if rules_of.rounds is None:
        return [
            {
                "round": None,
                "dealt": rules_of.deal_size(),
                "max": rules_of.max_hand_size(),
                "wild_rank": None,
            }
        ]
    return [
        {
            "round": r,
            "dealt": rules_of.deal_size(r),
            "max": rules_of.max_hand_size(r),
            # T13-1: the wild rank equals the deal size
            "wild_rank": RANK_NAMES[rules_of.deal_size(r) - 1],
        }
        for r in range(1, rules_of.rounds + 1)
    ]


def _deck(game: str) -> dict[str, Any]:
    """The game's deck as the engine describes it (C-1, GFF-1, TT-1, T13-2)."""
    deck = find_game(game).deck
    return {
        "kind": deck.kind,
        "size": deck.size,
        "max_decks": deck.max_decks,
        "notation": deck.notation,
        "examples": list(deck.examples),
    }


def _endpoints(game: str) -> list[str]:
    """The game's endpoints, in the order its blueprint registers them."""
    rules_of = find_game(game)
    names = [
        "melds",
        *(("early-tunk",) if rules_of.early_win else ()),
        *(("side-pots",) if rules_of.side_pots else ()),
        "settle",
        *endpoints_for(game),
        "arrangement",
    ]
    return [f"POST /v1/games/{game}/{name}" for name in names]


def catalogue() -> dict[str, Any]:
    """The ``GET /v1/games`` body."""
    return {
        "games": [
            {
                "game": game,
                "title": find_game(game).title,
                "deck": _deck(game),
                "players": dict(zip(("min", "max"), find_game(game).players, strict=True)),
                "hand_sizes": _hand_sizes(game),
                "options": _options(game),
                "endpoints": _endpoints(game),
            }
            for game in GAMES
        ]
    }


def make_blueprint() -> Blueprint:
    """The ``games`` blueprint (a fresh one per app, so several apps can coexist in tests)."""
    blp = Blueprint(
        "games",
        __name__,
        url_prefix="/v1/games",
        description="The games the service knows: decks, card notation, hand sizes, house rules.",
    )

    @blp.route("", methods=["GET"])
    @blp.response(200, GamesOut, description="The catalogue of games.")
    @blp.doc(
        summary="List the games, decks, card notation, hand sizes and house-rule options",
        description="Everything a client needs to build requests: the `{game}` path segments, "
        "each game's deck and card notation (GFF-1, TT-1, T13-1/T13-2), seat range, hand sizes "
        "(per round for Three Thirteen, with the wild rank), and each house-rule option of the "
        "`rules` object with its default and allowed values.",
    )
    def list_games() -> dict[str, Any]:
        return catalogue()

    return blp
