"""The scale-out shape with real parts on loopback: nginx, two gunicorn replicas, a shared Redis
Cluster (3 masters + 3 replicas) or a Sentinel group (master, replica, 3 Sentinels).

Everything is started by ``harness/scaleout.py`` (the same code as ``bash scripts/scale``) on free
127.0.0.1 ports. Load comes from threads of this process over loopback, bounded in time and count.
What is proven:

- an answer computed on replica A is a HIT on replica B (the cluster is the shared cache);
- a gunicorn instance SIGKILLed during load: nginx retries the requests it had in flight on the
  other replica and routes around it; no request fails; the retries are counted from nginx's
  access log (``$upstream_addr`` lists both replicas);
- a cluster master SIGKILLed during load: its replica is promoted, no request fails (answers are
  BYPASS while the slot is unreachable, HIT again after the promotion); the figures are printed;
- the Sentinel master SIGKILLed: the Sentinels promote the replica, the service follows it, no
  request fails.

The load runs here are short (seconds) to stay inside the CI budget; ``bench/bench_failover.py``
runs the same scenarios for 30 s and prints the same figures.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from harness.loadgen import MELDS, LoadReport, load, melds_requests, request, sweep
from harness.scaleout import (
    Deployment,
    RedisClusterNodes,
    SentinelGroup,
    deployment,
    node_client,
)
from tests.support.bodies import CLUSTER_CACHE_UP

pytestmark = pytest.mark.slow

POOL = 240  # distinct requests cycled by the load (keys spread over all three masters)
CONCURRENCY = 4
KILL_AT = 2.0  # seconds into a load run
MAX_RUN = 40.0  # upper bound of a failover load run; it ends AFTER_RECOVERY s after recovery
AFTER_RECOVERY = 3.0


def fmt(seconds: float | None) -> str:
    """``+1.23s`` after the kill, or ``-`` when it did not happen."""
    return "-" if seconds is None else f"+{seconds:.2f}s"


def show(capsys: pytest.CaptureFixture[str], *lines: str) -> None:
    """Print figures to the terminal even when pytest captures output."""
    with capsys.disabled():
        print()
        for line in lines:
            print("    " + line)


@pytest.fixture(scope="module")
def cluster_dep(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    with deployment(tmp_path_factory.mktemp("scale-cluster"), redis_mode="cluster") as dep:
        yield dep


@pytest.fixture(scope="module")
def sentinel_dep(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    with deployment(
        tmp_path_factory.mktemp("scale-sentinel"), redis_mode="sentinel", workers=1
    ) as dep:
        yield dep


def warm(dep: Deployment, requests: list[tuple[str, Any]]) -> None:
    """Send every request through nginx until it is a HIT, so the load that follows is all HITs
    (on a busy machine a Redis reply can miss its 100 ms timeout: that answer is a BYPASS and
    was not stored, so it is asked again)."""
    for path, body in requests:
        answer = request(dep.nginx.port, "POST", path, body)
        assert answer.status == 200, answer
    assert sweep(dep.nginx.port, requests) == {"HIT": len(requests)}


def assert_no_failures(report: LoadReport) -> None:
    failed = report.failed()
    assert not failed, f"{len(failed)} failed requests, first: {failed[:3]}"
    # Warmed requests only: every answer is a HIT, or a BYPASS while Redis was unreachable.
    assert {s.cache for s in report.samples} <= {"HIT", "BYPASS"}


def shared_after_failover(dep: Deployment, seed: int, count: int = 40) -> dict[str, int]:
    """New requests computed on replica A, then asked of replica B: HITs prove the (failed-over)
    Redis is shared and written to again. A request may be a BYPASS for up to a breaker
    cool-down after the failover, so each side is retried a few times; returns B's X-Cache
    counts."""
    a, b = dep.replicas
    counts: dict[str, int] = {}
    for path, body in melds_requests(count, seed=seed):
        for _ in range(10):
            if request(a.port, "POST", path, body).cache in {"MISS", "HIT"}:
                break
            time.sleep(0.3)
        for _ in range(10):
            answer = request(b.port, "POST", path, body)
            if answer.cache == "HIT":
                break
            time.sleep(0.3)
        counts[answer.cache] = counts.get(answer.cache, 0) + 1
    return counts


@dataclass
class FailoverRun:
    """A load run through nginx during which a Redis master was SIGKILLed at ``KILL_AT``."""

    report: LoadReport
    killed_at: float  # seconds into the run
    recovered_after: float | None  # seconds from the kill to the failover; None: it never came
    final: dict[str, int]  # X-Cache counts of every warmed request asked once more afterwards
    shared: dict[str, int]  # X-Cache counts on B of new requests computed on A afterwards


def failover_under_load(
    dep: Deployment,
    requests: list[tuple[str, Any]],
    kill: Callable[[], object],
    wait_recovered: Callable[[float], float],
    seed: int,
) -> FailoverRun:
    """Load ``dep`` through nginx with ``requests``; at ``KILL_AT`` call ``kill``, then
    ``wait_recovered(MAX_RUN)`` (seconds the failover took), keep loading ``AFTER_RECOVERY`` s
    more (the workers' breakers close again) and stop; then sweep the warmed requests and check
    new ones are shared between the replicas."""
    recovery: dict[str, float] = {}
    done = threading.Event()

    def kill_master() -> None:
        kill()
        try:
            recovery["seconds"] = wait_recovered(MAX_RUN)
            time.sleep(AFTER_RECOVERY)  # keep loading: the workers' breakers close again
        finally:
            done.set()

    report, ran = load(
        dep.nginx.port,
        requests,
        seconds=MAX_RUN,
        concurrency=CONCURRENCY,
        events={KILL_AT: kill_master},
        stop=done,
    )
    final = sweep(dep.nginx.port, requests)
    shared = shared_after_failover(dep, seed=seed)
    return FailoverRun(report, ran[KILL_AT], recovery.get("seconds"), final, shared)


def fmt_after(seconds: float | None) -> str:
    """``1.23`` (seconds), or ``nan`` when it did not happen."""
    return f"{float('nan') if seconds is None else seconds:.2f}"


def test_answer_computed_on_one_replica_is_a_hit_on_the_other(cluster_dep: Deployment) -> None:
    a, b = cluster_dep.replicas
    # Golden, by hand (GFF-2): 4-5-6 of hearts is a run, 9C and KD are left: 9 + 10 = 19 points.
    body = {"hand": ["4H", "5H", "6H", "9C", "KD"]}
    first = request(a.port, "POST", MELDS, body)
    assert (first.status, first.cache) == (200, "MISS"), first
    assert first.body["best"]["deadwood_points"] == 19
    assert sorted(first.body["best"]["deadwood"]) == ["9C", "KD"]
    # Same hand written differently, on the other replica: the canonical entry is shared.
    second = request(b.port, "POST", MELDS, {"hand": ["kd", "9c", "6h", "5h", "4h"]})
    assert (second.status, second.cache) == (200, "HIT"), second
    assert second.body == first.body
    via_lb = request(cluster_dep.nginx.port, "POST", MELDS, body)
    assert (via_lb.status, via_lb.cache, via_lb.body) == (200, "HIT", first.body)

    ready = request(cluster_dep.nginx.port, "GET", "/readyz")
    assert ready.status == 200
    # /readyz also reports the worker's breaker, namespace and round trip.
    assert ready.body["cache"].items() >= CLUSTER_CACHE_UP.items()


def test_keys_spread_over_every_master(cluster_dep: Deployment) -> None:
    """Single-key commands only: entries land on all three masters (no hash tags needed)."""
    warm(cluster_dep, melds_requests(60, seed=11))
    counts = []
    assert isinstance(cluster_dep.redis, RedisClusterNodes)
    for port in cluster_dep.redis.masters():
        with node_client(port) as client:
            counts.append(int(client.dbsize()))
    assert len(counts) == 3 and all(count > 0 for count in counts), counts


def test_gunicorn_instance_killed_during_load(
    cluster_dep: Deployment, capsys: pytest.CaptureFixture[str]
) -> None:
    requests = melds_requests(POOL, seed=1)
    warm(cluster_dep, requests)
    victim = cluster_dep.replicas[1]
    before = len(cluster_dep.nginx.log_entries())
    report, ran = load(
        cluster_dep.nginx.port,
        requests,
        seconds=6.0,
        concurrency=CONCURRENCY,
        events={2.0: victim.kill},
    )
    entries = cluster_dep.nginx.log_entries()[before:]
    retried = [e for e in entries if len(e.upstreams) > 1]
    killed_at = ran[2.0]
    after = [s for s in report.samples if s.started > killed_at + 0.5]
    show(
        capsys,
        f"gunicorn replica SIGKILLed at +{killed_at:.2f}s of a {report.wall:.1f}s load run",
        report.summary(),
        f"failed requests: {len(report.failed())}; retried by nginx on the other replica: "
        f"{len(retried)} (e.g. {retried[0].upstreams if retried else '-'} "
        f"-> {retried[0].upstream_status if retried else '-'})",
    )
    try:
        assert_no_failures(report)
        assert len(after) > 0
        # The first request sent to the dead replica is retried (max_fails=1 then marks it down).
        assert retried, "nginx retried nothing"
        assert all(e.status == 200 for e in entries), [e for e in entries if e.status != 200]
        assert all(e.upstreams[-1] != victim.address for e in retried)
    finally:
        victim.start()  # same port: nginx takes it back after fail_timeout


def test_cluster_master_killed_during_load(
    cluster_dep: Deployment, capsys: pytest.CaptureFixture[str]
) -> None:
    cluster = cluster_dep.redis
    assert isinstance(cluster, RedisClusterNodes)
    requests = melds_requests(POOL, seed=2)
    warm(cluster_dep, requests)
    master = cluster.masters()[0]
    replica = cluster.replica_of(master)
    run = failover_under_load(
        cluster_dep,
        requests,
        lambda: cluster.kill(master),
        lambda timeout: cluster.wait_promoted(replica, timeout),
        seed=21,
    )
    report, killed_at, final, shared = run.report, run.killed_at, run.final, run.shared
    first_bypass, last_bypass = report.bypass_window(killed_at)
    resumed = report.hits_resume(killed_at)
    show(
        capsys,
        f"cluster master :{master} SIGKILLed at +{killed_at:.2f}s of a {report.wall:.1f}s run; "
        f"replica :{replica} promoted after {fmt_after(run.recovered_after)}s",
        report.summary(),
        f"failed requests: {len(report.failed())}; BYPASS answers: {report.count('BYPASS')} "
        f"(first {fmt(first_bypass)}, last {fmt(last_bypass)} after the kill); HITs resume "
        f"{fmt(resumed)} after the kill; worst latency {report.worst() * 1000:.0f} ms",
        f"afterwards, every warmed request once more: {final}; "
        f"new requests computed on A, asked of B: {shared}",
    )
    assert_no_failures(report)
    assert run.recovered_after is not None, "the replica was not promoted"
    assert replica in cluster.masters() and master not in cluster.masters()
    # The promoted replica serves its copy: every warmed answer is a HIT again, and answers
    # written after the failover are shared between the replicas (all slots, new master too).
    assert final == {"HIT": len(requests)}
    assert shared == {"HIT": 40}
    ready = request(cluster_dep.nginx.port, "GET", "/readyz")
    assert ready.body["cache"]["slots_covered"] is True, ready.body
    assert ready.body["cache"]["slots_ok"] == 16384


def test_sentinel_master_killed_during_load(
    sentinel_dep: Deployment, capsys: pytest.CaptureFixture[str]
) -> None:
    group = sentinel_dep.redis
    assert isinstance(group, SentinelGroup)
    requests = melds_requests(POOL // 2, seed=3)
    warm(sentinel_dep, requests)
    ready = request(sentinel_dep.nginx.port, "GET", "/readyz")
    old_master = group.current_master()
    # /readyz also reports the worker's breaker, namespace and round trip.
    assert (
        ready.body["cache"].items()
        >= {
            "backend": "redis",
            "state": "up",
            "mode": "sentinel",
            "service": "tunk",
            "master": f"127.0.0.1:{old_master}",
        }.items()
    )
    run = failover_under_load(
        sentinel_dep,
        requests,
        group.kill_master,
        lambda timeout: group.wait_failover(old_master, timeout),
        seed=31,
    )
    report, killed_at, final, shared = run.report, run.killed_at, run.final, run.shared
    first_bypass, last_bypass = report.bypass_window(killed_at)
    show(
        capsys,
        f"sentinel master :{old_master} SIGKILLed at +{killed_at:.2f}s of a {report.wall:.1f}s "
        f"run; Sentinels named the new master after {fmt_after(run.recovered_after)}s",
        report.summary(),
        f"failed requests: {len(report.failed())}; BYPASS answers: {report.count('BYPASS')} "
        f"(first {fmt(first_bypass)}, last {fmt(last_bypass)} after the kill); HITs resume "
        f"{fmt(report.hits_resume(killed_at))} after the kill; worst latency "
        f"{report.worst() * 1000:.0f} ms",
        f"afterwards, every warmed request once more: {final}; "
        f"new requests computed on A, asked of B: {shared}",
    )
    assert_no_failures(report)
    assert run.recovered_after is not None
    new_master = group.current_master()
    assert new_master == group.replica_port != old_master
    ready = request(sentinel_dep.nginx.port, "GET", "/readyz")
    assert ready.body["cache"]["master"] == f"127.0.0.1:{new_master}"
    # The new master is followed: the answers it holds (replicated before the kill) are HITs,
    # and new answers are written to it and shared by both replicas.
    assert final == {"HIT": len(requests)}
    assert shared == {"HIT": 40}


def test_cluster_client_uses_the_configured_timeouts(cluster_dep: Deployment) -> None:
    """The node connections the cluster client really opens carry the same bounds as one Redis."""
    from api.cache.redis_conn import connect

    client, mode = connect(cluster_dep.redis.url, socket_timeout=0.1, connect_timeout=0.05)
    try:
        assert client.set("tunk:probe", "1", ex=5) is True
        for node in client.get_nodes():
            kwargs = node.redis_connection.connection_pool.connection_kwargs
            assert (kwargs["socket_timeout"], kwargs["socket_connect_timeout"]) == (0.1, 0.05)
            assert kwargs["retry"].get_retries() == 0
        assert client.client.retry.get_retries() == 0  # no cluster-level retries either
    finally:
        client.close()


def test_workdir_is_loopback_only(cluster_dep: Deployment) -> None:
    """Every part listens on 127.0.0.1 (nothing leaves the machine)."""
    text = Path(cluster_dep.nginx.workdir / "tunk.conf").read_text()
    assert "listen 127.0.0.1:" in text
    assert all(address.startswith("127.0.0.1:") for address in cluster_dep.nginx.upstreams)
    assert cluster_dep.redis.url.startswith("redis+cluster://127.0.0.1:")
