"""The evidence-strength signal: the best cosine among returned items about the person asked about."""

from __future__ import annotations

from eywa.read.items import Hydrated
from eywa.read.strength import evidence_strength


def _turn(item_id: str, speaker: str, about: tuple[str, ...] = ()) -> Hydrated:
    return Hydrated("evidence", item_id, "text", (), "s1", None, speaker, about, subject=speaker)


def test_only_items_about_the_named_person_count() -> None:
    items = [_turn("a", "Ana", ("ent_ana",)), _turn("b", "Ben", ("ent_ben",))]
    cosine = {("evidence", "a"): 0.31, ("evidence", "b"): 0.82}
    assert evidence_strength(items, cosine, {"ent_ana"}, {"ana"}) == 0.31
    assert evidence_strength(items, cosine, {"ent_ben"}, {"ben"}) == 0.82
    # spoken by the named person counts even when the mentions do not list them
    assert evidence_strength([_turn("b", "Ben")], cosine, {"ent_ben"}, {"ben"}) == 0.82


def test_with_nobody_named_every_item_counts_and_unranked_items_count_zero() -> None:
    items = [_turn("a", "Ana"), _turn("c", "Cy")]
    assert evidence_strength(items, {("evidence", "a"): 0.4}, set(), set()) == 0.4
    assert evidence_strength(items, {}, set(), set()) == 0.0
    assert evidence_strength([], {("evidence", "a"): 0.4}, set(), set()) == 0.0
