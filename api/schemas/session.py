"""The ``next`` and ``session`` members of settle answers: chained scorekeeping.

``next`` has exactly the shape of the next ``settle`` request minus what only the next deal can
tell (its outcome, hands, flip card), so an app plays a whole session by adding those and sending
it back. ``session`` summarises the standings so far. ``next`` is null once the session is over.
"""

from __future__ import annotations

from marshmallow import Schema, fields


class StandingOut(Schema):
    """One seat's place in the session (ties share a place)."""

    seat = fields.Integer()
    value = fields.Integer(metadata={"description": "Bankroll, running total or score total."})
    place = fields.Integer(metadata={"description": "1 = best."})


def _standings(doc: str) -> fields.List:
    return fields.List(fields.Nested(StandingOut), metadata={"description": doc})


class GffNextOut(Schema):
    """Fields of the next Game Flip Flop `settle` request (add `outcome`, hands, flip card)."""

    bankrolls = fields.List(fields.Integer(), metadata={"description": "After this deal."})
    stake = fields.Integer()
    dealer = fields.Integer(
        metadata={"description": "Next seat clockwise that can still be dealt in (C-4, GFF-6)."}
    )
    flip_carry_in = fields.Integer(metadata={"description": "This deal's `flip_carry_out`."})
    flop_carry_in = fields.Integer(metadata={"description": "This deal's `flop_carry_out`."})
    rules = fields.Dict(keys=fields.String(), metadata={"description": "The rules in force."})


class GffSessionOut(Schema):
    """Where the Game Flip Flop session stands after this deal."""

    can_deal_in = fields.List(
        fields.Integer(), metadata={"description": "Seats able to stake next deal (GFF-6)."}
    )
    cannot_deal_in = fields.List(
        fields.Integer(),
        metadata={"description": "Seats eliminated or too short to keep a reserve (GFF-6)."},
    )
    game_over = fields.Boolean(metadata={"description": "Fewer than two seats can be dealt in."})
    standings = _standings("Seats by bankroll, highest first.")


class TtNextOut(Schema):
    """Fields of the next Triple Tunk `settle` request (add `outcome`, `table`)."""

    players = fields.Integer()
    unit = fields.Integer()
    dealer = fields.Integer(metadata={"description": "The dealer's left (C-4)."})
    running_totals = fields.List(
        fields.Integer(), metadata={"description": "Each seat's money so far, after this hand."}
    )


class TtSessionOut(Schema):
    """Where the Triple Tunk session stands (it has no set end)."""

    running_totals = fields.List(fields.Integer())
    game_over = fields.Boolean(metadata={"description": "Always false: play on as you like."})
    standings = _standings("Seats by running total, highest first.")


class T13NextOut(Schema):
    """Fields of the next round's `settle` request (add `went_out` and the hands or scores)."""

    round = fields.Integer()
    dealer = fields.Integer(metadata={"description": "The dealer's left (C-4)."})
    previous_totals = fields.List(fields.Integer(), metadata={"description": "After this round."})
    decks = fields.Integer()
    stake_per_point = fields.Integer()
    rules = fields.Dict(keys=fields.String(), metadata={"description": "The rules in force."})


class T13SessionOut(Schema):
    """Where the Three Thirteen game stands."""

    totals = fields.List(fields.Integer())
    game_over = fields.Boolean(metadata={"description": "True after round 11 (T13-1)."})
    standings = _standings("Seats by total, lowest (best) first (T13-6).")
