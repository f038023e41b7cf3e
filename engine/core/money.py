"""Money helpers shared by every game's settlement: C-3 pot splits and the zero-sum check.

Money is integer units (C-3). A split gives every tied winner ``amount // len(winners)`` and hands
the leftover units out one at a time in seat order starting from the dealer's left (C-4).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def seat_order_from_left(dealer: int, n_seats: int) -> tuple[int, ...]:
    """Every seat clockwise starting from the dealer's left, dealer last (C-4)."""
    return tuple((dealer + 1 + i) % n_seats for i in range(n_seats))


def split_pot(amount: int, winners: Iterable[int], dealer: int, n_seats: int) -> dict[int, int]:
    """Split ``amount`` between ``winners`` (C-3); leftovers go one unit each from dealer's left.

    The result maps each winner to its share; shares differ by at most one unit and sum to
    ``amount``. Raises ValueError on an empty winner list, a negative amount or a bad seat.
    """
    seats = sorted(set(winners), key=lambda seat: (seat - dealer - 1) % n_seats)
    if not seats:
        raise ValueError("a pot needs at least one winner")
    if amount < 0:
        raise ValueError("a pot cannot hold a negative amount")
    if not 0 <= dealer < n_seats or any(not 0 <= seat < n_seats for seat in seats):
        raise ValueError("seat out of range")
    base, leftover = divmod(amount, len(seats))
    return {seat: base + (1 if i < leftover else 0) for i, seat in enumerate(seats)}


def check_balanced(net: Sequence[int], carry_net: int = 0, what: str = "settlement") -> None:
    """C-3: nothing created, nothing lost: ``sum(net) + carry_net`` must be zero.

    ``carry_net`` is the money this deal leaves in (positive) or takes out of (negative) pots
    that carry over between deals. Raises AssertionError (an engine bug, never bad input).
    """
    total = sum(net) + carry_net
    if total != 0:
        raise AssertionError(f"{what} does not sum to zero: {list(net)} with carry {carry_net}")


__all__ = ["check_balanced", "seat_order_from_left", "split_pot"]
