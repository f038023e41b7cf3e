"""Redis clients from ``REDIS_URL``: one Redis, a Redis Cluster, or a Sentinel-managed master.

``connect(url, socket_timeout=..., connect_timeout=...)`` turns the URL into a redis-py client and
its mode; ``describe(client, mode)`` is what ``/readyz`` reports about it. The URL forms:

==================================================================  ===========  ================
URL                                                                 mode         client
==================================================================  ===========  ================
``redis://[user:pass@]host[:port][/db]``, ``rediss://...`` (TLS)    standalone   ``redis.Redis``
``unix:///path/redis.sock[?db=N]``                                  standalone   ``redis.Redis``
``redis+cluster://host:port[,host:port...][/?options]``             cluster      ``RedisCluster``
``redis+sentinel://host:port[,host:port...]/service_name[/db]``     sentinel     ``master_for``
==================================================================  ===========  ================

``rediss+cluster://`` and ``rediss+sentinel://`` use TLS for every connection (redis-py's
``SSLConnection``); ``ssl_cert_reqs``, ``ssl_ca_certs``, ``ssl_certfile`` and ``ssl_keyfile`` are
accepted as query options with a TLS scheme. A cluster URL lists any reachable nodes: the client
asks one of them for the slot map (``CLUSTER SLOTS``) and follows ``MOVED``/``ASK`` redirections
and failovers itself; no sharding is done here. A sentinel URL lists the Sentinels and names the
monitored service: every new connection asks a Sentinel for the current master, so a promoted
replica is followed after a failover. ``sentinel_password`` (query) authenticates to the
Sentinels; user and password in the URL authenticate to the data nodes.

Timeouts are the same in every mode and cannot be changed from the URL: ``connect_timeout`` to
open a connection, ``socket_timeout`` per reply, no retries (a retry doubles the worst case; the
cache's circuit breaker deals with a Redis that stays away) and no health-check round trips. The
cluster client is created lazily, on the first command, so the service starts (and answers with
``X-Cache: BYPASS``) while the cluster is unreachable, exactly as with a single Redis.

Key layout: every cache entry is one string key read with ``GET`` and written with ``SET ... EX``.
No command ever names two keys, so keys never need to share a hash slot and carry no ``{hash
tag}``; they spread evenly over the cluster's 16,384 slots.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Mapping
from typing import Any, Final, Literal
from urllib.parse import SplitResult, parse_qs, unquote, urlsplit

import redis
from redis.backoff import NoBackoff
from redis.cluster import ClusterNode, RedisCluster
from redis.connection import ConnectionPool
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.retry import Retry
from redis.sentinel import Sentinel, SentinelConnectionPool

from api.config import SettingsError

Mode = Literal["standalone", "cluster", "sentinel"]
CLUSTER_SLOTS: Final = 16384
DEFAULT_PORT: Final = 6379
DEFAULT_SENTINEL_PORT: Final = 26379
STANDALONE_SCHEMES: Final = ("redis", "rediss", "unix")
CLUSTER_SCHEMES: Final = ("redis+cluster", "rediss+cluster")
SENTINEL_SCHEMES: Final = ("redis+sentinel", "rediss+sentinel")
TLS_OPTIONS: Final = ("ssl_cert_reqs", "ssl_ca_certs", "ssl_certfile", "ssl_keyfile")
SENTINEL_OPTIONS: Final = ("sentinel_password",)
TIMEOUT_OPTIONS: Final = (
    "socket_timeout",
    "socket_connect_timeout",
    "retry_on_timeout",
    "health_check_interval",
)
DESCRIBE_NODES_TRIED: Final = 3
"""``describe`` asks at most this many cluster nodes before reporting the cluster unreachable."""


class RedisUrlError(SettingsError):
    """``REDIS_URL`` cannot be turned into a client; the message says which part and why."""


def _fail(url: str, reason: str) -> RedisUrlError:
    return RedisUrlError(f"REDIS_URL {_redacted(url)!r}: {reason}")


def _redacted(url: str) -> str:
    """The URL with any password replaced by ``***`` (error messages end up in logs)."""
    url = re.sub(r"(password=)[^&]*", r"\1***", url)
    scheme, sep, rest = url.partition("://")
    netloc, slash, path = rest.partition("/")
    userinfo, at, hosts = netloc.rpartition("@")
    if not sep or not at or ":" not in userinfo:
        return url
    return f"{scheme}://{userinfo.split(':', 1)[0]}:***@{hosts}{slash}{path}"


def _common_kwargs(socket_timeout: float, connect_timeout: float) -> dict[str, Any]:
    """Connection settings shared by every mode: short timeouts, no retries, no health checks."""
    return {
        "socket_connect_timeout": connect_timeout,
        "socket_timeout": socket_timeout,
        "retry": Retry(NoBackoff(), 0),
        "health_check_interval": 0,
    }


def _split(url: str) -> SplitResult:
    try:
        return urlsplit(url)
    except ValueError as exc:  # "Invalid IPv6 URL" and the like
        raise _fail(url, f"bad host list ({exc}); write IPv6 hosts as [address]:port") from None


def _options(url: str, query: str, allowed: tuple[str, ...]) -> dict[str, str]:
    """Query options as a dict; timeouts and unknown names are refused with the allowed list."""
    options: dict[str, str] = {}
    for name, values in parse_qs(query, keep_blank_values=True).items():
        if name in TIMEOUT_OPTIONS:
            raise _fail(
                url,
                f"option {name!r} is not accepted: timeouts come from REDIS_CONNECT_TIMEOUT_MS "
                "and REDIS_SOCKET_TIMEOUT_MS and are the same in every mode",
            )
        if name not in allowed:
            accepted = ", ".join(allowed) if allowed else "none"
            raise _fail(url, f"unknown option {name!r} (accepted here: {accepted})")
        options[name] = values[-1]
    return options


def _userinfo_and_hosts(netloc: str) -> tuple[dict[str, str], str]:
    """Split ``user:pass@hosts`` into auth kwargs and the host list text."""
    auth: dict[str, str] = {}
    if "@" not in netloc:
        return auth, netloc
    userinfo, _, hosts = netloc.rpartition("@")
    user, sep, password = userinfo.partition(":")
    if user:
        auth["username"] = unquote(user)
    if sep and password:
        auth["password"] = unquote(password)
    return auth, hosts


def _host_ports(url: str, hosts: str, default_port: int) -> list[tuple[str, int]]:
    """``"a:1,b:2"`` (IPv6 as ``[::1]:7000``) as ``[("a", 1), ("b", 2)]``; at least one."""
    result: list[tuple[str, int]] = []
    for item in hosts.split(","):
        item = item.strip()
        if not item:
            raise _fail(url, "empty host in the host list (expected host:port[,host:port...])")
        if item.startswith("["):
            host, bracket, rest = item[1:].partition("]")
            if not bracket or (rest and not rest.startswith(":")):
                raise _fail(url, f"bad IPv6 host {item!r} (expected [address]:port)")
            port_text = rest[1:]
        else:
            host, _, port_text = item.partition(":")
        if not host:
            raise _fail(url, f"host missing in {item!r}")
        if port_text:
            if not port_text.isdigit() or not 0 < int(port_text) < 65536:
                raise _fail(url, f"bad port {port_text!r} in {item!r} (1-65535)")
            port = int(port_text)
        else:
            port = default_port
        result.append((host, port))
    return result


def _tls_kwargs(url: str, tls: bool, options: Mapping[str, str]) -> dict[str, Any]:
    """``ssl=True`` plus the TLS options, or nothing; TLS options without TLS are an error."""
    given = {name: options[name] for name in TLS_OPTIONS if name in options}
    if not tls:
        if given:
            raise _fail(url, f"{', '.join(given)} need a TLS scheme (rediss+...)")
        return {}
    if given.get("ssl_cert_reqs", "required") not in ("none", "optional", "required"):
        raise _fail(url, "ssl_cert_reqs must be none, optional or required")
    return {"ssl": True, **given}


def _standalone(url: str, common: dict[str, Any]) -> redis.Redis:
    parts = _split(url)
    _options(url, parts.query, _STANDALONE_PASSTHROUGH)
    if parts.scheme != "unix":
        try:
            parts.port  # noqa: B018 (raises ValueError on a bad port)
        except ValueError:
            raise _fail(url, "the port must be a number from 1 to 65535") from None
        db = parts.path.strip("/")
        if db and not db.isdigit():
            raise _fail(url, f"the database must be a number, got {db!r}")
    elif not parts.path:
        raise _fail(url, "a unix:// URL needs the socket path (unix:///run/redis.sock)")
    try:
        return redis.Redis.from_url(url, **common)
    except ValueError as exc:
        raise _fail(url, str(exc)) from None


_STANDALONE_PASSTHROUGH: Final = (
    "db",
    "client_name",
    "ssl_cert_reqs",
    "ssl_ca_certs",
    "ssl_certfile",
    "ssl_keyfile",
    "ssl_check_hostname",
)


class LazyCluster:
    """A ``RedisCluster`` built on first use, so start-up never waits for (or fails on) Redis.

    Building it asks the listed nodes for the slot map; if none answers the command raises (a
    cache failure like any other) and the next command tries again. Attribute access other than
    ``close`` goes to the real client.
    """

    def __init__(self, factory: Callable[[], RedisCluster], options: Mapping[str, Any]) -> None:
        self._factory = factory
        self.options = dict(options)
        """The keyword arguments the ``RedisCluster`` is built with (for inspection and tests)."""
        self._lock = threading.Lock()
        self._client: RedisCluster | None = None

    @property
    def client(self) -> RedisCluster:
        """The cluster client, building it now if needed. :raises RedisError: no node answers."""
        client = self._client
        if client is None:
            with self._lock:
                if self._client is None:
                    self._client = self._factory()
                client = self._client
        return client

    @property
    def built(self) -> bool:
        """Whether the cluster client has been built (a command or ``describe`` builds it)."""
        return self._client is not None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.client, name)

    def close(self) -> None:
        """Close the cluster client's connections, if it was ever built."""
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None


