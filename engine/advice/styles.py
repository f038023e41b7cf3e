"""Opponent styles: how likely an opponent is to knock or drop with a given hand total.

Real opponents do not all play like the simulator's baseline. The advice models each opponent as
a mixture of a few knocking styles and weighs them by what was observed of that opponent:

- ``cautious``: never knocks (or drops) on a total; waits to go or tunk out;
- ``knocks_at_5``: knocks as soon as its total is 5 or less;
- ``knocks_at_10``: knocks as soon as its total is 10 or less;
- ``random``: knocks now and then whatever it holds (:data:`RANDOM_KNOCK` of its turns).

Prior weights (:data:`PRIOR`) are updated by the evidence in the situation: an opponent known
to have passed up knocking (``Observation.passes``: turns it started holding a total at or
below 10 points, shown at the end or inferred, and did not knock) is less likely to be an
aggressive knocker; each pass multiplies a style's weight by the chance that style would have
passed. Laying styles (lays at once / holds melds) enter the hidden-hand sampler through
``lay_probability`` (``engine.advice.common``).
"""

from __future__ import annotations

from engine.situation import Observation

RANDOM_KNOCK = 0.05
PRIOR: dict[str, float] = {
    "cautious": 0.4,
    "knocks_at_5": 0.25,
    "knocks_at_10": 0.2,
    "random": 0.15,
}


def style_knocks(style: str, total: int) -> float:
    """P(a player of ``style`` holding ``total`` points knocks at the start of its turn)."""
    if style == "knocks_at_5":
        return 1.0 if total <= 5 else 0.0
    if style == "knocks_at_10":
        return 1.0 if total <= 10 else 0.0
    if style == "random":
        return RANDOM_KNOCK
    return 0.0


def style_weights(obs: Observation, seat: int) -> dict[str, float]:
    """Posterior style weights of ``seat``: the prior times the likelihood of its passes
    (a pass holding ``t`` <= 10 points: ``1 - style_knocks(style, t)``), normalised."""
    passes = obs.passes[seat] if seat < len(obs.passes) else ()
    weights = dict(PRIOR)
    for t in passes:
        for s in weights:
            weights[s] *= 1.0 - style_knocks(s, t)
    total = sum(weights.values())
    if total <= 0:
        return {"cautious": 1.0}
    return {s: w / total for s, w in weights.items()}


def knock_chance(obs: Observation, seat: int, total: int) -> float:
    """P(``seat`` knocks at its next turn start holding ``total`` points), over its styles."""
    return sum(w * style_knocks(s, total) for s, w in style_weights(obs, seat).items())


__all__ = ["PRIOR", "RANDOM_KNOCK", "knock_chance", "style_knocks", "style_weights"]
