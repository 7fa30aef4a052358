"""What a console page needs, gathered from the ``Memory``: a dimension's chart and delta
log, a belief with its citations and supersession chain.

No HTTP here; ``services.console.pages`` renders these with the templates.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from eywa.errors import NotFoundError
from eywa.memory import Memory
from eywa.models import Belief, Delta, Dimension, Evidence, ValidationReport, as_utc
from services.console.charts import Chart, Marker, Sample, step_plot
from services.console.highlight import Segment, evidence_segments

__all__ = ["BeliefView", "DimensionView", "belief_view", "dimension_view"]


@dataclass(frozen=True)
class DimensionView:
    """A dimension as of a time, its chart and the deltas that made it (event order)."""

    dimension: Dimension
    deltas: list[Delta]
    chart: Chart
    as_of: datetime | None


@dataclass(frozen=True)
class BeliefView:
    """A belief, its validation report, its cited turns (highlighted) and its chain."""

    belief: Belief
    report: ValidationReport | None
    turns: list[tuple[Evidence, list[Segment]]]
    chain: list[Belief]
    """Oldest first: the beliefs it superseded, itself, and those that superseded it."""


def dimension_view(
    memory: Memory,
    space: str,
    entity: str,
    attribute: str,
    as_of: datetime | None = None,
    *,
    samples_per_gap: int = 6,
    size: tuple[int, int] = (720, 260),
    ident: str = "chart",
    href: str = "#delta-{id}",
) -> DimensionView:
    """The dimension (entity, attribute) as of ``as_of`` (default: its last observation),
    with the step plot of its deltas up to then and the decay between them, sampled
    ``samples_per_gap`` times per gap through ``Memory.dimension`` (Nous's own decay).

    Raises:
        NotFoundError: nothing was observed about it by ``as_of``.
        InvalidInputError: a bad space, entity or attribute.
        StoreError: the store failed.
    """
    when = as_utc(as_of) if as_of is not None else None
    deltas = [d for d in memory.deltas(space, entity, attribute) if when is None or d.at <= when]
    if not deltas:
        raise NotFoundError("dimension", space, f"{entity}/{attribute}")
    end = when or deltas[-1].at
    instants = [d.at for d in deltas] + [end]
    samples: list[Sample] = []
    for start, stop in zip(instants, instants[1:]):
        gap = stop - start
        if gap.total_seconds() <= 0:
            continue
        for i in range(1, samples_per_gap + 1):
            at = start + gap * i / (samples_per_gap + 1)
            samples.append(Sample(at, memory.dimension(space, entity, attribute, at).distribution))
    dimension = memory.dimension(space, entity, attribute, end)
    samples.append(Sample(end, dimension.distribution))
    markers = [
        Marker(d.at, d.observed, d.prior, d.posterior, d.surprise_bits, href.format(id=d.id, evidence=",".join(d.evidence_ids)))
        for d in deltas
    ]
    title = f"{entity} · {attribute}: probability of each value over time"
    chart = step_plot(title, samples, markers, width=size[0], height=size[1], ident=ident)
    return DimensionView(dimension=dimension, deltas=deltas, chart=chart, as_of=when)


def belief_view(memory: Memory, space: str, belief_id: str) -> BeliefView:
    """The belief ``belief_id`` with its cited spans marked in its turns and its
    supersession chain (beliefs of the same subject and attribute linked by ``supersedes``).

    Raises:
        NotFoundError: no such belief.
        InvalidInputError: a bad space or id.
        StoreError: the store failed.
    """
    explained = memory.explain(space, belief_id)
    belief = explained.belief
    turns = [(turn, evidence_segments(turn, belief.support)) for turn in explained.turns]
    return BeliefView(belief=belief, report=explained.report, turns=turns, chain=_chain(memory, belief))


def _chain(memory: Memory, belief: Belief) -> list[Belief]:
    """Follow ``supersedes`` back and forward from ``belief`` among its siblings."""
    siblings = {b.id: b for b in memory.beliefs(belief.space, belief.subject, belief.attribute, None)}
    siblings[belief.id] = belief
    chain = [belief]
    while (older := siblings.get(chain[0].supersedes or "")) is not None and older not in chain:
        chain.insert(0, older)
    newer = {b.supersedes: b for b in siblings.values() if b.supersedes}
    while (later := newer.get(chain[-1].id)) is not None and later not in chain:
        chain.append(later)
    return chain
