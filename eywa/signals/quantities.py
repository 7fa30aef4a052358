"""MONEY, DURATION, QUANTITY and NUMBER signals, normalised for anchor matching.

The validator compares every amount of a candidate fact with these normalised values, so
each family has one canonical form: money "1200.00 USD", durations ISO-8601 ("P3Y",
"PT2H"), quantities "5 km", numbers a plain decimal ("1200", "2.5"). The detectors run in
that order and each skips spans already claimed, so "$1,200" is never also the NUMBER 1200.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, localcontext

from eywa.models import Signal, SignalKind
from eywa.signals._text import (
    DIGITS,
    MULTIPLIERS,
    SMALL_NUMBERS,
    WORD_NUMBER,
    keep_free,
    number_value,
    plain_decimal,
    word_set,
)

_FLAGS = re.IGNORECASE
_MULT = r"(?:(?P<mult>k|mm|m|bn|b)\b|\s(?P<multword>thousand|million|billion)\b)?"
_NUM = rf"(?P<num>{DIGITS}|{WORD_NUMBER})"

_SYMBOLS = {"$": "USD", "us$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR"}
_CODES = ("USD", "EUR", "GBP", "JPY", "CAD", "AUD", "INR", "CHF", "CNY", "MXN")
_WORDS = {
    "dollar": "USD", "buck": "USD", "euro": "EUR", "quid": "GBP", "yen": "JPY",
    "rupee": "INR", "cent": "USD",
}  # fmt: skip

_MONEY = re.compile(
    rf"(?P<sym>US\$|\$|€|£|¥|₹)\s?(?P<num>{DIGITS}){_MULT}"
    rf"|\b(?P<code>{'|'.join(_CODES)})\s?(?P<cnum>{DIGITS}){_MULT.replace('mult', 'cmult')}"
    rf"|\b(?P<wnum>{DIGITS}|{WORD_NUMBER}){_MULT.replace('mult', 'wmult')}\s*"
    rf"(?P<word>dollars?|bucks?|euros?|quid|yen|rupees?|cents?|{'|'.join(_CODES)})\b",
    _FLAGS,
)

_CURRENCY_WORDS = frozenset(
    "dollar dollars buck bucks euro euros quid yen rupee rupees cent cents".split()
)
_NUMBER_WORDS = frozenset(SMALL_NUMBERS)
_ISO_UNITS: dict[str, tuple[str, int]] = {
    "second": ("S", 1), "sec": ("S", 1), "minute": ("M", 1), "min": ("M", 1),
    "hour": ("H", 1), "hr": ("H", 1), "day": ("D", 1), "week": ("W", 1), "month": ("M", 1),
    "year": ("Y", 1), "yr": ("Y", 1), "decade": ("Y", 10),
}  # fmt: skip
_DURATION_WORDS = frozenset(_ISO_UNITS) | frozenset(unit + "s" for unit in _ISO_UNITS)
_TIME_UNITS = frozenset({"second", "sec", "minute", "min", "hour", "hr"})
_DURATION = re.compile(
    rf"\b(?:(?P<half>half\s+an?\s+hour)"
    rf"|(?P<num>{DIGITS}|{WORD_NUMBER}|a\s+couple\s+of|couple\s+of|an?)\s+"
    r"(?P<unit>second|sec|minute|min|hour|hr|day|week|month|year|yr|decade)s?)\b",
    _FLAGS,
)
_DURATION_CUE = re.compile(
    r"\b(?:for|about|over|in|within|after|nearly|almost|around|than|whole|entire|full|only"
    r"|just|least|most|took|takes|take|spent|spend|lasted|lasts|roughly|approximately|half)"
    r"\s+$",
    _FLAGS,
)
"""A preceding word that makes "a year" / "one day" a length of time, not "once a year"."""

_UNITS = (
    "km|kilometers|kilometres|miles|mile|mi|meters|metres|meter|metre|cm|mm|ft|feet|foot"
    "|inches|inch|kg|kilograms|kilos|grams|g|lbs|lb|pounds|pound|oz|ounces|liters|litres"
    "|liter|litre|ml|gallons|gallon|mph|kph|km/h|degrees|percent|%|°[cf]"
)
_QUANTITY = re.compile(
    rf"(?<![\w.,/-])(?P<num>{DIGITS}|{WORD_NUMBER})(?![\d,.]\d)"
    rf"(?:\s?(?P<unit>{_UNITS})(?![\w/])|\s(?P<noun>[a-z][a-z'-]*[a-z]))",
    _FLAGS,
)
_NOT_NOUNS = frozenset(
    """a an the and or nor but if so as at by for from in into of off on onto out over to up
    with than then that this these those there here is are was were be been am i you he she
    we they it me him her us them my your his our their its more less most least times time
    or too very just also only even still again already about around some any all both each
    other another such what which who whom whose when where why how not no yes am pm a.m
    p.m o'clock ago later before after since until while per plus minus point
    thousand million billion hundred dozen one two three four five six seven eight nine ten
    will would can could should might must may did do does had has have got get went go
    out's""".split()
)
_NOT_NOUNS = _NOT_NOUNS | frozenset(
    """little young younger old older big bigger small smaller new different special great
    good best better bad worse whole full entire main only other same extra few many much
    several positive negative happy sad beautiful amazing separate favorite favourite
    including replied said says""".split()
)
_NOT_NOUN_ENDINGS = ("ing", "ed", "ly", "er", "est")
_NUMBER = re.compile(
    rf"(?<![\w.,/$€£¥-])(?P<num>{DIGITS}|{WORD_NUMBER}){_MULT}(?![\w/]|[.,:-]\d)",
    _FLAGS,
)
_ONE_BEFORE = re.compile(
    r"\b(?:the|no|any|every|each|some|which|that|this|little|other|another|loved|special"
    r"|right|only|new|old|big|last|first|next|favorite|favourite|fave|one|cute|good|bad)\s+$",
    _FLAGS,
)
_ONE_AFTER = re.compile(r"^(?:'s|’s|\s+another|\s+day|\s+of\s+these)\b", _FLAGS)


