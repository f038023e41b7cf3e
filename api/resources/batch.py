"""``POST /v1/batch``: many analysis requests in one call, each answered as if sent alone.

Each item is dispatched through the whole app (body guard, cache, validation, error handling)
in its own application and request context, so it gets its own status, body and cache result;
a failed item is an ``application/problem+json`` body and the others are still answered.
Work is bounded: at most ``MAX_BATCH_ITEMS`` items, only the analysis endpoints (no Monte Carlo
advice), and once ``BATCH_TIME_BUDGET_SECONDS`` have passed the remaining items are answered
``503`` with ``Retry-After`` instead of being computed.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

from flask import current_app, g
from flask_smorest import Blueprint

from api.http.problems import type_uri
from api.resources.examples import BATCH_EXAMPLE
from api.schemas.batch import MAX_BATCH_ITEMS, BatchRequest, BatchResponse
from engine.core.options import GAMES

BATCHABLE = ("melds", "early-tunk", "side-pots", "settle", "arrangement")
_BATCH_PATH = re.compile(
    r"^/v1/games/(?P<game>[^/]+)/(?P<endpoint>" + "|".join(map(re.escape, BATCHABLE)) + r")$"
)
BATCH_TIME_BUDGET_SECONDS = 10.0
RETRY_AFTER_SECONDS = 1


def _problem_body(
    status: int, title: str, detail: str, field: str, code: str, index: int
) -> dict[str, Any]:
    """An item's problem, shaped like every other (``code``, ``type``, the item's request id)."""
    return {
        "type": type_uri(code),
        "title": title,
        "status": status,
        "detail": detail,
        "code": code,
        "request_id": f"{g.get('request_id') or 'batch'}.{index}",
        "errors": {field: [detail]},
    }


def _dispatch(index: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """Run one item through the app in fresh contexts; its status, cache result and body."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    parent_id = g.get("request_id") or "batch"
    with (
        app.app_context(),
        app.test_request_context(
            path,
            method="POST",
            data=json.dumps(body),
            content_type="application/json",
            headers={"X-Request-ID": f"{parent_id}.{index}"},
        ),
    ):
        response = app.full_dispatch_request()
        text = response.get_data(as_text=True)
    try:
        parsed = json.loads(text) if text else {}
    except ValueError:
        parsed = {"text": text}
    return {
        "status": response.status_code,
        "cache": response.headers.get("X-Cache"),
        "body": parsed,
    }


def answer_batch(requests: list[dict[str, Any]]) -> dict[str, Any]:
    """Answer every item in order, within the time budget."""
    started = time.monotonic()
    out: list[dict[str, Any]] = []
    for index, item in enumerate(requests):
        field = f"requests[{index}].path"
        match = _BATCH_PATH.match(item["path"])
        if match is None or match.group("game") not in GAMES:
            detail = (
                f"{item['path']!r} cannot be batched; send POST /v1/games/{{game}}/<endpoint> "
                f"with endpoint one of {', '.join(BATCHABLE)} and game one of {', '.join(GAMES)}."
            )
            out.append(
                {
                    "status": 422,
                    "cache": None,
                    "body": _problem_body(
                        422, "Unprocessable Content", detail, field, "not_batchable", index
                    ),
                }
            )
        elif time.monotonic() - started > BATCH_TIME_BUDGET_SECONDS:
            detail = (
                f"The batch's time budget ({BATCH_TIME_BUDGET_SECONDS:g} s) was spent before "
                f"this item; send it again (Retry-After {RETRY_AFTER_SECONDS} s)."
            )
            out.append(
                {
                    "status": 503,
                    "cache": None,
                    "body": _problem_body(
                        503,
                        "Service Unavailable",
                        detail,
                        f"requests[{index}]",
                        "batch_budget_spent",
                        index,
                    ),
                }
            )
        else:
            out.append(_dispatch(index, item["path"], item["body"]))
    return {"responses": out}


def make_blueprint() -> Blueprint:
    """The ``batch`` blueprint (fresh per app)."""
    blp = Blueprint(
        "batch",
        __name__,
        url_prefix="/v1/batch",
        description=f"Several analysis requests in one call (at most {MAX_BATCH_ITEMS}).",
    )

    @blp.route("", methods=["POST"])
    @blp.arguments(BatchRequest, example=BATCH_EXAMPLE)
    @blp.response(200, BatchResponse, description="One answer per request, in order.")
    @blp.doc(
        operationId="batch",
        summary=f"Send up to {MAX_BATCH_ITEMS} analysis requests at once",
        description="`requests` lists `{method, path, body}` items for the analysis endpoints "
        f"({', '.join(BATCHABLE)}); at most {MAX_BATCH_ITEMS}. `responses` answers them in "
        "order, each with its own `status`, `cache` (the item's `X-Cache`) and `body` (the "
        "endpoint's answer, or a problem object for a failed item; the others are still "
        "answered). Each item uses the cache like a single request. Advice endpoints are not "
        "batchable (their Monte Carlo work is bounded per request). Items not started within "
        f"{BATCH_TIME_BUDGET_SECONDS:g} s get 503 and can be sent again.",
    )
    def batch(data: dict[str, Any]) -> dict[str, Any]:
        return answer_batch(data["requests"])

    return blp
