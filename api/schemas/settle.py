"""``POST /v1/games/{game}/settle``: the money (or scores) of a finished hand from its outcome.

Each game has its own outcome shape:

* Game Flip Flop (GFF-4, GFF-8..GFF-11): ``outcome.kind`` is ``early_win`` (49/50
  declarations), ``drop`` (dropper + hand totals), ``tunk_out`` / ``go_out`` (seat) or
  ``stock_exhausted`` (hand totals); stakes follow GFF-6 from the bankrolls, side pots settle
  from the dealt hands + flip card or from given winners.
* Triple Tunk (TT-11, TT-13, TT-14): ``knock`` (knocker + totals) or ``tunk_out`` (seat), with
  each seat's early-tunk claim and special bonus (or the table, to derive the bonus).
* Three Thirteen (T13-6): the round, who went out, and each seat's final hand (or score).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from marshmallow import Schema, fields, post_load, validate

from api.schemas.common import (
    build_table,
    canonical_table,
    check_copies,
    check_decks_fit,
    check_seat,
    check_tt_laid_cards,
    decks_field,
    hand_size_for_round,
    players_field,
    round_field,
    seat_field,
    table_field,
)
from api.schemas.fields import (
    MAX_MONEY,
    MAX_TOTAL,
    RulesField,
    StdCard,
    StrictBoolean,
    at_most,
    path_error,
)
from api.schemas.melds import tt_meld_problem, validate_engine_table
from api.schemas.session import (
    GffNextOut,
    GffSessionOut,
    T13NextOut,
    T13SessionOut,
    TtNextOut,
    TtSessionOut,
)
from api.schemas.side_pots import check_deal, dealt_hands_field, money_field
from engine.core.options import (
    GAME_FLIP_FLOP,
    THREE_THIRTEEN,
    TRIPLE_TUNK,
    Rules,
    canonical_rules,
)
from engine.core.types import TableMeld
from engine.games import GAME_FLIP_FLOP_GAME, THREE_THIRTEEN_GAME
from engine.games.gff.game import EARLY_WIN_TOTALS
from engine.games.gff.settle import (
    Drop,
    EarlyWin,
    GffOutcome,
    GoOut,
    SideWinners,
    StockExhausted,
    TunkOut,
    stakes_for,
)
from engine.games.t13.settle import default_decks
from engine.games.tt.play import owned_special_bonus
from engine.games.tt.settle import SPECIAL_BONUSES, TTKnock, TTOutcome, TTTunkOut


def _stake_field(description: str) -> fields.Integer:
    return fields.Integer(
        strict=True,
        required=True,
        validate=[
            validate.Range(min=1, error="must be a whole number of units >= 1"),
            at_most(MAX_MONEY),
        ],
        metadata={"description": description},
    )


def _totals_field(description: str, allow_null: bool = False) -> fields.List:
    return fields.List(
        fields.Integer(
            strict=True,
            allow_none=allow_null,
            validate=[
                validate.Range(min=0, error="a hand total is a whole number >= 0"),
                at_most(MAX_TOTAL),
            ],
        ),
        metadata={"description": description},
    )


def _need(data: dict[str, Any], name: str, kind: str) -> Any:
    if data.get(name) is None:
        raise path_error(f"outcome.{name}", f"required when kind is {kind!r}")
    return data[name]


def _check_totals(totals: list[Any], n: int) -> None:
    if len(totals) != n:
        raise path_error("outcome.totals", f"{len(totals)} totals for {n} seats")


NEXT_DOC = {
    "description": "The next deal's `settle` request fields, ready to send back with the next "
    "outcome (null once the session is over)."
}

# --- Game Flip Flop ----------------------------------------------------------------------------


class DeclarationSchema(Schema):
    """A GFF-4 declaration before play."""

    seat = seat_field("Declaring seat.", required=True)
    total = fields.Integer(
        strict=True,
        required=True,
        validate=validate.OneOf(EARLY_WIN_TOTALS, error="only 49 or 50 may be declared (GFF-4)"),
        metadata={"description": "49 or 50 (GFF-4)."},
    )


GFF_KINDS = ("early_win", "drop", "tunk_out", "go_out", "stock_exhausted")


class GffOutcomeSchema(Schema):
    """How the deal ended; which fields are needed depends on ``kind``."""

    kind = fields.String(
        required=True,
        validate=validate.OneOf(GFF_KINDS),
        metadata={
            "description": "`early_win` (GFF-4, needs `declarations`), `drop` (GFF-8, needs "
            "`dropper` and `totals`), `tunk_out` (GFF-9, needs `seat`), `go_out` (GFF-10, needs "
            "`seat`), `stock_exhausted` (GFF-11, needs `totals`)."
        },
    )
    declarations = fields.List(
        fields.Nested(DeclarationSchema),
        validate=validate.Length(min=1, max=8),
        metadata={"description": "49/50 declarations (early_win)."},
    )
    dropper = seat_field("Seat that dropped (drop).")
    seat = seat_field("Seat that tunked out or went out.")
    totals = _totals_field(
        "Each seat's hand total, seat 0 first (drop, stock_exhausted); null for a seat not "
        "dealt in.",
        allow_null=True,
    )


class SideWinnersSchema(Schema):
    """Side-pot winners decided elsewhere; null carries the pot over."""

    flip = seat_field("Flip pot winner, or null (carries over).", allow_none=True)
    flop = seat_field("Flop pot winner, or null (carries over).", allow_none=True)


@dataclass(frozen=True, slots=True)
class GffSettleQuery:
    """A validated Game Flip Flop settlement request in engine values."""

    bankrolls: tuple[int, ...]
    stake: int
    dealer: int
    outcome: GffOutcome
    dealt_hands: tuple[tuple[int, ...], ...] | None
    flip_card: int | None
    side_winners: SideWinners | None
    flip_carry_in: int
    flop_carry_in: int
    rules: Rules

    def canonical(self) -> dict[str, Any]:
        """Cache-key form."""
        out = self.outcome
        return {
            "bankrolls": list(self.bankrolls),
            "stake": self.stake,
            "dealer": self.dealer,
            "outcome": {
                "kind": out.kind,
                "declarations": sorted(out.declarations) if isinstance(out, EarlyWin) else None,
                "dropper": out.dropper if isinstance(out, Drop) else None,
                "seat": out.seat if isinstance(out, TunkOut | GoOut) else None,
                "totals": list(out.totals) if isinstance(out, Drop | StockExhausted) else None,
            },
            "dealt_hands": None
            if self.dealt_hands is None
            else [list(h) for h in self.dealt_hands],
            "flip_card": self.flip_card,
            "side_winners": None
            if self.side_winners is None
            else [self.side_winners.flip, self.side_winners.flop],
            "flip_carry_in": self.flip_carry_in,
            "flop_carry_in": self.flop_carry_in,
            "rules": canonical_rules(self.rules),
        }


class GffSettleRequest(Schema):
    """A finished Game Flip Flop deal: bankrolls, stake, dealer, outcome, side pots."""

    bankrolls = fields.List(
        fields.Integer(
            strict=True,
            validate=[
                validate.Range(min=0, error="a bankroll is a whole number of units >= 0"),
                at_most(MAX_MONEY),
            ],
        ),
        required=True,
        validate=validate.Length(min=GAME_FLIP_FLOP_GAME.players[0], max=8),
        metadata={
            "description": "Each seat's bankroll before the deal, seat 0 first: it decides how "
            "many pots the seat stakes in, keeping one stake in reserve (GFF-6)."
        },
    )
    stake = _stake_field("One stake in units (C-3); each pot takes one stake per staker.")
    dealer = seat_field(
        "Dealer's seat (C-4: leftover units go from the dealer's left).", required=True
    )
    outcome = fields.Nested(GffOutcomeSchema, required=True)
    dealt_hands = dealt_hands_field(required=False)
    flip_card = StdCard(metadata={"description": "The flip card (with `dealt_hands`)."})
    side_winners = fields.Nested(
        SideWinnersSchema,
        metadata={
            "description": "Flip/flop winners if the hands are not given. Without both, only "
            "the game pot (and extra stakes) is settled."
        },
    )
    flip_carry_in = money_field("Units already in the flip pot from earlier deals.", load_default=0)
    flop_carry_in = money_field(
        "Units carried over in the flop pot from earlier deals (GFF-5).", load_default=0
    )
    rules = RulesField(GAME_FLIP_FLOP)

    @post_load
    def make_query(self, data: dict[str, Any], **_: Any) -> GffSettleQuery:
        """Seat ranges, outcome completeness and the deal's consistency, then the query."""
        n = len(data["bankrolls"])
        check_seat("dealer", data["dealer"], n)
        outcome = _gff_outcome(data["outcome"], n)
        hands = data.get("dealt_hands")
        if hands is not None:
            if data.get("flip_card") is None:
                raise path_error("flip_card", "required with dealt_hands (GFF-5)")
            if len(hands) != n:
                raise path_error("dealt_hands", f"{len(hands)} hands for {n} seats")
            stakes = [stakes_for(b, data["stake"]) for b in data["bankrolls"]]  # GFF-6
            check_deal(hands, data["dealer"], data["flip_card"], stakes)
        elif data.get("flip_card") is not None:
            raise path_error("dealt_hands", "required with flip_card (GFF-5)")
        if hands is not None and data.get("side_winners") is not None:
            raise path_error("side_winners", "give dealt_hands + flip_card or side_winners")
        side = data.get("side_winners")
        winners = None
        if side is not None:
            for name in ("flip", "flop"):
                if side.get(name) is not None:
                    check_seat(f"side_winners.{name}", side[name], n)
            winners = SideWinners(side.get("flip"), side.get("flop"))
        return GffSettleQuery(
            bankrolls=tuple(data["bankrolls"]),
            stake=data["stake"],
            dealer=data["dealer"],
            outcome=outcome,
            dealt_hands=None if hands is None else tuple(tuple(sorted(h)) for h in hands),
            flip_card=data.get("flip_card"),
            side_winners=winners,
            flip_carry_in=data["flip_carry_in"],
            flop_carry_in=data["flop_carry_in"],
            rules=data["rules"],
        )


