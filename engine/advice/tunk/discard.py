"""Discard advice for the Tunk games: rank every distinct card of a hand after the draw.

Every option is scored by the one hand evaluation of :mod:`engine.advice.tunk.value` (RULES: GFF-7 /
TT-10 discard one card):

- ``deadwood``: the deadwood points left (C-2 best arrangement of the other cards);
- ``outs``: how many distinct unseen cards would lower that deadwood after the next draw;
- ``expected_deadwood``: the deadwood expected after the next stock draw and best discard;
- ``danger``: the chance that the card helps the next player: it lays off on a table meld
  (GFF-3 / TT-8: taken and laid at once), or completes a meld with two cards the next player is
  known or likely to hold (known pickups count as held; hidden cards are uniform over the unseen
  cards, C-1);
- ``out_chance``: the share of unseen cards that would let the hand be emptied after the next
  draw (all cards melded, or all but one to discard; lay-offs on the table not counted);
- ``score`` (lower is better) = ``(deadwood + expected_deadwood) / 2 + DANGER_POINTS * danger
  - OUT_POINTS * out_chance``.

When the hand can end the play now (GFF-9/GFF-10 via ``gff_going_out``, TT-11 via
``tt_tunk_out``) that discard is recommended, whatever the scores say; its value is
:func:`engine.advice.tunk.value.end_value`. ``value`` is the number ``draw`` reports for the same
hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.advice.situation import Observation
from engine.advice.tunk.layout import LayPlan, lay_plan
from engine.advice.tunk.value import (
    DANGER_POINTS,
    OUT_POINTS,
    DiscardFigures,
    Evaluator,
    HandValue,
    card_text,
)


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """One possible discard and its figures (see the module docstring)."""

    card: int
    deadwood: int
    outs: int
    expected_deadwood: float
    out_chance: float
    danger: float
    score: float
    keep_value: float = 0.0  # the kept hand's value (score without the danger term)


@dataclass(frozen=True, slots=True)
class DiscardAdvice:
    """Options best first; ``discard`` is the recommendation (None: tunk out with no discard).

    ``ends`` names how the play ends if the advice is followed now ("tunk_out", "go_out") or is
    None. ``value`` is the hand's value (the best option's score, or the value of ending now),
    the figure ``draw`` reports for this hand. ``lay`` is what to lay down this turn.
    """

    discard: int | None
    ends: str | None
    options: tuple[DiscardOption, ...]
    explanation: str
    value: float = 0.0
    lay: LayPlan | None = None


def option_of(f: DiscardFigures) -> DiscardOption:
    """The public option record of one evaluated discard."""
    k = f.keep
    return DiscardOption(
        f.card, k.deadwood, k.outs, k.expected_deadwood, k.out_chance, f.danger, f.score, k.value
    )


def discard_options(obs: Observation) -> tuple[DiscardOption, ...]:
    """Every distinct discard of ``obs.hand`` with its figures, best (lowest score) first; ties
    go to the higher card (more points thrown away)."""
    return tuple(option_of(f) for f in Evaluator(obs).options(obs.hand))


def explain(game: str, hv: HandValue) -> str:
    """The sentence of a discard answer."""
    if hv.ends is not None:
        how = "tunk out" if hv.ends == "tunk_out" else "go out"
        if hv.discard is None:
            return f"Lay everything down and {how} now: no discard is needed."
        return f"Discard {card_text(game, hv.discard)} to {how} now."
    best = hv.options[0]
    k = best.keep
    return (
        f"Discard {card_text(game, best.card)}: it leaves {k.deadwood} deadwood points with "
        f"{k.outs} unseen cards that improve the hand (about {k.expected_deadwood:.1f} points "
        f"expected after the next draw) and a {best.danger:.0%} chance of helping the next "
        f"player (value {best.score:.2f})."
    )


def discard_advice(obs: Observation, evaluator: Evaluator | None = None) -> DiscardAdvice:
    """Which card to discard from ``obs.hand`` (after the draw), and what to lay down first."""
    ev = evaluator if evaluator is not None else Evaluator(obs)
    hv = ev.hand_value(obs.hand)
    options = tuple(option_of(f) for f in hv.options)
    plan = None if hv.ends is not None else lay_plan(obs, ev, hv.discard)
    text = explain(obs.game, hv)
    if plan is not None and plan.reason:
        text = f"{text} {plan.reason}"
    return DiscardAdvice(hv.discard, hv.ends, options, text, hv.value, plan)


def lay_melds_advice(obs: Observation) -> bool:
    """Whether to lay new melds this turn (when not tunking or going out): the lay-down plan's
    verdict (:func:`engine.advice.tunk.layout.lay_plan`)."""
    plan = lay_plan(obs, Evaluator(obs), None)
    return plan.lay_melds


__all__ = [
    "DANGER_POINTS",
    "DiscardAdvice",
    "DiscardOption",
    "OUT_POINTS",
    "discard_advice",
    "discard_options",
    "lay_melds_advice",
    "option_of",
]
