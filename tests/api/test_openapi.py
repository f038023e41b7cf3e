"""openapi.yaml and docs/examples.md are generated, valid, complete and up to date.

Both files are committed so readers (and code generators) need not run the service; these tests
make drift a failure with the exact command that fixes it.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from flask import Flask
from openapi_spec_validator import validate

from api.docs.openapi import REGENERATE_COMMAND, SPEC_PATH, spec_yaml
from harness import doc_examples

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
README = REPO_ROOT / "README.md"
EXAMPLES = REPO_ROOT / "docs" / "examples.md"
SERVE_COMMAND = "bash scripts/serve"
TEST_COMMAND = "bash scripts/test"


def _diff(old: str, new: str, name: str) -> str:
    lines = difflib.unified_diff(
        old.splitlines(), new.splitlines(), f"{name} (committed)", f"{name} (fresh)", lineterm=""
    )
    return "\n".join(list(lines)[:60])


@pytest.fixture(scope="module")
def fresh_spec_text() -> str:
    return spec_yaml()


@pytest.fixture(scope="module")
def spec(fresh_spec_text: str) -> dict[str, Any]:
    document: dict[str, Any] = yaml.safe_load(fresh_spec_text)
    return document


def operations(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, operation)
        for path, item in spec["paths"].items()
        for method, operation in item.items()
        if method in {"get", "post", "put", "patch", "delete"}
    ]


def test_committed_openapi_yaml_is_up_to_date(fresh_spec_text: str) -> None:
    assert SPEC_PATH.exists(), f"{SPEC_PATH.name} is missing; run `{REGENERATE_COMMAND}`"
    committed = SPEC_PATH.read_text(encoding="utf-8")
    if committed != fresh_spec_text:
        pytest.fail(
            f"{SPEC_PATH.name} is out of date with the schemas; run `{REGENERATE_COMMAND}` "
            f"and commit the result.\n{_diff(committed, fresh_spec_text, SPEC_PATH.name)}"
        )


def test_spec_validates(spec: dict[str, Any]) -> None:
    validate(spec)
    assert spec["info"]["title"] == "Tunk Hand Analysis"
    assert spec["openapi"].startswith("3.")


def test_every_post_has_a_request_example(spec: dict[str, Any]) -> None:
    missing = []
    for path, method, operation in operations(spec):
        if method != "post":
            continue
        content = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
        if "example" not in content and not content.get("examples"):
            missing.append(f"POST {path}")
    assert not missing, f"request examples missing for: {', '.join(missing)}"


def test_every_post_documents_validation_errors_as_problem_json(spec: dict[str, Any]) -> None:
    responses = spec["components"]["responses"]
    for path, method, operation in operations(spec):
        if method != "post":
            continue
        codes = operation["responses"]
        assert "422" in codes, f"POST {path} does not document 422"
    for name in ("UNPROCESSABLE_ENTITY", "DEFAULT_ERROR"):
        if name in responses:
            assert list(responses[name]["content"]) == ["application/problem+json"]


def test_every_operation_has_a_summary(spec: dict[str, Any]) -> None:
    missing = [f"{m.upper()} {p}" for p, m, op in operations(spec) if not op.get("summary")]
    assert not missing, f"operations without a docstring summary: {missing}"


def test_served_openapi_yaml_is_the_generated_one(client: Any, fresh_spec_text: str) -> None:
    response = client.get("/openapi.yaml")
    assert response.status_code == 200
    assert response.mimetype == "application/yaml"
    assert response.get_data(as_text=True) == fresh_spec_text


def test_docs_are_served_from_the_package_without_a_cdn(client: Any) -> None:
    page = client.get("/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert "http://" not in html and "https://" not in html
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert len(assets) >= 3
    for asset in assets:
        with client.get(asset) as response:  # closes the served file
            assert response.status_code == 200, asset
            # the package's assets, and the small start-up script (no inline script: CSP)
            assert len(response.get_data()) > (200 if asset == "/docs/init.js" else 1000), asset
    with client.get("/docs/static/no-such-file.js") as missing:
        assert missing.status_code == 404


# --- README ---------------------------------------------------------------------------------------


def test_readme_examples_are_up_to_date(app: Flask) -> None:
    module = doc_examples
    committed = EXAMPLES.read_text(encoding="utf-8")
    fresh = module.updated_page(committed, module.render_examples(app))
    if committed != fresh:
        pytest.fail(
            "docs/examples.md is out of date; run "
            f"`{module.REGENERATE_COMMAND}` and commit the result.\n"
            + _diff(committed, fresh, "docs/examples.md")
        )


def test_readme_has_an_example_for_every_operation(spec: dict[str, Any]) -> None:
    readme = EXAMPLES.read_text(encoding="utf-8")
    section = readme[
        readme.index("<!-- examples:start -->") : readme.index("<!-- examples:end -->")
    ]
    for path, method, _ in operations(spec):
        pattern = re.escape(path).replace(r"\{", "{").replace(r"\}", "}")
        pattern = re.sub(r"\{[^}]+\}", "[^ `/]+", pattern)
        assert re.search(rf"`{method.upper()} {pattern}`", section), f"{method} {path}"


def test_readme_gives_the_two_commands_and_ci_runs_the_test_one() -> None:
    readme = README.read_text(encoding="utf-8")
    assert f"\n{SERVE_COMMAND}\n" in readme
    assert f"\n{TEST_COMMAND}\n" in readme
    ci = (REPO_ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [
        line.strip()
        for line in ci.splitlines()
        if line.strip() and not line.lstrip().startswith(("#", "set ", "cd "))
    ]
    assert commands == [f"exec {TEST_COMMAND}"] or commands == [TEST_COMMAND], commands