def _gff_outcome(raw: dict[str, Any], n: int) -> GffOutcome:
    """Build the engine outcome for ``raw['kind']``, requiring that kind's fields."""
    kind = raw["kind"]
    if kind == "early_win":
        decls = _need(raw, "declarations", kind)
        for j, d in enumerate(decls):
            check_seat(f"outcome.declarations[{j}].seat", d["seat"], n)
        seats = [d["seat"] for d in decls]
        for j, seat in enumerate(seats):
            if seat in seats[:j]:
                raise path_error(f"outcome.declarations[{j}].seat", f"seat {seat} declares twice")
        return EarlyWin(tuple(sorted((d["seat"], d["total"]) for d in decls)))
    if kind in ("tunk_out", "go_out"):
        seat = _need(raw, "seat", kind)
        check_seat("outcome.seat", seat, n)
        return TunkOut(seat) if kind == "tunk_out" else GoOut(seat)
    totals = _need(raw, "totals", kind)
    _check_totals(totals, n)
    if kind == "drop":
        dropper = _need(raw, "dropper", kind)
        check_seat("outcome.dropper", dropper, n)
        return Drop(dropper, tuple(totals))
    return StockExhausted(tuple(totals))


class GffPotOut(Schema):
    """One pot of the deal and who took what."""

    name = fields.String(
        metadata={"description": "`game`, `fifty` (GFF-4 extra stakes), `flip`, `flop`."}
    )
    amount = fields.Integer(metadata={"description": "Units in the pot (carry-in included)."})
    winners = fields.List(fields.Integer())
    shares = fields.List(
        fields.Dict(keys=fields.String(), values=fields.Integer()),
        metadata={"description": "`{seat, amount}` per winner (C-3 split)."},
    )
    carried_over = fields.Boolean(metadata={"description": "Nobody won it: it carries over."})
    carry_in = fields.Integer(metadata={"description": "Units it held from earlier deals."})


