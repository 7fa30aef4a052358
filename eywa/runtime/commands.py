"""What the commands of every entry point share: the error boundary, consoles, options.

The ``eywa`` command gathers commands from several packages (the core's, the benchmarks',
the API's, the MCP server's, the workers'), which must not import each other; they all
build on this module. The error boundary lives in ``EywaGroup.invoke`` so that every
command, including sub-apps and plugin commands, turns a user mistake into one line on
stderr and a non-zero exit code, while a genuine bug still shows its traceback.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperGroup, TyperOption

from typer._click.core import Command, Context  # typer >= 0.20 runs on its own copy of click
from typer._click.exceptions import BadParameter, NoArgsIsHelpError, UsageError

from eywa.errors import ConfigurationError, EywaError, InvalidInputError
from eywa.ids import check_space
from eywa.runtime.terminal import TerminalConsole

if TYPE_CHECKING:
    from eywa.memory import Memory

__all__ = [
    "OPTIONAL_MODULES",
    "DataDirOption",
    "EywaGroup",
    "check_listen",
    "err_console",
    "fail",
    "missing_extra",
    "out_console",
    "refuse_repeated_options",
    "note_unknown_space",
    "require_space",
]

DataDirOption = Annotated[
    Path | None,
    typer.Option(
        "--data-dir",
        help="Embedded store directory (default: EYWA_DATA_DIR, else ./.eywa); "
        "unused for the graph when EYWA_NEO4J_URI is set.",
        show_default=False,
    ),
]


def out_console(*, markup: bool = True) -> Console:
    """Console for results (stdout). Built per call: nothing reads the terminal at import.
    Control characters are shown as escapes (``eywa.runtime.terminal``); the commands that
    print stored text turn ``markup`` off, so that it is shown, never interpreted (the
    benchmarks' reports, which print only their own figures, style with it)."""
    return TerminalConsole(highlight=False, markup=markup)


def err_console() -> Console:
    """Console for errors and progress (stderr); never wraps, so an error stays one line.
    Its markup is on (the error prefix): what it prints of stored text is ``escape``d, and
    control characters are shown as escapes (``eywa.runtime.terminal``)."""
    return TerminalConsole(stderr=True, highlight=False, soft_wrap=True)


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
    """Print ``exc`` as one line on stderr and build the exit to raise.

    An ``EywaError`` ends with its code in brackets (``… [turn_too_long]``), the code the
    Python API raises and the services answer, so scripts can tell refusals apart; so does a
    value click refuses for an option's type or bound (``-k 0``: ``[invalid_input]``, the code
    ``Memory.recall`` raises for ``k=0``; it had none). So does a file the command was
    given that cannot be opened, read or written (``eywa import missing.jsonl``, ``eywa
    export --out /proc/x``, a directory, a full disk): an ``OSError`` naming the path, which
    is the caller's to fix, ``[invalid_input]`` as ``Memory.backup`` says of a destination it
    cannot write (the stores turn their own I/O failures into ``StoreError``s). Other usage
    errors (an unknown command or option) name no value and carry no code.
    """
    line = _describe(exc)
    if isinstance(exc, EywaError):
        line = f"{line} [{exc.code}]"
    elif isinstance(exc, BadParameter):  # a value an option's type or bound refuses: malformed input,
        line = f"{line} [invalid_input]"  # as Python says of the same value (recall's k=0, policy 'wild')
    elif isinstance(exc, OSError) and exc.filename is not None:
        line = f"{line} [invalid_input]"
    err_console().print(f"[bold red]error:[/] {escape(line.encode('utf-8', 'backslashreplace').decode('utf-8'))}")
    return typer.Exit(code)


# The modules of the optional extras (pyproject.toml), by the extra that installs them: a
# command that reaches one without its extra (``EYWA_NEO4J_URI`` set where only the core is
# installed) says which extra to install instead of ending in a ``ModuleNotFoundError``.
# tests/unit/test_optional_modules.py checks this table against pyproject.toml.
OPTIONAL_MODULES: dict[str, str] = {
    "neo4j": "server", "qdrant_client": "server", "fastapi": "service", "uvicorn": "service",
    "mcp": "service", "jinja2": "service", "itsdangerous": "service", "celery": "worker", "onnx": "quantize",
}  # fmt: skip


class EywaGroup(TyperGroup):
    """A Typer group whose ``invoke`` is the CLI's single error boundary.

    Sub-commands are parsed inside the parent's ``invoke``, so bad options and missing
    arguments of a sub-command (click's ``UsageError``) are caught here too.
    """

    def invoke(self, ctx: Context) -> Any:
        """Run the sub-command; map user mistakes to one stderr line and an exit code."""
        try:
            if not ctx.resilient_parsing:
                refuse_repeated_options(self, ctx, [*ctx._protected_args, *ctx.args])
            return super().invoke(ctx)
        except NoArgsIsHelpError:
            raise  # not a mistake: Typer prints the help
        except UsageError as exc:
            raise fail(exc, exc.exit_code) from None
        except BrokenPipeError:
            raise  # the reader of stdout went away (``| head``): Typer exits quietly, as Unix tools do
        except (EywaError, OSError, json.JSONDecodeError) as exc:
            raise fail(exc) from None
        except ModuleNotFoundError as exc:
            extra = OPTIONAL_MODULES.get((exc.name or "").partition(".")[0])
            if extra is None:
                raise  # a module no extra provides: a bug, keep its traceback
            command = " ".join([*ctx.command_path.split()[1:], ctx.invoked_subcommand or ""]).strip()
            raise fail(missing_extra(command, extra, exc)) from None


def refuse_repeated_options(group: TyperGroup, ctx: Context, args: list[str]) -> None:
    """Refuse an option that takes one value (or is one flag) given more than once.

    click keeps the last of ``eywa recall --k 3 --k 5`` without a word, and ``--space home
    --space work`` read ``work``: a command line saying two things was run as one of them, as
    a query parameter given twice was on the HTTP API. Every command of every entry point is
    reached through the root ``EywaGroup``, so this is checked once here, before anything
    runs: ``args`` are walked down the groups to the command they name, each level read by
    its own parser (nothing is converted and no callback runs), and an option that
    occurs twice where it keeps one value is a ``BadParameter`` (exit 2, ``[invalid_input]``,
    as a value an option refuses). Options that collect (``-p`` of ``eywa audit``) or count
    are not concerned; a command line the parser refuses is left to the real parse, which
    says why.

    Raises:
        BadParameter: naming the option as written in ``--help``.
    """
    command: Command = group
    parent, rest = ctx, args
    while isinstance(command, TyperGroup) and rest:
        try:
            name, found, rest = command.resolve_command(parent, rest)
            if found is None:
                return
            probe = found.context_class(found, info_name=name, parent=parent, resilient_parsing=True)
            _, remaining, order = found.make_parser(probe).parse_args(args=list(rest))
        except UsageError:
            return  # the real parse refuses it, saying why
        seen: set[int] = set()
        for param in order:
            if isinstance(param, TyperOption) and param.expose_value and not (param.multiple or param.count):
                if id(param) in seen:
                    raise BadParameter("given more than once; give it once", ctx=probe, param=param)
                seen.add(id(param))
        command, parent, rest = found, probe, remaining


def missing_extra(command: str, extra: str, exc: ImportError) -> ConfigurationError:
    """The error of a command whose optional dependencies are not installed."""
    return ConfigurationError(f"eywa {command} needs the {extra} extra: pip install 'eywa[{extra}]' ({exc})")


def _listed(known: Iterable[str]) -> str:
    return ", ".join(sorted(known)[:10]) or "none"


def require_space(mem: Memory, space: str) -> str:
    """``space`` if it holds evidence: for the commands that erase (``forget``,
    ``drop-space``), which every surface refuses on a space that never held a turn.

    Raises:
        InvalidInputError: the space is unknown; the message lists the known ones.
    """
    known = mem.spaces()
    if space not in known:
        raise InvalidInputError(f"unknown space {space!r} (known: {_listed(known)})")
    return space


def note_unknown_space(known: Iterable[str], space: str) -> str:
    """``space``, after one line on stderr when it holds no turns, listing the known ones.

    A command that reads one space (or finishes its pending work) answers a space that was
    never written as an empty one, as the Python API, the HTTP API, MCP and the client do:
    an agent's first recall in a new space is normal, and a script must not fail where the
    service answers. An operator's typo is common too, so the note names the spaces there
    are; the answer on stdout is the empty space's, and the exit code 0.

    A name that is no space at all (blank, ``*``, not printable) is refused first: the note
    said it would answer "as an empty space" and the next line refused the name.

    Raises:
        InvalidInputError: ``space`` is no valid space name (``eywa.ids.check_space``).
    """
    check_space(space)
    known = set(known)
    if space not in known:
        line = f"note: space {space!r} holds no turns (known: {_listed(known)}); answering as an empty space"
        err_console().print(escape(line.encode("utf-8", "backslashreplace").decode("utf-8")))
    return space


def check_listen(host: str, port: int) -> None:
    """Whether a server can listen on ``host``:``port``, asked before it opens the memory.

    uvicorn binds after the application started: a port already taken (another ``eywa
    serve``) or a host that is not this machine's loaded the memory and the embedder first,
    then ended in six lines of uvicorn's log (``ERROR: [Errno 98] … address already in use``)
    and exit 3. The probe socket is closed again; uvicorn binds its own, as before.

    Raises:
        ConfigurationError: the address cannot be resolved or bound, naming it.
    """
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]  # fmt: skip
    except (socket.gaierror, UnicodeError) as exc:
        raise ConfigurationError(f"cannot listen on {host}:{port}: {getattr(exc, 'strerror', None) or exc}") from None
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn: a port in TIME_WAIT is free
        try:
            probe.bind(address)
        except OSError as exc:
            raise ConfigurationError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
