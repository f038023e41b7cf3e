"""One error shape for the whole service: RFC 9457 ``application/problem+json``.

Every failure - a webargs/marshmallow validation error, an ``EngineError`` from the rules engine,
a routing 404/405, an oversized or non-JSON body, or an unexpected exception - leaves through
``problem()``, so clients parse exactly one format::

    {"type": "/problems/invalid-card", "title": "Unprocessable Content", "status": 422,
     "detail": "hand[0]: 'ZZ' is not a card", "code": "invalid_card",
     "request_id": "4bf92f3577b34da6a3ce929d0e0e4736",
     "errors": {"hand[0]": ["'ZZ' is not a card"]}}

``code`` is the stable, machine-readable kind (``api.http.problems`` lists them all) and ``type``
the relative URI of the page explaining it; ``request_id`` is the ``X-Request-ID`` of the answer.
``errors`` maps a field path (``hand[0]``, ``table[1].cards[2]``, ``rules.aces``, or ``body`` for
the request as a whole) to that field's messages. Tracebacks are logged, never sent.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Iterable, Mapping
from http import HTTPStatus
from typing import Any

import marshmallow as ma
from flask import Flask, Response, current_app, g, request
from flask_smorest import Api
from flask_smorest.utils import prepare_response
from werkzeug.exceptions import HTTPException, MethodNotAllowed, RequestEntityTooLarge

from api.http.problems import CODES, classify, type_uri
from engine.core.errors import EngineError

logger = logging.getLogger("api")

PROBLEM_MIMETYPE = "application/problem+json"
BODY_FIELD = "body"
"""Field path used when an error concerns the request body as a whole."""

MAX_JSON_DEPTH = 32
"""Deepest nesting of arrays/objects accepted in a request body; real requests need about 5."""

MAX_ERROR_ENTRIES = 20
"""Most field paths listed in ``errors``; ``more_errors`` counts the messages left out."""
MAX_MESSAGE_CHARS = 240
"""Longest message (and ``detail``) sent back: client text echoed in it is cut here."""
MAX_PATH_CHARS = 120
"""Longest field path sent back (a client may name a field with 8 KB of text)."""

# webargs wraps messages in the location they came from; clients only care about the field.
_LOCATIONS = frozenset(
    {"json", "query", "querystring", "view_args", "path", "headers", "cookies", "form", "files"}
)
# RFC 9110 names where Python 3.11's http.HTTPStatus still has the RFC 7231 ones.
_TITLES: dict[int, str] = {413: "Content Too Large", 422: "Unprocessable Content"}
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
BEFORE_PARSE_KEY = "tunk.before_parse"
"""``app.extensions`` key of ``hook(request, raw_body) -> Response | None``, called once a JSON
body is read and before it is parsed (the cache answers repeated bodies there)."""
_GUARDED_PREFIX = "/v1/"


class ProblemSchema(ma.Schema):
    """RFC 9457 problem details, as this service sends them (documentation only)."""

    type = ma.fields.String(
        metadata={
            "description": "Problem type: the relative URI `/problems/<code with hyphens>` "
            "(`/problems/invalid-card`), a page this service serves explaining the kind.",
            "example": "/problems/invalid-card",
        }
    )
    title = ma.fields.String(metadata={"description": "HTTP status phrase."})
    status = ma.fields.Integer(metadata={"description": "HTTP status code."})
    detail = ma.fields.String(metadata={"description": "What went wrong, for a person."})
    code = ma.fields.String(
        validate=ma.validate.OneOf(CODES),
        metadata={
            "description": "Stable machine-readable kind of problem: branch on this, not on "
            "`detail`. Each code is explained at `/problems/<code with hyphens>` and in "
            "docs/problems.md."
        },
    )
    request_id = ma.fields.String(
        metadata={
            "description": "The request's id (the `X-Request-ID` answer header); logs carry it."
        }
    )
    errors = ma.fields.Dict(
        keys=ma.fields.String(),
        values=ma.fields.List(ma.fields.String()),
        metadata={
            "description": "Field path (`hand[0]`, `table[1].cards[2]`, `rules.aces`, `body`) "
            f"to its messages; at most {MAX_ERROR_ENTRIES} paths, each message at most "
            f"{MAX_MESSAGE_CHARS} characters (echoed input is cut with `...`)."
        },
    )
    more_errors = ma.fields.Integer(
        metadata={
            "description": f"Messages left out of `errors` (beyond its first {MAX_ERROR_ENTRIES} "
            "paths); absent when none were."
        }
    )


def clip(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``text`` cut to ``limit`` characters (ending in ``...`` when cut): bounds echoed input."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _bounded_errors(errors: dict[str, list[str]]) -> tuple[dict[str, list[str]], int]:
    """The first ``MAX_ERROR_ENTRIES`` paths (first message of each kept in full order), clipped,
    and how many messages were left out."""
    kept: dict[str, list[str]] = {}
    left_out = 0
    for path, messages in errors.items():
        if len(kept) >= MAX_ERROR_ENTRIES:
            left_out += len(messages)
            continue
        kept.setdefault(clip(path, MAX_PATH_CHARS), []).extend(clip(m) for m in messages)
    return kept, left_out


def _encode(payload: dict[str, Any]) -> bytes:
    """UTF-8 JSON text; lone surrogates (legal in JSON, not in UTF-8) are sent ``\\u``-escaped."""
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":")) + "\n"
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return (json.dumps(payload, separators=(",", ":")) + "\n").encode("ascii")


def _request_id() -> str:
    """The current request's id; one is made (and kept for the header) if none was chosen yet."""
    rid = g.get("request_id")
    if not rid:
        rid = g.request_id = uuid.uuid4().hex
    return str(rid)