class ExtraPaymentOut(Schema):
    """An extra stake paid on top of the deal's stakes."""

    seat = fields.Integer()
    amount = fields.Integer()
    pot = fields.String()
    reason = fields.String(
        metadata={"description": "`fifty` (GFF-4), `caught` (GFF-8), `tunk_out` (GFF-9)."}
    )


class GffSettleResponse(Schema):
    """Who paid and won what in the deal; ``net`` per seat."""

    game = fields.String()
    outcome = fields.String(metadata={"description": "The outcome kind."})
    stake = fields.Integer()
    dealer = fields.Integer()
    stakes_in = fields.List(
        fields.Integer(), metadata={"description": "Pots each seat staked in (GFF-6)."}
    )
    sitting_out = fields.List(fields.Integer(), metadata={"description": "Seats not dealt in."})
    all_in = fields.List(fields.Integer(), metadata={"description": "Seats staking one pot."})
    eliminated = fields.List(
        fields.Integer(),
        metadata={"description": "All-in seats that did not win the game pot (GFF-6)."},
    )
    game_winners = fields.List(fields.Integer())
    pots = fields.List(fields.Nested(GffPotOut))
    extra_payments = fields.List(fields.Nested(ExtraPaymentOut))
    paid = fields.List(fields.Integer(), metadata={"description": "Units each seat put in."})
    won = fields.List(fields.Integer(), metadata={"description": "Units each seat took."})
    net = fields.List(
        fields.Integer(),
        metadata={
            "description": "won - paid per seat. Sums to zero, except for money moving into or "
            "out of carried-over side pots: sum(net) = carry_in - carry_out."
        },
    )
    carry_in = fields.Integer()
    carry_out = fields.Integer(metadata={"description": "Units carried to the next deal."})
    flip_carry_out = fields.Integer()
    flop_carry_out = fields.Integer()
    bankrolls_after = fields.List(fields.Integer())
    next = fields.Nested(GffNextOut, allow_none=True, metadata=NEXT_DOC)
    session = fields.Nested(GffSessionOut)


