"""Regenerate docs/examples.md, one real request and answer per operation, from the app.

For every documented operation (GET and POST) this sends the operation's first request example
(``requestBody.content["application/json"].example`` or the first of ``examples``) through the
Flask test client of a fresh app (in-process cache) and writes a curl command plus the real
response between ``<!-- examples:start -->`` and ``<!-- examples:end -->`` in docs/examples.md.
The rules endpoints' answers are abridged: their texts are those of docs/rules.md.

    python -m harness.doc_examples           # rewrite docs/examples.md
    python -m harness.doc_examples --check   # exit 1 if docs/examples.md is out of date

tests/api/test_openapi.py runs the check, so the examples can never show stale output.
"""

from __future__ import annotations

import argparse
import json
import re
from http import HTTPStatus
from pathlib import Path
from typing import Any

from flask import Flask

from api.app import create_app
from api.docs.openapi import spec_dict

REPO_ROOT = Path(__file__).resolve().parent.parent

EXAMPLES = REPO_ROOT / "docs" / "examples.md"
START = "<!-- examples:start -->"
END = "<!-- examples:end -->"
BASE_URL = "http://127.0.0.1:8000"
EXAMPLE_HEADERS = {"X-Request-ID": "example-request"}
"""A fixed request id keeps the examples stable (problems carry ``request_id``)."""
REGENERATE_COMMAND = "python -m harness.doc_examples"
METHODS = ("get", "post")
_PARAM = re.compile(r"\{([^}]+)\}")
RULES_PREFIX = "/v1/rules"
RULES_SHOWN = 2
TEXT_SHOWN = 60


def request_examples(operation: dict[str, Any]) -> list[tuple[str | None, Any]]:
    """``(name, body)`` of each JSON request example of ``operation``, in document order."""
    content = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
    if "example" in content:
        return [(None, content["example"])]
    return [
        (name, example["value"])
        for name, example in (content.get("examples") or {}).items()
        if isinstance(example, dict) and "value" in example
    ]


def _parameter_value(
    name: str, parameters: list[dict[str, Any]], example_name: str | None
) -> str | None:
    for parameter in parameters:
        if parameter.get("in") != "path" or parameter.get("name") != name:
            continue
        schema = parameter.get("schema", {})
        enum = schema.get("enum") or []
        if example_name in enum:  # examples named after a game pick that game
            return str(example_name)
        for candidate in (parameter.get("example"), schema.get("example"), *enum[:1]):
            if candidate is not None:
                return str(candidate)
    return None


def concrete_path(
    path: str, item: dict[str, Any], operation: dict[str, Any], example_name: str | None
) -> str | None:
    """``path`` with its ``{params}`` filled from the document; None if one has no value."""
    parameters = [*item.get("parameters", []), *operation.get("parameters", [])]
    missing = False

    def fill(match: re.Match[str]) -> str:
        nonlocal missing
        value = _parameter_value(match.group(1), parameters, example_name)
        if value is None:
            missing = True
            return match.group(0)
        return value

    result = _PARAM.sub(fill, path)
    return None if missing else result


def _shell_quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


INLINE_WIDTH = 88


def pretty(value: Any, indent: int = 0) -> str:
    """Indented JSON that keeps any nested value fitting in one line on one line (for reading)."""
    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, (dict, list)) or not value:
        return flat
    if indent > 0 and len(flat) + indent <= INLINE_WIDTH:
        return flat
    pad, inner = " " * indent, " " * (indent + 2)
    if isinstance(value, dict):
        items = [
            f"{inner}{json.dumps(key, ensure_ascii=False)}: {pretty(child, indent + 2)}"
            for key, child in value.items()
        ]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    items = [f"{inner}{pretty(child, indent + 2)}" for child in value]
    return "[\n" + ",\n".join(items) + f"\n{pad}]"


def _cut(text: str) -> str:
    """The first words of a rule text (at most ``TEXT_SHOWN`` characters), then an ellipsis."""
    if len(text) <= TEXT_SHOWN:
        return text
    return text[:TEXT_SHOWN].rsplit(" ", 1)[0] + " …"


