"""``POST /v1/games/{game}/melds``: request schemas (one per game) and response schemas.

A request carries the asking player's hand, the melds on the table, the seat and table size, the
house rules and (Three Thirteen) the round and decks. Loading it validates everything once and
yields a :class:`MeldsQuery` of engine values whose :meth:`MeldsQuery.canonical` form is the
cache key: the hand is sorted ints, each table meld's cards sorted, rules canonical.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from marshmallow import Schema, fields, post_load, validate

from api.schemas.common import (
    MAX_TIES_LIMIT,
    build_table,
    canonical_table,
    cards_field,
    check_copies,
    check_decks_fit,
    check_hand,
    check_seat,
    check_tt_laid_cards,
    decks_field,
    hand_size_for_round,
    layoffs_field,
    make_schema,
    players_field,
    raise_engine,
    round_field,
    schema_name,
    seat_field,
    table_field,
)
from api.schemas.fields import RulesField, StrictBoolean, card_field_for
from engine.core.errors import EngineError
from engine.core.options import (
    GAME_FLIP_FLOP,
    GAMES,
    THREE_THIRTEEN,
    TRIPLE_TUNK,
    Rules,
    ThreeThirteenRules,
    canonical_rules,
)
from engine.core.types import TableMeld
from engine.games import find_game
from engine.games.gff.play import spread_kind, validate_gff_table
from engine.games.t13.settle import default_decks
from engine.games.tt.melds import is_tt_meld
from engine.games.tt.play import validate_tt_table
from engine.standard.melds import is_meld, t13_context

DEFAULT_MELDS_LIMIT = 100
"""Legal melds listed when the request gives no ``limit`` (bounded output by default)."""
MAX_MELDS_LIMIT = 1000
"""Most legal melds one answer lists; page further with ``offset``."""
MAX_MELDS_OFFSET = 1_000_000


@dataclass(frozen=True, slots=True)
class MeldsQuery:
    """A validated melds request in engine values (cards are ints, the hand sorted)."""

    game: str
    hand: tuple[int, ...]
    table: tuple[TableMeld, ...]
    seat: int
    players: int
    rules: Rules
    round: int | None = None
    decks: int = 1
    limit: int = DEFAULT_MELDS_LIMIT
    max_ties: int = 10
    offset: int = 0
    early_tunk_claimed: bool = False

    def canonical(self) -> dict[str, Any]:
        """Order- and notation-independent JSON form (the cache key's request part).

        ``players`` and ``decks`` only bound the validation already done; the answer does not
        depend on them, so they stay out of the key (more hits, same answers).
        """
        return {
            "hand": list(self.hand),
            "table": canonical_table(self.table),
            "seat": self.seat,
            "rules": canonical_rules(self.rules),
            "round": self.round,
            "limit": self.limit,
            "max_ties": self.max_ties,
            "early_tunk_claimed": self.early_tunk_claimed,
            **({"offset": self.offset} if self.offset else {}),
        }


def gff_meld_problem(cards: tuple[int, ...]) -> str | None:
    """Why ``cards`` is not a Game Flip Flop spread (GFF-2), or None when it is."""
    if spread_kind(cards) is None:
        return (
            "not a spread: 3-4 cards of one rank, or 3+ consecutive cards of one suit, "
            "aces low (GFF-2)"
        )
    return None


def tt_meld_problem(cards: tuple[int, ...]) -> str | None:
    """Why ``cards`` is not a Triple Tunk meld (TT-6), or None when it is."""
    if not is_tt_meld(cards):
        return (
            "not a meld: 3-5 cards matching in two of colour/shape/number, or in sequence and "
            "matching in colour or shape (TT-6)"
        )
    return None


def t13_meld_problem(
    round_number: int, rules: ThreeThirteenRules
) -> Callable[[tuple[int, ...]], str | None]:
    """A checker for Three Thirteen combinations of ``round_number`` (its wild rank, T13-4)."""

    def check(cards: tuple[int, ...]) -> str | None:
        if not is_meld(cards, t13_context(round_number, rules)):
            return (
                f"not a combination in round {round_number}: 3+ cards of one rank or 3+ "
                "consecutive cards of one suit, wilds standing in (T13-4)"
            )
        return None

    return check


ENGINE_TABLE_CHECKS: dict[str, Callable[[Sequence[TableMeld]], None]] = {
    GAME_FLIP_FLOP: validate_gff_table,
    TRIPLE_TUNK: validate_tt_table,
}
"""The engine's own table checks of each game that has them (Three Thirteen has no lay-offs,
T13-7, so nothing more to check)."""


def validate_engine_table(game: str, table: Sequence[TableMeld]) -> None:
    """The engine's own table checks (e.g. GFF: the owner laid at least three of the cards)."""
    check = ENGINE_TABLE_CHECKS.get(game)
    if check is None:
        return
    try:
        check(table)
    except EngineError as exc:
        raise_engine(exc, "table")


