"""The attribute registry: canonical names, cardinality and time constants.

Extractors write beliefs on these canonical attribute names; the pipeline uses the
cardinality to decide supersession (a later value of a single-valued attribute replaces the
earlier one) and the Nous dimensions use ``tau_days`` as the time constant of their hazard
(how fast an observation loses weight). Keeping all of it in one table means the rule
extractor, the LLM prompt and the Nous layer agree on names.

Why these time constants: ``tau_days`` is the mean time we expect a value to stay true.
People change jobs roughly every 3-4 years (median tenure in OECD surveys is ~4 years, shorter
for young adults), move home a little less often, and change relationship status or hobbies
more often. Tastes (likes, dislikes) drift slowly but are multi-valued; plans and events are
short-lived by nature. The numbers are priors, not measurements; settings may override them.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from eywa.errors import ConfigurationError
from eywa.models import Cardinality

DEFAULT_CARDINALITY: Cardinality = "multi"
DEFAULT_TAU_DAYS = 365.0


class AttributeSpec(BaseModel):
    """One canonical attribute: how many values it holds at once and how fast it ages."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    cardinality: Cardinality = DEFAULT_CARDINALITY
    tau_days: float = Field(default=DEFAULT_TAU_DAYS, gt=0)
    description: str = ""
    aliases: tuple[str, ...] = ()


_YEAR = 365.0

_SPECS: tuple[AttributeSpec, ...] = (
    # Jobs: median tenure is ~3-4 years; one employer at a time is the common case that
    # agents ask about ("where does X work now?"), so single-valued.
    AttributeSpec(
        name="employer",
        cardinality="single",
        tau_days=3 * _YEAR,
        description="Organisation the subject works for.",
        aliases=("company", "workplace", "works_at", "job_company"),
    ),
    AttributeSpec(
        name="occupation",
        cardinality="single",
        tau_days=3 * _YEAR,
        description="The subject's job title or profession.",
        aliases=("job", "job_title", "profession", "role", "career"),
    ),
    # Homes change a bit less often than jobs (~4-5 years in most surveys).
    AttributeSpec(
        name="residence",
        cardinality="single",
        tau_days=4 * _YEAR,
        description="Place (city, country, area) where the subject lives.",
        aliases=("location", "city", "home", "lives_in", "address"),
    ),
    AttributeSpec(
        name="origin",
        cardinality="single",
        tau_days=50 * _YEAR,
        description="Where the subject comes from; effectively permanent.",
        aliases=("hometown", "home_country", "nationality", "from"),
    ),
    # Relationships turn over faster than jobs, especially dating; ~2 years.
    AttributeSpec(
        name="relationship_status",
        cardinality="single",
        tau_days=2 * _YEAR,
        description="Single, dating, engaged, married, divorced, widowed.",
        aliases=("marital_status", "relationship"),
    ),
    AttributeSpec(
        name="partner",
        cardinality="single",
        tau_days=2 * _YEAR,
        description="Name or description of the subject's partner or spouse.",
        aliases=("spouse", "husband", "wife", "boyfriend", "girlfriend"),
    ),
    # Children are, for practical purposes, permanent facts.
    AttributeSpec(
        name="children",
        cardinality="multi",
        tau_days=50 * _YEAR,
        description="The subject's children (names, count or description).",
        aliases=("kids", "child", "son", "daughter"),
    ),
    # Pets live ~10-15 years; a pet mentioned years ago is still likely there.
    AttributeSpec(
        name="pets",
        cardinality="multi",
        tau_days=8 * _YEAR,
        description="Animals the subject owns.",
        aliases=("pet", "dog", "cat", "animal"),
    ),
    # Hobbies come and go; ~2 years.
    AttributeSpec(
        name="hobbies",
        cardinality="multi",
        tau_days=2 * _YEAR,
        description="Activities the subject does regularly for pleasure.",
        aliases=("hobby", "activities", "activity", "pastime", "interests"),
    ),
    # Tastes drift slowly.
    AttributeSpec(
        name="likes",
        cardinality="multi",
        tau_days=3 * _YEAR,
        description="Things the subject likes or loves.",
        aliases=("like", "preference", "preferences", "favorite", "favourite", "loves"),
    ),
    AttributeSpec(
        name="dislikes",
        cardinality="multi",
        tau_days=3 * _YEAR,
        description="Things the subject dislikes or hates.",
        aliases=("dislike", "hates", "aversion"),
    ),
    AttributeSpec(
        name="diet",
        cardinality="single",
        tau_days=3 * _YEAR,
        description="Dietary practice (vegetarian, vegan, ...).",
        aliases=("dietary_preference",),
    ),
    # Plans are short-lived: either they happen or they are dropped within months.
    AttributeSpec(
        name="plans",
        cardinality="multi",
        tau_days=120.0,
        description="Things the subject intends to do.",
        aliases=("plan", "intention", "goal", "goals"),
    ),
    # Events are dated facts; they do not become false, but their relevance fades.
    AttributeSpec(
        name="events",
        cardinality="multi",
        tau_days=_YEAR,
        description="Things that happened to or were done by the subject, with dates.",
        aliases=("event", "activity_event", "experience"),
    ),
    AttributeSpec(
        name="possessions",
        cardinality="multi",
        tau_days=4 * _YEAR,
        description="Notable things the subject owns (car, house, instrument).",
        aliases=("possession", "owns", "belongings"),
    ),
    AttributeSpec(
        name="education",
        cardinality="multi",
        tau_days=20 * _YEAR,
        description="Schools, degrees and fields of study.",
        aliases=("school", "degree", "studies", "university"),
    ),
    AttributeSpec(
        name="age",
        cardinality="single",
        tau_days=_YEAR,
        description="The subject's age in years (ages one year per year).",
        aliases=(),
    ),
)


