# The Eywa application image: API (eywa serve), worker (eywa worker) and scheduler (eywa beat).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    ORT_DISABLE_TELEMETRY=1

WORKDIR /app
COPY pyproject.toml README.md ./
COPY eywa ./eywa
COPY graph_schema ./graph_schema
COPY services ./services
COPY workers ./workers
RUN pip install ".[server,service,worker]" \
    && useradd --create-home --uid 10001 eywa \
    && mkdir -p /data \
    && chown eywa:eywa /data

USER eywa
# The question model (integer kernels, EYWA_EMBED_QUERY_KERNELS) is built once into the image's
# ~/.cache, so no replica builds it on its first recall (nor fails to, on a read-only filesystem).
RUN eywa models prepare
ENV EYWA_DATA_DIR=/data
EXPOSE 8000 9100
CMD ["eywa", "serve", "--host", "0.0.0.0", "--port", "8000"]
