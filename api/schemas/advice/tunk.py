"""Game Flip Flop / Triple Tunk advice requests: the cross-field checks that turn a loaded body
into a :class:`~api.schemas.advice.queries.TunkAdviceQuery`.

:class:`TunkAdviceRequestBase` holds what both games check; :class:`GffAdviceRequestBase` and
:class:`TtAdviceRequestBase` add their own (GFF-6 bankrolls and who is dealt in; TT-9 early tunk
claims and TT-12 waiting counters) through a few hooks. Hand sizes and deck sizes are read from
the game's :class:`~engine.games.base.Game`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from marshmallow import Schema, post_load

from api.schemas.advice.fields import check_fits_deck, seed_field
from api.schemas.advice.opponents import DROP_TOTAL_NAMES, check_opponents, shown_cards
from api.schemas.advice.queries import DISCARD, KNOCK, PROFILE, TunkAdviceQuery
from api.schemas.common import build_table, check_copies, check_hand, check_seat, seat_field
from api.schemas.fields import path_error
from api.schemas.melds import gff_meld_problem, tt_meld_problem, validate_engine_table
from engine.advice.situation import Observation
from engine.advice.tunk import knock as tunk_knock
from engine.advice.tunk.common import check_observation
from engine.advice.tunk.knock import ends_play, model_for
from engine.core.errors import EngineError
from engine.core.options import GAME_FLIP_FLOP, TRIPLE_TUNK
from engine.core.types import TableMeld
from engine.games import find_game
from engine.games.gff.settle import stakes_for

TUNK_DEFAULT_SAMPLES = tunk_knock.DEFAULT_SAMPLES
TUNK_MAX_SAMPLES = tunk_knock.MAX_SAMPLES
TUNK_DEFAULT_SEED = tunk_knock.DEFAULT_SEED
# The rules that say how a hand may be emptied, named in the ``went_out`` error.
OUT_RULES = {GAME_FLIP_FLOP: "GFF-9, GFF-10", TRIPLE_TUNK: "TT-11"}


def hand_limit(game: str, endpoint: str) -> int:
    """Most cards the asking hand holds: ``discard`` is asked after the draw (the deal plus the
    drawn card), ``draw`` and ``knock`` before it (the deal; C-5, GFF-8, TT-13)."""
    rules_of = find_game(game)
    return rules_of.max_hand_size() if endpoint == DISCARD else rules_of.deal_size()


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
    deal: int,
) -> None:
    """Default each Game Flip Flop opponent's ``hand_size`` (the ``deal``, or 0 for a seat
    ``bankrolls`` do not deal in, GFF-6) and reject a size that contradicts the bankrolls."""
    for i, opp in enumerate(opponents):
        s = opp["seat"]
        out = dealt is not None and 0 <= s < players and s not in dealt
        size = opp.get("hand_size")
        if size is None:
            opp["hand_size"] = 0 if out else deal
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


def check_flip(
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


def _shares(weights: Sequence[float], field: str) -> list[float]:
    """``weights`` normalised to sum to 1; a 422 naming ``field`` when they are all 0."""
    total = sum(weights)
    if total <= 0:
        raise path_error(field, "at least one weight must be above 0 (they are shares)")
    return [w / total for w in weights]


def opponent_profiles(
    opponents: Sequence[dict[str, Any]], players: int
) -> tuple[tuple[float, float, float] | None, ...]:
    """Per seat, the normalised card-play ``profile`` an opponent entry carries (None: none);
    empty when no entry has one."""
    out: list[tuple[float, float, float] | None] = [None] * players
    for i, opp in enumerate(opponents):
        got = opp.get("profile")
        if got is None:
            continue
        b, h, r = _shares(
            (got["baseline"], got["hoarder"], got["random"]), f"opponents[{i}].profile"
        )
        out[opp["seat"]] = (b, h, r)
    return tuple(out) if any(p is not None for p in out) else ()


def opponent_chances(
    opponents: Sequence[dict[str, Any]], players: int, name: str
) -> tuple[float | None, ...]:
    """Per seat, the learned chance ``profile.<name>`` an opponent entry carries
    (``drops_when_lowest``, ``keeps_flexible``; None: none); empty when no entry has one."""
    out: list[float | None] = [None] * players
    for opp in opponents:
        got = (opp.get("profile") or {}).get(name)
        if got is not None:
            out[opp["seat"]] = got
    return tuple(out) if any(w is not None for w in out) else ()


def opponent_drop_totals(
    opponents: Sequence[dict[str, Any]], players: int
) -> tuple[tuple[float, float, float, float] | None, ...]:
    """Per seat, the normalised ``profile.drop_totals`` an opponent entry carries (None: none);
    empty when no entry has one."""
    out: list[tuple[float, float, float, float] | None] = [None] * players
    for i, opp in enumerate(opponents):
        got = (opp.get("profile") or {}).get("drop_totals")
        if got is not None:
            field = f"opponents[{i}].profile.drop_totals"
            w = _shares([got[name] for name in DROP_TOTAL_NAMES], field)
            out[opp["seat"]] = (w[0], w[1], w[2], w[3])
    return tuple(out) if any(t is not None for t in out) else ()


def seen_groups(obs: Observation, index: dict[int, int]) -> list[tuple[str, Sequence[int]]]:
    """Every card the request shows, by the field that shows it: the hand, the discard pile,
    the table and each opponent's known cards (the C-1 copy check of the shown hands)."""
    groups: list[tuple[str, Sequence[int]]] = [("hand", obs.hand), ("discard_pile", obs.discards)]
    groups += [(f"table[{i}].cards", m.cards) for i, m in enumerate(obs.table)]
    groups += [
        (f"opponents[{index[s]}].picked_up" if s in index else "flip_card", k)
        for s, k in enumerate(obs.known)
        if k
    ]
    return groups


