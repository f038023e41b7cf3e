"""Flask test-client calls several API test modules share: a 200 JSON answer, a 422 problem."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient


def post(client: FlaskClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST ``body`` to ``path``; the answer must be a 200 JSON object, which is returned."""
    response = client.post(path, json=body)
    assert response.status_code == 200, response.get_json()
    assert response.mimetype == "application/json"
    data: dict[str, Any] = response.get_json()
    return data


def problem_fields(client: FlaskClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST ``body`` to ``path``; the answer must be a 422 problem+json, whose ``errors`` return."""
    response = client.post(path, json=body)
    assert response.status_code == 422, response.get_json()
    assert response.mimetype == "application/problem+json"
    errors: dict[str, Any] = response.get_json()["errors"]
    return errors
