"""``POST /v1/games/{game}/discard | draw | knock``: advice request and response schemas.

One request shape per game describes what the asking player knows at the table: the
hand, the melds on the table with owners, the discard pile (top first), each opponent's hand
size and the cards it is known to hold (picked up from the pile), what it threw, how many turns it
played, the seat order and dealer, the flip card (GFF-5), TT-9 early-tunk claims and the TT-12
waiting counter, and for Three Thirteen the round, decks and who has gone out. The same body can
be posted to every advice endpoint of a game; only the hand size differs (after the draw for
``discard``, before it for ``draw`` and ``knock``).

Loading validates everything once, at the edge, with exact field paths (C-1: no card shown more
often than the decks hold across hand, table, discard pile and known pickups; seats in range;
hand sizes and card counts consistent with the deck) and yields a query of engine values: an
``engine.sim.core.Observation`` for the Tunk games, an ``engine.advice.t13.advisor.T13Situation``
for
Three Thirteen. The query's ``canonical()`` form is the cache key.

A settle answer's ``next`` can be merged into a request of the same game: Game Flip Flop
``bankrolls`` + ``stake`` decide who is dealt in (GFF-6, the same as ``hand_size`` 0) and who may
deal; Three Thirteen ``previous_totals`` are ``scores``. Both act through the query's engine
values, so the cache key needs nothing more. Carried pots, Triple Tunk ``running_totals``, Three
Thirteen ``dealer`` and ``stake_per_point`` are checked and accepted but do not change the advice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from marshmallow import Schema, fields, post_load, validate

from api.schemas.common import (
    build_table,
    canonical_table,
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
from api.schemas.fields import (
    MAX_MONEY,
    MAX_TOTAL,
    RulesField,
    StrictBoolean,
    at_most,
    bounded_money,
    card_field_for,
    path_error,
)
from api.schemas.melds import (
    gff_meld_problem,
    layoff_step_schema,
    t13_meld_problem,
    tt_meld_problem,
    validate_engine_table,
)
from api.schemas.side_pots import money_field
from engine.advice.situation import Observation
from engine.advice.t13 import advisor as t13_advice
from engine.advice.tunk import knock as tunk_knock
from engine.advice.tunk.common import check_observation
from engine.advice.tunk.discard import DANGER_POINTS, OUT_POINTS
from engine.advice.tunk.draw import DEFAULT_DRAW_PRECISION
from engine.advice.tunk.knock import model_for
from engine.core.errors import EngineError
from engine.core.options import (
    GAME_FLIP_FLOP,
    THREE_THIRTEEN,
    TRIPLE_TUNK,
    Rules,
    ThreeThirteenRules,
    canonical_rules,
)
from engine.core.types import TableMeld
from engine.games.gff.settle import stakes_for
from engine.games.t13.settle import default_decks

DISCARD = "discard"
DRAW = "draw"
KNOCK = "knock"

DEALT = 5  # GFF-1 / TT-1: five cards each
TUNK_DECK_SIZE = {GAME_FLIP_FLOP: 52, TRIPLE_TUNK: 125}
MAX_SEED = 2**63 - 1
MAX_WAITING = 3 * 125  # TT-12: 3 turns per card laid on the player's melds, at most the deck
MAX_PILE = 125
# A Tunk deal has no turn limit (GFF players may draw from the pile forever, TT-15 recycles the
# pile), so per-opponent histories are bounded only by the request body size (MAX_BODY_BYTES).
MAX_HISTORY = 100_000
MAX_PASS_TOTAL = 10
MAX_TURNS = 10**9

# Hand sizes per endpoint in the Tunk games: ``discard`` is asked after the draw (one card more
# than the hand held, at most 6), ``draw`` and ``knock`` before it (C-5, GFF-8, TT-13: at most 5).
TUNK_HAND_MAX = {DISCARD: DEALT + 1, DRAW: DEALT, KNOCK: DEALT}

# Sampling budgets, from the engine: the Tunk knock/drop estimate is Monte Carlo; the Tunk
# discard and draw figures are exact enumerations (seed and samples do not change them); Three
# Thirteen samples the next player's hands for the danger of a discard.
TUNK_DEFAULT_SAMPLES = tunk_knock.DEFAULT_SAMPLES
TUNK_MAX_SAMPLES = tunk_knock.MAX_SAMPLES
TUNK_DEFAULT_SEED = tunk_knock.DEFAULT_SEED
T13_DEFAULT_SAMPLES = t13_advice.DEFAULT_SAMPLES
T13_MAX_SAMPLES = t13_advice.MAX_SAMPLES
T13_DEFAULT_STOCK_SAMPLES = t13_advice.DEFAULT_STOCK_SAMPLES
T13_MAX_STOCK_SAMPLES = t13_advice.MAX_STOCK_SAMPLES
T13_DEFAULT_SEED = t13_advice.DEFAULT_SEED
T13_MAX_PILE = 52 * 8  # every card of the most decks (T13-2); C-1 bounds it by the decks too

# Which endpoints' answers depend on ``seed``/``samples`` (only those put them in the cache key).
SAMPLED: dict[tuple[str, str], bool] = {
    (GAME_FLIP_FLOP, DISCARD): False,
    (GAME_FLIP_FLOP, DRAW): True,
    (GAME_FLIP_FLOP, KNOCK): True,
    (TRIPLE_TUNK, DISCARD): False,
    (TRIPLE_TUNK, DRAW): True,
    (TRIPLE_TUNK, KNOCK): True,
    (THREE_THIRTEEN, DISCARD): True,
    (THREE_THIRTEEN, DRAW): True,
}


# --- queries -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TunkAdviceQuery:
    """A validated Game Flip Flop / Triple Tunk advice request: the engine's ``Observation`` plus
    the request options. ``stake`` (GFF) / ``unit`` (TT) only prices the knock payout."""

    game: str
    endpoint: str
    obs: Observation
    rules: Rules
    seed: int
    samples: int | None
    stake: int | None = None
    precision: float | None = None

    @property
    def sampled(self) -> bool:
        """Whether the answer depends on ``seed`` and ``samples``."""
        return SAMPLED[(self.game, self.endpoint)]

    def canonical(self) -> dict[str, Any]:
        """Order- and notation-independent JSON form (the cache key's request part).

        The hand is sorted and each seat's known cards too; the discard pile keeps its order
        (top first matters), as do each opponent's discards (most recent first).
        """
        o = self.obs
        out: dict[str, Any] = {
            "hand": list(o.hand),
            "table": canonical_table(o.table),
            "discard_pile": list(o.discards),
            "seat": o.seat,
            "players": o.n_players,
            "dealer": o.dealer,
            "known": [list(k) for k in o.known],
            "hand_sizes": list(o.hand_sizes),
            "turns": list(o.turns),
            "discarded": [list(h) for h in o.discard_history],
            "declined": [list(h) for h in o.declined],
            "flip_card": o.flip_card,
            "waiting": list(o.waiting),
            "passes": [list(p) for p in o.passes],
            "early": list(o.early),
            "rules": canonical_rules(self.rules),
            "stake": self.stake,
            # What the money means for the answer: who is dealt in (``hand_sizes``) and whether
            # the asking seat is all in (GFF-6); the drop payout depends on nothing else.
            "all_in": tunk_knock.is_all_in(o),
        }
        if self.sampled:
            out["seed"] = self.seed
            out["samples"] = self.samples
            out["precision"] = self.precision
        return out


@dataclass(frozen=True, slots=True)
class T13AdviceQuery:
    """A validated Three Thirteen advice request: the engine's ``T13Situation`` plus options.

    ``opponent_seats`` lists the opponents' seats clockwise from the player's left, which is the
    order of ``situation.known`` / ``situation.hand_sizes``. ``table`` (combinations already
    shown) is kept for the cache key; the engine sees those cards as seen cards (see
    :func:`t13_situation`).
    """

    endpoint: str
    situation: t13_advice.T13Situation
    seat: int
    opponent_seats: tuple[int, ...]
    table: tuple[TableMeld, ...]
    seed: int
    samples: int
    precision: float = t13_advice.DEFAULT_PRECISION

    game = THREE_THIRTEEN

    @property
    def sampled(self) -> bool:
        """Whether the answer depends on ``seed`` and ``samples``."""
        return SAMPLED[(THREE_THIRTEEN, self.endpoint)]

    def canonical(self) -> dict[str, Any]:
        """Cache-key form: sorted hand and known cards, pile order kept, canonical rules."""
        s = self.situation
        out: dict[str, Any] = {
            "hand": list(s.hand),
            "round": s.round_number,
            "players": s.players,
            "decks": s.decks,
            "seat": self.seat,
            "table": canonical_table(self.table),
            "discard_pile": list(s.discard_pile),
            "known": [list(k) for k in s.known],
            "hand_sizes": list(s.hand_sizes),
            "out": s.out,
            "rules": canonical_rules(s.rules),
            "scores": list(s.scores),
            "discarded": [list(d) for d in s.discarded],
        }
        if self.sampled:
            out["seed"] = self.seed
            out["samples"] = self.samples
        if self.endpoint == DRAW:
            out["precision"] = self.precision
        return out


# --- shared request fields ---------------------------------------------------------------------


def seed_field(default: int) -> fields.Integer:
    """``seed``: fixes the pseudo-random draws, so an answer is reproducible (and cacheable)."""
    return fields.Integer(
        strict=True,
        load_default=default,
        validate=validate.Range(min=0, max=MAX_SEED),
        metadata={
            "description": f"Seed of the pseudo-random draws (default {default}); the same "
            "request with the same seed gets the same answer."
        },
    )


def samples_field(default: int, cap: int, note: str) -> fields.Integer:
    """``samples``: the Monte Carlo budget, 1..``cap`` (422 above the cap)."""
    return fields.Integer(
        strict=True,
        load_default=default,
        validate=validate.Range(
            min=1, max=cap, error=f"samples must be between 1 and {cap} (the hard cap)"
        ),
        metadata={
            "description": f"Monte Carlo samples (default {default}, hard cap {cap}: more is a "
            f"422). {note}"
        },
    )


def discard_pile_field(game: str) -> fields.List:
    """The discard pile, top card first."""
    return cards_field(
        game,
        "The discard pile, top card first (the card a `draw` could take is the first).",
        load_default=list,
        validate=validate.Length(max=MAX_PILE),
    )


def opponent_seats(seat: int, players: int) -> tuple[int, ...]:
    """Every other seat, clockwise from ``seat``'s left (C-4)."""
    return tuple((seat + i) % players for i in range(1, players))


class OpponentBase(Schema):
    """What the asking player knows about one opponent (any seat left out: nothing known)."""

    seat = seat_field("The opponent's seat (0..players-1, not the asking player's).", required=True)


class TunkOpponentBase(OpponentBase):
    """A Game Flip Flop / Triple Tunk opponent."""

    hand_size = fields.Integer(
        strict=True,
        load_default=DEALT,
        validate=validate.Range(min=1, max=DEALT + 1),
        metadata={"description": "Cards the opponent holds now (default 5, the deal)."},
    )
    turns = fields.Integer(
        strict=True,
        validate=validate.Range(min=0, max=MAX_TURNS),
        metadata={
            "description": "Turns the opponent has completed this deal (default: the number of "
            "`discarded` cards). An opponent who has played a turn is assumed, usually, to hold no "
            "meld and nothing it could lay off: it would have laid them (opponent model)."
        },
    )


class T13OpponentBase(OpponentBase):
    """A Three Thirteen opponent."""

    hand_size = fields.Integer(
        strict=True,
        validate=validate.Range(min=0, max=t13_advice.MAX_ROUND + 3),
        metadata={"description": "Cards the opponent holds now (default round+2, the deal)."},
    )
    discarded = cards_field(
        THREE_THIRTEEN,
        "Cards the opponent discarded this round, any order, no length limit (a round may run "
        "through several reshuffles, T13-8). Opponent model: a player who throws a card does not "
        "collect around it, so its imagined hand holds cards of that rank, or of that suit "
        f"within two ranks, {t13_advice.DISCARDED_NEAR_WEIGHT:g} times as often.",
        load_default=list,
    )


@cache
def opponent_schema(game: str) -> type[Schema]:
    """Per-game opponent schema (the card notation differs)."""
    picked = cards_field(
        game,
        "Cards the opponent picked up from the discard pile and still holds (known to be in "
        "its hand; never imagined anywhere else).",
        load_default=list,
        validate=validate.Length(max=DEALT + 1 if game != THREE_THIRTEEN else 14),
    )
    if game == THREE_THIRTEEN:
        return make_schema(
            schema_name(game, "AdviceOpponent"), T13OpponentBase, {"picked_up": picked}
        )
    attrs: dict[str, Any] = {
        "picked_up": picked,
        "discarded": cards_field(
            game,
            "Cards the opponent discarded this deal, most recent first. The opponent model "
            "weighs by them whether it throws its highest deadwood card (its hidden cards then "
            "rank below the lowest of these) or plays at random (used by `knock`).",
            load_default=list,
            validate=validate.Length(max=MAX_HISTORY),
        ),
        "declined": cards_field(
            game,
            "Top discards the opponent left lying when it drew from the stock instead, most "
            "recent first: it would have taken a card that lowered its hand (used by `knock`). "
            "Any number is accepted; the most recent ones are enough.",
            load_default=list,
            validate=validate.Length(max=MAX_HISTORY),
        ),
    }
    attrs["shown"] = cards_field(
        game,
        "Cards the opponent has shown and still holds: "
        + (
            "the lowest cards it showed for the flip or flop pot (GFF-5)."
            if game == GAME_FLIP_FLOP
            else "the hand it showed to claim an early tunk (TT-9), less what it has laid or "
            "thrown since."
        )
        + " Like `picked_up`, known to be in its hand and never imagined anywhere else.",
        load_default=list,
        validate=validate.Length(max=DEALT + 1),
    )
    attrs["passes"] = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=0, max=MAX_PASS_TOTAL)),
        load_default=list,
        validate=validate.Length(max=MAX_HISTORY),
        metadata={
            "description": "Hand totals (at most 10) the opponent was seen to hold at turn starts "
            "where it could have knocked or dropped and played on (shown at the end of an "
            "earlier deal, or worked out): evidence against the aggressive knocking styles of "
            "the opponent model (engine.advice.tunk.styles)."
        },
    )
    if game == GAME_FLIP_FLOP:
        attrs["hand_size"] = fields.Integer(
            strict=True,
            validate=validate.Range(min=0, max=DEALT + 1),
            metadata={
                "description": "Cards the opponent holds now (default 5, the deal; 0 when "
                "`bankrolls` show the seat cannot stake). 0: the seat was not dealt in (GFF-6: it "
                "could not keep a stake in reserve, or sits out); it holds no cards, takes no turn "
                "and is not compared at a drop (GFF-8). With `bankrolls`, a seat that cannot "
                "stake must have 0 here and a seat that can stake must not (422)."
            },
        )
    if game == TRIPLE_TUNK:
        attrs["waiting"] = fields.Integer(
            strict=True,
            load_default=0,
            validate=validate.Range(min=0, max=MAX_WAITING),
            metadata={
                "description": "The opponent's TT-12 waiting counter now: 3 per card others "
                "laid on its melds, less one per turn it started. A positive counter at the "
                "start of its next turn means it cannot knock then, so it is no knock threat "
                "before your next turn (the lay-down plan of `discard` holds melds longer)."
            },
        )
        attrs["early_tunk"] = StrictBoolean(
            load_default=False,
            metadata={
                "description": "The opponent claimed an early tunk (TT-9): a caught knocker "
                "pays it double (TT-14)."
            },
        )
    return make_schema(schema_name(game, "AdviceOpponent"), TunkOpponentBase, attrs)


