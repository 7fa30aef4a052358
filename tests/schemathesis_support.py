"""What the schemathesis-driven tests share: an operation read from an OpenAPI schema."""

from __future__ import annotations

from typing import Any

import schemathesis
from schemathesis.core.errors import InvalidSchema
from schemathesis.core.result import Err, Ok

Operation = schemathesis.APIOperation[Any, Any, Any, Any]


def schema_operation(found: Ok[Operation] | Err[InvalidSchema]) -> Operation:
    """An operation schemathesis read from the schema, or the reason it could not (an ``Err``
    has no ``ok()``)."""
    if isinstance(found, Err):
        raise found.err()
    return found.ok()
