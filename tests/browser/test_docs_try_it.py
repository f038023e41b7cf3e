"""``/docs`` "Try it out" in a real browser, with the service on a port other than 8000.

Debian's Chromium, driven by Debian's ``chromedriver`` through the W3C WebDriver protocol (plain
HTTP, so no client library): the page loads Swagger UI from the service, with its Content
Security Policy, on ``http://127.0.0.1:<free port>/docs``; the test opens the Game Flip Flop melds
operation, presses "Try it out" and "Execute", and reads the live answer Swagger UI shows. That
works only when the spec's ``servers`` resolves to the page's own origin and the CSP lets the
page call it. ``scripts/test`` installs ``chromium`` and ``chromium-driver``; without them the test
is skipped with the reason.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from api.app import create_app
from api.http.headers import DOCS_CSP
from tests.support.processes import free_port, stop_process, wait_for_port

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None or CHROMEDRIVER is None,
        reason="chromium and chromedriver are not installed (scripts/test installs them with "
        "apt-get install chromium chromium-driver when root)",
    ),
]

MELDS_BLOCK = "#operations-game-flip-flop-gffMelds"
WAIT_SECONDS = 60.0


class WebDriver:
    """The few WebDriver commands the test needs, over HTTP to a local chromedriver."""

    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.session = ""

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """Send one command; returns its ``value`` (raises with the driver's message)."""
        data = json.dumps(body if body is not None else {}).encode() if method == "POST" else None
        request = urllib.request.Request(
            self.base + path, data=data, method=method, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=90) as response:
                return json.loads(response.read())["value"]
        except urllib.error.HTTPError as exc:
            raise AssertionError(f"{method} {path}: {exc.read()[:600]!r}") from None

    def start(self, profile: Path) -> None:
        """A new headless Chromium session."""
        assert CHROMIUM is not None
        args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            f"--user-data-dir={profile}",
            "--window-size=1280,2000",
        ]
        capabilities = {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": CHROMIUM, "args": args},
        }
        value = self.call("POST", "/session", {"capabilities": {"alwaysMatch": capabilities}})
        self.session = value["sessionId"]

    def go(self, url: str) -> None:
        """Navigate the page to ``url``."""
        self.call("POST", f"/session/{self.session}/url", {"url": url})

    def script(self, source: str, *args: Any) -> Any:
        """Run ``source`` (a function body) in the page; returns its result."""
        return self.call(
            "POST", f"/session/{self.session}/execute/sync", {"script": source, "args": list(args)}
        )

    def wait_for(self, source: str, *args: Any) -> Any:
        """Poll ``source`` until it returns something truthy (WAIT_SECONDS at most)."""
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            value = self.script(source, *args)
            if value:
                return value
            time.sleep(0.25)
        raise AssertionError(f"timed out waiting for: {source}")

    def quit(self) -> None:
        """End the session (closes the browser)."""
        if self.session:
            with contextlib.suppress(AssertionError, OSError):
                self.call("DELETE", f"/session/{self.session}")


@pytest.fixture
def api_port() -> Iterator[int]:
    """The service (in-process cache) under werkzeug on a free loopback port, never 8000."""
    app = create_app({"REDIS_URL": None})
    port = free_port()
    while port == 8000:
        port = free_port()
    server = make_server("127.0.0.1", port, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield port
    server.shutdown()
    thread.join(timeout=5)
    server.server_close()


@pytest.fixture
def driver(tmp_path: Path) -> Iterator[WebDriver]:
    """A chromedriver process and a headless Chromium session through it."""
    assert CHROMEDRIVER is not None
    port = free_port()
    log = open(tmp_path / "chromedriver.log", "wb")  # noqa: SIM115 (owned by the process)
    proc = subprocess.Popen(
        [CHROMEDRIVER, f"--port={port}", "--allowed-ips=127.0.0.1"],
        stdout=log,
        stderr=subprocess.STDOUT,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    log.close()
    web = WebDriver(port)
    try:
        wait_for_port(port, 30, proc)
        web.start(tmp_path / "profile")
        yield web
    finally:
        web.quit()
        stop_process(proc)


def test_try_it_out_answers_200_on_a_non_default_port(api_port: int, driver: WebDriver) -> None:
    origin = f"http://127.0.0.1:{api_port}"
    with urllib.request.urlopen(f"{origin}/docs", timeout=10) as page:
        assert page.headers["Content-Security-Policy"] == DOCS_CSP  # the page runs under it
    driver.go(f"{origin}/docs#/game-flip-flop/gffMelds")
    driver.wait_for("return document.querySelector(arguments[0] + ' .try-out__btn');", MELDS_BLOCK)
    driver.script("document.querySelector(arguments[0] + ' .try-out__btn').click();", MELDS_BLOCK)
    driver.wait_for("return document.querySelector(arguments[0] + ' .execute');", MELDS_BLOCK)
    driver.script("document.querySelector(arguments[0] + ' .execute').click();", MELDS_BLOCK)
    answer = driver.wait_for(
        """
        const block = document.querySelector(arguments[0]);
        const live = block && block.querySelector('.live-responses-table');
        if (!live) { return null; }
        const status = live.querySelector('tr.response .response-col_status');
        const body = live.querySelector('.response-col_description pre, .microlight');
        const url = block.querySelector('.request-url pre');
        return status && status.textContent.trim() ? {
            status: status.textContent.trim(),
            body: body ? body.textContent : '',
            url: url ? url.textContent.trim() : ''
        } : null;
        """,
        MELDS_BLOCK,
    )
    assert answer["status"].startswith("200"), answer
    assert answer["url"] == f"{origin}/v1/games/game-flip-flop/melds", answer
    assert '"best"' in answer["body"] and "deadwood_points" in answer["body"], answer
