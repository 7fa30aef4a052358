"""Portability: a space written out as JSONL and restored into an empty space on either
backend (``records``: the format; ``export``: reading a space out; ``restore``: writing it
back)."""

from eywa.portability.export import export_records
from eywa.portability.records import (
    EXPORT_FORMAT,
    EXPORT_VERSION,
    ExportHeader,
    ExportRecord,
    import_lines,
    parse_lines,
    record_json,
)
from eywa.portability.restore import ImportReport, restore_records, space_contents

__all__ = [
    "EXPORT_FORMAT",
    "EXPORT_VERSION",
    "ExportHeader",
    "ExportRecord",
    "ImportReport",
    "export_records",
    "import_lines",
    "parse_lines",
    "record_json",
    "restore_records",
    "space_contents",
]
