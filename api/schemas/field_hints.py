"""Clearer messages for fields a game does not take (``round`` sent to Triple Tunk).

marshmallow answers an unexpected field with a bare "Unknown field."; for the fields that belong
to another game the problem's ``errors`` entry (and ``detail``) instead says whose field it is.
Runs as an ``after_request`` step on 422 problems of ``/v1/games/<game>/...`` only.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from flask import Flask, Response, request

from api.http.errors import PROBLEM_MIMETYPE
from engine.games import GAMES, Game

UNKNOWN = "Unknown field."


def _in_rounds(game: Game) -> bool:
    """The game is played in rounds of growing hands and several decks (T13-1, T13-2)."""
    return game.rounds is not None


# field -> (which games take it, what it is)
OTHER_GAMES_FIELDS: dict[str, tuple[Callable[[Game], bool], str]] = {
    "round": (_in_rounds, "the Three Thirteen round (T13-1)"),
    "decks": (_in_rounds, "the number of decks in Three Thirteen (T13-2)"),
}


def hint(game: str, field: str) -> str | None:
    """The message for ``field`` sent to ``game``, or None when there is nothing better to say."""
    known = OTHER_GAMES_FIELDS.get(field)
    if known is None or game not in GAMES or known[0](GAMES[game]):
        return None
    return f"{GAMES[game].title} does not take `{field}`: it is {known[1]}; leave it out"


def _rewrite(response: Response) -> Response:
    if response.status_code != 422 or response.mimetype != PROBLEM_MIMETYPE:
        return response
    parts = request.path.strip("/").split("/")
    if len(parts) != 4 or parts[:2] != ["v1", "games"]:
        return response
    body = json.loads(response.get_data())
    errors = body.get("errors") or {}
    changed = False
    for field, messages in errors.items():
        better = hint(parts[2], field)
        if better is not None and UNKNOWN in messages:
            errors[field] = [better if m == UNKNOWN else m for m in messages]
            body["detail"] = body.get("detail", "").replace(
                f"{field}: {UNKNOWN}", f"{field}: {better}"
            )
            changed = True
    if changed:
        response.set_data(json.dumps(body, ensure_ascii=False, separators=(",", ":")) + "\n")
    return response


def init_field_hints(app: Flask) -> None:
    """Install the rewrite (before gzip and the access log)."""
    app.after_request(_rewrite)