def _cluster(url: str, tls: bool, common: dict[str, Any]) -> LazyCluster:
    parts = _split(url)
    if parts.path not in ("", "/", "/0"):
        raise _fail(url, "a Redis Cluster has only database 0; drop the path after the hosts")
    options = _options(url, parts.query, TLS_OPTIONS)
    auth, hosts = _userinfo_and_hosts(parts.netloc)
    nodes = [ClusterNode(host, port) for host, port in _host_ports(url, hosts, DEFAULT_PORT)]
    kwargs: dict[str, Any] = {
        **common,
        **auth,
        **_tls_kwargs(url, tls, options),
        "startup_nodes": nodes,
        # Keep serving the covered slots while one is down (its keys are BYPASS meanwhile).
        "require_full_coverage": False,
    }

    def build() -> RedisCluster:
        return RedisCluster(**kwargs)

    return LazyCluster(build, kwargs)


def _sentinel(url: str, tls: bool, common: dict[str, Any]) -> redis.Redis:
    parts = _split(url)
    segments = [unquote(s) for s in parts.path.split("/") if s]
    if not segments:
        raise _fail(url, "the service name is missing (redis+sentinel://host:port/service_name)")
    if len(segments) > 2 or (len(segments) == 2 and not segments[1].isdigit()):
        raise _fail(url, "the path must be /service_name or /service_name/db (db a number)")
    service = segments[0]
    db = int(segments[1]) if len(segments) == 2 else 0
    options = _options(url, parts.query, TLS_OPTIONS + SENTINEL_OPTIONS)
    auth, hosts = _userinfo_and_hosts(parts.netloc)
    sentinels = _host_ports(url, hosts, DEFAULT_SENTINEL_PORT)
    tls_kwargs = _tls_kwargs(url, tls, options)
    sentinel_kwargs = {**common, **tls_kwargs}
    if "sentinel_password" in options:
        sentinel_kwargs["password"] = options["sentinel_password"]
    manager = Sentinel(sentinels, sentinel_kwargs=sentinel_kwargs, **common)
    return manager.master_for(service, db=db, **common, **auth, **tls_kwargs)