def opponents_field(game: str) -> fields.List:
    """The ``opponents`` list of ``game``."""
    return fields.List(
        fields.Nested(opponent_schema(game)),
        load_default=list,
        validate=validate.Length(max=7),
        metadata={
            "description": "What is known about each opponent, one entry per seat at most. "
            "Seats left out hold the deal's cards with nothing known about them."
        },
    )


def shown_cards(
    data: dict[str, Any], hand: list[int], opponents: list[dict[str, Any]]
) -> list[tuple[str, list[int]]]:
    """Every card group the request shows, with its field path, for the deck-copies check."""
    return (
        [("hand", hand)]
        + [(f"table[{i}].cards", m["cards"]) for i, m in enumerate(data["table"])]
        + [("discard_pile", data["discard_pile"])]
        + [(f"opponents[{i}].picked_up", o["picked_up"]) for i, o in enumerate(opponents)]
        + [(f"opponents[{i}].shown", o["shown"]) for i, o in enumerate(opponents) if "shown" in o]
    )


def check_opponents(raw: Sequence[dict[str, Any]], seat: int, players: int) -> None:
    """Opponent seats in range, not the asking seat, each at most once; known <= held."""
    seen: dict[int, int] = {}
    for i, opp in enumerate(raw):
        where = f"opponents[{i}]"
        check_seat(f"{where}.seat", opp["seat"], players)
        if opp["seat"] == seat:
            raise path_error(f"{where}.seat", "this is the asking player's own seat")
        if opp["seat"] in seen:
            raise path_error(
                f"{where}.seat",
                f"seat {opp['seat']} is listed twice (first at opponents[{seen[opp['seat']]}])",
            )
        seen[opp["seat"]] = i
        size = opp.get("hand_size")
        held = len(opp["picked_up"]) + len(opp.get("shown", ()))
        if size is not None and held > size:
            raise path_error(
                f"{where}.picked_up",
                f"{held} cards known to be held, but the opponent holds {size}",
            )


