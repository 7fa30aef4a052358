"""One bound for a timeline's speaker on every surface that takes it: ``EYWA_MAX_LABEL_CHARS``
(``eywa.contract``), refused with ``limit_exceeded`` past it and accepted up to it.

Before, ``Memory.audit("timeline", …)`` and ``eywa audit timeline -p speaker=…`` bounded the
speaker, as every audit parameter, by the recall query's 4,000 characters, the HTTP timeline
by the label's 500 (``browse.timeline``) and the console's timeline page by a route bound of
200 (answered with the schema's JSON ``validation_error`` on an HTML page). An audit's
parameters are ids, names, times and counts: each is now a label.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from eywa import Memory
from eywa.cli import app as cli
from eywa.contract import Limits
from eywa.errors import InvalidInputError
from tests.services.conftest import Service
from tests.services.test_console import _secret, _sign_in

SPACE = "speaker-bound"
BOUND = Limits().max_label_chars
AT, OVER = "s" * BOUND, "s" * (BOUND + 1)
BOTH = pytest.mark.parametrize(("speaker", "code"), [(AT, None), (OVER, "limit_exceeded")], ids=["at-bound", "over"])


@pytest.fixture(scope="module")
def held(memory: Memory) -> None:
    memory.remember(SPACE, [{"text": "I work at Acme.", "speaker": "Dana"}], wait=True)


@BOTH
def test_python(memory: Memory, held: None, speaker: str, code: str | None) -> None:
    if code is None:
        assert memory.audit("timeline", {"space": SPACE, "speaker": speaker}).records() == []
        return
    with pytest.raises(InvalidInputError) as refused:
        memory.audit("timeline", {"space": SPACE, "speaker": speaker})
    assert refused.value.code == code and refused.value.problems[0].field == "params.speaker"


@BOTH
def test_cli(tmp_path: Path, speaker: str, code: str | None) -> None:
    Memory.open(tmp_path).close()  # a store to audit
    args = ["audit", "timeline", "-p", f"space={SPACE}", "-p", f"speaker={speaker}", "--data-dir", str(tmp_path)]
    result = CliRunner().invoke(cli, args)
    if code is None:
        assert result.exit_code == 0, result.output
    else:
        assert result.exit_code != 0 and result.stderr.strip().endswith(f"[{code}]"), result.stderr


@BOTH
def test_http(service: Service, held: None, speaker: str, code: str | None) -> None:
    answer = service.client.get(f"/v1/spaces/{SPACE}/timeline", params={"speaker": speaker},
                                headers=service.headers([SPACE], "read"))  # fmt: skip
    if code is None:
        assert answer.status_code == 200 and answer.json()["items"] == []
    else:
        assert answer.status_code == 422 and answer.json()["code"] == code


@BOTH
def test_console(service: Service, held: None, speaker: str, code: str | None) -> None:
    _sign_in(service, _secret(service, [SPACE]))
    page = service.client.get(f"/console/spaces/{SPACE}", params={"speaker": speaker})
    assert page.headers["content-type"].startswith("text/html"), page.text[:200]
    if code is None:
        assert page.status_code == 200
    else:  # the console's error page: the status and words of the core's error
        assert page.status_code == 422 and f"at most {BOUND} characters" in page.text