class MeldsRequestBase(Schema):
    """Fields and the cross-field checks every game's melds request shares."""

    game = GAME_FLIP_FLOP

    seat = seat_field("The asking player's seat (0..players-1, C-4).", load_default=0)
    limit = fields.Integer(
        strict=True,
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=1, max=MAX_MELDS_LIMIT),
        metadata={
            "description": f"List at most this many legal melds (default {DEFAULT_MELDS_LIMIT}, "
            f"at most {MAX_MELDS_LIMIT}; null means the default); page with `offset`."
        },
    )
    offset = fields.Integer(
        strict=True,
        load_default=0,
        validate=validate.Range(min=0, max=MAX_MELDS_OFFSET),
        metadata={
            "description": "Skip this many legal melds first (paging with `limit`; "
            "`legal_melds_count` says how many there are)."
        },
    )
    max_ties = fields.Integer(
        strict=True,
        load_default=10,
        validate=validate.Range(min=0, max=MAX_TIES_LIMIT),
        metadata={"description": "List at most this many other optimal arrangements (`ties`)."},
    )

    def meld_problem(self, data: dict[str, Any]) -> Callable[[tuple[int, ...]], str | None]:
        """The game's check that a table meld is a meld."""
        return gff_meld_problem

    def check_hand_size(self, data: dict[str, Any]) -> None:
        """Game-specific hand checks (sizes, copies)."""
        check_hand(self.game, data["hand"])

    def check_laid_cards(self, table: Sequence[TableMeld], players: int) -> None:
        """Game-specific checks of what the table says each seat laid (nothing by default)."""

    @post_load
    def make_query(self, data: dict[str, Any], **_: Any) -> MeldsQuery:
        """Cross-field checks in field order, then the frozen query."""
        players = data.get("players") or find_game(self.game).players[1]
        check_seat("seat", data["seat"], players)
        self.check_hand_size(data)  # Three Thirteen fills in the default decks (T13-2)
        decks = data.get("decks", 1)
        table = build_table(data.get("table", []), players, self.meld_problem(data))
        copies = find_game(self.game).copies(decks)
        check_copies(
            self.game,
            [("hand", data["hand"])]
            + [(f"table[{i}].cards", m["cards"]) for i, m in enumerate(data.get("table", []))],
            copies,
        )
        validate_engine_table(self.game, table)
        self.check_laid_cards(table, players)
        return MeldsQuery(
            game=self.game,
            hand=tuple(sorted(data["hand"])),
            table=table,
            seat=data["seat"],
            players=players,
            rules=data["rules"],
            round=data.get("round"),
            decks=decks,
            limit=DEFAULT_MELDS_LIMIT if data["limit"] is None else data["limit"],
            max_ties=data["max_ties"],
            offset=data["offset"],
            early_tunk_claimed=data.get("early_tunk_claimed", False),
        )


_HAND_DOC = "The asking player's cards (after drawing, when asking about going out)."
_TABLE_DOC = "Melds on the table, in the order lay-offs refer to them (`meld_index`)."
_PLAYERS_DOC = "Seats at the table, for the seat checks (default: the game's largest table)"


