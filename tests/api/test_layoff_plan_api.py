"""``/melds`` answers a lay-off plan that can all be made together (TT-8: at most 5 cards)."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient


@pytest.mark.rule("GFF-3")
def test_only_one_of_three_cards_fits_a_four_card_meld(client: FlaskClient) -> None:
    body = {
        "hand": ["BB1", "BB2", "BS3", "GS1", "KH3", "RS1"],
        "table": [{"owner": 0, "cards": ["BS2", "GB4", "GB?", "KS3"]}],
        "seat": 1,
        "players": 3,
    }
    response = client.post("/v1/games/triple-tunk/melds", json=body)
    assert response.status_code == 200
    data = response.get_json()
    # Each of the three fits on its own (the per-card list is kept) ...
    assert {lo["card"] for lo in data["layoffs"]} == {"RS1", "GS1", "BB1"}
    # ... but the meld holds 5 cards at most: the plan lays exactly one. BB1 is in the best
    # arrangement (BB1 BB2 BS3, a blue 1-2-3 special), so the plan picks from the deadwood.
    assert data["layoff_plan"] == [{"card": "RS1", "meld_index": 0}]