# --- Triple Tunk -------------------------------------------------------------------------------

TT_KINDS = ("knock", "tunk_out")


class TtOutcomeSchema(Schema):
    """How the hand ended (TT-11 tunk out or TT-13 knock) and each seat's TT-14 factors."""

    kind = fields.String(
        required=True,
        validate=validate.OneOf(TT_KINDS),
        metadata={
            "description": "`knock` (TT-13, needs `knocker` and `totals`) or `tunk_out` (TT-11, "
            "needs `seat`)."
        },
    )
    knocker = seat_field("Seat that knocked (knock).")
    seat = seat_field("Seat that tunked out (tunk_out).")
    totals = _totals_field("Points each seat still holds, seat 0 first (knock).")
    early_tunk = fields.List(
        StrictBoolean(),
        metadata={"description": "Per seat: claimed an early tunk (TT-9, x2). Default all false."},
    )
    special_bonus = fields.List(
        fields.Integer(strict=True, validate=validate.OneOf(SPECIAL_BONUSES)),
        metadata={
            "description": "Per seat: TT-14 special bonus 1-4 of the specials they own. Default: "
            "derived from `table` when given, else all 1."
        },
    )


@dataclass(frozen=True, slots=True)
class TtSettleQuery:
    """A validated Triple Tunk settlement request."""

    players: int
    unit: int
    dealer: int
    outcome: TTOutcome
    table: tuple[TableMeld, ...]
    running_totals: tuple[int, ...] = ()

    def canonical(self) -> dict[str, Any]:
        """Cache-key form."""
        out = self.outcome
        return {
            "running_totals": list(self.running_totals),
            "players": self.players,
            "unit": self.unit,
            "dealer": self.dealer,
            "outcome": {
                "kind": out.kind,
                "seat": out.seat if isinstance(out, TTTunkOut) else out.knocker,
                "totals": list(out.totals) if isinstance(out, TTKnock) else None,
                "early_tunk": list(out.early_tunk),
                "special_bonus": list(out.special_bonus),
            },
            "table": canonical_table(self.table),
        }


