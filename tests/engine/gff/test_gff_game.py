"""Game Flip Flop's rule facts live once, in its Game (GFF-1, GFF-2, GFF-3, GFF-4), and the
play and settlement modules read them from there."""

from __future__ import annotations

from engine.core.cards import parse_cards
from engine.games import GAME_FLIP_FLOP_GAME, find_game
from engine.games.gff import game, play, settle


def test_facts() -> None:
    g = find_game("game-flip-flop")
    assert g is GAME_FLIP_FLOP_GAME is game.GAME
    assert (g.deal_size(), g.max_hand_size(), g.players) == (5, 6, (2, 8))
    assert (g.meld_rule, g.layoff_rule) == ("GFF-2", "GFF-3")
    assert g.extra == {"early_win_totals": (49, 50), "fifty": 50}


def test_play_and_settle_read_the_game() -> None:
    assert play.DEALT == 5
    assert (play.MIN_PLAYERS, play.MAX_PLAYERS) == (2, 8)
    assert play.EARLY_WIN_TOTALS is game.EARLY_WIN_TOTALS
    assert settle.EARLY_WIN_TOTALS is game.EARLY_WIN_TOTALS


def test_early_win_needs_the_dealt_hand_size() -> None:
    assert play.early_win(parse_cards(["KS", "KH", "KD", "KC", "9S"])) == 49
    assert play.early_win(parse_cards(["KS", "KH", "KD", "KC", "QS"])) == 50
    assert play.early_win(parse_cards(["KS", "KH", "KD", "KC", "9S", "AS"])) is None
