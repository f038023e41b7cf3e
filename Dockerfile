# Tunk Hand Analysis: the HTTP service under gunicorn, as a non-root user.
#   docker build -t tunk-hand-analysis .
#   docker run -p 8000:8000 -e REDIS_URL=redis://host:6379/0 tunk-hand-analysis
# The engine's optional compiled parts (setup.py) are built in a stage of their own, so the
# image itself carries no compiler.
FROM python:3.11-slim AS accelerator
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY engine/standard/_solver.c engine/standard/_deadwood.c engine/advice/tunk/_keeptable.c ./
RUN inc="$(python -c 'import sysconfig; print(sysconfig.get_paths()["include"])')" \
    && ext="$(python -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')" \
    && for m in _card_solver _std_deadwood _keeptable; do gcc -O2 -shared -fPIC -I"$inc" "$m.c" -o "$m$ext"; done

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONPATH=/app \
    PORT=8000

WORKDIR /app
RUN groupadd --system app && useradd --system --gid app --no-create-home --home-dir /app app

# Dependencies in their own layer: only pyproject.toml (the list) and constraints.txt (the
# versions CI tested) are copied first, so editing the code does not reinstall anything.
COPY pyproject.toml constraints.txt ./
RUN python -c "import tomllib; deps = tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']; open('/tmp/requirements.txt', 'w').write('\n'.join(deps) + '\n')" \
    && pip install -c constraints.txt -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

# The code runs from /app (PYTHONPATH): engine, api, the rules text and the start script.
COPY gunicorn.conf.py openapi.yaml ./
COPY docs/rules.md ./docs/rules.md
COPY scripts/docker-start ./scripts/docker-start
COPY engine ./engine
COPY api ./api
COPY --from=accelerator /src/_card_solver*.so /src/_std_deadwood*.so ./engine/
COPY --from=accelerator /src/_keeptable*.so ./engine/advice/

USER app
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=2)"]

# Workers from the container's CPU quota (api.server.cpu_quota), no gunicorn control socket.
CMD ["sh", "/app/scripts/docker-start"]
