"""The root of the `lexitrain` command: the bare typer app, and how a run ends.

It imports no command module, so any module may import it; `lexitrain.cli.app`
adds the commands to it, in the order `lexitrain --help` lists them.
"""

from __future__ import annotations

import errno
import importlib
import sys
from types import ModuleType
from typing import NoReturn

import typer

from lexitrain import __version__
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.progress import report_first_use


def new_root_app() -> typer.Typer:
    """The `lexitrain` app with no command in it yet, with `-h` beside `--help` and `--version`."""
    app = typer.Typer(
        name="lexitrain",
        help="Word study, anagram training and lexicon tools for competitive Scrabble players.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    app.callback()(_root_options)
    return app


def version_text() -> str:
    """`lexitrain 0.1.0 (move generator: compiled)`: which search this install runs."""
    from lexitrain.engine.engines import default_engine

    engine = "compiled" if default_engine() == "compiled" else "pure Python"
    return f"lexitrain {__version__} (move generator: {engine})"


def _show_version(value: bool) -> None:
    if value:
        typer.echo(version_text())
        raise typer.Exit()


def _root_options(
    version: bool = typer.Option(False, "--version", "-V", is_eager=True, callback=_show_version,
                                 help="Show the version and the move generator in use, and exit."),
) -> None:
    """Word study, anagram training and lexicon tools for competitive Scrabble players."""


def click_exceptions() -> ModuleType:
    """click's exception classes as typer raises them (typer 0.28 vendors click as typer._click)."""
    try:
        return importlib.import_module("typer._click.exceptions")
    except ImportError:
        return importlib.import_module("click.exceptions")


def run(app: typer.Typer) -> NoReturn:
    """Run `app` as the console command: user errors become one line on stderr, exit 1."""
    if sys.stderr.isatty():  # show slow first-use work (a compile, a word graph) as it goes
        from lexitrain.cli.progress_bar import progress_bar

        report_first_use(progress_bar)
    click = click_exceptions()
    try:
        status = app(standalone_mode=False)
    except click.NoArgsIsHelpError as exc:  # bare `lexitrain` or group: help
        exc.show()
        sys.exit(exc.exit_code)
    except click.UsageError as exc:  # one line, as for every other error
        hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx else ""
        print(f"error: {' '.join(exc.format_message().split())}{hint}", file=sys.stderr)
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        print(f"error: {' '.join(exc.format_message().split())}", file=sys.stderr)
        sys.exit(exc.exit_code)
    except typer.Abort:  # end of input at a prompt
        print("error: aborted", file=sys.stderr)
        sys.exit(1)
    except LexitrainError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    except OSError as exc:
        if exc.errno != errno.ENOSPC:
            raise
        print(f"error: disk full: {exc.filename or 'a file'} could not be written; "
              "free some space and run again", file=sys.stderr)
        sys.exit(1)
    sys.exit(status if isinstance(status, int) else 0)
