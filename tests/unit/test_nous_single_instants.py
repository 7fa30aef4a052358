"""A single-valued dimension (one residence, one employer) that hears two values at one
instant ("I moved to Oslo." and, in another turn stamped with the same time, "Porto") ended
with a distribution, a mode and a delta log that depended on which observation was folded
first: the first new value took half of the unseen mass and the second half of what was
left, the likelihood of the first was scored over fewer categories than the second's, and a
hedged one was capped against whatever the first had left. Which came first follows the
delta ids, i.e. the space's name. Evidence at one instant is symmetric: the instant decays
once, every value it names is split in at once, every observation is scored against that
one prior, and their likelihoods multiply (``eywa.nous.math.categorical_instant``)."""

from __future__ import annotations

import itertools
import math
from datetime import datetime, timedelta, timezone
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eywa.models import Delta
from eywa.nous import engine
from eywa.nous import math as nm
from eywa.nous.observations import Observation

T0 = datetime(2024, 5, 1, 10, tzinfo=timezone.utc)
T1 = T0 + timedelta(days=200)
TAU = 5 * 365.0
TOL = 1e-9


def _obs(value: str, at: datetime, belief: str, polarity: str = "positive", change: bool = False,
         modality: str = "asserted", rho: float = 0.8, valid_from: datetime | None = None) -> Observation:  # fmt: skip
    return Observation.model_validate({
        "space": "s", "entity": "Alice", "attribute": "residence", "value": value, "polarity": polarity,
        "modality": modality, "reliability": rho, "change_signal": change, "at": at, "belief_id": belief,
        "valid_from": valid_from,
    })  # fmt: skip


def _fold(observations: list[Observation], order: tuple[str, ...]) -> tuple[engine.DimensionState, list[Delta]]:
    """Replay with the instant's observations folded in ``order`` (belief ids), whatever
    their delta ids say."""
    rank = {belief: i for i, belief in enumerate(order)}

    def key(o: Observation) -> tuple[datetime, int, str]:
        return o.at, rank.get(o.belief_id, -1), o.belief_id

    with mock.patch.object(engine, "observation_key", key):
        state, steps = engine.replay(observations, "single", TAU)
    return state, sorted((engine.make_delta(o, r, T1) for o, r in steps), key=lambda d: d.belief_id)


def _assert_same(a: tuple[engine.DimensionState, list[Delta]], b: tuple[engine.DimensionState, list[Delta]]) -> None:
    (sa, da), (sb, db) = a, b
    assert sa.probabilities.keys() == sb.probabilities.keys()
    for v, p in sa.probabilities.items():
        assert p == pytest.approx(sb.probabilities[v], abs=TOL), (sa.probabilities, sb.probabilities)
    assert nm.categorical_mode(sa.probabilities) == nm.categorical_mode(sb.probabilities)
    assert nm.entropy_bits(sa.probabilities.values()) == pytest.approx(nm.entropy_bits(sb.probabilities.values()), abs=TOL)
    assert sa.held == sb.held
    for x, y in zip(da, db, strict=True):
        assert x.belief_id == y.belief_id and x.observed == y.observed
        assert x.surprise_bits == pytest.approx(y.surprise_bits, abs=TOL)
        assert x.hazard == pytest.approx(y.hazard, abs=TOL)
        for mine, theirs in ((x.prior, y.prior), (x.posterior, y.posterior)):
            assert mine.keys() == theirs.keys()
            assert all(mine[v] == pytest.approx(theirs[v], abs=TOL) for v in mine)


def test_two_new_places_at_one_instant_do_not_depend_on_which_is_folded_first() -> None:
    """Lived in Paris; then, at one time, "I moved to Oslo." and "Porto"."""
    history = [_obs("Paris", T0, "h0"), _obs("Paris", T0 + timedelta(days=30), "h1")]
    now = [_obs("Oslo", T1, "oslo", change=True), _obs("Porto", T1, "porto")]
    oslo_first = _fold([*history, *now], ("oslo", "porto"))
    porto_first = _fold([*history, *now], ("porto", "oslo"))
    _assert_same(oslo_first, porto_first)
    state, deltas = oslo_first
    # The two reports are equally reliable and neither is more expected: a tie between them,
    # and the Paris it replaced is what they left behind.
    assert state.probabilities["Oslo"] == pytest.approx(state.probabilities["Porto"], abs=TOL)
    assert state.held.previous == "Paris"


