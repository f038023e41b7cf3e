"""Compiled Triple Tunk kept-hand tables (engine/advice/tunk/_keeptable.c)."""

from collections.abc import Sequence

def init(
    features: Sequence[int],
    points: Sequence[int],
    col_ok: Sequence[int],
    shp_ok: Sequence[int],
    num_ok: Sequence[int],
    seq_fill: Sequence[int],
    point_masks: Sequence[tuple[int, int]],
) -> None: ...
def build(rest: Sequence[int]) -> tuple[int, int, tuple[tuple[int, int], ...], int, int]: ...
