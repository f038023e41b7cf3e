"""The situation model: what one player knows at a Tunk table (Game Flip Flop, Triple Tunk).

The API builds an :class:`Observation` from a request, the advice (``engine.advice``) reads it and
the simulators (``engine.sim``) hand one to each policy at every decision, so the dependency runs
one way: situation -> advice -> simulators. It holds only what a real player at that table sees:
their own hand, the table, the discard pile, what each opponent was seen to do (cards picked up,
cards thrown, turns played, TT-12 waiting counters, TT-9 claims) and the money on the table
(GFF-6 stakes and carried pots). Never the stock or another player's hidden cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.types import TableMeld


@dataclass(frozen=True, slots=True)
class Observation:
    """What seat ``seat`` sees at a decision point (GFF and TT; T13 reuses the same fields).

    ``known`` holds, per seat, the cards that seat is known to hold: cards it picked up from the
    discard pile and still holds, and (GFF-5) the dealer's flip card. ``turns`` counts the turns
    each seat has completed (an opponent who has played a turn had the chance to lay its melds).
    ``discards`` is the discard pile, top first. ``waiting`` is the TT-12 counter per seat and
    ``early`` the TT-9 claims (both empty/zero for GFF). ``discard_history`` lists, per seat, the
    cards that seat discarded this deal, most recent first; ``declined`` the top discards it
    left lying when it drew from the stock instead. ``passes`` lists, per seat, the hand
    totals (10 or less) it held at turn starts where it could have knocked/dropped and did not
    (the opponent-style evidence of ``engine.advice.tunk.styles``). ``profiles`` holds, per
    seat, the card-play prior (baseline, hoarder, random weights) learned over earlier deals from
    the hands that seat showed (``engine.advice.tunk.profile``); empty or None: the default prior.
    ``drop_styles`` holds, per seat, the learned weight of the "drops when likely lowest" style
    (``engine.advice.tunk.styles``): a seat that has passed up its turn starts is then read as
    not likely lowest; empty or None: the style's default prior. ``drop_totals`` holds, per
    seat, the learned weights of the fixed-total drop styles (never, at 5, at 10, at random,
    ``engine.advice.tunk.styles.FIXED_STYLES``, summing to 1) that "drops when likely lowest" is
    weighed against and that the knock threat reads; empty or None: their prior.
    ``keeps_flexible`` holds, per seat, the learned chance that it keeps the game's flexible
    cards whatever their points (``engine.advice.tunk.styles.keeps_posterior``); empty or
    None: its prior.

    Game Flip Flop money (GFF-6, all optional): ``stake`` in units (0: unknown), ``bankrolls``
    per seat before the deal (empty: unknown; with ``stake`` they fix the pots each seat staked
    in, who is all in and who was dealt in), and the units carried into the flip and flop pots
    from earlier deals (GFF-5). The drop payout is settled from them (``engine.games.gff.settle``).
    """

    game: str
    seat: int
    dealer: int
    n_players: int
    hand: tuple[int, ...]
    table: tuple[TableMeld, ...]
    discards: tuple[int, ...]
    known: tuple[tuple[int, ...], ...]
    hand_sizes: tuple[int, ...]
    turns: tuple[int, ...]
    stock_size: int
    flip_card: int | None = None
    waiting: tuple[int, ...] = ()
    early: tuple[bool, ...] = ()
    discard_history: tuple[tuple[int, ...], ...] = ()
    declined: tuple[tuple[int, ...], ...] = ()
    last_stock_turn: bool = False
    turn_number: int = 0
    passes: tuple[tuple[int, ...], ...] = ()
    stake: int = 0
    bankrolls: tuple[int, ...] = ()
    flip_carry_in: int = 0
    flop_carry_in: int = 0
    profiles: tuple[tuple[float, float, float] | None, ...] = ()
    drop_styles: tuple[float | None, ...] = ()
    drop_totals: tuple[tuple[float, float, float, float] | None, ...] = ()
    keeps_flexible: tuple[float | None, ...] = ()

    def opponents(self) -> tuple[int, ...]:
        """Every other seat, clockwise from this seat's left."""
        return tuple((self.seat + i) % self.n_players for i in range(1, self.n_players))


__all__ = ["Observation"]
