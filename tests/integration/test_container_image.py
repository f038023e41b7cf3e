"""The container image, built from the Dockerfile and run: Debian's buildah, no registry, no daemon.

No image registry is reachable from the machines this runs on, so the base image is made from
Debian packages: ``debootstrap --variant=minbase bookworm`` with ``python3`` and ``python3-venv``,
committed with ``buildah from scratch`` + ``buildah commit`` and passed to the Dockerfile as
``BASE_IMAGE`` (its default, for everyone else, stays the official Python image). ``buildah bud
--isolation chroot`` with ``vfs`` storage builds the project's Dockerfile, and the image runs with
``buildah run --isolation chroot`` on the host network, as the user the image names:

- the image's user is numeric, non-zero and the one the Kubernetes Deployment runs as;
- the final stage has no compiler, and every compiled part of the engine loads inside it;
- ``/healthz``, ``/readyz`` with a real Redis, one melds request twice (``MISS`` then ``HIT``) and
  one advice request, each answer equal to the same request answered by this process;
- SIGTERM to the container's gunicorn finishes the request in flight and exits 0.

The storage (and the base image in it) lives in ``TUNK_BUILDAH_ROOT`` (default
``/var/tmp/tunk-buildah``) and is reused by later runs: debootstrap runs once per machine. The
build time, the image size and the base's cost are printed (``-s`` shows them). Needs root,
``buildah`` and ``debootstrap`` (``scripts/test`` installs them); skipped with the reason otherwise.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

import pytest
import yaml

from api.app import create_app
from tests.conftest import RedisServer
from tests.support.bodies import MAXIMAL_ACCEPTED
from tests.support.processes import REPO_ROOT, free_port, poll_until
from tests.test_container import IMAGE, IMAGE_USER

BUILDAH = shutil.which("buildah")
DEBOOTSTRAP = shutil.which("debootstrap")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        BUILDAH is None or DEBOOTSTRAP is None,
        reason="buildah and debootstrap are not installed (scripts/test installs them with "
        "apt-get when root)",
    ),
    pytest.mark.skipif(os.geteuid() != 0, reason="debootstrap and chroot isolation need root"),
]

STORAGE = Path(os.environ.get("TUNK_BUILDAH_ROOT", "/var/tmp/tunk-buildah"))
BASE_IMAGE = "localhost/tunk-base:bookworm"
BUILT_IMAGE = f"localhost/{IMAGE}"
MIRROR = os.environ.get("TUNK_DEBIAN_MIRROR", "http://deb.debian.org/debian")
HOST_CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
MELDS = ("/v1/games/game-flip-flop/melds", {"hand": ["7H", "8H", "9H", "7S", "7D", "KC"]})
ADVICE = MAXIMAL_ACCEPTED[1]  # a Three Thirteen draw: the compiled deadwood search at work
START_SECONDS = 90.0


def buildah(*args: str, timeout: float = 900, check: bool = True) -> str:
    """Run ``buildah`` on the test's own vfs storage; returns stdout."""
    assert BUILDAH is not None
    command = [
        BUILDAH,
        "--root",
        str(STORAGE / "root"),
        "--runroot",
        str(STORAGE / "run"),
        "--storage-driver",
        "vfs",
        *args,
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    if check and done.returncode != 0:
        raise AssertionError(
            f"{' '.join(args[:2])} failed ({done.returncode}):\n{done.stdout[-3000:]}\n"
            f"{done.stderr[-3000:]}"
        )
    return done.stdout


def has_image(name: str) -> bool:
    """True when ``name`` is in the test's storage."""
    return bool(buildah("images", "--quiet", name, check=False).strip())


def make_base_image() -> float:
    """``BASE_IMAGE`` from Debian packages (once per storage); the seconds it took (0 if kept).

    The host's CA bundle goes into the base (and pip is told to use it), so pip inside the build
    trusts what this machine trusts: some networks reach the package index only through a TLS
    proxy with its own certificate authority.
    """
    if has_image(BASE_IMAGE):
        return 0.0
    assert DEBOOTSTRAP is not None
    started = time.monotonic()
    STORAGE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=STORAGE) as scratch:
        rootfs = Path(scratch) / "rootfs"
        done = subprocess.run(
            [
                DEBOOTSTRAP,
                "--variant=minbase",
                "--include=python3,python3-venv,ca-certificates",
                "bookworm",
                str(rootfs),
                MIRROR,
            ],
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        if HOST_CA_BUNDLE.is_file():
            shutil.copyfile(HOST_CA_BUNDLE, rootfs / "etc/ssl/certs/ca-certificates.crt")
            (rootfs / "etc/pip.conf").write_text(
                "[global]\ncert = /etc/ssl/certs/ca-certificates.crt\n"
            )
        for cache in ("var/cache/apt/archives", "var/lib/apt/lists"):
            for entry in (rootfs / cache).glob("*.deb"):
                entry.unlink()
        container = buildah("from", "scratch").strip()
        try:
            mount = buildah("mount", container).strip()
            subprocess.run(["cp", "-a", f"{rootfs}/.", mount], check=True, timeout=600)
            buildah("unmount", container)
            buildah("config", "--cmd", "/bin/sh", container)
            buildah("commit", "--quiet", container, BASE_IMAGE)
        finally:
            buildah("rm", container, check=False)
    return time.monotonic() - started


@dataclass
class Built:
    """The image the test built, with what the report needs."""

    build_seconds: float
    base_seconds: float
    size: str
    config: dict[str, Any]


@pytest.fixture(scope="module")
def built() -> Iterator[Built]:
    """Build the Dockerfile on the Debian base (the base made once); remove the image after."""
    base_seconds = make_base_image()
    started = time.monotonic()
    buildah(
        "bud",
        "--isolation",
        "chroot",
        "--network",
        "host",
        "--pull=false",
        "--build-arg",
        f"BASE_IMAGE={BASE_IMAGE}",
        "--tag",
        BUILT_IMAGE,
        "--file",
        str(REPO_ROOT / "Dockerfile"),
        str(REPO_ROOT),
        timeout=1200,
    )
    build_seconds = time.monotonic() - started
    (listing,) = json.loads(buildah("images", "--json", BUILT_IMAGE))
    config = json.loads(buildah("inspect", "--type", "image", BUILT_IMAGE))["OCIv1"]["config"]
    result = Built(build_seconds, base_seconds, str(listing["size"]), config)
    print(
        f"\nimage {IMAGE}: built in {build_seconds:.0f} s, {result.size} "
        f"(base image from debootstrap: {base_seconds:.0f} s, 0 when reused)"
    )
    try:
        yield result
    finally:
        buildah("rmi", "--force", BUILT_IMAGE, check=False)


class Container:
    """One working container of the built image, its command run on the host network."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.name = buildah("from", "--pull=false", BUILT_IMAGE).strip()
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None
        args = [arg for key, value in env.items() for arg in ("--env", f"{key}={value}")]
        buildah("config", *args, self.name)

    def run(self, *command: str, timeout: float = 120) -> str:
        """Run ``command`` to completion inside the container; its stdout."""
        return buildah("run", "--isolation", "chroot", "--network", "host", self.name, "--",
                       *command, timeout=timeout)  # fmt: skip

    def start(self, command: list[str]) -> None:
        """Start the image's own command (its ``CMD``) in the background."""
        assert BUILDAH is not None
        argv = [BUILDAH, "--root", str(STORAGE / "root"), "--runroot", str(STORAGE / "run"),
                "--storage-driver", "vfs", "run", "--isolation", "chroot", "--network", "host",
                self.name, "--", *command]  # fmt: skip
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT)

    def gunicorn_master(self) -> int:
        """The pid of the container's gunicorn master (chroot isolation shares the host's pids):
        the gunicorn process whose parent is not a gunicorn process."""
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                cmdline = (entry / "cmdline").read_bytes().split(b"\0")
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                parent = (Path("/proc") / str(ppid) / "cmdline").read_bytes()
            except (OSError, ValueError, IndexError):
                continue
            master = b"api.app:create_app()" in cmdline and b"api.app:create_app()" not in parent
            if master and self._descends_from_us(int(entry.name)):
                found.append(int(entry.name))
        assert len(found) == 1, found
        return found[0]

    def _descends_from_us(self, pid: int) -> bool:
        assert self.proc is not None
        while pid > 1:
            if pid == self.proc.pid:
                return True
            try:
                pid = int(
                    (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[1]
                )
            except (OSError, ValueError, IndexError):
                return False
        return False

    def remove(self) -> None:
        """Stop whatever still runs and delete the working container."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)
        buildah("rm", self.name, check=False)


def request(port: int, method: str, path: str, body: Any = None) -> tuple[int, dict[str, str], Any]:
    """One request on a fresh connection: status, lower-cased headers, parsed JSON body."""
    connection = HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    try:
        connection.request(method, path, body=json.dumps(body) if body is not None else None,
                           headers=headers)  # fmt: skip
        response = connection.getresponse()
        raw = response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, json.loads(raw)
    finally:
        connection.close()


def test_image_user_is_numeric_and_the_deployments(built: Built) -> None:
    user = built.config["User"]
    assert user == IMAGE_USER
    uid, gid = (int(part) for part in user.split(":"))
    assert uid > 0 and gid > 0
    deployment = yaml.safe_load((REPO_ROOT / "deploy" / "k8s" / "deployment.yaml").read_text())
    pod = deployment["spec"]["template"]["spec"]
    context = pod["securityContext"]
    # What the kubelet checks for runAsNonRoot: a numeric, non-zero user; the pod's ids are the
    # image's own, so files the image made for its user stay readable.
    assert context["runAsNonRoot"] is True
    assert (context["runAsUser"], context["runAsGroup"]) == (uid, gid)
    assert pod["containers"][0]["image"] == IMAGE
    assert built.config["Cmd"] == ["sh", "/app/scripts/docker-start"]
    assert "8000/tcp" in built.config["ExposedPorts"]


def test_image_has_no_compiler_and_loads_every_compiled_part(built: Built, tmp_path: Path) -> None:
    container = Container({}, tmp_path / "run.log")
    try:
        assert container.run("id", "-u").strip() == IMAGE_USER.split(":")[0]
        probe = "for c in gcc cc clang; do command -v $c || true; done"
        assert container.run("sh", "-c", probe).strip() == ""
        loaded = container.run(
            "python", "-c",
            "import json, engine.core.accelerators as a; print(json.dumps(a.loaded()))",
        )  # fmt: skip
        assert json.loads(loaded) == {
            "engine.standard._solver": True,
            "engine.standard._deadwood": True,
            "engine.advice.tunk._keeptable": True,
            "engine.advice.tunk._sampler": True,
        }
    finally:
        container.remove()


@pytest.fixture
def redis_for_container(tmp_path: Path) -> Iterator[RedisServer]:
    """A real redis-server on the loopback, which the container reaches on the host network."""
    server = RedisServer(tmp_path / "redis")
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_container_answers_like_the_test_process_and_stops_cleanly(
    built: Built, redis_for_container: RedisServer, tmp_path: Path
) -> None:
    port = free_port()
    env = {
        "PORT": str(port),
        "BIND_HOST": "127.0.0.1",
        "REDIS_URL": redis_for_container.url,
        "WEB_CONCURRENCY": "2",
    }
    container = Container(env, tmp_path / "container.log")
    local = create_app({"REDIS_URL": None}).test_client()
    try:
        container.start(list(built.config["Cmd"]))

        def answers() -> bool:
            try:
                return request(port, "GET", "/healthz")[0] == 200
            except OSError:
                return False

        poll_until(answers, START_SECONDS, lambda: container.log.read_text()[-3000:], step=0.25)
        status, _, health = request(port, "GET", "/healthz")
        assert (status, health) == (200, local.get("/healthz").get_json())
        status, _, ready = request(port, "GET", "/readyz")
        assert status == 200 and ready["status"] == "ready"
        assert ready["cache"]["backend"] == "redis" and ready["cache"]["state"] == "up"
        assert ready["cache"]["write"] is True and ready["cache"]["read"] is True

        path, body = MELDS
        expected = local.post(path, json=body).get_json()
        first = request(port, "POST", path, body)
        second = request(port, "POST", path, body)
        assert (first[0], first[1]["x-cache"], first[2]) == (200, "MISS", expected)
        assert (second[0], second[1]["x-cache"], second[2]) == (200, "HIT", expected)

        path, body = ADVICE
        status, headers, advice = request(port, "POST", path, body)
        assert (status, headers["x-cache"]) == (200, "MISS")
        assert advice == local.post(path, json=body).get_json()

        # SIGTERM while a request is in flight: its body is still arriving when the signal
        # lands; the worker finishes it, answers 200, and the container exits 0.
        path, body = MELDS
        raw = json.dumps({**body, "hand": list(reversed(body["hand"]))}).encode()
        inflight = socket.create_connection(("127.0.0.1", port), timeout=30)
        try:
            inflight.sendall(
                f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(raw)}\r\nConnection: close\r\n\r\n".encode()
                + raw[:10]
            )
            time.sleep(0.5)
            os.kill(container.gunicorn_master(), signal.SIGTERM)
            time.sleep(0.5)
            inflight.sendall(raw[10:])
            reply = b""
            while chunk := inflight.recv(65536):
                reply += chunk
        finally:
            inflight.close()
        assert reply.startswith(b"HTTP/1.1 200 "), reply[:300]
        assert container.proc is not None
        assert container.proc.wait(timeout=60) == 0, container.log.read_text()[-3000:]
        log = container.log.read_text()
        assert "Shutting down: Master" in log
        access = [json.loads(line) for line in log.splitlines() if '"api.access"' in line]
        assert [r["status"] for r in access if r["method"] == "POST"] == [200, 200, 200, 200]
    finally:
        container.remove()
