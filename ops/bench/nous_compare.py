"""Compare Eywa's Nous dimensions with the published Nous implementation (nous-state on PyPI).

Runs the same observation sequences through both and prints, per scenario, the mode, its
probability, the surprise of the key observation and the entropy. nous-state is optional and
not a project dependency:

    pip install --target /tmp/nous_state nous-state
    PYTHONPATH=/tmp/nous_state .venv/bin/python ops/bench/nous_compare.py

nous-state's ``BayesianUpdater`` has no event time (it decays by wall-clock seconds with a
30-day half-life, applied when the engine's compressor runs), no modality, no negative
observations, no multi-valued attributes and no out-of-order placement; the script calls
``Dimension.apply_decay`` at each observation's event time to give it the same clock.
"""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from eywa.models import Cardinality, Polarity
from eywa.nous import Observation, apply_beliefs, get_dimension, list_deltas, set_members
from eywa.stores.embedded.database import SqliteDatabase
from eywa.stores.embedded.dimensions import SqliteDimensionStore

HALF_LIFE_DAYS = 30.0  # nous-state's default (NOUS_DECAY_HALF_LIFE_DAYS)


@dataclass(frozen=True)
class Spec:
    name: str
    cardinality: Cardinality
    tau_days: float


SPECS = {
    "employer": Spec("employer", "single", 3 * 365.0),
    "residence": Spec("residence", "single", 4 * 365.0),
    "hobbies": Spec("hobbies", "multi", 2 * 365.0),
}

# (value, event date, polarity, modality, change signal, reliability) in *ingestion* order.
Step = tuple[str, str, Polarity, str, bool, float]
SCENARIOS: dict[str, tuple[str, list[Step]]] = {
    "job change": ("employer", [
        ("Google", "2020-01-01", "positive", "asserted", False, 0.9),
        ("Google", "2021-01-01", "positive", "asserted", False, 0.9),
        ("Microsoft", "2023-05-01", "positive", "asserted", True, 0.9),
    ]),
    "old mention ingested late": ("employer", [
        ("Google", "2020-01-01", "positive", "asserted", False, 0.9),
        ("Microsoft", "2023-05-01", "positive", "asserted", True, 0.9),
        ("Google", "2021-06-01", "positive", "asserted", False, 0.9),
    ]),
    "I might move to Paris": ("residence", [
        ("Boston", "2022-01-01", "positive", "asserted", False, 0.9),
        ("Paris", "2023-01-01", "positive", "hedged", True, 0.55),
    ]),
    "a year of silence": ("employer", [
        ("Google", "2022-01-01", "positive", "asserted", False, 0.9),
        ("Google", "2022-06-01", "positive", "asserted", False, 0.9),
    ]),
    "hobbies, then I quit pottery": ("hobbies", [
        ("pottery", "2023-01-01", "positive", "asserted", False, 0.9),
        ("hiking", "2023-02-01", "positive", "asserted", False, 0.9),
        ("painting", "2023-03-01", "positive", "asserted", False, 0.9),
        ("pottery", "2023-06-01", "negative", "asserted", True, 0.9),
    ]),
}
READ_AT = {"a year of silence": "2023-06-01"}


def when(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=timezone.utc)


def ours(attribute: str, steps: list[Step], read_at: str | None) -> dict[str, Any]:
    db = SqliteDatabase(Path(":memory:"))
    store = SqliteDimensionStore(db)
    spec_for = lambda name: SPECS[name]  # noqa: E731
    last_surprise = 0.0
    for i, (value, day, polarity, modality, change, rho) in enumerate(steps):
        (delta,) = apply_beliefs(store, [Observation.model_validate({
            "space": "bench", "entity": "Rosalind", "attribute": attribute, "value": value,
            "at": when(day), "polarity": polarity, "modality": modality,
            "change_signal": change, "reliability": rho, "belief_id": f"b{i}",
        })], spec_for=spec_for)  # fmt: skip
        last_surprise = delta.surprise_bits
    as_of = when(read_at) if read_at else None
    dim = get_dimension(store, "bench", "Rosalind", attribute, as_of, spec_for=spec_for)
    members = set_members(dim, list_deltas(store, "bench", "Rosalind", attribute, spec_for=spec_for))
    db.close()
    top = dim.mode or "-"
    return {"mode": top, "p": dim.distribution.get(top, 0.0), "surprise": last_surprise,
            "entropy": dim.entropy_bits, "set": members}  # fmt: skip


def theirs(attribute: str, steps: list[Step], read_at: str | None) -> dict[str, Any] | None:
    try:
        dimension_mod = importlib.import_module("nous.dimension")
        updater_mod = importlib.import_module("nous.updater")
    except ImportError:
        return None
    rate = 0.5 ** (1.0 / (HALF_LIFE_DAYS * 86_400))
    dim = dimension_mod.Dimension(f"Rosalind.{attribute}", last_accessed=when(steps[0][1]).timestamp())
    updater = updater_mod.BayesianUpdater()
    surprise = 0.0
    for value, day, polarity, _modality, _change, rho in steps:
        t = when(day).timestamp()
        dim.apply_decay(rate, t)
        if polarity == "negative":
            continue  # nous-state has no negative observations
        surprise = updater.update(dim, value, "", "bench", reliability=rho, timestamp=t).surprise
    if read_at:
        dim.apply_decay(rate, when(read_at).timestamp())
    dist: dict[str, float] = dim.distribution
    top = max(dist, key=lambda k: dist[k])
    entropy = -sum(p * math.log2(p) for p in dist.values() if p > 0)
    return {"mode": top, "p": dist[top], "surprise": surprise, "entropy": entropy,
            "set": sorted(v for v, p in dist.items() if p >= 0.2 and v != "unknown")}  # fmt: skip


def main() -> None:
    print(f"{'scenario':30} {'impl':10} {'mode':10} {'p':>6} {'last bits':>9} {'H bits':>7}  set")
    for name, (attribute, steps) in SCENARIOS.items():
        for label, result in (("eywa", ours(attribute, steps, READ_AT.get(name))),
                              ("nous-state", theirs(attribute, steps, READ_AT.get(name)))):  # fmt: skip
            if result is None:
                print(f"{name:30} {label:10} (not installed)")
                continue
            print(f"{name:30} {label:10} {result['mode']:10} {result['p']:6.3f} "
                  f"{result['surprise']:9.2f} {result['entropy']:7.2f}  {result['set']}")  # fmt: skip


if __name__ == "__main__":
    main()
