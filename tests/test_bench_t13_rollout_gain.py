"""bench.t13_rollout_gain: positions recorded from the advisor's own decisions, picks valued on
held-out worlds, and the report's arithmetic."""

from __future__ import annotations

import random

import pytest

from bench.t13_rollout_gain import (
    Measured,
    Position,
    RecordingAdvisor,
    SearchingAdvisor,
    measure,
    paired_report,
    play_pair,
    report,
    rollout_value,
)
from engine.core.options import ThreeThirteenRules
from engine.sim.t13 import T13View, play_round
from engine.sim.t13_policies import AdvisorT13Policy
from engine.sim.t13_strong import StrongT13Policy


def _positions() -> list[Position]:
    kept: list[Position] = []
    advisor = RecordingAdvisor(seed=3, every=2, positions=kept)
    play_round(
        6,
        [advisor, StrongT13Policy(random.Random(1))],
        random.Random(7),
        dealer=1,
        decks=1,
        rules=ThreeThirteenRules(),
        totals=(0, 0),
    )
    return kept


def test_recorded_positions_are_the_advice_played_off_a_last_turn() -> None:
    kept = _positions()
    assert kept
    for pos in kept:
        assert pos.view.out_seat is None
        assert len(pos.view.hand) == 6 + 3  # after the draw (T13-1, T13-5)
        assert pos.ranked[0] == pos.advised
        assert sorted(pos.ranked) == sorted(set(pos.view.hand))


def test_measure_values_every_candidate_in_the_same_worlds() -> None:
    pos = _positions()[0]
    got = measure(pos, worlds=4, candidates=3, seed=5)
    cands = len(dict.fromkeys(pos.ranked[:3])) + (
        StrongT13Policy().discard(pos.view)[0] not in pos.ranked[:3]
    )
    assert got.rollouts == cands * 4
    assert set(got.gains) == {"strong", "search 4"}
    for name, differs in got.differs.items():
        if not differs:
            assert got.gains[name] == 0.0  # the advice's own discard saves nothing over itself
    assert measure(pos, worlds=4, candidates=3, seed=5).gains == got.gains
    card = pos.advised
    assert rollout_value(pos.view, card, 11) == rollout_value(pos.view, card, 11)


def test_report_means_and_shares_per_round_group() -> None:
    rows = [
        Measured(2, {"search 8": 1.0}, {"search 8": True}, 10, 0.5),
        Measured(2, {"search 8": 3.0}, {"search 8": True}, 10, 0.5),
        Measured(10, {"search 8": 0.0}, {"search 8": False}, 10, 1.0),
    ]
    text = report(rows)
    lines = text.splitlines()
    assert lines[1].split()[:3] == ["1-3", "2", "+2.00"]
    assert "100% differ" in lines[1]
    assert lines[2].split()[:3] == ["9-11", "1", "+0.00"]
    assert lines[3].split()[:3] == ["all", "3", "+1.33"]
    assert "one picking rollout (discard to the end of the round): 66.67 ms" in text
    assert report([]).startswith("no positions recorded")


@pytest.mark.parametrize("seed", [1, 2])
def test_rollout_value_is_a_round_score_difference(seed: int) -> None:
    pos = _positions()[0]
    value = rollout_value(pos.view, pos.advised, seed)
    assert value == int(value)  # heads-up: one score less the other, both whole points
    assert -150 <= value <= 150


def test_a_search_that_never_starts_plays_the_advice_exactly() -> None:
    (row,) = play_pair((5, [0], 12, 4, 3, "greedy"))  # there is no round 12 (T13-1)
    assert row[0] == row[2] and row[1] == row[3]


def test_searching_advisor_searches_only_its_discards_from_the_round_given() -> None:
    asked: list[int] = []

    class Spy(AdvisorT13Policy):
        def discard(self, view: T13View) -> tuple[int | None, bool]:
            asked.append(view.round_number)
            return super().discard(view)

    player = SearchingAdvisor(Spy(seed=1), from_round=3, worlds=2, candidates=2, picker="greedy")
    for round_number in (1, 2, 3):
        play_round(
            round_number,
            [player, StrongT13Policy(random.Random(2))],
            random.Random(round_number),
            dealer=1,
            decks=1,
            rules=ThreeThirteenRules(),
            totals=(0, 0),
        )
    assert 1 in asked and 2 in asked  # before the round given, every discard is the advice
    # from round 3 on only the last turn (if any) is left to the advice
    assert asked.count(3) <= 1


def test_paired_report_differences() -> None:
    rows = [(1.0, 10.0, 1.0, 12.0), (0.0, -5.0, 1.0, 3.0)]
    text = paired_report(rows)
    assert "share: advice +0.500, with the search +1.000, difference +0.500" in text
    assert "net: advice +2.500, with the search +7.500, difference +5.000" in text
    assert text.endswith("2 games, 1 with a different winner")
