"""Generate ``openapi.yaml`` from the flask-smorest Api (the schemas that validate requests).

    # rewrite openapi.yaml (and api/docs/openapi_examples.json)
    python -m api.docs.openapi
    python -m api.docs.openapi --check    # exit 1 if either committed file is out of date
    python -m api.docs.openapi PATH       # write somewhere else

The document is never edited by hand; tests/api/test_openapi.py fails when it drifts. The
response examples in it are real answers: each operation's first request example sent through
a fresh app, stored in ``api/docs/openapi_examples.json`` (see ``api.docs.openapi_finish``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from flask import Flask

from api.app import create_app
from api.docs.openapi_finish import EXAMPLES_PATH, PATH_PARAMETER_EXAMPLES
from api.docs.spec import REGENERATE_COMMAND, render_spec_dict, render_spec_yaml

REPO_ROOT = Path(__file__).resolve().parents[2]  # api/docs/openapi.py -> the repository
SPEC_PATH = REPO_ROOT / "openapi.yaml"
EXAMPLE_REQUEST_ID = "example-request"


def _fresh_app() -> Flask:
    """An app with the in-memory cache: the document and examples depend on no Redis."""
    return create_app({"REDIS_URL": None})


def spec_dict(app: Flask | None = None, examples: dict[str, Any] | None = None) -> dict[str, Any]:
    """The OpenAPI document of ``app`` (a fresh in-memory-cache app by default) as plain data."""
    return render_spec_dict(app if app is not None else _fresh_app(), examples)


def spec_yaml(app: Flask | None = None, examples: dict[str, Any] | None = None) -> str:
    """The OpenAPI document as YAML text (a fresh app by default), in a stable order."""
    return render_spec_yaml(app if app is not None else _fresh_app(), examples)


def first_request(op: dict[str, Any]) -> tuple[bool, Any]:
    """``(True, body)`` for an operation's first JSON request example, ``(False, None)`` if none."""
    content = op.get("requestBody", {}).get("content", {}).get("application/json")
    if content is None:
        return False, None
    if "example" in content:
        return True, content["example"]
    for example in (content.get("examples") or {}).values():
        if isinstance(example, dict) and "value" in example:
            return True, example["value"]
    return False, None


def concrete(path: str) -> str:
    """``path`` with its ``{params}`` filled from ``PATH_PARAMETER_EXAMPLES``."""
    for name, value in PATH_PARAMETER_EXAMPLES.items():
        path = path.replace("{" + name + "}", value)
    return path


def response_examples() -> dict[str, Any]:
    """Each operation's 200 answer to its first request example, from a fresh app."""
    app = _fresh_app()
    document = spec_dict(app, examples={})
    client = app.test_client()
    # A fixed request id keeps the stored examples stable (problems carry ``request_id``).
    headers = {"X-Request-ID": EXAMPLE_REQUEST_ID}
    out: dict[str, Any] = {}
    for path, item in document["paths"].items():
        for method, op in item.items():
            if method == "get":
                response = client.get(concrete(path), headers=headers)
            elif method == "post":
                has_body, body = first_request(op)
                if not has_body:
                    continue
                response = client.post(concrete(path), json=body, headers=headers)
            else:
                continue
            if response.status_code == 200 and response.is_json:
                out[f"{method.upper()} {path}"] = response.get_json()
    return out


def examples_text(examples: dict[str, Any]) -> str:
    """The stored form of the response examples (stable, diff-friendly)."""
    return json.dumps(examples, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write (or ``--check``) the OpenAPI file; returns the process exit status."""
    parser = argparse.ArgumentParser(prog="python -m api.docs.openapi", description=__doc__)
    parser.add_argument("path", nargs="?", type=Path, default=SPEC_PATH)
    parser.add_argument("--check", action="store_true", help="fail if the file is stale")
    args = parser.parse_args(argv)
    examples = response_examples()
    stored = examples_text(examples)
    text = spec_yaml(examples=examples)
    if args.check:
        for path, want in ((args.path, text), (EXAMPLES_PATH, stored)):
            current = path.read_text(encoding="utf-8") if path.exists() else ""
            if current != want:
                print(f"{path} is out of date; run `{REGENERATE_COMMAND}`", file=sys.stderr)
                return 1
        return 0
    EXAMPLES_PATH.write_text(stored, encoding="utf-8")
    args.path.write_text(text, encoding="utf-8")
    print(f"wrote {args.path} and {EXAMPLES_PATH}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
