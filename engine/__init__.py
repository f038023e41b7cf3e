"""Pure game logic for Game Flip Flop, Triple Tunk and Three Thirteen: the public API.

Everything a Python program needs is importable from ``engine`` itself; the submodules hold the
same names (and more internals). Nothing here imports a web, cache or serialisation library,
nothing touches the global ``random`` module (samplers take a seeded ``random.Random``), and the
package ships ``py.typed``: it is checked with ``mypy --strict``. Rule ids (``GFF-2``, ``C-2``,
...) refer to the rules page served at ``/v1/rules`` (``docs/rules.md``).

Cards are ints: parse them once, work with ints, print them back.

>>> import engine
>>> hand = engine.parse_cards(["7H", "8H", "9H", "7S", "7D", "KC"])
>>> best = engine.best_arrangement(hand, engine.gff_context()).best   # C-2, GFF-2
>>> [engine.card_name(c) for c in best.deadwood], best.deadwood_points
(['7S', '7D', 'KC'], 24)
>>> [[engine.card_name(c) for c in meld.cards] for meld in best.melds]
[['7H', '8H', '9H']]

Settle a deal and chain the next one (GFF-6, GFF-10, C-3, C-4):

>>> deal = engine.settle_gff([1000, 1000, 1000], 100, 0, engine.GoOut(1))
>>> deal.net, deal.bankrolls_after
((-100, 200, -100), (900, 1200, 900))
>>> engine.gff_next_deal(deal.bankrolls_after, 100, 0, deal.flip_carry_out,
...                      deal.flop_carry_out).dealer
1

Triple Topper cards and Three Thirteen rounds work the same way:

>>> engine.best_tt_arrangement(engine.parse_topper_cards(["RH1", "RH2", "RH3"])).best.special_bonus
2
>>> round_3 = engine.t13_context(3, engine.default_rules(engine.THREE_THIRTEEN))  # fives wild
>>> engine.min_deadwood(engine.parse_cards(["5S", "6H", "7H", "8H", "9H", "KD"]), round_3)
10

Each game's rule facts (deck, seats, cards dealt, options) live once, in its ``Game``:

>>> tt = engine.find_game(engine.TRIPLE_TUNK)
>>> tt.deal_size(), tt.players, tt.deck.name(tt.deck.parse("rh3"))
(5, (3, 6), 'RH3')
>>> engine.find_game(engine.THREE_THIRTEEN).deal_size(3)   # T13-1: round r deals r + 2
5

Errors are ``EngineError`` subclasses (``ValueError``) carrying the offending ``field``.

The API, by job (each name's docstring says more; the module in brackets is its home):

- Cards (C-1, GFF-1, TT-1): ``Card``, ``DECK``, ``parse_card``, ``parse_cards``, ``card_name``
  [``engine.core.cards``]; ``parse_topper_card``, ``parse_topper_cards``, ``topper_card_name``
  [``engine.core.topper``].
- Games and house rules: ``Game`` and ``find_game`` (one ``Game`` per slug: deck, seats, deal
  and hand sizes, options, rule ids) [``engine.games``]; the slugs ``GAMES``,
  ``GAME_FLIP_FLOP``, ``TRIPLE_TUNK``, ``THREE_THIRTEEN``; ``Rules`` and each game's rules class;
  ``default_rules``, ``parse_rules``, ``canonical_rules`` [``engine.core.options``].
- Errors: ``EngineError`` and ``CardError``, ``HandError``, ``RuleError``, ``TableError``,
  ``OutcomeError`` [``engine.core.errors``].
- Values: ``TableMeld``, ``Layoff``, ``Arrangement``, ``BestResult`` [``engine.core.types``].
- Standard-deck melds and arrangements (C-2, GFF-2, T13-3, T13-4): ``StdContext``,
  ``gff_context``, ``t13_context``, ``StdMeld``, ``describe_meld``, ``is_meld``
  [``engine.standard.melds``]; ``best_arrangement`` (with equal-point ties)
  [``engine.standard.arrange``]; ``min_deadwood`` [``engine.standard.deadwood``].
- Triple Topper melds and arrangements (TT-6, TT-7): ``TTMeld``, ``describe_tt_meld``,
  ``is_tt_meld`` [``engine.games.tt.melds``]; ``best_tt_arrangement``, ``tt_min_deadwood``
  [``engine.games.tt.arrange``].
- Teaching: ``check_arrangement``, ``ArrangementCheck``, ``MeldVerdict``
  [``engine.teach.check_arrangement``].
- Play: ``gff_layoffs``, ``gff_going_out``, ``early_win``, ``hand_total``, ``side_pots``
  [``engine.games.gff.play``]; ``tt_layoffs``, ``tt_tunk_out``, ``early_tunk``
  [``engine.games.tt.play``]; ``going_out_options`` [``engine.games.t13.play``].
- Settlement and sessions (C-3, C-4): ``settle_gff``, ``stakes_for`` and the outcomes
  ``EarlyWin``, ``Drop``, ``TunkOut``, ``GoOut``, ``StockExhausted``, ``SideWinners``, giving a
  ``GffSettlement`` [``engine.games.gff.settle``]; ``settle_tt`` with ``TTKnock`` or
  ``TTTunkOut``, giving a ``TTSettlement`` [``engine.games.tt.settle``]; ``score_t13_round``,
  ``settle_t13_scores``, ``T13Round``, ``default_decks`` [``engine.games.t13.settle``];
  ``gff_next_deal``, ``t13_next_round``, ``standings``, ``Standing``
  [``engine.games.session``].

Advice and simulation (``engine.advice``, ``engine.sim``) are libraries of their own, imported
from their packages.
"""

