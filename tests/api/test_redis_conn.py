"""``REDIS_URL`` forms (one Redis, Cluster, Sentinel, TLS) and their errors, without a server.

``connect`` must not touch the network, so every client here is built against addresses nothing
listens on; what is checked is the client's configuration: its class, the nodes it will ask, the
TLS connection class, and that the timeouts and the no-retry policy are the same in every mode.
The behaviour against real clusters and Sentinels is in ``tests/integration/test_scaleout.py``.
"""

from __future__ import annotations

from typing import Any

import pytest
import redis
from conftest import free_port
from redis.cluster import ClusterNode
from redis.connection import SSLConnection, UnixDomainSocketConnection
from redis.sentinel import SentinelConnectionPool, SentinelManagedSSLConnection

from api.cache.redis_conn import LazyCluster, RedisUrlError, connect, describe
from api.config import SettingsError

TIMEOUTS = {"socket_timeout": 0.1, "connect_timeout": 0.05}


def connection_kwargs(client: Any) -> dict[str, Any]:
    kwargs: dict[str, Any] = client.connection_pool.connection_kwargs
    return kwargs


def assert_same_timeouts(kwargs: dict[str, Any]) -> None:
    assert kwargs["socket_timeout"] == 0.1
    assert kwargs["socket_connect_timeout"] == 0.05
    assert kwargs["retry"].get_retries() == 0


def test_standalone_url() -> None:
    client, mode = connect("redis://cache.example:6380/2", **TIMEOUTS)
    assert mode == "standalone"
    assert isinstance(client, redis.Redis)
    kwargs = connection_kwargs(client)
    assert (kwargs["host"], kwargs["port"], kwargs["db"]) == ("cache.example", 6380, 2)
    assert_same_timeouts(kwargs)
    assert describe(client, mode) == {"mode": "standalone"}


def test_standalone_tls_and_unix_socket() -> None:
    tls, mode = connect("rediss://:secret@cache.example:6380/0?ssl_cert_reqs=none", **TIMEOUTS)
    assert mode == "standalone"
    assert tls.connection_pool.connection_class is SSLConnection
    assert connection_kwargs(tls)["password"] == "secret"
    unix, mode = connect("unix:///run/redis/redis.sock?db=3", **TIMEOUTS)
    assert mode == "standalone"
    assert unix.connection_pool.connection_class is UnixDomainSocketConnection
    assert connection_kwargs(unix)["path"] == "/run/redis/redis.sock"
    assert_same_timeouts(connection_kwargs(unix))


def test_cluster_url_lists_startup_nodes_and_keeps_the_timeouts() -> None:
    client, mode = connect("redis+cluster://10.0.0.1:7000,10.0.0.2:7001,[::1]:7002", **TIMEOUTS)
    assert mode == "cluster"
    assert isinstance(client, LazyCluster) and not client.built  # no network at start-up
    nodes = client.options["startup_nodes"]
    assert [(n.host, n.port) for n in nodes] == [
        ("10.0.0.1", 7000),
        ("10.0.0.2", 7001),
        ("::1", 7002),
    ]
    assert all(isinstance(n, ClusterNode) for n in nodes)
    assert_same_timeouts(client.options)
    assert client.options["require_full_coverage"] is False
    assert "ssl" not in client.options


def test_cluster_url_with_auth_tls_and_default_port() -> None:
    client, mode = connect(
        "rediss+cluster://app:p%40ss@node-a,node-b:7001/?ssl_ca_certs=/etc/ca.pem", **TIMEOUTS
    )
    assert mode == "cluster"
    assert isinstance(client, LazyCluster)
    options = client.options
    assert (options["username"], options["password"]) == ("app", "p@ss")
    assert options["ssl"] is True and options["ssl_ca_certs"] == "/etc/ca.pem"
    assert [(n.host, n.port) for n in options["startup_nodes"]] == [
        ("node-a", 6379),
        ("node-b", 7001),
    ]


def test_sentinel_url_follows_the_named_service() -> None:
    client, mode = connect("redis+sentinel://10.0.0.1:26379,10.0.0.2/tunk/3", **TIMEOUTS)
    assert mode == "sentinel"
    pool = client.connection_pool
    assert isinstance(pool, SentinelConnectionPool)
    assert pool.service_name == "tunk"
    sentinels = pool.sentinel_manager.sentinels
    assert [connection_kwargs(s)["port"] for s in sentinels] == [26379, 26379]
    assert [connection_kwargs(s)["host"] for s in sentinels] == ["10.0.0.1", "10.0.0.2"]
    assert connection_kwargs(client)["db"] == 3
    assert_same_timeouts(connection_kwargs(client))
    for sentinel in sentinels:  # asking a Sentinel is bounded the same way
        assert_same_timeouts(connection_kwargs(sentinel))


