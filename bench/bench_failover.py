"""Failure runs of the scale-out shape under load (the long versions of the integration tests).

    python -m bench.bench_failover                      # 30 s per scenario, all three
    python -m bench.bench_failover --seconds 60 --only cluster --concurrency 8

Starts the reference deployment from ``harness/scaleout.py`` on loopback (nginx, 2 gunicorn
replicas of 2 gthread workers x 2 threads, Redis Cluster 3+3 or Sentinel 1+1+3), warms the cache
with ``--pool`` distinct melds requests, then loads nginx for ``--seconds`` from this process
(``--concurrency`` keep-alive clients) and kills one part a third of the way in:

- ``gunicorn``  SIGKILL one replica (master and workers); it is restarted after the run;
- ``cluster``   SIGKILL one Redis Cluster master; its replica is promoted by the cluster;
- ``sentinel``  SIGKILL the Sentinel-managed master; the Sentinels promote the replica.

Printed per scenario: requests, rate, status counts, HIT/MISS/BYPASS, p50/p99/worst latency,
failed requests (no 200), nginx retries (requests whose ``$upstream_addr`` lists two replicas),
the BYPASS window and the time until HITs resume after the kill, and the promotion time.
Bounded by ``--seconds`` and loopback only. Exit status 1 if any request failed.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path

from harness.loadgen import load, melds_requests, request
from harness.scaleout import (
    Deployment,
    RedisClusterNodes,
    SentinelGroup,
    deployment,
)

REPO_ROOT = Path(__file__).resolve().parent.parent


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"+{value:.2f}s"


def run(dep: Deployment, scenario: str, seconds: float, concurrency: int, pool: int) -> int:
    """One scenario on a running deployment; prints its figures, returns the failed count."""
    requests = melds_requests(pool, seed={"gunicorn": 1, "cluster": 2, "sentinel": 3}[scenario])
    for path, body in requests:
        request(dep.nginx.port, "POST", path, body)
    at = seconds / 3
    extra: dict[str, float] = {}
    before = len(dep.nginx.log_entries())

    if scenario == "gunicorn":
        victim = dep.replicas[1]

        def action() -> None:
            victim.kill()

    elif scenario == "cluster":
        cluster = dep.redis
        assert isinstance(cluster, RedisClusterNodes)
        master = cluster.masters()[0]
        replica = cluster.replica_of(master)

        def action() -> None:
            cluster.kill(master)
            extra["promoted after"] = cluster.wait_promoted(replica, seconds)

    else:
        group = dep.redis
        assert isinstance(group, SentinelGroup)
        old = group.current_master()

        def action() -> None:
            group.kill_master()
            extra["sentinels follow after"] = group.wait_failover(old, seconds)

    report, ran = load(
        dep.nginx.port,
        requests,
        seconds=seconds,
        concurrency=concurrency,
        max_requests=10_000_000,
        events={at: lambda: threading.Thread(target=action).start()},
    )
    killed = ran[at]
    entries = dep.nginx.log_entries()[before:]
    retried = [e for e in entries if len(e.upstreams) > 1]
    first, last = report.bypass_window(killed)
    print(f"== {scenario}: killed at +{killed:.2f}s of {report.wall:.1f}s, {concurrency} clients")
    print(f"   {report.summary()}")
    print(
        f"   failed requests {len(report.failed())}; nginx retries {len(retried)}; "
        f"BYPASS {report.count('BYPASS')} (first {_fmt(first)}, last {_fmt(last)} after the "
        f"kill); HITs resume {_fmt(report.hits_resume(killed))} after the kill; worst latency "
        f"{report.worst() * 1000:.0f} ms"
        + "".join(f"; {name} {value:.2f}s" for name, value in extra.items())
    )
    if scenario == "gunicorn":
        dep.replicas[1].start()
    return len(report.failed())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="load run per scenario")
    parser.add_argument("--concurrency", type=int, default=4, help="client threads")
    parser.add_argument("--pool", type=int, default=400, help="distinct requests cycled")
    parser.add_argument(
        "--only", choices=["gunicorn", "cluster", "sentinel"], action="append", default=None
    )
    args = parser.parse_args(argv)
    scenarios = args.only or ["gunicorn", "cluster", "sentinel"]
    failed = 0
    workdir = Path(tempfile.mkdtemp(prefix="tunk-failover-"))
    if {"gunicorn", "cluster"} & set(scenarios):
        with deployment(workdir / "cluster", redis_mode="cluster") as dep:
            for scenario in ("gunicorn", "cluster"):
                if scenario in scenarios:
                    failed += run(dep, scenario, args.seconds, args.concurrency, args.pool)
    if "sentinel" in scenarios:
        with deployment(workdir / "sentinel", redis_mode="sentinel") as dep:
            failed += run(dep, "sentinel", args.seconds, args.concurrency, args.pool)
    print(f"total failed requests: {failed}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
