"""``/learn``: the teaching page, static files served by the service itself.

The page (``static/index.html``, ``learn.js``, ``cards.js``, ``learn.css``) needs no build step
and no CDN: it imports the JavaScript client module (``clients/js/tunk.js``, served at
``/learn/client/``) and calls only the public ``/v1`` API through it, exactly as a third-party
teaching tool would. Its answers carry their own Content Security Policy: scripts, styles and
calls from this origin only, no inline script, no framing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from flask import Blueprint, Flask, Response, abort, redirect, send_from_directory

STATIC_DIR: Final = Path(__file__).resolve().parent / "static"
CLIENT_DIR: Final = Path(__file__).resolve().parent.parent.parent / "clients" / "js"
CLIENT_FILES: Final = frozenset({"tunk.js", "operations.js"})
LEARN_CSP: Final = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'self'"
)
CACHE_CONTROL: Final = "no-cache"
"""Revalidate every time (the files change with the service; the ETag keeps it cheap)."""


def _headers(response: Response) -> Response:
    response.headers["Content-Security-Policy"] = LEARN_CSP
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cache-Control"] = CACHE_CONTROL
    return response


def make_blueprint() -> Blueprint:
    """The ``/learn`` blueprint: the page, its assets and the client module."""
    blp = Blueprint("learn", __name__, url_prefix="/learn")

    @blp.get("")
    def page_without_slash() -> Response:
        return redirect("/learn/", code=308)  # type: ignore[return-value]

    @blp.get("/")
    def page() -> Response:
        """The teaching page (a query such as ``?game=game-flip-flop&seed=7`` is read by it)."""
        return send_from_directory(STATIC_DIR, "index.html")

    @blp.get("/client/<name>")
    def client(name: str) -> Response:
        """The JavaScript client module and its generated operation table."""
        if name not in CLIENT_FILES:
            abort(404)
        return send_from_directory(CLIENT_DIR, name, mimetype="text/javascript")

    @blp.get("/<path:name>")
    def asset(name: str) -> Response:
        """A static asset of the page (``send_from_directory`` refuses paths outside it)."""
        return send_from_directory(STATIC_DIR, name)

    blp.after_request(_headers)
    return blp


def register_learn(app: Flask) -> None:
    """Serve ``/learn`` on ``app``."""
    app.register_blueprint(make_blueprint())