class GffMeldsRequest(MeldsRequestBase):
    """Game Flip Flop melds request (standard cards, GFF-1)."""

    class Meta:
        fields = ("hand", "table", "seat", "players", "rules", "limit", "offset", "max_ties")

    game = GAME_FLIP_FLOP
    hand = cards_field(GAME_FLIP_FLOP, _HAND_DOC + " At most 6 cards.", required=True)
    table = table_field(GAME_FLIP_FLOP, _TABLE_DOC)
    players = players_field(GAME_FLIP_FLOP, _PLAYERS_DOC)
    rules = RulesField(GAME_FLIP_FLOP)


class TtMeldsRequest(MeldsRequestBase):
    """Triple Tunk melds request (Triple Topper cards, TT-1)."""

    class Meta:
        fields = (
            "hand",
            "table",
            "seat",
            "players",
            "early_tunk_claimed",
            "rules",
            "limit",
            "offset",
            "max_ties",
        )

    game = TRIPLE_TUNK
    hand = cards_field(TRIPLE_TUNK, _HAND_DOC + " At most 6 cards.", required=True)
    table = table_field(TRIPLE_TUNK, _TABLE_DOC)
    players = players_field(TRIPLE_TUNK, _PLAYERS_DOC)
    rules = RulesField(TRIPLE_TUNK)
    early_tunk_claimed = StrictBoolean(
        load_default=False,
        metadata={
            "description": "Whether this player claimed an early tunk (TT-9): doubles what a "
            "tunk out now pays (TT-14)."
        },
    )

    def meld_problem(self, data: dict[str, Any]) -> Callable[[tuple[int, ...]], str | None]:
        return tt_meld_problem

    def check_laid_cards(self, table: Sequence[TableMeld], players: int) -> None:
        """TT-1/TT-10/TT-11: what a seat can have laid (nobody has tunked out yet)."""
        check_tt_laid_cards(table, players, None)


class T13MeldsRequest(MeldsRequestBase):
    """Three Thirteen melds request (standard cards, several decks allowed, T13-1/T13-2)."""

    class Meta:
        fields = (
            "hand",
            "table",
            "seat",
            "players",
            "round",
            "decks",
            "rules",
            "limit",
            "offset",
            "max_ties",
        )

    game = THREE_THIRTEEN
    hand = cards_field(
        THREE_THIRTEEN,
        _HAND_DOC + " round+2 cards, or round+3 after drawing.",
        required=True,
    )
    table = table_field(
        THREE_THIRTEEN,
        "Combinations already shown (e.g. by the player who went out). They "
        "only count toward the card copies: Three Thirteen has no lay-offs (T13-7).",
    )
    players = players_field(THREE_THIRTEEN, _PLAYERS_DOC)
    rules = RulesField(THREE_THIRTEEN)
    round = round_field(required=True)
    decks = decks_field()

    def meld_problem(self, data: dict[str, Any]) -> Callable[[tuple[int, ...]], str | None]:
        return t13_meld_problem(data["round"], data["rules"])

    def check_hand_size(self, data: dict[str, Any]) -> None:
        if "decks" not in data:
            players = data.get("players")
            data["decks"] = default_decks(players) if players else 1  # T13-2
        check_decks_fit(data.get("players"), data["decks"])
        hand_size_for_round(data["hand"], data["round"])
        check_hand(self.game, data["hand"], round_number=data["round"], decks=data["decks"])


MELDS_REQUESTS: dict[str, type[MeldsRequestBase]] = {
    GAME_FLIP_FLOP: GffMeldsRequest,
    TRIPLE_TUNK: TtMeldsRequest,
    THREE_THIRTEEN: T13MeldsRequest,
}

# --- responses ---------------------------------------------------------------------------------


class WildOut(Schema):
    """A wild card and the card it stands for in its meld (T13-4)."""