def check_final_hands(
    game: str, data: dict[str, Any], obs: Observation, index: dict[int, int]
) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The ``profile`` request's ``final_hands``: each an opponent's whole hand as shown when the
    deal ended, one per seat, as many cards as it holds, its known cards among them, and no card
    seen elsewhere more often than the deck holds (C-1)."""
    out: list[tuple[int, tuple[int, ...]]] = []
    seen: dict[int, int] = {}
    groups = seen_groups(obs, index)
    for i, entry in enumerate(data["final_hands"]):
        where = f"final_hands[{i}]"
        s, cards = entry["seat"], entry["cards"]
        check_seat(f"{where}.seat", s, obs.n_players)
        if s == obs.seat:
            raise path_error(f"{where}.seat", "this is the asking player's own seat")
        if s in seen:
            raise path_error(f"{where}.seat", f"seat {s} is listed twice (first at [{seen[s]}])")
        seen[s] = i
        if len(cards) != obs.hand_sizes[s]:
            raise path_error(
                f"{where}.cards",
                f"seat {s} holds {obs.hand_sizes[s]} cards; its whole hand was shown",
            )
        rest = Counter(cards)
        rest.subtract(obs.known[s])
        if any(n < 0 for n in rest.values()):
            where_known = f"opponents[{index[s]}]" if s in index else "flip_card"
            raise path_error(
                f"{where}.cards",
                f"seat {s} is known to hold cards it did not show (`{where_known}`)",
            )
        groups.append((f"{where}.cards", list(rest.elements())))
        out.append((s, tuple(sorted(cards))))
    check_copies(game, groups)
    return tuple(out)


def check_went_out(
    game: str, data: dict[str, Any], obs: Observation, index: dict[int, int]
) -> tuple[int, tuple[int, ...], int | None]:
    """The ``profile`` request's ``went_out``: an opponent's seat, every card it held after its
    draw (one more than it held at the start of the turn, its known cards among them) and the
    top discard it took, if it did; no card seen elsewhere more often than the deck holds
    (C-1)."""
    entry = data["went_out"]
    s, cards, picked = entry["seat"], entry["cards"], entry["picked_up"]
    check_seat("went_out.seat", s, obs.n_players)
    if s == obs.seat:
        raise path_error("went_out.seat", "this is the asking player's own seat")
    held = obs.hand_sizes[s]
    if held == 0:
        raise path_error("went_out.seat", f"seat {s} holds no cards in this situation")
    if len(cards) != held + 1:
        raise path_error(
            "went_out.cards",
            f"seat {s} held {held} cards at the start of its turn, so {held + 1} went out with "
            "the card it drew",
        )
    rest = Counter(cards)
    if picked is not None:
        if not obs.discards or obs.discards[0] != picked:
            raise path_error(
                "went_out.picked_up", "a taken discard is the first card of `discard_pile`"
            )
        if not rest[picked]:
            raise path_error("went_out.picked_up", "the card it took is not among `cards`")
        rest[picked] -= 1
    rest.subtract(obs.known[s])
    if any(n < 0 for n in rest.values()):
        where_known = f"opponents[{index[s]}]" if s in index else "flip_card"
        raise path_error(
            "went_out.cards",
            f"seat {s} is known to hold cards that are not among these ({where_known})",
        )
    groups = seen_groups(obs, index)
    groups.append(("went_out.cards", list(rest.elements())))
    check_copies(game, groups)
    if not ends_play(game, cards, obs.table, s):
        raise path_error(
            "went_out.cards",
            f"seat {s} cannot empty its hand with these cards on this table ({OUT_RULES[game]})",
        )
    return s, tuple(sorted(cards)), picked


class TunkAdviceRequestBase(Schema):
    """Fields and cross-field checks of every Game Flip Flop / Triple Tunk advice request.

    Per-game subclasses override the hooks (:meth:`dealt_in`, :meth:`fill_hand_sizes`,
    :meth:`meld_problem`, :meth:`game_values`); the request schema factory sets ``game`` and
    ``endpoint``.
    """

    game = GAME_FLIP_FLOP
    endpoint = DISCARD

    seat = seat_field("The asking player's seat (0..players-1, C-4).", load_default=0)
    seed = seed_field(TUNK_DEFAULT_SEED)

    def meld_problem(self) -> Callable[[tuple[int, ...]], str | None]:
        """The game's check that a table meld is a meld."""
        raise NotImplementedError

    def dealt_in(self, data: dict[str, Any], players: int, seat: int) -> frozenset[int] | None:
        """The seats dealt in, or None when every seat is."""
        return None

    def fill_hand_sizes(
        self,
        opponents: Sequence[dict[str, Any]],
        players: int,
        dealt: frozenset[int] | None,
        data: dict[str, Any],
    ) -> None:
        """Fill in or check opponents' hand sizes the game's own way (nothing by default)."""

    def game_values(
        self, data: dict[str, Any], seat: int, players: int, by_seat: dict[int, dict[str, Any]]
    ) -> dict[str, Any]:
        """The game's own ``Observation`` values (money, waiting counters, claims)."""
        return {}

    @post_load
    def make_query(self, data: dict[str, Any], **_: Any) -> TunkAdviceQuery:
        """Cross-field checks in field order, then the frozen query."""
        game = self.game
        rules_of = find_game(game)
        deal = rules_of.deal_size()
        players: int = data["players"]
        seat: int = data["seat"]
        check_seat("seat", seat, players)
        hand: list[int] = data["hand"]
        check_hand(game, hand)
        most = hand_limit(game, self.endpoint)
        if len(hand) > most:
            when = "after the draw" if self.endpoint == DISCARD else "before the draw"
            raise path_error("hand", f"{self.endpoint} advice takes at most {most} cards ({when})")
        dealt = self.dealt_in(data, players, seat)
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
        self.fill_hand_sizes(opponents, players, dealt, data)
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
        for s in range(players):
            if s == seat:
                known.append(())
                sizes.append(len(hand))
                turns.append(0)
                history.append(())
                declined.append(())
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
            sizes.append(opp.get("hand_size", deal if dealt is None or s in dealt else 0))
            turns.append(played)
            history.append(discarded)
            declined.append(tuple(opp.get("declined", ())))

        if flip is not None:
            check_flip(flip, dealer, seat, hand, table, pile, known, sizes, index)

        shown = len(hand) + sum(len(m.cards) for m in table) + len(pile)
        held = sum(sizes) - len(hand)
        deck = rules_of.deck.size
        check_fits_deck(deck, shown, held, "the deck")

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
            passes=tuple(tuple(by_seat.get(s, {}).get("passes", ())) for s in range(players)),
            profiles=opponent_profiles(opponents, players),
            drop_styles=opponent_chances(opponents, players, "drops_when_lowest"),
            drop_totals=opponent_drop_totals(opponents, players),
            keeps_flexible=opponent_chances(opponents, players, "keeps_flexible"),
            discard_history=tuple(history),
            declined=tuple(declined),
            **self.game_values(data, seat, players, by_seat),
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
        final_hands: tuple[tuple[int, tuple[int, ...]], ...] = ()
        went_out: tuple[int, tuple[int, ...], int | None] | None = None
        ended_by = data.get("ended_by")
        if self.endpoint == PROFILE:
            if data["went_out"] is not None:
                if data["final_hands"] is not None:
                    raise path_error(
                        "went_out",
                        "give `final_hands` (a knock or drop ended the deal) or `went_out` (an "
                        "opponent emptied its hand), not both",
                    )
                if ended_by is not None:
                    raise path_error(
                        "ended_by",
                        "a deal an opponent went out of was not ended by a knock or drop",
                    )
                went_out = check_went_out(game, data, obs, index)
            elif data["final_hands"] is None:
                raise path_error(
                    "final_hands",
                    "give the hands shown at a knock or drop (`final_hands`), or the opponent "
                    "that went out (`went_out`)",
                )
            else:
                final_hands = check_final_hands(game, data, obs, index)
            if ended_by is not None:
                check_seat("ended_by", ended_by, players)
        return TunkAdviceQuery(
            game=game,
            endpoint=self.endpoint,
            obs=obs,
            rules=data["rules"],
            seed=data["seed"],
            samples=data["samples"],
            stake=data.get("stake", data.get("unit")),
            precision=data.get("precision"),
            final_hands=final_hands,
            ended_by=ended_by,
            went_out=went_out,
        )


