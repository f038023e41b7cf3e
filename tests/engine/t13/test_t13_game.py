"""Three Thirteen's rule facts live once, in its Game (T13-1, T13-4, T13-5, T13-7)."""

from __future__ import annotations

from engine.core.cards import parse_cards
from engine.core.options import ThreeThirteenRules
from engine.games import THREE_THIRTEEN_GAME, find_game
from engine.games.t13 import game, play, settle


def test_facts() -> None:
    g = find_game("three-thirteen")
    assert g is THREE_THIRTEEN_GAME is game.GAME
    assert (g.deal_size(1), g.deal_size(11), g.max_hand_size(3), g.rounds) == (3, 13, 6, 11)
    assert (g.meld_rule, g.layoff_rule) == ("T13-4", None)
    assert (settle.MIN_PLAYERS, settle.DECK_SIZE) == (2, 52)


def test_going_out_needs_the_deal_plus_the_drawn_card() -> None:
    rules = ThreeThirteenRules()
    # Round 1 (threes wild): 3 cards dealt + 1 drawn; discarding KD leaves 4S 5S 6S.
    got = play.going_out_options(parse_cards(["4S", "5S", "6S", "KD"]), 1, rules)
    assert [o.discard for o in got] == list(parse_cards(["KD"]))
    assert play.going_out_options(parse_cards(["4S", "5S", "6S"]), 1, rules) == ()
