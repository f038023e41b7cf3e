"""Pieces every request and response schema shares: table melds, seats, lay-offs, error paths.

Validation happens here, once, at the edge: after these schemas load a request, the engine only
sees ints, frozen rules and consistent tables. Cross-field problems (a card both in hand and on
the table, a seat past the table size, a round whose hand size does not fit) are raised as
marshmallow ``ValidationError`` with the same nested shape a field error has, so the problem+json
``errors`` map names the exact path (``table[1].added[0].seat``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, NoReturn

from marshmallow import Schema, fields, validate

from api.schemas.fields import MAX_SEAT_NUMBER, at_most, card_field_for, path_error
from engine.core.deck import MAX_DECKS, STANDARD, TRIPLE_TOPPER
from engine.core.errors import EngineError
from engine.core.types import TableMeld
from engine.games import THREE_THIRTEEN_GAME, TRIPLE_TUNK_GAME, find_game
from engine.games.tt.play import TUNK_SHAPES

MAX_TIES_LIMIT = 100
MAX_ROUND = THREE_THIRTEEN_GAME.rounds or 11  # T13-1
LAST_DEAL = THREE_THIRTEEN_GAME.deal_size(MAX_ROUND)  # T13-1: round 11 deals 13 cards
CARD_LIST_EXAMPLES: dict[str, str] = {
    STANDARD.kind: '["AS", "10H"]',
    TRIPLE_TOPPER.kind: '["RH3", "KB?"]',
}
"""A short card list in each deck's notation, by ``Deck.kind``, for "expected an array" errors."""


def schema_name(game: str, suffix: str) -> str:
    """Class name of a per-game schema (``GffMeldsRequest``): apispec names components by it."""
    return find_game(game).schema_prefix + suffix


def make_schema(
    name: str, base: type[Schema], attrs: dict[str, Any], order: Sequence[str] = ()
) -> type[Schema]:
    """Create a schema class named ``name``: per-game schemas share a base, differ in card field.

    ``order`` lists the fields to print first (the rest follow in declaration order), so a
    response reads top-down (``hand`` before ``best``) although base fields are declared first.
    """
    if not order:
        return type(name, (base,), dict(attrs))
    # SchemaMeta pops field attributes from the dict it gets, hence the copies.
    first: type[Schema] = type(name, (base,), dict(attrs))
    declared = first._declared_fields
    names = (*order, *(n for n in declared if n not in order))
    return type(name, (base,), {**attrs, "Meta": type("Meta", (), {"fields": names})})


def raise_engine(exc: EngineError, default_path: str) -> NoReturn:
    """Re-raise an engine rejection as a ValidationError at ``exc.field`` (or ``default_path``)."""
    raise path_error(exc.field or default_path, exc.message) from None


# --- seats -------------------------------------------------------------------------------------


def seat_field(description: str, **kwargs: Any) -> fields.Integer:
    """A seat number: 0..n-1 clockwise (C-4); the upper bound is checked against ``players``."""
    return fields.Integer(
        strict=True,
        validate=[validate.Range(min=0), at_most(MAX_SEAT_NUMBER)],
        metadata={"description": description},
        **kwargs,
    )


def players_field(game: str, description: str, **kwargs: Any) -> fields.Integer:
    """The number of seats at the table, within the game's range."""
    low, high = find_game(game).players
    return fields.Integer(
        strict=True,
        validate=validate.Range(min=low, max=high),
        metadata={"description": f"{description}; {low}-{high} in this game."},
        **kwargs,
    )


def check_seat(path: str, seat: int, players: int) -> None:
    """Raise at ``path`` when ``seat`` is not one of 0..players-1."""
    if not 0 <= seat < players:
        raise path_error(path, f"seat {seat} is not at this table: seats are 0..{players - 1}")


# --- cards and hands ---------------------------------------------------------------------------


def cards_field(game: str, description: str, **kwargs: Any) -> fields.List:
    """A list of ``game``'s cards (parsed to ints by the game's card field)."""
    sample = CARD_LIST_EXAMPLES[find_game(game).deck.kind]
    invalid = f"expected a JSON array of card strings such as {sample}"
    kwargs.setdefault("error_messages", {"invalid": invalid})
    metadata: dict[str, Any] = {"description": description}
    if kwargs.get("required") and "validate" not in kwargs:
        # A required list of cards with no length check of its own is a hand: the spec states
        # its bounds (the engine's own check, Game.validate_hand, still words the error).
        metadata.update(minItems=1, maxItems=find_game(game).max_hand_size())
    return fields.List(card_field_for(game), metadata=metadata, **kwargs)


def check_copies(game: str, groups: Sequence[tuple[str, Sequence[int]]], copies: int = 1) -> None:
    """C-1: no card shown more often than the decks hold, across every group of cards.

    Reports the exact position of the first copy too many (``table[0].cards[2]``), saying where
    the earlier copy was, so "in hand and on the table" is obvious to the client.
    """
    every = [card for _, cards in groups for card in cards]
    if len(set(every)) == len(every):  # no card twice: nothing to report (the usual body)
        return
    seen: Counter[int] = Counter()
    first: dict[int, str] = {}
    name = find_game(game).deck.name
    for path, cards in groups:
        for i, card in enumerate(cards):
            seen[card] += 1
            here = f"{path}[{i}]"
            first.setdefault(card, here)
            if seen[card] > copies:
                held = "the deck holds one" if copies == 1 else f"{copies} decks hold {copies}"
                raise path_error(
                    here,
                    f"{name(card)} is shown {seen[card]} times (first at {first[card]}); {held}",
                )


