"""Game Flip Flop settlement: stakes (GFF-6), the game pot for every way a deal ends (GFF-4, GFF-8
to GFF-11), the flip and flop side pots (GFF-5) and carry-over, in integer units (C-3).

Ledger: ``net[i]`` is what seat i won minus what it paid this deal (stakes and extra stakes).
Side-pot money that stays in a pot for the next deal (``carry_out``) leaves the players, money
brought in from an earlier deal (``carry_in``) joins them, so ``sum(net) + carry_net == 0`` with
``carry_net = carry_out - carry_in``; this is asserted on every settlement.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

from engine.core.errors import OutcomeError
from engine.core.money import check_balanced, split_pot
from engine.core.options import GameFlipFlopRules
from engine.games.gff.game import EARLY_WIN_TOTALS, FIFTY
from engine.games.gff.play import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    WITH_FLIP,
    WITH_FLOP,
    SidePots,
    early_win,
    side_pots,
)

PotName = Literal["game", "fifty", "flip", "flop"]


@dataclass(frozen=True, slots=True)
class EarlyWin:
    """GFF-4: seats that declared 49 or 50 before play, as ``(seat, 49 | 50)`` pairs."""

    declarations: tuple[tuple[int, int], ...]
    kind: ClassVar[str] = "early_win"


@dataclass(frozen=True, slots=True)
class Drop:
    """GFF-8: ``dropper`` dropped; ``totals[i]`` is seat i's hand total (None if not dealt in)."""

    dropper: int
    totals: tuple[int | None, ...]
    kind: ClassVar[str] = "drop"


@dataclass(frozen=True, slots=True)
class TunkOut:
    """GFF-9: ``seat`` tunked out (two own 3-card spreads, no discard)."""

    seat: int
    kind: ClassVar[str] = "tunk_out"


@dataclass(frozen=True, slots=True)
class GoOut:
    """GFF-10: ``seat`` ended a turn with no cards any other way."""

    seat: int
    kind: ClassVar[str] = "go_out"


@dataclass(frozen=True, slots=True)
class StockExhausted:
    """GFF-11: the stock ran out; ``totals[i]`` is seat i's hand total (None if not dealt in)."""

    totals: tuple[int | None, ...]
    kind: ClassVar[str] = "stock_exhausted"


GffOutcome = EarlyWin | Drop | TunkOut | GoOut | StockExhausted


@dataclass(frozen=True, slots=True)
class SideWinners:
    """Side-pot winners decided elsewhere (e.g. by :func:`engine.games.gff.play.side_pots`).

    None means the pot carries over to the next deal.
    """

    flip: int | None
    flop: int | None


@dataclass(frozen=True, slots=True)
class PotResult:
    """One pot: total ``amount`` (``carry_in`` of it from earlier deals), who took what.

    ``shares`` lists ``(seat, units)``; empty with ``carried_over`` True when nobody won it.
    """

    name: PotName
    amount: int
    winners: tuple[int, ...]
    shares: tuple[tuple[int, int], ...]
    carried_over: bool = False
    carry_in: int = 0


@dataclass(frozen=True, slots=True)
class ExtraPayment:
    """An extra stake paid on top of the deal's stakes (GFF-4 fifty pot, GFF-8 caught, GFF-9)."""

    seat: int
    amount: int
    pot: PotName
    reason: Literal["fifty", "caught", "tunk_out"]


