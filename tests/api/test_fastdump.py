"""The compiled response dumpers give exactly what marshmallow's ``Schema.dump`` gives.

Every cached endpoint builds its dumper through ``api.resources._helpers.compile_dumper``; here
that name is replaced by a checker that runs both the compiled dumper and ``schema.dump`` on every
answer and compares the JSON text (values *and* key order). The app then answers every documented
example and random hands of all three games (with tables and options).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import Schema

import api.resources._helpers as helpers
from api.app import create_app
from api.http.fastdump import compile_dumper
from api.resources.examples import (
    EARLY_TUNK_EXAMPLES,
    MELDS_EXAMPLES,
    SETTLE_EXAMPLES,
    SIDE_POTS_EXAMPLE,
)

CHECKED: Counter[str] = Counter()
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
STD = [rank + suit for suit in "SHDC" for rank in RANKS]
TOPPER = [c + s + n for c in "RYGBK" for s in "CHTSB" for n in "1234?"]


def checking_dumper(schema: Schema) -> Callable[[Any], dict[str, Any]]:
    fast = compile_dumper(schema)

    def dump(obj: Any) -> dict[str, Any]:
        got, want = fast(obj), schema.dump(obj)
        assert json.dumps(got) == json.dumps(want)
        CHECKED[type(schema).__name__] += 1
        return got

    return dump


@pytest.fixture(scope="module")
def checked_app() -> Flask:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(helpers, "compile_dumper", checking_dumper)
        return create_app({"TESTING": True, "REDIS_URL": None})


def test_every_documented_example(checked_app: Flask) -> None:
    client = checked_app.test_client()
    bodies: list[tuple[str, Any]] = []
    for game, example in MELDS_EXAMPLES.items():
        bodies.append((f"/v1/games/{game}/melds", example))
    for game, example in EARLY_TUNK_EXAMPLES.items():
        bodies.append((f"/v1/games/{game}/early-tunk", example))
    for game, examples in SETTLE_EXAMPLES.items():
        for example in examples.values():
            bodies.append((f"/v1/games/{game}/settle", example["value"]))
    bodies.append(("/v1/games/game-flip-flop/side-pots", SIDE_POTS_EXAMPLE))
    for path, body in bodies:
        response = client.post(path, json=body)
        assert response.status_code == 200, (path, response.get_json())
    assert len(CHECKED) >= 9  # melds x3, early tunk x2, settle x3, side pots


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["gff", "tt", "t13"]))
def test_random_melds_answers(checked_app: Flask, seed: int, game: str) -> None:
    rng = random.Random(seed)
    client = checked_app.test_client()
    if game == "tt":
        body: dict[str, Any] = {"hand": rng.sample(TOPPER, rng.randint(1, 6))}
        path = "/v1/games/triple-tunk/melds"
    elif game == "gff":
        body = {"hand": rng.sample(STD, rng.randint(1, 6)), "max_ties": rng.randint(0, 5)}
        path = "/v1/games/game-flip-flop/melds"
    else:
        round_number = rng.randint(1, 11)
        size = round_number + 2 + rng.randint(0, 1)
        body = {"round": round_number, "hand": rng.sample(STD, size), "limit": rng.randint(1, 50)}
        path = "/v1/games/three-thirteen/melds"
    response = client.post(path, json=body)
    assert response.status_code == 200, response.get_json()


def test_schema_with_dump_hooks_falls_back_to_marshmallow() -> None:
    from marshmallow import fields, post_dump

    class Hooked(Schema):
        x = fields.Integer()

        @post_dump
        def add(self, data: dict[str, Any], **_: Any) -> dict[str, Any]:
            return {**data, "hooked": True}

    assert compile_dumper(Hooked())({"x": 1}) == {"x": 1, "hooked": True}
