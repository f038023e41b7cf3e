"""Triple Tunk's rule facts live once, in its Game (TT-1, TT-6, TT-8, TT-11): the tunk-out shape
table is defined beside the Game and play reads it from there."""

from __future__ import annotations

from engine.core.options import TripleTunkRules
from engine.core.topper import parse_topper_cards
from engine.games import TRIPLE_TUNK_GAME, find_game
from engine.games.tt import game, melds, play, settle


def test_facts() -> None:
    g = find_game("triple-tunk")
    assert g is TRIPLE_TUNK_GAME is game.GAME
    assert (g.deal_size(), g.max_hand_size(), g.players) == (5, 6, (3, 6))
    assert (g.meld_rule, g.layoff_rule) == ("TT-6", "TT-8")
    assert (settle.MIN_PLAYERS, settle.MAX_PLAYERS) == (3, 6)
    assert g.extra["meld_sizes"] == (melds.MIN_MELD, melds.MAX_MELD) == (3, 5)


def test_tunk_shapes_are_one_table() -> None:
    assert play.TUNK_SHAPES is game.TUNK_SHAPES is TRIPLE_TUNK_GAME.extra["tunk_shapes"]
    assert game.TUNK_SHAPES == {
        "five_meld": ((5,), 0, True),
        "two_three_melds": ((3, 3), 0, False),
        "three_meld_two_layoffs": ((3,), 2, True),
        "four_meld_one_layoff": ((4,), 1, True),
    }


def test_early_tunk_needs_the_dealt_hand_size() -> None:
    rules = TripleTunkRules()  # early-tunk totals 20, 24, 25 (TT-9)
    dealt = parse_topper_cards(["RH4", "YC4", "GS4", "BT4", "RC4"])  # 20 points (TT-2)
    assert play.early_tunk(dealt, rules) == play.EarlyTunk(True, 20, 2)
    assert play.early_tunk(dealt[:4], rules).eligible is False
