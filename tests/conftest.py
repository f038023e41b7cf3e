"""Shared fixtures: the Flask app and client, and a real ``redis-server`` the tests can kill.

``redis_server`` starts the actual binary (no fakes for anything that talks to Redis) on a free
loopback port in a temporary directory, with persistence off; ``kill()`` SIGKILLs it and
``restart()`` brings it back on the same port, which is what the cache's recovery is tested on.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import marshmallow as ma
import pytest
import redis
from flask import Flask, Response, current_app
from flask.testing import FlaskClient
from flask_smorest import Blueprint

from api.app import create_app
from api.cache.store import cached_json
from engine.core.errors import EngineError
from tests.support.processes import free_port, stop_process, wait_for_port

REDIS_START_TIMEOUT = 10.0


class RedisServer:
    """A throw-away ``redis-server`` process bound to 127.0.0.1 on a fixed free port."""

    def __init__(self, workdir: Path, port: int | None = None) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail(
                "redis-server is not installed; `bash scripts/test` installs it "
                "(apt-get install redis-server)"
            )
        self.binary = binary
        self.workdir = workdir
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """``redis://127.0.0.1:<port>/0``."""
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def running(self) -> bool:
        """True while the process is alive."""
        return self.proc is not None and self.proc.poll() is None

    def start(self) -> RedisServer:
        """Start the server (no persistence) and wait until it answers PING."""
        if self.running:
            return self
        self.workdir.mkdir(parents=True, exist_ok=True)
        log = open(self.workdir / "redis.log", "ab")  # noqa: SIM115 (owned by the process)
        self.proc = subprocess.Popen(
            [
                self.binary,
                "--port", str(self.port),
                "--bind", "127.0.0.1",
                "--save", "",
                "--appendonly", "no",
                "--dir", str(self.workdir),
                "--daemonize", "no",
                "--loglevel", "warning",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=self.workdir,
        )  # fmt: skip
        log.close()
        wait_for_port(self.port, REDIS_START_TIMEOUT, self.proc)
        client = self.client()
        deadline = time.monotonic() + REDIS_START_TIMEOUT
        while True:
            try:
                client.ping()
                break
            except redis.RedisError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.02)
            finally:
                client.close()
        return self

    def kill(self) -> None:
        """SIGKILL the server (a crash, not a clean shutdown) and reap it."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def pause(self) -> None:
        """SIGSTOP: the server keeps its socket open but never answers (a hung Redis)."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGSTOP)

    def resume(self) -> None:
        """SIGCONT after ``pause``."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGCONT)

    def restart(self) -> RedisServer:
        """Kill if needed, then start again on the same port (empty: no persistence)."""
        self.kill()
        return self.start()

    def client(self) -> redis.Redis:
        """A plain redis-py client for inspecting the server from a test."""
        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=2)

    def stop(self) -> None:
        """Terminate for good (fixture teardown); resumes a paused server first."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGCONT)
            stop_process(self.proc, timeout=5, kill_timeout=5)


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    """A running, empty ``redis-server`` owned by this test."""
    server = RedisServer(tmp_path / "redis")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def make_app() -> Callable[..., Flask]:
    """Factory: ``make_app(REDIS_URL=..., CACHE_TTL_SECONDS=...)`` -> a testing app.

    Redis is off unless a test passes ``REDIS_URL`` (the environment's value is ignored).
    """

    def factory(**overrides: Any) -> Flask:
        config: dict[str, Any] = {"TESTING": True, "REDIS_URL": None}
        config.update(overrides)
        return create_app(config)

    return factory


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    """The app with the in-process cache."""
    return make_app()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """Flask test client of ``app``."""
    return app.test_client()


# --- a probe resource, so error and cache tests do not depend on the real endpoints -------------


class _ProbeMeldSchema(ma.Schema):
    owner = ma.fields.Integer(required=True, strict=True)
    cards = ma.fields.List(ma.fields.String(validate=ma.validate.Length(2, 3)), required=True)


class _ProbeRulesSchema(ma.Schema):
    aces = ma.fields.String(validate=ma.validate.OneOf(["low", "high_or_low"]))


class _ProbeSchema(ma.Schema):
    hand = ma.fields.List(ma.fields.String(validate=ma.validate.Length(2, 3)), required=True)
    table = ma.fields.List(ma.fields.Nested(_ProbeMeldSchema))
    rules = ma.fields.Nested(_ProbeRulesSchema)
    fail = ma.fields.String(
        validate=ma.validate.OneOf(["engine", "engine-no-field", "crash", "recursion"])
    )


PROBE_CALLS = "probe.calls"
PROBE_VIEWS = "probe.views"


def add_probe_routes(app: Flask) -> Flask:
    """Register ``POST /v1/probe/<game>/echo`` on ``app``: validates like a real endpoint, goes
    through ``cached_json`` (key: game + sorted upper-cased hand), and can be told to fail.

    ``app.extensions["probe.calls"]`` counts how often the compute function really ran, and
    ``app.extensions["probe.views"]`` how often the view ran (after validation).
    """
    blp = Blueprint("probe", __name__, url_prefix="/v1/probe")
    app.extensions[PROBE_CALLS] = 0
    app.extensions[PROBE_VIEWS] = 0

    @blp.route("/<game>/echo", methods=["POST"])
    @blp.arguments(_ProbeSchema)
    def echo(args: dict[str, Any], game: str) -> Response:
        current_app.extensions[PROBE_VIEWS] += 1
        hand = sorted(card.upper().replace("10", "T") for card in args["hand"])

        def compute() -> dict[str, Any]:
            current_app.extensions[PROBE_CALLS] += 1
            fail = args.get("fail")
            if fail == "engine":
                raise EngineError("TH is not allowed here", field="hand[1]")
            if fail == "engine-no-field":
                raise EngineError("the hand cannot be played")
            if fail == "crash":
                raise RuntimeError("secret internal detail")
            if fail == "recursion":
                raise RecursionError("maximum recursion depth exceeded")
            return {"game": game, "hand": hand, "size": len(hand)}

        return cached_json("probe", game, {"hand": hand, "fail": args.get("fail")}, compute)

    app.extensions["tunk.api"].register_blueprint(blp)
    return app


@pytest.fixture
def make_probe_app(make_app: Callable[..., Flask]) -> Callable[..., Flask]:
    """Factory: a testing app (``make_app`` overrides) with the probe route added."""

    def factory(**overrides: Any) -> Flask:
        return add_probe_routes(make_app(**overrides))

    return factory


@pytest.fixture
def probe_app(make_probe_app: Callable[..., Flask]) -> Flask:
    """The in-process-cache app with the probe route."""
    return make_probe_app()
