"""Compiled least-deadwood search of engine.std_arrange._CardSolver (engine/_card_solver.c)."""

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
