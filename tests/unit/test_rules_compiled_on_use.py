"""The offline extractor's rules compile their patterns on first use, not at import.

``import eywa`` spent most of its time compiling the rules' alternations of lexicon words, in
every process, whether it extracted or not (``eywa.extraction.rules.clause.Rule``). A rule's
compiled pattern must still be one object for its life: rules tell their matches apart by it
(``m.re is _X.pattern``)."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

from eywa.extraction.rules.clause import rule

REPO = Path(__file__).resolve().parents[2]

_COUNT_COMPILED = """
import gc
import eywa
from eywa.extraction.rules.clause import Rule
rules = [o for o in gc.get_objects() if isinstance(o, Rule)]
print(len(rules), sum(1 for r in rules if r._compiled))
"""


def test_importing_eywa_compiles_no_rule() -> None:
    done = subprocess.run([sys.executable, "-c", _COUNT_COMPILED], capture_output=True, text=True, cwd=REPO,
                          check=True, timeout=120)  # fmt: skip
    rules, compiled = map(int, done.stdout.split())
    assert rules > 100  # the extractor's rules are loaded …
    assert compiled == 0  # … and none is compiled until a part passes its gate


def test_a_rules_pattern_is_one_object_whichever_thread_asks_first() -> None:
    made = rule(r"\bI\s+(?:adopted|rescued)\s+(?:a|an)\s+(?P<kind>\w+)", "adopted rescued")
    seen: list[object] = []
    start = threading.Barrier(8)

    def ask() -> None:
        start.wait()
        seen.append(made.pattern)

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(seen) == 8 and all(p is seen[0] for p in seen)
    match = made.pattern.search("I adopted a beagle.")
    assert match is not None and match.re is made.pattern and match.group("kind") == "beagle"
