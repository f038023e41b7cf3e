"""A Python client generated from openapi.yaml calls the live app for every operation.

``openapi-python-client`` (dev extra) generates the client from the committed document; a real
werkzeug server runs the app on a loopback port; each operation is called through its generated
function (found by ``operationId``) with its first request example. The answer must be 200, parse
into the generated model, and print back to exactly the JSON the server sent, so names, types,
enums and nullability in the document are all true.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
import os
import pkgutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml
from werkzeug.serving import make_server

from api.app import create_app
from api.docs.openapi import SPEC_PATH, concrete, first_request
from tests.conftest import free_port

pytestmark = pytest.mark.slow
PACKAGE = "tunk_generated_client"


@pytest.fixture(scope="module")
def client_package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    root = tmp_path_factory.mktemp("generated")
    out = root / PACKAGE
    bin_dir = Path(sys.executable).parent
    done = subprocess.run(
        [
            str(bin_dir / "openapi-python-client"),
            "generate",
            "--path",
            str(SPEC_PATH),
            "--output-path",
            str(out),
            "--meta",
            "none",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=root,
        env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Warning" not in done.stdout, done.stdout  # every schema and operation generated
    # Loaded from its folder as a package (its submodules are found through the package's
    # __path__), so the test needs no sys.path entry.
    spec = importlib.util.spec_from_file_location(
        PACKAGE, out / "__init__.py", submodule_search_locations=[str(out)]
    )
    assert spec is not None and spec.loader is not None
    package = importlib.util.module_from_spec(spec)
    sys.modules[PACKAGE] = package
    try:
        spec.loader.exec_module(package)
        yield package
    finally:
        for name in [n for n in sys.modules if n.startswith(PACKAGE)]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def live_url() -> Iterator[str]:
    port = free_port()
    server = make_server("127.0.0.1", port, create_app({"REDIS_URL": None}), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}"
    server.shutdown()
    thread.join(timeout=5)
    server.server_close()


def _functions(package: ModuleType) -> dict[str, ModuleType]:
    """Generated operation modules by normalised name (``gffmelds`` for ``gff_melds``)."""
    api = importlib.import_module(f"{package.__name__}.api")
    found: dict[str, ModuleType] = {}
    for info in pkgutil.walk_packages(api.__path__, f"{api.__name__}."):
        module = importlib.import_module(info.name)
        if hasattr(module, "sync_detailed"):
            found[info.name.rsplit(".", 1)[1].replace("_", "")] = module
    return found


def _operations() -> list[tuple[str, str, dict[str, Any]]]:
    document = yaml.safe_load(SPEC_PATH.read_text(encoding="utf-8"))
    return [
        (
            method,
            path,
            {**op, "parameters": [*item.get("parameters", []), *op.get("parameters", [])]},
        )
        for path, item in document["paths"].items()
        for method, op in item.items()
        if method in ("get", "post")
    ]


def test_every_operation_has_an_operation_id() -> None:
    ids = [op["operationId"] for _, _, op in _operations()]
    assert len(ids) == len(set(ids))
    assert {"gffMelds", "ttKnock", "t13Settle", "gffArrangement", "batch", "getRule"} <= set(ids)


def test_generated_client_calls_every_operation(client_package: ModuleType, live_url: str) -> None:
    client_module = importlib.import_module(f"{PACKAGE}.client")
    client = client_module.Client(base_url=live_url, raise_on_unexpected_status=True)
    functions = _functions(client_package)
    called = 0
    for method, path, op in _operations():
        module = functions[op["operationId"].lower()]
        kwargs: dict[str, Any] = {"client": client}
        signature = inspect.signature(module.sync_detailed)
        for parameter in op.get("parameters", []):
            if parameter["in"] == "path":
                kwargs[parameter["name"]] = concrete("{" + parameter["name"] + "}")
        if method == "post":
            has_body, body = first_request(op)
            assert has_body, f"{path} has no request example"
            model = signature.parameters["body"].annotation
            if isinstance(model, str):
                model = eval(model, vars(module))  # noqa: S307  # the generated annotation
            kwargs["body"] = model.from_dict(body)
        response = module.sync_detailed(**kwargs)
        assert response.status_code == 200, (path, response.content[:300])
        assert response.parsed is not None, path
        sent = json.loads(response.content)
        assert response.parsed.to_dict() == sent, path  # the model holds every field as sent
        assert response.headers.get("X-Request-ID"), path
        called += 1
    assert called == len(_operations()) == 29