def check_fits_deck(deck_size: int, shown: int, held: int, what: str) -> None:
    """The hands, table and pile must fit the deck(s): ``shown`` + ``held`` <= ``deck_size``."""
    if shown + held > deck_size:
        raise path_error(
            "opponents",
            f"the counts do not fit {what}: {shown} cards shown (hand, table, discard pile) plus "
            f"{held} in opponents' hands is more than its {deck_size} cards",
        )


# --- Game Flip Flop / Triple Tunk --------------------------------------------------------------


def gff_dealt_in(data: dict[str, Any], players: int, seat: int) -> frozenset[int] | None:
    """The seats ``bankrolls`` + ``stake`` deal in (GFF-6: k >= 1), or None without bankrolls.

    The bankrolls are a settle answer's ``next``: they must cover every seat, come with the
    stake, deal the asking seat in and leave at least two seats to play.
    """
    bankrolls: list[int] | None = data.get("bankrolls")
    if bankrolls is None:
        return None
    if len(bankrolls) != players:
        raise path_error("bankrolls", f"{len(bankrolls)} entries for {players} seats")
    stake: int | None = data.get("stake")
    if stake is None:
        raise path_error(
            "stake", "give the stake with `bankrolls`: together they decide who is dealt in (GFF-6)"
        )
    dealt = frozenset(s for s, b in enumerate(bankrolls) if stakes_for(b, stake) >= 1)
    if seat not in dealt:
        raise path_error(
            f"bankrolls[{seat}]",
            f"the asking seat {seat} cannot be dealt in with {bankrolls[seat]} units at a stake "
            f"of {stake} (GFF-6: it must keep one stake in reserve)",
        )
    if len(dealt) < 2:
        raise path_error(
            "bankrolls", "only your seat can stake (GFF-6): there is no deal to advise on"
        )
    return dealt


def gff_fill_hand_sizes(
    opponents: Sequence[dict[str, Any]],
    players: int,
    dealt: frozenset[int] | None,
    bankrolls: Sequence[int],
) -> None:
    """Default each Game Flip Flop opponent's ``hand_size`` (5, or 0 for a seat ``bankrolls``
    do not deal in, GFF-6) and reject a size that contradicts the bankrolls."""
    for i, opp in enumerate(opponents):
        s = opp["seat"]
        out = dealt is not None and 0 <= s < players and s not in dealt
        size = opp.get("hand_size")
        if size is None:
            opp["hand_size"] = 0 if out else DEALT
        elif out and size > 0:
            raise path_error(
                f"opponents[{i}].hand_size",
                f"seat {s} is not dealt in: {bankrolls[s]} units cannot stake and keep a reserve "
                "(GFF-6), so it holds 0 cards",
            )
        elif dealt is not None and not out and size == 0 and 0 <= s < players:
            raise path_error(
                f"opponents[{i}].hand_size",
                f"seat {s} can stake with {bankrolls[s]} units, so it is dealt in (GFF-6): "
                "a hand size of 0 contradicts `bankrolls`",
            )


def engine_check(obs: Observation, index: dict[int, int]) -> None:
    """The engine's own validation of an advice question (``check_observation``), last.

    The schema has checked all of it already with the request's field paths; this keeps the
    engine's contract explicit, and any rejection it still finds is reported at the request
    field it corresponds to (``known[j]`` is seat j's ``opponents[i].picked_up``).
    """
    try:
        check_observation(obs, model_for(obs.game))
    except EngineError as exc:
        field = exc.field or "body"
        name, _, rest = field.partition("[")
        if name == "known" and rest[:-1].isdigit() and int(rest[:-1]) in index:
            field = f"opponents[{index[int(rest[:-1])]}].picked_up"
        elif name == "table" and rest:
            field = f"{field}.cards"
        else:
            field = {"discards": "discard_pile", "n_players": "players"}.get(field, "body")
        raise path_error(field, exc.message) from None


