"""Compiled hidden-hand draws of the Tunk advice (engine/advice/tunk/_sampler.c)."""

import random
from collections.abc import Sequence

def init(
    tt_features: Sequence[int], tt_meld_sizes: Sequence[int], gff_meld3_masks: Sequence[int]
) -> None: ...
def plan(
    kind: int,
    pool: Sequence[int],
    counts: Sequence[int],
    known: Sequence[tuple[int, ...]],
    mix: Sequence[tuple[float, float, float, float]],
    low: Sequence[Sequence[int]],
    kept_low: Sequence[Sequence[int]],
    pool_melds: Sequence[tuple[int, int, int]] | None,
    points: Sequence[int],
) -> object | None: ...
def sample(plan: object, rng: random.Random) -> tuple[tuple[int, ...], ...]: ...
def totals(plan: object, rng: random.Random, draws: int) -> list[int]: ...
