"""The game registry: one :class:`~engine.games.base.Game` per slug, found with :func:`find_game`.

Each game's own package (``gff``, ``tt``, ``t13``) holds its melds where they differ from the
standard deck's, its play and going out, and its settlement; ``base`` says what a game is.
"""

from __future__ import annotations

from engine.core.errors import EngineError
from engine.games.base import Game
from engine.games.gff.game import GAME as GAME_FLIP_FLOP_GAME
from engine.games.t13.game import GAME as THREE_THIRTEEN_GAME
from engine.games.tt.game import GAME as TRIPLE_TUNK_GAME

_LISTED = (GAME_FLIP_FLOP_GAME, TRIPLE_TUNK_GAME, THREE_THIRTEEN_GAME)
GAMES: dict[str, Game] = {game.slug: game for game in _LISTED}
"""Every game by slug, in the order the service lists them."""


class UnknownGameError(EngineError):
    """The slug names no game of the registry."""


def find_game(slug: str) -> Game:
    """The game called ``slug`` (``game-flip-flop``, ``triple-tunk``, ``three-thirteen``).

    :raises UnknownGameError: for any other name, listing the valid ones.
    """
    try:
        return GAMES[slug]
    except KeyError:
        raise UnknownGameError(
            f"unknown game {slug!r}; games are: {', '.join(GAMES)}", field="game"
        ) from None


__all__ = [
    "GAMES",
    "GAME_FLIP_FLOP_GAME",
    "THREE_THIRTEEN_GAME",
    "TRIPLE_TUNK_GAME",
    "Game",
    "UnknownGameError",
    "find_game",
]
