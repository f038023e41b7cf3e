"""Registers every /v1 resource blueprint on the flask-smorest Api.

Routes are registered explicitly per game: one blueprint per game (its OpenAPI tag) holding that
game's endpoints with that game's schemas, so the document shows the right card notation for each
game and an unknown ``{game}`` has no route at all (404). Endpoints a game does not have (early
tunk in Three Thirteen, side pots outside Game Flip Flop) are simply not registered (404).
"""

from __future__ import annotations

from flask_smorest import Api, Blueprint

from api.resources import (
    advice,
    arrangement,
    batch,
    early_tunk,
    games,
    melds,
    rules,
    settle,
    side_pots,
)
from engine.games import GAMES, find_game

_GAME_DESCRIPTIONS = {
    "game-flip-flop": "Game, Flip, Flop: standard 52-card deck, 2-8 players, five cards each; "
    "spreads (GFF-2), lay-offs (GFF-3), 49/50 (GFF-4), flip and flop pots (GFF-5/GFF-6), "
    "dropping, tunking out and going out (GFF-8 to GFF-11).",
    "triple-tunk": "Triple Tunk: the 125-card Triple Topper deck, 3-6 players, five cards each; "
    "melds on colour/shape/number with wilds (TT-3 to TT-7), early tunk (TT-9), tunk out shapes "
    "(TT-11), knocking (TT-13) and multipliers (TT-14).",
    "three-thirteen": "Three Thirteen: standard decks, 11 rounds dealing 3 to 13 cards with a "
    "rotating wild rank (T13-1), sets and runs with wilds (T13-4), going out (T13-5) and scoring "
    "(T13-6). No lay-offs (T13-7).",
}


def game_blueprint(game: str) -> Blueprint:
    """A fresh blueprint with every endpoint ``game`` has, under ``/v1/games/<game>``."""
    rules_of = find_game(game)
    blp = Blueprint(
        game,
        __name__,
        url_prefix=f"/v1/games/{game}",
        description=_GAME_DESCRIPTIONS.get(game, rules_of.title),
    )
    melds.add_routes(blp, game)
    if rules_of.early_win:  # GFF-4 49/50, TT-9 early tunk
        early_tunk.add_routes(blp, game)
    if rules_of.side_pots:  # GFF-5 flip and flop
        side_pots.add_routes(blp)
    settle.add_routes(blp, game)
    arrangement.add_routes(blp, game)  # check my arrangement (teaching)
    advice.add_routes(blp, game)  # discard, draw, knock/drop
    return blp


def register_blueprints(api: Api) -> None:
    """Attach the games catalogue and one blueprint per game to ``api``."""
    api.register_blueprint(games.make_blueprint())
    api.register_blueprint(rules.make_blueprint())
    api.register_blueprint(batch.make_blueprint())
    for game in GAMES:
        api.register_blueprint(game_blueprint(game))
