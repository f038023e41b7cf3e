"""The best set of lay-offs that can all be made together, in order (GFF-3, TT-8).

``gff_layoffs`` / ``tt_layoffs`` list every card that fits a table meld on its own. Several of
them may compete for one meld: a Triple Tunk meld holds at most five cards (TT-6, TT-8), so on a
4-card meld only one of the cards that fit can go; a Game Flip Flop set takes one 4th card.
:func:`layoff_plan` searches the orders in which hand cards can be laid (each lay-off changes
the meld it goes on, which may open a chain: 8 then 9 on a run) and returns the best plan:

1. most points laid off (they no longer count at a drop or knock, GFF-8 / TT-13),
2. then most cards,
3. then the lexicographically smallest sequence of (meld index, card): a stable answer (C-2).

In Triple Tunk an owner does not break their own special meld into a regular one (TT-8 allows
it, but it cancels the TT-14 bonus), and ``keep`` cards always stay in hand (TT-11: only a tunk
out may empty the hand, and a turn ends with a discard).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from engine.core.types import Layoff, TableMeld
from engine.games import GAME_FLIP_FLOP_GAME, TRIPLE_TUNK_GAME, find_game
from engine.games.gff.play import spread_kind
from engine.games.tt.melds import describe_tt_meld
from engine.games.tt.play import can_extend

Plan = tuple[tuple[int, int], ...]  # ((card, meld index), ...) in laying order
FitsFn = Callable[[tuple[int, ...], int, bool], bool]
"""fits(meld, card, by_owner): ``card`` may go on the table meld ``meld`` now."""


def _gff_fits(meld: tuple[int, ...], card: int, by_owner: bool) -> bool:
    """GFF-3: the spread with the card is still a spread, whoever owns it."""
    return spread_kind((*meld, card)) is not None


def _tt_fits(meld: tuple[int, ...], card: int, by_owner: bool) -> bool:
    """TT-8, keeping an owner's special meld special (its TT-14 bonus)."""
    if not can_extend(meld, card, by_owner):
        return False
    if by_owner:  # do not break one's own special (its TT-14 bonus)
        before = describe_tt_meld(meld)
        if before is not None and before.special:
            after = describe_tt_meld((*meld, card))
            return after is not None and after.special
    return True


_FITS: dict[str, FitsFn] = {GAME_FLIP_FLOP_GAME.slug: _gff_fits, TRIPLE_TUNK_GAME.slug: _tt_fits}
"""The lay-off test of each game that has lay-offs (GFF-3, TT-8), by slug; Three Thirteen has
none (T13-7)."""


def layoff_plan(
    game: str,
    hand: Sequence[int],
    table: Sequence[TableMeld],
    seat: int,
    *,
    keep: int = 0,
) -> tuple[Layoff, ...]:
    """The best ordered lay-offs of ``hand`` cards on ``table`` for the player at ``seat``
    (module docstring), leaving at least ``keep`` cards in hand. Each ``Layoff`` has empty
    ``requires``: the plan's order is the laying order.

    :raises UnknownGameError: ``game`` is no game's slug.
    """
    found = find_game(game)
    fits = _FITS.get(found.slug)
    if fits is None or not table or len(hand) <= keep:
        return ()  # no lay-offs in the game, nothing to lay off on, or no card may leave the hand
    pts = found.deck.points
    cards = tuple(sorted(set(hand)))
    melds = tuple(tuple(m.cards) for m in table)
    owners = tuple(m.owner == seat for m in table)
    room = len(cards) - keep

    @cache
    def best(left: tuple[int, ...], state: tuple[tuple[int, ...], ...]) -> tuple[int, int, Plan]:
        """(points, cards, plan) of the best continuation; compared as (-points, -cards, plan)."""
        top: tuple[int, int, Plan] = (0, 0, ())
        if len(cards) - len(left) >= room:
            return top
        for i, meld in enumerate(state):
            for card in left:
                if not fits(meld, card, owners[i]):
                    continue
                rest = tuple(c for c in left if c != card)
                grown = state[:i] + ((*meld, card),) + state[i + 1 :]
                p, n, plan = best(rest, grown)
                cand = (p + pts[card], n + 1, ((card, i), *plan))
                if (-cand[0], -cand[1], [(m, c) for c, m in cand[2]]) < (
                    -top[0],
                    -top[1],
                    [(m, c) for c, m in top[2]],
                ):
                    top = cand
        return top

    _p, _n, plan = best(cards, melds)
    return tuple(Layoff(card, index) for card, index in plan)


__all__ = ["Plan", "layoff_plan"]
