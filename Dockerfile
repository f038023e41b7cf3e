# Tunk Hand Analysis: the HTTP service under gunicorn, as a non-root user.
#   docker build -t tunk-hand-analysis .
#   docker run -p 8000:8000 -e REDIS_URL=redis://host:6379/0 tunk-hand-analysis
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PORT=8000

WORKDIR /app
RUN groupadd --system app && useradd --system --gid app --no-create-home --home-dir /app app

# Dependencies first (cached layer), then the code.
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY api ./api
RUN pip install . && rm -rf build *.egg-info
COPY gunicorn.conf.py openapi.yaml ./

USER app
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=2)"]

# Same entry point as scripts/serve.
CMD ["gunicorn", "-c", "gunicorn.conf.py", "api:create_app()"]