def problem(
    status: int,
    detail: str,
    errors: dict[str, list[str]] | None = None,
    *,
    code: str | None = None,
) -> Response:
    """Build an ``application/problem+json`` response.

    :param status: HTTP status code (4xx/5xx).
    :param detail: a sentence a client developer can act on.
    :param errors: optional mapping of field path to messages, e.g. ``{"hand[2]": ["..."]}``.
    :param code: the kind (one of ``api.http.problems.CODES``); when None it is derived from
        ``status`` and the first ``errors`` entry (``api.http.problems.classify``).
    """
    title = _TITLES.get(status)
    if title is None:
        try:
            title = HTTPStatus(status).phrase
        except ValueError:
            title = "Error"
    kind = code if code is not None else classify(status, errors)
    payload: dict[str, Any] = {"type": type_uri(kind), "title": title, "status": status}
    payload["detail"] = clip(detail)
    payload["code"] = kind
    payload["request_id"] = _request_id()
    if errors:
        payload["errors"], left_out = _bounded_errors(errors)
        if left_out:
            payload["more_errors"] = left_out
    return current_app.response_class(_encode(payload), status=status, mimetype=PROBLEM_MIMETYPE)


def _join_path(prefix: str, key: Any) -> str:
    """Append one key to a field path: ints (and ASCII digits) as ``[i]``, names as ``.name``.

    A key is client text (an unknown field may be called ``"²"`` or ``"٣"``): only ASCII digits
    below a nested level are read as a list position, and nothing here can raise.
    """
    if isinstance(key, int) and not isinstance(key, bool):
        return f"{prefix}[{key}]"
    if isinstance(key, str) and prefix and key.isascii() and key.isdigit() and len(key) < 10:
        return f"{prefix}[{int(key)}]"
    key = str(key)
    if key == "_schema":  # marshmallow's whole-object errors belong to the object itself
        return prefix
    return f"{prefix}.{key}" if prefix else key


def _collect(node: Any, path: str, out: dict[str, list[str]]) -> None:
    if isinstance(node, Mapping):
        for key, child in node.items():
            _collect(child, _join_path(path, key), out)
    elif isinstance(node, str):
        out.setdefault(path or BODY_FIELD, []).append(node)
    elif isinstance(node, Iterable):
        for item in node:
            _collect(item, path, out)
    else:
        out.setdefault(path or BODY_FIELD, []).append(str(node))


