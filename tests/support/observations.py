"""Observations for engine advice tests: a Game Flip Flop or Triple Tunk table from card text,
with every other field at a plain default that a test overrides by keyword."""

from __future__ import annotations

from engine.advice.situation import Observation
from engine.core.cards import parse_cards
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.core.topper import parse_topper_cards


def gff_observation(hand: str, **fields: object) -> Observation:
    """A heads-up Game Flip Flop observation for seat 1 (dealer 0) before any turn."""
    base: dict[str, object] = dict(
        game=GAME_FLIP_FLOP,
        seat=1,
        dealer=0,
        n_players=2,
        hand=parse_cards(hand.split()),
        table=(),
        discards=(),
        known=((), ()),
        hand_sizes=(5, 5),
        turns=(0, 0),
        stock_size=41,
        flip_card=None,
    )
    base.update(fields)
    return Observation(**base)  # type: ignore[arg-type]


def tt_observation(hand: str, **fields: object) -> Observation:
    """A 3-player Triple Tunk observation for seat 0 (dealer 2) before any turn."""
    base: dict[str, object] = dict(
        game=TRIPLE_TUNK,
        seat=0,
        dealer=2,
        n_players=3,
        hand=parse_topper_cards(hand.split()),
        table=(),
        discards=(),
        known=((), (), ()),
        hand_sizes=(6, 5, 5),
        turns=(0, 0, 0),
        stock_size=100,
        waiting=(0, 0, 0),
        early=(False, False, False),
    )
    base.update(fields)
    return Observation(**base)  # type: ignore[arg-type]
