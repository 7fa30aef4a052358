"""Retrieval routes, one module each. Every route reads a ``Query`` and returns ranked
``RouteHit``s with its own scores; the reader fuses them by weighted reciprocal rank."""

from eywa.read.routes.base import KEYWORD_DEPTH, Query, Route, RouteHit
from eywa.read.routes.beliefs import BeliefRoute
from eywa.read.routes.events import EventsRoute
from eywa.read.routes.feedback import FeedbackRoute
from eywa.read.routes.dimension import DimensionRoute, dimension_id, dimension_key, may_claim
from eywa.read.routes.graph import GraphRoute
from eywa.read.routes.inference import InferenceRoute
from eywa.read.routes.keyword import KeywordRoute
from eywa.read.routes.person import PersonRoute
from eywa.read.routes.temporal import TemporalRoute
from eywa.read.routes.vector import VectorRoute

__all__ = [
    "KEYWORD_DEPTH",
    "BeliefRoute",
    "DimensionRoute",
    "EventsRoute",
    "FeedbackRoute",
    "GraphRoute",
    "InferenceRoute",
    "KeywordRoute",
    "PersonRoute",
    "Query",
    "Route",
    "RouteHit",
    "TemporalRoute",
    "VectorRoute",
    "dimension_id",
    "dimension_key",
    "may_claim",
]