def flatten_messages(messages: Any, *, drop_location: bool = True) -> dict[str, list[str]]:
    """Flatten nested marshmallow/webargs messages into ``{"field.path[i]": [messages]}``.

    ``{"json": {"hand": {0: ["Not a card."]}}}`` becomes ``{"hand[0]": ["Not a card."]}``: the
    webargs location level is dropped (``drop_location``), integer keys become ``[i]``, names are
    joined with dots, ``_schema`` errors attach to their parent, and top-level ones to ``body``.
    """
    out: dict[str, list[str]] = {}
    if drop_location and isinstance(messages, Mapping):
        for key, child in messages.items():
            if key in _LOCATIONS:
                _collect(child, "", out)
            else:
                _collect(child, _join_path("", key), out)
    else:
        _collect(messages, "", out)
    return out


def _summary(errors: dict[str, list[str]]) -> str:
    """A one-line ``detail`` naming the first bad field, so logs and humans see the gist."""
    if not errors:
        return "The request is invalid."
    path, msgs = next(iter(errors.items()))
    count = sum(len(m) for m in errors.values())
    more = f" (and {count - 1} more)" if count > 1 else ""
    first = msgs[0] if msgs else "invalid"
    return f"Invalid request: {path}: {first}{more}"


def _default_detail(error: HTTPException, status: int) -> str:
    if status == 404:
        return f"There is no resource at {clip(request.path, MAX_PATH_CHARS)}."
    if status == 405:
        return f"{request.method} is not allowed on {clip(request.path, MAX_PATH_CHARS)}."
    if status == 413:
        limit = current_app.config.get("MAX_CONTENT_LENGTH")
        return f"The request body is larger than the {limit}-byte limit."
    if status == 415:
        return "Send the request body as JSON with 'Content-Type: application/json'."
    return error.description or HTTPStatus(status).phrase


def http_exception_problem(error: HTTPException) -> Response:
    """Turn any werkzeug ``HTTPException`` (including webargs' ``abort``) into a problem."""
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    errors: dict[str, list[str]] = {}
    if "errors" in data:
        errors = flatten_messages(data["errors"])
    elif "messages" in data:
        errors = flatten_messages(data["messages"])
    if "message" in data:
        detail = str(data["message"])
    elif errors and status in (400, 422):
        detail = _summary(errors)
    else:
        detail = _default_detail(error, status)
    response = problem(status, detail, errors or None)
    if isinstance(error, MethodNotAllowed) and error.valid_methods:
        response.headers["Allow"] = ", ".join(sorted(error.valid_methods))
    for name, value in (data.get("headers") or {}).items():
        response.headers[name] = value
    return response


class ProblemApi(Api):  # type: ignore[misc]
    """flask-smorest ``Api`` whose errors and documented error responses are problem+json."""

    ERROR_SCHEMA = ProblemSchema

    def handle_http_exception(self, error: HTTPException) -> Response:
        """Replace flask-smorest's ``{code, status, message}`` payload with a problem."""
        return http_exception_problem(error)

    def _register_responses(self) -> None:
        """Document every error response as ``application/problem+json`` with ProblemSchema.

        Mirrors ``flask_smorest.spec.APISpecMixin._register_responses`` with the content type
        swapped, so the spec tells the truth about error bodies.
        """
        for status in HTTPStatus:
            response: dict[str, Any] = {"description": status.phrase}
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM_MIMETYPE)
            self.spec.components.response(status.name, response, lazy=True)
        default: dict[str, Any] = {
            "description": "Default error response",
            "schema": self.ERROR_SCHEMA,
        }
        prepare_response(default, self.spec, PROBLEM_MIMETYPE)
        self.spec.components.response(self.DEFAULT_ERROR_RESPONSE_NAME, default, lazy=True)


