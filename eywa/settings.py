"""The one settings object. Read by entry points only, never at import time.

``load_settings`` is how an entry point reads it: from ``EYWA_*`` variables, with overrides,
and with a value that does not validate reported as a ``ConfigurationError`` naming the
variable (``EYWA_DISABLED_STAGES: …``) rather than pydantic's multi-line error.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import AliasChoices, Field, PositiveFloat, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict, SettingsError

from eywa.errors import ConfigurationError
from eywa.models import Stage
from eywa.values import MAX_JSON_DEPTH

QueryKernels = Literal["auto", "float", "integer"]
"""How MiniLM embeds recall questions (``embed_query_kernels``, ``eywa.embedding.integer``)."""

_REDIS_SCHEMES = ("redis", "rediss", "unix")
NEO4J_TIMEOUT_MAX_S = 86_400.0
"""The largest Neo4j timeout setting taken (a day): the driver cannot use every float
(a socket timeout over ~9.2e9 s, a transaction timeout over ~9.2e15 s, or infinity, was an
OverflowError out of the first query, not a configuration error), and none longer is a bound."""
ExtractorChoice = Literal["rules", "openai", "anthropic", "none"]
EmbedderChoice = Literal["minilm", "openai", "bge-small", "bge-small-fp32"]


def _neo4j_seconds(default: float, *, zero_allowed: bool, description: str) -> Any:
    """A Neo4j timeout field: finite seconds up to ``NEO4J_TIMEOUT_MAX_S``, above 0, or at
    least 0 where 0 means something (``zero_allowed``)."""
    return Field(
        default=default,
        ge=0 if zero_allowed else None,
        gt=None if zero_allowed else 0,
        le=NEO4J_TIMEOUT_MAX_S,
        allow_inf_nan=False,
        description=description,
    )


class EywaSettings(BaseSettings):
    """All configuration, from ``EYWA_*`` environment variables.

    Example:
        >>> EywaSettings(data_dir=Path("/tmp/eywa")).data_dir
        PosixPath('/tmp/eywa')
    """

    model_config = SettingsConfigDict(env_prefix="EYWA_", extra="ignore")

    data_dir: Path = Field(default=Path(".eywa"), description="Embedded store directory.")

    # Embeddings
    embedder: EmbedderChoice = Field(
        default="minilm",
        description="minilm (shipped), openai (an endpoint), or bge-small / bge-small-fp32 (bge-small-en-v1.5 int8 / "
        "float, fetched once with `eywa models fetch bge-small`); a change re-embeds every turn and belief once.",
    )
    embed_batch_size: int = Field(default=64, ge=1, le=1024)
    embed_max_tokens: int = Field(default=256, ge=16, le=512)
    embed_threads: int = Field(default=0, ge=0, description="onnxruntime intra-op threads; 0 = auto")
    embed_integer_kernels: bool = Field(
        default=False,
        description="MiniLM dynamically quantised, with integer matrix products (needs eywa[quantize]): about "
        "half the CPU per text; its vectors differ slightly, so a store re-embeds every turn once when it changes.",
    )
    embed_query_kernels: QueryKernels = Field(
        default="auto",
        description="How MiniLM embeds recall questions: integer (integer matrix products, about two thirds of the "
        "float model's CPU; turns stay float, so nothing is re-embedded), float, or auto (integer on a CPU with VNNI, "
        "where it was measured to keep recall, when the onnx package is installed; float elsewhere).",
    )
    embed_query_instruction: bool = Field(
        default=True,
        description="bge-small: prefix recall questions with the model's retrieval instruction (off only to measure it).",
    )
    openai_embeddings_url: str | None = None
    openai_embeddings_model: str = "text-embedding-3-small"
    openai_embeddings_dim: int = 1536
    openai_embeddings_api_key: SecretStr | None = None

    # Level 1 extraction
    extractor: ExtractorChoice = "rules"
    level1_batch_size: int = Field(default=32, ge=1)
    level1_wait: bool = True
    llm_base_url: str | None = None
    llm_model: str | None = None
    llm_api_key: SecretStr | None = None
    llm_timeout_s: float = Field(default=60.0, gt=0)
    llm_max_retries: int = Field(default=3, ge=0)
    anthropic_api_key: SecretStr | None = None
    anthropic_model: str = "claude-sonnet-4-5"
    validator_support_threshold: float = Field(default=0.5, ge=0.0, le=1.0)

    # Read path
    rrf_k: int = Field(default=20, ge=1)
    default_k: int = Field(default=10, ge=1)
    disabled_stages: list[Stage] = Field(
        default_factory=list,
        description="Routes or post-filters to switch off (ablations), e.g. '[\"graph\"]'; "
        "an unknown name is a configuration error.",
    )

    # Server backends
    neo4j_uri: str | None = None
    neo4j_user: str = "neo4j"
    neo4j_password: SecretStr | None = None
    neo4j_database: str = "neo4j"
    neo4j_pool_size: int = Field(
        default=32, ge=1, description="Neo4j driver connections per process (reads borrow one per query)."
    )
    neo4j_retry_s: float = _neo4j_seconds(
        5.0,
        zero_allowed=True,
        description="How long a Neo4j write transaction or read query that failed transiently (the server "
        "restarting) is retried before the call fails (StoreError; HTTP 503 store_unavailable). The driver's own "
        "default, 30 s, outlasts a client's timeout, so a write during an outage was a timeout, not a 503.",
    )
    neo4j_connect_timeout_s: float = _neo4j_seconds(
        5.0,
        zero_allowed=False,
        description="How long opening a TCP connection to Neo4j may take (the driver's connection_timeout; "
        "its default is 30 s).",
    )
    neo4j_acquire_timeout_s: float = _neo4j_seconds(
        10.0,
        zero_allowed=False,
        description="How long a query may wait for a pooled Neo4j connection, opening a new one and checking an "
        "idle one is alive included (the driver's connection_acquisition_timeout; its default is 60 s). A server "
        "that stopped answering (paused, black-holed) fails the call within about this long (StoreError; HTTP 503 "
        "store_unavailable).",
    )
    neo4j_liveness_check_s: float = _neo4j_seconds(
        0.0,
        zero_allowed=True,
        description="A pooled Neo4j connection idle at least this long is checked with one round trip before a "
        "query uses it (the driver's liveness_check_timeout); 0 checks it before every use (about 0.1 ms a query "
        "on loopback). Unchecked, a query on a connection to a server that stopped answering waited for the "
        "server's own receive timeout (120 s) before failing.",
    )
    neo4j_transaction_timeout_s: float = _neo4j_seconds(
        30.0,
        zero_allowed=True,
        description="Server-side limit of each Neo4j read query and write transaction of the stores (migrations "
        "excluded): Neo4j terminates one that runs longer and the call fails (StoreError). 0 = the server's "
        "db.transaction.timeout.",
    )
    read_concurrency: int = Field(
        default=8,
        ge=1,
        description="Server mode: the reads of one recall run at once, in a thread pool of this size "
        "(the embedded store runs them one by one): up to seven routes, the keyword search they share "
        "and the trace's backlog count. With 4, a five-route question queued a route behind the others.",
    )
    qdrant_url: str | None = None
    qdrant_api_key: SecretStr | None = None
    qdrant_path: Path | None = Field(
        default=None, description="qdrant-client local mode at this path when no qdrant_url."
    )
    qdrant_count_check: Literal["auto", "on", "off"] = Field(
        default="auto",
        description="Server mode: at connect, compare each Qdrant collection's points with the items "
        "the ledger counts as embedded and mark the missing ones for embedding (eywa.stores.neo4j."
        "lost_vectors). auto: with qdrant_url only; local mode is one process's folder, and several "
        "processes over one Neo4j (a benchmark's passes, a test's replicas) each have their own, "
        "which would mark the others' items lost.",
    )

    # HTTP / MCP service (services/)
    api_keys_path: Path | None = Field(
        default=None,
        description="Embedded mode: SQLite file of hashed API keys; default <data_dir>/keys.sqlite. "
        "Server mode keeps keys in Neo4j and ignores it.",
    )
    max_body_bytes: int = Field(default=2_000_000, ge=1024, description="Largest request body accepted.")

    # The input contract: one set of limits for every surface (eywa.contract)
    max_turns_per_batch: int = Field(default=500, ge=1, description="Turns in one remember call.")
    max_chars_per_turn: int = Field(default=20_000, ge=1, description="Characters of one turn's text.")
    max_label_chars: int = Field(
        default=500, ge=1, description="Characters of a speaker, role, session, external id, entity or attribute."
    )
    max_query_chars: int = Field(default=4_000, ge=1, description="Characters of a recall query.")
    max_k: int = Field(
        default=100, ge=1, validation_alias=AliasChoices("max_k", "EYWA_MAX_K", "EYWA_MAX_RECALL_K"),
        description="Largest k of a recall (EYWA_MAX_RECALL_K is read as before).",
    )  # fmt: skip
    max_budget_tokens: int = Field(default=32_000, ge=1, description="Largest token budget of a recall.")
    max_metadata_depth: int = Field(default=16, ge=1, le=MAX_JSON_DEPTH, description="Nesting of a turn's metadata.")
    max_metadata_bytes: int = Field(default=16_384, ge=2, description="UTF-8 JSON size of a turn's metadata.")
    space_max_turns: int = Field(default=0, ge=0, description="Turns a space may hold; 0 = no quota.")
    space_max_bytes: int = Field(
        default=0, ge=0, description="UTF-8 bytes of text and metadata a space may hold; 0 = no quota."
    )

    rate_limit_per_minute: int = Field(
        default=600, ge=0, description="Requests per minute per API key; 0 disables the limit."
    )
    redis_url: str | None = Field(
        default=None, description="Redis for rate limiting; without it the limiter is off."
    )
    redis_timeout_s: float = Field(
        default=2.0,
        gt=0,
        description="Seconds the API waits on Redis for a connect or one command (sending a task, "
        "a job's task state, a rate-limit count, the readiness ping) before taking it as unreachable; "
        "not the workers' blocking reads of the queue.",
    )

    @field_validator("redis_url")
    @classmethod
    def _redis_url_readable(cls, value: str | None) -> str | None:
        """A Redis URL redis-py can read: a ``redis``, ``rediss`` or ``unix`` scheme and a
        port from 0 to 65535. redis-py reads it only when the API, a worker or the beat
        builds its client, and raised a bare ``ValueError`` there: ``eywa serve`` ended in
        a traceback (the core cannot ask redis-py itself: it imports no queue framework)."""
        if not value:  # unset (an empty variable too): no Redis
            return value
        parts = urlsplit(value)
        if parts.scheme not in _REDIS_SCHEMES:
            raise ValueError(f"the scheme must be one of {', '.join(_REDIS_SCHEMES)} (e.g. redis://localhost:6379/0)")
        _ = parts.port  # ValueError: a port that is no number or out of range, a broken IPv6 host
        return value
    erasure_secret: SecretStr | None = Field(
        default=None,
        description="The HMAC key of erasure records (eywa.erasure.plan); unset: one generated per "
        "deployment beside the store (embedded: <data_dir>/erasure.key, 0600; Neo4j: a StoreMeta node).",
    )
    session_secret: SecretStr | None = Field(
        default=None,
        description="Signs the console's session cookies (/console); set the same value on every API "
        "replica. Unset: a random secret per process (sessions end when it restarts and are not "
        "shared between replicas).",
    )
    access_log_retention_days: int = Field(
        default=30, ge=0, description="Days the API and MCP access log keeps an event; 0 keeps them all."
    )
    keyword_index: Literal["memory", "fts5"] = Field(
        default="memory",
        description="Embedded store: rank evidence keyword searches from an in-memory copy of the FTS5 index "
        "(the same rows and ranks, several times cheaper; built in the background after open, FTS5 answers "
        "until then and whenever the copy is not provably current) or always by FTS5.",
    )
    job_runner: Literal["inline", "celery"] = Field(
        default="inline", description="Level 1 for the API: in-process, or Celery workers (needs redis_url)."
    )

    # Queue and workers (server mode; the embedded default runs Level 1 in-process)
    celery_visibility_timeout_s: int = Field(
        default=3600, ge=1, description="Seconds before an unacknowledged task is redelivered."
    )
    celery_result_expires_s: int = Field(default=86400, ge=60)
    worker_metrics_port: int = Field(default=0, ge=0, le=65535, description="Worker /metrics port; 0 = off.")
    dimension_lock_timeout_s: float = Field(default=120.0, gt=0, description="Per-dimension Redis lock lease.")
    repair_interval_s: float = Field(default=600.0, gt=0, description="Beat: repair of 'repair' candidates.")
    decay_interval_s: float = Field(default=300.0, gt=0, description="Beat: decay materialised for dashboards.")
    retention_days: dict[str, PositiveFloat] = Field(
        default_factory=dict,
        description='Retention per space in days, on recorded_at (JSON: {"space": 30, "*": 365}; "*" = every '
        "other space); turns older are erased through the cascade by the beat and Memory.apply_retention.",
    )
    retention_interval_s: float = Field(default=3600.0, gt=0, description="Beat: retention erasures.")

    # Reconciliation of pending stages (the stage ledger) and backpressure
    reconcile_interval_s: float = Field(
        default=30.0, gt=0, description="How often the API and the beat finish pending stages."
    )
    reconcile_grace_s: float = Field(
        default=120.0, ge=0, description="Beat: re-enqueue Level 1 marks untouched for this long (lost messages)."
    )
    reconcile_batch: int = Field(default=500, ge=1, description="Pending marks per stage per reconciliation pass.")
    stage_max_attempts: int = Field(
        default=8, ge=1, description="A job reads 'failed' once one of its stages failed this many times."
    )
    max_backlog: int = Field(
        default=0, ge=0, description="Writes are refused (503) while more turns wait for Level 1; 0 = no bound."
    )
    max_embed_backlog: int = Field(
        default=0, ge=0,
        description="Writes are refused (503) while more turns of the deployment wait for their embedding; 0 = no "
        "bound. The embedders are shared by every space, so a turn's embedding lag is about this bound over the "
        "embedding rate: set it to the lag you accept times the rate `eywa bench service --rate` measured.",
    )  # fmt: skip
    backlog_retry_after_s: int = Field(default=5, ge=1, description="Retry-After of a write refused by backpressure.")
    background_nice: int = Field(
        default=10, ge=0, le=19,
        description="Nice value of the thread that finishes writes acknowledged after Level 0 (embedding, Level 1) "
        "in-process: requests get the cores first. 0 = the priority of the requests.",
    )  # fmt: skip


def load_settings(data_dir: Path | None = None, **overrides: Any) -> EywaSettings:
    """Settings from the environment, with ``data_dir`` (``--data-dir``, when given) and
    ``overrides`` (field name → value) applied and validated like the environment's values.

    Raises:
        ConfigurationError: an ``EYWA_*`` variable or an override does not validate; the
            message names the first offending variable.
    """
    if data_dir is not None:
        overrides["data_dir"] = data_dir
    try:
        settings = EywaSettings()
        return EywaSettings.model_validate({**settings.model_dump(), **overrides}) if overrides else settings
    except ValidationError as exc:
        first = exc.errors()[0]
        name = "EYWA_" + ".".join(str(p) for p in first["loc"][:1]).upper()
        raise ConfigurationError(f"{name}: {first['msg']}") from exc
    except SettingsError as exc:  # a list or mapping variable that is not JSON, before validation
        field = re.search(r'field "(\w+)"', str(exc))
        name = f"EYWA_{field.group(1).upper()}" if field else "an EYWA_* variable"
        raise ConfigurationError(f"{name}: not JSON ({exc.__cause__ or exc}); a list or mapping is written as JSON") from exc


def as_environment(settings: EywaSettings) -> dict[str, str]:
    """The ``EYWA_*`` variables that give a child process exactly these settings.

    Unset values (``None``) map to nothing; the caller removes inherited ``EYWA_*`` first.
    Secrets are written in clear: the environment is the child's own.
    """
    environment: dict[str, str] = {}
    for name, value in settings.model_dump(mode="python").items():
        if value is None:
            continue
        if isinstance(value, SecretStr):
            text = value.get_secret_value()
        elif isinstance(value, (list, dict)):
            text = json.dumps(value)
        elif isinstance(value, bool):
            text = "true" if value else "false"
        else:
            text = str(value)
        environment[f"EYWA_{name.upper()}"] = text
    return environment