def _index(specs: Mapping[str, AttributeSpec]) -> dict[str, str]:
    aliases: dict[str, str] = {}
    for spec in specs.values():
        for alias in spec.aliases:
            aliases[normalise_name(alias)] = spec.name
    return aliases


def normalise_name(name: str) -> str:
    """Lower-case, snake_case form of an attribute name ("Job Title" -> "job_title")."""
    return "_".join(name.strip().lower().replace("-", " ").split())


ATTRIBUTES: Mapping[str, AttributeSpec] = MappingProxyType({s.name: s for s in _SPECS})
_ALIASES: Mapping[str, str] = MappingProxyType(_index(ATTRIBUTES))


def canonical_name(name: str, registry: Mapping[str, AttributeSpec] | None = None) -> str:
    """The canonical attribute for ``name`` (resolving aliases); unknown names normalised."""
    specs = ATTRIBUTES if registry is None else registry
    key = normalise_name(name)
    if key in specs:
        return key
    aliases = _ALIASES if registry is None else _index(specs)
    return aliases.get(key, key)


def get_attribute(name: str, registry: Mapping[str, AttributeSpec] | None = None) -> AttributeSpec:
    """The spec of ``name`` (aliases resolved); unknown names get multi-valued, τ = 365 days.

    Unknown attributes default to multi-valued so that nothing is ever superseded on an
    attribute whose semantics we do not know: a wrong supersession hides a true belief.
    """
    specs = ATTRIBUTES if registry is None else registry
    key = canonical_name(name, specs)
    spec = specs.get(key)
    if spec is not None:
        return spec
    return AttributeSpec(name=key)


def with_overrides(
    overrides: Mapping[str, Mapping[str, object]],
    base: Mapping[str, AttributeSpec] | None = None,
) -> Mapping[str, AttributeSpec]:
    """A new registry with per-attribute fields replaced (or new attributes added).

    Example: ``with_overrides({"employer": {"tau_days": 700}, "team": {"cardinality":
    "single"}})``. The base registry is left unchanged.

    Raises:
        ConfigurationError: an override names an unknown field or an invalid value.
    """
    specs = dict(ATTRIBUTES if base is None else base)
    for raw_name, fields in overrides.items():
        name = canonical_name(raw_name, specs)
        current = specs.get(name, AttributeSpec(name=name))
        data = current.model_dump()
        data.update(dict(fields))
        data["name"] = name
        if isinstance(data.get("aliases"), list):
            data["aliases"] = tuple(data["aliases"])
        try:
            specs[name] = AttributeSpec.model_validate(data)
        except ValidationError as exc:
            raise ConfigurationError(f"invalid override for attribute {name!r}: {exc}") from exc
    return MappingProxyType(specs)
