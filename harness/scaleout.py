"""The reference scale-out deployment on one machine, with real parts, on 127.0.0.1 only.

    python -m harness.scaleout up                        # nginx + 2 replicas + Redis Cluster
    python -m harness.scaleout up --redis sentinel --replicas 3 --port 8080
    python -m harness.scaleout check                     # start, prove a HIT across replicas, stop

``bash scripts/scale`` installs what is missing (nginx and redis-server with apt-get when root) and
runs this. The parts, each a real process on a free loopback port, all in one work directory:

- ``RedisClusterNodes``: 3 masters + 3 replicas (``redis-server --cluster-enabled yes``), joined
  with ``redis-cli --cluster create ... --cluster-replicas 1 --cluster-yes``;
- ``SentinelGroup``: 1 master, 1 replica and 3 Sentinels monitoring service ``tunk``;
- ``Replica``: one gunicorn instance (``gunicorn.conf.py``, ``api.app:create_app()``) with the
  deployment's ``REDIS_URL``;
- ``Nginx``: the Debian nginx binary with ``deploy/nginx/tunk.conf.template`` (retries on another
  replica, keep-alive upstream), its access log recording which replicas served each request.

The integration tests and ``bench/bench_failover.py`` import these classes; the load they send
comes from ``harness/loadgen.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import string
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis

from harness.loadgen import HOST, MELDS, request

REPO_ROOT = Path(__file__).resolve().parent.parent

NGINX_TEMPLATE = REPO_ROOT / "deploy" / "nginx" / "tunk.conf.template"
SENTINEL_SERVICE = "tunk"
START_TIMEOUT = 30.0


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def wait_until(what: str, check: Callable[[], bool], timeout: float, step: float = 0.05) -> float:
    """Poll ``check`` until it is true; returns the seconds it took. :raises RuntimeError:"""
    start = time.monotonic()
    while True:
        try:
            if check():
                return time.monotonic() - start
        except (OSError, redis.RedisError):
            pass
        if time.monotonic() - start > timeout:
            raise RuntimeError(f"timed out after {timeout:.0f}s waiting for {what}")
        time.sleep(step)


def port_open(port: int) -> bool:
    """Something accepts TCP connections on 127.0.0.1:``port``."""
    try:
        with socket.create_connection((HOST, port), timeout=0.2):
            return True
    except OSError:
        return False


def require_binary(name: str) -> str:
    """Absolute path of ``name`` (``/usr/sbin`` included). :raises RuntimeError: not installed."""
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin:/usr/local/sbin")
    if found is None:
        raise RuntimeError(f"{name} is not installed (bash scripts/scale installs it with apt-get)")
    return found


class Process:
    """One child process in its own session (so a kill reaches its children), logging to a file."""

    def __init__(self, name: str, argv: Sequence[str], log: Path, **popen: Any) -> None:
        self.name = name
        self.log = log
        log.parent.mkdir(parents=True, exist_ok=True)
        with log.open("ab") as out:
            self.proc = subprocess.Popen(
                list(argv), stdout=out, stderr=subprocess.STDOUT, start_new_session=True, **popen
            )

    @property
    def alive(self) -> bool:
        """True until the process exits."""
        return self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL the whole process group (a crash: no clean shutdown) and reap the leader."""
        if self.alive:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def terminate(self) -> None:
        """Send SIGTERM to the process group (waking it first if stopped); do not wait."""
        if self.alive:
            try:
                os.killpg(self.proc.pid, signal.SIGCONT)
                os.killpg(self.proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    def reap(self, timeout: float = 10.0) -> None:
        """Wait for the process to exit after :meth:`terminate`; SIGKILL it after ``timeout``."""
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM the process group, SIGKILL it if it is still there after ``timeout``."""
        stop_together([self], timeout)

    def tail(self, lines: int = 30) -> str:
        """The last lines of the log (for error messages)."""
        try:
            text = self.log.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])


def stop_together(processes: Sequence[Process], timeout: float = 10.0) -> None:
    """SIGTERM every process at once, then reap each (SIGKILL after ``timeout``): shutdowns
    overlap instead of adding up."""
    for process in processes:
        process.terminate()
    for process in processes:
        process.reap(timeout)


def start_redis(name: str, workdir: Path, port: int, *extra: str) -> Process:
    """``redis-server`` as a pure cache on 127.0.0.1:``port`` (no persistence, LRU eviction)."""
    node_dir = workdir / name
    node_dir.mkdir(parents=True, exist_ok=True)
    argv = [
        require_binary("redis-server"),
        "--port", str(port),
        "--bind", HOST,
        "--save", "",
        "--appendonly", "no",
        "--dir", str(node_dir),
        "--daemonize", "no",
        "--loglevel", "notice",
        "--maxmemory", "256mb",
        "--maxmemory-policy", "allkeys-lru",
        *extra,
    ]  # fmt: skip
    process = Process(name, argv, node_dir / "redis.log", cwd=node_dir)
    wait_until(f"{name} on port {port}", lambda: port_open(port) or not process.alive, 10)
    if not process.alive:
        raise RuntimeError(f"{name} exited:\n{process.tail()}")
    return process


def node_client(port: int, timeout: float = 1.0) -> redis.Redis:
    """A plain client to one Redis/Sentinel process (for setting up and inspecting)."""
    return redis.Redis(host=HOST, port=port, socket_timeout=timeout, decode_responses=True)


class RedisClusterNodes:
    """Six ``redis-server`` processes joined into a cluster of 3 masters with 1 replica each.

    ``cluster-node-timeout`` is short (``node_timeout_ms``) so a killed master's replica is
    promoted within a few seconds; ``cluster-require-full-coverage no`` keeps the other slots
    serving while one master's slots wait for that promotion.
    """

    def __init__(self, workdir: Path, masters: int = 3, node_timeout_ms: int = 1000) -> None:
        self.workdir = workdir
        self.masters_wanted = masters
        self.node_timeout_ms = node_timeout_ms
        self.ports = [free_port() for _ in range(masters * 2)]
        self.nodes: dict[int, Process] = {}

    @property
    def url(self) -> str:
        """``redis+cluster://`` with every node: the client needs any one that answers."""
        return "redis+cluster://" + ",".join(f"{HOST}:{port}" for port in self.ports)

    def start(self) -> RedisClusterNodes:
        """Start the nodes, create the cluster, wait until every node reports it healthy."""
        for port in self.ports:
            bus_port = free_port()
            self.nodes[port] = start_redis(
                f"cluster-{port}",
                self.workdir,
                port,
                "--cluster-enabled", "yes",
                "--cluster-config-file", f"nodes-{port}.conf",
                "--cluster-node-timeout", str(self.node_timeout_ms),
                "--cluster-port", str(bus_port),
                "--cluster-require-full-coverage", "no",
            )  # fmt: skip
        create = subprocess.run(
            [
                require_binary("redis-cli"),
                "--cluster", "create",
                *(f"{HOST}:{port}" for port in self.ports),
                "--cluster-replicas", "1",
                "--cluster-yes",
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )  # fmt: skip
        if create.returncode != 0:
            raise RuntimeError(
                f"redis-cli --cluster create failed:\n{create.stdout}{create.stderr}"
            )
        wait_until("a healthy cluster", self.healthy, START_TIMEOUT, 0.1)
        return self

    def topology(self, via: int | None = None) -> dict[int, int | None]:
        """``{port: its master's port, or None}`` per non-failed node, as a live node sees it."""
        ports = [via] if via is not None else [p for p in self.ports if self.nodes[p].alive]
        for port in ports:
            try:
                with node_client(port) as client:
                    text = client.execute_command("CLUSTER", "NODES")
            except redis.RedisError:
                continue
            return _parse_cluster_nodes(text if isinstance(text, str) else str(text))
        raise RuntimeError("no cluster node answers")

    def masters(self) -> list[int]:
        """Ports of the current masters holding slots."""
        return sorted(port for port, master in self.topology().items() if master is None)

    def replica_of(self, master: int) -> int:
        """The port of ``master``'s replica."""
        return next(port for port, of in self.topology().items() if of == master)

    def healthy(self) -> bool:
        """Every live node says ``cluster_state:ok`` with all slots ok and sees all masters."""
        masters = 0
        for port, process in self.nodes.items():
            if not process.alive:
                continue
            with node_client(port) as client:
                info = client.cluster("INFO")
                if (
                    info.get("cluster_state") != "ok"
                    or int(info.get("cluster_slots_ok", 0)) != 16384
                ):
                    return False
                role = client.info("replication")
                if role.get("role") == "slave" and role.get("master_link_status") != "up":
                    return False
                masters += role.get("role") == "master"
        return masters == self.masters_wanted

    def kill(self, port: int) -> None:
        """SIGKILL one node."""
        self.nodes[port].kill()

    def wait_promoted(self, replica: int, timeout: float = 30.0) -> float:
        """Seconds until ``replica`` is a master (as it reports itself)."""

        def promoted() -> bool:
            with node_client(replica) as client:
                return bool(client.info("replication").get("role") == "master")

        return wait_until(f"replica {replica} promoted", promoted, timeout, 0.02)

    def used_memory(self) -> int:
        """Bytes of ``used_memory`` summed over the masters."""
        total = 0
        for port in self.masters():
            with node_client(port) as client:
                total += int(client.info("memory")["used_memory"])
        return total

    def stop(self) -> None:
        """Stop every node (all at once)."""
        stop_together(list(self.nodes.values()), 5)


def _parse_cluster_nodes(text: str) -> dict[int, int | None]:
    """``CLUSTER NODES`` text as ``{port: master's port, or None for a master}``; failed nodes
    and slot-less masters are left out."""
    by_id: dict[str, int] = {}
    rows: list[tuple[int, str, str, bool]] = []
    for line in text.strip().splitlines():
        fields = line.split()
        node_id, address, flags, master_id = fields[0], fields[1], fields[2], fields[3]
        port = int(address.split("@")[0].rsplit(":", 1)[1])
        by_id[node_id] = port
        if "fail" in flags.split(",") or "noaddr" in flags:
            continue
        rows.append((port, flags, master_id, len(fields) > 8))
    result: dict[int, int | None] = {}
    for port, flags, master_id, has_slots in rows:
        if "master" in flags.split(","):
            if has_slots:
                result[port] = None
        elif master_id in by_id:
            result[port] = by_id[master_id]
    return result


class SentinelGroup:
    """One master, one replica and three Sentinels (quorum 2) for service ``tunk``."""

    def __init__(
        self, workdir: Path, down_after_ms: int = 1000, failover_timeout_ms: int = 5000
    ) -> None:
        self.workdir = workdir
        self.down_after_ms = down_after_ms
        self.failover_timeout_ms = failover_timeout_ms
        self.master_port = free_port()
        self.replica_port = free_port()
        self.sentinel_ports = [free_port() for _ in range(3)]
        self.data: dict[int, Process] = {}
        self.sentinels: list[Process] = []

    @property
    def url(self) -> str:
        """``redis+sentinel://`` naming the three Sentinels and the service."""
        hosts = ",".join(f"{HOST}:{port}" for port in self.sentinel_ports)
        return f"redis+sentinel://{hosts}/{SENTINEL_SERVICE}/0"

    def start(self) -> SentinelGroup:
        """Start master, replica and Sentinels; wait until the Sentinels know each other."""
        self.data[self.master_port] = start_redis("sentinel-master", self.workdir, self.master_port)
        self.data[self.replica_port] = start_redis(
            "sentinel-replica", self.workdir, self.replica_port,
            "--replicaof", HOST, str(self.master_port),
        )  # fmt: skip
        for index, port in enumerate(self.sentinel_ports):
            directory = self.workdir / f"sentinel-{index}"
            directory.mkdir(parents=True, exist_ok=True)
            conf = directory / "sentinel.conf"  # Sentinel rewrites its own config file
            conf.write_text(
                f"port {port}\nbind {HOST}\ndaemonize no\ndir {directory}\n"
                f"sentinel monitor {SENTINEL_SERVICE} {HOST} {self.master_port} 2\n"
                f"sentinel down-after-milliseconds {SENTINEL_SERVICE} {self.down_after_ms}\n"
                f"sentinel failover-timeout {SENTINEL_SERVICE} {self.failover_timeout_ms}\n"
                f"sentinel parallel-syncs {SENTINEL_SERVICE} 1\n"
            )
            process = Process(
                f"sentinel-{index}",
                [require_binary("redis-server"), str(conf), "--sentinel"],
                directory / "sentinel.log",
                cwd=directory,
            )
            self.sentinels.append(process)
        wait_until("the Sentinels to agree", self._ready, START_TIMEOUT, 0.1)
        return self

    def _ready(self) -> bool:
        with node_client(self.replica_port) as client:
            if client.info("replication").get("master_link_status") != "up":
                return False
        for port in self.sentinel_ports:
            with node_client(port) as client:
                state = client.sentinel_master(SENTINEL_SERVICE)
                if int(state["num-other-sentinels"]) < 2 or int(state["num-slaves"]) < 1:
                    return False
        return True

    def current_master(self) -> int:
        """The master's port as the first answering Sentinel reports it."""
        for port in self.sentinel_ports:
            try:
                with node_client(port) as client:
                    _, master = client.sentinel_get_master_addr_by_name(SENTINEL_SERVICE)
                    return int(master)
            except redis.RedisError:
                continue
        raise RuntimeError("no Sentinel answers")

    def kill_master(self) -> int:
        """SIGKILL the current master; returns its port."""
        port = self.current_master()
        self.data[port].kill()
        return port

    def wait_failover(self, old_master: int, timeout: float = 30.0) -> float:
        """Seconds until every Sentinel names a master other than ``old_master``."""

        def moved() -> bool:
            for port in self.sentinel_ports:
                with node_client(port) as client:
                    _, master = client.sentinel_get_master_addr_by_name(SENTINEL_SERVICE)
                    if int(master) == old_master:
                        return False
            return True

        return wait_until("the Sentinels to promote the replica", moved, timeout, 0.02)

    def stop(self) -> None:
        """Stop Sentinels first (so they do not fail over during shutdown), then the data nodes."""
        stop_together(self.sentinels, 5)
        stop_together(list(self.data.values()), 5)


@dataclass
class Replica:
    """One gunicorn instance of the service (``workers`` processes, ``threads`` each)."""

    workdir: Path
    redis_url: str | None
    workers: int = 2
    threads: int = 2
    breaker_cooldown: float = 1.0
    port: int = field(default_factory=free_port)
    process: Process | None = None
    extra_env: dict[str, str] = field(default_factory=dict)

    @property
    def address(self) -> str:
        """``127.0.0.1:port``."""
        return f"{HOST}:{self.port}"

    def start(self, wait: bool = True) -> Replica:
        """Start gunicorn and (by default) wait until ``/healthz`` answers."""
        env = {
            **os.environ,
            "PORT": str(self.port),
            "BIND_HOST": HOST,
            "WEB_CONCURRENCY": str(self.workers),
            "GUNICORN_THREADS": str(self.threads),
            "BREAKER_COOLDOWN_SECONDS": str(self.breaker_cooldown),
            "PYTHONDONTWRITEBYTECODE": "1",
            **self.extra_env,
        }
        env.pop("REDIS_URL", None)
        if self.redis_url:
            env["REDIS_URL"] = self.redis_url
        argv = [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "api.app:create_app()"]
        log = self.workdir / f"gunicorn-{self.port}.log"
        self.process = Process(f"gunicorn-{self.port}", argv, log, cwd=REPO_ROOT, env=env)
        if wait:
            self.wait_ready()
        return self

    def wait_ready(self) -> None:
        """Wait until ``/healthz`` answers 200. :raises RuntimeError: gunicorn died or hung."""
        assert self.process is not None
        process = self.process

        def healthy() -> bool:
            if not process.alive:
                raise RuntimeError(f"gunicorn exited:\n{process.tail()}")
            return request(self.port, "GET", "/healthz").status == 200

        wait_until(f"gunicorn on {self.port}", healthy, START_TIMEOUT, 0.1)

    def kill(self) -> None:
        """SIGKILL the master and its workers at once (a crashed machine, not a deploy)."""
        if self.process is not None:
            self.process.kill()

    def stop(self) -> None:
        """Graceful stop (SIGTERM)."""
        if self.process is not None:
            self.process.stop(15)


def stop_replicas(replicas: Sequence[Replica]) -> None:
    """Gracefully stop every started replica at once (SIGTERM, SIGKILL after 15 s)."""
    stop_together([r.process for r in replicas if r.process is not None], 15)


_LOG_LINE = re.compile(
    r'^\S+ (\d+) "([^"]*)" upstream=\[([^\]]*)\] upstream_status=\[([^\]]*)\] \S+ cache=(\S*)'
)


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of nginx's access log: the replicas tried in order and what they answered."""

    status: int
    request: str
    upstreams: tuple[str, ...]
    upstream_status: str
    cache: str


class Nginx:
    """The distribution's nginx with ``deploy/nginx/tunk.conf.template`` in front of replicas."""

    def __init__(self, workdir: Path, upstreams: Sequence[str], port: int | None = None) -> None:
        self.workdir = workdir
        self.upstreams = list(upstreams)
        self.port = port or free_port()
        self.access_log = workdir / "access.log"
        self.process: Process | None = None

    def render(self) -> Path:
        """Write ``nginx.conf`` (process settings + the rendered template); returns its path."""
        temp = self.workdir / "tmp"
        temp.mkdir(parents=True, exist_ok=True)
        temp.chmod(0o1777)  # workers may run as www-data when started by root
        servers = " ".join(
            f"server {address} max_fails=1 fail_timeout=2s;" for address in self.upstreams
        )
        site = string.Template(NGINX_TEMPLATE.read_text()).safe_substitute(
            TUNK_LISTEN=f"{HOST}:{self.port}",
            TUNK_UPSTREAM_SERVERS=servers,
            TUNK_ACCESS_LOG=str(self.access_log),
        )
        (self.workdir / "tunk.conf").write_text(site)
        conf = self.workdir / "nginx.conf"
        conf.write_text(
            "worker_processes 1;\n"
            "daemon off;\n"
            f"pid {self.workdir}/nginx.pid;\n"
            f"error_log {self.workdir}/error.log warn;\n"
            "events { worker_connections 1024; }\n"
            "http {\n"
            f"    client_body_temp_path {temp}/client_body;\n"
            f"    proxy_temp_path {temp}/proxy;\n"
            f"    fastcgi_temp_path {temp}/fastcgi;\n"
            f"    uwsgi_temp_path {temp}/uwsgi;\n"
            f"    scgi_temp_path {temp}/scgi;\n"
            "    default_type application/octet-stream;\n"
            f"    include {self.workdir}/tunk.conf;\n"
            "}\n"
        )
        return conf

    def start(self) -> Nginx:
        """Check the configuration (``nginx -t``), start nginx, wait for its port."""
        conf = self.render()
        binary = require_binary("nginx")
        base = [
            binary,
            "-p",
            str(self.workdir),
            "-e",
            str(self.workdir / "error.log"),
            "-c",
            str(conf),
        ]
        check = subprocess.run([*base, "-t", "-q"], capture_output=True, text=True, timeout=30)
        if check.returncode != 0:
            raise RuntimeError(f"nginx -t failed:\n{check.stderr}")
        self.process = Process("nginx", base, self.workdir / "nginx.out")
        process = self.process
        wait_until("nginx", lambda: port_open(self.port) or not process.alive, 10)
        if not process.alive:
            raise RuntimeError(
                f"nginx exited:\n{process.tail()}\n{(self.workdir / 'error.log').read_text()}"
            )
        return self

    def log_entries(self) -> list[LogEntry]:
        """The access log so far, parsed."""
        if not self.access_log.exists():
            return []
        entries = []
        for line in self.access_log.read_text(errors="replace").splitlines():
            match = _LOG_LINE.match(line)
            if match:
                status, req, ups, up_status, cache = match.groups()
                upstreams = tuple(u for u in re.split(r",\s*|\s+:\s+", ups.strip()) if u)
                entries.append(LogEntry(int(status), req, upstreams, up_status, cache))
        return entries

    def retried(self) -> list[LogEntry]:
        """Requests nginx sent to more than one replica (retries after an error or timeout)."""
        return [entry for entry in self.log_entries() if len(entry.upstreams) > 1]

    def stop(self) -> None:
        """Stop nginx (SIGTERM to the master: fast shutdown)."""
        if self.process is not None:
            self.process.stop(10)


# --- the whole deployment -----------------------------------------------------------------------


@dataclass
class Deployment:
    """nginx + ``replicas`` gunicorn instances + a Redis Cluster or a Sentinel group."""

    redis: RedisClusterNodes | SentinelGroup
    replicas: list[Replica]
    nginx: Nginx

    @property
    def url(self) -> str:
        """The load balancer's base URL."""
        return f"http://{HOST}:{self.nginx.port}"


@contextmanager
def deployment(
    workdir: Path,
    *,
    redis_mode: str = "cluster",
    replicas: int = 2,
    workers: int = 2,
    threads: int = 2,
    port: int | None = None,
    breaker_cooldown: float = 1.0,
    extra_env: dict[str, str] | None = None,
) -> Iterator[Deployment]:
    """Start everything, yield it, stop everything (also on errors).

    ``extra_env`` is added to every replica's environment (e.g. ``GUNICORN_CMD_ARGS``).
    """
    with ExitStack() as stack:
        store: RedisClusterNodes | SentinelGroup
        if redis_mode == "cluster":
            store = RedisClusterNodes(workdir / "redis")
        elif redis_mode == "sentinel":
            store = SentinelGroup(workdir / "redis")
        else:
            raise ValueError(f"redis_mode must be cluster or sentinel, got {redis_mode!r}")
        stack.callback(store.stop)
        store.start()
        instances = [
            Replica(
                workdir,
                store.url,
                workers=workers,
                threads=threads,
                breaker_cooldown=breaker_cooldown,
                extra_env=dict(extra_env or {}),
            )
            for _ in range(replicas)
        ]
        stack.callback(stop_replicas, instances)
        for instance in instances:
            instance.start(wait=False)
        for instance in instances:
            instance.wait_ready()
        nginx = Nginx(workdir / "nginx", [r.address for r in instances], port)
        stack.callback(nginx.stop)
        nginx.start()
        yield Deployment(store, instances, nginx)


def _check(dep: Deployment) -> int:
    """A request computed on replica A is a HIT on replica B; the same through nginx."""
    body = {"hand": ["AS", "2S", "3S", "7D", "7C", "KH"]}
    first = request(dep.replicas[0].port, "POST", MELDS, body)
    second = request(dep.replicas[1].port, "POST", MELDS, body)
    via_lb = request(dep.nginx.port, "POST", MELDS, body)
    ready = request(dep.nginx.port, "GET", "/readyz")
    print(
        f"replica A: {first.status} {first.cache}; replica B: {second.status} {second.cache}; "
        f"via nginx: {via_lb.status} {via_lb.cache}"
    )
    print(f"/readyz: {json.dumps(ready.body)}")
    ok = first.status == second.status == via_lb.status == 200 and second.cache == "HIT"
    print("check:", "PASS" if ok else "FAIL")
    return 0 if ok else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "command", choices=["up", "check"], help="up: run until Ctrl-C; check: start, verify, stop"
    )
    parser.add_argument("--redis", choices=["cluster", "sentinel"], default="cluster")
    parser.add_argument("--replicas", type=int, default=2, help="gunicorn instances (>= 2)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes per instance")
    parser.add_argument("--threads", type=int, default=2, help="threads per worker (gthread)")
    parser.add_argument("--port", type=int, default=None, help="nginx port (default: a free one)")
    parser.add_argument(
        "--dir", type=Path, default=None, help="work directory (default: a temporary one)"
    )
    args = parser.parse_args(argv)
    if args.replicas < 2:
        parser.error("--replicas must be at least 2")
    workdir = args.dir or Path(tempfile.mkdtemp(prefix="tunk-scaleout-"))
    workdir.mkdir(parents=True, exist_ok=True)
    with deployment(
        workdir, redis_mode=args.redis, replicas=args.replicas, workers=args.workers,
        threads=args.threads, port=args.port,
    ) as dep:  # fmt: skip
        print(f"work directory: {workdir}")
        print(f"redis ({args.redis}): {dep.redis.url}")
        for instance in dep.replicas:
            print(f"replica: http://{instance.address}")
        print(f"load balancer (nginx): {dep.url}   e.g. curl -s {dep.url}/readyz")
        if args.command == "check":
            return _check(dep)
        print("running; Ctrl-C stops everything", flush=True)
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        signal.sigwait({signal.SIGINT, signal.SIGTERM})
    return 0


if __name__ == "__main__":
    sys.exit(main())
