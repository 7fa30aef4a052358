"""Apply the numbered migrations of ``graph_schema/migrations`` to a Neo4j database.

Each file ``NNNN_name.cypher`` is one migration: statements separated by a ``;`` at the end
of a line, full-line ``//`` comments allowed. What was applied is recorded as
``(:SchemaMigration {version, name, checksum, applied_at})`` nodes; the checksum is the
SHA-256 of the file, and a recorded migration whose file changed (or vanished) stops the
runner before it touches anything: never edit an applied migration, add a new one.

Neo4j refuses schema commands and data writes in one transaction, so there are kinds of
migration and a file must be one of them:

* data migrations run all their statements and their bookkeeping in one transaction, so
  they apply completely or not at all;
* schema migrations (CREATE/DROP INDEX/CONSTRAINT) run each statement in its own
  transaction and then record the migration. A crash in between leaves some statements
  applied and the migration unrecorded; the next run repeats them, which is safe because
  every schema statement must say ``IF NOT EXISTS`` / ``IF EXISTS`` (the runner refuses one
  that does not);
* Python migrations (``NNNN_name.py``) are data migrations whose values Cypher cannot
  compute (an id is a SHA-256 of its parts; Cypher has no hash function). The file defines
  ``migrate(tx: neo4j.ManagedTransaction) -> None``, which runs with the bookkeeping in one
  transaction, exactly like a Cypher data migration, and is checksummed like one.

``SchemaMigration`` nodes are database metadata, not part of any space, which is why their
queries are the only ones without a space filter.

The migrations folder is found next to the source tree (checkout or editable install) and
otherwise as the ``graph_schema`` resource package that pyproject ships in the wheel, so
``graph_schema/`` stays the single copy.
"""

from __future__ import annotations

import hashlib
import re
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Literal

from neo4j import Driver, ManagedTransaction, Session
from neo4j.exceptions import DriverError, Neo4jError
from pydantic import BaseModel, ConfigDict

from eywa.errors import StoreError
from eywa.stores.neo4j.labels import Label

MigrationKind = Literal["schema", "data", "python"]

_FILE_NAME = re.compile(r"^(?P<version>\d{4})_(?P<slug>[a-z0-9_]+)\.(?P<ext>cypher|py)$")
_STATEMENT_END = re.compile(r";[ \t]*$", re.MULTILINE)
_SCHEMA_STATEMENT = re.compile(
    r"^(CREATE|DROP)\s+(OR\s+REPLACE\s+)?((RANGE|TEXT|POINT|LOOKUP|FULLTEXT|VECTOR)\s+)?"
    r"(INDEX|CONSTRAINT)\b",
    re.IGNORECASE,
)
_IDEMPOTENT = re.compile(r"\bIF\s+(NOT\s+)?EXISTS\b", re.IGNORECASE)

_BOOTSTRAP = (
    f"CREATE CONSTRAINT schema_migration_version IF NOT EXISTS "
    f"FOR (m:{Label.SCHEMA_MIGRATION}) REQUIRE m.version IS UNIQUE"
)
_READ_APPLIED = (
    f"MATCH (m:{Label.SCHEMA_MIGRATION}) "
    "RETURN m.version AS version, m.name AS name, m.checksum AS checksum ORDER BY version"
)
_RECORD = (
    f"MERGE (m:{Label.SCHEMA_MIGRATION} {{version: $version}}) "
    "ON CREATE SET m.name = $name, m.checksum = $checksum, m.applied_at = datetime() "
    "RETURN m.checksum AS checksum"
)

_AWAIT_INDEXES = "CALL db.awaitIndexes(300)"


class Migration(BaseModel):
    """One migration file, parsed."""

    model_config = ConfigDict(frozen=True)

    version: int
    name: str
    checksum: str
    kind: MigrationKind
    statements: tuple[str, ...]
    source: str = ""  # the code of a Python migration


class MigrationChecksumError(StoreError):
    """An applied migration's file differs from what was applied, or is gone."""

    def __init__(self, version: int, name: str, recorded: str, actual: str | None) -> None:
        self.version = version
        self.name = name
        self.recorded = recorded
        self.actual = actual
        change = "was deleted" if actual is None else "was edited after it was applied"
        super().__init__(
            "neo4j",
            "apply_migrations",
            f"migration {name} {change} (recorded sha256 {recorded[:12]}, "
            f"now {actual[:12] if actual else 'missing'}); never edit an applied "
            "migration, add a new one",
        )