ENGINE_VERSION = "0.2.0"
"""Version of the rules engine (part of every cache key of the service)."""

# ruff: noqa: E402  (ENGINE_VERSION comes first: modules importing it may load during this file)
from engine.core.cards import DECK, Card, card_name, parse_card, parse_cards
from engine.core.errors import (
    CardError,
    EngineError,
    HandError,
    OutcomeError,
    RuleError,
    TableError,
)
from engine.core.options import (
    GAME_FLIP_FLOP,
    GAMES,
    THREE_THIRTEEN,
    TRIPLE_TUNK,
    GameFlipFlopRules,
    Rules,
    ThreeThirteenRules,
    TripleTunkRules,
    canonical_rules,
    default_rules,
    parse_rules,
)
from engine.core.topper import parse_topper_card, parse_topper_cards, topper_card_name
from engine.core.types import Arrangement, BestResult, Layoff, TableMeld
from engine.games import Game, find_game
from engine.games.gff.play import early_win, gff_going_out, gff_layoffs, hand_total, side_pots
from engine.games.gff.settle import (
    Drop,
    EarlyWin,
    GffSettlement,
    GoOut,
    SideWinners,
    StockExhausted,
    TunkOut,
    settle_gff,
    stakes_for,
)
from engine.games.session import Standing, gff_next_deal, standings, t13_next_round
from engine.games.t13.play import going_out_options
from engine.games.t13.settle import T13Round, default_decks, score_t13_round, settle_t13_scores
from engine.games.tt.arrange import best_tt_arrangement, tt_min_deadwood
from engine.games.tt.melds import TTMeld, describe_tt_meld, is_tt_meld
from engine.games.tt.play import early_tunk, tt_layoffs, tt_tunk_out
from engine.games.tt.settle import TTKnock, TTSettlement, TTTunkOut, settle_tt
from engine.standard.arrange import best_arrangement
from engine.standard.deadwood import min_deadwood
from engine.standard.melds import (
    StdContext,
    StdMeld,
    describe_meld,
    gff_context,
    is_meld,
    t13_context,
)
from engine.teach.check_arrangement import ArrangementCheck, MeldVerdict, check_arrangement

__all__ = [
    "ENGINE_VERSION",
    # cards (C-1, GFF-1, TT-1)
    "Card",
    "DECK",
    "parse_card",
    "parse_cards",
    "card_name",
    "parse_topper_card",
    "parse_topper_cards",
    "topper_card_name",
    # games and house rules
    "Game",
    "find_game",
    "GAMES",
    "GAME_FLIP_FLOP",
    "TRIPLE_TUNK",
    "THREE_THIRTEEN",
    "Rules",
    "GameFlipFlopRules",
    "TripleTunkRules",
    "ThreeThirteenRules",
    "default_rules",
    "parse_rules",
    "canonical_rules",
    # errors
    "EngineError",
    "CardError",
    "HandError",
    "RuleError",
    "TableError",
    "OutcomeError",
    # values
    "TableMeld",
    "Layoff",
    "Arrangement",
    "BestResult",
    # melds and arrangements (C-2, GFF-2, TT-6, T13-4)
    "StdContext",
    "StdMeld",
    "gff_context",
    "t13_context",
    "describe_meld",
    "is_meld",
    "best_arrangement",
    "min_deadwood",
    "TTMeld",
    "describe_tt_meld",
    "is_tt_meld",
    "best_tt_arrangement",
    "tt_min_deadwood",
    "check_arrangement",
    "ArrangementCheck",
    "MeldVerdict",
    # play
    "gff_layoffs",
    "gff_going_out",
    "early_win",
    "hand_total",
    "side_pots",
    "tt_layoffs",
    "tt_tunk_out",
    "early_tunk",
    "going_out_options",
    # settlement and sessions (C-3)
    "settle_gff",
    "stakes_for",
    "GffSettlement",
    "EarlyWin",
    "Drop",
    "TunkOut",
    "GoOut",
    "StockExhausted",
    "SideWinners",
    "settle_tt",
    "TTSettlement",
    "TTKnock",
    "TTTunkOut",
    "settle_t13_scores",
    "score_t13_round",
    "T13Round",
    "default_decks",
    "gff_next_deal",
    "t13_next_round",
    "standings",
    "Standing",
]
