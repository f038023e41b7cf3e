"""The rules behind every answer: docs/rules.md served by /v1/rules, and every cited id exists."""

from __future__ import annotations

import re
from dataclasses import fields as dataclass_fields
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from api.docs.rules_doc import RULE_ID, all_rules, parse_rules
from engine.core.options import OPTION_CHOICES, RULES_CLASSES

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
SPEC = REPO_ROOT.parent / "shared" / "RULES.md"
CITED = re.compile(r"\b(?:C|GFF|TT|T13)-\d+\b")


def _ids_cited_in_code() -> set[str]:
    """Every rule id written anywhere in the api/ and engine/ sources."""
    found: set[str] = set()
    for package in ("api", "engine"):
        for path in (REPO_ROOT / package).rglob("*.py"):
            found |= set(CITED.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_rule_id_the_code_can_cite_exists() -> None:
    known = {entry.id for entry in all_rules()}
    cited = _ids_cited_in_code()
    assert len(cited) > 30  # the sources really cite rules (the pattern is not broken)
    assert cited - known == set()


def test_document_has_every_id_of_the_spec() -> None:
    ids = [entry.id for entry in all_rules()]
    assert len(ids) == 5 + 11 + 15 + 8  # C-1..5, GFF-1..11, TT-1..15, T13-1..8
    assert all(RULE_ID.match(i) for i in ids)
    if SPEC.exists():  # the shared rules page, beside the repository
        spec_ids = re.findall(r"^- \*\*((?:C|GFF|TT|T13)-\d+) ", SPEC.read_text(), re.M)
        assert ids == spec_ids


def test_house_rules_are_marked_with_the_engine_option_names() -> None:
    marked = {entry.id: entry.house_rule for entry in all_rules() if entry.house_rule}
    assert marked == {"GFF-6": "side_pot_fallback", "TT-9": "early_tunk_totals", "T13-3": "aces"}
    options = {f.name for cls in RULES_CLASSES.values() for f in dataclass_fields(cls)}
    assert set(marked.values()) == options
    assert {"side_pot_fallback", "aces"} <= set(OPTION_CHOICES)


def test_parser_rejects_duplicates() -> None:
    text = "## Game `g`\n\n### GFF-1 A\n\nx\n\n### GFF-1 B\n\ny\n"
    try:
        parse_rules(text)
    except ValueError as exc:
        assert "GFF-1" in str(exc)
    else:
        raise AssertionError("duplicate id accepted")


def test_list_filters_by_game_and_keeps_the_common_rules(client: FlaskClient) -> None:
    body = client.get("/v1/rules?game=three-thirteen").get_json()
    assert body["url_template"] == "/v1/rules/{id}"
    ids = [r["id"] for r in body["rules"]]
    assert ids == ["C-1", "C-2", "C-3", "C-4", "C-5", *(f"T13-{i}" for i in range(1, 9))]
    assert len(client.get("/v1/rules").get_json()["rules"]) == 39
    bad = client.get("/v1/rules?game=gin-rummy")
    assert bad.status_code == 422 and "game" in bad.get_json()["errors"]


def test_one_rule_by_id_case_insensitive(client: FlaskClient) -> None:
    body = client.get("/v1/rules/t13-3").get_json()
    assert body["id"] == "T13-3"
    assert body["game"] == "three-thirteen"
    assert body["title"] == "Card values"
    assert body["house_rule"] == "aces"
    assert "Q-K-A" in body["text"]
    assert body["url"] == "/v1/rules/T13-3"
    missing = client.get("/v1/rules/GFF-99")
    assert missing.status_code == 404
    assert missing.mimetype == "application/problem+json"
    assert "GFF-11" in missing.get_json()["detail"]


def _rule_values(node: Any, out: list[str]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "rule" and isinstance(value, str):
                out.append(value)
            _rule_values(value, out)
    elif isinstance(node, list):
        for item in node:
            _rule_values(item, out)


def test_every_rule_an_answer_cites_resolves(app: Flask, client: FlaskClient) -> None:
    """Send every documented example; each `rule` in the answers resolves at /v1/rules/{id}."""
    spec = app.extensions["tunk.api"].spec.to_dict()
    cited: list[str] = []
    for path, item in spec["paths"].items():
        if "post" not in item or path == "/v1/batch":
            continue
        content = item["post"]["requestBody"]["content"]["application/json"]
        bodies = [content["example"]] if "example" in content else []
        bodies += [e["value"] for e in content.get("examples", {}).values()]
        for body in bodies:
            _rule_values(client.post(path, json=body).get_json(), cited)
    _rule_values(client.get("/v1/games").get_json(), cited)
    assert {"GFF-6", "TT-9", "T13-3", "TT-11", "GFF-2"} <= set(cited)
    for rule in set(cited):
        assert client.get(f"/v1/rules/{rule}").status_code == 200, rule
