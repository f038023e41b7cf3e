"""bench.opponent_model: the hands it records are the seats' real hands, and the unseen-card
rows count every played opponent once."""

from __future__ import annotations

import pytest

from bench.opponent_model import TURN_BANDS, decisions, hidden_rows, turn_band
from engine.advice.tunk.common import model_for


@pytest.mark.parametrize(
    ("game", "players", "deals"), [("game-flip-flop", 2, 40), ("triple-tunk", 3, 150)]
)
def test_recorded_hands_are_what_the_seats_hold(game: str, players: int, deals: int) -> None:
    decided = decisions(game, players, "never", deals, 3)  # Triple Tunk deals are short
    model = model_for(game)
    checked = 0
    for obs, totals, hands in decided:
        assert hands[0] is None  # the advisor's own hand is the observation's
        for seat, hand in enumerate(hands):
            if hand is not None:
                assert model.total(hand) == totals[seat]
                assert len(hand) == obs.hand_sizes[seat]
                assert set(obs.known[seat]) <= set(hand)
                checked += 1
    assert checked > 20


def test_unseen_card_rows_count_each_played_opponent_once() -> None:
    decided = decisions("game-flip-flop", 2, "never", 60, 3)
    rows = hidden_rows(decided)
    played = sum(
        1
        for obs, _, hands in decided
        for seat in obs.opponents()
        if hands[seat] is not None and obs.turns[seat] > 0
    )
    everything = rows.pop(("all", "all"))
    assert everything[0] == played > 0
    assert sum(r[0] for r in rows.values()) == played
    assert sum(r[1] for r in rows.values()) == pytest.approx(everything[1])
    bands = {turn_band(a) for a, _ in TURN_BANDS}
    assert {band for band, _ in rows} <= bands
    assert all(expected > 0 for _, _, expected in rows.values())
