"""``"rules": null`` is refused (422 at ``rules``), as the schema says ``object``; omitted
``rules`` still means the defaults of docs/rules.md."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from api.docs.openapi import first_request, spec_dict

SPEC = spec_dict()
COMPONENTS = SPEC["components"]["schemas"]


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = COMPONENTS[schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def _with_rules() -> list[tuple[str, dict[str, Any]]]:
    found = []
    for path, item in SPEC["paths"].items():
        op = item.get("post") or {}
        content = op.get("requestBody", {}).get("content", {}).get("application/json", {})
        if "rules" in _resolve(content.get("schema", {})).get("properties", {}):
            has_example, body = first_request(op)
            assert has_example, path
            found.append((path, body))
    return found


OPERATIONS = _with_rules()


def test_every_game_endpoint_with_rules_is_covered() -> None:
    paths = {path for path, _ in OPERATIONS}
    assert len(paths) == 21
    assert "/v1/games/three-thirteen/melds" in paths and "/v1/games/game-flip-flop/knock" in paths


@pytest.mark.parametrize(("path", "body"), OPERATIONS, ids=[p for p, _ in OPERATIONS])
def test_null_rules_is_a_422_at_rules(client: FlaskClient, path: str, body: Any) -> None:
    sent = {**body, "rules": None}
    answer = client.post(path, json=sent)
    assert answer.status_code == 422, answer.get_data(as_text=True)
    assert answer.mimetype == "application/problem+json"
    assert answer.get_json()["errors"]["rules"] == [
        "rules must be an object of house-rule options; omit it for the defaults"
    ]
    omitted = {k: v for k, v in body.items() if k != "rules"}
    assert client.post(path, json=omitted).status_code == 200
