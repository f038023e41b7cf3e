"""The tutorials (docs/tutorials.md), run as written against a live service (real gunicorn).

Every ``sh`` and ``python`` block of ``docs/tutorial*.md`` runs against gunicorn on a free
port: ``http://127.0.0.1:8000`` in the text becomes that port, the line that starts the service
(``bash scripts/serve &``) is left out (the test started it), and a shell block runs with a
``PATH`` where ``python3`` exists and ``python`` does not, as on a stock Debian. What the
tutorials import beyond the standard library must be in the ``client`` extra
(``pip install '.[client]'``), the one command the tutorials give for it. A tutorial's "your
game" function (``play_a_round``) is supplied by the test, deterministically.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.processes import REPO_ROOT, GunicornProcess, start_gunicorn

pytestmark = pytest.mark.slow

DEFAULT_ORIGIN = "http://127.0.0.1:8000"
START_LINE = re.compile(r"^\s*bash scripts/serve\b.*$", re.M)
BARE_PYTHON = re.compile(r"(^|[|;&(]\s*|\s)python(\s|$)", re.M)
# What a reader supplies: their own game's outcomes, here a fixed one (seat 0 goes out, T13-6).
PRELUDE = """
def play_a_round(state):
    players = len(state.get("previous_totals") or [0, 0, 0])
    return 0, [0] + [5 * seat for seat in range(1, players)]
"""
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)


def tutorial_text() -> str:
    """Every docs/tutorial*.md (the README links them)."""
    pages = sorted((REPO_ROOT / "docs").glob("tutorial*.md"))
    assert pages, "docs/tutorials.md is missing"
    return "\n".join(p.read_text(encoding="utf-8") for p in pages)


def blocks(language: str) -> list[str]:
    """The tutorials' code blocks in ``language``, in order."""
    return [code for lang, code in BLOCK.findall(tutorial_text()) if lang == language]


def test_tutorial_commands_call_python3_and_imports_come_from_the_client_extra() -> None:
    for code in blocks("sh"):
        assert not BARE_PYTHON.search(code), (
            f"`python` is not on a stock Debian; use python3:\n{code}"
        )
    extras = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    client = {re.split(r"[<>=\[; ]", req, maxsplit=1)[0].lower() for req in extras["client"]}
    for code in blocks("python"):
        for node in ast.walk(ast.parse(code)):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module.split(".")[0]]
            for name in names:
                if name in sys.stdlib_module_names or name in {"engine", "tunk_client"}:
                    continue
                assert name.lower() in client, f"{name} is not in the client extra"


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GunicornProcess]:
    log = tmp_path_factory.mktemp("tutorials") / "gunicorn.log"
    running = start_gunicorn(log, {"WEB_CONCURRENCY": "1", "REDIS_URL": ""})
    try:
        yield running
    finally:
        running.stop()


def _here(code: str, port: int) -> str:
    return code.replace(DEFAULT_ORIGIN, f"http://127.0.0.1:{port}")


def _stock_path(tmp_path: Path) -> str:
    """``python3`` (this interpreter) and the venv's tools, but no ``python``."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(sys.executable)
    venv_bin = Path(sys.executable).parent
    for tool in venv_bin.iterdir():
        if tool.name.startswith("python") or tool.name in {"activate", "pip"}:
            continue
        (bin_dir / tool.name).symlink_to(tool)
    return f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin"


def test_tutorials_run_against_a_live_service(service: GunicornProcess, tmp_path: Path) -> None:
    work = tmp_path / "reader"  # the reader's directory: the spec file, whatever they generate
    work.mkdir()
    shutil.copyfile(REPO_ROOT / "openapi.yaml", work / "openapi.yaml")
    env = {"HOME": str(tmp_path), "PATH": _stock_path(tmp_path), "LANG": "C.UTF-8"}
    assert subprocess.run(["sh", "-c", "command -v python"], env=env).returncode != 0
    ran = 0
    for code in blocks("sh"):
        script = START_LINE.sub("", _here(code, service.port))
        done = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", script],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, f"{script}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        ran += 1
    for code in blocks("python"):
        program = PRELUDE + _here(code, service.port)
        done = subprocess.run(
            [sys.executable, "-c", program],
            cwd=work,
            env={**env, "PYTHONPATH": os.pathsep.join([str(work), str(REPO_ROOT)])},
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, f"{code}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        ran += 1
    assert ran >= 4
