"""Embedders: MiniLM's semantics, order and batching invariance; OpenAI over a mock transport."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import httpx
import numpy as np
import pytest
from pydantic import SecretStr

from eywa.embedding import MiniLMEmbedder, OpenAIEmbedder, build_embedder
from eywa.embedding.encoder import BATCH_TOKENS, model_batches
from eywa.errors import ClosedError, ConfigurationError, EmbedderError
from eywa.settings import EywaSettings

PUPPY = "I adopted a puppy last week"
DOG = "I got a new dog recently"
STOCKS = "The stock market fell today"
MIXED = [
    "ok",
    "Cecilia said she went to the beekeeping workshop yesterday and it was really calming.",
    PUPPY,
    "Melinda: " + "I sketched the old harbour at dusk, with the kids flying kites on the pier. " * 12,
    "haha",
    STOCKS,
    DOG,
    "ok",
]


@pytest.fixture(scope="module")
def minilm() -> MiniLMEmbedder:
    return MiniLMEmbedder(batch_size=3)


def test_paraphrases_are_closer_than_unrelated_sentences(minilm: MiniLMEmbedder) -> None:
    puppy, dog, stocks = minilm.embed([PUPPY, DOG, STOCKS])
    related, unrelated = float(puppy @ dog), float(puppy @ stocks)
    assert related > 0.5 > unrelated + 0.2


def test_rows_are_unit_float32_of_width_384(minilm: MiniLMEmbedder) -> None:
    vectors = minilm.embed(MIXED)
    assert vectors.dtype == np.float32 and vectors.shape == (len(MIXED), 384) == (
        len(MIXED),
        minilm.dim,
    )
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_embeddings_are_deterministic(minilm: MiniLMEmbedder) -> None:
    np.testing.assert_array_equal(minilm.embed(MIXED), minilm.embed(MIXED))


def test_batching_and_sorting_match_one_text_at_a_time(minilm: MiniLMEmbedder) -> None:
    batched = minilm.embed(MIXED)
    reference = np.stack([minilm.embed([text])[0] for text in MIXED])
    np.testing.assert_allclose(batched, reference, atol=1e-4)
    assert np.array_equal(batched[0], batched[-1])  # the repeated "ok" maps to one row


def test_order_is_preserved_with_mixed_lengths(minilm: MiniLMEmbedder) -> None:
    forward = minilm.embed(MIXED)
    backward = minilm.embed(MIXED[::-1])
    np.testing.assert_allclose(forward, backward[::-1], atol=1e-4)
    assert float(forward[2] @ forward[6]) > float(forward[2] @ forward[5])


def test_empty_input_gives_an_empty_matrix(minilm: MiniLMEmbedder) -> None:
    assert minilm.embed([]).shape == (0, 384)


def test_long_text_is_truncated_to_max_tokens() -> None:
    short = MiniLMEmbedder(max_tokens=16)
    text = "alpha beta gamma delta " * 50
    prefix = " ".join(text.split()[:14])  # 14 word pieces + [CLS] + [SEP] = 16 tokens
    np.testing.assert_allclose(short.embed([text]), short.embed([prefix]), atol=1e-5)


def test_model_with_the_wrong_hash_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="sha256"):
        MiniLMEmbedder(expected_sha256="0" * 64).embed(["hello"])
    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not a model")
    with pytest.raises(ConfigurationError, match="sha256"):
        MiniLMEmbedder(model_path=fake).embed(["hello"])


def test_invalid_arguments_are_configuration_errors() -> None:
    with pytest.raises(ConfigurationError):
        MiniLMEmbedder(batch_size=0)
    with pytest.raises(ConfigurationError):
        MiniLMEmbedder(max_tokens=1024)


# --- MiniLM with integer kernels --------------------------------------------------------


@pytest.fixture(scope="module")
def integer_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("models")


@pytest.fixture(scope="module")
def integer(integer_cache: Path) -> MiniLMEmbedder:
    return MiniLMEmbedder(batch_size=3, integer_kernels=True, cache_dir=integer_cache)


def test_integer_kernels_run_integer_products_close_to_the_float_model(
    integer: MiniLMEmbedder, minilm: MiniLMEmbedder, integer_cache: Path
) -> None:
    vectors = integer.embed(MIXED)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    cosine = (vectors * minilm.embed(MIXED)).sum(axis=1)
    assert cosine.min() > 0.97 and cosine.mean() > 0.98
    puppy, dog, stocks = integer.embed([PUPPY, DOG, STOCKS])
    assert float(puppy @ dog) > 0.5 > float(puppy @ stocks) + 0.2
    import onnx

    (built,) = integer_cache.glob("*.onnx")
    assert "MatMulInteger" in {node.op_type for node in onnx.load(str(built)).graph.node}


def test_integer_vectors_do_not_depend_on_the_batch(integer: MiniLMEmbedder) -> None:
    single = np.stack([integer.embed([text])[0] for text in MIXED])
    np.testing.assert_array_equal(integer.embed(MIXED), single)


def test_integer_vectors_carry_a_model_id_of_their_own(integer: MiniLMEmbedder, minilm: MiniLMEmbedder) -> None:
    assert integer.model_id != minilm.model_id and integer.model_id.startswith(minilm.model_id)


def test_integer_model_is_built_once_and_rebuilt_when_damaged(integer: MiniLMEmbedder, integer_cache: Path) -> None:
    integer.embed([PUPPY])
    (built,) = integer_cache.glob("*.onnx")
    stamp = built.stat().st_mtime_ns
    again = MiniLMEmbedder(integer_kernels=True, cache_dir=integer_cache)
    expected = again.embed([PUPPY])
    assert built.stat().st_mtime_ns == stamp  # the intact build is reused
    built.write_bytes(built.read_bytes()[:-1] + b"\0")
    rebuilt = MiniLMEmbedder(integer_kernels=True, cache_dir=integer_cache)
    np.testing.assert_array_equal(rebuilt.embed([PUPPY]), expected)
    assert built.stat().st_mtime_ns != stamp


# --- OpenAIEmbedder, against httpx.MockTransport -------------------------------------------


def fake_vector(text: str, dim: int) -> list[float]:
    rng = np.random.default_rng(sum(text.encode()))
    return [float(x) * 3.0 for x in rng.standard_normal(dim)]  # deliberately not unit length


class FakeEndpoint:
    """An OpenAI-style /v1/embeddings that can fail the first ``failures`` calls."""

    def __init__(self, dim: int = 4, failures: list[int] | None = None) -> None:
        self.dim = dim
        self.failures = list(failures or [])
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if self.failures:
            return httpx.Response(self.failures.pop(0), headers={"Retry-After": "0"}, text="busy")
        body = json.loads(request.content)
        data = [
            {"object": "embedding", "index": i, "embedding": fake_vector(t, self.dim)}
            for i, t in enumerate(body["input"])
        ]
        return httpx.Response(
            200, json={"object": "list", "data": data[::-1], "model": body["model"]}
        )


def openai_embedder(
    endpoint: FakeEndpoint, sleeps: list[float] | None = None, **kwargs: object
) -> OpenAIEmbedder:
    recorder = sleeps if sleeps is not None else []
    return OpenAIEmbedder(
        "https://embeddings.test/v1",
        "text-embedding-3-small",
        api_key="sk-test",
        dim=endpoint.dim,
        transport=httpx.MockTransport(endpoint),
        sleep=recorder.append,
        **kwargs,  # type: ignore[arg-type]
    )


def test_openai_batches_keeps_order_and_normalises() -> None:
    endpoint = FakeEndpoint()
    texts = [f"turn {i}" for i in range(5)]
    with openai_embedder(endpoint, batch_size=2) as embedder:
        vectors = embedder.embed(texts)
    assert len(endpoint.requests) == 3
    first = endpoint.requests[0]
    assert str(first.url) == "https://embeddings.test/v1/embeddings"
    assert first.headers["Authorization"] == "Bearer sk-test"
    assert json.loads(first.content)["input"] == ["turn 0", "turn 1"]
    expected = np.array([fake_vector(t, 4) for t in texts], dtype=np.float32)
    expected /= np.linalg.norm(expected, axis=1, keepdims=True)
    np.testing.assert_allclose(vectors, expected, rtol=1e-6)
    assert embedder.model_id == "openai:text-embedding-3-small@4"


def test_openai_retries_429_and_5xx_with_backoff() -> None:
    endpoint = FakeEndpoint(failures=[429, 503])
    sleeps: list[float] = []
    embedder = openai_embedder(endpoint, sleeps, max_retries=3)
    assert embedder.embed(["hello"]).shape == (1, 4)
    assert len(endpoint.requests) == 3 and sleeps == [0.0, 0.0]  # Retry-After: 0 honoured


def test_openai_backoff_doubles_without_retry_after() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        return httpx.Response(500)

    sleeps: list[float] = []
    embedder = OpenAIEmbedder(
        "https://e.test/v1",
        "m",
        dim=4,
        max_retries=3,
        backoff_s=0.5,
        transport=httpx.MockTransport(refuse),
        sleep=sleeps.append,
    )
    with pytest.raises(EmbedderError, match="500"):
        embedder.embed(["x"])
    assert sleeps == [0.5, 1.0, 2.0]


def test_openai_does_not_retry_client_errors() -> None:
    endpoint = FakeEndpoint(failures=[401])
    with pytest.raises(EmbedderError, match="401"):
        openai_embedder(endpoint, max_retries=3).embed(["x"])
    assert len(endpoint.requests) == 1


def test_openai_transport_errors_are_retried_then_raised() -> None:
    calls: list[int] = []

    def unreachable(request: httpx.Request) -> httpx.Response:
        calls.append(1)
        raise httpx.ConnectError("refused", request=request)

    embedder = OpenAIEmbedder(
        "https://e.test/v1",
        "m",
        dim=4,
        max_retries=2,
        transport=httpx.MockTransport(unreachable),
        sleep=lambda _: None,
    )
    with pytest.raises(EmbedderError, match="unreachable") as info:
        embedder.embed(["x"])
    assert len(calls) == 3 and isinstance(info.value.__cause__, httpx.ConnectError)


def test_openai_wrong_width_is_an_error() -> None:
    endpoint = FakeEndpoint(dim=6)
    embedder = OpenAIEmbedder(
        "https://e.test/v1", "m", dim=4, transport=httpx.MockTransport(endpoint)
    )
    with pytest.raises(EmbedderError, match="width 4"):
        embedder.embed(["x"])


def test_openai_empty_input_sends_nothing_and_close_is_final() -> None:
    endpoint = FakeEndpoint()
    embedder = openai_embedder(endpoint)
    assert embedder.embed([]).shape == (0, 4) and endpoint.requests == []
    embedder.close()
    with pytest.raises(ClosedError):
        embedder.embed(["x"])


# --- factory ------------------------------------------------------------------------------


def test_factory_defaults_to_minilm_with_settings_applied() -> None:
    embedder = build_embedder(EywaSettings(embed_batch_size=7))
    assert isinstance(embedder, MiniLMEmbedder) and embedder.dim == 384


def test_factory_passes_integer_kernels_on() -> None:
    embedder = build_embedder(EywaSettings(embed_integer_kernels=True))
    assert isinstance(embedder, MiniLMEmbedder) and embedder.model_id.endswith("-dynamic-v2")


def test_factory_builds_openai_from_settings() -> None:
    settings = EywaSettings(
        embedder="openai",
        openai_embeddings_url="https://e.test/v1",
        openai_embeddings_dim=256,
        openai_embeddings_api_key=SecretStr("k"),
    )
    embedder = build_embedder(settings)
    assert isinstance(embedder, OpenAIEmbedder) and embedder.dim == 256
    embedder.close()


def test_factory_refuses_openai_without_url() -> None:
    with pytest.raises(ConfigurationError, match="URL"):
        build_embedder(EywaSettings(embedder="openai"))


def test_a_session_being_made_holds_up_no_embedding_on_another_session(monkeypatch: pytest.MonkeyPatch) -> None:
    """Making a session takes seconds on a busy machine; it used to hold the embedder's lock,
    so every other thread's embedding waited (an API whose background thread made its
    session touched no store meanwhile). Here a batch's session is held in the making until
    a query embedding on the session already made has returned."""
    embedder = MiniLMEmbedder()
    embedder.embed(["a question"])  # the one-thread session of query-sized calls
    making, release = threading.Event(), threading.Event()
    make = embedder._create_session

    def held(path: str, threads: int) -> object:
        making.set()
        release.wait(30)
        return make(path, threads)

    monkeypatch.setattr(embedder, "_create_session", held)
    batch = threading.Thread(target=embedder.embed, args=([f"turn number {n}" for n in range(5)],))
    batch.start()
    assert making.wait(10)
    answered = threading.Event()

    def ask() -> None:
        embedder.embed(["another question"])
        answered.set()

    query = threading.Thread(target=ask)
    query.start()
    try:
        assert answered.wait(10), "a query embedding waited for another session to be made"
    finally:
        release.set()
        batch.join()
        query.join()
    assert embedder.embed(["turn number 1", "turn number 2", "turn number 3"]).shape == (3, 384)


def test_a_model_call_pads_at_most_batch_tokens_and_vectors_do_not_change(monkeypatch: pytest.MonkeyPatch) -> None:
    # A fixed count of texts per call padded 31 short turns to the longest one's tokens;
    # calls are now cut so that texts x width stays within BATCH_TOKENS (a longer text alone).
    short = [f"Tomasz repainted fence number {n} on Sunday" for n in range(30)]
    texts = [*short, "Ilse: " + "The ferry from the island was late again, so we walked the dunes. " * 6]
    embedder = MiniLMEmbedder(batch_size=64)
    shapes: list[tuple[int, int]] = []
    run = embedder._run

    def recording(session: object, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        shapes.append(ids.shape)
        return run(session, ids, mask)

    monkeypatch.setattr(embedder, "_run", recording)
    batched = embedder.embed(texts)
    assert sum(rows for rows, _ in shapes) == len(texts)
    assert all(rows * width <= BATCH_TOKENS or rows == 1 for rows, width in shapes), shapes
    alone = np.stack([embedder.embed([text])[0] for text in texts])
    np.testing.assert_array_equal(batched, alone)  # bit for bit: no stored vector changes


def test_model_batches_cut_by_texts_and_by_padded_tokens() -> None:
    lengths = np.array([10, 3, 50, 3, 10, 200], dtype=np.int64)
    order = np.argsort(lengths, kind="stable")  # 1, 3, 0, 4, 2, 5
    cut = [list(map(int, b)) for b in model_batches(order, lengths, most_texts=3, most_tokens=60)]
    assert cut == [[1, 3, 0], [4], [2], [5]]  # 3 texts; 2 x 50 > 60; 200 alone
    assert [list(map(int, b)) for b in model_batches(order, lengths, 64, 10**6)] == [list(map(int, order))]
    assert model_batches(order[:0], lengths, 8, 256) == []