@dataclass(frozen=True, slots=True)
class GffSettlement:
    """Who paid and won what in one Game Flip Flop deal.

    ``stakes_in[i]`` pots staked (0 sitting out, 1 all in). ``net[i]`` = ``won[i] - paid[i]``.
    Invariant: ``sum(net) + carry_out - carry_in == 0`` (carried pot money is its own account).
    ``side`` is None and no flip/flop pot is listed when the settlement covers the game pot only
    (then ``stakes_in`` still shows what GFF-6 allows, but ``paid`` holds the game stake only).
    """

    stake: int
    dealer: int
    outcome_kind: str
    stakes_in: tuple[int, ...]
    sitting_out: tuple[int, ...]
    all_in: tuple[int, ...]
    eliminated: tuple[int, ...]
    game_winners: tuple[int, ...]
    pots: tuple[PotResult, ...]
    extra_payments: tuple[ExtraPayment, ...]
    paid: tuple[int, ...]
    won: tuple[int, ...]
    net: tuple[int, ...]
    carry_in: int
    carry_out: int
    flip_carry_out: int
    flop_carry_out: int
    bankrolls_after: tuple[int, ...]
    side: SidePots | None = None

    @property
    def carry_net(self) -> int:
        """Money this deal leaves in carried-over pots (negative when it empties earlier ones)."""
        return self.carry_out - self.carry_in