class TunkAdviceRequestBase(Schema):
    """Fields and cross-field checks of every Game Flip Flop / Triple Tunk advice request."""

    game = GAME_FLIP_FLOP
    endpoint = DISCARD

    seat = seat_field("The asking player's seat (0..players-1, C-4).", load_default=0)
    seed = seed_field(TUNK_DEFAULT_SEED)

    def meld_problem(self) -> Callable[[tuple[int, ...]], str | None]:
        """The game's check that a table meld is a meld."""
        return gff_meld_problem

    @post_load
    def make_query(self, data: dict[str, Any], **_: Any) -> TunkAdviceQuery:
        """Cross-field checks in field order, then the frozen query."""
        game = self.game
        players: int = data["players"]
        seat: int = data["seat"]
        check_seat("seat", seat, players)
        hand: list[int] = data["hand"]
        check_hand(game, hand)
        most = TUNK_HAND_MAX[self.endpoint]
        if len(hand) > most:
            when = "after the draw" if self.endpoint == DISCARD else "before the draw"
            raise path_error("hand", f"{self.endpoint} advice takes at most {most} cards ({when})")
        dealt = gff_dealt_in(data, players, seat) if game == GAME_FLIP_FLOP else None
        running = data.get("running_totals")
        if running is not None and len(running) != players:
            raise path_error("running_totals", f"{len(running)} entries for {players} seats")
        dealer = data.get("dealer")
        flip = data.get("flip_card")
        if dealer is not None:
            check_seat("dealer", dealer, players)
            if dealt is not None and dealer not in dealt:
                raise path_error(
                    "dealer",
                    f"seat {dealer} cannot be dealt in (GFF-6 with `bankrolls`), so it does not "
                    "deal: the deal passes to the next seat that can stake (C-4)",
                )
        elif flip is not None:
            raise path_error("dealer", "give the dealer's seat with `flip_card` (GFF-5)")
        else:  # C-4: the seat to the asking player's right (that is dealt in)
            dealer = next(
                (seat - step) % players
                for step in range(1, players + 1)
                if dealt is None or (seat - step) % players in dealt
            )
        table = build_table(data["table"], players, self.meld_problem())
        opponents = data["opponents"]
        if game == GAME_FLIP_FLOP:
            gff_fill_hand_sizes(opponents, players, dealt, data.get("bankrolls", ()))
        check_opponents(opponents, seat, players)
        pile: list[int] = data["discard_pile"]
        check_copies(game, shown_cards(data, hand, opponents))
        validate_engine_table(game, table)

        by_seat = {o["seat"]: o for o in opponents}
        index = {o["seat"]: i for i, o in enumerate(opponents)}
        known: list[tuple[int, ...]] = []
        sizes: list[int] = []
        turns: list[int] = []
        history: list[tuple[int, ...]] = []
        declined: list[tuple[int, ...]] = []
        early: list[bool] = []
        for s in range(players):
            if s == seat:
                known.append(())
                sizes.append(len(hand))
                turns.append(0)
                history.append(())
                declined.append(())
                early.append(bool(data.get("early_tunk_claimed", False)))
                continue
            opp = by_seat.get(s, {})
            discarded = tuple(opp.get("discarded", ()))
            played = opp.get("turns")
            if played is None:
                played = len(discarded)
            elif played < len(discarded):
                raise path_error(
                    f"opponents[{index[s]}].turns",
                    f"{len(discarded)} discards need at least {len(discarded)} turns",
                )
            known.append(tuple(sorted((*opp.get("picked_up", ()), *opp.get("shown", ())))))
            sizes.append(opp.get("hand_size", DEALT if dealt is None or s in dealt else 0))
            turns.append(played)
            history.append(discarded)
            declined.append(tuple(opp.get("declined", ())))
            early.append(bool(opp.get("early_tunk", False)))

        if flip is not None:
            self.check_flip(flip, dealer, seat, hand, table, pile, known, sizes, index)

        shown = len(hand) + sum(len(m.cards) for m in table) + len(pile)
        held = sum(sizes) - len(hand)
        deck = TUNK_DECK_SIZE[game]
        check_fits_deck(deck, shown, held, "the deck")

        is_tt = game == TRIPLE_TUNK
        obs = Observation(
            game=game,
            seat=seat,
            dealer=dealer,
            n_players=players,
            hand=tuple(sorted(hand)),
            table=table,
            discards=tuple(pile),
            known=tuple(known),
            hand_sizes=tuple(sizes),
            turns=tuple(turns),
            stock_size=deck - shown - held,
            flip_card=flip,
            waiting=tuple(
                data.get("waiting", 0) if s == seat else by_seat.get(s, {}).get("waiting", 0)
                for s in range(players)
            )
            if is_tt
            else (),
            passes=tuple(tuple(by_seat.get(s, {}).get("passes", ())) for s in range(players)),
            early=tuple(early) if is_tt else (),
            discard_history=tuple(history),
            declined=tuple(declined),
            # GFF-6 money: the drop payout is settled from it (engine.advice.tunk.knock)
            stake=(data.get("stake") or 0) if not is_tt else 0,
            bankrolls=tuple(data.get("bankrolls", ())) if not is_tt else (),
            flip_carry_in=data.get("flip_carry_in", 0) if not is_tt else 0,
            flop_carry_in=data.get("flop_carry_in", 0) if not is_tt else 0,
        )
        engine_check(obs, index)
        if self.endpoint == KNOCK and data["samples"] is not None:
            cap = tunk_knock.work_cap(obs)
            if data["samples"] > cap:
                raise path_error(
                    "samples",
                    f"at most {cap} samples for this table (the work cap for {players} players "
                    "and these hands); ask for fewer or use `precision`",
                )
        return TunkAdviceQuery(
            game=game,
            endpoint=self.endpoint,
            obs=obs,
            rules=data["rules"],
            seed=data["seed"],
            samples=data["samples"],
            stake=data.get("stake", data.get("unit")),
            precision=data.get("precision"),
        )

    def check_flip(
        self,
        flip: int,
        dealer: int,
        seat: int,
        hand: Sequence[int],
        table: Sequence[TableMeld],
        pile: Sequence[int],
        known: Sequence[Sequence[int]],
        sizes: Sequence[int],
        index: dict[int, int],
    ) -> None:
        """GFF-5: the flip card stays in the dealer's hand until it shows up elsewhere."""
        elsewhere = set(hand) | set(pile)
        for meld in table:
            elsewhere.update(meld.cards)
        for k in known:
            elsewhere.update(k)
        if flip in elsewhere:
            return
        if dealer == seat:
            raise path_error(
                "flip_card",
                "the flip card stays in the dealer's hand (GFF-5): as the dealer you hold it, "
                "unless it is on the table, in the discard pile or known to be elsewhere",
            )
        if len(known[dealer]) + 1 > sizes[dealer]:
            where = f"opponents[{index[dealer]}].hand_size" if dealer in index else "flip_card"
            raise path_error(
                where,
                "the dealer holds the flip card (GFF-5) besides its known pickups: "
                "more cards than its hand size",
            )


_HAND_DOC = {
    DISCARD: "The asking player's cards after the draw (at most 6), the card to throw among them.",
    DRAW: "The asking player's cards before the draw (at most 5).",
    KNOCK: "The asking player's cards at the start of the turn, before the draw (at most 5).",
}
_PLAYERS_DOC = "Seats at the table (required: the advice depends on it)"
_TABLE_DOC = (
    "Melds on the table with their owners and the cards others added (`added`): cards that can "
    "be laid off, and (Triple Tunk) specials that set the TT-14 multipliers."
)
_TUNK_SAMPLES_NOTE = {
    DISCARD: "The discard figures are exact enumerations over the unseen cards, so `samples` and "
    "`seed` do not change them.",
    DRAW: "Stock cards evaluated for the stock's value, drawn without replacement in a seeded "
    "order until the 95% half-width reaches `precision` or the choice is settled (every unseen "
    "card at most: then the value is exact).",
    KNOCK: "Opponents' hands sampled for `win_probability` and the expected payout.",
}


_PRECISION_DOC = {
    DISCARD: "Accepted for symmetry; the discard figures are exact.",
    DRAW: "Target 95% half-width of the stock's value `value_if_stock` (default "
    f"{DEFAULT_DRAW_PRECISION:g}): stock cards are evaluated until it is reached, the choice is "
    "settled, or `samples` cards were evaluated.",
    KNOCK: "Target 95% half-width of `win_probability` (default "
    f"{tunk_knock.DEFAULT_PRECISION:g}): opponents' hands are sampled in batches until it is "
    "reached or `samples` (at most the work cap for the table) were drawn.",
}