class GffAdviceRequestBase(TunkAdviceRequestBase):
    """Game Flip Flop: ``bankrolls`` + ``stake`` decide who is dealt in (GFF-6)."""

    def meld_problem(self) -> Callable[[tuple[int, ...]], str | None]:
        """GFF-2 spreads."""
        return gff_meld_problem

    def dealt_in(self, data: dict[str, Any], players: int, seat: int) -> frozenset[int] | None:
        """GFF-6: the seats the bankrolls deal in (None without bankrolls)."""
        return gff_dealt_in(data, players, seat)

    def fill_hand_sizes(
        self,
        opponents: Sequence[dict[str, Any]],
        players: int,
        dealt: frozenset[int] | None,
        data: dict[str, Any],
    ) -> None:
        """GFF-6: a seat not dealt in holds 0 cards, every other the deal."""
        deal = find_game(self.game).deal_size()
        gff_fill_hand_sizes(opponents, players, dealt, data.get("bankrolls", ()), deal)

    def game_values(
        self, data: dict[str, Any], seat: int, players: int, by_seat: dict[int, dict[str, Any]]
    ) -> dict[str, Any]:
        """GFF-6 money: the drop payout is settled from it (engine.advice.tunk.knock)."""
        return {
            "stake": data.get("stake") or 0,
            "bankrolls": tuple(data.get("bankrolls", ())),
            "flip_carry_in": data.get("flip_carry_in", 0),
            "flop_carry_in": data.get("flop_carry_in", 0),
        }


