"""How many gunicorn workers a container should run: from its CPU quota, not the host's CPUs.

A container limited to 1.5 CPUs on a 64-core host sees ``os.cpu_count() == 64``; the limit is in
the cgroup: ``cpu.max`` (cgroup v2, ``"150000 100000"`` = quota and period in microseconds, or
``"max 100000"`` for no limit) or ``cpu.cfs_quota_us`` / ``cpu.cfs_period_us`` (cgroup v1).

    python -m api.server.cpu_quota        # prints the worker count (used by scripts/docker-start)
"""

from __future__ import annotations

import math
import os
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
MAX_DEFAULT_WORKERS = 9


def cpu_quota(root: Path = CGROUP_ROOT) -> float | None:
    """CPUs the cgroup may use (e.g. 1.5), or None when it sets no limit or cannot be read."""
    try:
        v2 = root / "cpu.max"
        if v2.exists():
            quota, period = v2.read_text().split()[:2]
            return None if quota == "max" else int(quota) / int(period)
        v1 = root / "cpu" if (root / "cpu").is_dir() else root
        quota_us = int((v1 / "cpu.cfs_quota_us").read_text())
        period_us = int((v1 / "cpu.cfs_period_us").read_text())
    except (OSError, ValueError):
        return None
    return None if quota_us <= 0 or period_us <= 0 else quota_us / period_us


def available_cpus(root: Path = CGROUP_ROOT) -> int:
    """Whole CPUs this process may use: the quota rounded up, the affinity mask, the host."""
    visible = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    cpus = visible or os.cpu_count() or 1
    quota = cpu_quota(root)
    if quota is not None:
        cpus = min(cpus, max(1, math.ceil(quota)))
    return cpus


def default_workers(cpus: int) -> int:
    """gunicorn's usual 2 x CPUs + 1, capped (the analysis is CPU-bound pure Python)."""
    return min(2 * cpus + 1, MAX_DEFAULT_WORKERS)


if __name__ == "__main__":
    print(default_workers(available_cpus()))