def abridged(url: str, answer: Any) -> tuple[Any, str]:
    """A rules answer shortened so the page does not restate docs/rules.md, and a note saying so.

    Other answers come back unchanged with an empty note.
    """
    if not url.startswith(RULES_PREFIX) or not isinstance(answer, dict):
        return answer, ""
    short = dict(answer)
    if isinstance(short.get("text"), str):
        short["text"] = _cut(short["text"])
    entries = short.get("rules")
    total = len(entries) if isinstance(entries, list) else 0
    if isinstance(entries, list):
        short["rules"] = [
            {**e, "text": _cut(e["text"])} if isinstance(e.get("text"), str) else e
            for e in entries[:RULES_SHOWN]
        ]
    shown = f"the first {RULES_SHOWN} of its {total} entries, " if total > RULES_SHOWN else ""
    note = f"Abridged here ({shown}texts cut): the full texts are those of [rules.md](rules.md)."
    return short, note


def render_examples(app: Flask | None = None) -> str:
    """The Markdown between the markers: one subsection per operation, with real output."""
    app = app or create_app({"REDIS_URL": None, "TESTING": True})
    spec = spec_dict(app)
    client = app.test_client()
    parts: list[str] = [
        f"Generated by `{REGENERATE_COMMAND}` from each operation's first request example in "
        "`openapi.yaml`, run against a fresh service (in-process cache, so the first answer is a "
        "`MISS`). The service sends compact JSON; it is indented here for reading.",
    ]
    for path, item in spec["paths"].items():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            body: Any = None
            example_name: str | None = None
            if method == "post":
                examples = request_examples(operation)
                if not examples:
                    raise SystemExit(f"POST {path} has no request example in openapi.yaml")
                example_name, body = examples[0]
            url = concrete_path(path, item, operation, example_name)
            if url is None:
                continue
            if method == "post":
                response = client.post(url, json=body, headers=EXAMPLE_HEADERS)
                compact = json.dumps(body, ensure_ascii=False)
                command = (
                    f"curl -s -X POST {BASE_URL}{url} \\\n"
                    f"  -H 'Content-Type: application/json' \\\n"
                    f"  -d {_shell_quote(compact)}"
                )
            else:
                response = client.get(url, headers=EXAMPLE_HEADERS)
                command = f"curl -s {BASE_URL}{url}"
            status = f"{response.status_code} {HTTPStatus(response.status_code).phrase}"
            if not 200 <= response.status_code < 300:
                raise SystemExit(
                    f"{method.upper()} {url} answered its documented example with {status}: "
                    f"{response.get_data(as_text=True)[:500]}"
                )
            headers = (
                f", `X-Cache: {response.headers['X-Cache']}`"
                if "X-Cache" in response.headers
                else ""
            )
            note = ""
            try:
                answer, note = abridged(url, response.get_json(force=True))
                shown = pretty(answer)
                language = "json"
            except Exception:  # not JSON: show the text as is
                shown, language = response.get_data(as_text=True).rstrip(), "text"
            summary = operation.get("summary", "").strip()
            parts.append(
                f"### `{method.upper()} {url}`\n\n"
                + (f"{summary}\n\n" if summary else "")
                + f"```sh\n{command}\n```\n\n"
                + f"Response: `{status}`{headers}\n\n"
                + f"```{language}\n{shown}\n```"
                + (f"\n\n{note}" if note else "")
            )
    return "\n\n".join(parts)


def updated_page(page: str, section: str) -> str:
    """``page`` (docs/examples.md) with the text between the markers replaced by ``section``."""
    start, end = page.find(START), page.find(END)
    if start < 0 or end < start:
        raise SystemExit(f"docs/examples.md must contain {START} ... {END}")
    return page[: start + len(START)] + "\n\n" + section + "\n\n" + page[end:]


def main(argv: list[str] | None = None) -> int:
    """Rewrite (or ``--check``) docs/examples.md; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the page is stale")
    parser.add_argument("--page", type=Path, default=EXAMPLES)
    args = parser.parse_args(argv)
    current = args.page.read_text(encoding="utf-8")
    fresh = updated_page(current, render_examples())
    if args.check:
        if fresh != current:
            print(f"{args.page} is out of date; run `{REGENERATE_COMMAND}`")
            return 1
        return 0
    args.page.write_text(fresh, encoding="utf-8")
    print(f"updated {args.page}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
