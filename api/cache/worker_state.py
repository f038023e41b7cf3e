"""Each worker's cache-breaker state in a small file, so ``/readyz`` shows every worker's view.

gunicorn runs several worker processes; the one answering ``/readyz`` only knows its own circuit
breaker. Each worker writes ``<dir>/<pid>.json`` (``{"pid", "breaker", "failures", "at"}``)
whenever its breaker changes state (and when it answers ``/readyz``); ``/readyz`` reads the files
of processes that are still alive. The directory is on tmpfs (``/dev/shm``) when there is one and
is named after the gunicorn master (the workers' parent), so two services never mix.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

STALE_SECONDS = 3600.0


def default_state_dir() -> Path:
    """``/dev/shm/tunk-<parent pid>`` (or the same under the temp dir without ``/dev/shm``)."""
    base = Path("/dev/shm") if os.path.isdir("/dev/shm") else Path(tempfile.gettempdir())
    return base / f"tunk-{os.getppid()}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class WorkerStates:
    """Write this process's state; read every live process's state. Never raises."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def publish(self, breaker: str, failures: int) -> None:
        """Atomically replace this process's file."""
        pid = os.getpid()
        record = {"pid": pid, "breaker": breaker, "failures": failures, "at": time.time()}
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            tmp = self.directory / f".{pid}.tmp"
            tmp.write_text(json.dumps(record))
            os.replace(tmp, self.directory / f"{pid}.json")
        except OSError:
            pass  # readiness reporting must never fail a request

    def read(self) -> list[dict[str, Any]]:
        """States of live processes, oldest pid first; files of dead processes are removed."""
        out: list[dict[str, Any]] = []
        try:
            paths = sorted(self.directory.glob("*.json"))
        except OSError:
            return out
        now = time.time()
        for path in paths:
            try:
                record = json.loads(path.read_text())
                pid = int(record["pid"])
            except (OSError, ValueError, KeyError, TypeError):
                continue
            if not _alive(pid) or now - float(record.get("at", 0)) > STALE_SECONDS:
                path.unlink(missing_ok=True)
                continue
            record["age_seconds"] = round(now - float(record["at"]), 3)
            del record["at"]
            out.append(record)
        return sorted(out, key=lambda r: int(r["pid"]))