def stakes_for(bankroll: int, stake: int) -> int:
    """GFF-6: pots a bankroll stakes in, keeping one stake in reserve: min(3, b // s - 1), >= 0."""
    return max(0, min(WITH_FLOP, bankroll // stake - 1))


def _seat(value: int, n: int, field: str, what: str = "seat") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise OutcomeError(f"{what} {value!r} is not one of the seats 0..{n - 1}", field=field)
    return value


def _dealt_seat(value: int, n: int, dealt: set[int], field: str, what: str) -> int:
    seat = _seat(value, n, field, what)
    if seat not in dealt:
        raise OutcomeError(
            f"{what} {seat} was not dealt in: their bankroll cannot cover a stake plus the "
            "reserve (GFF-6)",
            field=field,
        )
    return seat


def _totals(totals: Sequence[int | None], n: int, dealt: set[int]) -> dict[int, int]:
    if len(totals) != n:
        raise OutcomeError(f"totals has {len(totals)} entries for {n} seats", "outcome.totals")
    out: dict[int, int] = {}
    for seat in sorted(dealt):
        value = totals[seat]
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise OutcomeError(
                f"seat {seat} was dealt in and needs a hand total (a whole number >= 0)",
                field=f"outcome.totals[{seat}]",
            )
        out[seat] = value
    return out


def _lowest(totals: dict[int, int], seats: Sequence[int]) -> tuple[int, ...]:
    best = min(totals[s] for s in seats)
    return tuple(s for s in seats if totals[s] == best)


def settle_gff(
    bankrolls: Sequence[int],
    stake: int,
    dealer: int,
    outcome: GffOutcome,
    *,
    dealt_hands: Sequence[Sequence[int]] | None = None,
    flip_card: int | None = None,
    side_winners: SideWinners | None = None,
    flip_carry_in: int = 0,
    flop_carry_in: int = 0,
    rules: GameFlipFlopRules | None = None,
) -> GffSettlement:
    """Settle one Game Flip Flop deal.

    Stakes follow GFF-6 from ``bankrolls`` (before the deal) and ``stake``. The flip and flop
    pots settle from ``dealt_hands`` + ``flip_card`` (via :func:`side_pots`), or from
    ``side_winners``; with neither, only the game pot (and extra stakes) is settled and no side
    stakes are collected. ``*_carry_in`` is money already in a side pot from earlier deals.

    :raises OutcomeError: impossible input (field names the culprit).
    """
    rules = rules or GameFlipFlopRules()
    n = len(bankrolls)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise OutcomeError(f"{n} seats: Game Flip Flop seats 2 to 8 players", field="bankrolls")
    if isinstance(stake, bool) or not isinstance(stake, int) or stake <= 0:
        raise OutcomeError("the stake must be a whole number of units above zero", field="stake")
    for i, b in enumerate(bankrolls):
        if isinstance(b, bool) or not isinstance(b, int) or b < 0:
            raise OutcomeError(
                "a bankroll must be a whole number of units >= 0", field=f"bankrolls[{i}]"
            )
    _seat(dealer, n, "dealer", "dealer")
    for name, value in (("flip_carry_in", flip_carry_in), ("flop_carry_in", flop_carry_in)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise OutcomeError(f"{name} must be a whole number of units >= 0", field=name)

    stakes = tuple(stakes_for(b, stake) for b in bankrolls)
    dealt = {i for i, k in enumerate(stakes) if k > 0}
    if len(dealt) < MIN_PLAYERS:
        raise OutcomeError(
            f"only {len(dealt)} seat(s) can afford a stake plus the reserve (GFF-6); a deal "
            "needs two",
            field="bankrolls",
        )
    side: SidePots | None = None
    flip_winner: int | None = None
    flop_winner: int | None = None
    settle_side = True
    if dealt_hands is not None:
        if flip_card is None:
            raise OutcomeError("dealt_hands needs the flip card to settle side pots", "flip_card")
        if len(dealt_hands) != n:
            raise OutcomeError(
                f"dealt_hands has {len(dealt_hands)} hands for {n} seats", "dealt_hands"
            )
        side = side_pots(dealt_hands, dealer, flip_card, stakes, rules)
        flip_winner, flop_winner = side.flip.winner, side.flop.winner
    elif side_winners is not None:
        flip_winner, flop_winner = side_winners.flip, side_winners.flop
        for name, winner, need in (
            ("flip", flip_winner, WITH_FLIP),
            ("flop", flop_winner, WITH_FLOP),
        ):
            if winner is None:
                continue
            _seat(winner, n, f"side_winners.{name}", f"{name} winner")
            if stakes[winner] < need:  # GFF-6: only stakers win a pot
                raise OutcomeError(
                    f"seat {winner} did not stake in the {name} pot and cannot win it (GFF-6)",
                    field=f"side_winners.{name}",
                )
    else:
        settle_side = False
        if flip_carry_in or flop_carry_in:
            raise OutcomeError(
                "a carried-over side pot needs the side pots settled: give dealt_hands and "
                "flip_card, or side_winners",
                field="flop_carry_in" if flop_carry_in else "flip_carry_in",
            )

    order = sorted(dealt)
    # Without side pots only the game stake is collected (the settlement covers the game pot).
    paid = [stake * (k if settle_side else min(k, 1)) for k in stakes]
    won = [0] * n
    pots: list[PotResult] = []
    extras: list[ExtraPayment] = []

    def award(name: PotName, amount: int, winners: Sequence[int], carry_in: int = 0) -> None:
        shares = split_pot(amount, winners, dealer, n)
        for seat, units in shares.items():
            won[seat] += units
        pots.append(
            PotResult(
                name, amount, tuple(sorted(winners)), tuple(sorted(shares.items())), False, carry_in
            )
        )

    def pay_extra(seat: int, pot: PotName, reason: Literal["fifty", "caught", "tunk_out"]) -> None:
        paid[seat] += stake
        extras.append(ExtraPayment(seat, stake, pot, reason))

    game = stake * len(dealt)
    game_winners: tuple[int, ...]
    if isinstance(outcome, EarlyWin):
        game_winners = _settle_early_win(outcome, n, dealt, dealt_hands)
        award("game", game, game_winners)
        fifties = [s for s, v in outcome.declarations if v == FIFTY]
        payers = [s for s in order if s not in fifties]
        if fifties and payers:  # GFF-4: everyone not holding 50 pays into a new pot
            for s in payers:
                pay_extra(s, "fifty", "fifty")
            award("fifty", stake * len(payers), fifties)
    elif isinstance(outcome, Drop):
        dropper = _dealt_seat(outcome.dropper, n, dealt, "outcome.dropper", "dropper")
        totals = _totals(outcome.totals, n, dealt)
        others = [s for s in order if s != dropper]
        if all(totals[dropper] < totals[s] for s in others):  # GFF-8: strictly lowest
            game_winners = (dropper,)
            award("game", game, game_winners)
        else:  # caught: one extra stake into the game pot, the lowest other players share it
            pay_extra(dropper, "game", "caught")
            game_winners = _lowest(totals, others)
            award("game", game + stake, game_winners)
    elif isinstance(outcome, TunkOut):
        tunker = _dealt_seat(outcome.seat, n, dealt, "outcome.seat", "tunk-out seat")
        for s in order:  # GFF-9: every other player adds one extra stake
            if s != tunker:
                pay_extra(s, "game", "tunk_out")
        game_winners = (tunker,)
        award("game", game + stake * (len(dealt) - 1), game_winners)
    elif isinstance(outcome, GoOut):  # GFF-10
        game_winners = (_dealt_seat(outcome.seat, n, dealt, "outcome.seat", "going-out seat"),)
        award("game", game, game_winners)
    elif isinstance(outcome, StockExhausted):  # GFF-11: lowest total, ties split
        totals = _totals(outcome.totals, n, dealt)
        game_winners = _lowest(totals, order)
        award("game", game, game_winners)
    else:
        raise OutcomeError(f"unknown Game Flip Flop outcome {outcome!r}", field="outcome")

    flip_out = flop_out = 0
    if settle_side:
        flip_amount = stake * sum(1 for k in stakes if k >= WITH_FLIP) + flip_carry_in
        flop_amount = stake * sum(1 for k in stakes if k >= WITH_FLOP) + flop_carry_in
        if flip_winner is None:
            flip_out = flip_amount
            pots.append(PotResult("flip", flip_amount, (), (), True, flip_carry_in))
        else:
            award("flip", flip_amount, (flip_winner,), flip_carry_in)
        if flop_winner is None:
            flop_out = flop_amount
            pots.append(PotResult("flop", flop_amount, (), (), True, flop_carry_in))
        else:
            award("flop", flop_amount, (flop_winner,), flop_carry_in)

    net = tuple(w - p for w, p in zip(won, paid, strict=True))
    carry_in = flip_carry_in + flop_carry_in
    carry_out = flip_out + flop_out
    check_balanced(net, carry_out - carry_in, "Game Flip Flop settlement")
    all_in = tuple(s for s in order if stakes[s] == 1)
    return GffSettlement(
        stake=stake,
        dealer=dealer,
        outcome_kind=outcome.kind,
        stakes_in=stakes,
        sitting_out=tuple(s for s in range(n) if stakes[s] == 0),
        all_in=all_in,
        eliminated=tuple(s for s in all_in if s not in game_winners),  # GFF-6 tunk life
        game_winners=game_winners,
        pots=tuple(pots),
        extra_payments=tuple(extras),
        paid=tuple(paid),
        won=tuple(won),
        net=net,
        carry_in=carry_in,
        carry_out=carry_out,
        flip_carry_out=flip_out,
        flop_carry_out=flop_out,
        bankrolls_after=tuple(b + d for b, d in zip(bankrolls, net, strict=True)),
        side=side,
    )


def _settle_early_win(
    outcome: EarlyWin, n: int, dealt: set[int], hands: Sequence[Sequence[int]] | None
) -> tuple[int, ...]:
    """GFF-4 checks: declarers dealt in, once each, 49/50 matching their dealt hand if given."""
    if not outcome.declarations:
        raise OutcomeError(
            "an early win needs at least one 49/50 declaration", "outcome.declarations"
        )
    seen: set[int] = set()
    for j, (seat, value) in enumerate(outcome.declarations):
        field = f"outcome.declarations[{j}]"
        _dealt_seat(seat, n, dealt, field, "declarer")
        if seat in seen:
            raise OutcomeError(f"seat {seat} declares twice", field=field)
        seen.add(seat)
        if value not in EARLY_WIN_TOTALS:
            raise OutcomeError(f"seat {seat} declares {value!r}; only 49 or 50 win (GFF-4)", field)
        if hands is not None and seat < len(hands) and early_win(hands[seat]) != value:
            raise OutcomeError(
                f"seat {seat} declares {value} but its dealt hand does not total {value}", field
            )
    return tuple(sorted(seen))


__all__ = [
    "Drop",
    "EarlyWin",
    "ExtraPayment",
    "GffOutcome",
    "GffSettlement",
    "GoOut",
    "PotResult",
    "SideWinners",
    "StockExhausted",
    "TunkOut",
    "settle_gff",
    "stakes_for",
]