def _multiplied(value: Decimal, short: str | None, long: str | None) -> Decimal:
    key = (short or long or "").lower()
    return value * MULTIPLIERS[key] if key in MULTIPLIERS else value


def _cents(value: Decimal, short: str | None, long: str | None) -> Decimal:
    """``value`` times its multiplier, to the cent, exactly: with as many digits as the amount
    has (the default context's 28 made an amount of 29 digits or more, which a turn may
    hold, a ``decimal.InvalidOperation`` out of ``remember``)."""
    with localcontext() as context:
        context.prec = max(context.prec, value.adjusted() + 16)  # the multiplier's 9 digits and the cents
        return _multiplied(value, short, long).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def _signal(kind: SignalKind, match: re.Match[str], normalized: str) -> Signal:
    return Signal(
        kind=kind, text=match.group(0), start=match.start(), end=match.end(), normalized=normalized
    )


def _money(text: str) -> list[Signal]:
    found: list[Signal] = []
    for match in _MONEY.finditer(text):
        if match["sym"]:
            raw, currency = match["num"], _SYMBOLS[match["sym"].lower()]
            mult = (match["mult"], match["multword"])
        elif match["code"]:
            raw, currency = match["cnum"], match["code"].upper()
            mult = (match["cmult"], match["cmultword"])
        else:
            raw, word = match["wnum"], match["word"].lower()
            currency = word.upper() if word.upper() in _CODES else _WORDS[word.rstrip("s")]
            mult = (match["wmult"], match["wmultword"])
            if word.startswith("cent"):
                mult = (None, None)
                raw = str((number_value(raw) or Decimal(0)) / 100)
        value = number_value(raw)
        if value is None:
            continue
        found.append(_signal(SignalKind.MONEY, match, f"{_cents(value, *mult)} {currency}"))
    return found


def _durations(text: str) -> list[Signal]:
    found: list[Signal] = []
    for match in _DURATION.finditer(text):
        if match["half"]:
            found.append(_signal(SignalKind.DURATION, match, "PT30M"))
            continue
        amount_text = " ".join(match["num"].lower().split())
        if amount_text in ("a", "an", "one") and not _DURATION_CUE.search(text, 0, match.start()):
            continue
        value = Decimal(2) if "couple" in amount_text else number_value(amount_text)
        if value is None:
            continue
        unit = match["unit"].lower()
        designator, factor = _ISO_UNITS[unit]
        prefix = "PT" if unit in _TIME_UNITS else "P"
        found.append(
            _signal(
                SignalKind.DURATION, match, f"{prefix}{plain_decimal(value * factor)}{designator}"
            )
        )
    return found


def _quantities(text: str) -> list[Signal]:
    found: list[Signal] = []
    for match in _QUANTITY.finditer(text):
        value = number_value(match["num"])
        if value is None:
            continue
        if match["unit"]:
            unit = match["unit"].lower()
            unit = "percent" if unit == "%" else unit
        else:
            unit = match["noun"].lower()
            if not _is_count_noun(unit, match["noun"]) or _is_pronoun_one(text, match):
                continue
        found.append(_signal(SignalKind.QUANTITY, match, f"{plain_decimal(value)} {unit}"))
    return found


def _is_count_noun(lowered: str, raw: str) -> bool:
    """Whether the word after a number is what is counted: "3 kids", not "2 younger"."""
    if lowered in _NOT_NOUNS or raw != lowered:
        return False
    return not lowered.endswith(_NOT_NOUN_ENDINGS) or lowered.endswith(("ings", "eds"))


def _is_pronoun_one(text: str, match: re.Match[str]) -> bool:
    """Whether a matched "one" is the pronoun ("the one I like", "loved ones"), not a count."""
    if match["num"].lower() != "one":
        return False
    return bool(
        _ONE_BEFORE.search(text, 0, match.start()) or _ONE_AFTER.match(text[match.end("num") :])
    )


def _numbers(text: str) -> list[Signal]:
    found: list[Signal] = []
    for match in _NUMBER.finditer(text):
        value = number_value(match["num"])
        if value is None or match["num"].lower() == "one":
            continue  # a bare "one" is nearly always the pronoun ("the one I like")
        value = _multiplied(value, match["mult"], match["multword"])
        found.append(_signal(SignalKind.NUMBER, match, plain_decimal(value)))
    return found


def detect_quantities(
    text: str, taken: list[tuple[int, int]], words: frozenset[str] | None = None
) -> list[Signal]:
    """MONEY, DURATION, QUANTITY and NUMBER signals over spans not yet ``taken``.

    Each family claims its spans before the next, vaguer one runs; ``taken`` is extended
    in place. ``words`` is ``word_set(text)`` if the caller already has it.
    """
    words = word_set(text) if words is None else words
    has_digit = any(c.isdigit() for c in text)
    has_number = has_digit or not _NUMBER_WORDS.isdisjoint(words)
    signals: list[Signal] = []
    if has_digit or not _CURRENCY_WORDS.isdisjoint(words):
        signals.extend(keep_free(_money(text), taken))
    if not _DURATION_WORDS.isdisjoint(words):
        signals.extend(keep_free(_durations(text), taken))
    if has_number:
        signals.extend(keep_free(_quantities(text), taken))
        signals.extend(keep_free(_numbers(text), taken))
    return signals
