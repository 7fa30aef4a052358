"""What the registry knows about one attribute: ``AttributeSpec`` and ``ValueSynonym``."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from eywa.models import Cardinality, Polarity

DEFAULT_CARDINALITY: Cardinality = "multi"
YEAR_DAYS = 365.0

DEFAULT_TAU_DAYS = YEAR_DAYS
DEFAULT_TAU_SOURCE = (
    "assumption: one year. An attribute the registry does not know is more often transient "
    "(a project, a mood, an event) than a stable trait, so its evidence should lose half its "
    "weight within months (τ·ln 2 ≈ 8 months), not years; a wrongly long τ would keep stale "
    "values confident, the failure the decay exists to prevent."
)
"""Why unknown attributes age with τ = one year (shown with the registry's table)."""

ValueCase = Literal["keep", "lower"]
WhWord = Literal["what", "where", "which", "who", "whom", "whose"]
"""The question words that ask for a value (``AttributeSpec.wh_words``)."""


class ValueSynonym(BaseModel):
    """A surface form and the canonical (value, polarity) it means.

    ``ValueSynonym(surface="vegetarian", value="meat", polarity="negative")``: saying someone
    is vegetarian is saying they do not eat meat. Said with negative polarity ("not
    vegetarian") the meaning flips to (meat, positive).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    surface: str
    value: str
    polarity: Polarity = "positive"


class AttributeSpec(BaseModel):
    """One canonical attribute: how many values it holds, how fast it ages, how values read.

    Attributes:
        name: the canonical snake_case name beliefs and dimensions use.
        cardinality: ``single`` (one value at a time: a categorical dimension) or ``multi``
            (independent memberships: a Beta-Bernoulli per value).
        tau_days: the time constant of the hazard, i.e. the mean time a value is expected to
            stay true; ``tau_source`` says where the figure comes from.
        aliases: other names an extractor may use for this attribute (one attribute each).
        words: words of a question that point at this attribute ("married" points at both
            relationship_status and partner); see ``attributes_for_words``.
        synonyms: surface forms of values with their canonical (value, polarity).
        implied: surfaces that say a value besides the one they are a synonym of
            ("pescatarian" is no meat, and also fish): the validator accepts them for that
            value and a question naming them asks about it too ("Is Ana vegetarian?" asks
            about fish as well as meat), but a value said so is never rewritten to it.
        value_case: ``lower`` for common-noun values (hobbies, foods), ``keep`` for names.
        leading_words: lower-case words stripped from the start of a value ("eating meat" →
            "meat" for diet; "at Google" → "Google" for employer).
        cessation_ends: whether the values are states a cessation ends ("I quit pottery"
            ends the hobby) rather than events or lasting facts that a cessation word only
            describes ("I quit my job" as a life event, "I left Boston" for where someone is
            from). Off for attributes the registry does not know, so that the validator
            judges them only by negation, as it always did.
        change_values: values that by themselves say the one held before ended ("retired",
            "unemployed" of the employer: one who retires leaves the job they had), so the
            dimension's hazard is raised before they are observed, as for a cessation.
        wh_words: the question words whose questions the values answer ("where" for an
            employer or a residence, "who" for a partner, "what" for an occupation). When
            a question's words point at several attributes ("job" → employer and
            occupation, "wife" → relationship status and partner), those its own question
            word asks for come first: "Where does Ana work?" wants the employer, "What is
            Ana's job?" the occupation.
        lasting: whether a value once held stays part of the subject's story after it ends
            (a school attended, a degree earned: "I graduated from Harvard" is true for
            life), so that a past-tense question ("Where did Ana study?", "Which university
            did Ana go to?") asks what the dimension holds now, as for an attribute that
            never changes (origin); its ``wh_words`` say which question words ask for it.
        named_by_head: whether a question names a value of several words by its last one, the
            kind of thing it is ("Is Ana an engineer?" names "software engineer", "Is Ana a
            teacher?" "music teacher"); off where the last word is no kind ("Does Ana live in
            York?" does not name New York).
        word_forms: whether a question names a value by other forms of its words, each word
            of the value said in some form, in any order ("Is Ana allergic to peanuts?" names
            "peanuts allergy", "Is Ana asthmatic?" "asthma", "… lactose intolerant?" "lactose
            intolerance": ``eywa.attributes.forms``); on where a value is a noun asked about
            by its adjective (conditions), off where a shared stem may be another word.
        ended_by: another attribute of the same subject and those of its values that say this
            one holds nothing ("partner" ended by a ``relationship_status`` of "divorced",
            "single", "widowed" or "separated"): a value of this attribute said before such a
            status is no present answer, though no turn names the value as ended ("We
            divorced last year" names no husband, so no belief can say "not Tom").
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    cardinality: Cardinality = DEFAULT_CARDINALITY
    tau_days: float = Field(default=DEFAULT_TAU_DAYS, gt=0)
    tau_source: str = DEFAULT_TAU_SOURCE
    description: str = ""
    aliases: tuple[str, ...] = ()
    words: tuple[str, ...] = ()
    synonyms: tuple[ValueSynonym, ...] = ()
    implied: tuple[ValueSynonym, ...] = ()
    value_case: ValueCase = "keep"
    leading_words: tuple[str, ...] = ()
    cessation_ends: bool = False
    change_values: tuple[str, ...] = ()
    wh_words: tuple[WhWord, ...] = ()
    lasting: bool = False
    named_by_head: bool = False
    word_forms: bool = False
    ended_by: tuple[str, tuple[str, ...]] | None = None