class TtAdviceRequestBase(TunkAdviceRequestBase):
    """Triple Tunk: TT-12 waiting counters and TT-9 early-tunk claims per seat."""

    def meld_problem(self) -> Callable[[tuple[int, ...]], str | None]:
        """TT-6 melds."""
        return tt_meld_problem

    def game_values(
        self, data: dict[str, Any], seat: int, players: int, by_seat: dict[int, dict[str, Any]]
    ) -> dict[str, Any]:
        """Each seat's TT-12 waiting counter and TT-9 early-tunk claim, seat 0 first."""
        return {
            "waiting": tuple(
                data.get("waiting", 0) if s == seat else by_seat.get(s, {}).get("waiting", 0)
                for s in range(players)
            ),
            "early": tuple(
                bool(data.get("early_tunk_claimed", False))
                if s == seat
                else bool(by_seat.get(s, {}).get("early_tunk", False))
                for s in range(players)
            ),
        }


TUNK_REQUEST_BASES: dict[str, type[TunkAdviceRequestBase]] = {
    GAME_FLIP_FLOP: GffAdviceRequestBase,
    TRIPLE_TUNK: TtAdviceRequestBase,
}
"""Each Tunk game's request base class (its own checks and engine values)."""


__all__ = [
    "TUNK_DEFAULT_SAMPLES",
    "TUNK_DEFAULT_SEED",
    "TUNK_MAX_SAMPLES",
    "TUNK_REQUEST_BASES",
    "GffAdviceRequestBase",
    "TtAdviceRequestBase",
    "TunkAdviceRequestBase",
    "hand_limit",
]
