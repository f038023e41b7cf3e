"""Start, wait for and stop the real processes the integration tests use, on 127.0.0.1 only.

One implementation of what every integration test needs: a free loopback port, waiting until a
port accepts connections (failing early if the process died), stopping a process (SIGTERM, then
SIGKILL after a timeout) and a real gunicorn master serving ``api.app:create_app()`` with
``gunicorn.conf.py``, as production runs it. ``free_port`` is the one ``harness/scaleout.py``
uses, so tests and the scale-out scripts pick ports the same way.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from http.client import HTTPConnection
from pathlib import Path
from typing import TypeVar

from harness.scaleout import free_port

__all__ = [
    "GUNICORN_ARGV",
    "REPO_ROOT",
    "GunicornProcess",
    "free_port",
    "get_status",
    "poll_until",
    "spawn",
    "start_gunicorn",
    "stop_process",
    "wait_for_port",
]

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
GUNICORN_ARGV = [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "api.app:create_app()"]
START_TIMEOUT = 30.0


def wait_for_port(port: int, timeout: float, proc: subprocess.Popen[bytes] | None = None) -> None:
    """Block until something accepts TCP connections on 127.0.0.1:``port``.

    :raises RuntimeError: the process exited first, or ``timeout`` passed.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"process exited with status {proc.returncode} before listening")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.02)
    raise RuntimeError(f"nothing listening on 127.0.0.1:{port} after {timeout}s")


def poll_until(
    check: Callable[[], bool], timeout: float, describe: Callable[[], str], step: float = 0.05
) -> None:
    """Call ``check`` every ``step`` seconds until it is true; after ``timeout`` seconds fail the
    test with ``describe()`` (a log tail, say) as the message."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, describe()
        time.sleep(step)


def stop_process(
    proc: subprocess.Popen[bytes], timeout: float = 15.0, kill_timeout: float = 5.0
) -> None:
    """SIGTERM ``proc`` (a graceful stop) and reap it; SIGKILL it if it is still there after
    ``timeout`` seconds. A process that already exited is only reaped."""
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=kill_timeout)


def spawn(argv: Sequence[str], log: Path, env: Mapping[str, str]) -> subprocess.Popen[bytes]:
    """Start ``argv`` in the repository root with ``env``, stdout and stderr into ``log``."""
    with log.open("wb") as out:
        return subprocess.Popen(
            list(argv), cwd=REPO_ROOT, env=dict(env), stdout=out, stderr=subprocess.STDOUT
        )


def get_status(port: int, path: str, timeout: float = 10.0) -> int:
    """The HTTP status of ``GET path`` on 127.0.0.1:``port`` (a fresh connection)."""
    connection = HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


class GunicornProcess:
    """A gunicorn master on 127.0.0.1:``port``, its log file and its workers' pids."""

    tail_lines = 40

    def __init__(self, port: int, proc: subprocess.Popen[bytes], log: Path) -> None:
        self.port = port
        self.proc = proc
        self.log = log

    def workers(self) -> set[int]:
        """The pids of the master's live children (its workers)."""
        children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text()
        return {int(pid) for pid in children.split()}

    def log_tail(self) -> str:
        """The last ``tail_lines`` lines gunicorn wrote (for failure messages)."""
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-self.tail_lines :])

    def stop(self) -> None:
        """SIGTERM the master (workers finish their requests); SIGKILL after 15 s."""
        stop_process(self.proc, timeout=15, kill_timeout=5)


G = TypeVar("G", bound=GunicornProcess)


def healthy(service: GunicornProcess) -> bool:
    """``GET /healthz`` answers 200 (the default readiness check of ``start_gunicorn``)."""
    return get_status(service.port, "/healthz") == 200


def start_gunicorn(
    log: Path,
    env: Mapping[str, str],
    kind: type[G] = GunicornProcess,  # type: ignore[assignment]
    ready: Callable[[G], bool] = healthy,
) -> G:
    """Start gunicorn (``gunicorn.conf.py``, ``api.app:create_app()``) from this interpreter's
    environment on a free loopback port, with ``env`` on top of ``os.environ``, and wait until it
    listens and ``ready(service)`` holds (30 s each); a process that never gets ready is stopped
    and the test fails with its log tail. Returns ``kind(port, proc, log)``; the caller stops it.
    """
    port = free_port()
    full_env = {
        **os.environ,
        "PORT": str(port),
        "BIND_HOST": "127.0.0.1",
        "PYTHONDONTWRITEBYTECODE": "1",
        **env,
    }
    proc = spawn(GUNICORN_ARGV, log, full_env)
    service = kind(port, proc, log)
    try:
        wait_for_port(port, START_TIMEOUT, proc)
        poll_until(lambda: ready(service), START_TIMEOUT, service.log_tail)
    except BaseException:
        service.stop()
        raise
    return service