def _money_field(description: str) -> fields.Integer:
    """``stake`` (GFF) / ``unit`` (TT): a positive whole amount, optional."""
    return bounded_money(metadata={"description": description})


def _tunk_fields(game: str, endpoint: str) -> dict[str, Any]:
    attrs: dict[str, Any] = {
        "hand": cards_field(game, _HAND_DOC[endpoint], required=True),
        "table": table_field(game, _TABLE_DOC),
        "discard_pile": discard_pile_field(game),
        "players": players_field(game, _PLAYERS_DOC, required=True),
        "opponents": opponents_field(game),
        "rules": RulesField(game),
        "samples": fields.Integer(
            strict=True,
            load_default=None,
            validate=validate.Range(
                min=1,
                max=TUNK_MAX_SAMPLES,
                error=f"samples must be between 1 and {TUNK_MAX_SAMPLES} (the hard cap)",
            ),
            metadata={
                "description": f"{_TUNK_SAMPLES_NOTE[endpoint]} (hard cap {TUNK_MAX_SAMPLES}). "
                "Default: "
                + (
                    f"{TUNK_DEFAULT_SAMPLES} (or the table's work cap if lower); a request "
                    "above the table's work cap (players, hand sizes, opponents constrained by "
                    "the model) gets a 422 naming the maximum."
                    if endpoint == KNOCK
                    else "every unseen card."
                    if endpoint == DRAW
                    else "not used."
                ),
            },
        ),
        "precision": fields.Float(
            validate=validate.Range(min=0.001, max=10.0),
            metadata={
                "description": _PRECISION_DOC[endpoint],
            },
        ),
    }
    if game == GAME_FLIP_FLOP:
        attrs["dealer"] = seat_field(
            "The dealer's seat (C-4). Required with `flip_card`: the flip card stays in the "
            "dealer's hand (GFF-5). Default: the seat to the asking player's right."
        )
        attrs["flip_card"] = card_field_for(
            game,
            load_default=None,
            allow_none=True,
            metadata={
                "description": "The flip card (GFF-5): it stays in the dealer's hand, so it is "
                "known to be there until it shows up elsewhere."
            },
        )
        attrs["stake"] = _money_field(
            "One stake in units (C-3); `knock` then also gives the expected payout in units. "
            "Payouts are always given in stakes. Required with `bankrolls` (GFF-6)."
        )
        attrs["bankrolls"] = fields.List(
            fields.Integer(
                strict=True,
                validate=[
                    validate.Range(min=0, error="a bankroll is a whole number of units >= 0"),
                    at_most(MAX_MONEY),
                ],
            ),
            metadata={
                "description": "Each seat's bankroll before this deal, seat 0 first (a settle "
                "answer's `next.bankrolls`), with `stake`: a seat that cannot stake and keep one "
                "stake in reserve (GFF-6: k <= 0) is not dealt in, exactly as `hand_size` 0; "
                "it cannot be the dealer, and the default dealer is the nearest seat to your "
                "right that is dealt in. One entry per seat; your own seat must be dealt in."
            },
        )
        attrs["flip_carry_in"] = money_field(
            "Units already in the flip pot from earlier deals (a settle answer's "
            "`next.flip_carry_in`). Accepted so `next` can be sent as is; the advice is about "
            "the game pot (GFF-8..GFF-11), which a carried side pot does not change."
        )
        attrs["flop_carry_in"] = money_field(
            "Units carried over in the flop pot (GFF-5; `next.flop_carry_in`). Accepted so "
            "`next` can be sent as is; it does not change the advice (see `flip_carry_in`)."
        )
    else:
        attrs["dealer"] = seat_field(
            "The dealer's seat (C-4); default: the seat to the asking player's right."
        )
        attrs["early_tunk_claimed"] = StrictBoolean(
            load_default=False,
            metadata={
                "description": "The asking player claimed an early tunk (TT-9): a won knock "
                "pays double (TT-14)."
            },
        )
        attrs["waiting"] = fields.Integer(
            strict=True,
            load_default=0,
            validate=validate.Range(min=0, max=MAX_WAITING),
            metadata={
                "description": "The asking player's TT-12 waiting counter at the start of this "
                "turn: positive means knocking is not allowed this turn."
            },
        )
        attrs["unit"] = _money_field(
            "One unit in money (C-3); `knock` then also gives the expected payout in money. "
            "Payouts are always given in units."
        )
        attrs["running_totals"] = fields.List(
            fields.Integer(strict=True),
            metadata={
                "description": "Each seat's money so far, seat 0 first (a settle answer's "
                "`next.running_totals`; one entry per seat). Accepted so `next` can be sent as "
                "is; it does not change the advice: Triple Tunk has no set end, so each hand is "
                "played for its own expected payout (TT-13, TT-14)."
            },
        )
    return attrs


_TUNK_ORDER: dict[str, tuple[str, ...]] = {
    GAME_FLIP_FLOP: (
        "hand",
        "table",
        "discard_pile",
        "seat",
        "players",
        "dealer",
        "flip_card",
        "opponents",
        "stake",
        "bankrolls",
        "flip_carry_in",
        "flop_carry_in",
        "rules",
        "seed",
        "samples",
        "precision",
    ),
    TRIPLE_TUNK: (
        "hand",
        "table",
        "discard_pile",
        "seat",
        "players",
        "dealer",
        "opponents",
        "early_tunk_claimed",
        "waiting",
        "unit",
        "running_totals",
        "rules",
        "seed",
        "samples",
        "precision",
    ),
}


@cache
def tunk_request_schema(game: str, endpoint: str) -> type[Schema]:
    """The request schema of ``endpoint`` (discard/draw/knock) in a Tunk game."""
    attrs = {**_tunk_fields(game, endpoint), "game": game, "endpoint": endpoint}
    if game == TRIPLE_TUNK:
        attrs["meld_problem"] = lambda self: tt_meld_problem
    name = schema_name(game, endpoint.capitalize() + "Request")
    attrs["__doc__"] = f"{name}: what the asking player knows, for `{endpoint}` advice."
    return make_schema(name, TunkAdviceRequestBase, attrs, order=_TUNK_ORDER[game])


# --- Three Thirteen ----------------------------------------------------------------------------


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
) -> t13_advice.T13Situation:
    """The engine's situation. ``T13Situation`` has no table: combinations already shown (by
    the player who went out) are seen cards, so they go below the discard pile, where they only
    leave the unseen cards (the top of the pile, the card a draw takes, is unchanged)."""
    shown = tuple(c for meld in table for c in meld.cards)
    return t13_advice.T13Situation(
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
        players: int = data["players"]
        seat: int = data["seat"]
        check_seat("seat", seat, players)
        r: int = data["round"]
        decks: int = data.get("decks") or default_decks(players)  # T13-2
        check_decks_fit(players, decks)
        hand: list[int] = data["hand"]
        deal = r + 2
        want = deal + 1 if self.endpoint == DISCARD else deal
        if len(hand) != want:
            when = "after the draw" if self.endpoint == DISCARD else "before the draw"
            raise path_error(
                "hand",
                f"round {r} {self.endpoint} advice needs {want} cards ({when}; round {r} deals "
                f"{deal}, T13-1); got {len(hand)}",
            )
        check_hand(THREE_THIRTEEN, hand, round_number=r, decks=decks)
        rules = data["rules"]
        table = build_table(data["table"], players, t13_meld_problem(r, rules))
        opponents = data["opponents"]
        check_opponents(opponents, seat, players)
        for i, opp in enumerate(opponents):
            size = opp.get("hand_size")
            if size is not None and size > deal + 1:
                raise path_error(
                    f"opponents[{i}].hand_size",
                    f"round {r} hands hold at most {deal + 1} cards (T13-1)",
                )
        pile: list[int] = data["discard_pile"]
        check_copies(THREE_THIRTEEN, shown_cards(data, hand, opponents), decks)
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
        check_fits_deck(52 * decks, shown, sum(sizes), f"{decks} deck(s)")
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
            precision=data.get("precision", t13_advice.DEFAULT_PRECISION),
        )


