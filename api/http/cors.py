"""Cross-origin requests (CORS), so a page on another origin can call the API from a browser.

The API takes no credentials (no cookies, no auth), so the default is ``*``. ``CORS_ORIGINS``
(environment or ``create_app`` config) narrows it to a comma-separated list of exact origins
(``https://teach.example,http://127.0.0.1:5173``); a listed origin is echoed back with
``Vary: Origin``. A preflight (``OPTIONS`` with ``Access-Control-Request-Method``) is answered
``204`` before routing, and browsers may cache it for ``PREFLIGHT_MAX_AGE`` seconds.
"""

from __future__ import annotations

import os

from flask import Flask, Response, current_app, request

CORS_KEY = "tunk.cors_origins"
ALLOWED_METHODS = "GET, POST, OPTIONS"
ALLOWED_HEADERS = "Content-Type, Accept, Accept-Encoding, If-None-Match, X-Request-ID, traceparent"
EXPOSED_HEADERS = "X-Cache, X-Request-ID, Retry-After, ETag, Content-Encoding"
PREFLIGHT_MAX_AGE = 86400
"""Seconds a browser may reuse a preflight answer (Chromium caps it at 7200)."""


def parse_origins(raw: str | None) -> frozenset[str] | None:
    """``None`` for any origin (``*``, empty or unset), else the set of listed origins."""
    if raw is None or raw.strip() in ("", "*"):
        return None
    return frozenset(o.strip().rstrip("/") for o in raw.split(",") if o.strip())


def _allow_origin(origin: str | None) -> str | None:
    """The ``Access-Control-Allow-Origin`` value for ``origin``, or None if not allowed."""
    allowed: frozenset[str] | None = current_app.extensions[CORS_KEY]
    if allowed is None:
        return "*"
    if origin is not None and origin in allowed:
        return origin
    return None


def _preflight() -> Response | None:
    """``before_request``: answer a CORS preflight without running any view."""
    if request.method != "OPTIONS" or "Access-Control-Request-Method" not in request.headers:
        return None
    response = current_app.response_class(status=204)
    allow = _allow_origin(request.headers.get("Origin"))
    if allow is not None:
        response.headers["Access-Control-Allow-Methods"] = ALLOWED_METHODS
        response.headers["Access-Control-Allow-Headers"] = ALLOWED_HEADERS
        response.headers["Access-Control-Max-Age"] = str(PREFLIGHT_MAX_AGE)
    return response


def _add_headers(response: Response) -> Response:
    """``after_request``: allow the caller's origin and expose the service's own headers."""
    allowed: frozenset[str] | None = current_app.extensions[CORS_KEY]
    if allowed is None:  # the default: any origin, nothing varies
        response.headers["Access-Control-Allow-Origin"] = "*"
        response.headers["Access-Control-Expose-Headers"] = EXPOSED_HEADERS
        return response
    allow = _allow_origin(request.headers.get("Origin"))
    if allow is not None:
        response.headers["Access-Control-Allow-Origin"] = allow
        response.headers["Access-Control-Expose-Headers"] = EXPOSED_HEADERS
    if allow != "*":
        response.vary.add("Origin")
    return response


def init_cors(app: Flask) -> None:
    """Read ``CORS_ORIGINS`` (config first, then environment) and install the hooks.

    Registered before the JSON body guard so a preflight never reaches it.
    """
    raw = app.config.get("CORS_ORIGINS", os.environ.get("CORS_ORIGINS"))
    app.extensions[CORS_KEY] = parse_origins(raw)
    app.before_request_funcs.setdefault(None, []).insert(0, _preflight)
    app.after_request(_add_headers)
