"""Server-side SVG charts of a dimension: the probability of each value over time.

Pure geometry, no I/O: the page gathers the points (``Sample``) and the observations
(``Marker``) and this module draws them. A dimension changes in two ways, and the plot shows
both as they happen:

* at an observation (a delta) the distribution jumps from the delta's prior to its
  posterior: a vertical step at that instant;
* between observations it decays toward uniform. The caller samples the dimension at a few
  instants in each gap with Nous's own decay (``Memory.dimension(..., as_of=t)``), so the
  curve drawn is the one the memory would answer with, not a re-implementation of it.

Observations are marked on the observed value's line; one whose surprise reaches
``spike_bits`` is drawn as a spike (a larger, filled marker and a tick on the top axis).
Accessibility: the SVG is ``role="img"`` with a ``<title>`` and ``<desc>``, each line and
marker has its own ``<title>``, and ``Chart.rows`` is the same data for a table fallback.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from eywa.nous import UNSEEN

__all__ = ["PALETTE", "Chart", "Marker", "Sample", "step_plot"]

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2")
"""Line colours, assigned to values in order of first appearance (then repeated)."""


@dataclass(frozen=True)
class Sample:
    """The distribution of a dimension at one instant."""

    at: datetime
    distribution: Mapping[str, float]


@dataclass(frozen=True)
class Marker:
    """One observation: when, which value, its surprise and where its row is (``href``)."""

    at: datetime
    value: str
    prior: Mapping[str, float]
    posterior: Mapping[str, float]
    surprise_bits: float
    href: str


@dataclass(frozen=True)
class Point:
    """A point of a line in SVG user units, with the instant and probability it stands for."""

    x: float
    y: float
    at: datetime
    p: float


@dataclass(frozen=True)
class Chart:
    """A drawn chart: the SVG text (already escaped), the lines' points and a data table."""

    svg: str
    lines: Mapping[str, tuple[Point, ...]]
    markers: tuple[tuple[Marker, Point], ...]
    rows: tuple[tuple[datetime, str, float], ...] = field(default=())
    """(instant, value, probability) per point, in time order: the table fallback."""


@dataclass(frozen=True)
class _Frame:
    width: int
    height: int
    left: int = 56
    right: int = 150
    top: int = 24
    bottom: int = 36

    @property
    def plot_width(self) -> float:
        return float(self.width - self.left - self.right)

    @property
    def plot_height(self) -> float:
        return float(self.height - self.top - self.bottom)


def step_plot(
    title: str,
    samples: Sequence[Sample],
    markers: Sequence[Marker],
    *,
    width: int = 720,
    height: int = 260,
    spike_bits: float = 1.0,
    ident: str = "chart",
) -> Chart:
    """The step plot of each value's probability over time.

    ``samples`` are the decayed distributions between observations; each marker adds two
    points at its instant (its prior, then its posterior), so the line steps vertically
    there. A marker whose posterior's most likely value differs from its prior's is a
    change point (class ``change``). ``ident`` prefixes the SVG's element ids (several
    charts on one page). Times are mapped linearly onto the x axis (a single instant is centred),
    probabilities onto y (1 at the top).

    Raises:
        ValueError: nothing to draw (no sample and no marker) or a size too small to plot.
    """
    frame = _Frame(width, height, right=150 if width >= 480 else 96)
    if frame.plot_width <= 0 or frame.plot_height <= 0:
        raise ValueError(f"a chart of {width}x{height} has no room to plot")
    points = _timeline(samples, markers)
    if not points:
        raise ValueError("a chart needs at least one sample or observation")
    start, stop = points[0][0], points[-1][0]
    span = (stop - start).total_seconds()
    values = _values(points)

    def x_of(at: datetime) -> float:
        if span <= 0:
            return frame.left + frame.plot_width / 2
        return frame.left + frame.plot_width * (at - start).total_seconds() / span

    def y_of(p: float) -> float:
        return frame.top + frame.plot_height * (1.0 - min(max(p, 0.0), 1.0))

    lines = {
        value: tuple(Point(x_of(at), y_of(dist.get(value, 0.0)), at, dist.get(value, 0.0)) for at, dist in points)
        for value in values
    }
    placed = tuple((m, Point(x_of(m.at), y_of(m.posterior.get(m.value, 0.0)), m.at, m.posterior.get(m.value, 0.0)))
                   for m in markers)  # fmt: skip
    rows = tuple((at, value, round(dist.get(value, 0.0), 4)) for at, dist in points for value in values)
    svg = _svg(title, ident, frame, values, lines, placed, start, stop, spike_bits)
    return Chart(svg=svg, lines=lines, markers=placed, rows=rows)


