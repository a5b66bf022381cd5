"""The `lexitrain` command: assembles every command group into one typer app."""

from __future__ import annotations

import sys

import typer

from lexitrain.errors import LexitrainError

app = typer.Typer(
    name="lexitrain",
    help="Word study, anagram training and lexicon tools for competitive Scrabble players.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _register() -> None:
    """Each command module adds its commands to `app` (imports stay light)."""
    from lexitrain.cli import lexicon_cmd  # noqa: F401
    from lexitrain.cli import search_cmd  # noqa: F401
    from lexitrain.cli import engine_cmd  # noqa: F401
    from lexitrain.cli import study_cmd  # noqa: F401
    from lexitrain.cli import sheet_cmd  # noqa: F401
    from lexitrain.cli import positions_cmd  # noqa: F401


_register()


def click_exceptions():
    """click's exception classes as typer raises them (typer 0.28 vendors click as typer._click)."""
    try:
        from typer._click import exceptions
    except ImportError:
        from click import exceptions
    return exceptions


def main() -> None:
    """Console entry point: user errors become one line on stderr, exit 1."""
    if sys.stderr.isatty():  # say what slow first-use work is going on
        import logging

        logger = logging.getLogger("lexitrain")
        logger.addHandler(logging.StreamHandler())
        logger.setLevel(logging.INFO)
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
    sys.exit(status if isinstance(status, int) else 0)
