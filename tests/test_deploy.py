"""Deployment files: Kubernetes manifests against the API schemas, compose and nginx settings.

``kubernetes-validate`` ships the Kubernetes JSON schemas, so this needs no cluster and no network.
Beyond the schemas, the manifests must agree with each other and with the service: probes on
``/readyz`` and ``/healthz``, selectors that match the pod labels, an autoscaler aimed at the
Deployment, and a ConfigMap holding only variables the service or gunicorn reads, with a
``REDIS_URL`` the service accepts.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

from api.cache.redis_conn import connect
from api.config import ENV_VARS
from tests.test_container import IMAGE, IMAGE_USER

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
K8S = DEPLOY / "k8s"
KUBERNETES_VERSION = kubernetes_validate.latest_version()
GUNICORN_VARS = {
    "PORT",
    "BIND_HOST",
    "WEB_CONCURRENCY",
    "GUNICORN_THREADS",
    "GUNICORN_TIMEOUT",
    "FORWARDED_ALLOW_IPS",
}
LABELS = {"app.kubernetes.io/name": "tunk-hand-analysis"}


def manifests() -> dict[str, dict[str, Any]]:
    """Every manifest by kind (one object per file)."""
    by_kind: dict[str, dict[str, Any]] = {}
    for path in sorted(K8S.glob("*.yaml")):
        if path.name == "kustomization.yaml":
            continue
        for document in yaml.safe_load_all(path.read_text()):
            by_kind[document["kind"]] = document
    return by_kind


@pytest.mark.parametrize("path", sorted(K8S.glob("*.yaml")), ids=lambda p: p.name)
def test_manifest_matches_the_kubernetes_schema(path: Path) -> None:
    if path.name == "kustomization.yaml":
        listed = yaml.safe_load(path.read_text())["resources"]
        assert sorted(listed) == sorted(p.name for p in K8S.glob("*.yaml") if p != path)
        return
    for document in yaml.safe_load_all(path.read_text()):
        # strict: unknown fields (typos such as "readinesProbe") are errors too
        kubernetes_validate.validate(document, KUBERNETES_VERSION, strict=True)


def test_kubernetes_validate_catches_a_typo() -> None:
    """The validator really checks: a misspelt probe field fails."""
    deployment = manifests()["Deployment"]
    container = dict(deployment["spec"]["template"]["spec"]["containers"][0])
    container["readinesProbe"] = container.pop("readinessProbe")
    broken = {**deployment}
    broken["spec"] = {**deployment["spec"]}
    broken["spec"]["template"] = {
        **deployment["spec"]["template"],
        "spec": {**deployment["spec"]["template"]["spec"], "containers": [container]},
    }
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, KUBERNETES_VERSION, strict=True)


def test_deployment_probes_resources_and_labels() -> None:
    deployment = manifests()["Deployment"]
    pod = deployment["spec"]["template"]
    assert deployment["spec"]["selector"]["matchLabels"] == LABELS == pod["metadata"]["labels"]
    (container,) = pod["spec"]["containers"]
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert container["ports"][0]["containerPort"] == 8000
    resources = container["resources"]
    assert set(resources) == {"requests", "limits"}
    assert {"cpu", "memory"} <= set(resources["requests"]) and {"cpu", "memory"} <= set(
        resources["limits"]
    )
    assert container["envFrom"] == [{"configMapRef": {"name": "tunk-hand-analysis"}}]
    assert deployment["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0


def test_deployment_runs_the_images_numeric_user_and_the_one_tag() -> None:
    """The kubelet verifies runAsNonRoot only against a numeric user: the Dockerfile's
    ``USER 10001:10001`` and the pod's runAsUser/runAsGroup name the same non-zero ids (the image
    test reads the user from the built image), and every file names one image and tag."""
    pod = manifests()["Deployment"]["spec"]["template"]["spec"]
    context = pod["securityContext"]
    user, group = (int(part) for part in IMAGE_USER.split(":"))
    assert context["runAsNonRoot"] is True
    assert (context["runAsUser"], context["runAsGroup"]) == (user, group) and user > 0 < group
    (container,) = pod["containers"]
    assert container["image"] == IMAGE
    assert container["securityContext"]["allowPrivilegeEscalation"] is False
    scale = yaml.safe_load((DEPLOY / "compose.scale.yml").read_text())
    assert scale["services"]["api"]["image"] == IMAGE
    operations = (DEPLOY.parent / "docs" / "operations.md").read_text(encoding="utf-8")
    assert f"docker build -t {IMAGE} ." in operations
    named = {
        word
        for line in operations.splitlines()
        if line.startswith("docker run")
        for word in line.split()
        if word.startswith("tunk-hand-analysis")
    }
    assert named == {IMAGE}
    version = tomllib.loads((DEPLOY.parent / "pyproject.toml").read_text())["project"]["version"]
    assert IMAGE.endswith(f":{version}")


def test_service_hpa_and_pdb_point_at_the_deployment() -> None:
    kinds = manifests()
    assert set(kinds) == {
        "ConfigMap",
        "Deployment",
        "Service",
        "HorizontalPodAutoscaler",
        "PodDisruptionBudget",
    }
    name = kinds["Deployment"]["metadata"]["name"]
    assert kinds["Service"]["spec"]["selector"] == LABELS
    assert kinds["Service"]["spec"]["ports"][0]["targetPort"] == "http"
    target = kinds["HorizontalPodAutoscaler"]["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", name)
    assert kinds["HorizontalPodAutoscaler"]["spec"]["minReplicas"] >= 2
    assert kinds["PodDisruptionBudget"]["spec"]["selector"]["matchLabels"] == LABELS
    assert kinds["PodDisruptionBudget"]["spec"]["minAvailable"] >= 1


def test_configmap_sets_only_variables_the_service_reads() -> None:
    data = manifests()["ConfigMap"]["data"]
    assert set(data) <= set(ENV_VARS) | GUNICORN_VARS, set(data) - set(ENV_VARS) - GUNICORN_VARS
    _, mode = connect(data["REDIS_URL"], socket_timeout=0.1, connect_timeout=0.05)
    assert mode == "cluster"


def test_compose_scale_file() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.scale.yml").read_text())
    services = compose["services"]
    nodes = [name for name in services if name.startswith("redis-") and name[6:].isdigit()]
    assert len(nodes) == 6
    for name in nodes:
        assert "--cluster-enabled" in services[name]["command"]
    init = services["redis-cluster-init"]["command"][0]
    assert "--cluster create" in init and "--cluster-replicas 1" in init
    api = services["api"]
    _, mode = connect(api["environment"]["REDIS_URL"], socket_timeout=0.1, connect_timeout=0.05)
    assert mode == "cluster"
    assert api["deploy"]["replicas"] >= 2
    assert set(api["environment"]) <= set(ENV_VARS) | GUNICORN_VARS
    lb = services["lb"]
    assert "./nginx/tunk.conf.template:/etc/nginx/templates/tunk.conf.template:ro" in lb["volumes"]
    assert {"TUNK_LISTEN", "TUNK_UPSTREAM_SERVERS", "TUNK_ACCESS_LOG"} <= set(lb["environment"])


def test_nginx_retries_on_another_replica_and_keeps_upstream_connections() -> None:
    text = (DEPLOY / "nginx" / "tunk.conf.template").read_text()
    assert "proxy_next_upstream error timeout http_502 http_503 http_504 non_idempotent;" in text
    assert "POST of this API is a pure function" in text  # why retrying a POST is safe
    assert "keepalive 32;" in text and 'proxy_set_header Connection "";' in text
    assert "proxy_http_version 1.1;" in text
