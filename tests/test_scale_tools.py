"""The parsers behind the scale-out figures: ``CLUSTER NODES``, nginx's access log, load reports.

These decide what the failover tests and benchmarks print and assert (which node is a master, how
many requests nginx retried, when BYPASS answers stopped), so they get literal inputs here.
"""

from __future__ import annotations

from pathlib import Path

from harness.loadgen import LoadReport, Sample
from harness.scaleout import Nginx, _parse_cluster_nodes

# Three masters (7000-7002) with a replica each; 7000 has failed and its replica 7003 took over.
CLUSTER_NODES = """\
a000 127.0.0.1:7000@17000 master,fail - 1700000000000 1700000000000 1 disconnected
a001 127.0.0.1:7001@17001 myself,master - 0 0 2 connected 5461-10922
a002 127.0.0.1:7002@17002 master - 0 1700000000000 3 connected 10923-16383
a003 127.0.0.1:7003@17003 master - 0 1700000000000 7 connected 0-5460
a004 127.0.0.1:7004@17004 slave a001 0 1700000000000 2 connected
a005 127.0.0.1:7005@17005 slave a002 0 1700000000000 3 connected
"""


def test_cluster_nodes_after_a_failover() -> None:
    assert _parse_cluster_nodes(CLUSTER_NODES) == {
        7001: None,
        7002: None,
        7003: None,  # the promoted replica
        7004: 7001,
        7005: 7002,
    }  # 7000 (failed) is left out


def test_nginx_log_counts_retries(tmp_path: Path) -> None:
    nginx = Nginx(tmp_path, ["127.0.0.1:8001", "127.0.0.1:8002"], port=9)
    nginx.access_log.write_text(
        '1.000 200 "POST /v1/games/game-flip-flop/melds HTTP/1.1" upstream=[127.0.0.1:8001] '
        "upstream_status=[200] rt=0.004 cache=HIT\n"
        '1.100 200 "POST /v1/games/game-flip-flop/melds HTTP/1.1" '
        "upstream=[127.0.0.1:8002, 127.0.0.1:8001] upstream_status=[502, 200] rt=0.010 "
        "cache=HIT\n"
        '1.200 502 "GET /readyz HTTP/1.1" upstream=[127.0.0.1:8002, 127.0.0.1:8001 : '
        "127.0.0.1:8002] upstream_status=[502, 502 : 502] rt=0.010 cache=-\n"
        "garbage line\n"
    )
    entries = nginx.log_entries()
    assert [e.upstreams for e in entries] == [
        ("127.0.0.1:8001",),
        ("127.0.0.1:8002", "127.0.0.1:8001"),
        ("127.0.0.1:8002", "127.0.0.1:8001", "127.0.0.1:8002"),
    ]
    assert [e.status for e in entries] == [200, 200, 502]
    assert [e.cache for e in entries] == ["HIT", "HIT", "-"]
    assert len(nginx.retried()) == 2


def sample(started: float, cache: str, status: int = 200, seconds: float = 0.01) -> Sample:
    return Sample(started, seconds, status, cache)


def test_load_report_figures() -> None:
    report = LoadReport(
        [
            sample(0.5, "HIT"),
            sample(1.0, "HIT", seconds=0.2),
            sample(2.1, "BYPASS"),  # the kill happened at 2.0
            sample(2.5, "HIT"),  # another slot: still a HIT
            sample(3.0, "BYPASS"),
            sample(3.2, "-", status=0),  # no answer at all
            sample(3.4, "HIT"),
            sample(3.9, "HIT"),
        ],
        wall=4.0,
    )
    assert [s.started for s in report.failed()] == [3.2]
    assert (report.count("HIT"), report.count("BYPASS")) == (5, 2)
    first, last = report.bypass_window(2.0)
    assert first is not None and last is not None
    assert (round(first, 6), round(last, 6)) == (0.1, 1.0)
    resumed = report.hits_resume(2.0)
    assert resumed is not None and round(resumed, 6) == 1.4  # first HIT after the last BYPASS
    assert report.worst() == 0.2
    assert report.percentile(50) == 0.01
    assert report.bypass_window(3.5) == (None, None) and report.hits_resume(3.5) is None
    assert LoadReport([sample(2.5, "BYPASS")], 3.0).hits_resume(2.0) == float("inf")