def check_hand(
    game: str,
    hand: Sequence[int],
    *,
    path: str = "hand",
    round_number: int | None = None,
    decks: int = 1,
    min_size: int = 1,
) -> None:
    """Repeated cards at their index, then the engine's size limits
    (``Game.validate_hand``)."""
    rules_of = find_game(game)
    check_copies(game, [(path, hand)], rules_of.copies(decks))
    try:
        rules_of.validate_hand(
            hand, round_number=round_number, decks=decks, field=path, min_size=min_size
        )
    except EngineError as exc:
        raise_engine(exc, path)


# --- table melds -------------------------------------------------------------------------------


class AddedCardSchema(Schema):
    """One card a player other than the meld's owner laid on it."""

    seat = seat_field("Seat that laid the card.", required=True)


class TableMeldBase(Schema):
    """A meld on the table: its owner, all its cards, and which of them other players added."""

    error_messages = {
        "type": 'expected an object {owner, cards}, e.g. {"owner": 1, "cards": ["10H", "JH", '
        '"QH"]}, not a bare list of cards'
    }

    owner = seat_field("Seat that laid the meld.", required=True)


@cache
def table_meld_schema(game: str) -> type[Schema]:
    """The per-game table meld schema (card notation differs per deck)."""
    added = make_schema(
        schema_name(game, "AddedCard"),
        AddedCardSchema,
        {"card": card_field_for(game, required=True)},
    )
    return make_schema(
        schema_name(game, "TableMeld"),
        TableMeldBase,
        {
            "cards": cards_field(
                game,
                "Every card of the meld, the owner's and the added ones.",
                required=True,
                validate=validate.Length(min=1, max=LAST_DEAL + 1),
            ),
            "added": fields.List(
                fields.Nested(added),
                load_default=list,
                validate=validate.Length(max=LAST_DEAL),
                metadata={
                    "description": "Cards in `cards` that a non-owner laid there, with the seat "
                    "that laid them. Omit when the owner laid every card."
                },
            ),
        },
    )


def table_field(game: str, description: str) -> fields.List:
    """A request's ``table``: at most 20 of ``game``'s table melds, default none."""
    return fields.List(
        fields.Nested(table_meld_schema(game)),
        load_default=list,
        validate=validate.Length(max=20),
        metadata={"description": description},
    )


def build_table(
    raw: Sequence[dict[str, Any]], players: int, check_meld: Callable[[tuple[int, ...]], str | None]
) -> tuple[TableMeld, ...]:
    """Turn loaded table melds into engine ``TableMeld``s, checking seats and meld shapes.

    ``check_meld`` returns why the cards are not a meld of the game (or None when they are).
    ``added`` cards must be in the meld (as many times as listed), laid by another seat.
    Cards inside a meld are sorted, so the same table written two ways is the same value.
    """
    out: list[TableMeld] = []
    for i, meld in enumerate(raw):
        where = f"table[{i}]"
        check_seat(f"{where}.owner", meld["owner"], players)
        cards = tuple(sorted(meld["cards"]))
        why = check_meld(cards)
        if why is not None:
            raise path_error(f"{where}.cards", why)
        left = Counter(cards)
        added: list[tuple[int, int]] = []
        for j, item in enumerate(meld["added"]):
            check_seat(f"{where}.added[{j}].seat", item["seat"], players)
            if item["seat"] == meld["owner"]:
                raise path_error(
                    f"{where}.added[{j}].seat",
                    "an added card is laid by a seat other than the meld's owner",
                )
            if left[item["card"]] <= 0:
                raise path_error(f"{where}.added[{j}].card", "the added card is not in `cards`")
            left[item["card"]] -= 1
            added.append((item["card"], item["seat"]))
        out.append(TableMeld(meld["owner"], cards, tuple(sorted(added))))
    return tuple(out)


def canonical_table(table: Sequence[TableMeld]) -> list[dict[str, Any]]:
    """JSON form of a parsed table for cache keys (order of melds kept: lay-offs index it)."""
    return [
        {"owner": m.owner, "cards": list(m.cards), "added": [list(a) for a in m.added]}
        for m in table
    ]


# --- common request fields ---------------------------------------------------------------------


def decks_field() -> fields.Integer:
    """T13-2: how many 52-card decks are shuffled together (a hand may hold that many copies)."""
    return fields.Integer(
        strict=True,
        validate=validate.Range(min=1, max=MAX_DECKS),
        metadata={
            "description": "Decks shuffled together (T13-2); a card may appear up to "
            "`decks` times. Default: 1 for 2 players, 2 for 3-4, then enough for round "
            "11's deal; 1 when `players` is not given."
        },
    )


