"""Nous: Bayesian dimensions over validated beliefs.

``math`` holds the pure closed-form updates, ``engine`` the state and replay, ``observations``
turns a belief into an observation, ``ledger`` reads and writes dimensions and deltas
through a ``DimensionStore`` (what ``Memory`` and the Level 1 workflow call), ``identity``
resolves SAME_AS merges, ``params`` holds every constant with its reason, ``describe``
writes a dimension as one line of text for recall.
"""

from eywa.ids import entity_key
from eywa.nous.describe import dimension_line, shown_value
from eywa.nous.engine import DimensionState
from eywa.nous.identity import MergeProposal
from eywa.nous.math import UNSEEN
from eywa.nous.observations import Observation, observation_from_belief
from eywa.nous.ledger import (
    accept_merge,
    apply_beliefs,
    forget_beliefs,
    get_dimension,
    list_deltas,
    list_dimensions,
    propose_merges,
    set_members,
    undo_merge,
)
from eywa.nous.params import DEFAULT_PARAMS, AttributeSpecLike, NousParams

__all__ = [
    "DEFAULT_PARAMS",
    "UNSEEN",
    "AttributeSpecLike",
    "DimensionState",
    "MergeProposal",
    "NousParams",
    "Observation",
    "accept_merge",
    "apply_beliefs",
    "dimension_line",
    "entity_key",
    "forget_beliefs",
    "get_dimension",
    "list_deltas",
    "list_dimensions",
    "observation_from_belief",
    "propose_merges",
    "set_members",
    "shown_value",
    "undo_merge",
]