class TtSettleRequest(Schema):
    """A finished Triple Tunk hand."""

    players = players_field(TRIPLE_TUNK, "Seats at the table", required=True)
    unit = _stake_field("The payment unit in units of money (TT-13).")
    dealer = seat_field("Dealer's seat.", load_default=0)
    outcome = fields.Nested(TtOutcomeSchema, required=True)
    table = table_field(
        TRIPLE_TUNK,
        "Melds on the table at the end; when `outcome.special_bonus` is not "
        "given each seat's TT-14 bonus is read from the specials it owns here.",
    )
    running_totals = fields.List(
        fields.Integer(strict=True),
        metadata={
            "description": "Each seat's money before this hand, from the previous answer's "
            "`next` (default all 0); the answer adds `net` to it."
        },
    )

    @post_load
    def make_query(self, data: dict[str, Any], **_: Any) -> TtSettleQuery:
        """Seat ranges, per-seat list lengths, the table's consistency, then the query."""
        n = data["players"]
        check_seat("dealer", data["dealer"], n)
        raw = data["outcome"]
        for name in ("early_tunk", "special_bonus"):
            if raw.get(name) is not None and len(raw[name]) != n:
                raise path_error(f"outcome.{name}", f"{len(raw[name])} entries for {n} seats")
        table = build_table(data["table"], n, tt_meld_problem)
        check_copies(
            TRIPLE_TUNK, [(f"table[{i}].cards", m["cards"]) for i, m in enumerate(data["table"])]
        )
        validate_engine_table(TRIPLE_TUNK, table)
        tunker = raw.get("seat") if raw["kind"] == "tunk_out" else None
        check_tt_laid_cards(table, n, tunker if isinstance(tunker, int) and tunker < n else None)
        early = tuple(raw.get("early_tunk") or ())
        bonus = tuple(raw.get("special_bonus") or ())
        if not bonus and table:
            bonus = tuple(owned_special_bonus(table, seat) for seat in range(n))
        outcome: TTOutcome
        if raw["kind"] == "tunk_out":
            seat = _need(raw, "seat", "tunk_out")
            check_seat("outcome.seat", seat, n)
            outcome = TTTunkOut(seat, early, bonus)
        else:
            knocker = _need(raw, "knocker", "knock")
            check_seat("outcome.knocker", knocker, n)
            totals = _need(raw, "totals", "knock")
            _check_totals(totals, n)
            outcome = TTKnock(knocker, tuple(totals), early, bonus)
        running = data.get("running_totals")
        if running is not None and len(running) != n:
            raise path_error("running_totals", f"{len(running)} entries for {n} seats")
        return TtSettleQuery(
            n, data["unit"], data["dealer"], outcome, table, tuple(running or (0,) * n)
        )


class TtPaymentOut(Schema):
    """One payment: payer pays payee unit x the payee's multiplier (TT-13/TT-14)."""

    payer = fields.Integer()
    payee = fields.Integer()
    multiplier = fields.Integer()
    amount = fields.Integer()


class TtSettleResponse(Schema):
    """Triple Tunk money: winners, payments, multipliers and ``net`` per seat (sums to zero)."""

    game = fields.String()
    outcome = fields.String()
    winners = fields.List(
        fields.Integer(), metadata={"description": "The knocker/tunker, or who caught them."}
    )
    knocker_caught = fields.Boolean(
        metadata={"description": "The knocker tied or was beaten (TT-13)."}
    )
    multipliers = fields.List(
        fields.Integer(),
        metadata={
            "description": "Each seat's TT-14 multiplier as a winner in this outcome (x2 early "
            "tunk, x2 tunk out for the tunker, x special bonus)."
        },
    )
    special_bonus = fields.List(fields.Integer(), metadata={"description": "Per seat (TT-14)."})
    early_tunk = fields.List(fields.Boolean(), metadata={"description": "Per seat (TT-9)."})
    payments = fields.List(fields.Nested(TtPaymentOut))
    net = fields.List(fields.Integer(), metadata={"description": "Per seat; sums to zero (C-3)."})
    next = fields.Nested(TtNextOut, metadata=NEXT_DOC)
    session = fields.Nested(TtSessionOut)


# --- Three Thirteen ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class T13SettleQuery:
    """A validated Three Thirteen round result."""

    round: int
    went_out: int
    final_hands: tuple[tuple[int, ...], ...] | None
    round_scores: tuple[int, ...] | None
    previous_totals: tuple[int, ...] | None
    dealer: int
    stake_per_point: int
    decks: int
    rules: Rules

    def canonical(self) -> dict[str, Any]:
        """Cache-key form."""
        return {
            "round": self.round,
            "went_out": self.went_out,
            "final_hands": None
            if self.final_hands is None
            else [list(h) for h in self.final_hands],
            "round_scores": None if self.round_scores is None else list(self.round_scores),
            "previous_totals": None if self.previous_totals is None else list(self.previous_totals),
            "dealer": self.dealer,
            "stake_per_point": self.stake_per_point,
            "decks": self.decks,
            "rules": canonical_rules(self.rules),
        }