_T13_HAND_DOC = {
    DISCARD: "The asking player's cards after the draw: round+3 cards (T13-5).",
    DRAW: "The asking player's cards before the draw: round+2 cards (T13-1).",
}
_T13_SAMPLES_NOTE = {
    DISCARD: "Hands of the next player sampled for the danger of each discard.",
    DRAW: "Most stock cards evaluated for the stock's mean value (the work cap); sampling stops "
    "earlier at `precision`, or when the interval excludes the value of taking (before "
    f"{t13_advice.MIN_STOCK_SAMPLES} cards only when Student's wider interval for so few "
    "cards does). Each stock card "
    "is one full evaluation of the hand after the draw (with the `discard` endpoint's default "
    f"{T13_DEFAULT_SAMPLES} danger samples and the same `seed`).",
}
_T13_SAMPLES = {
    DISCARD: (T13_DEFAULT_SAMPLES, T13_MAX_SAMPLES),
    DRAW: (T13_DEFAULT_STOCK_SAMPLES, T13_MAX_STOCK_SAMPLES),
}


@cache
def t13_request_schema(endpoint: str) -> type[Schema]:
    """The Three Thirteen request schema of ``endpoint`` (discard/draw)."""
    game = THREE_THIRTEEN
    attrs: dict[str, Any] = {
        "hand": cards_field(game, _T13_HAND_DOC[endpoint], required=True),
        "table": table_field(
            game,
            "Combinations already shown (by the player who went out, T13-5): seen cards, never "
            "imagined in a hand. No lay-offs in Three Thirteen (T13-7).",
        ),
        "discard_pile": cards_field(
            game,
            "The discard pile, top card first (the card a `draw` could take is the first); as "
            "long as the decks allow (a round may run through reshuffles, T13-8).",
            load_default=list,
            validate=validate.Length(max=T13_MAX_PILE),
        ),
        "players": players_field(game, _PLAYERS_DOC, required=True),
        "opponents": opponents_field(game),
        "rules": RulesField(game),
        "samples": samples_field(*_T13_SAMPLES[endpoint], _T13_SAMPLES_NOTE[endpoint]),
        "endpoint": endpoint,
    }
    if endpoint == DRAW:
        attrs["precision"] = fields.Float(
            load_default=t13_advice.DEFAULT_PRECISION,
            validate=validate.Range(min=0, min_inclusive=False, max=t13_advice.MAX_PRECISION),
            metadata={
                "description": "Stop sampling stock cards once the 95% interval of the stock's "
                f"mean value is at most this wide on each side (points; default "
                f"{t13_advice.DEFAULT_PRECISION:g}, at most {t13_advice.MAX_PRECISION:g})."
            },
        )
    name = schema_name(game, endpoint.capitalize() + "Request")
    attrs["__doc__"] = f"{name}: what the asking player knows, for `{endpoint}` advice."
    order = (
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
        "precision",
    )
    if endpoint != DRAW:
        order = tuple(f for f in order if f != "precision")
    return make_schema(name, T13AdviceRequestBase, attrs, order=order)


# --- responses ---------------------------------------------------------------------------------


def _number(description: str, **kwargs: Any) -> fields.Float:
    return fields.Float(metadata={"description": description}, **kwargs)


def _sorted_hand_field(game: str) -> fields.List:
    """Every response's ``hand``: the asking player's hand, sorted."""
    return fields.List(card_field_for(game), metadata={"description": "Sorted hand."})


def _explanation_field() -> fields.String:
    """Every response's ``explanation``."""
    return fields.String(metadata={"description": "One sentence a learner can follow."})


class TunkDiscardOptionBase(Schema):
    """One distinct card to discard and its figures (lower `score` is better)."""

    deadwood = fields.Integer(
        metadata={"description": "Deadwood points left in the hand after this discard (C-2)."}
    )
    outs = fields.Integer(
        metadata={
            "description": "Distinct unseen cards that would lower that deadwood after the next "
            "draw and discard."
        }
    )
    expected_deadwood = _number(
        "Expected deadwood after the next stock draw and best discard (every unseen card "
        "equally likely)."
    )
    danger = _number(
        "Chance (0-1) that the card helps the next player: it lays off on a table meld "
        "(GFF-3 / TT-8), or completes a meld with cards they are known or likely to hold."
    )
    out_chance = _number(
        "Share of the unseen cards that would let the hand be emptied after the next draw "
        "(every card melded, or all but one to discard; lay-offs not counted)."
    )
    keep_value = _number(
        "Value of the hand kept after this discard, `score` without the danger term: "
        "(deadwood + expected_deadwood) / 2 - out weight x out_chance. The `knock` answer's "
        "`hand_value` for that hand."
    )


class HandEvaluationOut(Schema):
    """The one hand evaluation of a kept hand (the figures discard, draw and knock share)."""

    value = _number(
        "(deadwood + expected_deadwood) / 2 - out weight x out_chance (lower is better)."
    )
    deadwood = fields.Integer(metadata={"description": "Deadwood points of the hand (C-2)."})
    outs = fields.Integer(
        metadata={"description": "Distinct unseen cards that would lower the deadwood."}
    )
    expected_deadwood = _number("Expected deadwood after the next stock draw and best discard.")
    out_chance = _number("Share of the unseen cards after which the hand can be emptied.")


def tunk_score_doc(game: str) -> str:
    """How the engine scores a Tunk discard option (its weights, read from the engine)."""
    out = OUT_POINTS.get(game, 0.0)
    return (
        f"(deadwood + expected_deadwood) / 2 + {DANGER_POINTS:g} x danger - {out:g} x "
        "out_chance; lower is better."
    )


class T13DiscardOptionBase(Schema):
    """One distinct card to discard in Three Thirteen and its figures (lower `score` is better)."""

    deadwood = fields.Integer(
        metadata={"description": "Deadwood points of the other cards (C-2, T13-3/T13-4)."}
    )
    outs = fields.Integer(
        metadata={"description": "Unseen cards (copies counted) that would lower that deadwood."}
    )
    expected_deadwood = _number(
        "Expected deadwood after the next draw and best discard (the score if another player "
        "goes out first)."
    )
    go_out_chance = _number("Chance of going out (T13-5) after the next draw.")
    danger = _number(
        "Share of the next player's sampled hands the card helps (0-1); null when not needed "
        "(the score without it already exceeds the best option's).",
        allow_none=True,
    )
    danger_points = _number(
        "Mean deadwood points the card saves the next player; null when not needed.",
        allow_none=True,
    )
    score = _number(
        "The value of the hand with this discard, lower is better: (1 - risk) x "
        "expected_deadwood + risk x deadwood - (1 - risk) x "
        f"{t13_advice.GO_OUT_WEIGHT:g} x go_out_chance + {t13_advice.DANGER_WEIGHT:g} x "
        f"danger_points; going out now scores {t13_advice.OUT_NOW:g} + "
        f"{t13_advice.DANGER_WEIGHT:g} x danger_points; on a last turn (T13-5) the deadwood "
        "left plus the danger term. With `danger` null, a lower bound."
    )
    goes_out = fields.Boolean(
        metadata={"description": "Discarding this card goes out now (T13-5): the rest is combined."}
    )


