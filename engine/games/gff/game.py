"""Game Flip Flop as a :class:`~engine.games.base.Game` (GFF-1..GFF-10)."""

from engine.core.deck import STANDARD
from engine.core.options import GAME_FLIP_FLOP, GameFlipFlopRules
from engine.games.base import Game

EARLY_WIN_TOTALS: tuple[int, ...] = (49, 50)
"""GFF-4: the dealt five-card totals that may be declared before play (each wins the game pot)."""
FIFTY = 50
"""GFF-4: the declared total for which every other player also pays one extra stake."""

GAME = Game(
    slug=GAME_FLIP_FLOP,
    title="Game, Flip, Flop",
    schema_prefix="Gff",
    deck=STANDARD,
    players=(2, 8),  # GFF-1
    rules_class=GameFlipFlopRules,
    dealt=5,  # GFF-1
    early_win=True,  # GFF-4: 49 or 50 dealt
    knock=True,  # GFF-8: dropping
    side_pots=True,  # GFF-5: flip and flop
    meld_rule="GFF-2",
    layoff_rule="GFF-3",
    extra={"early_win_totals": EARLY_WIN_TOTALS, "fifty": FIFTY},
)
