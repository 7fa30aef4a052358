"""The attribute registry: canonical names, cardinality, time constants and canonical values.

Extractors write beliefs on these canonical attribute names; the pipeline uses the
cardinality to decide supersession (a later value of a single-valued attribute replaces the
earlier one), brings every candidate's value to its canonical form (``canonical_fact``), and
the Nous dimensions use ``tau_days`` as the time constant of their hazard. Keeping all of it
in one table means the rule extractor, the LLM prompt, the validator and the Nous layer
agree on names and values.

``registry`` holds the table (each τ with its source), ``lookup`` the name, alias and
question-word lookups, ``values`` the canonical-value convention, ``spec`` the models.
"""

from eywa.attributes.lookup import (
    ATTRIBUTES,
    attributes_for_words,
    canonical_name,
    get_attribute,
    normalise_name,
    with_overrides,
)
from eywa.attributes.registry import tau_from_annual_rate, tau_from_median_years
from eywa.attributes.spec import (
    DEFAULT_CARDINALITY,
    DEFAULT_TAU_DAYS,
    DEFAULT_TAU_SOURCE,
    AttributeSpec,
    ValueSynonym,
)
from eywa.attributes.values import canonical_fact, canonical_value, flip, value_surfaces

__all__ = [
    "ATTRIBUTES",
    "DEFAULT_CARDINALITY",
    "DEFAULT_TAU_DAYS",
    "DEFAULT_TAU_SOURCE",
    "AttributeSpec",
    "ValueSynonym",
    "attributes_for_words",
    "canonical_fact",
    "canonical_name",
    "canonical_value",
    "flip",
    "get_attribute",
    "normalise_name",
    "tau_from_annual_rate",
    "tau_from_median_years",
    "value_surfaces",
    "with_overrides",
]
