"""What every CLI command shares: the error boundary, consoles, settings and opening a Memory.

The error boundary lives in ``EywaGroup.invoke`` so that every command, including the
sub-apps added later in their own modules, turns a user mistake into one line on stderr
and a non-zero exit code, while a genuine bug still shows its traceback.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape
from typer.core import TyperGroup

try:  # typer >= 0.20 vendors click; older typer runs on click itself
    from typer._click.core import Context
    from typer._click.exceptions import NoArgsIsHelpError, UsageError
except ImportError:  # pragma: no cover - depends on the installed typer
    from click import Context  # type: ignore[assignment]
    from click.exceptions import NoArgsIsHelpError, UsageError  # type: ignore[assignment]

from eywa.errors import ConfigurationError, EywaError, InvalidInputError
from eywa.settings import EywaSettings

if TYPE_CHECKING:
    from eywa.memory import Memory

__all__ = [
    "DataDirOption",
    "EywaGroup",
    "err_console",
    "load_settings",
    "open_memory",
    "out_console",
    "require_space",
]

DataDirOption = Annotated[
    Path | None,
    typer.Option(
        "--data-dir",
        help="Embedded store directory (default: EYWA_DATA_DIR, else ./.eywa).",
        show_default=False,
    ),
]


def out_console() -> Console:
    """Console for results (stdout). Built per call: nothing reads the terminal at import."""
    return Console(highlight=False)


def err_console() -> Console:
    """Console for errors and progress (stderr); never wraps, so an error stays one line."""
    return Console(stderr=True, highlight=False, soft_wrap=True)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror and exc.filename is not None:
        return f"{exc.strerror}: {exc.filename}"
    if isinstance(exc, json.JSONDecodeError):
        return f"invalid JSON at line {exc.lineno} column {exc.colno} ({exc.msg})"
    if isinstance(exc, UsageError):
        where = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
        return f"{exc.format_message()}{where}"
    return str(exc) or type(exc).__name__


def fail(exc: BaseException, code: int = 1) -> typer.Exit:
    """Print ``exc`` as one line on stderr and build the exit to raise."""
    err_console().print(f"[bold red]error:[/] {escape(_describe(exc))}")
    return typer.Exit(code)


class EywaGroup(TyperGroup):
    """A Typer group whose ``invoke`` is the CLI's single error boundary.

    Sub-commands are parsed inside the parent's ``invoke``, so bad options and missing
    arguments of a sub-command (click's ``UsageError``) are caught here too.
    """

    def invoke(self, ctx: Context) -> Any:
        """Run the sub-command; map user mistakes to one stderr line and an exit code."""
        try:
            return super().invoke(ctx)
        except NoArgsIsHelpError:
            raise  # not a mistake: Typer prints the help
        except UsageError as exc:
            raise fail(exc, exc.exit_code) from None
        except (EywaError, OSError, json.JSONDecodeError) as exc:
            raise fail(exc) from None


def load_settings(data_dir: Path | None = None, **overrides: Any) -> EywaSettings:
    """Settings from the environment, with ``--data-dir`` and command overrides applied.

    Raises:
        ConfigurationError: an ``EYWA_*`` variable holds a value that does not validate.
    """
    try:
        settings = EywaSettings()
    except ValidationError as exc:
        first = exc.errors()[0]
        name = "EYWA_" + ".".join(str(p) for p in first["loc"]).upper()
        raise ConfigurationError(f"{name}: {first['msg']}") from exc
    if data_dir is not None:
        overrides["data_dir"] = data_dir
    return settings.model_copy(update=overrides) if overrides else settings


@contextmanager
def open_memory(settings: EywaSettings, *, must_exist: bool = False) -> Iterator[Memory]:
    """Open the embedded Memory of ``settings.data_dir``; closed on exit.

    ``must_exist`` refuses a missing directory instead of creating an empty memory, which
    is what read-only commands want: a typo in ``--data-dir`` should not look like an empty
    but valid memory.

    Raises:
        InvalidInputError: ``must_exist`` and the directory does not exist.
    """
    from eywa.memory import Memory  # deferred: loading the embedder is slow, --help is not

    if must_exist and not settings.data_dir.is_dir():
        raise InvalidInputError(f"no memory at {settings.data_dir} (use --data-dir or EYWA_DATA_DIR)")
    with Memory.open(settings.data_dir, settings=settings) as mem:
        yield mem


def require_space(mem: Memory, space: str) -> str:
    """``space`` if it holds evidence.

    Raises:
        InvalidInputError: the space is unknown; the message lists the known ones.
    """
    known = mem.spaces()
    if space not in known:
        listed = ", ".join(sorted(known)[:10]) or "none"
        raise InvalidInputError(f"unknown space {space!r} (known: {listed})")
    return space