class T13SettleRequest(Schema):
    """A finished Three Thirteen round: final hands (or scores) and the running totals."""

    round = round_field(required=True)
    went_out = seat_field("Seat that went out (scores 0, T13-6).", required=True)
    final_hands = fields.List(
        fields.List(StdCard(), validate=validate.Length(max=14)),
        validate=validate.Length(min=2, max=THREE_THIRTEEN_GAME.players[1]),
        metadata={
            "description": "Each seat's final hand, seat 0 first (round+2 cards, or round+3 "
            "before the last discard); the hand of the seat that went out is ignored and may be "
            "[]. Scores are the deadwood of each best arrangement (C-2)."
        },
    )
    round_scores = fields.List(
        fields.Integer(strict=True, validate=[validate.Range(min=0), at_most(MAX_TOTAL)]),
        validate=validate.Length(min=2, max=THREE_THIRTEEN_GAME.players[1]),
        metadata={"description": "Instead of `final_hands`: each seat's score for the round."},
    )
    previous_totals = fields.List(
        fields.Integer(strict=True, validate=[validate.Range(min=0), at_most(MAX_TOTAL)]),
        metadata={"description": "Running totals before this round (default all 0)."},
    )
    dealer = seat_field("Dealer's seat (C-3 leftover units).", load_default=0)
    stake_per_point = money_field(
        "Optional money after round 11: each non-winner pays (own total - winning total) x this "
        "to the winners (a documented convention, not a rule of docs/rules.md).",
        load_default=0,
    )
    decks = decks_field()
    rules = RulesField(THREE_THIRTEEN)

    @post_load
    def make_query(self, data: dict[str, Any], **_: Any) -> T13SettleQuery:
        """Exactly one of hands/scores, seat ranges, hand sizes and copies, then the query."""
        hands, scores = data.get("final_hands"), data.get("round_scores")
        if (hands is None) == (scores is None):
            raise path_error("final_hands", "give exactly one of final_hands or round_scores")
        per_seat = hands if hands is not None else scores
        assert per_seat is not None
        n = len(per_seat)
        check_seat("went_out", data["went_out"], n)
        check_seat("dealer", data["dealer"], n)
        prev = data.get("previous_totals")
        if prev is not None and len(prev) != n:
            raise path_error("previous_totals", f"{len(prev)} entries for {n} seats")
        decks = data.get("decks") or default_decks(n)
        check_decks_fit(n, decks)
        if hands is not None:
            for seat, hand in enumerate(hands):
                if seat != data["went_out"]:
                    hand_size_for_round(hand, data["round"], f"final_hands[{seat}]")
            groups = [
                (f"final_hands[{s}]", h) for s, h in enumerate(hands) if s != data["went_out"]
            ]
            check_copies(THREE_THIRTEEN, groups, decks)
        elif scores is not None and scores[data["went_out"]] != 0:
            raise path_error(
                f"round_scores[{data['went_out']}]", "the player who went out scores 0 (T13-6)"
            )
        return T13SettleQuery(
            round=data["round"],
            went_out=data["went_out"],
            final_hands=None
            if hands is None
            else tuple(
                () if s == data["went_out"] else tuple(sorted(h)) for s, h in enumerate(hands)
            ),
            round_scores=None if scores is None else tuple(scores),
            previous_totals=None if prev is None else tuple(prev),
            dealer=data["dealer"],
            stake_per_point=data["stake_per_point"],
            decks=decks,
            rules=data["rules"],
        )


class T13SettleResponse(Schema):
    """Round scores, running totals and, after round 11, the winner(s) and money."""

    game = fields.String()
    round = fields.Integer()
    went_out = fields.Integer()
    round_scores = fields.List(fields.Integer(), metadata={"description": "This round (T13-6)."})
    totals = fields.List(fields.Integer(), metadata={"description": "Running totals."})
    final = fields.Boolean(metadata={"description": "True after round 11."})
    winners = fields.List(
        fields.Integer(),
        metadata={"description": "After round 11: the lowest total(s) (ties share); else []."},
    )
    net = fields.List(
        fields.Integer(),
        metadata={"description": "Money per seat (with `stake_per_point`); sums to zero."},
    )
    stake_per_point = fields.Integer()
    next = fields.Nested(T13NextOut, allow_none=True, metadata=NEXT_DOC)
    session = fields.Nested(T13SessionOut)


SETTLE_REQUESTS: dict[str, type[Schema]] = {
    GAME_FLIP_FLOP: GffSettleRequest,
    TRIPLE_TUNK: TtSettleRequest,
    THREE_THIRTEEN: T13SettleRequest,
}
SETTLE_RESPONSES: dict[str, type[Schema]] = {
    GAME_FLIP_FLOP: GffSettleResponse,
    TRIPLE_TUNK: TtSettleResponse,
    THREE_THIRTEEN: T13SettleResponse,
}
