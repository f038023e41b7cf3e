"""Triple Tunk settlement: knocks (TT-13) and tunk outs (TT-11) paid with the TT-14 multipliers.

Every payment is ``unit`` times the *winner's* multiplier: x2 for a claimed early tunk (TT-9),
x2 for a tunk out, times the special bonus (1-4) of the winner's own special melds, max 16.
The caller decides each seat's early-tunk claim and special bonus (``engine.games.tt.play``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from engine.core.errors import OutcomeError
from engine.core.money import check_balanced
from engine.games.tt.game import GAME

MIN_PLAYERS, MAX_PLAYERS = GAME.players  # TT-1
SPECIAL_BONUSES = (1, 2, 3, 4)  # TT-14: none, 3-card, 4-card, 5-card or two 3-card specials
EARLY_TUNK_FACTOR = 2
TUNK_OUT_FACTOR = 2


@dataclass(frozen=True, slots=True)
class TTKnock:
    """TT-13: ``knocker`` knocked; ``totals[i]`` is the points seat i still holds.

    ``early_tunk[i]`` / ``special_bonus[i]`` are seat i's TT-14 factors; empty means none.
    """

    knocker: int
    totals: tuple[int, ...]
    early_tunk: tuple[bool, ...] = ()
    special_bonus: tuple[int, ...] = ()
    kind: ClassVar[str] = "knock"


@dataclass(frozen=True, slots=True)
class TTTunkOut:
    """TT-11: ``seat`` tunked out and wins at once; factors as in :class:`TTKnock`."""

    seat: int
    early_tunk: tuple[bool, ...] = ()
    special_bonus: tuple[int, ...] = ()
    kind: ClassVar[str] = "tunk_out"


TTOutcome = TTKnock | TTTunkOut


@dataclass(frozen=True, slots=True)
class TTPayment:
    """``payer`` pays ``payee`` ``amount`` = unit x ``multiplier`` (the payee's TT-14 factors)."""

    payer: int
    payee: int
    multiplier: int
    amount: int


@dataclass(frozen=True, slots=True)
class TTSettlement:
    """One Triple Tunk hand's money: ``winners`` (the knocker, or those who caught them)."""

    outcome_kind: str
    winners: tuple[int, ...]
    knocker_caught: bool
    payments: tuple[TTPayment, ...]
    net: tuple[int, ...]


def _early_flags(values: Sequence[bool], n: int) -> tuple[bool, ...]:
    if not values:
        return (False,) * n
    if len(values) != n:
        raise OutcomeError(
            f"early_tunk has {len(values)} entries for {n} seats", "outcome.early_tunk"
        )
    for i, value in enumerate(values):
        if not isinstance(value, bool):
            raise OutcomeError("early_tunk entries are true or false", f"outcome.early_tunk[{i}]")
    return tuple(values)


def _special_bonuses(values: Sequence[int], n: int) -> tuple[int, ...]:
    if not values:
        return (1,) * n
    if len(values) != n:
        raise OutcomeError(
            f"special_bonus has {len(values)} entries for {n} seats", "outcome.special_bonus"
        )
    for i, value in enumerate(values):
        if isinstance(value, bool) or value not in SPECIAL_BONUSES:
            raise OutcomeError(
                "a special bonus is 1, 2, 3 or 4 (TT-14)", f"outcome.special_bonus[{i}]"
            )
    return tuple(values)


def multiplier(early_tunk: bool, special_bonus: int, tunk_out: bool) -> int:
    """TT-14: x2 early tunk, x2 tunk out, x special bonus (1-4); at most 16."""
    early = EARLY_TUNK_FACTOR if early_tunk else 1
    return early * (TUNK_OUT_FACTOR if tunk_out else 1) * special_bonus


def settle_tt(n_seats: int, unit: int, dealer: int, outcome: TTOutcome) -> TTSettlement:
    """Settle a Triple Tunk hand in integer units (C-3); ``net`` sums to zero.

    Knocker strictly lowest: every other player pays unit x knocker's multiplier. Tunk out:
    every other player pays unit x tunker's multiplier including x2. Knocker caught: the knocker
    pays each player who tied or beat them unit x *that* player's multiplier (no tunk-out x2).
    ``dealer`` is validated only (no pot is split in Triple Tunk).

    :raises OutcomeError: bad seat counts, seats, totals or factors.
    """
    if not isinstance(n_seats, int) or not MIN_PLAYERS <= n_seats <= MAX_PLAYERS:
        raise OutcomeError(f"{n_seats} seats: Triple Tunk seats 3 to 6 players (TT-1)", "n_seats")
    if isinstance(unit, bool) or not isinstance(unit, int) or unit <= 0:
        raise OutcomeError("the unit must be a whole number above zero", field="unit")
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n_seats:
        raise OutcomeError(f"dealer {dealer!r} is not one of the seats 0..{n_seats - 1}", "dealer")
    n = n_seats
    early = _early_flags(outcome.early_tunk, n)
    special = _special_bonuses(outcome.special_bonus, n)
    payments: list[TTPayment] = []

    def collect(winner: int, tunk_out: bool) -> None:
        mult = multiplier(early[winner], special[winner], tunk_out)
        for seat in range(n):
            if seat != winner:
                payments.append(TTPayment(seat, winner, mult, unit * mult))

    caught = False
    if isinstance(outcome, TTTunkOut):
        seat = _seat(outcome.seat, n, "outcome.seat")
        collect(seat, tunk_out=True)
        winners: tuple[int, ...] = (seat,)
    elif isinstance(outcome, TTKnock):
        knocker = _seat(outcome.knocker, n, "outcome.knocker")
        if len(outcome.totals) != n:
            raise OutcomeError(
                f"totals has {len(outcome.totals)} entries for {n} seats", "outcome.totals"
            )
        for i, total in enumerate(outcome.totals):
            if isinstance(total, bool) or not isinstance(total, int) or total < 0:
                raise OutcomeError("a hand total is a whole number >= 0", f"outcome.totals[{i}]")
        mine = outcome.totals[knocker]
        beaters = tuple(s for s in range(n) if s != knocker and outcome.totals[s] <= mine)
        if not beaters:  # TT-13: strictly lowest
            collect(knocker, tunk_out=False)
            winners = (knocker,)
        else:  # TT-13: caught, pays each who tied or beat them at their own multiplier
            caught = True
            winners = beaters
            for seat in beaters:
                mult = multiplier(early[seat], special[seat], tunk_out=False)
                payments.append(TTPayment(knocker, seat, mult, unit * mult))
    else:
        raise OutcomeError(f"unknown Triple Tunk outcome {outcome!r}", field="outcome")

    net = [0] * n
    for p in payments:
        net[p.payer] -= p.amount
        net[p.payee] += p.amount
    check_balanced(net, 0, "Triple Tunk settlement")
    return TTSettlement(outcome.kind, winners, caught, tuple(payments), tuple(net))


def _seat(value: int, n: int, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise OutcomeError(f"seat {value!r} is not one of the seats 0..{n - 1}", field=field)
    return value


__all__ = [
    "TTKnock",
    "TTOutcome",
    "TTPayment",
    "TTSettlement",
    "TTTunkOut",
    "multiplier",
    "settle_tt",
]
