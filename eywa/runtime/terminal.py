"""What the CLI writes to a terminal: stored text shown as it is, never acted on.

Stored text is any caller's: a turn, a speaker, a belief's statement, a correction's reason.
Eywa keeps every valid Unicode string as given (NUL and the other control characters
included: README, "The input contract"), and JSON answers carry them escaped
(``\\u001b``). The CLI's tables printed them raw: an ESC in a stored speaker reached the
operator's terminal as an escape sequence (colours, a window title, a cursor jump that hides
the rest of a row), a NUL as a NUL; and Rich read square brackets in stored text as markup,
so a speaker named ``A[/x]na`` ended ``eywa beliefs list`` in a ``MarkupError`` traceback.

So results go through ``TerminalConsole``: markup is off (what the CLI styles, it styles
with ``rich.text.Text``), and every string Rich renders has its control characters (C0 but
tab and newline, DEL, C1) shown as ``\\x1b``-style escapes by ``visible``.

What the CLI prints as JSON (``eywa recall --json``, ``eywa export``) reaches the same
terminal: JSON escapes C0 itself, but writes DEL and C1 raw (U+009B is CSI, the one-character
form of ESC ``[``), so ``json_visible`` writes those as ``\\u009b``-style escapes, which
decode to the same characters.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.text import Text

__all__ = ["TerminalConsole", "json_visible", "visible"]

_CONTROLS = {
    code: f"\\x{code:02x}"
    for code in (*range(0x00, 0x20), *range(0x7F, 0xA0))
    if chr(code) not in "\t\n"
}


def visible(text: str) -> str:
    """``text`` with its control characters written as escapes (tab and newline kept).

    Example:
        >>> visible("a\\x00b\\x1b[31m\\tc")
        'a\\\\x00b\\\\x1b[31m\\tc'
    """
    return text.translate(_CONTROLS)


_JSON_CONTROLS = {code: f"\\u{code:04x}" for code in range(0x7F, 0xA0)}


def json_visible(text: str) -> str:
    """JSON text with DEL and C1 written as ``\\u`` escapes: the same JSON value, since
    outside its strings JSON holds no such character.

    Example:
        >>> json_visible('{"a": "x\\x9by"}')
        '{"a": "x\\\\u009by"}'
    """
    return text.translate(_JSON_CONTROLS)


class TerminalConsole(Console):
    """A Rich console whose rendered strings show control characters as escapes."""

    def render_str(self, text: str, **kwargs: Any) -> Text:
        """Rich's ``render_str`` of ``visible(text)``: table cells, titles and printed
        strings all pass here."""
        return super().render_str(visible(text), **kwargs)
