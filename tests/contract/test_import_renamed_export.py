"""README, Portability: "Ids are derived from the space name, so an export is imported into
the space it came from (another name is refused)". Only the header's name was compared: an
export renamed by hand (the header and every record's ``space`` edited, as ``sed`` would)
was imported with a 200 and an ``ImportReport`` counting its turns, while the store,
already holding those ids under the old name, skipped every turn, entity and belief: the
new space held a dimension without evidence (found by probing the import endpoint, s30).
Ids that were not derived from the target space are refused before anything is written."""

from __future__ import annotations

import pytest

from eywa import Memory
from eywa.errors import InvalidInputError
from eywa.portability import record_json


def _renamed(memory: Memory, space: str, to: str) -> list[str]:
    return [record_json(r).replace(f'"space":"{space}"', f'"space":"{to}"') for r in memory.export_space(space)]


@pytest.mark.parametrize(
    ("turns", "kind"),
    [
        ([{"text": "I live in Lyon.", "speaker": "Ana"}, {"text": "I adopted a cat named Miso.", "speaker": "Ana"}],
         "entity"),
        ([{"text": "the weather was mild all week", "external_id": "m-1"}], "turn"),  # no entity: the turn's id
    ],
    ids=["entities", "external-ids"],
)  # fmt: skip
def test_an_export_renamed_by_hand_is_refused_and_writes_nothing(
    memory: Memory, turns: list[dict[str, str]], kind: str
) -> None:
    source, target = f"ren-src-{kind}", f"ren-dst-{kind}"
    memory.remember(source, turns)
    lines = _renamed(memory, source, target)
    assert f'"space":"{source}"' not in "".join(lines)
    with pytest.raises(InvalidInputError, match=f"was not exported from space '{target}'") as refused:
        memory.import_space(target, lines)
    assert [p.field for p in refused.value.problems] == [kind]
    assert memory.stats(target)["evidence"] == 0 and memory.dimensions(target) == []
    assert memory.export_space(target).__next__().kind == "header" and len(list(memory.export_space(target))) == 1
    assert memory.stats(source)["evidence"] == len(turns)  # the space it came from is untouched
