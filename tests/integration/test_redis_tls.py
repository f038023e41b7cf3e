"""``rediss://`` and ``rediss+cluster://`` against real TLS-only ``redis-server`` processes.

A self-signed certificate for 127.0.0.1 (made with the ``openssl`` command) is both the servers'
certificate and the clients' CA (``?ssl_ca_certs=...``); the servers have no plain-text port.
Through the app: the first answer is a MISS, the same request again a HIT, so the cache really
goes through TLS; a cluster of three TLS masters also reports all slots covered on ``/readyz``.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.scaleout import Process, free_port, start_redis, wait_until
from tests.support.bodies import CLUSTER_CACHE_UP

pytestmark = pytest.mark.slow
PROBE = "/v1/probe/game-flip-flop/echo"


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``cert.pem`` + ``key.pem`` for 127.0.0.1 (self-signed, one day)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.fail("openssl is not installed; `bash scripts/test` installs it (apt-get)")
    directory = tmp_path_factory.mktemp("tls")
    subprocess.run(
        [
            openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
            "-keyout", str(directory / "key.pem"), "-out", str(directory / "cert.pem"),
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )  # fmt: skip
    return directory


def tls_args(certs: Path, port: int) -> list[str]:
    return [
        "--port", "0",
        "--tls-port", str(port),
        "--tls-cert-file", str(certs / "cert.pem"),
        "--tls-key-file", str(certs / "key.pem"),
        "--tls-ca-cert-file", str(certs / "cert.pem"),
        "--tls-auth-clients", "no",
    ]  # fmt: skip


def start_tls_redis(name: str, workdir: Path, certs: Path, *extra: str) -> tuple[int, Process]:
    port = free_port()
    process = start_redis(name, workdir, port, *tls_args(certs, port), *extra)
    return port, process


def exercise(make_probe_app: Any, url: str) -> dict[str, Any]:
    """MISS then HIT through the app with ``url``; returns the ``/readyz`` cache object."""
    app = make_probe_app(REDIS_URL=url, REDIS_SOCKET_TIMEOUT_MS=2000, REDIS_CONNECT_TIMEOUT_MS=2000)
    client = app.test_client()
    try:
        first = client.post(PROBE, json={"hand": ["10H", "as"]})
        second = client.post(PROBE, json={"hand": ["AS", "TH"]})
        assert (first.headers["X-Cache"], second.headers["X-Cache"]) == ("MISS", "HIT")
        assert first.get_json() == second.get_json()
        cache: dict[str, Any] = client.get("/readyz").get_json()["cache"]
        return cache
    finally:
        from api.cache.store import current_cache

        with app.app_context():
            current_cache().backend.close()  # type: ignore[attr-defined]


@pytest.fixture
def tls_redis(tmp_path: Path, certificate: Path) -> Iterator[int]:
    port, process = start_tls_redis("tls", tmp_path, certificate)
    try:
        yield port
    finally:
        process.stop(5)


def test_rediss_standalone(make_probe_app: Any, tls_redis: int, certificate: Path) -> None:
    url = f"rediss://127.0.0.1:{tls_redis}/0?ssl_ca_certs={certificate / 'cert.pem'}"
    # /readyz also reports the worker's breaker, namespace and round trip.
    assert (
        exercise(make_probe_app, url).items()
        >= {
            "backend": "redis",
            "state": "up",
            "mode": "standalone",
        }.items()
    )


def test_rediss_without_the_ca_is_refused_and_bypassed(make_probe_app: Any, tls_redis: int) -> None:
    """Certificate checks are on by default: an untrusted server is not used (BYPASS, no 500)."""
    app = make_probe_app(REDIS_URL=f"rediss://127.0.0.1:{tls_redis}/0")
    answer = app.test_client().post(PROBE, json={"hand": ["AS"]})
    assert answer.status_code == 200 and answer.headers["X-Cache"] == "BYPASS"


def test_rediss_cluster(make_probe_app: Any, tmp_path: Path, certificate: Path) -> None:
    nodes: list[tuple[int, Process]] = []
    try:
        for index in range(3):
            nodes.append(
                start_tls_redis(
                    f"tls-cluster-{index}",
                    tmp_path,
                    certificate,
                    "--cluster-enabled",
                    "yes",
                    "--cluster-config-file",
                    "nodes.conf",
                    "--cluster-port",
                    str(free_port()),
                    "--tls-cluster",
                    "yes",
                )  # fmt: skip
            )
        ports = [port for port, _ in nodes]
        create = subprocess.run(
            [
                shutil.which("redis-cli") or "redis-cli",
                "--tls", "--cacert", str(certificate / "cert.pem"),
                "--cluster", "create", *(f"127.0.0.1:{p}" for p in ports),
                "--cluster-replicas", "0", "--cluster-yes",
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )  # fmt: skip
        assert create.returncode == 0, create.stdout + create.stderr
        ca = certificate / "cert.pem"
        url = (
            "rediss+cluster://" + ",".join(f"127.0.0.1:{p}" for p in ports) + f"?ssl_ca_certs={ca}"
        )

        def converged() -> bool:
            """Every node (not just the first that answers) sees all slots served and says
            ``cluster_state:ok``: a node still catching up makes the app's first command fail."""
            import redis

            for port in ports:
                node = redis.Redis(
                    host="127.0.0.1", port=port, ssl=True, ssl_ca_certs=str(ca), socket_timeout=2
                )
                try:
                    info = node.execute_command("CLUSTER INFO")
                except redis.RedisError:
                    return False
                finally:
                    node.close()
                if (
                    info.get("cluster_state") != "ok"
                    or int(info.get("cluster_slots_ok", 0)) != 16384
                ):
                    return False
            return True

        wait_until("every TLS cluster node to see all slots served", converged, 30, 0.2)
        # /readyz also reports the worker's breaker, namespace and round trip.
        assert exercise(make_probe_app, url).items() >= CLUSTER_CACHE_UP.items()
    finally:
        for _, process in nodes:
            process.stop(5)
