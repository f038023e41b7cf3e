"""What the next deal or round starts from, so a scorekeeper can chain settlements.

A settlement ends one Game Flip Flop deal, one Triple Tunk hand or one Three Thirteen round;
these functions say what the next one starts from: bankrolls and carried pots (GFF-5, GFF-6),
who can still be dealt in, the next dealer (C-4: the deal passes to the dealer's left), running
totals and standings, and whether the session is over.

Readings where the rules (docs/rules.md) are silent (documented in docs/architecture.md):

- Game Flip Flop: the deal passes to the next seat clockwise that can still be dealt in (a seat
  that cannot stake keeps its seat number but is skipped); the session is over when fewer than
  two seats can be dealt in (GFF-6).
- Triple Tunk has no end: the deal passes to the dealer's left and the running money totals grow.
- Three Thirteen: the deal passes to the dealer's left each round; after round 11 it is over
  (T13-1, T13-6).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.games.gff.settle import stakes_for
from engine.games.t13.game import GAME as THREE_THIRTEEN_GAME


@dataclass(frozen=True, slots=True)
class Standing:
    """One seat's place: ``place`` 1 is best; tied seats share a place."""

    seat: int
    value: int
    place: int


@dataclass(frozen=True, slots=True)
class GffNextDeal:
    """The state the next Game Flip Flop deal starts from (GFF-5, GFF-6)."""

    bankrolls: tuple[int, ...]
    dealer: int | None
    flip_carry_in: int
    flop_carry_in: int
    can_deal_in: tuple[int, ...]
    cannot_deal_in: tuple[int, ...]
    game_over: bool
    standings: tuple[Standing, ...]


def standings(values: Sequence[int], *, lower_is_better: bool) -> tuple[Standing, ...]:
    """Seats ranked by ``values`` (ties share a place, then seat order), best first."""
    order = sorted(
        range(len(values)), key=lambda s: (values[s] if lower_is_better else -values[s], s)
    )
    out: list[Standing] = []
    for position, seat in enumerate(order):
        tied = bool(out) and values[seat] == out[-1].value
        place = out[-1].place if tied else position + 1
        out.append(Standing(seat, values[seat], place))
    return tuple(out)


def next_seat_clockwise(dealer: int, n_seats: int, eligible: Sequence[int] | None = None) -> int:
    """The first seat after ``dealer`` clockwise (C-4) that is in ``eligible`` (any if None).

    :raises ValueError: no seat is eligible.
    """
    allowed = set(range(n_seats)) if eligible is None else set(eligible)
    for step in range(1, n_seats + 1):
        seat = (dealer + step) % n_seats
        if seat in allowed:
            return seat
    raise ValueError("no eligible seat")


def gff_next_deal(
    bankrolls_after: Sequence[int],
    stake: int,
    dealer: int,
    flip_carry_out: int,
    flop_carry_out: int,
) -> GffNextDeal:
    """The next deal of a Game Flip Flop session after a settlement (GFF-6 decides who plays)."""
    active = tuple(s for s, b in enumerate(bankrolls_after) if stakes_for(b, stake) >= 1)
    out = tuple(s for s in range(len(bankrolls_after)) if s not in active)
    over = len(active) < 2
    return GffNextDeal(
        bankrolls=tuple(bankrolls_after),
        dealer=None if over else next_seat_clockwise(dealer, len(bankrolls_after), active),
        flip_carry_in=flip_carry_out,
        flop_carry_in=flop_carry_out,
        can_deal_in=active,
        cannot_deal_in=out,
        game_over=over,
        standings=standings(bankrolls_after, lower_is_better=False),
    )


def t13_next_round(round_number: int) -> int | None:
    """The round after ``round_number``, or None after the last (T13-1)."""
    return round_number + 1 if round_number < (THREE_THIRTEEN_GAME.rounds or 0) else None