def default_migrations_dir() -> Traversable:
    """The ``graph_schema/migrations`` folder of the checkout, else of the installed wheel.

    Raises:
        StoreError: Neither a checkout nor an installed ``graph_schema`` package holds it.
    """
    checkout = Path(__file__).resolve().parents[3] / "graph_schema" / "migrations"
    if checkout.is_dir():
        return checkout
    try:
        return resources.files("graph_schema") / "migrations"
    except ModuleNotFoundError as exc:
        raise StoreError("neo4j", "apply_migrations", "graph_schema/migrations not found") from exc


def split_statements(text: str) -> tuple[str, ...]:
    """Cypher statements of a file: full-line ``//`` comments dropped, split at line-end ``;``."""
    kept = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
    return tuple(part.strip() for part in _STATEMENT_END.split(kept) if part.strip())


def parse_migration(file_name: str, content: bytes) -> Migration:
    """Parse one migration file.

    Raises:
        StoreError: The name is not ``NNNN_name.cypher`` (or ``.py``), the file is empty,
            mixes schema and data statements, has a schema statement without
            ``IF [NOT] EXISTS``, or is Python that does not compile.
    """
    match = _FILE_NAME.match(file_name)
    if match is None:
        raise StoreError("neo4j", "apply_migrations", f"{file_name}: expected NNNN_name.cypher or NNNN_name.py")
    if match["ext"] == "py":
        return _parse_python(int(match["version"]), file_name, content)
    statements = split_statements(content.decode("utf-8"))
    if not statements:
        raise StoreError("neo4j", "apply_migrations", f"{file_name}: no statements")
    schema = [bool(_SCHEMA_STATEMENT.match(s)) for s in statements]
    if any(schema) and not all(schema):
        raise StoreError(
            "neo4j", "apply_migrations", f"{file_name}: mixes schema and data statements"
        )
    for statement, is_schema in zip(statements, schema, strict=True):
        if is_schema and not _IDEMPOTENT.search(statement):
            raise StoreError(
                "neo4j",
                "apply_migrations",
                f"{file_name}: schema statement without IF [NOT] EXISTS: {statement[:60]}",
            )
    return Migration(
        version=int(match["version"]),
        name=file_name.removesuffix(".cypher"),
        checksum=hashlib.sha256(content).hexdigest(),
        kind="schema" if all(schema) else "data",
        statements=statements,
    )


def _parse_python(version: int, file_name: str, content: bytes) -> Migration:
    source = content.decode("utf-8")
    try:
        compile(source, file_name, "exec")
    except SyntaxError as exc:
        raise StoreError("neo4j", "apply_migrations", f"{file_name}: {exc}") from exc
    return Migration(
        version=version,
        name=file_name.removesuffix(".py"),
        checksum=hashlib.sha256(content).hexdigest(),
        kind="python",
        statements=(),
        source=source,
    )


def load_migrations(directory: Traversable | None = None) -> list[Migration]:
    """Every migration of ``directory`` (default: :func:`default_migrations_dir`), by version.

    Raises:
        StoreError: A file is malformed (see :func:`parse_migration`) or two files share
            a version number.
    """
    folder = directory if directory is not None else default_migrations_dir()
    found = sorted(
        (parse_migration(entry.name, entry.read_bytes()) for entry in folder.iterdir()
         if entry.name.endswith((".cypher", ".py"))),
        key=lambda m: m.version,
    )
    for earlier, later in zip(found, found[1:]):
        if earlier.version == later.version:
            raise StoreError(
                "neo4j", "apply_migrations", f"{earlier.name} and {later.name} share a version"
            )
    return found


def _run_all(tx: ManagedTransaction, statements: tuple[str, ...]) -> None:
    for statement in statements:
        tx.run(statement).consume()


# What Neo4j answers when two runners create (or drop) the same index or constraint at once:
# ``IF [NOT] EXISTS`` is checked before the racing twin commits, so the loser is refused even
# though the rule it asked for now exists (or is gone), which is all the statement wanted.
_RACE_LOST_CODES = frozenset({
    "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists",
    "Neo.ClientError.Schema.IndexAlreadyExists",
    "Neo.ClientError.Schema.ConstraintAlreadyExists",
    "Neo.ClientError.Schema.IndexNotFound",
    "Neo.ClientError.Schema.ConstraintNotFound",
    "Neo.DatabaseError.Schema.IndexDropFailed",
    "Neo.DatabaseError.Schema.ConstraintDropFailed",
})


