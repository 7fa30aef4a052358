"""The constants of the Nous layer, in one place, each with the reason for its value.

Per-attribute time constants (τ) and cardinality live in the attribute registry
(``eywa.attributes``); the Nous math only needs the two numbers, so it codes against the
small ``AttributeSpecLike`` protocol below and never imports the registry itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from eywa.errors import ConfigurationError
from eywa.models import Cardinality


class AttributeSpecLike(Protocol):
    """What the Nous layer needs to know about an attribute (``eywa.attributes.AttributeSpec``)."""

    @property
    def name(self) -> str:
        """Canonical attribute name (aliases resolved)."""
        ...

    @property
    def cardinality(self) -> Cardinality:
        """``single`` (categorical) or ``multi`` (independent Beta-Bernoulli per value)."""
        ...

    @property
    def tau_days(self) -> float:
        """Time constant of the hazard: the mean time a value is expected to stay true."""
        ...

    @property
    def change_values(self) -> tuple[str, ...]:
        """Values whose observation says the value held before ended ("retired")."""
        ...


@dataclass(frozen=True)
class NousParams:
    """Every tunable number of the dimension math.

    The defaults are priors chosen for conversational memory, not fitted values; the report
    of the implementation (``docs`` / the closing note) explains them at more length.
    """

    # ρ of an asserted belief that carries no validation report. 0.85: a belief only exists
    # after the validator accepted it, so it is usually right; 15 % error leaves room for
    # extraction mistakes so that one later, better-supported statement can still win.
    rho_default: float = 0.85
    # ρ of an asserted belief is interpolated in [rho_min, rho_max] by the validation score.
    # 0.6 keeps a barely-accepted belief informative (better than a coin), 0.95 keeps even a
    # perfect one below certainty so that a contradiction is never infinitely surprising.
    rho_min: float = 0.6
    rho_max: float = 0.95
    # ρ of hedged, planned or hypothetical beliefs. 0.55: barely informative; together with
    # the no-flip guard (see ``categorical_update``) a tentative statement can raise a value
    # but never make it the mode, and in a multi-valued dimension tentative reports alone
    # can never push a membership above ρ, hence never to ``set_floor``.
    rho_tentative: float = 0.55
    # ρ ceiling of a belief a person confirmed (``math.confirmed_reliability``). 0.99: a
    # confirmed belief weighs more than any validated one (rho_max) yet stays below
    # certainty, so a later contradiction is still news and not an impossibility.
    rho_confirmed: float = 0.99
    # Statements by the assistant (role "assistant"/"system") about the user are second-hand:
    # their excess over 0.5 is halved.
    source_discount: float = 0.5
    # Hazard floor when the cited evidence carries a change/correction signal ("just started
    # at", "moved to", "no longer"). 0.9: the speaker tells us the old value stopped being
    # true, so 90 % of the old state's confidence is released before the update.
    change_hazard: float = 0.9
    # Hazard floor when an asserted statement of a single-valued attribute names a value
    # other than the one believed ("I live in Porto" a month after "I moved to Lisbon";
    # ``eywa.nous.math.contradiction_hazard``). The time since the last evidence gives a
    # move in a month a probability of 1 % (τ 11 years), so the two reports could only be
    # read as one of them wrong, the later no likelier than the earlier (Lisbon 0.59, Porto
    # 0.39): a memory that cannot tell where someone lives now. But τ is the rate of change
    # of someone no one asked, not of someone who just named a new value: a person telling
    # what holds now, in the present tense, after time has passed, is most often telling
    # news. What tells a change from an error is that time: two contradicting reports a
    # moment apart cannot both be true (one is wrong, and neither may be believed over the
    # other), while weeks apart a change is the likelier reading. So the floor grows with
    # the time since the last evidence, toward ``contradiction_hazard`` with the time
    # constant ``contradiction_days``: 0.5 is even odds of a change before the report is
    # weighed (half the old value's confidence released, not 0.9's as when the change is
    # said), so the older value keeps a share in proportion to its support; 7 days
    # (assumption: about the time between two conversations of a weekly habit) makes a
    # contradiction the next day 0.07 (nearly contested: two rule beliefs of ρ 0.95 a day
    # apart leave the later at 0.61, the earlier at 0.37, since a wrong report is spread
    # over every other value; at ρ 0.9 neither reaches the answer threshold), a week later
    # 0.32 and a month later 0.49 (Porto 0.86, Lisbon 0.12). A restatement of the value
    # believed releases nothing.
    contradiction_hazard: float = 0.5
    contradiction_days: float = 7.0
    # Share of the "unseen" mass a value receives the first time it is observed. 0.5 makes the
    # first value of an empty dimension a fair coin against "something else" (1 bit).
    unseen_split: float = 0.5
    # Symmetric Beta prior of every multi-valued membership. 0.5 (Jeffreys) is the
    # uninformative prior that moves fastest with evidence; symmetric so that decay toward
    # the prior is decay toward maximum entropy (0.5), which never lowers entropy.
    beta_prior: float = 0.5
    # A value is listed by a set query if one of its reliable positive deltas was at least
    # this surprising. 1 bit = "news at least as informative as a fair coin": the first
    # reliable mention of any value qualifies, later confirmations do not add new members.
    theta_min_bits: float = 1.0
    # ... or if its current membership probability is at least this. 0.6 is above
    # rho_tentative (hedges alone never list a value) and below the 0.70 one asserted
    # mention gives under the Jeffreys prior.
    set_floor: float = 0.6
    # Deltas below this reliability do not count for the θ_min rule (tentative statements).
    set_min_reliability: float = 0.7
    # Identity resolution: propose a merge when the mean symmetrised KL divergence (bits) of
    # the shared dimensions is below this. Two confident, agreeing dimensions are ~0 bits
    # apart; two confident, different values of one attribute are >3 bits apart.
    kl_threshold_bits: float = 1.0
    # Name compatibility: Jaro-Winkler similarity (rapidfuzz) above which two names are typo
    # variants. Jaro-Winkler weighs shared prefixes, which suits names ("Melynda"/"Melinda"
    # 0.93); 0.9 keeps "Rosalind"/"Melinda" (0.65) and "Al"/"Alice" (0.84) apart.
    name_fuzzy_min: float = 0.9
    # Shortest prefix accepted as a short form ("Mel" for "Melinda"); 3 avoids "Al"/"Alice".
    name_min_prefix: int = 3

    def __post_init__(self) -> None:
        """Reject combinations that would break the guarantees documented above.

        Raises:
            ConfigurationError: a reliability outside (0.5, 1) or a tentative ρ that could
                list a value on its own.
        """
        for name in ("rho_default", "rho_min", "rho_max", "rho_tentative", "rho_confirmed"):
            value = getattr(self, name)
            if not 0.5 < value < 1.0:
                raise ConfigurationError(f"NousParams.{name} must be in (0.5, 1), got {value}")
        if self.rho_min > self.rho_max:
            raise ConfigurationError("NousParams.rho_min must not exceed rho_max")
        if self.rho_tentative >= self.set_floor:
            raise ConfigurationError("NousParams.rho_tentative must stay below set_floor")
        if not 0.0 <= self.change_hazard <= 1.0 or not 0.0 <= self.contradiction_hazard <= 1.0:
            raise ConfigurationError("NousParams hazard and split must be probabilities")
        if not 0.0 < self.unseen_split < 1.0:
            raise ConfigurationError("NousParams hazard and split must be probabilities")
        if self.contradiction_days <= 0.0:
            raise ConfigurationError("NousParams.contradiction_days must be positive")
        if self.beta_prior <= 0.0:
            raise ConfigurationError("NousParams.beta_prior must be positive")


DEFAULT_PARAMS = NousParams()
