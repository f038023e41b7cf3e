"""``POST /v1/games/{game}/early-tunk``: GFF-4 49/50 and TT-9 early tunk, on a dealt hand."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from marshmallow import Schema, fields, post_load, validate

from api.schemas.common import (
    check_hand,
    make_schema,
    players_field,
    schema_name,
)
from api.schemas.fields import MAX_MONEY, RulesField, at_most, card_field_for
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK, Rules, canonical_rules

DEALT = 5  # GFF-1 / TT-1


@dataclass(frozen=True, slots=True)
class EarlyTunkQuery:
    """A validated early-tunk request: the sorted dealt hand and the game's options."""

    game: str
    hand: tuple[int, ...]
    rules: Rules
    players: int | None = None
    stake: int | None = None

    def canonical(self) -> dict[str, Any]:
        """Cache-key form."""
        return {
            "hand": list(self.hand),
            "rules": canonical_rules(self.rules),
            "players": self.players,
            "stake": self.stake,
        }


def _dealt_hand(game: str) -> fields.List:
    return fields.List(
        card_field_for(game),
        required=True,
        validate=validate.Length(equal=DEALT, error="a dealt hand holds exactly 5 cards"),
        metadata={"description": "The five dealt cards (before any draw)."},
    )


class EarlyTunkRequestBase(Schema):
    """Shared loading: duplicate check through engine.games.hands, then the frozen query."""

    game = GAME_FLIP_FLOP

    @post_load
    def make_query(self, data: dict[str, Any], **_: Any) -> EarlyTunkQuery:
        """Check the hand (C-1: no repeated card) and freeze it sorted."""
        check_hand(self.game, data["hand"])
        return EarlyTunkQuery(
            game=self.game,
            hand=tuple(sorted(data["hand"])),
            rules=data["rules"],
            players=data.get("players"),
            stake=data.get("stake"),
        )


class GffEarlyTunkRequest(EarlyTunkRequestBase):
    """Game Flip Flop 49/50 check (GFF-4)."""

    game = GAME_FLIP_FLOP
    hand = _dealt_hand(GAME_FLIP_FLOP)
    rules = RulesField(GAME_FLIP_FLOP)
    players = players_field(
        GAME_FLIP_FLOP, "Players dealt in; with `stake`, the answer includes the money"
    )
    stake = fields.Integer(
        strict=True,
        validate=[validate.Range(min=1), at_most(MAX_MONEY)],
        metadata={"description": "One stake in units (C-3); with `players`, prices the win."},
    )


class TtEarlyTunkRequest(EarlyTunkRequestBase):
    """Triple Tunk early tunk check (TT-9, house rule `early_tunk_totals`)."""

    game = TRIPLE_TUNK
    hand = _dealt_hand(TRIPLE_TUNK)
    rules = RulesField(TRIPLE_TUNK)


EARLY_TUNK_REQUESTS: dict[str, type[EarlyTunkRequestBase]] = {
    GAME_FLIP_FLOP: GffEarlyTunkRequest,
    TRIPLE_TUNK: TtEarlyTunkRequest,
}


class EarlyTunkOutBase(Schema):
    """Whether the dealt hand may claim, its total and what the claim is worth."""

    game = fields.String()
    total = fields.Integer(metadata={"description": "Points of the dealt hand."})
    eligible = fields.Boolean(metadata={"description": "The hand may claim (GFF-4 / TT-9)."})
    rule = fields.String(metadata={"description": "Rule id (docs/rules.md)."})
    pays = fields.String(metadata={"description": "What the claim is worth, in words."})


def _gff_out() -> type[Schema]:
    return make_schema(
        schema_name(GAME_FLIP_FLOP, "EarlyTunkResponse"),
        EarlyTunkOutBase,
        order=("game", "hand", "total", "eligible", "rule", "declares"),
        attrs={
            "hand": fields.List(card_field_for(GAME_FLIP_FLOP)),
            "declares": fields.Integer(
                allow_none=True, metadata={"description": "49 or 50 when eligible, else null."}
            ),
            "wins_game_pot": fields.Boolean(
                metadata={"description": "Declaring wins (or splits, GFF-4) the game pot."}
            ),
            "extra_stake_from_each_player": fields.Boolean(
                metadata={
                    "description": "50 only: every other player pays one extra stake (GFF-4)."
                }
            ),
            "net_if_sole_declarer": fields.Integer(
                allow_none=True,
                metadata={
                    "description": "Units won as the only declarer, game pot only (needs "
                    "`players` and `stake`): (players-1) x stake for 49, twice that for 50."
                },
            ),
        },
    )


def _tt_out() -> type[Schema]:
    return make_schema(
        schema_name(TRIPLE_TUNK, "EarlyTunkResponse"),
        EarlyTunkOutBase,
        order=("game", "hand", "total", "eligible", "rule", "totals", "multiplier"),
        attrs={
            "hand": fields.List(card_field_for(TRIPLE_TUNK)),
            "totals": fields.List(
                fields.Integer(),
                metadata={"description": "Totals that may claim under these rules (TT-9)."},
            ),
            "multiplier": fields.Integer(
                metadata={
                    "description": "TT-14 factor the claim adds if the claimant wins the hand: "
                    "2 when eligible, else 1."
                }
            ),
        },
    )


EARLY_TUNK_RESPONSES: dict[str, type[Schema]] = {
    GAME_FLIP_FLOP: _gff_out(),
    TRIPLE_TUNK: _tt_out(),
}
