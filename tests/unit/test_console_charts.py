"""The console's SVG step plot and turn highlighting: geometry, escaping, accessibility."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from xml.etree import ElementTree

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eywa.models import Evidence, Signal, SignalKind, SupportLink
from eywa.nous import UNSEEN
from services.console.charts import Marker, Sample, step_plot
from services.console.highlight import Highlight, evidence_segments, segments

T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)
SVG = "{http://www.w3.org/2000/svg}"


def _change() -> tuple[list[Sample], list[Marker]]:
    """Acme observed on day 0, decay sampled on day 5, Initech observed on day 10."""
    first = Marker(T0, "Acme", {}, {"Acme": 0.9, "unseen": 0.1}, 3.3, "#d1")  # "unseen": a value named so
    decayed = Sample(T0 + timedelta(days=5), {"Acme": 0.7, "unseen": 0.3})
    second = Marker(T0 + timedelta(days=10), "Initech", {"Acme": 0.6, "unseen": 0.4},
                    {"Acme": 0.2, "Initech": 0.7, "unseen": 0.1}, 2.5, "#d2")  # fmt: skip
    return [decayed], [first, second]


def test_a_change_steps_vertically_at_the_observation_and_decays_between() -> None:
    samples, markers = _change()
    chart = step_plot("Acme <then> Initech", samples, markers, width=720, height=260)
    acme = chart.lines["Acme"]
    # prior then posterior at each observation: two points on one x, then the decay sample
    assert [round(p.p, 2) for p in acme] == [0.0, 0.9, 0.7, 0.6, 0.2]
    assert acme[0].x == acme[1].x and acme[3].x == acme[4].x
    assert acme[0].x < acme[2].x < acme[3].x  # time runs left to right
    assert acme[1].y < acme[2].y < acme[3].y  # higher probability is higher up (smaller y)
    initech = chart.lines["Initech"]
    assert initech[-2].p == 0.0 and initech[-1].p == 0.7 and initech[-2].x == initech[-1].x


def test_the_svg_is_labelled_escaped_and_marks_change_points_and_spikes() -> None:
    samples, markers = _change()
    svg = step_plot("Acme <then> Initech", samples, markers, spike_bits=3.0, ident="x1").svg
    root = ElementTree.fromstring(svg)  # well-formed: the title's markup was escaped
    assert root.get("role") == "img" and root.get("aria-labelledby") == "x1-title x1-desc"
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == "Acme <then> Initech"
    anchors = root.findall(f"{SVG}a")
    assert [a.get("class") for a in anchors] == ["marker spike change", "marker change"]
    assert all(a.get("aria-label") and a.find(f"{SVG}title") is not None for a in anchors)
    assert "most likely value now Initech" in anchors[1].get("aria-label", "")
    assert {p.get("data-value") for p in root.findall(f"{SVG}polyline")} == {"Acme", "unseen", "Initech"}
    legend = step_plot("u", [Sample(T0, {UNSEEN: 0.5, "a": 0.5})], []).svg
    assert "(unseen)</text>" in legend and f">{UNSEEN}</text>" not in legend


def test_one_instant_is_centred_and_nothing_to_draw_is_refused() -> None:
    chart = step_plot("one", [Sample(T0, {"a": 1.0})], [], width=400, height=200)
    assert chart.lines["a"][0].x == pytest.approx(56 + (400 - 56 - 96) / 2)
    with pytest.raises(ValueError):
        step_plot("none", [], [])


@given(st.lists(st.floats(min_value=0, max_value=1), min_size=1, max_size=20))
def test_every_point_stays_inside_the_plot(probabilities: list[float]) -> None:
    samples = [Sample(T0 + timedelta(hours=i), {"v": p}) for i, p in enumerate(probabilities)]
    chart = step_plot("bounds", samples, [], width=500, height=200)
    for point in chart.lines["v"]:
        assert 56 <= point.x <= 500 - 150 and 24 <= point.y <= 200 - 36
    assert [r[2] for r in chart.rows] == [round(p, 4) for p in probabilities]


def _turn(text: str, signals: tuple[Signal, ...] = ()) -> Evidence:
    return Evidence(id="e1", space="s", session="s1", seq=0, speaker="A", role=None, text=text, observed_at=T0,
                    recorded_at=T0, content_hash="h", signals=signals)  # fmt: skip


def test_segments_rebuild_the_text_and_never_nest() -> None:
    text = "I did not move to Paris last May"
    parts = segments(text, [Highlight(6, 9, "neg"), Highlight(0, 12, "wide"), Highlight(30, 99, "tail")])
    assert "".join(p.text for p in parts) == text
    assert [(p.text, p.css) for p in parts if p.css] == [("I did not mo", "wide"), ("ay", "tail")]


def test_a_cited_span_is_marked_and_signals_around_it_too() -> None:
    text = "Last Saturday I was not at <b>Acme</b>"
    date = Signal(kind=SignalKind.DATE, text="Last Saturday", start=0, end=13, normalized="2024-05-18")
    negation = Signal(kind=SignalKind.NEGATION, text="not", start=20, end=23, normalized="not")
    parts = evidence_segments(_turn(text, (date, negation)), [SupportLink(evidence_id="e1", span=(27, 38), score=0.8)])
    assert "".join(p.text for p in parts) == text
    marked = {p.text: p.css for p in parts if p.css}
    assert marked == {"Last Saturday": "sig sig-date", "not": "sig sig-negation", "<b>Acme</b>": "cited"}
    assert next(p.title for p in parts if p.css == "sig sig-date") == "date: 2024-05-18"
    other = evidence_segments(_turn(text), [SupportLink(evidence_id="other", span=(0, 4), score=1.0)])
    assert [p.css for p in other] == [""]  # a citation of another turn marks nothing here
