"""The container recipe: layers, pins, worker count from the CPU quota, no control-socket error.

The Dockerfile and compose file are checked as text/YAML here and the container's start script
runs for real (gunicorn with a HOME it cannot write); tests/integration/test_container_image.py
builds the image itself with buildah and runs it.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from api.server.cpu_quota import available_cpus, cpu_quota, default_workers
from tests.support.processes import (
    REPO_ROOT,
    free_port,
    poll_until,
    spawn,
    stop_process,
    wait_for_port,
)

IMAGE = "tunk-hand-analysis:0.2.0"
"""The one image name and tag: README, docker-compose.yml, deploy/ and the image test."""
IMAGE_USER = "10001:10001"
"""The image's numeric user and group (the Deployment's runAsUser/runAsGroup)."""


def test_cpu_quota_cgroup_v2(tmp_path: Path) -> None:
    (tmp_path / "cpu.max").write_text("150000 100000\n")
    assert cpu_quota(tmp_path) == 1.5
    assert available_cpus(tmp_path) == min(2, len(os.sched_getaffinity(0)))
    (tmp_path / "cpu.max").write_text("max 100000\n")
    assert cpu_quota(tmp_path) is None


def test_cpu_quota_cgroup_v1_and_unreadable(tmp_path: Path) -> None:
    (tmp_path / "cpu").mkdir()
    (tmp_path / "cpu" / "cpu.cfs_quota_us").write_text("50000\n")
    (tmp_path / "cpu" / "cpu.cfs_period_us").write_text("100000\n")
    assert cpu_quota(tmp_path) == 0.5
    assert available_cpus(tmp_path) == 1  # at least one
    (tmp_path / "cpu" / "cpu.cfs_quota_us").write_text("-1\n")
    assert cpu_quota(tmp_path) is None
    assert cpu_quota(tmp_path / "missing") is None


def test_default_workers() -> None:
    assert [default_workers(n) for n in (1, 2, 3, 4, 64)] == [3, 5, 7, 9, 9]


def test_dockerfile_builds_like_pip_and_keeps_the_compiler_out() -> None:
    text = (REPO_ROOT / "Dockerfile").read_text()
    assert "ARG BASE_IMAGE=python:3.11-slim" in text  # the default base stays the official image
    build, final = text.split("\nFROM ${BASE_IMAGE} AS build\n")[1].split("\nFROM ${BASE_IMAGE}\n")
    # One build recipe: the package is built by pip from setup.py (its -ffp-contract=off flags),
    # never by a compiler line of its own.
    assert "pip install --no-deps --target /opt/pkg ." in build
    assert "gcc -O" not in text and "-shared" not in text
    assert "gcc" not in final and "apt-get" not in final  # no compiler in the image
    assert "COPY --from=build /opt/pkg/engine ./engine" in final
    lines = build.splitlines()
    install = next(i for i, line in enumerate(lines) if "pip install -c constraints.txt" in line)
    first_code = min(
        i for i, line in enumerate(lines) if line.startswith(("COPY engine", "COPY api"))
    )
    assert install < first_code
    copies_before = [line for line in lines[:install] if line.startswith("COPY")]
    assert copies_before == ["COPY pyproject.toml constraints.txt ./"]
    final_lines = final.splitlines()
    assert final_lines[-1] == 'CMD ["sh", "/app/scripts/docker-start"]'
    assert [line for line in final_lines if line.startswith("USER ")] == [f"USER {IMAGE_USER}"]
    ignored = (REPO_ROOT / ".dockerignore").read_text().splitlines()
    assert "!docs/rules.md" in ignored and "!scripts/docker-start" in ignored
    assert "**/*.so" in ignored  # the image builds its own compiled parts


def test_constraints_pin_every_runtime_dependency() -> None:
    import tomllib

    pins = {
        line.split("==")[0].lower().replace("_", "-")
        for line in (REPO_ROOT / "constraints.txt").read_text().splitlines()
        if "==" in line
    }
    deps = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
    for requirement in [*deps["dependencies"], *deps["optional-dependencies"]["dev"]]:
        name = requirement.split("[")[0].split(">")[0].split("<")[0].split("=")[0].strip()
        assert name.lower().replace("_", "-") in pins, name
    assert "-c constraints.txt" in (REPO_ROOT / "scripts" / "test").read_text()


def test_compose_starts_the_service_with_redis() -> None:
    compose = yaml.safe_load((REPO_ROOT / "docker-compose.yml").read_text())
    api, redis = compose["services"]["api"], compose["services"]["redis"]
    assert api["build"] == "."
    assert api["image"] == IMAGE
    assert api["environment"]["REDIS_URL"] == "redis://redis:6379/0"
    assert api["depends_on"]["redis"]["condition"] == "service_healthy"
    assert redis["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]
    # Only nginx is published: it reads requests whole, with timeouts, before the api sees them.
    assert "ports" not in api and api["expose"] == ["8000"]
    lb = compose["services"]["lb"]
    assert lb["ports"] == ["8000:8080"] and lb["image"].startswith("nginx:")
    assert lb["environment"]["TUNK_UPSTREAM_SERVERS"].startswith("server api:8000 ")
    assert "./deploy/nginx/tunk.conf.template:" in lb["volumes"][0]
    assert api["environment"]["FORWARDED_ALLOW_IPS"] == "*"  # the limiter sees the client


def _start(
    tmp_path: Path, script: list[str], done: Callable[[str], bool], workers: int | None = None
) -> tuple[int, str]:
    """Run the start command with an unwritable HOME until ``done(log)``; its port and log.

    ``workers`` sets ``WEB_CONCURRENCY``; by default it is unset, so the worker count comes from
    the CPU count/quota as in the container."""
    port = free_port()
    blocker = tmp_path / "home-is-a-file"
    blocker.write_text("")
    env = {
        **os.environ,
        "HOME": str(blocker / "home"),  # cannot be created, even by root
        "PORT": str(port),
        "BIND_HOST": "127.0.0.1",
        "REDIS_URL": "",
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    env.pop("WEB_CONCURRENCY", None)
    env.pop("XDG_RUNTIME_DIR", None)
    if workers is not None:
        env["WEB_CONCURRENCY"] = str(workers)
    log = tmp_path / f"start-{port}.log"
    proc = spawn(script, log, env)
    try:
        wait_for_port(port, 60, proc)
        poll_until(
            lambda: done(log.read_text(errors="replace")),
            60,
            lambda: log.read_text(errors="replace")[-2000:],
            step=0.1,
        )
        time.sleep(1.0)  # the control server starts next to the workers
    finally:
        stop_process(proc, timeout=30, kill_timeout=10)
    return port, log.read_text(errors="replace")


@pytest.mark.slow
def test_start_script_has_no_control_socket_error(tmp_path: Path) -> None:
    workers = default_workers(available_cpus())
    _, log = _start(
        tmp_path,
        ["sh", "scripts/docker-start"],
        lambda text: text.count("Booting worker") >= workers,
    )
    assert "Control server error" not in log
    assert log.count("Booting worker") == workers, log[-2000:]  # from the CPU count/quota
    # gunicorn.conf.py itself turns the control socket off, so the plain command is clean too.
    # The control server belongs to the master, so one worker is enough to see it (and the five
    # booting workers of the default would only make the start and the stop slower).
    _, plain = _start(
        tmp_path,
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "api.app:create_app()"],
        lambda text: text.count("Booting worker") >= 1,
        workers=1,
    )
    assert "Control server error" not in plain
