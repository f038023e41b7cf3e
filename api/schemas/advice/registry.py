"""Which advice schemas each game uses: one table keyed by game, built once.

The Tunk games (Game Flip Flop, Triple Tunk) share their schema factories and advise on
``discard``, ``draw`` and ``knock``, and learn opponent profiles at ``profile``; Three Thirteen
has its own and neither knock nor profile.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from marshmallow import Schema

from api.schemas.advice.queries import DISCARD, DRAW, KNOCK, PROFILE
from api.schemas.advice.t13 import t13_request_schema
from api.schemas.advice.t13_responses import (
    t13_discard_response_schema,
    t13_draw_response_schema,
)
from api.schemas.advice.tunk_fields import tunk_request_schema
from api.schemas.advice.tunk_responses import (
    tunk_discard_response_schema,
    tunk_draw_response_schema,
    tunk_knock_response_schema,
    tunk_profile_response_schema,
)
from engine.core.options import GAME_FLIP_FLOP, THREE_THIRTEEN, TRIPLE_TUNK


@dataclass(frozen=True, slots=True)
class AdviceSchemas:
    """One family of games' advice schema factories, each called with the game's slug."""

    request: Callable[[str, str], type[Schema]]
    """``request(game, endpoint)``: the request schema."""
    responses: Mapping[str, Callable[[str], type[Schema]]]
    """Per endpoint, ``response(game)``: the answer schema; its keys are the endpoints."""

    @property
    def endpoints(self) -> tuple[str, ...]:
        """The advice endpoints the family has, in route order."""
        return tuple(self.responses)


TUNK_ADVICE = AdviceSchemas(
    request=tunk_request_schema,
    responses={
        DISCARD: tunk_discard_response_schema,
        DRAW: tunk_draw_response_schema,
        KNOCK: tunk_knock_response_schema,
        PROFILE: tunk_profile_response_schema,
    },
)
T13_ADVICE = AdviceSchemas(
    request=t13_request_schema,
    responses={DISCARD: t13_discard_response_schema, DRAW: t13_draw_response_schema},
)
ADVICE_SCHEMAS: dict[str, AdviceSchemas] = {
    GAME_FLIP_FLOP: TUNK_ADVICE,
    TRIPLE_TUNK: TUNK_ADVICE,
    THREE_THIRTEEN: T13_ADVICE,
}
"""Each game's advice schemas."""


def request_schema(game: str, endpoint: str) -> type[Schema]:
    """The request schema of ``game``'s ``endpoint`` advice."""
    return ADVICE_SCHEMAS[game].request(game, endpoint)


def response_schema(game: str, endpoint: str) -> type[Schema]:
    """The answer schema of ``game``'s ``endpoint`` advice."""
    return ADVICE_SCHEMAS[game].responses[endpoint](game)


def discard_response_schema(game: str) -> type[Schema]:
    """``game``'s discard answer."""
    return response_schema(game, DISCARD)


def draw_response_schema(game: str) -> type[Schema]:
    """``game``'s draw answer."""
    return response_schema(game, DRAW)


def knock_response_schema(game: str) -> type[Schema]:
    """``game``'s knock (GFF: drop) answer."""
    return response_schema(game, KNOCK)


__all__ = [
    "ADVICE_SCHEMAS",
    "AdviceSchemas",
    "discard_response_schema",
    "draw_response_schema",
    "knock_response_schema",
    "request_schema",
    "response_schema",
]
