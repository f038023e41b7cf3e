"""Three Thirteen advice requests: fields, cross-field checks, and the query they load into.

The round sets the hand size (T13-1, read from the game's
:class:`~engine.games.base.Game`), the decks how many copies of a card may be shown (T13-2).
The engine's ``T13Situation`` has no table: combinations already shown are seen cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from marshmallow import Schema, fields, post_load, validate

from api.schemas.advice.fields import (
    check_fits_deck,
    discard_pile_field,
    opponent_seats,
    samples_field,
    seed_field,
)
from api.schemas.advice.opponents import (
    check_opponents,
    opponents_field,
    shown_cards,
    t13_opponent_schema,
)
from api.schemas.advice.queries import DISCARD, DRAW, T13AdviceQuery
from api.schemas.advice.tunk_fields import PLAYERS_DOC
from api.schemas.common import (
    build_table,
    cards_field,
    check_copies,
    check_decks_fit,
    check_hand,
    check_seat,
    decks_field,
    make_schema,
    players_field,
    round_field,
    schema_name,
    seat_field,
    table_field,
)
from api.schemas.fields import MAX_TOTAL, RulesField, at_most, path_error
from api.schemas.melds import t13_meld_problem
from api.schemas.side_pots import money_field
from engine.advice.t13 import (
    DEFAULT_PRECISION,
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    DEFAULT_STOCK_SAMPLES,
    MAX_PRECISION,
    MAX_SAMPLES,
    MAX_STOCK_SAMPLES,
    MIN_STOCK_SAMPLES,
    T13Situation,
)
from engine.core.options import THREE_THIRTEEN, ThreeThirteenRules
from engine.core.types import TableMeld
from engine.games import THREE_THIRTEEN_GAME
from engine.games.t13.settle import default_decks

T13_DEFAULT_SAMPLES = DEFAULT_SAMPLES
T13_MAX_SAMPLES = MAX_SAMPLES
T13_DEFAULT_STOCK_SAMPLES = DEFAULT_STOCK_SAMPLES
T13_MAX_STOCK_SAMPLES = MAX_STOCK_SAMPLES
T13_DEFAULT_SEED = DEFAULT_SEED


def t13_situation(
    hand: Sequence[int],
    round_number: int,
    players: int,
    decks: int,
    pile: Sequence[int],
    table: Sequence[TableMeld],
    known: Sequence[tuple[int, ...]],
    sizes: Sequence[int],
    out: int | None,
    rules: ThreeThirteenRules,
    scores: Sequence[int] = (),
    discarded: Sequence[tuple[int, ...]] = (),
) -> T13Situation:
    """The engine's situation. ``T13Situation`` has no table: combinations already shown (by
    the player who went out) are seen cards, so they go below the discard pile, where they only
    leave the unseen cards (the top of the pile, the card a draw takes, is unchanged)."""
    shown = tuple(c for meld in table for c in meld.cards)
    return T13Situation(
        hand=tuple(sorted(hand)),
        round_number=round_number,
        players=players,
        decks=decks,
        discard_pile=(*pile, *shown),
        known=tuple(known),
        hand_sizes=tuple(sizes),
        out=out,
        rules=rules,
        scores=tuple(scores),
        discarded=tuple(discarded),
    )


def t13_previous_totals(
    data: dict[str, Any], players: int, round_number: int, scores: list[int]
) -> list[int]:
    """``scores`` as ``previous_totals`` fills them in (a settle answer's ``next``), checked:
    one per seat, equal to ``scores`` when both are given, all 0 before round 1 (T13-6)."""
    prev: list[int] | None = data.get("previous_totals")
    if prev is None:
        return scores
    if len(prev) != players:
        raise path_error("previous_totals", f"{len(prev)} entries for {players} seats")
    if scores and scores != prev:
        raise path_error(
            "previous_totals", f"{prev} contradicts `scores` {scores}: they mean the same totals"
        )
    if round_number == 1 and any(prev):
        raise path_error(
            "previous_totals", "no round is played before round 1: every total is 0 (T13-6)"
        )
    return prev


class T13AdviceRequestBase(Schema):
    """Fields and cross-field checks of every Three Thirteen advice request."""

    game = THREE_THIRTEEN
    endpoint = DISCARD

    seat = seat_field("The asking player's seat (0..players-1, C-4).", load_default=0)
    round = round_field(required=True)
    decks = decks_field()
    out = seat_field(
        "Seat of the opponent who has gone out (T13-5): this is the asking player's last turn. "
        "Omit while nobody has.",
        load_default=None,
        allow_none=True,
    )
    scores = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=0, max=100_000)),
        load_default=list,
        metadata={
            "description": "Running totals before this round, one per seat in seat order "
            "(T13-6: the lowest total wins). A player far ahead plays safer: its lead per round "
            "left sets `risk`, which weighs the deadwood held now above the chance of going out."
        },
    )
    previous_totals = fields.List(
        fields.Integer(strict=True, validate=[validate.Range(min=0), at_most(MAX_TOTAL)]),
        metadata={
            "description": "Running totals before this round (a settle answer's "
            "`next.previous_totals`): the same as `scores`, which it fills in; when both are "
            "given they must be equal (422). Before round 1 every total is 0 (T13-6)."
        },
    )
    dealer = seat_field(
        "The dealer's seat (C-4; a settle answer's `next.dealer`). Checked against `players`; "
        "it does not change the advice, which looks at the next player to your left.",
        load_default=None,
        allow_none=True,
    )
    stake_per_point = money_field(
        "Money per point after round 11 (a settle answer's `next.stake_per_point`). Accepted "
        "so `next` can be sent as is; the advice plays for points (T13-6), so it does not "
        "change the answer."
    )
    seed = seed_field(T13_DEFAULT_SEED)

    @post_load
    def make_query(self, data: dict[str, Any], **_: Any) -> T13AdviceQuery:
        """Cross-field checks in field order, then the frozen query."""
        rules_of = THREE_THIRTEEN_GAME
        players: int = data["players"]
        seat: int = data["seat"]
        check_seat("seat", seat, players)
        r: int = data["round"]
        decks: int = data.get("decks") or default_decks(players)  # T13-2
        check_decks_fit(players, decks)
        hand: list[int] = data["hand"]
        deal = rules_of.deal_size(r)
        want = rules_of.max_hand_size(r) if self.endpoint == DISCARD else deal
        if len(hand) != want:
            when = "after the draw" if self.endpoint == DISCARD else "before the draw"
            raise path_error(
                "hand",
                f"round {r} {self.endpoint} advice needs {want} cards ({when}; round {r} deals "
                f"{deal}, T13-1); got {len(hand)}",
            )
        check_hand(self.game, hand, round_number=r, decks=decks)
        rules = data["rules"]
        table = build_table(data["table"], players, t13_meld_problem(r, rules))
        opponents = data["opponents"]
        check_opponents(opponents, seat, players)
        for i, opp in enumerate(opponents):
            size = opp.get("hand_size")
            if size is not None and size > rules_of.max_hand_size(r):
                raise path_error(
                    f"opponents[{i}].hand_size",
                    f"round {r} hands hold at most {rules_of.max_hand_size(r)} cards (T13-1)",
                )
        pile: list[int] = data["discard_pile"]
        check_copies(self.game, shown_cards(data, hand, opponents), decks)
        out = data.get("out")
        if out is not None:
            check_seat("out", out, players)
            if out == seat:
                raise path_error("out", "advice is for a player who has not gone out yet")

        scores: list[int] = data["scores"]
        if scores and len(scores) != players:
            raise path_error(
                "scores", f"give one total per seat: {players} players, {len(scores)} totals"
            )
        scores = t13_previous_totals(data, players, r, scores)
        dealer = data.get("dealer")
        if dealer is not None:
            check_seat("dealer", dealer, players)
        order = opponent_seats(seat, players)
        by_seat = {o["seat"]: o for o in opponents}
        known = [tuple(sorted(by_seat.get(s, {}).get("picked_up", ()))) for s in order]
        thrown = [tuple(by_seat.get(s, {}).get("discarded", ())) for s in order]
        sizes = []
        for s in order:
            size = by_seat.get(s, {}).get("hand_size")
            sizes.append(deal if size is None else size)
        shown = len(hand) + sum(len(m.cards) for m in table) + len(pile)
        check_fits_deck(rules_of.deck.size * decks, shown, sum(sizes), f"{decks} deck(s)")
        situation = t13_situation(
            hand,
            r,
            players,
            decks,
            pile,
            table,
            known,
            sizes,
            order.index(out) if out is not None else None,
            rules,
            (scores[seat], *(scores[s] for s in order)) if scores else (),
            thrown if any(thrown) else (),
        )
        return T13AdviceQuery(
            endpoint=self.endpoint,
            situation=situation,
            seat=seat,
            opponent_seats=order,
            table=table,
            seed=data["seed"],
            samples=data["samples"],
            precision=data.get("precision", DEFAULT_PRECISION),
        )


_HAND_DOC = {
    DISCARD: "The asking player's cards after the draw: round+3 cards (T13-5).",
    DRAW: "The asking player's cards before the draw: round+2 cards (T13-1).",
}
_SAMPLES_NOTE = {
    DISCARD: "Hands of the next player sampled for the danger of each discard.",
    DRAW: "Most stock cards evaluated for the stock's mean value (the work cap); sampling stops "
    "earlier at `precision`, or when the interval excludes the value of taking (before "
    f"{MIN_STOCK_SAMPLES} cards only when Student's wider interval for so few "
    "cards does). Each stock card "
    "is one full evaluation of the hand after the draw (with the `discard` endpoint's default "
    f"{T13_DEFAULT_SAMPLES} danger samples and the same `seed`).",
}
_SAMPLES = {
    DISCARD: (T13_DEFAULT_SAMPLES, T13_MAX_SAMPLES),
    DRAW: (T13_DEFAULT_STOCK_SAMPLES, T13_MAX_STOCK_SAMPLES),
}
_ORDER: tuple[str, ...] = (
    "hand",
    "round",
    "decks",
    "table",
    "discard_pile",
    "seat",
    "players",
    "opponents",
    "out",
    "scores",
    "previous_totals",
    "dealer",
    "stake_per_point",
    "rules",
    "seed",
    "samples",
)


def _precision_field() -> fields.Float:
    """``precision`` of the draw: when sampling stock cards may stop."""
    return fields.Float(
        load_default=DEFAULT_PRECISION,
        validate=validate.Range(min=0, min_inclusive=False, max=MAX_PRECISION),
        metadata={
            "description": "Stop sampling stock cards once the 95% interval of the stock's "
            f"mean value is at most this wide on each side (points; default "
            f"{DEFAULT_PRECISION:g}, at most {MAX_PRECISION:g})."
        },
    )


@cache
def t13_request_schema(game: str, endpoint: str) -> type[Schema]:
    """The Three Thirteen request schema of ``endpoint`` (discard/draw)."""
    attrs: dict[str, Any] = {
        "hand": cards_field(game, _HAND_DOC[endpoint], required=True),
        "table": table_field(
            game,
            "Combinations already shown (by the player who went out, T13-5): seen cards, never "
            "imagined in a hand. No lay-offs in Three Thirteen (T13-7).",
        ),
        "discard_pile": discard_pile_field(
            game,
            "The discard pile, top card first (the card a `draw` could take is the first); as "
            "long as the decks allow (a round may run through reshuffles, T13-8).",
        ),
        "players": players_field(game, PLAYERS_DOC, required=True),
        "opponents": opponents_field(t13_opponent_schema(game)),
        "rules": RulesField(game),
        "samples": samples_field(*_SAMPLES[endpoint], _SAMPLES_NOTE[endpoint]),
        "game": game,
        "endpoint": endpoint,
    }
    order = _ORDER
    if endpoint == DRAW:
        attrs["precision"] = _precision_field()
        order = (*_ORDER, "precision")
    name = schema_name(game, endpoint.capitalize() + "Request")
    attrs["__doc__"] = f"{name}: what the asking player knows, for `{endpoint}` advice."
    return make_schema(name, T13AdviceRequestBase, attrs, order=order)


__all__ = [
    "T13_DEFAULT_SAMPLES",
    "T13_DEFAULT_SEED",
    "T13_DEFAULT_STOCK_SAMPLES",
    "T13_MAX_SAMPLES",
    "T13_MAX_STOCK_SAMPLES",
    "T13AdviceRequestBase",
    "t13_previous_totals",
    "t13_request_schema",
    "t13_situation",
]
