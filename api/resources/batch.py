"""``POST /v1/batch``: many analysis requests in one call, each answered as if sent alone.

Each item is dispatched through the whole app (body guard, rate limit, cache, validation, error
handling) in its own application and request context, so it gets its own status, body and cache
result; a failed item is an ``application/problem+json`` body and the others are still answered.
Each item counts against its caller's rate-limit budget (``api.http.ratelimit``): the item's
context carries the caller's address and client key.

A batch must not cost much more than its size suggests, so it is bounded four ways:

- at most ``MAX_BATCH_ITEMS`` items, only the analysis endpoints (no Monte Carlo advice);
- a *work budget*: items not started within ``BATCH_WORK_BUDGET_SECONDS`` of the batch's start
  are answered ``503`` with ``Retry-After`` instead of being computed;
- an *answer-size budget*: the bodies of the items a batch answers total at most
  ``BATCH_ANSWER_BUDGET_BYTES`` (the refusals add a few hundred bytes per item, so a whole answer
  stays under 4.1 MiB); an item whose body would pass it is answered ``413`` instead
  (send it alone or in a smaller batch), and once the budget is spent no further item is
  computed. Long answers are cached compressed (``api.cache.store``), so a repeated batch of big
  items is answered from the cache;
- the answer is written as text, each item's JSON spliced in as it came (no parse and re-dump of
  megabytes of objects), and after an answer of ``RELEASE_FROM_BYTES`` or more the worker gives
  its freed memory back (``api.server.memory``), so a batch leaves no large heap behind.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any, Final

from flask import Response, current_app, g, request
from flask_smorest import Blueprint

from api.http.problems import type_uri
from api.http.ratelimit import CLIENT_ENVIRON, REPORT_ENVIRON
from api.resources.examples import BATCH_EXAMPLE
from api.schemas.batch import MAX_BATCH_ITEMS, BatchRequest, BatchResponse
from api.server.memory import RELEASE_FROM_BYTES, release_soon
from engine.core.options import GAMES

BATCHABLE = ("melds", "early-tunk", "side-pots", "settle", "arrangement")
_BATCH_PATH = re.compile(
    r"^/v1/games/(?P<game>[^/]+)/(?P<endpoint>" + "|".join(map(re.escape, BATCHABLE)) + r")$"
)
BATCH_WORK_BUDGET_SECONDS: Final = 2.0
"""Items are started only within this many seconds of the batch's start."""
BATCH_ANSWER_BUDGET_BYTES: Final = 4 * 1024 * 1024
"""Most bytes of item bodies in one batch answer (4 MiB)."""
RETRY_AFTER_SECONDS: Final = 1


def _problem_item(
    status: int, title: str, detail: str, field: str, code: str, index: int
) -> dict[str, Any]:
    """An item's problem, shaped like every other (``type``, ``code``, the item's request id)."""
    return {
        "status": status,
        "cache": None,
        "body": json.dumps(
            {
                "type": type_uri(code),
                "title": title,
                "status": status,
                "detail": detail,
                "code": code,
                "request_id": f"{g.get('request_id') or 'batch'}.{index}",
                "errors": {field: [detail]},
            }
        ),
    }


def _dispatch(index: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """Run one item through the app in fresh contexts: its status, cache result and JSON text."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    parent_id = g.get("request_id") or "batch"
    environ_base: dict[str, Any] = {"REMOTE_ADDR": request.remote_addr or "unknown"}
    for key in (CLIENT_ENVIRON, REPORT_ENVIRON):  # one rate-limit budget with the caller
        if key in request.environ:
            environ_base[key] = request.environ[key]
    with (
        app.app_context(),
        app.test_request_context(
            path,
            method="POST",
            data=json.dumps(body),
            content_type="application/json",
            headers={"X-Request-ID": f"{parent_id}.{index}"},
            environ_base=environ_base,
        ),
    ):
        response = app.full_dispatch_request()
        text = response.get_data(as_text=True).strip()
        is_json = response.is_json
    if not text:
        text = "{}"
    elif not is_json:
        text = json.dumps({"text": text})
    return {"status": response.status_code, "cache": response.headers.get("X-Cache"), "body": text}


def answer_batch(requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Answer every item in order, within the work and answer-size budgets; each answer's
    ``body`` is JSON text."""
    started = time.monotonic()
    used = 0
    out: list[dict[str, Any]] = []
    for index, item in enumerate(requests):
        match = _BATCH_PATH.match(item["path"])
        if match is None or match.group("game") not in GAMES:
            detail = (
                f"{item['path']!r} cannot be batched; send POST /v1/games/{{game}}/<endpoint> "
                f"with endpoint one of {', '.join(BATCHABLE)} and game one of {', '.join(GAMES)}."
            )
            answer = _problem_item(
                422,
                "Unprocessable Content",
                detail,
                f"requests[{index}].path",
                "not_batchable",
                index,
            )
        elif used >= BATCH_ANSWER_BUDGET_BYTES:
            answer = _size_refusal(index, None, used)
        elif time.monotonic() - started > BATCH_WORK_BUDGET_SECONDS:
            detail = (
                f"The batch's work budget ({BATCH_WORK_BUDGET_SECONDS:g} s) was spent before "
                f"this item; send it again (Retry-After {RETRY_AFTER_SECONDS} s)."
            )
            answer = _problem_item(
                503,
                "Service Unavailable",
                detail,
                f"requests[{index}]",
                "batch_budget_spent",
                index,
            )
        else:
            answer = _dispatch(index, item["path"], item["body"])
            size = len(answer["body"])
            if used + size > BATCH_ANSWER_BUDGET_BYTES:
                answer = _size_refusal(index, size, used)
                used = BATCH_ANSWER_BUDGET_BYTES  # no further item fits a spent budget
        used += len(answer["body"])
        out.append(answer)
    return out


def _size_refusal(index: int, size: int | None, used: int) -> dict[str, Any]:
    own = f"its answer ({size:,} bytes)" if size is not None else "its answer"
    detail = (
        f"This item's answer does not fit the batch's answer-size budget "
        f"({BATCH_ANSWER_BUDGET_BYTES:,} bytes; {min(used, BATCH_ANSWER_BUDGET_BYTES):,} used by "
        f"the items before it, and {own} is over what is left); send it alone or in a smaller "
        "batch."
    )
    return _problem_item(
        413, "Content Too Large", detail, f"requests[{index}]", "batch_answer_too_large", index
    )


def batch_text(answers: list[dict[str, Any]]) -> str:
    """``{"responses": [...]}`` with each item's JSON text spliced in as it is."""
    parts = [
        f'{{"status":{a["status"]:d},"cache":{json.dumps(a["cache"])},"body":{a["body"]}}}'
        for a in answers
    ]
    return '{"responses":[' + ",".join(parts) + "]}\n"


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
        "batchable (their Monte Carlo work is bounded per request). Each item counts against the "
        "caller's rate limit like a request of its own. Budgets: items not started within "
        f"{BATCH_WORK_BUDGET_SECONDS:g} s (the work budget) get 503 and can be sent again; item "
        f"bodies total at most {BATCH_ANSWER_BUDGET_BYTES:,} bytes (the answer-size budget), an "
        "item that does not fit gets 413 and no later item is computed.",
    )
    def batch(data: dict[str, Any]) -> Response:
        text = batch_text(answer_batch(data["requests"]))
        response = current_app.response_class(text, status=200, mimetype="application/json")
        if len(text) >= RELEASE_FROM_BYTES:
            response.call_on_close(release_soon)
        return response

    return blp
