"""Write a sheet to a file, the format chosen by the file's suffix.

Checks come first (a known suffix, an existing folder, something to print)
so that bad input leaves no file behind, and the file is written beside its
final name and moved into place, so a failure never leaves half a sheet.
"""

from __future__ import annotations

import os
from pathlib import Path

from lexitrain.errors import LexitrainError
from lexitrain.sheets.html import to_html
from lexitrain.sheets.model import Sheet
from lexitrain.sheets.pdf import render_pdf
from lexitrain.sheets.tables import to_csv, to_markdown

MAX_COLUMNS = 8
FORMATS = {".pdf": "pdf", ".html": "html", ".htm": "html", ".csv": "csv", ".md": "markdown"}


def sheet_format(out: Path) -> str:
    """The output format for OUT, or a one-line error naming the known suffixes."""
    fmt = FORMATS.get(out.suffix.lower())
    if fmt is None:
        raise LexitrainError(f"{out}: unknown output format {out.suffix or '(no suffix)'!r}; use .pdf, .html, .csv or .md")
    return fmt


def check_output(out: Path) -> str:
    """Fail early on an output path that cannot be written; returns its format."""
    fmt = sheet_format(out)
    folder = out.parent
    if not folder.is_dir():
        raise LexitrainError(f"{out}: folder {folder} does not exist")
    if out.is_dir():
        raise LexitrainError(f"{out}: is a folder, not a file name")
    return fmt


def write_sheet(
    sheet: Sheet, out: Path, *, columns: int | None = None, paper: str = "a4", font_size: float = 9.0
) -> int | None:
    """Write SHEET to OUT; returns the page count for a PDF, else None."""
    fmt = check_output(out)
    if sheet.is_empty:
        raise LexitrainError("the source has no words, so there is nothing to print (no file written)")
    if columns is not None and not 1 <= columns <= MAX_COLUMNS:
        raise LexitrainError(f"--columns must be between 1 and {MAX_COLUMNS}, not {columns}")
    tmp = out.with_name(f".{out.name}.{os.getpid()}.part")
    pages = None
    try:
        if fmt == "pdf":
            pages = render_pdf(sheet, tmp, columns=columns, paper=paper, font_size=font_size)
        elif fmt == "html":
            tmp.write_text(to_html(sheet, columns), encoding="utf-8")
        elif fmt == "csv":
            tmp.write_text(to_csv(sheet), encoding="utf-8", newline="")
        else:
            tmp.write_text(to_markdown(sheet), encoding="utf-8")
        os.replace(tmp, out)
    except OSError as exc:  # a folder we may not write to, a full disk
        tmp.unlink(missing_ok=True)
        raise LexitrainError(f"{out}: cannot write the sheet ({exc.strerror or exc})") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return pages
