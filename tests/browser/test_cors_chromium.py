"""A real browser on another origin calls the API (CORS): Debian's headless Chromium.

The API runs under werkzeug on one loopback port, a static page is served from another (a
different origin), and ``chromium --headless --dump-dom`` loads the page. Its script calls
``GET /v1/games`` and ``POST /v1/games/game-flip-flop/melds`` (a JSON POST, so the browser sends
a preflight first) and writes what it read, exposed headers included, into the DOM. With
``CORS_ORIGINS`` naming some other origin the same page must fail to fetch: the headers, not the
browser, decide. ``scripts/test`` installs ``chromium`` when it is missing; without it the test
is skipped with the reason.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from api.app import create_app
from tests.support.processes import free_port

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None,
        reason="chromium is not installed (scripts/test installs it with apt-get when root)",
    ),
]

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>cors</title></head>
<body><pre id="out">pending</pre>
<script>
const api = "API";
async function run() {
  const out = {};
  try {
    const g = await fetch(api + "/v1/games");
    const games = await g.json();
    out.get = {status: g.status, games: games.games.map(x => x.game),
               requestId: g.headers.get("X-Request-ID")};
    const p = await fetch(api + "/v1/games/game-flip-flop/melds", {
      method: "POST",
      headers: {"Content-Type": "application/json", "X-Request-ID": "browser-test-1"},
      body: JSON.stringify({hand: ["7H", "8H", "9H", "7S", "7D", "KC"]})
    });
    const melds = await p.json();
    out.post = {status: p.status, deadwood: melds.best.deadwood_points,
                cache: p.headers.get("X-Cache"), requestId: p.headers.get("X-Request-ID")};
  } catch (e) {
    out.error = String(e);
  }
  document.getElementById("out").textContent = "RESULT" + JSON.stringify(out) + "END";
}
run();
</script></body></html>
"""


class _Server:
    """A server object (``serve_forever``/``shutdown``/``server_close``) run on a free loopback
    port in a daemon thread."""

    def __init__(self, make: Callable[[int], Any]) -> None:
        self.port = free_port()
        self.server = make(self.port)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.thread.join(timeout=5)
        self.server.server_close()


@pytest.fixture
def page_origin(tmp_path: Path) -> Iterator[tuple[Path, int]]:
    """A static file server for ``tmp_path`` on its own port (another origin than the API)."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    server = _Server(lambda port: http.server.ThreadingHTTPServer(("127.0.0.1", port), handler))
    yield tmp_path, server.port
    server.stop()


def _browse(url: str, profile: Path) -> dict[str, object]:
    """Load ``url`` in headless Chromium and return the JSON the page wrote."""
    assert CHROMIUM is not None
    command = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        f"--user-data-dir={profile}",
        "--virtual-time-budget=15000",
        "--dump-dom",
        url,
    ]
    env = {**os.environ, "HOME": str(profile)}
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)
    match = re.search(r'<pre id="out">RESULT(.*?)END</pre>', done.stdout, re.S)
    assert match, (
        f"page did not finish: stdout={done.stdout[-500:]!r} stderr={done.stderr[-800:]!r}"
    )
    result: dict[str, object] = json.loads(match.group(1).replace("&quot;", '"'))
    return result


def _serve_api(config: dict[str, object]) -> _Server:
    app = create_app({"REDIS_URL": None, **config})
    return _Server(lambda port: make_server("127.0.0.1", port, app, threaded=True))


def _open_page(
    page_origin: tuple[Path, int], config: dict[str, object], profile: Path
) -> dict[str, object]:
    """Serve the API with ``config``, load ``PAGE`` (pointed at it) from the page origin in
    Chromium, and return what the page wrote."""
    directory, page_port = page_origin
    api = _serve_api(config)
    try:
        (directory / "page.html").write_text(
            PAGE.replace("API", f"http://127.0.0.1:{api.port}"), encoding="utf-8"
        )
        return _browse(f"http://127.0.0.1:{page_port}/page.html", profile)
    finally:
        api.stop()


def test_page_on_another_origin_reads_get_and_post(
    page_origin: tuple[Path, int], tmp_path_factory: pytest.TempPathFactory
) -> None:
    result = _open_page(page_origin, {}, tmp_path_factory.mktemp("profile"))
    assert "error" not in result, result
    get = result["get"]
    post = result["post"]
    assert isinstance(get, dict) and isinstance(post, dict)
    assert get["status"] == 200
    assert get["games"] == ["game-flip-flop", "triple-tunk", "three-thirteen"]
    assert isinstance(get["requestId"], str) and len(get["requestId"]) == 32  # exposed
    assert post["status"] == 200
    assert post["deadwood"] == 24  # 7-8-9 of hearts leaves 7S 7D KC = 7 + 7 + 10 (C-2)
    assert post["cache"] == "MISS"  # X-Cache is exposed to the page
    assert post["requestId"] == "browser-test-1"  # the page's own id, echoed and exposed


def test_origin_not_listed_is_refused_by_the_browser(
    page_origin: tuple[Path, int], tmp_path_factory: pytest.TempPathFactory
) -> None:
    result = _open_page(
        page_origin,
        {"CORS_ORIGINS": "https://teaching.example"},
        tmp_path_factory.mktemp("profile"),
    )
    assert result == {"error": "TypeError: Failed to fetch"}