def _timeline(samples: Sequence[Sample], markers: Sequence[Marker]) -> list[tuple[datetime, Mapping[str, float]]]:
    """Samples and each marker's prior then posterior, in time order (prior before posterior
    at the same instant; a sample at a marker's instant after both)."""
    keyed: list[tuple[datetime, int, int, Mapping[str, float]]] = [(s.at, 2, i, s.distribution) for i, s in enumerate(samples)]
    for i, m in enumerate(markers):
        keyed += [(m.at, 0, i, m.prior), (m.at, 1, i, m.posterior)]
    keyed.sort(key=lambda item: (item[0], item[1], item[2]))
    return [(at, dist) for at, _, _, dist in keyed]


def _values(points: Sequence[tuple[datetime, Mapping[str, float]]]) -> list[str]:
    seen: dict[str, None] = {}
    for _, dist in points:
        for value in dist:
            seen.setdefault(value, None)
    return list(seen)


def _svg(
    title: str,
    ident: str,
    frame: _Frame,
    values: Sequence[str],
    lines: Mapping[str, tuple[Point, ...]],
    markers: Sequence[tuple[Marker, Point]],
    start: datetime,
    stop: datetime,
    spike_bits: float,
) -> str:
    e = html.escape
    spikes = sum(1 for m, _ in markers if m.surprise_bits >= spike_bits)
    desc = (
        f"Probability of {len(values)} value(s) from {start:%Y-%m-%d} to {stop:%Y-%m-%d}; "
        f"{len(markers)} observation(s), {spikes} surprise spike(s) of at least {spike_bits:g} bits."
    )
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" viewBox="0 0 {frame.width} {frame.height}" '
        f'width="{frame.width}" height="{frame.height}" aria-labelledby="{e(ident)}-title {e(ident)}-desc">',
        f'<title id="{e(ident)}-title">{e(title)}</title><desc id="{e(ident)}-desc">{e(desc)}</desc>',
    ]
    bottom = frame.top + frame.plot_height
    right = frame.left + frame.plot_width
    for p in (0.0, 0.5, 1.0):
        y = frame.top + frame.plot_height * (1.0 - p)
        out.append(f'<line class="grid" x1="{frame.left}" y1="{y:.1f}" x2="{right:.1f}" y2="{y:.1f}"/>')
        out.append(f'<text class="tick" x="{frame.left - 6}" y="{y + 4:.1f}" text-anchor="end">{p:.1f}</text>')
    out.append(f'<text class="tick" x="{frame.left}" y="{bottom + 18:.1f}">{start:%Y-%m-%d}</text>')
    out.append(f'<text class="tick" x="{right:.1f}" y="{bottom + 18:.1f}" text-anchor="end">{stop:%Y-%m-%d}</text>')
    for index, value in enumerate(values):
        colour = PALETTE[index % len(PALETTE)]
        coords = " ".join(f"{pt.x:.1f},{pt.y:.1f}" for pt in lines[value])
        out.append(
            f'<polyline class="series" data-value="{e(value)}" points="{coords}" fill="none" stroke="{colour}" '
            f'stroke-width="2"><title>{e(value)}</title></polyline>'
        )
        y = frame.top + 14 + 18 * index
        out.append(f'<rect x="{right + 12:.1f}" y="{y - 9:.1f}" width="12" height="4" fill="{colour}"/>')
        out.append(f'<text class="legend" x="{right + 28:.1f}" y="{y - 4:.1f}">{e(_short(value))}</text>')
    for marker, pt in markers:
        spike = marker.surprise_bits >= spike_bits
        changed = _mode(marker.prior) != _mode(marker.posterior)
        label = f"{marker.at:%Y-%m-%d}: observed {marker.value}, surprise {marker.surprise_bits:.2f} bits"
        if changed:
            label += f"; most likely value now {_mode(marker.posterior)}"
        css = "marker" + (" spike" if spike else "") + (" change" if changed else "")
        shape = f'<circle cx="{pt.x:.1f}" cy="{pt.y:.1f}" r="{6 if spike else 4}"/>'
        tick = f'<line x1="{pt.x:.1f}" y1="{frame.top - 8}" x2="{pt.x:.1f}" y2="{frame.top}"/>' if spike else ""
        out.append(
            f'<a href="{e(marker.href)}" class="{css}" data-value="{e(marker.value)}" aria-label="{e(label)}">'
            f"<title>{e(label)}</title>{shape}{tick}</a>"
        )
    out.append("</svg>")
    return "".join(out)


def _mode(distribution: Mapping[str, float]) -> str | None:
    """The most likely value (ties: the first), None for an empty distribution."""
    return max(distribution, key=lambda v: distribution[v]) if distribution else None


def _short(value: str, limit: int = 18) -> str:
    """The legend's label: "(unseen)" for the mass of values not seen yet, long values cut."""
    if value == UNSEEN:
        return "(unseen)"
    return value if len(value) <= limit else value[: limit - 1] + "…"
