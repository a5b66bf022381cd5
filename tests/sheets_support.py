"""Helpers for the sheet tests: read PDFs back the way a reader of the page would."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pypdf import PdfReader

from lexitrain.lexicon.lexicon import Lexicon

SMALL_ENGLISH = [
    "AA", "AB", "BA", "AD", "DA", "CARE", "RACE", "ACRE", "SCARE", "CARES", "RACES", "ACRES",
    "CARED", "RACED", "ARCED", "SCARED", "CEDARS", "SACRED", "SCARRED", "CARTE", "CATER",
    "CRATE", "REACT", "RECTA", "TRACE", "CRATES", "CARTES", "CASTER", "CATERS", "REACTS",
    "RECAST", "TRACES", "ATE", "EAT", "TEA", "ETA", "EATS", "SEAT", "TEAS", "EAST", "SATE",
]


@dataclass
class Piece:
    """A run of text drawn on a page, with where it starts (points from the bottom left)."""

    page: int
    x: float
    y: float
    text: str


def page_texts(path: Path) -> list[str]:
    return [page.extract_text() for page in PdfReader(str(path)).pages]


def lines_of(path: Path) -> list[str]:
    """Every text line of the PDF in reading (drawing) order."""
    return [line.strip() for text in page_texts(path) for line in text.splitlines() if line.strip()]


def pieces(path: Path) -> list[Piece]:
    found: list[Piece] = []
    for number, page in enumerate(PdfReader(str(path)).pages, start=1):
        def visit(text, cm, tm, font, size, number=number):
            if text.strip():
                found.append(Piece(number, tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5], text.strip()))

        page.extract_text(visitor_text=visit)
    return found


def source_rows(lex: Lexicon, where: str = "1", params: Sequence = (), order: str = "word") -> list[dict]:
    """Result dicts like the search layer's, straight from the lexicon's table."""
    sql = (
        "SELECT w.*, a.alphagram_rank2 AS alphagram_rank FROM words w JOIN alphagrams a USING (alphagram)"
        f" WHERE {where} ORDER BY {order}"
    )
    return [dict(r) for r in lex.db.execute(sql, params)]


def hook_line(row) -> str:
    """A word's line as a sheet prints it: front hooks, word with inner-hook marks, back hooks."""
    word = ("•" if row["inner_front"] else "") + row["word"] + ("•" if row["inner_back"] else "")
    return " ".join(part for part in (row["front_hooks"], word, row["back_hooks"]) if part)