class StdMeldOutBase(Schema):
    """A standard-deck meld: a set (one rank) or a run (one suit), with wild assignments."""

    kind = fields.String(metadata={"description": "`set` or `run` (GFF-2 / T13-4)."})
    rank = fields.String(
        allow_none=True, metadata={"description": "A set's rank (A, 2-10, J, Q, K); null for runs."}
    )
    suit = fields.String(
        allow_none=True, metadata={"description": "A run's suit (S H D C); null for sets."}
    )
    low = fields.String(
        allow_none=True,
        metadata={"description": "A run's lowest rank (with wilds standing in); null for sets."},
    )
    high = fields.String(
        allow_none=True,
        metadata={"description": "A run's highest rank (with wilds standing in); null for sets."},
    )


class TTMatchesOut(Schema):
    """Which attributes of a Triple Tunk meld match (TT-3, TT-4; wilds count as matching)."""

    colour = fields.Boolean()
    shape = fields.Boolean()
    number = fields.Boolean()


class TTMeldOutBase(Schema):
    """A Triple Tunk meld: what matches, whether it is a sequence and whether it is special."""

    matches = fields.Nested(TTMatchesOut)
    sequence = fields.Boolean(metadata={"description": "In sequence (TT-5, ? = 5, high only)."})
    special = fields.Boolean(
        metadata={"description": "Special (TT-7): sequence + colour + shape, or all three match."}
    )


def _tt_meld_out(game: str) -> type[Schema]:
    """A Triple Tunk meld: what matches, sequence, special (TT-3..TT-7)."""
    return make_schema(
        schema_name(game, "Meld"),
        TTMeldOutBase,
        {"cards": fields.List(card_field_for(game))},
        order=("cards",),
    )


def _std_meld_attrs(game: str) -> dict[str, Any]:
    return {"cards": fields.List(card_field_for(game))}


def _std_meld_out(game: str) -> type[Schema]:
    """A standard-deck meld without wilds (GFF-2)."""
    return make_schema(
        schema_name(game, "Meld"), StdMeldOutBase, _std_meld_attrs(game), order=("cards",)
    )


def _wild_meld_out(game: str) -> type[Schema]:
    """A standard-deck meld that may hold wilds, with what each stands for (T13-4)."""
    wild = make_schema(
        schema_name(game, "Wild"),
        WildOut,
        {
            "card": card_field_for(game, metadata={"description": "The wild card."}),
            "stands_for": card_field_for(game, metadata={"description": "The card it stands for."}),
        },
    )
    attrs = _std_meld_attrs(game)
    attrs["wilds"] = fields.List(
        fields.Nested(wild),
        metadata={"description": "Wild cards in the meld and what each stands for (T13-4)."},
    )
    return make_schema(schema_name(game, "Meld"), StdMeldOutBase, attrs, order=("cards",))


_MELD_OUT: dict[str, Callable[[str], type[Schema]]] = {
    GAME_FLIP_FLOP: _std_meld_out,
    TRIPLE_TUNK: _tt_meld_out,
    THREE_THIRTEEN: _wild_meld_out,
}
"""Each game's meld description builder."""


@cache
def meld_out_schema(game: str) -> type[Schema]:
    """Per-game meld description output."""
    return _MELD_OUT[game](game)


class ArrangementOutBase(Schema):
    """One split of the hand into melds and deadwood (C-2)."""

    deadwood_points = fields.Integer(metadata={"description": "Points of the deadwood (C-2)."})
    melded_count = fields.Integer(metadata={"description": "Cards in melds (first tie-break)."})


def _tt_arrangement_extras() -> dict[str, Any]:
    """Triple Tunk arrangements also say what their specials would earn (TT-14)."""
    return {
        "special_bonus": fields.Integer(
            metadata={
                "description": "TT-14 bonus these melds would earn once laid (1 = none, 2/3/4)."
            }
        )
    }


_ARRANGEMENT_EXTRAS: dict[str, Callable[[], dict[str, Any]]] = {
    TRIPLE_TUNK: _tt_arrangement_extras,
}


@cache
def arrangement_schema(game: str) -> type[Schema]:
    """Per-game arrangement output (``special_bonus`` only in Triple Tunk)."""
    attrs: dict[str, Any] = {
        "melds": fields.List(fields.Nested(meld_out_schema(game))),
        "deadwood": fields.List(card_field_for(game)),
    }
    attrs.update(_ARRANGEMENT_EXTRAS.get(game, dict)())
    return make_schema(
        schema_name(game, "Arrangement"), ArrangementOutBase, attrs, order=("melds", "deadwood")
    )


