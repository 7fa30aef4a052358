"""MiniLM with integer matrix products: the pinned int8 file, dynamically quantised once.

The pinned model stores int8 weights with their scales, but as a graph that casts them to
float and multiplies: onnxruntime folds that into float weights when it loads the file, and
every product runs as a float ``MatMul`` (~72% of a query embedding's time). Quantising the
folded graph dynamically (``onnxruntime.quantization.quantize_dynamic``: uint8 weights per
output channel, each activation quantised to uint8 as it is computed) gives ``MatMulInteger``
kernels: on the LoCoMo development questions one question cost about half the CPU (2.8
against 6.0 ms on one thread, on a machine with AVX-512 VNNI).

The weights are unsigned (recipe v2): with signed weights (v1) an x86 CPU with AVX2 but
without VNNI multiplies uint8 activations by int8 weights with ``VPMADDUBSW``, whose 16-bit
sums saturate; on such a machine (onnxruntime 1.32) eight mixed texts' vectors had a cosine
of 0.967-1.0 (mean 0.983) with the float model's, and 0.975-1.0 (mean 0.988) with unsigned
weights, at the same CPU per text. ``reduce_range`` (7-bit weights) gave 0.969 (mean 0.983).

An activation's quantisation range is taken over the whole batch it runs in, so a text's
vector would depend on the texts padded beside it (cosine down to 0.96 in batches of 64):
this model is run one text per call, which also costs less CPU than batching it.

The derived file is built on first use from the verified pinned file (a few seconds, the
``onnx`` package needed) into a cache folder, under a name holding the pinned file's hash
and the quantisation's version; a sidecar holds the built file's sha256, checked before
every load (a mismatch rebuilds it). The build is written to a temporary file and renamed,
so processes building at once each leave a whole file.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from eywa.errors import ConfigurationError

__all__ = ["INTEGER_SUFFIX", "default_cache_dir", "integer_model"]

# Bumped when the recipe below changes, so an older build is not reused and the vectors it
# made are not mixed with the new one's.
_RECIPE = "v2"
# Appended to the model id: vectors of the float model and of each recipe are not mixed in
# one store (a change of stamp re-embeds every turn and belief, ``eywa.stores.ledger``).
INTEGER_SUFFIX = f"-dynamic-{_RECIPE}"


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/eywa/models`` (``~/.cache/eywa/models`` without it)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "eywa" / "models"


def integer_model(source: str, source_sha256: str, cache_dir: Path) -> Path:
    """The integer-kernel model derived from ``source`` (already verified against
    ``source_sha256``), built into ``cache_dir`` unless an intact build is there.

    Raises:
        ConfigurationError: ``onnx`` is not installed, or the build or cache fails.
    """
    target = cache_dir / f"minilm-{source_sha256[:16]}{INTEGER_SUFFIX}.onnx"
    sidecar = target.with_suffix(".sha256")
    if target.is_file() and sidecar.is_file() and _sha256(target) == sidecar.read_text("ascii").strip():
        return target
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=cache_dir, prefix=".build-") as scratch:
            built = _build(source, Path(scratch))
            digest = _sha256(built)
            os.replace(built, target)
            note = Path(scratch) / "sha256"
            note.write_text(digest + "\n", "ascii")
            os.replace(note, sidecar)
    except OSError as exc:
        raise ConfigurationError(f"cannot build the integer-kernel model in {cache_dir}: {exc}") from exc
    return target


def _build(source: str, scratch: Path) -> Path:
    """Fold the pinned graph's dequantisation into float weights (onnxruntime's basic
    optimisations: constant folding, no hardware-specific layout), then quantise it.

    Raises:
        ConfigurationError: ``onnx`` (which the quantiser needs) is missing, or
            onnxruntime fails.
    """
    import onnxruntime as ort

    try:
        from onnxruntime.quantization import QuantType, quantize_dynamic
    except ImportError as exc:  # onnx is an optional dependency: pip install 'eywa[quantize]'
        raise ConfigurationError(f"integer-kernel embeddings need the onnx package (eywa[quantize]): {exc}") from exc
    folded = scratch / "folded.onnx"
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    options.optimized_model_filepath = str(folded)
    options.log_severity_level = 3
    out = scratch / "integer.onnx"
    try:
        ort.InferenceSession(source, options, providers=["CPUExecutionProvider"])
        quantize_dynamic(folded, out, per_channel=True, weight_type=QuantType.QUInt8)
    except Exception as exc:  # noqa: BLE001 - onnxruntime and onnx raise many types; re-raised
        raise ConfigurationError(f"cannot quantise {source}: {exc}") from exc
    return out


def _sha256(path: Path) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()
