"""Whether a turn talks of its listener more than of its speaker ("you", "your" against "I",
"my", "we").

In a conversation between two people, a turn that says more of the listener than of the
speaker is a reaction to what the listener told ("Your garden looks lovely, you should enter
it in the show!"), an encouragement or a question back; the speaker's own news, plans and likes are told
in the first person ("I joined a choir last month"). Recall asks about what someone did,
has, likes or plans: the answer is that person's own first-person turn, or the other's reply
about it, rarely a turn addressed to the listener. English function words only (a language
without them reads as neither, and nothing changes)."""

from __future__ import annotations

import re
from typing import Final

__all__ = ["addressed_to_listener"]

_FIRST: Final = re.compile(
    r"(?<![\w'’])(?:i|i['’](?:m|ve|d|ll)|me|my|mine|myself"
    r"|we|we['’](?:re|ve|d|ll)|us|our|ours|ourselves)(?![\w'’])",
    re.IGNORECASE,
)
_SECOND: Final = re.compile(
    r"(?<![\w'’])(?:you|you['’](?:re|ve|d|ll)|your|yours|yourself|yourselves)(?![\w'’])", re.IGNORECASE
)


def addressed_to_listener(text: str) -> bool:
    """Whether ``text`` holds more second-person than first-person pronouns."""
    return len(_SECOND.findall(text)) > len(_FIRST.findall(text))