@cache
def discard_response_schema(game: str) -> type[Schema]:
    """Per-game discard answer."""
    card = card_field_for(game, metadata={"description": "The card to discard."})
    base = T13DiscardOptionBase if game == THREE_THIRTEEN else TunkDiscardOptionBase
    option_attrs: dict[str, Any] = {"card": card}
    if game != THREE_THIRTEEN:
        option_attrs["score"] = _number(tunk_score_doc(game))
    option = make_schema(schema_name(game, "DiscardOption"), base, option_attrs, order=("card",))
    attrs: dict[str, Any] = {
        "game": fields.String(),
        "hand": _sorted_hand_field(game),
        "explanation": _explanation_field(),
        "options": fields.List(
            fields.Nested(option),
            metadata={
                "description": "Every distinct card of the hand, best first: a discard that goes "
                "out now (T13-5), then the lowest score."
                if game == THREE_THIRTEEN
                else "Every distinct card of the hand, lowest score first. When the hand can "
                "end now (`ends`), `discard` is the recommendation whatever the scores say."
            },
        ),
    }
    if game == THREE_THIRTEEN:
        attrs["round"] = fields.Integer()
        attrs["wild_rank"] = fields.String(
            metadata={"description": "This round's wild rank (T13-1)."}
        )
        attrs["discard"] = card_field_for(
            game,
            allow_none=True,
            metadata={
                "description": "The recommended discard; null on a last turn (T13-5: the "
                "discard is optional) when keeping every card scores lower."
            },
        )
        attrs["value"] = _number(
            "Value of the hand when the advice is followed (the best option's score, or "
            "keep_deadwood): what `draw` reports for taking a card. Lower is better."
        )
        attrs["keep_deadwood"] = fields.Integer(
            allow_none=True,
            metadata={
                "description": "Last turn only (T13-5): deadwood points of keeping every card "
                "without discarding; null otherwise."
            },
        )
        attrs["risk"] = _number(
            "Risk aversion 0-0.5 used, from `scores` (the lead over the best opponent per round "
            "left): the weight of the deadwood held now against the expectation."
        )
        attrs["go_out"] = fields.Boolean(
            metadata={
                "description": "True: discard `discard` and go out now (T13-5, always recommended "
                "when possible: you score 0). False: hold - discard it and play on."
            }
        )
        attrs["last_turn"] = fields.Boolean(
            metadata={"description": "An opponent has gone out: this is your last turn (T13-5)."}
        )
        attrs["unseen"] = fields.Integer(
            metadata={"description": "Unseen card copies (not in hand, pile, table or known)."}
        )
        attrs["seed"] = fields.Integer()
        attrs["samples"] = fields.Integer(
            metadata={"description": "Next-player hands sampled (0 when no danger was needed)."}
        )
        order: tuple[str, ...] = (
            "game",
            "round",
            "wild_rank",
            "hand",
            "discard",
            "go_out",
            "last_turn",
            "value",
            "keep_deadwood",
            "risk",
            "explanation",
            "options",
            "unseen",
            "seed",
            "samples",
        )
    else:
        attrs["discard"] = card_field_for(
            game,
            allow_none=True,
            metadata={
                "description": "The recommended discard; null when the hand tunks out with no "
                "discard (two 3-card melds, GFF-9 / TT-11)."
            },
        )
        ends_doc = (
            "`tunk_out` (GFF-9) or `go_out` (GFF-10) when following the advice ends the hand "
            "now, else null."
            if game == GAME_FLIP_FLOP
            else "`tunk_out` (TT-11) when following the advice ends the hand now, else null."
        )
        attrs["ends"] = fields.String(allow_none=True, metadata={"description": ends_doc})
        lay_doc = (
            "Lay new spreads this turn before discarding: yes in Game Flip Flop, a laid spread no "
            "longer counts if someone drops (GFF-8). False when `ends` is set (laying is part "
            "of ending the hand)."
            if game == GAME_FLIP_FLOP
            else "Lay new melds this turn before discarding: no in Triple Tunk - hold them and go "
            "down all at once with a tunk out (TT-11), since a laid meld gives opponents lay-off "
            "targets and each hit makes you wait (TT-12)."
        )
        attrs["lay_melds"] = fields.Boolean(metadata={"description": lay_doc})
        attrs["melds_to_lay"] = fields.List(
            fields.List(card_field_for(game)),
            metadata={
                "description": "The plan: new melds to lay down this turn, before the lay-offs "
                "and the discard (empty: lay none). "
                + (
                    "Game Flip Flop lays its spreads (GFF-8: a laid spread no longer counts at "
                    "a drop)."
                    if game == GAME_FLIP_FLOP
                    else "Triple Tunk lays its melds when an opponent is likely to knock before "
                    "your next turn (a held meld counts in your total, TT-13) and holds them "
                    "otherwise (a laid meld gives lay-off targets, TT-8/TT-11, and hits make you "
                    "wait, TT-12); the explanation gives the knock threat."
                )
            },
        )
        attrs["layoffs"] = fields.List(
            fields.Nested(layoff_step_schema(game)),
            metadata={
                "description": "The plan's lay-offs, in laying order, after `melds_to_lay` "
                "(meld indexes: the request's table, then the new melds): the best set that "
                "can all be made together (GFF-3 / TT-8, at most 5 cards a meld)."
            },
        )
        attrs["knock_threat"] = _number(
            "Chance that some opponent knocks (TT-13) before your next turn, from the opponent "
            "model and its styles (0 in Game Flip Flop, and when the hand holds no meld)."
        )
        attrs["value"] = _number(
            "The hand's value (lower is better): the recommended option's `score`, or "
            f"{-2 * OUT_POINTS.get(game, 0.0):g} when the hand ends now. `draw` reports the same "
            "number for this hand (`value_if_take`)."
        )
        order = (
            "game",
            "hand",
            "discard",
            "ends",
            "lay_melds",
            "melds_to_lay",
            "layoffs",
            "knock_threat",
            "value",
            "explanation",
            "options",
        )
    return make_schema(schema_name(game, "DiscardResponse"), Schema, attrs, order=order)


class IntervalOut(Schema):
    """A 95% confidence interval."""

    _NONE = "Null when no interval can be given: one stock card sampled (Three Thirteen)."
    low = fields.Float(allow_none=True, metadata={"description": "Lower bound. " + _NONE})
    high = fields.Float(allow_none=True, metadata={"description": "Upper bound. " + _NONE})


