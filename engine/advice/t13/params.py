"""Three Thirteen advice: its tuned weights, defaults and work caps (one home for each number).

The weights were measured in tournaments (``bench/tournament_t13.py``), the caps on this machine
(``bench/bench_advice_t13.py --probe``); the round count comes from the Game (T13-1).
"""

from __future__ import annotations

from engine.games.t13.game import GAME

assert GAME.rounds is not None  # T13-1: a game of rounds
MAX_ROUND: int = GAME.rounds
DEFAULT_SEED = 13
DEFAULT_SAMPLES = 16  # discard: next player's hands sampled for danger
DEFAULT_STOCK_SAMPLES = 12  # draw: most stock cards evaluated (the mean's work cap)
DEFAULT_PRECISION = 1.0  # draw: 95% half-width (points) at which the stock mean stops
MIN_STOCK_SAMPLES = 4  # stock cards before the normal interval decides (see T_975)
# Student's t 97.5% quantiles by degrees of freedom: before MIN_STOCK_SAMPLES cards the stock's
# sampling stops only if the choice is already clear with the wider interval of so few cards.
T_975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776}
# Draw: after one stock card the choice is clear when its estimate of the stock mean is more than
# this many points from the take's value. A card's value less its control variate varies with a
# standard deviation of about 1.5 points (2.3-2.6 at the 90th percentile) over random situations
# of rounds 3-11. With this margin the stopping rule values 18-21% fewer stock cards and loses
# 0.0003-0.0033 points more per draw than without it (bench/t13_stock_margin.py, seeds 3-5).
CLEAR_MARGIN = 5.0
MAX_PRECISION = 50.0

# Work caps (bounded requests, measured with bench/bench_advice_t13.py --probe on this machine:
# the largest accepted settings finish well under a second). ``samples`` above the cap is a 422.
MAX_SAMPLES = 64  # discard: next player's hands
MAX_STOCK_SAMPLES = 16  # draw: stock cards, each one full evaluation of a hand after the draw
# Draw: stock sampling also stops once this many deadwood figures were asked for (the work unit:
# one kept hand with one next card, or one imagined next-player hand with one discard). A round-11
# evaluation asks about 600, so a draw does about five there and many more in the
# short early rounds; deterministic, unlike a clock.
DRAW_WORK_CAP = 3000

# Score weights (bench/tournament_t13.py): the next player's likely gain is a tie-breaker, not a
# cost in points, since what a discard gives them is mostly what they would soon draw anyway; a
# certain go-out next turn is worth six points beyond the zero it adds to the expectation.
DANGER_WEIGHT = 0.1
GO_OUT_WEIGHT = 6.0
OUT_NOW = -(GO_OUT_WEIGHT + 1.0)  # going out now: below every kept hand's value
MAX_RISK = 0.5
RISK_LEAD_PER_ROUND = 20.0  # lead (points) per round left (this one included) for MAX_RISK x 2
DISCARDED_NEAR_WEIGHT = 0.25


__all__ = [
    "CLEAR_MARGIN",
    "DANGER_WEIGHT",
    "DEFAULT_PRECISION",
    "DEFAULT_SAMPLES",
    "DEFAULT_SEED",
    "DEFAULT_STOCK_SAMPLES",
    "DISCARDED_NEAR_WEIGHT",
    "DRAW_WORK_CAP",
    "GO_OUT_WEIGHT",
    "MAX_PRECISION",
    "MAX_RISK",
    "MAX_ROUND",
    "MAX_SAMPLES",
    "MAX_STOCK_SAMPLES",
    "MIN_STOCK_SAMPLES",
    "OUT_NOW",
    "RISK_LEAD_PER_ROUND",
    "T_975",
]