def round_field(**kwargs: Any) -> fields.Integer:
    """T13-1: the round, 1..11 (round r deals r+2 cards, wild rank = the deal size)."""
    need = f"a whole number 1-{MAX_ROUND} (T13-1: round r deals r+2 cards)"
    return fields.Integer(
        strict=True,
        validate=validate.Range(min=1, max=MAX_ROUND, error=f"round must be {need}"),
        error_messages={"required": f"round is required: {need}", "invalid": f"must be {need}"},
        metadata={
            "description": "Round 1-11 (T13-1): deals round+2 cards; the wild rank is "
            "the deal size (3s in round 1 ... kings in round 11)."
        },
        **kwargs,
    )


def check_decks_fit(players: int | None, decks: int) -> None:
    """T13-2: the decks must hold round 11's deal (13 cards a seat) plus one stock card."""
    if players is not None and players * LAST_DEAL + 1 > 52 * decks:
        raise path_error(
            "decks",
            f"{decks} deck(s) cannot deal round 11 (13 cards each) to {players} players (T13-2)",
        )


def hand_size_for_round(hand: Sequence[int], round_number: int, path: str = "hand") -> None:
    """T13-1/T13-5: a hand holds the deal (round+2) or, after drawing, one card more."""
    deal = round_number + 2
    if len(hand) not in (deal, deal + 1):
        raise path_error(
            path,
            f"round {round_number} hands hold {deal} cards ({deal + 1} after drawing); "
            f"got {len(hand)}",
        )


# --- response pieces ---------------------------------------------------------------------------


class LayoffOutBase(Schema):
    """A hand card that can be added to a table meld (GFF-3 / TT-8)."""

    meld_index = fields.Integer(
        metadata={"description": "Index into the request's `table` of the meld it goes on."}
    )


@cache
def layoff_schema(game: str) -> type[Schema]:
    """Per-game lay-off output: the card, the meld, and the hand cards that must go first."""
    return make_schema(
        schema_name(game, "Layoff"),
        LayoffOutBase,
        {
            "card": card_field_for(game),
            "requires": fields.List(
                card_field_for(game),
                metadata={
                    "description": "Hand cards that must be laid there first (a chained lay-off: "
                    "the 9 after the 8); empty for a direct one."
                },
            ),
        },
        order=("card", "meld_index", "requires"),
    )


def layoffs_field(game: str, description: str) -> fields.List:
    """A list of ``game``'s lay-offs (:func:`layoff_schema`)."""
    return fields.List(fields.Nested(layoff_schema(game)), metadata={"description": description})


# --- Triple Tunk: what legal play can put on the table ------------------------------------------

TT_TUNK_SHAPES: tuple[tuple[tuple[int, ...], int], ...] = tuple(
    (sizes, sideways) for sizes, sideways, _discard in TUNK_SHAPES.values()
)
"""TT-11 tunk-out shapes from the engine (``TUNK_SHAPES``): (own cards of each own meld, cards
laid on opponents' melds); whether a discard follows does not matter for what is laid."""


def _fits_shape(sizes: Sequence[int], sideways: int) -> bool:
    """Whether own melds of ``sizes`` and ``sideways`` cards can be (part of) a TT-11 shape.

    A settlement's table may omit what the tunker laid on the winning turn, and an owner may
    still extend a meld, so each own meld must fit a distinct meld of the shape no larger.
    """
    for shape, side in TT_TUNK_SHAPES:
        if sideways > side or len(sizes) > len(shape):
            continue
        if all(
            s <= t
            for s, t in zip(sorted(sizes, reverse=True), sorted(shape, reverse=True), strict=False)
        ):
            return True
    return False


def check_tt_laid_cards(table: Sequence[TableMeld], players: int, tunker: int | None) -> None:
    """Reject a Triple Tunk table legal play cannot produce (422 at ``table``, naming the rule).

    A hand holds 5 cards between turns (TT-1, TT-10) and may be emptied only by tunking out
    (TT-11), so a seat that did not tunk out has laid at most 4 cards (own melds plus cards on
    others' melds). The tunker's cards must fit one TT-11 shape.
    """
    hand = TRIPLE_TUNK_GAME.deal_size()  # TT-1: held between turns (TT-10)
    own: list[list[int]] = [[] for _ in range(players)]
    sideways = [0] * players
    for meld in table:
        own[meld.owner].append(len(meld.own_cards()))
        for _card, seat in meld.added:
            sideways[seat] += 1
    for seat in range(players):
        laid = sum(own[seat]) + sideways[seat]
        if seat == tunker:
            if not _fits_shape(own[seat], sideways[seat]):
                raise path_error(
                    "table",
                    f"seat {seat} tunked out but its cards on the table ({sum(own[seat])} in its "
                    f"own melds, {sideways[seat]} on others') fit no TT-11 tunk-out shape",
                )
        elif laid > hand - 1:
            raise path_error(
                "table",
                f"seat {seat} has laid {laid} cards; a Triple Tunk hand of {hand} (TT-1, "
                "TT-10) keeps at least one card unless it tunks out (TT-11)",
            )
