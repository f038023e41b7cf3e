"""Compiled least-deadwood search of engine.standard.solver._CardSolver
(engine/standard/_solver.c)."""

from collections.abc import Sequence

class Solver:
    def __init__(
        self,
        point_table: Sequence[int],
        joker_value: int,
        cap: int,
        aces_high: bool,
        limit: int,
    ) -> None: ...
    def solve(self, state: int, j: int, melded: bool, free: bool) -> int: ...
    def through(self, state: int, j: int, card: int, best: int, free: bool) -> int: ...
    def fewest_jokers(self, state: int, j: int, card: int) -> int: ...
    def adding_bounds(
        self,
        state: int,
        j: int,
        deadwood: int,
        top_points: int,
        wild_rank: int,
        counts: Sequence[tuple[int, int]],
        values: dict[int, int],
        ad: int,
        ww: int,
    ) -> tuple[int, int, list[tuple[int, int, int, int, int]], int, int]: ...
    def adding_sums(
        self,
        state: int,
        j: int,
        deadwood: int,
        top_points: int,
        wild_rank: int,
        counts: Sequence[tuple[int, int]],
        values: dict[int, int],
        ad: int,
        ww: int,
    ) -> tuple[int, int, int, int, int]: ...
    def raised_bound(
        self,
        state: int,
        j: int,
        deadwood: int,
        top_points: int,
        wild_rank: int,
        loose: Sequence[tuple[int, int, int, int, int]],
        values: dict[int, int],
        ad: int,
        acc: int,
        zero: int,
        best: float,
        risk: float,
        total: float,
        go_out_weight: float,
    ) -> tuple[float | None, int]: ...
    def gain(
        self,
        state: int,
        j: int,
        deadwood: int,
        top_points: int,
        wild_rank: int,
        card: int,
        values: dict[int, int],
        ad: int,
        ww: int,
    ) -> tuple[int, int, int, int]: ...
