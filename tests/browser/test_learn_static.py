"""``/learn`` is served by the app itself: the page, its assets and the JavaScript client module,
with the page's own Content Security Policy (this origin only, no inline script or style)."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from api.app import create_app
from api.learn import CLIENT_DIR, LEARN_CSP, STATIC_DIR


@pytest.fixture
def client() -> FlaskClient:
    return create_app({"REDIS_URL": None, "TESTING": True}).test_client()


def test_page_and_assets_carry_the_learn_csp(client: FlaskClient) -> None:
    for path, kind in (
        ("/learn/", "text/html"),
        ("/learn/learn.js", "text/javascript"),
        ("/learn/cards.js", "text/javascript"),
        ("/learn/learn.css", "text/css"),
        ("/learn/client/tunk.js", "text/javascript"),
        ("/learn/client/operations.js", "text/javascript"),
    ):
        answer = client.get(path)
        answer.close()  # send_from_directory streams an open file
        assert answer.status_code == 200, path
        assert answer.mimetype == kind, path
        assert answer.headers["Content-Security-Policy"] == LEARN_CSP
        assert answer.headers["X-Frame-Options"] == "DENY"
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
    redirect = client.get("/learn")
    redirect.close()
    assert redirect.status_code == 308


def test_served_client_is_the_committed_module(client: FlaskClient) -> None:
    answer = client.get("/learn/client/tunk.js")
    body = answer.get_data()
    answer.close()
    assert body == (CLIENT_DIR / "tunk.js").read_bytes()


@pytest.mark.parametrize(
    "path", ["/learn/client/generate.py", "/learn/../app.py", "/learn/nope.js", "/learn/client/x"]
)
def test_unknown_files_are_404(client: FlaskClient, path: str) -> None:
    answer = client.get(path)
    answer.close()
    assert answer.status_code == 404


def test_page_has_no_inline_script_style_or_remote_asset() -> None:
    html = (STATIC_DIR / "index.html").read_text(encoding="utf-8")
    assert re.findall(r"<script[^>]*>", html) == ['<script type="module" src="/learn/learn.js">']
    assert "style=" not in html and "<style" not in html
    for asset in STATIC_DIR.iterdir():
        text = asset.read_text(encoding="utf-8")
        assert "http://" not in text.replace("http://www.w3.org/2000/svg", "")
        assert "https://" not in text, asset.name  # no CDN


def _luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_text_colours_meet_wcag_aa() -> None:
    css = (STATIC_DIR / "learn.css").read_text(encoding="utf-8")
    colours = dict(re.findall(r"--(\w+): (#[0-9a-f]{6})", css))
    for name in ("ink", "muted", "accent", "ok", "bad"):  # text: 4.5:1 (WCAG 1.4.3)
        for background in (colours["bg"], colours["panel"], "#fafaf8", "#fff5f6", "#e8f0fa"):
            assert _contrast(colours[name], background) >= 4.5, (name, background)
    for background in (colours["bg"], colours["panel"]):  # the focus ring: 3:1 (WCAG 1.4.11)
        assert _contrast(colours["focus"], background) >= 3, background
    assert _contrast("#ffffff", colours["accent"]) >= 4.5  # the primary button
    cards = (STATIC_DIR / "cards.js").read_text(encoding="utf-8")
    red = re.search(r'const RED = "(#[0-9a-f]{6})"', cards)
    assert red and _contrast(red.group(1), "#ffffff") >= 4.5  # hearts and diamonds
