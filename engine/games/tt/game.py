"""Triple Tunk as a :class:`~engine.games.base.Game` (TT-1..TT-14), with the meld sizes (TT-6)
and the TT-11 tunk-out shapes: defined here once, read by ``engine.games.tt.melds`` and
``engine.games.tt.play`` and, through ``GAME.extra``, by the API's schemas."""

from typing import Literal

from engine.core.deck import TRIPLE_TOPPER
from engine.core.options import TRIPLE_TUNK, TripleTunkRules
from engine.games.base import Game

MIN_MELD = 3
"""TT-6: the fewest cards of a meld."""
MAX_MELD = 5
"""TT-6, TT-8: the most cards of a meld, lay-offs included."""

TunkShape = Literal[
    "five_meld", "two_three_melds", "three_meld_two_layoffs", "four_meld_one_layoff"
]
"""The name of a TT-11 tunk-out shape."""

TUNK_SHAPES: dict[TunkShape, tuple[tuple[int, ...], int, bool]] = {
    "five_meld": ((5,), 0, True),
    "two_three_melds": ((3, 3), 0, False),
    "three_meld_two_layoffs": ((3,), 2, True),
    "four_meld_one_layoff": ((4,), 1, True),
}
"""TT-11 shapes in canonical order: (own meld sizes, cards laid sideways on opponents' melds,
whether the turn ends with a discard)."""

GAME = Game(
    slug=TRIPLE_TUNK,
    title="Triple Tunk",
    schema_prefix="Tt",
    deck=TRIPLE_TOPPER,
    players=(3, 6),  # TT-1
    rules_class=TripleTunkRules,
    dealt=5,  # TT-1
    early_win=True,  # TT-9: early tunk
    knock=True,  # TT-12
    turned_up=1,  # the deal turns the next card up to start the discard pile
    meld_rule="TT-6",
    layoff_rule="TT-8",
    extra={"tunk_shapes": TUNK_SHAPES, "meld_sizes": (MIN_MELD, MAX_MELD)},
)
