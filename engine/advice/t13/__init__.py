"""Three Thirteen advice (T13-1..T13-8): which card to discard and whether to take the discard.

The names below are the package's interface; the modules inside are split by job.
"""

from engine.advice.t13.advisor import (
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
    T13Situation,
    t13_discard_advice,
    t13_draw_advice,
)

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