def _engine_error(error: EngineError) -> Response:
    """The engine rejected a value: 422 naming the field it pointed at (``body`` if none)."""
    return problem(422, error.message, {error.field or BODY_FIELD: [error.message]})


def _unexpected(error: Exception) -> Response:
    """Last resort: log the traceback server-side, send a bare 500 problem."""
    if isinstance(error, HTTPException):  # defensive: normally handled by the Api handler
        return http_exception_problem(error)
    logger.exception("unhandled error on %s %s", request.method, request.path)
    return problem(
        500,
        "An unexpected error occurred on the server; it has been logged.",
        code="internal_error",
    )


def _too_deep(value: Any, limit: int) -> bool:
    """True when ``value`` nests arrays/objects more than ``limit`` levels (iterative walk)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children: Iterable[Any] = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def parse_json_body(raw: bytes) -> tuple[Any, str | None]:
    """Parse a request body strictly (UTF-8, no NaN/Infinity, bounded depth).

    :returns: ``(value, None)`` or ``(None, reason)``; never raises, even for bodies nested deep
        enough to exhaust the interpreter's recursion limit.
    """
    try:
        value = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
    except RecursionError:
        return None, f"The JSON body is nested too deeply (limit {MAX_JSON_DEPTH} levels)."
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError, huge-int limits
        return None, f"The request body is not valid JSON: {exc}"
    # Fast path: a body with few brackets cannot nest deeply (bytes.count runs in C).
    brackets = raw.count(b"[") + raw.count(b"{")
    if brackets > MAX_JSON_DEPTH and _too_deep(value, MAX_JSON_DEPTH):
        return None, f"The JSON body is nested too deeply (limit {MAX_JSON_DEPTH} levels)."
    return value, None


def _guard_json_body() -> Response | None:
    """Before webargs sees a ``/v1`` body: 415 if not JSON, 413 if too big, 400 if unparsable.

    Runs only for routes that exist (unknown paths still answer 404/405) and stores the parsed
    object in ``g.json_body``. A body that parses but is not an object is a 422 on ``body``.
    """
    req = request._get_current_object()  # type: ignore[attr-defined]  # one proxy lookup
    if (
        req.method not in _BODY_METHODS
        or not req.path.startswith(_GUARDED_PREFIX)
        or req.routing_exception is not None
    ):
        return None
    if not req.is_json:
        shown = req.mimetype or "no Content-Type"
        return problem(
            415,
            f"Send the request body as JSON with 'Content-Type: application/json' ({shown}).",
            code="unsupported_media_type",
        )
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    raw = req.get_data(cache=True)  # raises RequestEntityTooLarge (413) over the limit
    limit = app.config.get("MAX_CONTENT_LENGTH")
    if req.content_length is None and limit is not None and len(raw) >= limit:
        # A chunked body has no Content-Length: werkzeug stops reading at the limit, so a body
        # that reached it was (or may have been) longer; refuse it like a declared one.
        raise RequestEntityTooLarge()
    before_parse = app.extensions.get(BEFORE_PARSE_KEY)
    if before_parse is not None:
        answered: Response | None = before_parse(req, raw)
        if answered is not None:
            return answered
    value, reason = parse_json_body(raw)
    if reason is not None:
        return problem(400, reason, {BODY_FIELD: [reason]}, code="invalid_json")
    if not isinstance(value, dict):
        message = "The request body must be a JSON object."
        return problem(422, message, {BODY_FIELD: [message]}, code="validation_error")
    g.json_body = value
    return None


def register_error_handling(app: Flask) -> None:
    """Install the body guard and the EngineError / catch-all handlers on ``app``.

    The ``HTTPException`` handler itself is installed by ``ProblemApi`` (flask-smorest registers
    ``Api.handle_http_exception`` when it is initialised).
    """
    app.before_request(_guard_json_body)
    app.register_error_handler(EngineError, _engine_error)
    app.register_error_handler(Exception, _unexpected)
