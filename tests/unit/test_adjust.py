"""Post-fusion adjustments on hand-made items: each does what it claims, and only that; and
none of them overrules a claimed answer."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone

from hypothesis import given
from hypothesis import strategies as st

from eywa.models import EvidenceRef
from eywa.read import adjust
from eywa.read.adjust import Scored
from eywa.read.items import Hydrated

AT = datetime(2023, 5, 1, tzinfo=timezone.utc)


def _turn(i: str, speaker: str, about: tuple[str, ...], text: str = "", session: str = "s1") -> Hydrated:
    ref = EvidenceRef(id=i, session=session, speaker=speaker, observed_at=AT)
    return Hydrated("evidence", i, text or f"turn {i}", (ref,), session, AT, speaker, about, subject=speaker)


def _belief(i: str, cites: str, about: tuple[str, ...], subject: str = "Ana") -> Hydrated:
    ref = EvidenceRef(id=cites, session="s1", speaker="Ana", observed_at=AT)
    return Hydrated("belief", i, f"belief {i}", (ref,), "s1", AT, None, about, subject=subject)


def _dimension(entity: str, cites: tuple[str, ...], text: str = "") -> Hydrated:
    refs = tuple(EvidenceRef(id=c, session="s1", speaker=entity, observed_at=AT) for c in cites)
    about = (f"ent_{entity.lower()}",)
    return Hydrated("dimension", f"dim:{entity}:employer", text or f"{entity} — employer: Acme", refs, None, AT, None,
                    about, subject=entity)  # fmt: skip


def test_speaker_boost_raises_only_turns_spoken_by_the_named_person() -> None:
    items = [Scored(_turn("a", "Ana", ("ent_ana",)), 1.0), Scored(_turn("b", "Ben", ("ent_ben",)), 1.0)]
    changed = adjust.speaker_boost(items, {"ent_ana"}, {"ana": "ent_ana", "ben": "ent_ben"})
    assert changed == ["a"]
    assert items[0].score == adjust.NAMED_SPEAKER_BOOST and items[1].score == 1.0


def test_speaker_boost_raises_dimensions_about_the_named_person_but_not_beliefs() -> None:
    dim = Scored(_dimension("Ana", ("t1",)), 1.0)
    belief = Scored(_belief("b1", "t1", ("ent_ana",)), 1.0)  # its statement already names Ana
    other = Scored(_dimension("Ben", ("t2",)), 1.0)
    changed = adjust.speaker_boost([dim, belief, other], {"ent_ana"}, {"ana": "ent_ana", "ben": "ent_ben"})
    assert changed == ["dim:Ana:employer"]
    assert (dim.score, belief.score, other.score) == (adjust.NAMED_SPEAKER_BOOST, 1.0, 1.0)


def test_specific_boost_raises_turns_naming_someone_besides_the_people_talking() -> None:
    talking = {"ent_ana", "ent_ben"}
    small_talk = Scored(_turn("a", "Ana", ("ent_ana", "ent_ben")), 1.0)  # "that sounds great, Ben!"
    specific = Scored(_turn("b", "Ana", ("ent_ana", "ent_lisbon")), 1.0)  # "we went to Lisbon"
    nobody = Scored(_turn("c", "Ben", ()), 1.0)
    belief = Scored(_belief("b1", "b", ("ent_ana", "ent_lisbon")), 1.0)
    state = Scored(_dimension("Ana", ("b",)), 1.0)  # a value is specific by nature
    answer = Scored(_turn("d", "Ana", ("ent_ana",)), 1.0, answer=True)  # raised with the others
    changed = adjust.specific_boost([small_talk, specific, nobody, belief, state, answer], talking)
    assert changed == ["b", "dim:Ana:employer", "d"]
    assert specific.score == state.score == answer.score == adjust.SPECIFIC_BOOST > 1.0
    assert small_talk.score == nobody.score == belief.score == 1.0


def test_person_demotion_sinks_items_about_someone_else() -> None:
    about_ana = Scored(_turn("a", "Ben", ("ent_ben", "ent_ana")), 1.0)  # Ben talking about Ana
    about_ben = Scored(_turn("b", "Ben", ("ent_ben",)), 1.0)
    changed = adjust.person_demotion([about_ana, about_ben], {"ent_ana"})
    assert changed == ["b"] and about_ben.score < about_ana.score
    assert adjust.person_demotion([about_ben], set()) == []  # nobody named: nothing moves


def test_addressed_demotion_sinks_turns_that_talk_of_their_listener() -> None:
    addressed = Scored(_turn("a", "Ana", ("ent_ana",), "Your garden looks lovely, you should enter it!"), 1.0)
    told = Scored(_turn("b", "Ana", ("ent_ana",), "I grew tomatoes this year."), 1.0)
    belief = Scored(_belief("b1", "a", ("ent_ana",)), 1.0)
    state = Scored(_dimension("Ana", ("a",), "You know Ana — employer: Acme"), 1.0)
    answer = Scored(_turn("c", "Ana", ("ent_ana",), "You asked: you work at Acme, yes."), 1.0, answer=True)
    changed = adjust.addressed_demotion([addressed, told, belief, state, answer])
    assert changed == ["a"] and addressed.score == adjust.ADDRESSED_FACTOR < 1.0
    assert told.score == belief.score == state.score == answer.score == 1.0
    assert "temporal" not in adjust.ADDRESSED_SHAPES and "fact" in adjust.ADDRESSED_SHAPES


def test_rescue_brings_the_neighbours_of_strong_turns() -> None:
    strong = Scored(_turn("q", "Ana", ("ent_ana",), "What did you name him?"), 1.0)
    reply = _turn("r", "Ben", ("ent_ben",), "Biscuit.")
    items = [strong]
    added = adjust.rescue_neighbours(items, lambda ids: {i: [reply] if i == "q" else [] for i in ids})
    assert added == ["r"]
    assert items[-1].item.id == "r" and items[-1].score == adjust.RESCUE_SHARE * strong.score
    assert items[-1].routes == {"rescue": 1}


def test_rescue_reads_the_neighbours_of_all_its_parents_at_once() -> None:
    turns = [Scored(_turn(f"t{i}", "Ana", ("ent_ana",), f"turn {i}"), score) for i, score in enumerate((1.0, 0.4, 0.3, 0.2))]
    asked: list[list[str]] = []

    def neighbours(ids: Sequence[str]) -> dict[str, list[Hydrated]]:
        asked.append(list(ids))
        # t1 sits next to t0: raised by t0's rescue before its own neighbours join at its new score.
        return {"t0": [turns[1].item], "t1": [_turn("n1", "Ben", (), "next to t1")]}

    items = list(turns)
    changed = adjust.rescue_neighbours(items, neighbours)
    assert asked == [["t0", "t1", "t2"]]  # the RESCUE_PARENTS strongest turns, in one read
    assert adjust.RESCUE_PARENTS == 3
    assert changed == ["t1", "n1"]
    assert turns[1].score == adjust.RESCUE_SHARE * 1.0
    assert items[-1].item.id == "n1" and items[-1].score == adjust.RESCUE_SHARE * adjust.RESCUE_SHARE
    assert adjust.rescue_neighbours([], neighbours) == [] and len(asked) == 1  # nothing to rescue: no read


def test_rescue_enters_neighbours_at_the_share_it_is_given() -> None:
    strong = Scored(_turn("q", "Ana", ("ent_ana",), "Look at my painting!"), 1.0)
    found = Scored(_turn("f", "Ben", ("ent_ben",), "Lovely."), 0.55)
    items = [strong, found]
    changed = adjust.rescue_neighbours(items, lambda ids: {"q": [found.item, _turn("n", "Ana", ("ent_ana",))]}, 0.6)
    assert changed == ["f", "n"]
    assert found.score == 0.6 and items[-1].score == 0.6  # raised to the share, and added at it


def test_questions_with_one_answer_rescue_at_a_larger_share() -> None:
    assert adjust.rescue_share("fact") == adjust.rescue_share("temporal") == adjust.rescue_share("yes_no")
    assert adjust.rescue_share("fact") == adjust.RESCUE_SHARE_ONE_ANSWER > adjust.RESCUE_SHARE
    for shape in ("list", "count", "inference", "comparison"):
        assert adjust.rescue_share(shape) == adjust.RESCUE_SHARE


def test_dedupe_collapses_a_belief_with_its_own_turn_and_near_duplicates() -> None:
    turn = Scored(_turn("t1", "Ana", ("ent_ana",), "I moved to Lyon last spring."), 0.9, {"keyword": 1})
    belief = Scored(_belief("b1", "t1", ("ent_ana",)), 0.5, {"vector": 2})
    twin = Scored(_turn("t2", "Ana", ("ent_ana",), "I moved to Lyon last spring!"), 0.4, {"vector": 5})
    other = Scored(_turn("t3", "Ana", ("ent_ana",), "Completely different."), 0.3)
    items = [belief, turn, twin, other]
    removed = adjust.deduplicate(items)
    assert set(removed) == {"b1", "t2"}
    assert [s.item.id for s in items] == ["t1", "t3"]
    assert items[0].routes == {"keyword": 1, "vector": 2}


def test_floor_keeps_each_strong_routes_best_items() -> None:
    items = [Scored(_turn(f"k{i}", "Ana", ()), 1.0 - i * 0.01, {"keyword": i + 1}) for i in range(10)]
    lone = Scored(_turn("v", "Ana", ()), 0.001, {"vector": 1})
    chosen, brought = adjust.select_with_floor([*items, lone], 5, {"keyword": 2.0, "vector": 1.0})
    assert brought == ["v"] and len(chosen) == 5
    assert {s.item.id for s in chosen} == {"k0", "k1", "k2", "k3", "v"}
    assert adjust.FLOOR_PER_ROUTE == 1
    weak, brought_weak = adjust.select_with_floor([*items, lone], 5, {"keyword": 2.0, "vector": 0.5})
    assert brought_weak == [] and "v" not in {s.item.id for s in weak}


def test_no_post_filter_removes_demotes_or_displaces_a_claimed_answer() -> None:
    # The answer cites the very turn that also ranks as a turn: it must not be collapsed
    # into it, and a turn that reads like it must not absorb it.
    answer = Scored(_dimension("Ana", ("t1",), "I work at Acme."), 0.2, {"dimension": 1}, answer=True)
    turn = Scored(_turn("t1", "Ana", ("ent_ana",), "I work at Acme."), 0.9, {"keyword": 1})
    assert adjust.person_demotion([answer], {"ent_zoe"}) == [] and answer.score == 0.2
    items = [turn, answer]
    assert adjust.deduplicate(items) == []
    assert {s.item.id for s in items} == {"t1", "dim:Ana:employer"}
    crowd = [Scored(_turn(f"k{i}", "Ana", ()), 1.0 - i * 0.01, {"keyword": i + 1}) for i in range(10)]
    chosen, brought = adjust.select_with_floor([*crowd, answer], 3, {"keyword": 2.0})
    assert "dim:Ana:employer" in brought and answer in chosen and len(chosen) == 3


scores = st.floats(min_value=0.001, max_value=1.0, allow_nan=False)


def _text(i: int) -> str:
    """Distinct texts; every third one talks of the listener (``addressed_demotion`` lowers it)."""
    return f"turn {i} " * (i + 1) + ("for you" if i % 3 == 0 else "")


@given(st.lists(st.tuples(scores, st.sampled_from(["Ana", "Ben"])), min_size=1, max_size=15))
def test_an_answer_that_leads_fusion_stays_first_through_every_post_filter(turns: list[tuple[float, str]]) -> None:
    # Fusion gives the answer the score of "rank 0 in every route", above any turn's score;
    # every post-filter runs, the boosts (named speaker, specific, session) included, and the
    # demotion of turns addressed to the listener (every third turn ends "you").
    named, speakers = {"ent_ana"}, {"ana": "ent_ana", "ben": "ent_ben"}
    items = [  # every other turn names something besides the people talking
        Scored(_turn(f"t{i}", who, (f"ent_{who.lower()}", f"ent_place{i % 2}"), _text(i)), score, {"keyword": i + 1})
        for i, (score, who) in enumerate(turns)
    ]  # fmt: skip
    answer = Scored(_dimension("Ana", ("t0",)), 1.05, {"dimension": 1}, answer=True)
    items.append(answer)
    adjust.speaker_boost(items, named, speakers)
    adjust.specific_boost(items, {"ent_ana", "ent_ben", "ent_place0"})
    adjust.person_demotion(items, named)
    adjust.session_boost(items, adjust.SESSION_SHARE)
    adjust.rescue_neighbours(items, lambda ids: {i: [_turn(f"n{i}", "Ana", ("ent_ana",), f"next to {i}")] for i in ids})
    adjust.addressed_demotion(items)
    adjust.deduplicate(items)
    adjust.latest_first(items, lambda h: h.speaker == "Ana", {"ent_place0"})
    chosen, _ = adjust.select_with_floor(items, 5, {"keyword": 2.0, "dimension": 0.5})
    assert chosen[0] is answer


def test_session_boost_raises_turns_of_the_session_holding_the_most_score() -> None:
    items = [
        Scored(_turn("a1", "Ana", (), session="s1"), 1.0),
        Scored(_turn("a2", "Ana", (), session="s1"), 0.8),
        Scored(_turn("b1", "Ben", (), session="s2"), 1.1),
        Scored(_belief("bel", "a1", ()), 2.0),
    ]
    changed = adjust.session_boost(items, 0.5)
    scores = {s.item.id: round(s.score, 4) for s in items}
    # s1 totals 1.8 (the best), s2 1.1: s1's turns gain half, s2's 1.1/1.8 of that.
    assert scores == {"a1": 1.5, "a2": 1.2, "b1": round(1.1 * (1 + 0.5 * 1.1 / 1.8), 4), "bel": 2.0}
    assert set(changed) == {"a1", "a2", "b1"}
    assert scores["a1"] > scores["b1"]  # a lone turn no longer outranks a session's best


def test_session_boost_with_no_share_or_no_turns_changes_nothing() -> None:
    items = [Scored(_turn("a1", "Ana", ()), 1.0)]
    assert adjust.session_boost(items, 0.0) == [] and items[0].score == 1.0
    assert adjust.session_boost([Scored(_belief("bel", "a1", ()), 1.0)], 0.5) == []


def test_rescue_leaves_out_the_neighbours_it_does_not_admit() -> None:
    strong = Scored(_turn("q", "Ana", ("ent_ana",), "My third novel this year!"), 1.0)
    reply, more = _turn("r", "Ben", ("ent_ben",), "Wow, which one?"), _turn("m", "Ana", ("ent_ana",), "A mystery.")
    items = [strong]
    changed = adjust.rescue_neighbours(items, lambda ids: {"q": [reply, more]}, admit=lambda h: h.speaker == "Ana")
    assert changed == ["m"] and [s.item.id for s in items] == ["q", "m"]


def test_spread_sessions_sinks_turns_beyond_the_cap_of_their_session() -> None:
    crowded = [Scored(_turn(f"a{i}", "Ana", ("ent_ana",), session="s1"), 1.0 - i / 10) for i in range(5)]
    other = Scored(_turn("b0", "Ana", ("ent_ana",), session="s2"), 0.2)
    rescued = Scored(_turn("a9", "Ben", ("ent_ben",), session="s1"), 0.55, {"rescue": 1})
    belief = Scored(_belief("x", "a0", ("ent_ana",)), 0.9)
    answer = Scored(_turn("a8", "Ana", ("ent_ana",), session="s1"), 0.01, answer=True)
    items = [*crowded, other, rescued, belief, answer]
    changed = adjust.spread_sessions(items, cap=3)
    assert changed == ["a3", "a4"]  # the session's fourth and fifth best turns
    assert crowded[3].score == crowded[4].score == 0.0
    assert [s.score for s in crowded[:3]] == [1.0, 0.9, 0.8]  # the three best keep theirs
    assert other.score == 0.2 and rescued.score == 0.55 and belief.score == 0.9 and answer.score == 0.01
    top = sorted(items, key=lambda s: -s.score)[:6]
    assert other in top and crowded[3] not in top  # the place goes to another session


def _said(i: str, speaker: str, day: int, about: tuple[str, ...], text: str = "") -> Hydrated:
    at = datetime(2023, 5, day, tzinfo=timezone.utc)
    ref = EvidenceRef(id=i, session=f"s{day}", speaker=speaker, observed_at=at)
    return Hydrated("evidence", i, text or f"turn {i}", (ref,), f"s{day}", at, speaker, about, subject=speaker)


def test_latest_first_puts_the_asked_persons_last_word_on_the_asked_thing_first() -> None:
    # "Is Ana moving to Oslo?": the plan (day 1) and its revision (day 9) score about alike.
    oslo, ana = "ent_oslo", "ent_ana"
    plan = Scored(_said("plan", "Ana", 1, (ana, oslo), "I might move to Oslo next year."), 0.33, {"keyword": 1})
    update = Scored(_said("update", "Ana", 8, (ana, oslo), "News about Oslo soon."), 0.20, {"keyword": 3})
    revision = Scored(_said("rev", "Ana", 9, (ana, oslo), "I'm not moving to Oslo after all."), 0.31, {"keyword": 2})
    friend = Scored(_said("friend", "Ben", 10, ("ent_ben", oslo), "Oslo would suit you."), 0.32, {"keyword": 4})
    items = [plan, update, revision, friend]
    assert adjust.latest_first(items, lambda h: h.speaker == "Ana", {oslo}) == ["rev", "plan"]
    assert (revision.score, plan.score) == (0.33, 0.31)  # the two trade places, nothing else moves
    assert (update.score, friend.score) == (0.20, 0.32)


def test_latest_first_leaves_a_later_turn_scored_well_below_the_best_and_claimed_answers() -> None:
    oslo, ana = "ent_oslo", "ent_ana"
    plan = Scored(_said("plan", "Ana", 1, (ana, oslo)), 0.40, {"keyword": 1})
    aside = Scored(_said("aside", "Ana", 9, (ana, oslo)), 0.40 * adjust.LATEST_NEAR - 0.01, {"keyword": 2})
    assert adjust.latest_first([plan, aside], lambda h: h.speaker == "Ana", {oslo}) == []
    claimed = Scored(_said("claimed", "Ana", 1, (ana, oslo)), 0.40, {"dimension": 1}, answer=True)
    later = Scored(_said("later", "Ana", 9, (ana, oslo)), 0.39, {"keyword": 2})
    assert adjust.latest_first([claimed, later], lambda h: h.speaker == "Ana", {oslo}) == []
    assert claimed.score == 0.40
    elsewhere = Scored(_said("elsewhere", "Ana", 9, (ana, "ent_rome")), 0.39, {"keyword": 2})
    assert adjust.latest_first([plan, elsewhere], lambda h: h.speaker == "Ana", {oslo}) == []
