"""The served OpenAPI document: ``/openapi.json`` is ``/openapi.yaml`` (and the committed file) as
JSON, and its ``servers`` is relative, so "Try it out" calls whatever origin served the page."""

from __future__ import annotations

import yaml
from flask.testing import FlaskClient

from tests.support.processes import REPO_ROOT


def test_openapi_json_equals_the_yaml(client: FlaskClient) -> None:
    as_json = client.get("/openapi.json")
    as_yaml = client.get("/openapi.yaml")
    assert as_json.status_code == 200 and as_json.mimetype == "application/json"
    assert as_yaml.status_code == 200 and as_yaml.mimetype == "application/yaml"
    served = yaml.safe_load(as_yaml.get_data(as_text=True))
    assert as_json.get_json() == served
    committed = yaml.safe_load((REPO_ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    assert served == committed


def test_servers_are_relative_and_the_docs_page_calls_only_its_origin(
    client: FlaskClient,
) -> None:
    servers = client.get("/openapi.json").get_json()["servers"]
    assert [server["url"] for server in servers] == ["/"]
    page = client.get("/docs")
    assert page.status_code == 200, page.headers
    csp = page.headers.get("Content-Security-Policy", "")
    assert "connect-src 'self';" in csp and "default-src 'none'" in csp, dict(page.headers)
    assert "frame-ancestors 'none'" in csp


def test_behind_a_path_prefix_the_server_is_the_prefix(client: FlaskClient) -> None:
    """A proxy mounting the service at ``/tunk`` (``SCRIPT_NAME``): the docs page loads the spec
    from ``/tunk/openapi.yaml`` and "Try it out" must call ``/tunk/v1/...``."""
    prefixed = {"SCRIPT_NAME": "/tunk"}
    as_json = client.get("/openapi.json", environ_overrides=prefixed).get_json()
    as_yaml = client.get("/openapi.yaml", environ_overrides=prefixed).get_data(as_text=True)
    assert as_json["servers"][0]["url"] == "/tunk"
    assert yaml.safe_load(as_yaml) == as_json
    init = client.get("/docs/init.js", environ_overrides=prefixed).get_data(as_text=True)
    assert 'url: "/tunk/openapi.yaml"' in init
    assert client.get("/openapi.json").get_json()["servers"][0]["url"] == "/"  # cache unharmed