class GoingOutBase(Schema):
    """Whether the asking player can end the play now, how, and what it pays."""

    possible = fields.Boolean(metadata={"description": "The player can go/tunk out this turn."})
    rule = fields.String(
        allow_none=True, metadata={"description": "Rule id (docs/rules.md) that applies."}
    )
    pays = fields.String(metadata={"description": "What it pays, in words."})


def _layoffs_then_discard(game: str, layoffs_doc: str) -> dict[str, Any]:
    """The tail of a lay-down plan (GFF-10 / TT-11): cards laid off, then the last discard."""
    return {
        "layoffs": layoffs_field(game, layoffs_doc),
        "discard": card_field_for(
            game, allow_none=True, metadata={"description": "Last card thrown, or null."}
        ),
    }


def _gff_going_out(game: str, meld: type[Schema], arrangement: type[Schema]) -> dict[str, Any]:
    """Game Flip Flop: tunk out (GFF-9) or go out (GFF-10), spreads, lay-offs, discard."""
    return {
        "kind": fields.String(
            allow_none=True,
            metadata={"description": "`tunk_out` (GFF-9), `go_out` (GFF-10) or null."},
        ),
        "spreads": fields.List(
            fields.Nested(meld), metadata={"description": "New spreads to lay."}
        ),
        **_layoffs_then_discard(game, "Cards to add to table spreads, in laying order."),
        "extra_stakes_per_opponent": fields.Integer(
            metadata={
                "description": "Extra stakes each other player adds to the game pot "
                "(1 for a tunk out, GFF-9; 0 for going out, GFF-10)."
            }
        ),
    }


def _tt_going_out(game: str, meld: type[Schema], arrangement: type[Schema]) -> dict[str, Any]:
    """Triple Tunk: the TT-11 shape, melds, lay-offs, discard and the TT-14 multiplier."""
    return {
        "shape": fields.String(
            allow_none=True,
            metadata={
                "description": "TT-11 shape: `five_meld` (one 5-card meld + discard), "
                "`two_three_melds` (two 3-card melds, no discard), `three_meld_two_layoffs` "
                "(3-card meld + 2 cards on opponents' melds + discard), `four_meld_one_layoff` "
                "(4-card meld + 1 card on an opponent's meld + discard), or null."
            },
        ),
        "melds": fields.List(fields.Nested(meld), metadata={"description": "Melds to lay."}),
        **_layoffs_then_discard(game, "Cards to lay on opponents' melds."),
        "multiplier": fields.Integer(
            metadata={
                "description": "TT-14 multiplier of the unit every other player pays: x2 tunk "
                "out, x2 early tunk claimed, x special bonus (1-4); max 16."
            }
        ),
        "special_bonus": fields.Integer(
            metadata={"description": "TT-14 special bonus after this tunk out (1-4)."}
        ),
    }


def _t13_going_out(game: str, meld: type[Schema], arrangement: type[Schema]) -> dict[str, Any]:
    """Three Thirteen: each discard that goes out (T13-5), or ready before the draw."""
    option = make_schema(
        schema_name(game, "GoOutOption"),
        Schema,
        {
            "discard": card_field_for(game, metadata={"description": "The card to discard."}),
            "arrangement": fields.Nested(
                arrangement, metadata={"description": "How the other cards combine."}
            ),
        },
    )
    return {
        "options": fields.List(
            fields.Nested(option),
            metadata={
                "description": "Each distinct discard that leaves round+2 cards fully "
                "combined (T13-5)."
            },
        ),
        "ready": fields.Boolean(
            metadata={
                "description": "With round+2 cards (before drawing): every card is already "
                "combined, so any draw lets the player go out next turn."
            }
        ),
    }


_GOING_OUT: dict[str, Callable[[str, type[Schema], type[Schema]], dict[str, Any]]] = {
    GAME_FLIP_FLOP: _gff_going_out,
    TRIPLE_TUNK: _tt_going_out,
    THREE_THIRTEEN: _t13_going_out,
}
"""Each game's going-out fields."""


