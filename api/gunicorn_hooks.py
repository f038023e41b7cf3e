"""gunicorn server hooks for Prometheus multiprocess metrics (imported by ``gunicorn.conf.py``).

Importing this module in the gunicorn master points ``PROMETHEUS_MULTIPROC_DIR`` at a fresh
directory when it is not set, before any worker imports ``prometheus_client``; ``on_starting``
empties it and ``child_exit`` drops a dead worker's live gauges. Nothing heavy is imported at the
top, so loading the gunicorn config stays cheap.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"

if not os.environ.get(MULTIPROC_ENV):
    os.environ[MULTIPROC_ENV] = tempfile.mkdtemp(prefix="tunk-metrics-")


def on_starting(server: Any) -> None:
    """Empty the metrics directory: figures of an earlier run must not be summed in."""
    directory = Path(os.environ[MULTIPROC_ENV])
    directory.mkdir(parents=True, exist_ok=True)
    for path in directory.glob("*.db"):
        path.unlink(missing_ok=True)


def child_exit(server: Any, worker: Any) -> None:
    """A worker died: remove its live gauge files (counters and histograms keep counting)."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)
