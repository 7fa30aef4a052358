"""The deployment files of the worker stack: compose services, Dockerfile, env, dashboards."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml

from services.metrics import ServiceMetrics
from workers.metrics import METRIC_NAMES

ROOT = Path(__file__).resolve().parents[2]
APP_SERVICES = {"api", "worker", "beat", "prometheus", "grafana"}


def compose() -> dict[str, Any]:
    loaded = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def test_the_stack_has_every_service_with_a_health_check() -> None:
    services = compose()["services"]
    assert APP_SERVICES | {"neo4j", "qdrant", "redis"} <= set(services)
    for name in APP_SERVICES:
        assert services[name]["healthcheck"]["test"], name
    assert services["api"]["command"][:2] == ["eywa", "serve"]
    assert "0.0.0.0" in services["api"]["command"]
    assert services["worker"]["command"][:2] == ["eywa", "worker"]
    assert services["beat"]["command"][:2] == ["eywa", "beat"]


def test_bind_mounts_point_at_files_in_the_repository() -> None:
    for name, service in compose()["services"].items():
        for volume in service.get("volumes", []):
            if volume.startswith("./"):
                assert (ROOT / volume.split(":")[0]).exists(), f"{name}: {volume}"


def test_env_example_names_every_eywa_variable_compose_sets() -> None:
    example = {line.split("=", 1)[0] for line in (ROOT / ".env.example").read_text().splitlines() if "=" in line}
    for name, service in compose()["services"].items():
        for variable in service.get("environment", {}):
            if variable.startswith("EYWA_"):
                assert variable in example, f"{name}: {variable}"


def test_prometheus_scrapes_the_api_and_the_worker_ports_compose_exposes() -> None:
    config = yaml.safe_load((ROOT / "ops/prometheus/prometheus.yml").read_text())
    targets = {t for job in config["scrape_configs"] for sc in job["static_configs"] for t in sc["targets"]}
    assert targets == {"api:8000", "worker:9100"}
    assert "9100" in compose()["services"]["worker"]["command"]


def test_every_dashboard_query_uses_a_metric_the_code_defines() -> None:
    api = ServiceMetrics()
    api_names = {
        sample.name for family in api.registry.collect() for sample in family.samples
    } | {f"{f.name}_{s}" for f in api.registry.collect() if f.type == "histogram" for s in ("bucket", "sum", "count")} | {
        f"{f.name}_total" for f in api.registry.collect() if f.type == "counter"
    }
    known = METRIC_NAMES | api_names
    dashboard = json.loads((ROOT / "ops/grafana/dashboards/eywa.json").read_text())
    used = set()
    for panel in dashboard["panels"]:
        assert panel["targets"], panel["title"]
        for target in panel["targets"]:
            used |= set(re.findall(r"\beywa_[a-z0-9_]+", target["expr"]))
    assert used, "the dashboard queries no eywa metric"
    assert used <= known, sorted(used - known)
    assert {"eywa_turns_ingested_total", "eywa_recall_stage_ms_bucket", "eywa_queue_depth",
            "eywa_level1_rejections_total", "eywa_store_errors_total"} <= used


def test_the_dockerfile_installs_the_extras_and_runs_as_a_non_root_user() -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert "FROM python:3.11-slim" in text
    assert '".[server,service,worker]"' in text
    assert re.search(r"^USER (?!root)\w+", text, re.MULTILINE)
    # The question model is built into the runtime user's cache (after USER), once, in the image.
    user = text.index("\nUSER ")
    assert text.index("RUN eywa models prepare", user) > user
