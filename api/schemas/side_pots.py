"""``POST /v1/games/game-flip-flop/side-pots``: flip and flop winners from the deal (GFF-5/6)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from marshmallow import Schema, fields, post_load, validate

from api.schemas.common import check_copies, check_seat, seat_field
from api.schemas.fields import MAX_MONEY, RulesField, StdCard, at_most, path_error
from engine.core.options import GAME_FLIP_FLOP, GameFlipFlopRules, Rules, canonical_rules
from engine.games import GAME_FLIP_FLOP_GAME
from engine.games.gff.play import DEALT, WITH_FLOP

_MIN, _MAX = GAME_FLIP_FLOP_GAME.players


@dataclass(frozen=True, slots=True)
class SidePotsQuery:
    """A validated deal: hands per seat (sorted), dealer, flip card, pots staked per seat."""

    dealt_hands: tuple[tuple[int, ...], ...]
    dealer: int
    flip_card: int
    stakes_in: tuple[int, ...] | None
    stake: int | None
    flip_carry_in: int
    flop_carry_in: int
    rules: Rules

    def canonical(self) -> dict[str, Any]:
        """Cache-key form (hands sorted per seat; seat order kept, it decides who wins)."""
        return {
            "dealt_hands": [list(h) for h in self.dealt_hands],
            "dealer": self.dealer,
            "flip_card": self.flip_card,
            "stakes_in": None if self.stakes_in is None else list(self.stakes_in),
            "stake": self.stake,
            "flip_carry_in": self.flip_carry_in,
            "flop_carry_in": self.flop_carry_in,
            "rules": canonical_rules(self.rules),
        }


def money_field(description: str, **kwargs: Any) -> fields.Integer:
    """A whole number of units >= 0 (C-3)."""
    return fields.Integer(
        strict=True,
        validate=[
            validate.Range(min=0, error="must be a whole number of units >= 0"),
            at_most(MAX_MONEY),
        ],
        metadata={"description": description},
        **kwargs,
    )


def dealt_hands_field(required: bool = True) -> fields.List:
    """Each seat's five dealt cards, seat 0 first (an empty list for a seat not dealt in)."""
    return fields.List(
        fields.List(StdCard(), validate=validate.Length(max=DEALT)),
        required=required,
        validate=validate.Length(min=_MIN, max=_MAX),
        metadata={
            "description": "Each seat's five dealt cards, seat 0 first; [] for a seat not dealt "
            "in (`stakes_in` 0). Only the dealt cards count (GFF-5)."
        },
    )


def check_deal(
    hands: list[list[int]], dealer: int, flip_card: int | None, stakes: list[int] | None
) -> None:
    """GFF-5 deal checks: sizes, no card dealt twice, dealer seat, flip card in dealer's hand."""
    n = len(hands)
    check_seat("dealer", dealer, n)
    if stakes is not None and len(stakes) != n:
        raise path_error("stakes_in", f"{len(stakes)} entries for {n} seats")
    for i, hand in enumerate(hands):
        want = DEALT if stakes is None or stakes[i] > 0 else 0
        if len(hand) != want:
            why = "is dealt five cards" if want else "is not dealt in (stakes_in 0): no cards"
            raise path_error(f"dealt_hands[{i}]", f"seat {i} {why}, got {len(hand)}")
    check_copies(GAME_FLIP_FLOP, [(f"dealt_hands[{i}]", h) for i, h in enumerate(hands)])
    if flip_card is not None and flip_card not in hands[dealer]:
        raise path_error(
            "flip_card",
            f"the flip card is the dealer's last dealt card: it must be in dealt_hands[{dealer}] "
            "(GFF-5)",
        )


class SidePotsRequest(Schema):
    """The deal: hands, dealer, flip card, optionally pots staked per seat and the stake."""

    dealt_hands = dealt_hands_field()
    dealer = seat_field("Dealer's seat (C-4).", required=True)
    flip_card = StdCard(
        required=True,
        metadata={"description": "The dealer's last dealt card, turned up (GFF-5)."},
    )
    stakes_in = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=0, max=WITH_FLOP)),
        metadata={
            "description": "Pots each seat staked in (GFF-6): 0 not dealt in, 1 game only (all "
            "in), 2 game + flip, 3 all. Default: everyone 3."
        },
    )
    stake = fields.Integer(
        strict=True,
        validate=[
            validate.Range(min=1, error="the stake must be a whole number of units >= 1"),
            at_most(MAX_MONEY),
        ],
        metadata={"description": "One stake in units: with it, the pot amounts are given."},
    )
    flip_carry_in = money_field("Units already in the flip pot from earlier deals.", load_default=0)
    flop_carry_in = money_field(
        "Units already in the flop pot (carried over, GFF-5).", load_default=0
    )
    rules = RulesField(GAME_FLIP_FLOP)

    @post_load
    def make_query(self, data: dict[str, Any], **_: Any) -> SidePotsQuery:
        """Cross-field checks, then the frozen query."""
        stakes = data.get("stakes_in")
        check_deal(data["dealt_hands"], data["dealer"], data["flip_card"], stakes)
        rules = data["rules"]
        assert isinstance(rules, GameFlipFlopRules)
        return SidePotsQuery(
            dealt_hands=tuple(tuple(sorted(h)) for h in data["dealt_hands"]),
            dealer=data["dealer"],
            flip_card=data["flip_card"],
            stakes_in=None if stakes is None else tuple(stakes),
            stake=data.get("stake"),
            flip_carry_in=data["flip_carry_in"],
            flop_carry_in=data["flop_carry_in"],
            rules=rules,
        )


class SidePotOut(Schema):
    """One side pot: the deciding suit, its lowest dealt card, who wins or whether it carries."""

    pot = fields.String(metadata={"description": "`flip` or `flop`."})
    suit = fields.String(metadata={"description": "Suit deciding the pot (S H D C)."})
    lowest_card = StdCard(
        allow_none=True, metadata={"description": "Lowest dealt card of the suit, or null."}
    )
    lowest_holder = fields.Integer(allow_none=True, metadata={"description": "Its holder."})
    winner = fields.Integer(
        allow_none=True, metadata={"description": "Seat that takes the pot; null: carries over."}
    )
    winning_card = StdCard(allow_none=True, metadata={"description": "The card that won it."})
    carried_over = fields.Boolean(
        metadata={"description": "No (staking) holder of the suit: the pot carries over (GFF-5)."}
    )
    fallback = fields.Boolean(
        metadata={
            "description": "The lowest card's holder did not stake; the pot went to the lowest "
            "staker's card (GFF-6 `side_pot_fallback`)."
        }
    )
    amount = fields.Integer(
        allow_none=True,
        metadata={"description": "Units in the pot (stakers x stake + carry-in); needs `stake`."},
    )


class SidePotsResponse(Schema):
    """Flip and flop outcome of the deal."""

    flip_card = StdCard()
    stakes_in = fields.List(fields.Integer(), metadata={"description": "Pots staked per seat."})
    flip = fields.Nested(SidePotOut)
    flop = fields.Nested(SidePotOut)
