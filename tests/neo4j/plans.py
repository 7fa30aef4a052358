"""Reading Neo4j's query plans and profiles in tests: the operators a plan runs (with their
details, such as the index a seek uses) and the db hits a profile counted, walked over every
operator's children."""

from __future__ import annotations

from typing import Any

from neo4j import Driver

__all__ = ["db_hits", "operators", "operators_with_details", "planned"]


def operators(plan: dict[str, Any]) -> list[str]:
    """The operator names of a plan, parents before children (``@neo4j`` suffix dropped)."""
    return [op for op, _ in operators_with_details(plan)]


def operators_with_details(plan: dict[str, Any]) -> list[tuple[str, str]]:
    """(operator, details) of every operator of a plan or profile, children included."""
    own = (str(plan.get("operatorType", "")).split("@")[0], str(plan.get("args", {}).get("Details", "")))
    return [own, *(op for child in plan.get("children", []) for op in operators_with_details(child))]


def db_hits(plan: dict[str, Any]) -> int:
    """The db hits a profile counted, over all its operators."""
    return int(plan.get("dbHits", 0)) + sum(db_hits(child) for child in plan.get("children", []))


def planned(driver: Driver, database: str, query: str, params: dict[str, Any]) -> list[str]:
    """The operators of ``query``'s plan (EXPLAIN: nothing runs, no data is needed)."""
    with driver.session(database=database, notifications_min_severity="OFF") as session:
        summary = session.run("EXPLAIN " + query, params).consume()
    assert summary.plan is not None
    return operators(summary.plan)
