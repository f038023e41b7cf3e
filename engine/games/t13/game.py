"""Three Thirteen as a :class:`~engine.games.base.Game` (T13-1..T13-8)."""

from engine.core.deck import STANDARD_MULTI
from engine.core.options import THREE_THIRTEEN, ThreeThirteenRules
from engine.games.base import Game

GAME = Game(
    slug=THREE_THIRTEEN,
    title="Three Thirteen",
    schema_prefix="T13",
    deck=STANDARD_MULTI,
    # The rule sheet sets no seat limit; the service takes 2-8 and checks that the decks hold
    # round 11's deal (T13-2).
    players=(2, 8),
    rules_class=ThreeThirteenRules,
    dealt=None,  # T13-1: round r deals r + 2
    rounds=11,  # T13-1
    meld_rule="T13-4",
    layoff_rule=None,  # T13-7: no lay-offs
)
