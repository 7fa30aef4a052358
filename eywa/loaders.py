"""Turn file loaders: JSONL of turns, and LoCoMo-format conversations and questions.

Why a separate module: the CLI, the benchmark harness and tests all read the same files,
and every one of them must report a bad line by its number instead of a traceback. Turns
come back as plain JSON-style dicts (the shape ``Memory.remember`` accepts), validated
against ``eywa.models.Turn`` so a bad turn is refused before anything is written.

Two formats are recognised:

* JSONL (or a JSON list) of turns, one object per line: ``{"text": ..., "speaker": ...,
  "session": ..., "observed_at": ..., "metadata": {...}, "external_id": ...}``.
* LoCoMo (``locomo10.json`` layout): a list of samples, each with ``sample_id`` and
  ``conversation``. Each sample becomes its own space named by its ``sample_id``.
"""

from __future__ import annotations

import json
import sys
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import dateparser
from pydantic import BaseModel, ConfigDict, ValidationError

from eywa.errors import FieldProblem, InvalidInputError
from eywa.json_text import REPEATED_KEY, loads_unique
from eywa.models import Turn

__all__ = [
    "LocomoQuestion",
    "clean_evidence",
    "is_locomo",
    "load_locomo_questions",
    "load_turns_file",
    "locomo_samples",
    "locomo_turns",
    "parse_locomo_datetime",
]

TurnBatch = tuple[str | None, list[dict[str, Any]]]

_SESSION_KEY = re.compile(r"^session_(\d+)$")
_DIA_ID = re.compile(r"^D:?(\d+):(\d+)$")
_ID_SEPARATORS = re.compile(r"[;,\s]+")
_LOCOMO_FORMAT = "%I:%M %p on %d %B, %Y"


