"""The situation fields change the advice where they should.

- GFF-6: a seat that was not dealt in (``hand_size`` 0) holds no cards and is not compared at a
  drop, so dropping against one opponent instead of two is likelier to win.
- TT-12: opponents who wait cannot knock before our next turn, so a held meld is safe: the
  lay-down plan holds it; the same opponents free to knock on two cards make it lay it down.
- Opponent styles: passes at low totals make the knock threat smaller.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

GFF = "/v1/games/game-flip-flop"
TT = "/v1/games/triple-tunk"


def post(client: FlaskClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(path, json=body)
    assert response.status_code == 200, response.get_json()
    data: dict[str, Any] = response.get_json()
    return data


def test_a_seat_sitting_out_holds_no_cards(client: FlaskClient) -> None:
    base: dict[str, Any] = {"hand": ["6S", "5H", "4D", "3C"], "players": 3, "samples": 3000}
    three = post(client, f"{GFF}/knock", {**base, "opponents": [], "precision": 0.01})
    out = post(
        client,
        f"{GFF}/knock",
        {**base, "opponents": [{"seat": 2, "hand_size": 0}], "precision": 0.01},
    )
    assert out["win_probability"] > three["win_probability"]
    assert out["payout_if_win"] == 1.0 and three["payout_if_win"] == 2.0  # dealt-in - 1 stakes


def _tt_body(waiting: int, passes: list[int] | None = None) -> dict[str, Any]:
    opponents = [
        {"seat": s, "hand_size": 2, "turns": 6, "waiting": waiting, "passes": passes or []}
        for s in (1, 2)
    ]
    return {
        "hand": ["RH1", "RH2", "RH3", "YC4", "GT?", "BS4"],
        "discard_pile": ["YB?"],
        "players": 3,
        "opponents": opponents,
    }


def test_waiting_opponents_cannot_knock_so_the_meld_is_held(client: FlaskClient) -> None:
    free = post(client, f"{TT}/discard", _tt_body(0))
    waiting = post(client, f"{TT}/discard", _tt_body(3))
    assert free["lay_melds"] and free["melds_to_lay"] == [["RH1", "RH2", "RH3"]]
    assert free["knock_threat"] > 0
    assert not waiting["lay_melds"] and waiting["melds_to_lay"] == []
    assert waiting["knock_threat"] == 0.0
    assert "Hold" in waiting["explanation"] and "Lay down" in free["explanation"]


def test_passes_at_low_totals_lower_the_knock_threat(client: FlaskClient) -> None:
    plain = post(client, f"{TT}/discard", _tt_body(0))
    patient = post(client, f"{TT}/discard", _tt_body(0, passes=[4, 5, 3, 6, 2]))
    assert patient["knock_threat"] < plain["knock_threat"]


@pytest.mark.rule("GFF-5")
def test_shown_cards_are_held_by_the_opponent(client: FlaskClient) -> None:
    # GFF-5: the next player showed 7H and 7D (its lowest cards for the flip and flop pots) and
    # still holds them: the 7S completes a set with them, so it surely helps that player.
    body: dict[str, Any] = {
        "hand": ["7S", "KD", "QC", "2H", "3S", "9C"],
        "players": 3,
        "opponents": [{"seat": 1, "shown": ["7H", "7D"]}],
    }
    shown = post(client, f"{GFF}/discard", body)
    hidden = post(client, f"{GFF}/discard", {**body, "opponents": [{"seat": 1}]})

    def danger(data: dict[str, Any]) -> float:
        return float(next(o["danger"] for o in data["options"] if o["card"] == "7S"))

    assert danger(shown) == 1.0 > danger(hidden)
