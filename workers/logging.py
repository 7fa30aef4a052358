"""Structured JSON logs: one object per line, with the task id (the job id) in every line.

The API's request id travels to the worker as the task's ``request_id`` header when the
runner sets one; both ids are added to each record by ``JsonFormatter`` from Celery's
current task, so a job can be followed from the HTTP request to the worker's last line.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any

from celery import current_task

__all__ = ["JsonFormatter", "configure_json_logging"]

_STANDARD = frozenset(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    """Formats a record as one JSON object (time, level, logger, message, ids, extras)."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as a JSON line; extras passed with ``extra=`` become fields."""
        payload: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        task = current_task
        if task and task.request.id is not None:  # a proxy: falsy outside a task
            payload["task_id"] = task.request.id
            payload["task"] = task.name
            request_id = getattr(task.request, "request_id", None)
            if request_id:
                payload["request_id"] = request_id
        payload.update({k: v for k, v in vars(record).items() if k not in _STANDARD and not k.startswith("_")})
        if record.exc_info:
            payload["exc"] = self.formatException(record.exc_info)
        return json.dumps(payload, default=str)


def configure_json_logging(level: int | str = logging.INFO) -> None:
    """Send every logger's records to stderr as JSON lines (the worker's root handler)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
