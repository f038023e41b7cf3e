"""Three Thirteen advice (T13-1..T13-8): which card to discard and whether to take the discard.

The names below are the package's interface; the modules inside are split by job:

- :mod:`~engine.advice.t13.params`: tuned weights, defaults and work caps;
- :mod:`~engine.advice.t13.situation`: the question, the answers and their validation;
- :mod:`~engine.advice.t13.opponents`: the next player's imagined hands (the danger model) and the
  work a draw's hands share;
- :mod:`~engine.advice.t13.value`: the value function of a hand after the draw;
- :mod:`~engine.advice.t13.discard` and :mod:`~engine.advice.t13.draw`: the two questions.
"""

from engine.advice.t13.discard import t13_discard_advice
from engine.advice.t13.draw import t13_draw_advice
from engine.advice.t13.params import (
    CLEAR_MARGIN,
    DANGER_WEIGHT,
    DEFAULT_PRECISION,
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    DEFAULT_STOCK_SAMPLES,
    DISCARDED_NEAR_WEIGHT,
    GO_OUT_WEIGHT,
    MAX_PRECISION,
    MAX_ROUND,
    MAX_SAMPLES,
    MAX_STOCK_SAMPLES,
    MIN_STOCK_SAMPLES,
    OUT_NOW,
)
from engine.advice.t13.situation import T13Situation

__all__ = [
    "CLEAR_MARGIN",
    "DANGER_WEIGHT",
    "DEFAULT_PRECISION",
    "DEFAULT_SAMPLES",
    "DEFAULT_SEED",
    "DEFAULT_STOCK_SAMPLES",
    "DISCARDED_NEAR_WEIGHT",
    "GO_OUT_WEIGHT",
    "MAX_PRECISION",
    "MAX_ROUND",
    "MAX_SAMPLES",
    "MAX_STOCK_SAMPLES",
    "MIN_STOCK_SAMPLES",
    "OUT_NOW",
    "T13Situation",
    "t13_discard_advice",
    "t13_draw_advice",
]
