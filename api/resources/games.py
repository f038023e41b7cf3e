"""``GET /v1/games``: the catalogue of games, read from the engine (rules, decks, hand sizes).

Nothing here is a hand-kept copy of an engine table: options, defaults and allowed values come
from ``engine.core.options``, hand sizes from ``engine.games.hands``, card names from the card
modules. Only
the titles and seat ranges (RULES.md GFF-1, TT-1) live in ``api.schemas.common``.
"""

from __future__ import annotations

import re
from dataclasses import fields as dataclass_fields
from typing import Any

from flask_smorest import Blueprint

from api.schemas.common import GAME_TITLES, PLAYER_RANGE
from api.schemas.fields import STD_NOTATION, TOPPER_NOTATION
from api.schemas.games import GamesOut
from engine.core.cards import RANK_NAMES, card_name
from engine.core.options import (
    EARLY_TUNK_RANGE,
    GAME_FLIP_FLOP,
    GAMES,
    OPTION_CHOICES,
    RULES_CLASSES,
    THREE_THIRTEEN,
    TRIPLE_TUNK,
    canonical_rules,
    default_rules,
)
from engine.core.topper import DECK as TOPPER_DECK
from engine.core.topper import topper_card_name
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
    if game == TRIPLE_TUNK:
        return {
            "kind": "triple-topper",
            "size": len(TOPPER_DECK),
            "max_decks": 1,
            "notation": TOPPER_NOTATION,
            "examples": [topper_card_name(c) for c in (0, 37, 124)],
        }
    return {
        "kind": "standard",
        "size": 52,
        "max_decks": find_game(game).deck.max_decks,
        "notation": STD_NOTATION,
        "examples": [card_name(c) for c in (0, 22, 37, 51)],
    }


def _endpoints(game: str) -> list[str]:
    names = ["melds", "settle", "discard", "draw"]
    if game != THREE_THIRTEEN:
        names.insert(1, "early-tunk")
        names.append("knock")
    if game == GAME_FLIP_FLOP:
        names.insert(2, "side-pots")
    names.append("arrangement")
    return [f"POST /v1/games/{game}/{name}" for name in names]


def catalogue() -> dict[str, Any]:
    """The ``GET /v1/games`` body."""
    return {
        "games": [
            {
                "game": game,
                "title": GAME_TITLES[game],
                "deck": _deck(game),
                "players": dict(zip(("min", "max"), PLAYER_RANGE[game], strict=True)),
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
