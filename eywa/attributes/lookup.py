"""Looking attributes up: by name or alias, by the words of a question, with overrides."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from types import MappingProxyType

from pydantic import ValidationError

from eywa.attributes.registry import SPECS
from eywa.attributes.spec import AttributeSpec
from eywa.errors import ConfigurationError


def normalise_name(name: str) -> str:
    """Lower-case, snake_case form of an attribute name ("Job Title" -> "job_title")."""
    return "_".join(name.strip().lower().replace("-", " ").split())


def _alias_index(specs: Mapping[str, AttributeSpec]) -> dict[str, str]:
    aliases: dict[str, str] = {}
    for spec in specs.values():
        for alias in spec.aliases:
            aliases.setdefault(normalise_name(alias), spec.name)
    return aliases


def _word_index(specs: Mapping[str, AttributeSpec]) -> dict[str, tuple[str, ...]]:
    index: dict[str, list[str]] = {}
    for spec in specs.values():
        own = [spec.name, *spec.words, *(a for a in spec.aliases if "_" not in normalise_name(a))]
        for word in own:
            targets = index.setdefault(normalise_name(word), [])
            if spec.name not in targets:
                targets.append(spec.name)
    return {w: tuple(t) for w, t in index.items()}


ATTRIBUTES: Mapping[str, AttributeSpec] = MappingProxyType({s.name: s for s in SPECS})
"""The default registry: canonical name → spec."""
_ALIASES: Mapping[str, str] = MappingProxyType(_alias_index(ATTRIBUTES))
_WORDS: Mapping[str, tuple[str, ...]] = MappingProxyType(_word_index(ATTRIBUTES))
_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|['’-])*")
"""A word of a question, in any alphabet ("fiancé")."""


def canonical_name(name: str, registry: Mapping[str, AttributeSpec] | None = None) -> str:
    """The canonical attribute for ``name`` (resolving aliases); unknown names normalised."""
    specs = ATTRIBUTES if registry is None else registry
    key = normalise_name(name)
    if key in specs:
        return key
    aliases = _ALIASES if registry is None else _alias_index(specs)
    return aliases.get(key, key)


def get_attribute(name: str, registry: Mapping[str, AttributeSpec] | None = None) -> AttributeSpec:
    """The spec of ``name`` (aliases resolved); unknown names get multi-valued, τ = 1 year.

    Unknown attributes default to multi-valued so that nothing is ever superseded on an
    attribute whose semantics we do not know: a wrong supersession hides a true belief.
    Their τ is ``DEFAULT_TAU_DAYS``, justified in ``DEFAULT_TAU_SOURCE``.
    """
    specs = ATTRIBUTES if registry is None else registry
    key = canonical_name(name, specs)
    spec = specs.get(key)
    if spec is not None:
        return spec
    return AttributeSpec(name=key)


def attributes_for_words(
    words: Iterable[str], registry: Mapping[str, AttributeSpec] | None = None
) -> list[str]:
    """The registry attributes the words of a question point at, in order of first mention.

    A word points at an attribute through its name, a one-word alias or its question
    ``words`` ("married" → relationship_status and partner, "job" → employer and
    occupation); a trailing plural "s" is tried too. Pure, for the read planner.

    Example:
        >>> attributes_for_words("Where does Ana work now?".split())
        ['employer', 'occupation']
    """
    specs = ATTRIBUTES if registry is None else registry
    index = _WORDS if registry is None else _word_index(specs)
    found: list[str] = []
    for raw in words:
        for token in _WORD.findall(raw.lower().replace("’", "'")):
            token = token.removesuffix("'s").strip("'-")
            for key in (token, token[:-1] if token.endswith("s") and len(token) > 3 else token):
                for name in index.get(normalise_name(key), ()):
                    if name not in found:
                        found.append(name)
    return found


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
        for key in ("aliases", "words", "leading_words", "synonyms", "implied", "wh_words"):
            if isinstance(data.get(key), list):
                data[key] = tuple(data[key])
        try:
            specs[name] = AttributeSpec.model_validate(data)
        except ValidationError as exc:
            raise ConfigurationError(f"invalid override for attribute {name!r}: {exc}") from exc
    return MappingProxyType(specs)