@cache
def going_out_schema(game: str) -> type[Schema]:
    """Per-game going-out output."""
    attrs = _GOING_OUT[game](game, meld_out_schema(game), arrangement_schema(game))
    return make_schema(
        schema_name(game, "GoingOut"),
        GoingOutBase,
        attrs,
        order=("possible", "rule", *attrs),
    )


class MeldsResponseBase(Schema):
    """Fields every game's melds answer shares."""

    game = fields.String()
    hand_points = fields.Integer(
        metadata={"description": "Points of the whole hand (GFF-1 / TT-2 / T13-3 values)."}
    )
    legal_melds_count = fields.Integer(metadata={"description": "How many legal melds exist."})
    legal_melds_truncated = fields.Boolean(
        metadata={"description": "True when more legal melds follow this page (`limit`)."}
    )
    ties_truncated = fields.Boolean(
        metadata={"description": "True when more tied arrangements exist than `max_ties`."}
    )


@cache
def layoff_step_schema(game: str) -> type[Schema]:
    """One step of a lay-off plan: a hand card and the table meld it goes on."""
    return make_schema(
        schema_name(game, "LayoffStep"),
        Schema,
        {
            "card": card_field_for(game),
            "meld_index": fields.Integer(
                metadata={"description": "Index of the table meld (in `table`) it goes on."}
            ),
        },
        order=("card", "meld_index"),
    )


@cache
def melds_response_schema(game: str) -> type[Schema]:
    """Per-game melds answer."""
    arrangement = arrangement_schema(game)
    attrs: dict[str, Any] = {
        "hand": fields.List(card_field_for(game), metadata={"description": "Sorted hand."}),
        "legal_melds": fields.List(
            fields.Nested(meld_out_schema(game)),
            metadata={"description": "Every meld the hand holds (each card multiset once)."},
        ),
        "best": fields.Nested(
            arrangement, metadata={"description": "Best arrangement (fewest deadwood, C-2)."}
        ),
        "ties": fields.List(
            fields.Nested(arrangement),
            metadata={"description": "Other arrangements with the same deadwood points."},
        ),
        "layoffs": layoffs_field(
            game,
            "Hand cards that can go on table melds (GFF-3 / TT-8); always "
            "empty in Three Thirteen (T13-7: no lay-offs).",
        ),
        "going_out": fields.Nested(going_out_schema(game)),
        "layoff_plan": fields.List(
            fields.Nested(layoff_step_schema(game)),
            metadata={
                "description": "The best set of lay-offs of the best arrangement's deadwood that "
                "can all be made together, in laying order (meld indexes refer to `table`): most "
                "points laid off, then most cards. Unlike `layoffs`, it respects that each "
                "lay-off changes its meld (a Triple Tunk meld holds at most 5 cards, TT-8; a set "
                "takes one 4th card, GFF-3) and, in Triple Tunk, keeps two cards in hand (TT-11) "
                "and never breaks the player's own special meld (TT-14 bonus). Empty in Three "
                "Thirteen (T13-7)."
            },
        ),
    }
    rounds = find_game(game).rounds is not None  # T13-1: the round sets the wild rank
    if rounds:
        attrs["round"] = fields.Integer()
        attrs["wild_rank"] = fields.String(
            metadata={"description": "This round's wild rank (T13-1)."}
        )
    order = (
        "game",
        *(("round", "wild_rank") if rounds else ()),
        "hand",
        "hand_points",
        "legal_melds",
        "legal_melds_count",
        "legal_melds_truncated",
        "best",
        "ties",
        "ties_truncated",
    )
    return make_schema(schema_name(game, "MeldsResponse"), MeldsResponseBase, attrs, order=order)


MELDS_RESPONSES: dict[str, type[Schema]] = {game: melds_response_schema(game) for game in GAMES}

__all__ = [
    "MELDS_REQUESTS",
    "MELDS_RESPONSES",
    "MeldsQuery",
    "tt_meld_problem",
    "validate_engine_table",
]
