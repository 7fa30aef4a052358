"""The audit registry: one header grammar, the same audits on both backends, checked calls.

What each audit answers is the conformance contract (``tests/conformance``); here: the
twins declare the same audits, malformed files are refused, calls are checked, values are
decoded by their declared type, and the embedded runner cannot write.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eywa.errors import ClosedError, InvalidInputError, StoreError
from eywa.stores.audit import CYPHER, SQL, AuditSpec, decode_rows, load_audits, parse_audit, utc_text
from eywa.stores.embedded import audit_queries
from eywa.stores.embedded.audit_queries import SqliteAuditQueries
from eywa.stores.embedded.database import SqliteDatabase
from eywa.stores.embedded.evidence import SqliteEvidenceStore
from eywa.stores.neo4j import audit_queries as neo4j_audit_queries

HEADER = "// purpose: p\n// param: space - s\n// returns: n int\n"


def test_every_cypher_audit_has_a_sql_twin_with_the_same_header() -> None:
    cypher = load_audits(neo4j_audit_queries.default_audit_dir(), CYPHER)
    sql = load_audits(audit_queries.default_audit_dir(), SQL)
    assert sorted(cypher) == sorted(sql), "an audit without its twin on the other backend"
    for name, query in cypher.items():
        assert sql[name].spec == query.spec, f"{name}: the .cypher and .sql headers differ"
    assert len(cypher) >= 6


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("MATCH (n) WHERE n.space = $space RETURN n", "purpose"),
        ("// purpose: p\n// param: id - i\n// returns: n int\nMATCH (n {id: $id}) RETURN n", "space"),
        ("// purpose: p\n// param: space - s\n// returns: n int\nMATCH (n {id: $id, space: $space}) RETURN n", "uses"),
        ("// purpose: p\n// param: space - s\nMATCH (n {space: $space}) RETURN 1 AS n", "returns"),
        ("// purpose: p\n// param: space - s\n// returns: n integer\nRETURN $space AS n", "bad returns entry"),
        ("// purpose: p\n// param: space - s\n// returns: n int, n text\nRETURN $space AS n", "once"),
        ("// purpose: p\n// param: space - s\n// param: space - t\n// returns: n int\nRETURN $space AS n", "declared"),
    ],
)
def test_malformed_audit_files_are_refused(text: str, fragment: str) -> None:
    with pytest.raises(StoreError, match=fragment):
        parse_audit("x.cypher", text)


def test_file_names_must_be_snake_case_with_the_dialect_suffix() -> None:
    with pytest.raises(StoreError, match="snake_case"):
        parse_audit("Bad-Name.cypher", HEADER + "RETURN $space AS n")
    with pytest.raises(StoreError, match=r"snake_case\.sql"):
        parse_audit("x.cypher", HEADER.replace("//", "--") + "SELECT :space AS n", SQL)


def test_parameters_are_read_outside_string_literals_and_comments() -> None:
    query = parse_audit(
        "x.sql",
        "-- purpose: p\n-- param: space - s\n-- returns: n text, m text\n"
        "-- a comment with :ignored in it\nSELECT json_extract('{}', '$.a:b') AS n, ':x' AS m WHERE :space = 1",
        SQL,
    )
    assert query.spec.param_names == ("space",) and query.spec.column_names == ("n", "m")
    assert ":ignored" not in query.text


def test_returns_lines_concatenate_in_order() -> None:
    query = parse_audit("x.cypher", "// purpose: p\n// param: space - s\n// returns: a text,\n// returns: b datetime\nRETURN $space AS a, 1 AS b")
    assert [(c.name, c.type) for c in query.spec.columns] == [("a", "text"), ("b", "datetime")]


def _spec(*columns: tuple[str, str]) -> AuditSpec:
    names = ", ".join(f"{n} {t}" for n, t in columns)
    return parse_audit("x.cypher", f"// purpose: p\n// param: space - s\n// param: id - i\n// returns: {names}\nRETURN $space, $id").spec


def test_bind_checks_the_call_against_the_declared_parameters() -> None:
    spec = _spec(("n", "int"))
    assert spec.bind({"id": "7", "space": "home"}) == {"space": "home", "id": "7"}
    with pytest.raises(InvalidInputError, match="needs parameters: id"):
        spec.bind({"space": "home"})
    with pytest.raises(InvalidInputError, match="takes space, id; unknown: limit"):
        spec.bind({"space": "home", "id": "7", "limit": "1"})
    with pytest.raises(InvalidInputError, match="id must be a string"):
        spec.bind({"space": "home", "id": 7})
    with pytest.raises(InvalidInputError, match="params must map"):
        spec.bind(["space", "id"])  # type: ignore[arg-type]


def test_optional_parameters_may_be_left_out_and_bind_empty() -> None:
    spec = parse_audit(
        "x.sql", "-- purpose: p\n-- param: space - s\n-- param: who? - w (empty: everyone)\n-- param: n - n\n"
        "-- returns: a text\nSELECT :space AS a WHERE :who = '' OR :n = :who", SQL,
    ).spec  # fmt: skip
    assert [p.label for p in spec.params] == ["space", "who?", "n"] and spec.param_names == ("space", "who", "n")
    assert spec.bind({"space": "home", "n": "1"}) == {"space": "home", "who": "", "n": "1"}
    assert spec.bind({"space": "home", "n": "1", "who": "Al"})["who"] == "Al"
    with pytest.raises(InvalidInputError, match="needs parameters: n$"):
        spec.bind({"space": "home"})
    with pytest.raises(StoreError, match="space parameter, never optional"):
        parse_audit("x.cypher", "// purpose: p\n// param: space? - s\n// returns: n int\nRETURN $space AS n")
    with pytest.raises(StoreError, match="space parameter, never optional"):
        parse_audit("x.cypher", "// purpose: p\n// param: space=home - s\n// returns: n int\nRETURN $space AS n")


def test_a_parameter_with_a_default_binds_to_it_when_left_out() -> None:
    spec = parse_audit(
        "x.sql", "-- purpose: p\n-- param: space - s\n-- param: limit=100 - at most\n-- param: who? - w\n"
        "-- returns: a text\nSELECT :space AS a WHERE :who = '' LIMIT :limit", SQL,
    ).spec  # fmt: skip
    assert [p.label for p in spec.params] == ["space", "limit=100", "who?"]
    assert spec.bind({"space": "home"}) == {"space": "home", "limit": "100", "who": ""}
    assert spec.bind({"space": "home", "limit": "5"})["limit"] == "5"


def test_values_are_decoded_by_their_declared_type() -> None:
    spec = _spec(("t", "datetime"), ("e", "datetime"), ("flag", "bool"), ("xs", "list"), ("doc", "json"), ("f", "float"))
    result = decode_rows(
        spec, "sqlite", spec.column_names,
        [["2024-01-01T02:00:00+02:00", 1704067200.5, 1, "[1, 2]", '{"a": "é"}', 3],
         [None, None, 0, None, None, None]],
    )  # fmt: skip
    first, second = result.records()
    assert first == {
        "t": datetime(2024, 1, 1, tzinfo=timezone.utc),
        "e": datetime(2024, 1, 1, 0, 0, 0, 500000, tzinfo=timezone.utc),
        "flag": True, "xs": [1, 2], "doc": {"a": "é"}, "f": 3.0,
    }  # fmt: skip
    assert first["t"].utcoffset() == timedelta(0) and isinstance(first["f"], float)
    assert second == {"t": None, "e": None, "flag": False, "xs": None, "doc": None, "f": None}


def test_a_result_that_breaks_its_declaration_is_refused() -> None:
    spec = _spec(("n", "int"))
    with pytest.raises(StoreError, match=r"returned columns \['m'\] but declares \['n'\]"):
        decode_rows(spec, "neo4j", ["m"], [])
    with pytest.raises(StoreError, match=r"column n \(int\)"):
        decode_rows(spec, "neo4j", ["n"], [["seven"]])
    with pytest.raises(StoreError, match=r"column xs \(list\)"):
        decode_rows(_spec(("xs", "list")), "sqlite", ["xs"], [["not json"]])


def _database(tmp_path: Path) -> SqliteDatabase:
    db = SqliteDatabase(tmp_path / "eywa.sqlite3")
    SqliteEvidenceStore(db)  # creates the evidence tables
    with db.transaction() as conn:
        conn.execute(
            "INSERT INTO evidence (id, space, session, seq, text, observed_at, recorded_at, content_hash,"
            " metadata) VALUES ('ev_1', 'home', 's', 0, 'hello', 0, 0, 'h', '{}')"
        )
    return db


def test_an_embedded_audit_cannot_write(tmp_path: Path) -> None:
    folder = tmp_path / "audits"
    folder.mkdir()
    (folder / "sneaky.sql").write_text(
        "-- purpose: tries to write\n-- param: space - s\n-- returns: id text\n"
        "DELETE FROM evidence WHERE space = :space RETURNING id",
        encoding="utf-8",
    )
    db = _database(tmp_path)
    audits = SqliteAuditQueries(db, folder)
    with pytest.raises(StoreError, match="readonly|read-only|query_only"):
        audits.run("sneaky", {"space": "home"})
    assert [r["id"] for r in db.query("SELECT id FROM evidence")] == ["ev_1"]
    db.close()
    with pytest.raises(ClosedError):
        audits.run("sneaky", {"space": "home"})


def test_embedded_audit_functions_read_like_cypher(tmp_path: Path) -> None:
    folder = tmp_path / "audits"
    folder.mkdir()
    (folder / "probe.sql").write_text(
        "-- purpose: the functions the SQL twins use\n-- param: space - s\n-- param: t - a time\n"
        "-- returns: at text, seen datetime, key text, dim text\n"
        "SELECT utc_iso(:t) AS at, utc_iso(observed_at) AS seen, lower(trim('  ÉMILE ')) AS key,"
        " stable_id('dim', :space, 'émile', 'city') AS dim FROM evidence WHERE space = :space",
        encoding="utf-8",
    )
    db = _database(tmp_path)
    (row,) = SqliteAuditQueries(db, folder).run("probe", {"space": "home", "t": "2024-01-01T01:00:00+01:00"}).records()
    db.close()
    assert row["at"] == "2024-01-01T00:00:00.000000+00:00"
    assert row["seen"] == datetime(1970, 1, 1, tzinfo=timezone.utc) and row["key"] == "émile"
    assert row["dim"].startswith("dim_") and len(row["dim"]) == 28


def test_unknown_audits_are_refused_by_the_store_too(tmp_path: Path) -> None:
    db = _database(tmp_path)
    with pytest.raises(InvalidInputError, match="unknown audit 'nope'"):
        SqliteAuditQueries(db).run("nope", {"space": "home"})
    db.close()


_ZONES = st.sampled_from([timezone.utc, timezone(timedelta(hours=2)), timezone(timedelta(hours=-7, minutes=-30))])
_TIMES = st.datetimes(min_value=datetime(1900, 1, 1), max_value=datetime(2200, 1, 1), timezones=_ZONES)


@given(_TIMES, _TIMES)
def test_canonical_utc_text_sorts_as_the_instants_do(a: datetime, b: datetime) -> None:
    left, right = utc_text(a.isoformat()), utc_text(b)
    assert (left < right) == (a < b) and (left == right) == (a == b)
    assert utc_text(a.timestamp()) == utc_text(a)  # epoch seconds, as evidence keeps times