class LocomoQuestion(BaseModel):
    """One LoCoMo question with its gold evidence turns.

    ``answer`` holds ``adversarial_answer`` for category 5 (the answer the memory must *not*
    give). ``skipped_evidence`` keeps the malformed or unknown evidence ids of the source,
    so a harness can report how much gold was unusable instead of hiding it.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    sample_id: str
    question: str
    answer: str
    category: int
    evidence: tuple[str, ...]
    skipped_evidence: tuple[str, ...] = ()
    adversarial: bool = False


def _fail(path: Path, where: str, reason: str) -> InvalidInputError:
    return InvalidInputError(f"{path}: {where}: {reason}")


def _validation_reason(exc: ValidationError) -> str:
    first = exc.errors()[0]
    loc = ".".join(str(part) for part in first["loc"])
    message = str(first["msg"]).removeprefix("Value error, ")  # a validator's own sentence
    return f"{loc}: {message}" if loc else message


def _read_text(path: Path) -> str:
    """Read a file as UTF-8, without the byte order mark some editors start it with (a JSON
    body over HTTP may carry one too); ``OSError`` (missing file, permissions) is left to the
    caller, naming ``path`` when the read failed after the open (an I/O error names no file)."""
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _fail(path, "encoding", f"not UTF-8 ({exc.reason})") from exc
    except OSError as exc:
        if exc.filename is not None:
            raise
        raise OSError(exc.errno, exc.strerror, str(path)) from None


def _check_turn(path: Path, where: str, raw: object) -> dict[str, Any]:
    """``raw`` if it is a valid turn; else the error names the line, with the code
    ``invalid_turn`` a turn refused by ``Memory.remember`` has."""
    if not isinstance(raw, dict):
        raise InvalidInputError(f"{path}: {where}: expected a JSON object, got {type(raw).__name__}", code="invalid_turn")
    try:
        Turn.model_validate(raw)
    except ValidationError as exc:
        reason = _validation_reason(exc)
        field, _, message = reason.partition(": ")
        raise InvalidInputError(
            f"{path}: {where}: {reason}", code="invalid_turn", problems=(FieldProblem(f"{where}.{field}", message),)
        ) from exc
    return raw


def is_locomo(data: object) -> bool:
    """True when ``data`` looks like a LoCoMo file: a list of samples with a conversation."""
    return (
        isinstance(data, list)
        and bool(data)
        and all(isinstance(s, dict) and "conversation" in s and "sample_id" in s for s in data)
    )


def load_turns_file(path: Path) -> list[TurnBatch]:
    """Load turns from a JSONL file, a JSON list of turns, or a LoCoMo JSON file.

    Returns ``(space, turns)`` pairs: one ``(None, turns)`` pair for a plain turn file (the
    caller chooses the space), one ``(sample_id, turns)`` pair per LoCoMo sample.

    Raises:
        OSError: the file cannot be read.
        InvalidInputError: bad JSON or an invalid turn; the message names the line.

    Example:
        >>> load_turns_file(Path("chat.jsonl"))  # doctest: +SKIP
        [(None, [{"text": "hi", "speaker": "ana"}])]
    """
    path = Path(path)
    text = _read_text(path)
    stripped = text.lstrip()
    if stripped.startswith("["):
        data = _parsed(path, text)
        if is_locomo(data):
            return [(_sample_space(path, index, sample), locomo_turns(path, sample)) for index, sample in enumerate(data)]
        if not isinstance(data, list):  # pragma: no cover - '[' always parses to a list
            raise _fail(path, "top level", "expected a list")
        turns = [_check_turn(path, f"item {i}", raw) for i, raw in enumerate(data)]
        if not turns:  # ``[]``: refused as an empty JSONL file is (it ingested nothing and exited 0)
            raise _fail(path, "content", "no turns found")
        return [(None, turns)]
    turns = []
    # JSON lines end at "\n" alone (read_text turned "\r\n" into it): str.splitlines also
    # breaks at NEL, U+2028 and U+2029, which JSON lets stand raw inside a string.
    for lineno, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        raw = _parsed(path, line, lineno)
        turns.append(_check_turn(path, f"line {lineno}", raw))
    if not turns:
        raise _fail(path, "content", "no turns found")
    return [(None, turns)]


def _parsed(path: Path, text: str, first_line: int = 1) -> Any:
    """``text`` (which starts on line ``first_line`` of ``path``) as JSON.

    Raises:
        InvalidInputError: not JSON, naming the line; an object naming a key twice, naming
            the line of a JSON lines file and the key's path; nested deeper than the decoder's
            recursion allows (``json`` raises RecursionError for that); or holding an
            integer longer than Python converts from text (``sys.get_int_max_str_digits``,
            4300 digits by default: ``json`` raises a bare ValueError for that).
    """
    try:
        return loads_unique(text)
    except InvalidInputError as exc:  # a key named twice: json kept the last value (``eywa.json_text``)
        where = f"line {first_line}" if "\n" not in text.strip() else "content"
        raise _fail(path, where, f"key {exc.problems[0].field}: {REPEATED_KEY}") from None
    except json.JSONDecodeError as exc:
        raise _fail(path, f"line {first_line + exc.lineno - 1}", f"invalid JSON ({exc.msg})") from exc
    except ValueError:
        limit = sys.get_int_max_str_digits()
        raise _fail(path, f"line {first_line}", f"invalid JSON (an integer of more than {limit} digits)") from None
    except RecursionError:
        raise _fail(path, f"line {first_line}", "invalid JSON (nested too deep)") from None


def parse_locomo_datetime(value: str) -> datetime:
    """Parse a LoCoMo session stamp such as ``"1:56 pm on 8 May, 2023"`` as UTC.

    The strict format is tried first (fast, unambiguous); ``dateparser`` catches variants.

    Raises:
        InvalidInputError: the stamp cannot be read as a date.
    """
    cleaned = " ".join(value.split())
    try:
        parsed: datetime | None = datetime.strptime(cleaned, _LOCOMO_FORMAT)
    except ValueError:
        parsed = dateparser.parse(
            cleaned.replace(" on ", " "),
            languages=["en"],  # LoCoMo is English; detecting the language costs seconds
            settings={"DATE_ORDER": "DMY", "PREFER_DAY_OF_MONTH": "first"},
        )
    if parsed is None:
        raise InvalidInputError(f"cannot parse LoCoMo date {value!r}")
    if parsed.tzinfo is None:
        return parsed.replace(tzinfo=timezone.utc)
    return parsed.astimezone(timezone.utc)


def _session_numbers(conversation: dict[str, Any]) -> list[int]:
    numbers = []
    for key, value in conversation.items():
        match = _SESSION_KEY.match(key)
        if match and isinstance(value, list):
            numbers.append(int(match.group(1)))
    return sorted(numbers)


def locomo_turns(path: Path, sample: dict[str, Any]) -> list[dict[str, Any]]:
    """The turns of one LoCoMo sample, in session order, ready for ``Memory.remember``.

    Consecutive turns of a session get ``observed_at`` one second apart so their order
    survives any sort by time; photo captions become part of what the speaker said.

    Raises:
        InvalidInputError: a session without a readable date, or a turn without text.
    """
    sample_id = str(sample["sample_id"])
    conversation = sample["conversation"]
    if not isinstance(conversation, dict):
        raise _fail(path, sample_id, "conversation must be an object")
    turns: list[dict[str, Any]] = []
    for number in _session_numbers(conversation):
        session = f"session_{number}"
        stamp = conversation.get(f"{session}_date_time")
        if not isinstance(stamp, str):
            raise _fail(path, f"{sample_id} {session}", "missing session date_time")
        try:
            start = parse_locomo_datetime(stamp)
        except InvalidInputError as exc:
            raise _fail(path, f"{sample_id} {session}", str(exc)) from exc
        for offset, raw in enumerate(conversation[session]):
            where = f"{sample_id} {session} turn {offset}"
            if not isinstance(raw, dict):
                raise _fail(path, where, "expected a JSON object")
            text = str(raw.get("text", "")).strip()
            caption = raw.get("blip_caption")
            if isinstance(caption, str) and caption.strip():
                text = f"{text} [shares a photo: {caption.strip()}]".strip()
            dia_id = raw.get("dia_id")
            turn: dict[str, Any] = {
                "text": text,
                "speaker": raw.get("speaker"),
                "session": session,
                "observed_at": start + timedelta(seconds=offset),
                "metadata": {"dia_id": dia_id} if dia_id else {},
            }
            if dia_id:
                turn["external_id"] = str(dia_id)
            turns.append(_check_turn(path, where, turn))
    return turns


def _sample_space(path: Path, index: int, sample: dict[str, Any]) -> str:
    """The space a LoCoMo sample's turns go to: its ``sample_id``, a non-blank string.

    A number reached the progress bar, which raised ``TypeError`` (a traceback, not one error
    line), and a ``null`` made the file read as a plain turn file, so ``--space`` took every
    sample into one space; neither is converted into a name.

    Raises:
        InvalidInputError: ``sample_id`` is not a non-blank string.
    """
    sample_id = sample["sample_id"]
    if not isinstance(sample_id, str) or not sample_id.strip():
        raise _fail(path, f"sample {index}", f"sample_id: must be a non-empty string, got {json.dumps(sample_id)}")
    return sample_id


def locomo_samples(path: Path) -> list[dict[str, Any]]:
    """The raw samples of a LoCoMo file.

    Raises:
        OSError: the file cannot be read.
        InvalidInputError: not JSON, or not in the LoCoMo layout.
    """
    path = Path(path)
    data = _parsed(path, _read_text(path))
    if not is_locomo(data):
        raise _fail(path, "top level", "not a LoCoMo file (a list of samples with sample_id)")
    samples: list[dict[str, Any]] = data
    return samples


def _known_dia_ids(conversation: dict[str, Any]) -> set[str]:
    return {
        str(turn["dia_id"])
        for number in _session_numbers(conversation)
        for turn in conversation[f"session_{number}"]
        if isinstance(turn, dict) and turn.get("dia_id")
    }


def clean_evidence(raw: object, known: set[str]) -> tuple[list[str], list[str]]:
    """Split, normalise and filter gold evidence ids; returns ``(kept, skipped)``.

    The source has ids such as ``"D8:6; D9:17"`` (two in one string), ``"D:11:26"`` (a stray
    colon) and ids of turns that do not exist. Ids are split on ``;``/``,``/spaces,
    normalised to ``D<session>:<turn>``, de-duplicated, and kept only if the turn exists.
    """
    values = raw if isinstance(raw, list) else [raw]
    kept: list[str] = []
    skipped: list[str] = []
    for value in values:
        for token in _ID_SEPARATORS.split(str(value)):
            if not token:
                continue
            match = _DIA_ID.match(token)
            canonical = f"D{match.group(1)}:{match.group(2)}" if match else None
            if canonical is None or canonical not in known:
                skipped.append(token)
            elif canonical not in kept:
                kept.append(canonical)
    return kept, skipped


def load_locomo_questions(path: Path) -> list[LocomoQuestion]:
    """Every question of a LoCoMo file, with cleaned gold evidence.

    Raises:
        OSError: the file cannot be read.
        InvalidInputError: not a LoCoMo file, or a question without text or category.
    """
    path = Path(path)
    questions: list[LocomoQuestion] = []
    for sample in locomo_samples(path):
        sample_id = str(sample["sample_id"])
        known = _known_dia_ids(sample["conversation"])
        listed = sample.get("qa", [])
        if not isinstance(listed, list):
            raise _fail(path, f"{sample_id} qa", "must be a list of questions")
        for index, qa in enumerate(listed):
            if not isinstance(qa, dict):
                raise _fail(path, f"{sample_id} qa {index}", "must be an object")
            adversarial = "answer" not in qa and "adversarial_answer" in qa
            answer = qa.get("answer", qa.get("adversarial_answer", ""))
            try:
                kept, skipped = clean_evidence(qa.get("evidence", []), known)
                questions.append(
                    LocomoQuestion(
                        sample_id=sample_id,
                        question=qa["question"],
                        answer=str(answer),
                        category=int(qa["category"]),
                        evidence=tuple(kept),
                        skipped_evidence=tuple(skipped),
                        adversarial=adversarial,
                    )
                )
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                raise _fail(path, f"{sample_id} qa {index}", f"bad question ({exc})") from exc
    return questions
