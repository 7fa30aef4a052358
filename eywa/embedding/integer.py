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

Where the CPU has VNNI (``weights_signed``), the same weights are stored as int8 with a zero
point (``quantize_dynamic``'s ``WeightSymmetric`` off): the uint8 grid shifted by 128, each
weight and each zero point 128 lower, so every product's integer sum, and every vector, is the
same bit for bit (1,199 questions: the LoCoMo development file's and the latency bench's),
while onnxruntime multiplies uint8 activations by int8 weights with ``VPDPBUSD`` (no 16-bit
sums to saturate) instead of the slower uint8-by-uint8 kernels: a question's embedding
2.17-2.28 against 3.10-3.38 ms CPU (load ~5); a 10k recall, paired with the uint8 build in
one process, 1.3 ms sooner at p50 at load 4.5 (docs/latency.md, session 33). The two builds
are kept under names of their own; the model id is the same, since the vectors are.

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

import contextlib
import hashlib
import importlib.util
import logging
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from eywa.errors import ConfigurationError
from eywa.settings import QueryKernels

__all__ = [
    "INTEGER_SUFFIX",
    "default_cache_dir",
    "has_vnni",
    "integer_model",
    "integer_model_built",
    "integer_model_path",
    "integer_queries",
    "weights_signed",
]

# CPU flags (``/proc/cpuinfo``) of the instructions that multiply uint8 by int8 into 32-bit
# sums without the 16-bit saturation of ``VPMADDUBSW`` (module docstring): where one is
# present, integer-kernel vectors stay within a cosine of ~0.99 of the float model's.
_VNNI_FLAGS = frozenset({"avx512_vnni", "avx_vnni"})

# Bumped when the recipe below changes, so an older build is not reused and the vectors it
# made are not mixed with the new one's.
_RECIPE = "v2"
# Appended to the model id: vectors of the float model and of each recipe are not mixed in
# one store (a change of stamp re-embeds every turn and belief, ``eywa.stores.ledger``).
INTEGER_SUFFIX = f"-dynamic-{_RECIPE}"
# Appended to the file name (not to the model id: the vectors are the same) of a build whose
# weights are int8 with zero points (``weights_signed``).
_SIGNED = "-s8"


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/eywa/models`` (``~/.cache/eywa/models`` without it)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "eywa" / "models"


def has_vnni(cpuinfo: str | None = None) -> bool:
    """Whether the CPU has VNNI (``cpuinfo``: the text of ``/proc/cpuinfo``, read when not
    given; False where it cannot be read, as off Linux: the integer kernels were measured
    on x86 only)."""
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text("utf-8", errors="replace")
        except OSError:
            return False
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "flags":
            return not _VNNI_FLAGS.isdisjoint(value.split())
    return False


def weights_signed(cpuinfo: str | None = None) -> bool:
    """Whether the integer-kernel model keeps its weights as int8 with zero points rather
    than as uint8 (module docstring): where the CPU has VNNI, whose ``VPDPBUSD`` sums uint8
    by int8 products into 32 bits. Without VNNI, int8 weights would meet ``VPMADDUBSW``,
    whose 16-bit sums saturate, so the weights stay uint8 there."""
    return has_vnni(cpuinfo)


def integer_queries(choice: QueryKernels, cpuinfo: str | None = None) -> bool:
    """Whether recall questions are embedded with integer kernels: ``integer`` always,
    ``float`` never, ``auto`` where the CPU has VNNI (``has_vnni``) and the quantiser's
    ``onnx`` package is installed. Off VNNI the integer vectors drift further from the float
    ones the turns are stored with (a cosine of 0.975 at worst, measured on an AVX2 CPU),
    and that drift was not measured against recall, so ``auto`` keeps the float model."""
    if choice == "auto":
        return has_vnni(cpuinfo) and importlib.util.find_spec("onnx") is not None
    return choice == "integer"


def integer_model(source: str, source_sha256: str, cache_dir: Path, signed: bool | None = None) -> Path:
    """The integer-kernel model derived from ``source`` (already verified against
    ``source_sha256``), built into ``cache_dir`` unless an intact build is there; with int8
    weights if ``signed`` (None: where this CPU has VNNI, ``weights_signed``).

    Raises:
        ConfigurationError: ``onnx`` is not installed, or the build or cache fails.
    """
    signed = weights_signed() if signed is None else signed
    target = integer_model_path(source_sha256, cache_dir, signed)
    sidecar = target.with_suffix(".sha256")
    if integer_model_built(source_sha256, cache_dir, signed):
        return target
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=cache_dir, prefix=".build-") as scratch:
            built = _build(source, Path(scratch), signed)
            digest = _sha256(built)
            os.replace(built, target)
            note = Path(scratch) / "sha256"
            note.write_text(digest + "\n", "ascii")
            os.replace(note, sidecar)
    except OSError as exc:
        raise ConfigurationError(f"cannot build the integer-kernel model in {cache_dir}: {exc}") from exc
    return target


def integer_model_path(source_sha256: str, cache_dir: Path, signed: bool | None = None) -> Path:
    """Where ``integer_model`` keeps the build of the file with ``source_sha256``: its name
    holds the source's hash, the recipe and, for int8 weights (``signed``; None: this
    CPU's choice, ``weights_signed``), ``-s8``, so another pinned file, recipe or weight
    type builds anew."""
    signed = weights_signed() if signed is None else signed
    return cache_dir / f"minilm-{source_sha256[:16]}{INTEGER_SUFFIX}{_SIGNED if signed else ''}.onnx"


def integer_model_built(source_sha256: str, cache_dir: Path, signed: bool | None = None) -> bool:
    """Whether an intact build (of ``signed`` weights, None: this CPU's choice) is in
    ``cache_dir`` (the file's sha256 equals its sidecar's)."""
    target = integer_model_path(source_sha256, cache_dir, signed)
    sidecar = target.with_suffix(".sha256")
    try:
        return target.is_file() and sidecar.is_file() and _sha256(target) == sidecar.read_text("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return False


def _build(source: str, scratch: Path, signed: bool) -> Path:
    """Fold the pinned graph's dequantisation into float weights (onnxruntime's basic
    optimisations: constant folding, no hardware-specific layout), then quantise it: uint8
    weights, or int8 ones with zero points (``signed``), on the same grid.

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
        with _quiet_root_logger():
            if signed:
                quantize_dynamic(
                    folded, out, per_channel=True, weight_type=QuantType.QInt8, extra_options={"WeightSymmetric": False}
                )
            else:
                quantize_dynamic(folded, out, per_channel=True, weight_type=QuantType.QUInt8)
    except Exception as exc:  # noqa: BLE001 - onnxruntime and onnx raise many types; re-raised
        raise ConfigurationError(f"cannot quantise {source}: {exc}") from exc
    return out


@contextlib.contextmanager
def _quiet_root_logger() -> Iterator[None]:
    """The quantiser logs advice through ``logging.warning`` on the root logger, which, when
    the root has no handler, configures one (``basicConfig``) in the caller's process and
    prints the advice on a user's first recall. A handler that drops everything while it
    runs keeps the root unconfigured and the terminal clean; the application's own handlers,
    if any, see nothing of it either."""
    root = logging.getLogger()
    sink = logging.NullHandler()
    mute = logging.Filter("eywa-no-such-logger")  # passes no record of the root logger
    root.addHandler(sink)
    root.addFilter(mute)
    try:
        yield
    finally:
        root.removeFilter(mute)
        root.removeHandler(sink)


def _sha256(path: Path) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()