def run_schema_statement(session: Session, statement: str) -> None:
    """Run one idempotent schema statement in its own transaction, tolerating a racing twin.

    Two API replicas or workers started together on a fresh database both apply the schema
    migrations; the one that loses a race for the same index is told the rule already
    exists. That is the state the statement asks for, so it is not an error.

    Raises:
        Neo4jError: any other refusal (mapped to ``StoreError`` by the caller).
    """
    try:
        session.execute_write(_run_all, (statement,))
    except Neo4jError as exc:
        if exc.code not in _RACE_LOST_CODES:
            raise


def _record(tx: ManagedTransaction, migration: Migration) -> str:
    record = tx.run(
        _RECORD, version=migration.version, name=migration.name, checksum=migration.checksum
    ).single(strict=True)
    return str(record["checksum"])


def _apply_data(tx: ManagedTransaction, migration: Migration) -> str:
    _run_all(tx, migration.statements)
    return _record(tx, migration)


def _apply_python(tx: ManagedTransaction, migration: Migration) -> str:
    """Run a Python migration's ``migrate(tx)`` and record it, in one transaction.

    Raises:
        StoreError: the file defines no ``migrate`` function, or it failed (the
            transaction, bookkeeping included, is rolled back).
    """
    namespace: dict[str, object] = {"__name__": f"graph_schema.migrations.{migration.name}"}
    exec(compile(migration.source, f"{migration.name}.py", "exec"), namespace)  # noqa: S102 - our own shipped file
    step = namespace.get("migrate")
    if not callable(step):
        raise StoreError("neo4j", "apply_migrations", f"{migration.name}.py defines no migrate(tx)")
    try:
        step(tx)
    except (Neo4jError, DriverError):
        raise  # mapped with the runner's other driver errors
    except Exception as exc:  # a bug in the migration: report it as the failed step it is
        raise StoreError("neo4j", "apply_migrations", f"{migration.name}: {exc}") from exc
    return _record(tx, migration)


def _verify(applied: list[dict[str, object]], by_version: dict[int, Migration]) -> set[int]:
    """Versions already applied, after checking that none of them changed.

    Raises:
        MigrationChecksumError: A recorded migration's file was edited or deleted.
    """
    done: set[int] = set()
    for row in applied:
        version, name, recorded = int(str(row["version"])), str(row["name"]), str(row["checksum"])
        current = by_version.get(version)
        if current is None or current.checksum != recorded or current.name != name:
            raise MigrationChecksumError(
                version, name, recorded, current.checksum if current else None
            )
        done.add(version)
    return done


def apply_migrations(
    driver: Driver, database: str, directory: Traversable | None = None
) -> list[str]:
    """Apply the migrations not yet recorded in ``database``; return their names, in order.

    Waits until the indexes are online before returning. Running it again is a no-op that
    returns ``[]``. Concurrent runners are safe: the
    statements are idempotent, a schema statement that loses a race to its twin counts as
    applied (:func:`run_schema_statement`), and the version constraint lets only one record
    each step.

    Raises:
        MigrationChecksumError: An applied migration was edited or deleted; nothing is run.
        StoreError: A migration file is malformed, or Neo4j failed (chained from the
            driver's error).
    """
    migrations = load_migrations(directory)
    by_version = {m.version: m for m in migrations}
    newly: list[str] = []
    try:
        with driver.session(database=database, notifications_min_severity="OFF") as session:
            run_schema_statement(session, _BOOTSTRAP)
            applied = session.execute_read(lambda tx: tx.run(_READ_APPLIED).data())
            done = _verify(applied, by_version)
            for migration in migrations:
                if migration.version in done:
                    continue
                if migration.kind == "data":
                    recorded = session.execute_write(_apply_data, migration)
                elif migration.kind == "python":
                    recorded = session.execute_write(_apply_python, migration)
                else:
                    for statement in migration.statements:
                        run_schema_statement(session, statement)
                    recorded = session.execute_write(_record, migration)
                if recorded != migration.checksum:  # a concurrent runner had another file
                    raise MigrationChecksumError(
                        migration.version, migration.name, recorded, migration.checksum
                    )
                newly.append(migration.name)
            if newly:  # new indexes populate in the background; callers may query at once
                session.execute_read(lambda tx: tx.run(_AWAIT_INDEXES).consume())
    except (Neo4jError, DriverError) as exc:
        raise StoreError("neo4j", "apply_migrations", str(exc)) from exc
    return newly