def test_sentinel_tls_and_passwords() -> None:
    client, _ = connect(
        "rediss+sentinel://:datapw@s1:26379/tunk?sentinel_password=sentpw", **TIMEOUTS
    )
    pool = client.connection_pool
    assert pool.connection_class is SentinelManagedSSLConnection
    assert connection_kwargs(client)["password"] == "datapw"
    (sentinel,) = pool.sentinel_manager.sentinels
    assert connection_kwargs(sentinel)["password"] == "sentpw"
    assert sentinel.connection_pool.connection_class is SSLConnection


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("http://cache:6379", "unknown scheme 'http'"),
        ("cache:6379", "unknown scheme ''"),
        ("redis://cache:port/0", "the port must be a number"),
        ("redis://cache:6379/zero", "the database must be a number, got 'zero'"),
        ("unix://", "needs the socket path"),
        ("redis://cache:6379/0?socket_timeout=5", "option 'socket_timeout' is not accepted"),
        ("redis+cluster://", "empty host"),
        ("redis+cluster://a:7000,,b:7001", "empty host"),
        ("redis+cluster://a:70000", "bad port '70000'"),
        ("redis+cluster://a:x", "bad port 'x'"),
        ("redis+cluster://[::1:7000", "write IPv6 hosts as [address]:port"),
        ("redis+cluster://[::1]x", "bad IPv6 host"),
        ("redis+cluster://a:7000/1", "only database 0"),
        ("redis+cluster://a:7000/?read_from_replicas=1", "unknown option 'read_from_replicas'"),
        ("redis+cluster://a:7000/?ssl_ca_certs=/x", "need a TLS scheme"),
        ("rediss+cluster://a:7000/?ssl_cert_reqs=maybe", "ssl_cert_reqs must be"),
        ("redis+sentinel://s:26379", "the service name is missing"),
        ("redis+sentinel://s:26379/", "the service name is missing"),
        ("redis+sentinel://s:26379/tunk/x", "/service_name/db"),
        ("redis+sentinel://s:26379/tunk/0/extra", "/service_name/db"),
        ("redis+sentinel://:26379/tunk", "host missing"),
    ],
)
def test_bad_urls_name_the_problem(url: str, reason: str) -> None:
    with pytest.raises(RedisUrlError) as error:
        connect(url, **TIMEOUTS)
    assert isinstance(error.value, SettingsError)  # stops the service at start-up
    assert str(error.value).startswith("REDIS_URL ")
    assert reason in str(error.value)


def test_passwords_are_not_echoed_in_errors() -> None:
    with pytest.raises(RedisUrlError) as error:
        connect("redis+cluster://app:hunter2@a:7000/?bogus=1", **TIMEOUTS)
    assert "hunter2" not in str(error.value)
    assert "app:***@a:7000" in str(error.value)
    with pytest.raises(RedisUrlError) as error:
        connect("redis+sentinel://s:26379/tunk?sentinel_password=hunter2&bogus=1", **TIMEOUTS)
    assert "hunter2" not in str(error.value) and "sentinel_password=***" in str(error.value)


def test_app_refuses_a_bad_url_at_start_up(make_app: Any) -> None:
    with pytest.raises(SettingsError, match="REDIS_URL .*unknown scheme 'memcached'"):
        make_app(REDIS_URL="memcached://cache:11211")


def test_unreachable_cluster_starts_and_bypasses(make_probe_app: Any) -> None:
    """Like a single Redis: the service starts without its cluster and answers BYPASS."""
    port = free_port()
    app = make_probe_app(REDIS_URL=f"redis+cluster://127.0.0.1:{port}", BREAKER_COOLDOWN_SECONDS=60)
    client = app.test_client()
    for _ in range(4):  # three failures open the circuit; the fourth never calls Redis
        answer = client.post("/v1/probe/game-flip-flop/echo", json={"hand": ["AS", "TH"]})
        assert answer.status_code == 200 and answer.headers["X-Cache"] == "BYPASS"
        assert answer.get_json() == {"game": "game-flip-flop", "hand": ["AS", "TH"], "size": 2}
    ready = client.get("/readyz")
    assert ready.status_code == 200
    # /readyz also reports the worker's breaker, namespace and round trip.
    assert (
        ready.get_json()["cache"].items()
        >= {
            "backend": "redis",
            "state": "open-circuit",
            "mode": "cluster",
            "slots_covered": False,
            "slots_ok": 0,
            "cluster_state": "unreachable",
        }.items()
    )


def test_unreachable_sentinels_bypass_and_report_no_master(make_probe_app: Any) -> None:
    ports = ",".join(f"127.0.0.1:{free_port()}" for _ in range(3))
    app = make_probe_app(REDIS_URL=f"redis+sentinel://{ports}/tunk")
    client = app.test_client()
    answer = client.post("/v1/probe/game-flip-flop/echo", json={"hand": ["AS"]})
    assert answer.status_code == 200 and answer.headers["X-Cache"] == "BYPASS"
    cache = client.get("/readyz").get_json()["cache"]
    assert cache["mode"] == "sentinel"
    assert (cache["service"], cache["master"]) == ("tunk", None)
