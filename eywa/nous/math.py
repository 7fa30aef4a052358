"""The pure math of Nous dimensions: no I/O, no clocks, plain floats in and out.

Single-valued attributes are a categorical distribution over the values seen so far plus an
explicit ``UNSEEN`` bucket ("some value we have not heard of"). One observation, in closed
form (see the design brief):

    h           = 1 − exp(−Δt/τ), raised to ``change_hazard`` on a change signal
    prior'(v)   = (1 − h)·p(v) + h/K                      decay toward uniform
    P(o)        = Σ_v prior'(v)·L(o|v)        L = ρ if v = o else (1 − ρ)/(K − 1)
    surprise    = −log2 P(o)
    posterior   = prior'·L / P(o)

A value seen for the first time takes ``unseen_split`` of the UNSEEN mass before the
likelihood is applied. Observations of one instant enter together (``categorical_instant``):
one decay, their new values split in at once, each scored against that prior, and their
likelihoods multiplied, so their order does not matter. A negative observation ("no longer
at X") uses L(¬o|o) = 1 − ρ and L(¬o|v) = ρ for every other category, so the released mass
flows to the other values and to UNSEEN in proportion to their prior.

Multi-valued attributes are independent Beta-Bernoulli memberships. A report with
reliability ρ adds its expected counts (see ``beta_update``), and decay shrinks the counts
toward the symmetric prior, i.e. the mean toward 0.5 (maximum entropy).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass

UNSEEN = "__unseen__"
"""Key of the categorical bucket that holds the mass of every value not seen yet."""

_EPS = 1e-12
# When a tentative observation would flip the mode, the update is scaled back to this share
# of the largest step that keeps the mode, so rounding can never produce a tie or a flip.
_GUARD_MARGIN = 0.999


def hazard(
    elapsed_days: float, tau_days: float, change_signal: bool, change_hazard: float
) -> float:
    """Probability that the value changed during ``elapsed_days`` of event time.

    Negative elapsed time (an observation dated before the previous one) counts as zero: the
    caller orders observations by event time, so this only guards against clock noise.
    """
    h = 1.0 - math.exp(-max(elapsed_days, 0.0) / tau_days)
    return max(h, change_hazard) if change_signal else h


def contradiction_hazard(elapsed_days: float, ceiling: float, tau_days: float) -> float:
    """Hazard floor of a statement that contradicts the believed value after ``elapsed_days``
    since the last evidence: ``ceiling``·(1 − exp(−Δt/τ)). None at once (two reports of one
    moment cannot both hold: one is wrong), growing toward ``ceiling`` as a change becomes
    the likelier reading (``NousParams.contradiction_hazard``)."""
    return ceiling * (1.0 - math.exp(-max(elapsed_days, 0.0) / tau_days))


def entropy_bits(probabilities: Iterable[float]) -> float:
    """Shannon entropy in bits of a distribution (zero terms contribute nothing)."""
    return max(0.0, -sum(p * math.log2(p) for p in probabilities if p > 0.0))


def binary_entropy_bits(p: float) -> float:
    """Entropy in bits of a Bernoulli(p) membership."""
    return entropy_bits((p, 1.0 - p))


def normalise(probabilities: Mapping[str, float]) -> dict[str, float]:
    """Rescale to sum 1 and clip rounding below zero, keeping key order."""
    clipped = {k: max(v, 0.0) for k, v in probabilities.items()}
    total = sum(clipped.values())
    if total <= 0.0:
        return {k: 1.0 / len(clipped) for k in clipped}
    return {k: v / total for k, v in clipped.items()}


def decay_categorical(probabilities: Mapping[str, float], h: float) -> dict[str, float]:
    """Mix the distribution with the uniform one over its categories: (1 − h)·p + h·u."""
    if not probabilities:
        return {}
    uniform = 1.0 / len(probabilities)
    return normalise({k: (1.0 - h) * p + h * uniform for k, p in probabilities.items()})


def argmax_category(probabilities: Mapping[str, float]) -> str:
    """The most probable category; ties go to UNSEEN, then to the alphabetically first value.

    Ties favour UNSEEN so that a tie never claims a value the evidence did not single out.
    """
    return max(sorted(probabilities), key=lambda k: (probabilities[k], k == UNSEEN))


def categorical_mode(probabilities: Mapping[str, float]) -> str | None:
    """The most probable known value, or None when UNSEEN (or nothing) is the most probable."""
    if not probabilities:
        return None
    best = argmax_category(probabilities)
    return None if best == UNSEEN else best


@dataclass(frozen=True)
class CategoricalUpdate:
    """The outcome of one categorical observation, as a Delta records it."""

    prior: dict[str, float]
    """The decayed prior the observation was scored against (the new value split in)."""
    posterior: dict[str, float]
    predictive: float
    surprise_bits: float


@dataclass(frozen=True)
class Said:
    """One observation of a value at an instant: what ``categorical_instant`` combines."""

    value: str
    _: KW_ONLY
    positive: bool
    rho: float
    may_flip_mode: bool


@dataclass(frozen=True)
class InstantUpdate:
    """The outcome of the observations of one instant, as their Deltas record it.

    ``prior`` (decayed once, every new value of the instant split in) and ``posterior``
    (after all of them) are the instant's, shared by its observations; ``predictive`` and
    ``surprise_bits`` are each observation's own, in the order given, scored against
    ``prior``: how unexpected it was given what was known before that time."""

    prior: dict[str, float]
    posterior: dict[str, float]
    predictive: tuple[float, ...]
    surprise_bits: tuple[float, ...]


def categorical_update(
    probabilities: Mapping[str, float],
    value: str,
    *,
    positive: bool,
    rho: float,
    h: float,
    may_flip_mode: bool,
    unseen_split: float,
) -> CategoricalUpdate:
    """Decay, score and condition a categorical state on one observation of ``value``.

    ``may_flip_mode=False`` (hedged, planned or hypothetical statements) caps the update so
    the most probable category after it is the one of the prior it was scored against: the
    posterior is the largest convex step from that prior toward the Bayesian posterior that
    keeps the mode. (That prior already holds a new value's share of UNSEEN; the split is
    bookkeeping, not evidence, and can only matter when UNSEEN was the most probable.)
    The one-observation case of ``categorical_instant``, to the bit.

    Raises:
        ValueError: ``value`` is the reserved UNSEEN key or ρ is not in (0, 1).
    """
    said = Said(value, positive=positive, rho=rho, may_flip_mode=may_flip_mode)
    update = categorical_instant(probabilities, [said], h=h, unseen_split=unseen_split)
    return CategoricalUpdate(
        prior=update.prior,
        posterior=update.posterior,
        predictive=update.predictive[0],
        surprise_bits=update.surprise_bits[0],
    )


def categorical_instant(
    probabilities: Mapping[str, float],
    observations: Sequence[Said],
    *,
    h: float,
    unseen_split: float,
) -> InstantUpdate:
    """Decay a categorical state once, then condition it on every observation of one instant.

    Evidence at one instant is symmetric: nothing says which of two turns stamped with one
    time came first, and folding them one by one made the answer depend on it (the first
    new value took ``unseen_split`` of UNSEEN and the second that share of what was left;
    the first was scored over fewer categories; a hedged one was capped against whatever
    the first had left). So, whatever the order of ``observations``:

    * the hazard ``h`` decays the state once (the instant's change, released once);
    * the values the instant names for the first time are split in together, each taking
      (1 − (1 − s)^n)/n of UNSEEN (n new values, s = ``unseen_split``): the share each
      would take on average over the orders of n one-by-one splits, and exactly s when n = 1;
    * each observation is scored against that one prior, over its K categories
      (``predictive``, ``surprise_bits``), and the posterior is the prior times the product
      of their likelihoods (independent reports), multiplied in a canonical order;
    * if some observation may not flip the mode (hedged, planned, hypothetical), the mode
      after the instant is the one the others alone give (the prior's when there are no
      others): the posterior is capped toward it as ``categorical_update`` caps one.

    With one observation this is ``categorical_update`` exactly (the same float operations).

    Raises:
        ValueError: no observations, a value is the reserved UNSEEN key or a ρ is not in (0, 1).
    """
    if not observations:
        raise ValueError("an instant has at least one observation")
    for said in observations:
        if said.value == UNSEEN:
            raise ValueError(f"{UNSEEN!r} is reserved for the unseen bucket")
        if not 0.0 < said.rho < 1.0:
            raise ValueError(f"reliability must be in (0, 1), got {said.rho}")
    state = dict(probabilities) if probabilities else {UNSEEN: 1.0}
    state.setdefault(UNSEEN, 0.0)
    decayed = decay_categorical(state, h)
    new = sorted({said.value for said in observations} - decayed.keys())
    if new:
        share = unseen_split if len(new) == 1 else (1.0 - (1.0 - unseen_split) ** len(new)) / len(new)
        moved = decayed[UNSEEN] * share
        decayed[UNSEEN] -= moved * len(new)
        decayed.update({v: moved for v in new})
    k = len(decayed)
    likelihoods = [_likelihood(decayed, said, k) for said in observations]
    predictive = tuple(sum(decayed[v] * likelihood[v] for v in decayed) for likelihood in likelihoods)
    canonical = sorted(range(len(observations)), key=lambda i: _said_key(observations[i]))
    posterior = _condition(decayed, [likelihoods[i] for i in canonical])
    if not all(said.may_flip_mode for said in observations):
        free = [likelihoods[i] for i in canonical if observations[i].may_flip_mode]
        posterior = _keep_mode(_condition(decayed, free) if free else decayed, posterior)
    return InstantUpdate(
        prior=decayed,
        posterior=posterior,
        predictive=predictive,
        surprise_bits=tuple(-math.log2(max(p, _EPS)) for p in predictive),
    )


def _said_key(said: Said) -> tuple[str, bool, float, bool]:
    return said.value, said.positive, said.rho, said.may_flip_mode


def _likelihood(categories: Mapping[str, float], said: Said, k: int) -> dict[str, float]:
    """L(said | v) for every category v: ρ for the value said, (1 − ρ)/(K − 1) for each other
    (a negative report: 1 − ρ for the value denied, ρ for every other)."""
    if said.positive:
        other = (1.0 - said.rho) / (k - 1)
        return {v: (said.rho if v == said.value else other) for v in categories}
    return {v: (1.0 - said.rho if v == said.value else said.rho) for v in categories}


def _condition(prior: Mapping[str, float], likelihoods: Sequence[Mapping[str, float]]) -> dict[str, float]:
    """prior · Π likelihoods, normalised (no likelihood: the prior as it is)."""
    if not likelihoods:
        return dict(prior)
    joint = dict(prior)
    for likelihood in likelihoods:
        joint = {v: joint[v] * likelihood[v] for v in joint}
    evidence = sum(joint.values())
    return normalise({v: joint[v] / evidence for v in joint})


def _keep_mode(base: Mapping[str, float], target: Mapping[str, float]) -> dict[str, float]:
    """The point of the segment base→target nearest to target whose argmax is base's argmax."""
    mode = argmax_category(base)
    if argmax_category(target) == mode:
        return dict(target)
    step = 1.0
    for v in target:
        if v == mode:
            continue
        gap_base = base[v] - base[mode]  # <= 0: mode is the argmax of base
        gap_target = target[v] - target[mode]
        if gap_target < 0.0:
            continue
        step = min(step, -gap_base / (gap_target - gap_base)) if gap_target > gap_base else 0.0
    step *= _GUARD_MARGIN
    kept = normalise({v: (1.0 - step) * base[v] + step * target[v] for v in target})
    # At a near tie (a hazard of ~1 leaves the categories a rounding error apart) the step is
    # of rounding size too, and the blend's rounding can still tip the argmax: then the
    # largest step that keeps the mode is none.
    return kept if argmax_category(kept) == mode else dict(base)


@dataclass(frozen=True)
class BetaUpdate:
    """The outcome of one membership observation of a multi-valued dimension."""

    prior_mean: float
    posterior_mean: float
    alpha: float
    beta: float
    predictive: float
    surprise_bits: float


def beta_mean(alpha: float, beta: float) -> float:
    """Membership probability of a Beta(α, β) belief."""
    return alpha / (alpha + beta)


def decay_beta(alpha: float, beta: float, h: float, prior: float) -> tuple[float, float]:
    """Shrink the counts gathered above the symmetric prior by (1 − h).

    No hazard leaves the counts exactly as they are (not ``prior + (α − prior)``, which can
    round): the fold decays a member at the first observation of an instant, whichever it
    is, and a later one at that time must not move it by a rounding error, or the order of an
    instant's observations would show in the state."""
    if h == 0.0:
        return alpha, beta
    keep = 1.0 - h
    return prior + (alpha - prior) * keep, prior + (beta - prior) * keep


def beta_update(
    alpha: float,
    beta: float,
    *,
    positive: bool,
    rho: float,
    h: float,
    prior: float,
    tentative: bool = False,
) -> BetaUpdate:
    """Decay a membership by ``h``, then condition it on one report of reliability ρ.

    The report is noisy: P(report | member) = ρ. The exact posterior over the Beta rate is a
    two-component mixture; it is projected back onto a Beta by adding the expected counts,
    i.e. the responsibility w = P(member | report) to α and 1 − w to β. The mean then always
    moves toward the report (w ≥ m when ρ > 0.5), so a confirmation is never more surprising
    than the report it confirms. A tentative report adds at most max(m, ρ): it never lowers
    an established membership and can never push one above ρ on its own.

    Raises:
        ValueError: ρ is not in (0, 1).
    """
    if not 0.0 < rho < 1.0:
        raise ValueError(f"reliability must be in (0, 1), got {rho}")
    a, b = decay_beta(alpha, beta, h, prior)
    mean = beta_mean(a, b)
    # Work in the frame of the reported outcome: m is the prior probability of what was said.
    m = mean if positive else 1.0 - mean
    predictive = m * rho + (1.0 - m) * (1.0 - rho)
    w = m * rho / predictive
    if tentative:
        w = min(w, max(m, rho))
    hit, miss = (w, 1.0 - w) if positive else (1.0 - w, w)
    a, b = a + hit, b + miss
    return BetaUpdate(
        prior_mean=mean,
        posterior_mean=beta_mean(a, b),
        alpha=a,
        beta=b,
        predictive=predictive,
        surprise_bits=-math.log2(max(predictive, _EPS)),
    )


def kl_bits(p: Mapping[str, float], q: Mapping[str, float]) -> float:
    """KL(p‖q) in bits over the keys of p; q is floored at a tiny ε to stay finite."""
    return max(
        0.0, sum(pv * math.log2(pv / max(q.get(k, 0.0), _EPS)) for k, pv in p.items() if pv > 0.0)
    )


def align_categorical(p: Mapping[str, float], values: Iterable[str]) -> dict[str, float]:
    """Express ``p`` over ``values`` plus UNSEEN: values p never saw share its UNSEEN mass."""
    missing = [v for v in values if v != UNSEEN and v not in p]
    unseen = p.get(UNSEEN, 0.0)
    share = unseen / (len(missing) + 1)
    aligned = {k: v for k, v in p.items() if k != UNSEEN}
    aligned.update({v: share for v in missing})
    aligned[UNSEEN] = share
    return aligned


def symmetric_kl_categorical(p: Mapping[str, float], q: Mapping[str, float]) -> float:
    """(KL(p‖q) + KL(q‖p)) / 2 in bits, after aligning both over the union of their values."""
    values = set(p) | set(q)
    pa, qa = align_categorical(p, values), align_categorical(q, values)
    return 0.5 * (kl_bits(pa, qa) + kl_bits(qa, pa))


def symmetric_kl_memberships(
    p: Mapping[str, float], q: Mapping[str, float], default: float = 0.5
) -> float:
    """Mean symmetrised KL (bits) of independent memberships over the union of values.

    A value one side never observed sits at ``default`` (the prior mean) on that side.
    """
    values = sorted(set(p) | set(q))
    if not values:
        return 0.0
    total = 0.0
    for v in values:
        a = min(max(p.get(v, default), _EPS), 1.0 - _EPS)
        b = min(max(q.get(v, default), _EPS), 1.0 - _EPS)
        pa, pb = {"in": a, "out": 1.0 - a}, {"in": b, "out": 1.0 - b}
        total += 0.5 * (kl_bits(pa, pb) + kl_bits(pb, pa))
    return total / len(values)


def confirmed_reliability(rho: float, ceiling: float) -> float:
    """ρ of an observation after a person confirmed it, never above ``ceiling`` (< 1).

    The confirmation is read as a second, independent report that agrees with the first and
    is as reliable: with two hypotheses (right / wrong) and even prior odds, two agreeing
    reports of reliability ρ give ρ² / (ρ² + (1 − ρ)²). That is more than ρ for every ρ in
    (0.5, 1), so a confirmation always raises it, and less than 1, so a later contradiction
    stays finitely surprising; ``ceiling`` bounds repeated confirmations. A ρ already at or
    above the ceiling is left as it is.

    Raises:
        ValueError: ρ or the ceiling outside (0.5, 1).
    """
    if not 0.5 < rho < 1.0 or not 0.5 < ceiling < 1.0:
        raise ValueError(f"reliability and ceiling must be in (0.5, 1), got {rho} and {ceiling}")
    agreed = rho * rho / (rho * rho + (1.0 - rho) * (1.0 - rho))
    return max(rho, min(agreed, ceiling))