def test_an_instants_observations_share_one_prior_and_one_posterior() -> None:
    """What the deltas of one instant record: the prior every observation of the instant was
    scored against (decayed once, every new value split in), the posterior after all of
    them, each one's own surprise under that prior, and the instant's hazard."""
    history = [_obs("Paris", T0, "h0")]
    state, deltas = _fold([*history, _obs("Oslo", T1, "oslo", change=True), _obs("Paris", T1, "paris", "negative")],
                          ("oslo", "paris"))  # fmt: skip
    oslo, paris = (next(d for d in deltas if d.belief_id == b) for b in ("oslo", "paris"))
    assert oslo.prior == paris.prior and oslo.posterior == paris.posterior == state.probabilities
    assert oslo.hazard == paris.hazard == pytest.approx(0.9)
    k = len(oslo.prior)
    p_oslo = oslo.prior["Oslo"] * 0.8 + (1 - oslo.prior["Oslo"]) * 0.2 / (k - 1)
    assert oslo.surprise_bits == pytest.approx(-math.log2(p_oslo))
    p_not_paris = oslo.prior["Paris"] * 0.2 + (1 - oslo.prior["Paris"]) * 0.8
    assert paris.surprise_bits == pytest.approx(-math.log2(p_not_paris))
    assert nm.categorical_mode(state.probabilities) == "Oslo" and state.held.previous == "Paris"


def test_one_observation_per_instant_is_the_sequential_update_exactly() -> None:
    p = {"Paris": 0.7, "Oslo": 0.1, nm.UNSEEN: 0.2}
    for value, positive, flip in itertools.product(("Paris", "Lima"), (True, False), (True, False)):
        one = nm.categorical_update(p, value, positive=positive, rho=0.85, h=0.3, may_flip_mode=flip, unseen_split=0.5)
        joint = nm.categorical_instant(
            p, [nm.Said(value, positive=positive, rho=0.85, may_flip_mode=flip)], h=0.3, unseen_split=0.5
        )
        assert (joint.prior, joint.posterior) == (one.prior, one.posterior)
        assert joint.surprise_bits == (one.surprise_bits,)


names = st.sampled_from(("Paris", "Oslo", "Porto", "Lima"))
said = st.lists(
    st.tuples(names, st.booleans(), st.floats(min_value=0.51, max_value=0.99), st.booleans()), min_size=2, max_size=4
)


@st.composite
def distributions(draw: st.DrawFn) -> dict[str, float]:
    weights = draw(st.dictionaries(names, st.floats(min_value=0.0, max_value=1.0), max_size=3))
    raw = {**weights, nm.UNSEEN: draw(st.floats(min_value=1e-3, max_value=1.0))}
    total = sum(raw.values())
    return {k: v / total for k, v in raw.items()}


@settings(max_examples=80, deadline=None)
@given(distributions(), said, st.floats(min_value=0.0, max_value=1.0))
def test_any_order_of_an_instants_observations_gives_one_update(
    p: dict[str, float], instant: list[tuple[str, bool, float, bool]], h: float
) -> None:
    """The pure math: every permutation gives the same prior, posterior (hence mode and
    entropy) and per-observation surprise, to 1e-9."""
    outcomes = []
    for order in itertools.permutations(range(len(instant))):
        seen = [nm.Said(instant[i][0], positive=instant[i][1], rho=instant[i][2], may_flip_mode=instant[i][3])
                for i in order]  # fmt: skip
        update = nm.categorical_instant(p, seen, h=h, unseen_split=0.5)
        outcomes.append((update, dict(zip(order, update.surprise_bits, strict=True))))
    first, surprises = outcomes[0]
    assert math.isclose(sum(first.posterior.values()), 1.0, abs_tol=TOL)
    for update, bits in outcomes[1:]:
        assert update.posterior.keys() == first.posterior.keys()
        assert all(abs(update.posterior[v] - first.posterior[v]) <= TOL for v in first.posterior)
        assert nm.categorical_mode(update.posterior) == nm.categorical_mode(first.posterior)
        assert abs(nm.entropy_bits(update.posterior.values()) - nm.entropy_bits(first.posterior.values())) <= TOL
        assert all(abs(bits[i] - surprises[i]) <= TOL for i in bits)


history_specs = st.lists(st.tuples(names, st.booleans(), st.integers(min_value=0, max_value=400)), max_size=4)
instant_specs = st.lists(
    st.tuples(
        names,
        st.sampled_from(("positive", "negative")),
        st.sampled_from(("asserted", "asserted", "hedged")),
        st.floats(min_value=0.51, max_value=0.99),
        st.booleans(),
        st.sampled_from((None, 300, 900)),
    ),
    min_size=2,
    max_size=4,
)


@settings(max_examples=60, deadline=None)
@given(history_specs, instant_specs)
def test_the_order_of_one_instants_observations_does_not_change_a_single_valued_fold(
    before: list[tuple[str, bool, int]], instant: list[tuple[str, str, str, float, bool, int | None]]
) -> None:
    """Through ``engine.replay``: distribution, mode, entropy, change point and the delta log
    are the same for every order of the instant's observations (stated starts included)."""
    history = [_obs(v, T0 + timedelta(days=d), f"h{i}", change=c) for i, (v, c, d) in enumerate(before)]
    at = T0 + timedelta(days=500)
    now = [
        _obs(v, at, f"n{i}", p, c, m, r, None if s is None else at - timedelta(days=s))
        for i, (v, p, m, r, c, s) in enumerate(instant)
    ]
    folds = [_fold([*history, *now], order) for order in itertools.permutations(o.belief_id for o in now)]
    for fold in folds[1:]:
        _assert_same(folds[0], fold)
