"""README, "Embedding model": with ``EYWA_EMBEDDER=bge-small`` "a recall question is
prefixed with its instruction …, a turn or a belief is not: ``EYWA_EMBED_QUERY_INSTRUCTION=false``
drops it" (audit of s40).

tests/unit/test_embedding_bge.py checks ``BgeSmallEmbedder(query_instruction=False)``; nothing
checked that the setting reaches it, the way every entry point builds its embedder
(``eywa.embedding.build_embedder`` from settings) and the read path embeds a question
(``eywa.embedding.base.query_embedding``). Needs the fetched model (``eywa models
fetch bge-small``): skipped, as test_embedding_bge's model tests are, when it is not in the
cache and cannot be fetched here.
"""

from __future__ import annotations

import numpy as np
import pytest

from eywa.embedding import build_embedder
from eywa.embedding.base import query_embedding
from eywa.embedding.bge import BGE_JARS, QUERY_INSTRUCTION
from eywa.embedding.fetch import missing_files
from eywa.embedding.integer import default_cache_dir
from eywa.settings import EywaSettings

QUESTION = "Where did she move last spring?"


@pytest.mark.xdist_group("bge")
def test_the_setting_decides_whether_a_question_carries_the_instruction() -> None:
    if missing_files(BGE_JARS["bge-small"], default_cache_dir()):
        pytest.skip(f"bge-small is not fetched into {default_cache_dir()}")
    with_it = build_embedder(EywaSettings(embedder="bge-small"))
    without = build_embedder(EywaSettings(embedder="bge-small", embed_query_instruction=False))
    np.testing.assert_array_equal(query_embedding(with_it)([QUESTION]), with_it.embed([QUERY_INSTRUCTION + QUESTION]))
    np.testing.assert_array_equal(query_embedding(without)([QUESTION]), without.embed([QUESTION]))
    np.testing.assert_array_equal(with_it.embed([QUESTION]), without.embed([QUESTION]))  # turns alike either way
    assert with_it.model_id == without.model_id  # so switching it re-embeds nothing stored
