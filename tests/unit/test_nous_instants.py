"""One turn can say several members of a multi-valued dimension ("I started eating fish
again, so I'm pescatarian now": fish positive, meat negative, one instant, both with a change
signal). The fold released an instant's change once, to the instant's first observation in
sort order; that order follows the delta ids, which hash the space's name, so in one space
the release went to "not meat" and the fish stayed split (0.48), in another the fish was
believed (0.69). Each member is its own Bernoulli: each member a change is said of takes
the release once, and the order of an instant's observations no longer matters."""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta, timezone
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from eywa.nous import engine
from eywa.nous.observations import Observation

T0 = datetime(2024, 5, 1, 10, tzinfo=timezone.utc)
T1 = T0 + timedelta(days=31)
TAU = 3 * 365.0
# Space names whose delta ids put the fish turn's two observations in the two orders
# (checked in the first test, so a change of ``delta_id`` cannot make them vacuous).
MEAT_FIRST, FISH_FIRST = "space-b", "space-a"


def _obs(space: str, value: str, polarity: str, at: datetime, belief: str, change: bool = False,
         modality: str = "asserted", rho: float = 0.8) -> Observation:  # fmt: skip
    return Observation.model_validate({
        "space": space, "entity": "Alice", "attribute": "diet", "value": value, "polarity": polarity,
        "modality": modality, "reliability": rho, "change_signal": change, "at": at, "belief_id": belief,
    })  # fmt: skip


def _pescatarian(space: str) -> list[Observation]:
    """"I'm vegetarian." then "I started eating fish again, so I'm pescatarian now."."""
    return [
        _obs(space, "fish", "negative", T0, "b-veg-fish"),
        _obs(space, "meat", "negative", T0, "b-veg-meat"),
        _obs(space, "fish", "positive", T1, "b-pesc-fish", change=True),
        _obs(space, "meat", "negative", T1, "b-pesc-meat", change=True),
    ]


def _order_at_t1(space: str) -> list[str]:
    return [o.value for o in sorted(_pescatarian(space), key=engine.observation_key) if o.at == T1]


def test_a_turn_that_says_two_members_changed_releases_both_whatever_the_space_is_called() -> None:
    assert _order_at_t1(MEAT_FIRST) == ["meat", "fish"] and _order_at_t1(FISH_FIRST) == ["fish", "meat"]
    meat_first, _ = engine.replay(_pescatarian(MEAT_FIRST), "multi", TAU)
    fish_first, _ = engine.replay(_pescatarian(FISH_FIRST), "multi", TAU)
    assert engine.distribution_of(meat_first) == engine.distribution_of(fish_first)
    diet = engine.distribution_of(meat_first)
    assert diet["fish"] > 0.6 and diet["meat"] < 0.5, diet  # fish is a member again, meat is not
    assert meat_first.member_since == fish_first.member_since == {"fish": T1}


def test_a_member_said_twice_in_one_instant_is_released_once() -> None:
    """Why the rule exists: a second release would decay the first report's news again."""
    space = MEAT_FIRST
    history = [_obs(space, "fish", "negative", T0, "b0")]
    once, _ = engine.replay([*history, _obs(space, "fish", "positive", T1, "b1", change=True)], "multi", TAU)
    twice, steps = engine.replay(
        [*history, _obs(space, "fish", "positive", T1, "b1", change=True),
         _obs(space, "fish", "positive", T1, "b2", change=True)], "multi", TAU,
    )  # fmt: skip
    # The second report adds evidence on top of the first; it does not start over.
    assert engine.distribution_of(twice)["fish"] > engine.distribution_of(once)["fish"]
    assert [round(r.hazard, 3) for o, r in steps if o.at == T1] == [0.9, 0.0]


def test_a_change_said_of_one_member_does_not_release_another() -> None:
    """Two turns stamped with one time: "I quit eating meat." and "I eat fish." The change
    is said of the meat; the fish's confidence is not the turn's to release."""
    space = FISH_FIRST
    history = [_obs(space, "fish", "positive", T0, "b0"), _obs(space, "fish", "positive", T0, "b1")]
    alone, _ = engine.replay([*history, _obs(space, "fish", "positive", T1, "b2")], "multi", TAU)
    beside, _ = engine.replay(
        [*history, _obs(space, "fish", "positive", T1, "b2"), _obs(space, "meat", "negative", T1, "b3", change=True)],
        "multi", TAU,
    )  # fmt: skip
    assert engine.distribution_of(beside)["fish"] == engine.distribution_of(alone)["fish"]


members = st.lists(
    st.tuples(
        st.sampled_from(("positive", "negative")),
        st.sampled_from(("asserted", "asserted", "hedged")),
        st.floats(min_value=0.51, max_value=0.99),
        st.booleans(),
    ),
    min_size=2,
    max_size=4,
)


@settings(max_examples=40, deadline=None)
@given(members, members, st.integers(min_value=1, max_value=2000))
def test_the_order_of_one_instants_observations_does_not_change_the_state(
    before: list[tuple[str, str, float, bool]], instant: list[tuple[str, str, float, bool]], days: int
) -> None:
    """Every order of an instant's observations (one per member) folds to the same memberships,
    members and last evidence time: the order is only a tie-break of delta ids."""
    names = ("fish", "meat", "eggs", "dairy")
    history = [_obs("s", names[i], p, T0, f"h{i}", c, m, r) for i, (p, m, r, c) in enumerate(before)]
    at = T0 + timedelta(days=days)
    now = [_obs("s", names[i], p, at, f"n{i}", c, m, r) for i, (p, m, r, c) in enumerate(instant)]
    outcomes = []
    for order in itertools.permutations(now):
        rank = {o.belief_id: i for i, o in enumerate(order)}

        def key(o: Observation, rank: dict[str, int] = rank) -> tuple[datetime, int, str]:
            return o.at, rank.get(o.belief_id, -1), o.belief_id

        with mock.patch.object(engine, "observation_key", key):
            state, _ = engine.replay([*history, *now], "multi", TAU)
        outcomes.append((engine.distribution_of(state), state.member_since, state.last_at))
    assert all(outcome == outcomes[0] for outcome in outcomes), outcomes
