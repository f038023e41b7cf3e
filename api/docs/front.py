"""The front door: ``GET /`` says what the service is and where to go, and 404s that guide.

A request for a game the service does not know (``/v1/games/gin-rummy/melds``,
``/v1/games/Game-Flip-Flop/melds``) gets a 404 that lists the valid games, suggests the closest
one and points to ``GET /v1/games``; an endpoint a known game does not have gets a 404 listing
that game's endpoints. Every other 404 keeps the standard problem answer.
"""

from __future__ import annotations

import difflib
from typing import Any

import marshmallow as ma
from flask import Flask, Response, current_app, request
from flask_smorest import Api, Blueprint
from werkzeug.exceptions import HTTPException

from api.about import API_TITLE, __version__
from api.http.errors import http_exception_problem, problem
from engine import ENGINE_VERSION
from engine.core.options import GAMES

blp = Blueprint("front", __name__, description="The service's front door.")

LINKS = {
    "docs": "/docs",
    "openapi": "/openapi.yaml",
    "games": "/v1/games",
    "rules": "/v1/rules",
    "batch": "/v1/batch",
    "health": "/healthz",
    "metrics": "/metrics",
}


class IndexSchema(ma.Schema):
    """What the service is, its versions and where to start."""

    service = ma.fields.String()
    description = ma.fields.String()
    version = ma.fields.String(metadata={"description": "HTTP API version."})
    engine_version = ma.fields.String(metadata={"description": "Rules engine version."})
    games = ma.fields.List(ma.fields.String(), metadata={"description": "`{game}` slugs."})
    links = ma.fields.Dict(
        keys=ma.fields.String(),
        values=ma.fields.String(),
        metadata={"description": "Paths of the documents and collections."},
    )


def index_body() -> dict[str, Any]:
    """The ``GET /`` body."""
    return {
        "service": API_TITLE,
        "description": "Hand analysis, advice, rules and settlement for Game Flip Flop, "
        "Triple Tunk and Three Thirteen.",
        "version": __version__,
        "engine_version": ENGINE_VERSION,
        "games": list(GAMES),
        "links": dict(LINKS),
    }


@blp.route("/")
@blp.response(200, IndexSchema, description="The service and its links.")
@blp.doc(operationId="getIndex", summary="What this service is and where to start")
def index() -> dict[str, Any]:
    """Service name, versions, games and links to the docs, the spec, the games and the rules."""
    return index_body()


def game_endpoints(app: Flask, game: str) -> list[str]:
    """The endpoint names registered for ``game`` (``melds``, ``settle``, ...)."""
    prefix = f"/v1/games/{game}/"
    return sorted(
        {r.rule[len(prefix) :] for r in app.url_map.iter_rules() if r.rule.startswith(prefix)}
    )


def unknown_game_problem(app: Flask, path: str) -> Response | None:
    """A guiding 404 for ``/v1/games/<game>/...``, or None if ``path`` is not under it."""
    parts = path.strip("/").split("/")
    if len(parts) < 3 or parts[:2] != ["v1", "games"]:
        return None
    game = parts[2]
    valid = ", ".join(GAMES)
    if game not in GAMES:
        normal = game.lower().replace("_", "-").replace(" ", "-")
        close = difflib.get_close_matches(normal, GAMES, n=1, cutoff=0.6)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        message = f"unknown game {game!r}; valid games: {valid}"
        return problem(
            404,
            f"There is no game {game!r}.{hint} Valid games: {valid}. "
            "GET /v1/games lists each game with its endpoints.",
            {"game": [message]},
        )
    if len(parts) >= 4:
        endpoints = game_endpoints(app, game)
        asked = "/".join(parts[3:])
        return problem(
            404,
            f"{game} has no {asked!r} endpoint. Its endpoints: {', '.join(endpoints)} "
            "(GET /v1/games lists every game's).",
            {"endpoint": [f"unknown endpoint {asked!r} for {game}; one of {', '.join(endpoints)}"]},
        )
    return None


def register_front(app: Flask, api: Api) -> None:
    """Attach ``GET /`` (documented) and the guiding 404 handler."""
    api.register_blueprint(blp)

    def not_found(error: HTTPException) -> Response:
        return unknown_game_problem(current_app, request.path) or http_exception_problem(error)

    app.register_error_handler(404, not_found)
