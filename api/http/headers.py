"""Security headers on every answer.

- ``X-Content-Type-Options: nosniff`` everywhere: a browser never guesses a type.
- ``Cache-Control: no-store`` unless the view chose a policy (the Swagger UI assets do): answers
  depend on the request body, and a shared proxy must not keep them.
- On ``/docs``: a Content Security Policy that allows only this origin's scripts and styles
  (the page has no inline script) and ``frame-ancestors 'none'`` with ``X-Frame-Options: DENY``
  so the page cannot be framed, and no referrer leaves it.

gunicorn's own ``Server`` header is set to a name without a version in ``gunicorn.conf.py``.
"""

from __future__ import annotations

from typing import Final

from flask import Flask, Response, request

DOCS_CSP: Final = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; font-src 'self'; frame-ancestors 'none'; "
    "base-uri 'none'; form-action 'none'"
)


def _add_headers(response: Response) -> Response:
    headers = response.headers
    headers["X-Content-Type-Options"] = "nosniff"
    if "Cache-Control" not in headers:
        headers["Cache-Control"] = "no-store"
    path = request.path
    if path == "/docs" or path.startswith("/docs/"):
        headers["Content-Security-Policy"] = DOCS_CSP
        headers["X-Frame-Options"] = "DENY"
        headers["Referrer-Policy"] = "no-referrer"
    return response


def register_security_headers(app: Flask) -> None:
    """Add the headers to every response of ``app`` (errors included)."""
    app.after_request(_add_headers)
