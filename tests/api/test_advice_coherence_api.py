"""Draw and discard advice agree (one hand evaluation), and long deals stay answerable.

The Game Flip Flop late-deal request below once advised "take AH" from ``draw`` and "discard AH"
from ``discard`` on the resulting hand: a pass that, followed turn after turn, ran a deal to 407
turns. Now ``draw`` values taking AH with exactly the value ``discard`` gives that hand, and never
advises a take that ``discard`` undoes unless it announces the pass itself (``throw_back``).
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

GFF = "/v1/games/game-flip-flop"
TT = "/v1/games/triple-tunk"

PILE = [
    "AH",
    "KC",
    "9H",
    "3H",
    "QC",
    "9S",
    "KH",
    "9C",
    "3S",
    "10D",
    "3C",
    "3D",
    "JH",
    "AC",
    "6D",
    "6S",
    "8S",
    "10H",
    "6C",
    "8D",
    "JD",
    "JS",
    "7D",
    "10S",
    "QH",
    "8H",
    "6H",
    "QS",
    "7C",
    "10C",
    "KS",
    "JC",
    "9D",
]
LATE_DEAL: dict[str, Any] = {
    "hand": ["2D", "2H"],
    "discard_pile": PILE,
    "seat": 0,
    "players": 2,
    "table": [
        {"owner": 1, "cards": ["5C", "5D", "5H"]},
        {"owner": 0, "cards": ["4S", "4H", "4D", "4C"], "added": [{"seat": 1, "card": "4C"}]},
    ],
    "opponents": [{"seat": 1, "hand_size": 1}],
}


def post(client: FlaskClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(path, json=body)
    assert response.status_code == 200, response.get_json()
    data: dict[str, Any] = response.get_json()
    return data


def test_late_deal_draw_and_its_follow_up_agree(client: FlaskClient) -> None:
    draw = post(client, f"{GFF}/draw", LATE_DEAL)
    follow = dict(LATE_DEAL, hand=["AH", "2D", "2H"], discard_pile=PILE[1:])
    discard = post(client, f"{GFF}/discard", follow)
    # The value of taking AH is the value discard gives the hand with AH (to rounding).
    assert abs(draw["value_if_take"] - discard["value"]) < 1e-3
    assert draw["discard_after_take"] == discard["discard"]
    # Throwing AH back is the best discard of that hand (2-2 waits on two cards, AH on none), so
    # taking it would be a pass: the advice is the stock, whose cards are worth more.
    assert discard["discard"] == "AH"
    assert draw["choice"] == "stock" and not draw["take_discard"] and not draw["throw_back"]
    assert draw["value_if_stock"] < draw["value_if_take"]


def test_a_407_turn_deal_stays_answerable(client: FlaskClient) -> None:
    # Both players drew from the pile for 407 turns: 204 discards each, no turn limit (GFF-7).
    cycle = ["KC", "QH", "JS", "10D", "9C", "8H"]
    history = [cycle[i % len(cycle)] for i in range(204)]
    body = dict(
        LATE_DEAL,
        opponents=[
            {"seat": 1, "hand_size": 1, "turns": 204, "discarded": history, "declined": history}
        ],
    )
    for endpoint in ("draw", "knock"):
        post(client, f"{GFF}/{endpoint}", body)
    # A summary is enough too: the last few discards and the turn count.
    summary = dict(
        LATE_DEAL, opponents=[{"seat": 1, "hand_size": 1, "turns": 5000, "discarded": cycle}]
    )
    post(client, f"{GFF}/knock", summary)


def test_tt_draw_value_matches_the_follow_up_discard(client: FlaskClient) -> None:
    body: dict[str, Any] = {
        "hand": ["RC1", "RC2", "YH4", "GT?", "BS3"],
        "discard_pile": ["RC3", "KB2"],
        "players": 3,
        "opponents": [{"seat": 1, "turns": 2}, {"seat": 2, "turns": 2}],
    }
    draw = post(client, f"{TT}/draw", body)
    follow = dict(body, hand=[*body["hand"], "RC3"], discard_pile=["KB2"])
    discard = post(client, f"{TT}/discard", follow)
    assert abs(draw["value_if_take"] - discard["value"]) < 1e-3
    assert draw["discard_after_take"] == discard["discard"]
    if draw["take_discard"] and not draw["throw_back"]:
        assert discard["discard"] != "RC3"


def test_knock_draw_and_discard_report_one_value_for_the_hand(client: FlaskClient) -> None:
    # The hand knock weighs for playing on is valued exactly as draw values it (kept as it is)
    # and as discard values the option that leaves it (take RC3 and throw it back).
    body: dict[str, Any] = {
        "hand": ["RC1", "RC2", "YH4", "GT?", "BS3"],
        "discard_pile": ["RC3", "KB2"],
        "players": 3,
        "opponents": [{"seat": 1, "turns": 2}, {"seat": 2, "turns": 2}],
    }
    knock = post(client, f"{TT}/knock", body)
    draw = post(client, f"{TT}/draw", body)
    follow = dict(body, hand=[*body["hand"], "RC3"], discard_pile=["KB2"])
    back = next(o for o in post(client, f"{TT}/discard", follow)["options"] if o["card"] == "RC3")
    assert knock["hand_value"] == draw["hand_value"] == back["keep_value"]
    assert knock["hand_evaluation"]["value"] == knock["hand_value"]
    assert back["score"] == pytest.approx(back["keep_value"] + 4 * back["danger"], abs=1e-3)


@pytest.mark.rule("GFF-6")
def test_gff_money_reaches_the_drop_answer(client: FlaskClient) -> None:
    # GFF-6: at a stake of 100, 250 units stake in the game pot only (all in); 100 cannot stake.
    body: dict[str, Any] = {
        "hand": ["AS", "2H", "3D", "4C", "9H"],
        "players": 3,
        "stake": 100,
        "bankrolls": [1000, 250, 100],
        "seat": 1,
    }
    data = post(client, f"{GFF}/knock", body)
    assert data["all_in"] is True and "eliminated" in data["explanation"]
    assert (data["payout_if_win"], data["payout_if_caught"]) == (1.0, -2.0)  # one opponent
    rich = post(client, f"{GFF}/knock", dict(body, bankrolls=[1000, 1000, 1000]))
    assert rich["all_in"] is False and (rich["payout_if_win"], rich["payout_if_caught"]) == (
        2.0,
        -2.0,
    )


@pytest.mark.parametrize(
    ("game", "endpoint"),
    [
        *((g, e) for g in ("game-flip-flop", "triple-tunk") for e in ("discard", "draw", "knock")),
        ("three-thirteen", "discard"),
        ("three-thirteen", "draw"),
    ],
)
def test_the_compiled_dumpers_equal_marshmallow(game: str, endpoint: str) -> None:
    # The advice routes print answers with api.http.fastdump; it must give Schema.dump's JSON.
    import json

    from api.http.fastdump import compile_dumper
    from api.resources.advice import ADVICE_ANSWERS
    from api.resources.examples import ADVICE_EXAMPLES
    from api.schemas.advice import request_schema, response_schema

    schema = response_schema(game, endpoint)()
    fast = compile_dumper(schema)
    answers, _ = ADVICE_ANSWERS[game]
    for example in ADVICE_EXAMPLES[game][endpoint].values():
        query = request_schema(game, endpoint)().load(example["value"])
        answer = answers[endpoint](query)
        assert json.dumps(fast(answer)) == json.dumps(schema.dump(answer))


@pytest.mark.rule("GFF-6", "GFF-8")
def test_bankrolls_that_leave_seats_out_change_the_drop_advice(client: FlaskClient) -> None:
    # KS QS (20 points) at a 4-seat table: seat 1 (17 known points) is above 20 unless its
    # hidden card is an ace, a two or a three; seats 2 and 3 always are (known 20 + any card).
    # With every seat staking (GFF-6) a won drop takes 3 stakes: drop. When the bankrolls leave
    # seats 2 and 3 out, about the same odds (36 of 46 cards) win 1 stake against a caught -2
    # (GFF-8), worth less than playing on: play on.
    seat1 = {"seat": 1, "picked_up": ["KH", "4D", "2C", "AH"]}
    body: dict[str, Any] = {"hand": ["KS", "QS"], "players": 4, "dealer": 1, "stake": 100}
    everyone = post(
        client,
        f"{GFF}/knock",
        dict(
            body,
            bankrolls=[1000, 1000, 1000, 1000],
            opponents=[
                seat1,
                {"seat": 2, "picked_up": ["KD", "5H", "3S", "2D"]},
                {"seat": 3, "picked_up": ["QH", "4C", "3C", "3D"]},
            ],
        ),
    )
    two_out = post(
        client, f"{GFF}/knock", dict(body, bankrolls=[1000, 1000, 150, 150], opponents=[seat1])
    )
    assert everyone["knock"] is True and everyone["payout_if_win"] == 3.0
    assert two_out["knock"] is False and two_out["payout_if_win"] == 1.0
    assert two_out["win_probability"] == pytest.approx(1 - 10 / 46, abs=0.05)