class DirectCommands:
    """Commands on one Redis through redis-py connections driven directly (standalone mode).

    ``redis.Redis.get``/``set`` run about 150 Python calls per command (command lookup, retry
    wrapper, the pool's lock and counters, response callbacks): 45-60 us of CPU, as much as the
    rest of a cache hit. Here each thread takes an idle connection from a free list (``list.pop``
    and ``append`` are atomic), sends the packed command and reads the reply: 15-25 us. What the
    connection does stays redis-py's: connecting with the client's timeouts, authentication,
    TLS, unix sockets, RESP parsing (hiredis), and error replies raised as ``ResponseError``.
    As redis-py's pool does when it hands out a connection, an idle one the server has closed
    (a restart, an idle timeout) is noticed before use (readable with nothing asked) and
    reconnected, so a Redis that came back costs no failed request. A connection whose command
    fails is disconnected (its next use reconnects). After a fork the child starts with no
    connections of its own.
    """

    def __init__(self, pool: ConnectionPool) -> None:
        self._pool = pool
        self._idle: list[Any] = []  # redis-py connections (its stubs are partial)
        self._pid = os.getpid()

    def execute(self, *args: str | bytes | int) -> Any:
        """Send one command and return its reply. :raises RedisError, OSError: as redis-py."""
        if self._pid != os.getpid():  # forked: the parent's sockets are not ours
            self._idle, self._pid = [], os.getpid()
        try:
            conn = self._idle.pop()
        except IndexError:
            conn = self._pool.make_connection()
        else:
            try:
                if conn.can_read(timeout=0):
                    raise RedisConnectionError("unexpected data on an idle connection")
            except (RedisConnectionError, RedisTimeoutError, OSError):
                conn.disconnect()  # reconnects on send
        try:
            conn.send_packed_command(conn.pack_command(*args), check_health=False)
            return conn.read_response()
        except BaseException:
            conn.disconnect()  # no half-read reply survives; the next use reconnects
            raise
        finally:
            # Back to the free list either way: the pool counts every connection it makes
            # against its limit, so a failed one is reconnected, never replaced.
            self._idle.append(conn)

    def close(self) -> None:
        """Disconnect every idle connection (shutdown and tests)."""
        idle, self._idle = self._idle, []
        for conn in idle:
            conn.disconnect()


