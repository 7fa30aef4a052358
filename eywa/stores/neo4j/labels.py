"""Node labels, relationship types and index names of the Neo4j graph model.

The single source for Python code: Cypher text is built from these members (``f"(e:{Label.
EVIDENCE})"``) and never from caller input, so an identifier cannot be injected. The
migrations in ``graph_schema/migrations`` spell the same names; a test checks that every
label, relationship type and index they mention is a member here.
"""

from __future__ import annotations

from enum import StrEnum


class Label(StrEnum):
    """Node labels (see ``graph_schema/README.md`` for the drawing)."""

    SPACE = "Space"
    SESSION = "Session"
    EVIDENCE = "Evidence"
    SIGNAL = "Signal"
    ENTITY = "Entity"
    BELIEF = "Belief"
    CANDIDATE = "Candidate"
    DIMENSION = "Dimension"
    DELTA = "Delta"
    ACCESS_EVENT = "AccessEvent"  # the access log of the API and MCP (eywa.stores.access)
    PENDING = "Pending"  # a stage an item still owes (the stage ledger)
    BACKLOG = "Backlog"  # one space's pending-turn counts, kept with its :Pending marks
    JOB = "Job"  # a Level 1 job record
    TOMBSTONE = "Tombstone"  # an erased turn id
    ERASURE = "Erasure"  # an erasure record: who, when, selector, counts, keyed hashes (no content)
    API_KEY = "ApiKey"  # an API key (hashed secret, spaces, scopes); no space: keys span spaces
    KEY_REQUEST = "KeyRequest"  # a key creation's request key, answering its repeats for a day
    CORRECTION = "Correction"  # an operator's correction: who, when, why, which belief/candidate
    STORE_META = "StoreMeta"  # store-wide values (the vectors' embedder); no space
    SCHEMA_MIGRATION = "SchemaMigration"


class RelType(StrEnum):
    """Relationship types."""

    HAS_TURN = "HAS_TURN"  # (Session)->(Evidence)
    NEXT = "NEXT"  # (Evidence)->(Evidence), by seq within a session
    HAS_SIGNAL = "HAS_SIGNAL"  # (Evidence)->(Signal)
    MENTIONS = "MENTIONS"  # (Evidence)->(Entity)
    SAME_AS = "SAME_AS"  # (Entity)->(Entity) {score, at}; identity merges stay reversible
    SUPPORTED_BY = "SUPPORTED_BY"  # (Belief)->(Evidence) {span, score, anchors}
    ABOUT = "ABOUT"  # (Belief)->(Entity)
    SUPERSEDES = "SUPERSEDES"  # (Belief)->(Belief)
    HAS_DIMENSION = "HAS_DIMENSION"  # (Entity)->(Dimension)
    CHANGED_BY = "CHANGED_BY"  # (Dimension)->(Delta)
    FROM = "FROM"  # (Delta)->(Belief)
    RELATED_TO = "RELATED_TO"  # (Entity)->(Entity) {attribute, belief}, from entity-valued beliefs
    CITES = "CITES"  # (Candidate)->(Evidence): the turns a refused candidate cited
    # (Entity)->(Entity) {space, weight}: turns mentioning both, smaller id -> larger id
    CO_MENTIONED = "CO_MENTIONED"


class FulltextIndex(StrEnum):
    """Full-text index names, for ``db.index.fulltext.queryNodes``."""

    # Evidence space_key, text, speaker and the derived near_text / far_text (migration 0009):
    # the keyword route's evidence index, filtered by space inside Lucene.
    EVIDENCE_KEYWORD = "evidence_keyword"
    # Belief space_key, statement and status (migration 0009).
    BELIEF_KEYWORD = "belief_keyword"
    ENTITY_NAMES = "entity_names"


# Indexes an earlier migration created and a later one dropped (migration 0009 replaced
# them with the space-keyed ones above). Named here so the migrations' names stay checked.
DROPPED_FULLTEXT_INDEXES = frozenset({"evidence_text", "evidence_context", "belief_statement"})
# Range indexes dropped the same way: 0014 replaced 0006's (:Pending) item index with one on
# (space, item); 0020 dropped 0002's unused (:Signal) (space, kind, normalized) index.
DROPPED_RANGE_INDEXES = frozenset({"pending_item", "signal_space_kind_normalized"})
