"""Triple Tunk as a :class:`~engine.games.base.Game` (TT-1..TT-14)."""

from engine.core.deck import TRIPLE_TOPPER
from engine.core.options import TRIPLE_TUNK, TripleTunkRules
from engine.games.base import Game

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
)
