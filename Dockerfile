# Tunk Hand Analysis: the HTTP service under gunicorn, as the unprivileged user 10001:10001.
#   docker build -t tunk-hand-analysis:0.2.0 .
#   docker run -p 8000:8000 -e REDIS_URL=redis://host:6379/0 tunk-hand-analysis:0.2.0
# BASE_IMAGE is any Debian-like image with python3 (>= 3.11) and its venv module: the official
# Python image by default; the test suite builds one from Debian packages (debootstrap) and
# passes it here, since no image registry is reachable there (tests/integration/
# test_container_image.py).
ARG BASE_IMAGE=python:3.11-slim

# --- build: the dependencies in a venv, and the package built the way `pip install .` builds it
# (setup.py's compiler flags, -O2 -ffp-contract=off), so the compiled parts in the image are the
# ones the tests check against their Python twins. The compiler stays in this stage.
FROM ${BASE_IMAGE} AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && if ! python3 -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then \
        apt-get install -y --no-install-recommends python3-dev; fi \
    && rm -rf /var/lib/apt/lists/*
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PATH=/opt/venv/bin:$PATH
RUN python3 -m venv /opt/venv
WORKDIR /src
# Dependencies in their own layer: only pyproject.toml (the list) and constraints.txt (the
# versions CI tested) are copied first, so editing the code does not reinstall anything.
COPY pyproject.toml constraints.txt ./
RUN python -c "import tomllib; deps = tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']; open('/tmp/requirements.txt', 'w').write('\n'.join(deps) + '\n')" \
    && pip install -c constraints.txt -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt
COPY setup.py README.md ./
COPY engine ./engine
COPY api ./api
# The package itself (no dependencies: they are above) into /opt/pkg; every compiled part must
# have been built and must load, or the build stops here.
RUN pip install --no-deps --target /opt/pkg . \
    && cd /opt/pkg \
    && python -c "import sys, engine.core.accelerators as a; loaded = a.loaded(); print(loaded); sys.exit(not all(loaded.values()))"

# --- the image: the base, the venv, the built engine and the service's files; no compiler.
FROM ${BASE_IMAGE}

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PYTHONPATH=/app \
    PATH=/opt/venv/bin:$PATH \
    PORT=8000

# A numeric user and group (10001:10001), so Kubernetes' runAsNonRoot can verify them.
RUN groupadd --system --gid 10001 app \
    && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /app app
WORKDIR /app
COPY --from=build /opt/venv /opt/venv
# The code runs from /app (PYTHONPATH): the engine as pip built it (with its compiled parts),
# the API with its data files, the rules text and the start script.
COPY --from=build /opt/pkg/engine ./engine
COPY api ./api
COPY gunicorn.conf.py openapi.yaml ./
COPY docs/rules.md ./docs/rules.md
COPY scripts/docker-start ./scripts/docker-start
# The /learn page serves the JavaScript client module from here.
COPY clients/js/tunk.js clients/js/operations.js ./clients/js/

USER 10001:10001
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=2)"]

# Workers from the container's CPU quota (api.server.cpu_quota), no gunicorn control socket.
CMD ["sh", "/app/scripts/docker-start"]
