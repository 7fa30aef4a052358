"""What an online backup of a store reports (``Memory.backup``; the embedded store's is
``eywa.stores.embedded.backup``)."""

from __future__ import annotations

from eywa.models import Frozen

__all__ = ["BackupReport"]


class BackupReport(Frozen):
    """What a backup copied: the SQLite files, and the turns and beliefs whose vectors the
    copy embeds again when it is opened (vectors are not copied)."""

    destination: str
    files: tuple[str, ...]
    turns: int
    beliefs: int
