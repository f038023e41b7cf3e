"""bench.t13_seer: the seer is the advice shown every opponent's real hand, and nothing else
changes."""

from __future__ import annotations

import random

from bench.t13_seer import Seer, play_one
from bench.tournament_t13 import play_one as tournament_game
from engine.advice.t13.params import DEFAULT_SAMPLES
from engine.sim.t13 import Snapshot, T13View, play_game
from engine.sim.t13_strong import StrongT13Policy


class _Recorder:
    """A player that records the views it is given and plays like ``strong``."""

    def __init__(self) -> None:
        self.inner = StrongT13Policy(random.Random(2))
        self.views: list[tuple[T13View, tuple[tuple[int, ...], ...]]] = []
        self.table: list[tuple[tuple[int, ...], ...]] = [()]  # every hand at the latest step

    def take_discard(self, view: T13View) -> bool:
        self.views.append((view, self.table[0]))
        return self.inner.take_discard(view)

    def discard(self, view: T13View) -> tuple[int | None, bool]:
        self.views.append((view, self.table[0]))
        return self.inner.discard(view)


def test_the_seer_is_shown_every_opponents_real_hand() -> None:
    recorder = _Recorder()
    seer = Seer(recorder)

    def on_step(snapshot: Snapshot) -> None:
        recorder.table[0] = snapshot.hands
        seer.on_step(snapshot)

    play_game(
        [seer, StrongT13Policy(random.Random(3)), StrongT13Policy(random.Random(4))],
        random.Random(5),
        rounds=(4, 9),
        on_step=on_step,
    )
    assert len(recorder.views) >= 10
    for view, hands in recorder.views:
        assert view.hand == hands[0]
        for s in (1, 2):
            assert sorted(view.known[s]) == sorted(hands[s])
            assert len(view.known[s]) == view.hand_sizes[s]


def test_the_advice_mode_is_the_tournaments_game() -> None:
    for g in range(3):
        share, net = play_one(2, "strong", 11, g, "advice")
        reference_share, reference_net, _ = tournament_game(2, "strong", 11, g, DEFAULT_SAMPLES)
        assert (share, net) == (reference_share, reference_net)


def test_a_seer_plays_whole_games_legally() -> None:
    share, _net = play_one(2, "strong", 3, 1, "seer")
    assert share in (0.0, 0.5, 1.0)