def connect(url: str, *, socket_timeout: float, connect_timeout: float) -> tuple[Any, Mode]:
    """A redis-py client for ``url`` and its mode; no network traffic happens here.

    :param socket_timeout: seconds to wait for each reply.
    :param connect_timeout: seconds to wait for a connection.
    :raises RedisUrlError: the URL's scheme, hosts, port, path or options are unusable.
    """
    scheme = url.partition("://")[0].lower() if "://" in url else ""
    common = _common_kwargs(socket_timeout, connect_timeout)
    if scheme in STANDALONE_SCHEMES:
        return _standalone(url, common), "standalone"
    if scheme in CLUSTER_SCHEMES:
        return _cluster(url, scheme.startswith("rediss"), common), "cluster"
    if scheme in SENTINEL_SCHEMES:
        return _sentinel(url, scheme.startswith("rediss"), common), "sentinel"
    known = ", ".join(f"{s}://" for s in STANDALONE_SCHEMES + CLUSTER_SCHEMES + SENTINEL_SCHEMES)
    raise _fail(url, f"unknown scheme {scheme!r} (expected one of {known})")


def describe(client: Any, mode: Mode) -> dict[str, Any]:
    """What ``/readyz`` says about the Redis behind ``client``; never raises.

    - every mode: ``mode``;
    - cluster: ``slots_covered`` (all 16,384 slots served by a master no node considers failed),
      ``slots_ok`` (how many are) and ``cluster_state`` (``ok``/``fail`` as a node reports it,
      or ``unreachable``), from ``CLUSTER INFO`` of the first node that answers;
    - sentinel: ``service`` and ``master`` (``host:port`` as the Sentinels report it now, or
      ``null`` when no Sentinel answers).
    """
    info: dict[str, Any] = {"mode": mode}
    if mode == "cluster":
        info.update(_cluster_coverage(client))
    elif mode == "sentinel":
        info.update(_sentinel_master(client))
    return info


def _cluster_coverage(client: Any) -> dict[str, Any]:
    unknown = {"slots_covered": False, "slots_ok": 0, "cluster_state": "unreachable"}
    try:
        cluster: RedisCluster = client.client if isinstance(client, LazyCluster) else client
        nodes = cluster.get_primaries() + cluster.get_replicas()
    except Exception:  # no node reachable to build the slot map: say so, never fail /readyz
        return unknown
    for node in nodes[:DESCRIBE_NODES_TRIED]:
        try:
            reply = cluster.cluster_info(target_nodes=node)
            slots_ok = int(reply.get("cluster_slots_ok", 0))
        except Exception:  # this node is down or its reply is not CLUSTER INFO; ask the next one
            continue
        return {
            "slots_covered": slots_ok == CLUSTER_SLOTS,
            "slots_ok": slots_ok,
            "cluster_state": str(reply.get("cluster_state", "unknown")),
        }
    return unknown


def _sentinel_master(client: Any) -> dict[str, Any]:
    pool = client.connection_pool
    service = getattr(pool, "service_name", None)
    master: str | None = None
    if isinstance(pool, SentinelConnectionPool):
        try:
            host, port = pool.sentinel_manager.discover_master(pool.service_name)
            master = f"{host}:{port}"
        except Exception:  # no Sentinel answered: report it, never fail /readyz
            master = None
    return {"service": service, "master": master}