@cache
def draw_response_schema(game: str) -> type[Schema]:
    """Per-game draw answer."""
    attrs: dict[str, Any] = {
        "game": fields.String(),
        "hand": _sorted_hand_field(game),
        "choice": fields.String(
            metadata={"description": "`discard_pile` (take the top discard) or `stock`."}
        ),
        "take_discard": fields.Boolean(metadata={"description": "Take the top discard."}),
        "top_discard": card_field_for(
            game,
            allow_none=True,
            metadata={"description": "The top of the discard pile, or null when it is empty."},
        ),
        "deadwood_if_take": _number(
            "Deadwood left after taking the top discard and throwing the best card (certain); "
            "null without a discard.",
            allow_none=True,
        ),
        "expected_deadwood_if_stock": _number(
            "Expected deadwood after drawing from the stock and throwing the best card (every "
            "unseen card equally likely)."
        ),
        "explanation": _explanation_field(),
    }
    order: tuple[str, ...]
    if game == THREE_THIRTEEN:
        attrs["round"] = fields.Integer()
        attrs["discard_after_take"] = card_field_for(
            game,
            allow_none=True,
            metadata={"description": "The card to throw after taking the top discard."},
        )
        attrs["go_out_chance_if_stock"] = _number(
            "Share of the evaluated stock cards that let you go out this turn (T13-5)."
        )
        attrs["unseen"] = fields.Integer(
            metadata={"description": "Unseen card copies the stock card is drawn from."}
        )
        attrs["take_value"] = _number(
            "Value of the hand with the top discard: exactly the `value` of the `discard` "
            "answer on that hand (same seed, default samples). Null without a discard.",
            allow_none=True,
        )
        attrs["stock_value"] = _number(
            "Mean value of the hand after a stock draw (the same function, over the stock card)."
        )
        attrs["stock_interval"] = fields.Nested(
            IntervalOut,
            metadata={
                "description": "95% interval of `stock_value` (Student's for two or three stock "
                "cards; null bounds when one card settled the choice, being more than "
                f"{t13_advice.CLEAR_MARGIN:g} points from `take_value`)."
            },
        )
        attrs["samples"] = fields.Integer(
            metadata={"description": "Stock cards evaluated (0 when the choice needed none)."}
        )
        attrs["exact"] = fields.Boolean(
            metadata={"description": "Every unseen card was evaluated: `stock_value` is exact."}
        )
        attrs["risk"] = _number("Risk aversion used (see the discard answer).")
        attrs["seed"] = fields.Integer()
        order = (
            "game",
            "round",
            "hand",
            "choice",
            "take_discard",
            "top_discard",
            "take_value",
            "stock_value",
            "stock_interval",
            "deadwood_if_take",
            "discard_after_take",
            "expected_deadwood_if_stock",
            "go_out_chance_if_stock",
            "risk",
            "explanation",
            "unseen",
            "seed",
            "samples",
            "exact",
        )
    else:
        attrs["deadwood_now"] = fields.Integer(
            metadata={"description": "Deadwood of the hand before the draw (C-2)."}
        )
        attrs["value_if_take"] = _number(
            "Value (lower is better) of the hand after taking the top discard: exactly the "
            "`value` the `discard` endpoint answers for that hand. Null without a discard.",
            allow_none=True,
        )
        attrs["value_if_stock"] = _number(
            "Mean of the same value over the stock cards (each unseen card equally likely)."
        )
        attrs["stock_interval"] = fields.Nested(
            IntervalOut,
            metadata={
                "description": "95% interval of `value_if_stock` (zero width when every unseen "
                "card was evaluated)."
            },
        )
        attrs["discard_after_take"] = card_field_for(
            game,
            allow_none=True,
            metadata={
                "description": "The card the `discard` advice throws after taking the top "
                "discard (null: none, or the take ends the hand)."
            },
        )
        attrs["throw_back"] = fields.Boolean(
            metadata={
                "description": "True when the advised line is a pass: take the top discard and "
                "throw it straight back (C-5); the explanation says why."
            }
        )
        attrs["seed"] = fields.Integer()
        attrs["samples"] = fields.Integer(
            metadata={"description": "Stock cards evaluated for `value_if_stock`."}
        )
        attrs["hand_value"] = _number(
            "Value of the hand before the draw, kept as it is (the one hand evaluation: the "
            "`keep_value` `discard` gives the option that leaves this hand, and the "
            "`hand_value` `knock` weighs for playing on)."
        )
        order = (
            "game",
            "hand",
            "choice",
            "take_discard",
            "top_discard",
            "discard_after_take",
            "throw_back",
            "deadwood_now",
            "deadwood_if_take",
            "expected_deadwood_if_stock",
            "value_if_take",
            "value_if_stock",
            "stock_interval",
            "explanation",
            "seed",
            "samples",
        )
    return make_schema(schema_name(game, "DrawResponse"), Schema, attrs, order=order)


@cache
def knock_response_schema(game: str) -> type[Schema]:
    """Per-game knock/drop answer."""
    word = "drop" if game == GAME_FLIP_FLOP else "knock"
    unit = "stakes" if game == GAME_FLIP_FLOP else "units"
    rule = "GFF-8" if game == GAME_FLIP_FLOP else "TT-13/TT-14"
    attrs: dict[str, Any] = {
        "game": fields.String(),
        "hand": _sorted_hand_field(game),
        "hand_total": fields.Integer(
            metadata={"description": "Points of every card in hand (what is shown and totalled)."}
        ),
        "knock": fields.Boolean(
            metadata={"description": f"The advice: {word} now (true) or play on (false)."}
        ),
        "allowed": fields.Boolean(
            metadata={
                "description": "Whether knocking is allowed now: false while the TT-12 waiting "
                "counter is positive (then `knock` is false)."
                if game == TRIPLE_TUNK
                else "Always true: dropping is allowed at the start of any turn (C-5)."
            }
        ),
        "win_probability": _number(
            "Chance that your total is strictly the lowest now (Monte Carlo over opponents' "
            "hands drawn by the opponent model)."
        ),
        "interval": fields.Nested(
            IntervalOut,
            metadata={"description": "95% Wilson interval of `win_probability` over `samples`."},
        ),
        "expected_payout": _number(f"Expected settlement of {word}ping now, in {unit} ({rule})."),
        "payout_if_win": _number(f"What a won {word} pays you, in {unit}."),
        "value_of_playing_on": _number(
            f"Estimated value of playing on instead, in {unit}: the advisor's mean final "
            "settlement after playing on, measured in simulated tournaments as a function of the "
            "win probability, `hand_value` and the number of players."
        ),
        "hand_value": _number(
            "The hand's value in the one hand evaluation that `discard` and `draw` use "
            "(`hand_evaluation.value`; lower is better): what playing on is worth is read from it."
        ),
        "hand_evaluation": fields.Nested(
            HandEvaluationOut,
            metadata={"description": "The figures of that evaluation for the hand as it is."},
        ),
        "unit": fields.String(metadata={"description": f"`{unit}`: the unit of the payouts."}),
        "explanation": _explanation_field(),
        "seed": fields.Integer(),
        "samples": fields.Integer(),
    }
    money = "stake" if game == GAME_FLIP_FLOP else "unit"
    attrs["expected_payout_money"] = _number(
        f"`expected_payout` x `{money}` when the request gives `{money}`, else null.",
        allow_none=True,
    )
    if game == GAME_FLIP_FLOP:
        attrs["payout_if_caught"] = _number(
            "What a caught drop costs you, in stakes (GFF-8: your stake and one extra stake, "
            "settled by the settlement itself with the request's `bankrolls` and `stake`)."
        )
        attrs["all_in"] = fields.Boolean(
            metadata={
                "description": "You stake in the game pot only (GFF-6 with `bankrolls` and "
                "`stake`): unless you win the game pot, by a drop or otherwise, you are "
                "eliminated."
            }
        )
    order = (
        "game",
        "hand",
        "hand_total",
        "knock",
        "allowed",
        "win_probability",
        "interval",
        "expected_payout",
        "expected_payout_money",
        "payout_if_win",
        "value_of_playing_on",
        "unit",
        "explanation",
        "seed",
        "samples",
    )
    return make_schema(schema_name(game, "KnockResponse"), Schema, attrs, order=order)


__all__ = [
    "DISCARD",
    "DRAW",
    "KNOCK",
    "T13AdviceQuery",
    "TunkAdviceQuery",
    "discard_response_schema",
    "draw_response_schema",
    "knock_response_schema",
    "t13_request_schema",
    "tunk_request_schema",
]
