"""What to lay down this turn (GFF-2/GFF-3, TT-6/TT-8): new melds and lay-offs as a plan.

Laying melds and lay-offs lowers the total that counts if someone drops or knocks (GFF-8,
TT-13: a meld held in hand counts) and, in Triple Tunk, gives opponents lay-off targets (each
card they add makes the owner wait, TT-12) ; holding keeps options for a tunk out (TT-11).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.advice.value import Evaluator
from engine.rules import GAME_FLIP_FLOP
from engine.situation import Observation


@dataclass(frozen=True, slots=True)
class LayPlan:
    """Lay ``melds`` (new melds from the hand) then ``layoffs`` ((card, table meld index), in
    that order) this turn; ``lay_melds`` is whether new melds go down; ``reason`` says why."""

    lay_melds: bool
    melds: tuple[tuple[int, ...], ...] = ()
    layoffs: tuple[tuple[int, int], ...] = ()
    reason: str = ""


def lay_plan(obs: Observation, ev: Evaluator, discard: int | None) -> LayPlan:
    """The lay-down plan for ``obs.hand`` (after the draw) when ``discard`` is thrown."""
    return LayPlan(obs.game == GAME_FLIP_FLOP)


__all__ = ["LayPlan", "lay_plan"]
