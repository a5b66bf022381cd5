"""Lay a sheet out as a printable PDF with fpdf2.

fpdf2 is pure Python (no system libraries), embeds a TrueType font subset so
every tile set's letters print, and lets us place every line ourselves, which
is what keeping a group whole inside one column needs. Pages: a header with
the title, lexicon and date; a footer "page X of Y"; N columns in between,
filled top to bottom, left to right. Black text and grey rules only, so the
sheet prints the same in black and white.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from lexitrain.errors import LexitrainError
from lexitrain.sheets.model import Column, Sheet

if TYPE_CHECKING:
    from fpdf import FPDF

FONT = "DejaVuSansCondensed"
FONT_DIR = Path(__file__).with_name("fonts")
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN = 12.0  # mm
GUTTER = 5.0  # mm between printed columns
HEADER_HEIGHT = 12.0
FOOTER_HEIGHT = 8.0
MIN_FONT_SIZE = 4.0
PT = 25.4 / 72  # mm per point
GREY = 150
PAD = 0.5  # mm of space inside each field, left and right


@dataclass
class Line:
    """One printed line of a block: a title, a head or body row, or a ruled write-in line."""

    kind: str  # "title" | "head" | "row" | "ask" (a row with blanks to fill) | "write"
    cells: tuple[str, ...] = ()
    columns: tuple[Column, ...] = ()
    widths: list[float] = field(default_factory=list)  # mm, per cell
    wrapped: list[list[str]] = field(default_factory=list)  # per cell, its lines of text
    height: float = 0.0


@dataclass
class Block:
    """What must stay together in one column: a group (with its section title, if first)."""

    lines: list[Line]
    new_page: bool = False

    @property
    def height(self) -> float:
        return sum(line.height for line in self.lines)


def place(
    heights: Sequence[float], new_pages: Sequence[bool], column_height: float, columns: int
) -> list[tuple[int, int, float]]:
    """(page, column, top) of each block, in order, none split across a column.

    A block that does not fit in what is left of a column goes to the top of
    the next one; a block marked `new_page` starts a fresh page. Blocks must
    not be taller than a column (the caller splits those first).
    """
    placed = []
    page, column, top = 0, 0, 0.0
    for i, (height, fresh) in enumerate(zip(heights, new_pages)):
        if fresh and (i > 0):
            page, column, top = page + 1, 0, 0.0
        elif top > 0 and top + height > column_height:
            column, top = column + 1, 0.0
            if column == columns:
                page, column = page + 1, 0
        placed.append((page, column, top))
        top += height
    return placed


class _Document:
    """An FPDF with our font, header and footer."""

    def __init__(self, sheet: Sheet, paper: str, font_size: float) -> None:
        from fpdf import FPDF

        if paper not in PAPERS:
            raise LexitrainError(f"unknown paper {paper!r} (choose from {', '.join(PAPERS)})")
        document = self

        class _PDF(FPDF):
            def header(self) -> None:
                width = self.w - 2 * MARGIN
                stamp = f"{sheet.lexicon} · {sheet.date}"
                title_width = width - document.width(stamp, False, 9) - 4
                title, size = document.fit_line(sheet.title, True, title_width - 2 * PAD, 12)
                document.put(title, True, size, MARGIN, MARGIN - 4, title_width, "L", 6)
                document.put(stamp, False, 9, MARGIN, MARGIN - 4, width, "R", 6)
                self.set_draw_color(0)
                self.set_line_width(0.3)
                self.line(MARGIN, MARGIN + 3, self.w - MARGIN, MARGIN + 3)

            def footer(self) -> None:
                document.put(f"page {self.page_no()} of {document.pages}", False, 8, MARGIN, self.h - MARGIN,
                             self.w - 2 * MARGIN, "C", 4)

        pdf = _PDF(unit="mm", format=PAPERS[paper])
        pdf.set_auto_page_break(False)
        pdf.set_margins(MARGIN, MARGIN)
        pdf.add_font(FONT, "", str(FONT_DIR / f"{FONT}.ttf"))
        pdf.add_font(FONT, "B", str(FONT_DIR / f"{FONT}-Bold.ttf"))
        pdf.set_title(sheet.title)
        pdf.set_creator("lexitrain")
        self.pdf: FPDF = pdf
        self.faces = {bold: pdf.fonts[f"{FONT.lower()}{'B' if bold else ''}"] for bold in (False, True)}
        self.font_size = font_size
        self.pages = 0  # known from the layout before the first page is drawn

    @property
    def line_height(self) -> float:
        return self.font_size * PT * 1.3

    def width(self, text: str, bold: bool, size: float) -> float:
        """Width in mm of TEXT at SIZE points, summed from the font's glyph widths."""
        return self.faces[bold].get_text_width(text, size, None)[1] / self.pdf.k

    def fit_size(self, text: str, bold: bool, width: float, size: float) -> float:
        """The font size at which TEXT fits WIDTH: SIZE, or smaller if it must."""
        natural = self.width(text, bold, size)
        if natural <= width:
            return size
        return max(MIN_FONT_SIZE, size * width / natural)

    def fit_line(self, text: str, bold: bool, width: float, size: float, smallest: float = 7.0) -> tuple[str, float]:
        """TEXT and the size to set it in WIDTH: smaller if it must (down to SMALLEST,
        still readable), and if that is too wide, cut short with "…" rather than
        run into its neighbours."""
        size = max(min(smallest, size), self.fit_size(text, bold, width, size))
        if self.width(text, bold, size) <= width:
            return text, size
        while len(text) > 1 and self.width(text + "…", bold, size) > width:
            text = text[:-1]
        return text.rstrip() + "…", size

    def put(self, text: str, bold: bool, size: float, x: float, y: float, width: float, align: str,
            height: float) -> None:
        """Draw one line of TEXT aligned in the box (x, y, width, height), centred vertically.

        `FPDF.text` with our own alignment: several times faster than `cell`,
        which runs a text layout engine for every call.
        """
        pdf = self.pdf
        pdf.set_font(FONT, "B" if bold else "", size)
        free = width - PAD * 2 - self.width(text, bold, size)
        left = x + PAD + (free if align == "R" else free / 2 if align == "C" else 0.0)
        pdf.text(left, y + height / 2 + 0.3 * size * PT, text)

    def wrap(self, text: str, bold: bool, width: float) -> list[str]:
        """Greedy word wrap at spaces; a single over-long word is shrunk when drawn."""
        if not text or self.width(text, bold, self.font_size) <= width:
            return [text]
        lines: list[str] = []
        current = ""
        for word in text.split(" "):
            trial = f"{current} {word}" if current else word
            if current and self.width(trial, bold, self.font_size) > width:
                lines.append(current)
                current = word
            else:
                current = trial
        lines.append(current)
        return lines


def _field_widths(
    doc: _Document, columns: Sequence[Column], rows: Sequence[tuple[str, ...]], available: float,
    asks: bool = False,
) -> list[float]:
    """Widths (mm) of a section's fields inside one printed column.

    Each field gets room for its widest text (a field that wraps asks for no
    more than its share); the room left over is shared out by the columns'
    `width` shares. On a question sheet (`asks`) the blank answer fields ask
    for their whole share, room to write the hooks in beside a long
    definition. When the texts do not fit, the answer fields (hooks) give
    way first, then every field, and their text is set smaller.
    """
    if not columns:
        return []
    share_total = sum(c.width for c in columns) or 1.0
    shares = [available * c.width / share_total for c in columns]
    need = [share if asks and column.answer else 2 * PAD for share, column in zip(shares, columns)]
    for cells in rows:
        for i, (text, column) in enumerate(zip(cells, columns)):
            wide = doc.width(text, column.bold, doc.font_size) + 2 * PAD
            need[i] = max(need[i], min(wide, shares[i]) if " " in text else wide)
    total = sum(need)
    if total < available:
        return [n + (available - total) * c.width / share_total for n, c in zip(need, columns)]
    fixed = sum(n for n, c in zip(need, columns) if not c.answer)
    if fixed < available * 0.6:  # the words keep their size; the answer fields give way
        room = (available - fixed) / (total - fixed)
        return [n * room if c.answer else n for n, c in zip(need, columns)]
    return [available * n / total for n in need]


def _blocks(doc: _Document, sheet: Sheet, column_width: float) -> list[Block]:
    """Every group as a block of measured lines, section titles kept with their first group."""
    lh = doc.line_height
    blocks: list[Block] = []
    for section in sheet.sections:
        heads = [g.head for g in section.groups if g.head is not None]
        head_widths = _field_widths(doc, section.head_columns, heads, column_width)
        rows = [row for g in section.groups for row in g.rows]
        row_widths = _field_widths(doc, section.row_columns, rows, column_width, section.asks)
        title = Line("title", (section.title,), height=lh * 1.5)
        first = True
        for group in section.groups:
            lines: list[Line] = [title] if first and section.title else []
            if group.head is not None:
                lines.append(_measured(doc, "head", group.head, section.head_columns, head_widths))
            for row in group.rows:
                kind = "ask" if section.asks else "row"
                lines.append(_measured(doc, kind, row, section.row_columns, row_widths))
            lines.extend(Line("write", height=lh * 1.25) for _ in range(group.write_lines))
            if group.head is not None:
                lines[-1].height += lh * 0.35  # a little air after each headed group
            blocks.append(Block(lines, new_page=first and section.new_page))
            first = False
    return blocks


def _measured(
    doc: _Document, kind: str, cells: tuple[str, ...], columns: tuple[Column, ...], widths: list[float]
) -> Line:
    wrapped = [doc.wrap(text, col.bold, w - 2 * PAD) for text, col, w in zip(cells, columns, widths)]
    height = doc.line_height * max((len(w) for w in wrapped), default=1)
    return Line(kind, cells, columns, widths, wrapped, height)


def _split_tall(blocks: list[Block], column_height: float) -> list[Block]:
    """A group taller than a whole column cannot stay whole: cut it at line boundaries.

    Each piece after the first starts with the group's head line again, marked
    "(cont.)", so a column that opens mid-group still says whose words these are.
    """
    out: list[Block] = []
    for block in blocks:
        if block.height <= column_height:
            out.append(block)
            continue
        head = next((line for line in block.lines if line.kind == "head"), None)
        carried: list[Line] = [] if head is None else [_continued(head)]
        piece: list[Line] = []
        floor = 0  # lines at the top of this piece that are not the group's own (the carried head)
        fresh = block.new_page
        for line in block.lines:
            if len(piece) > floor and sum(x.height for x in piece) + line.height > column_height:
                out.append(Block(piece, fresh))
                piece, floor, fresh = list(carried), len(carried), False
            piece.append(line)
        out.append(Block(piece, fresh))
    return out


def _continued(head: Line) -> Line:
    """HEAD marked as the continuation of its group, on its widest field (the alphagram, the stem)."""
    widest = max(range(len(head.columns)), key=lambda i: head.columns[i].width)
    wrapped = [[f"{' '.join(text)} (cont.)"] if i == widest else text for i, text in enumerate(head.wrapped)]
    return replace(head, wrapped=wrapped)


def render_pdf(sheet: Sheet, path: Path, *, columns: int | None = None, paper: str = "a4", font_size: float = 9.0) -> int:
    """Write SHEET to PATH as a PDF; returns the number of pages."""
    columns = columns or sheet.columns
    if not MIN_FONT_SIZE <= font_size <= 24:
        raise LexitrainError(f"--font-size must be between {MIN_FONT_SIZE:g} and 24, not {font_size:g}")
    doc = _Document(sheet, paper, font_size)
    pdf = doc.pdf
    page_w, page_h = PAPERS[paper]
    body_top = MARGIN + HEADER_HEIGHT - 4
    column_height = page_h - MARGIN - FOOTER_HEIGHT - body_top
    column_width = (page_w - 2 * MARGIN - GUTTER * (columns - 1)) / columns

    while True:
        blocks = _split_tall(_blocks(doc, sheet, column_width), column_height)
        spots = place([b.height for b in blocks], [b.new_page for b in blocks], column_height, columns)
        if not sheet.one_page or spots[-1][0] == 0 or doc.font_size <= MIN_FONT_SIZE:
            break
        doc.font_size = max(MIN_FONT_SIZE, doc.font_size - 0.5)  # shrink until it fits one page
    doc.pages = spots[-1][0] + 1
    page = -1
    for block, (block_page, column, top) in zip(blocks, spots):
        while page < block_page:
            pdf.add_page()
            page += 1
            _column_rules(pdf, columns, column_width, body_top, column_height)
        x = MARGIN + column * (column_width + GUTTER)
        y = body_top + top
        for line in block.lines:
            _draw(doc, line, x, y, column_width)
            y += line.height
    pdf.output(str(path))
    return pdf.page_no()


def _column_rules(pdf: FPDF, columns: int, column_width: float, top: float, height: float) -> None:
    pdf.set_draw_color(GREY)
    pdf.set_line_width(0.1)
    for i in range(1, columns):
        x = MARGIN + i * (column_width + GUTTER) - GUTTER / 2
        pdf.line(x, top, x, top + height)


def _draw(doc: _Document, line: Line, x: float, y: float, width: float) -> None:
    pdf, lh, size = doc.pdf, doc.line_height, doc.font_size
    if line.kind == "title":
        title = line.cells[0]
        title, fitted = doc.fit_line(title, True, width - 2 * PAD, size * 1.1, MIN_FONT_SIZE)  # narrow columns
        doc.put(title, True, fitted, x, y, width, "L", lh * 1.3)
        pdf.set_draw_color(GREY)
        pdf.set_line_width(0.2)
        pdf.line(x, y + lh * 1.3, x + width, y + lh * 1.3)
        return
    if line.kind == "write":
        pdf.set_draw_color(GREY)
        pdf.set_line_width(0.15)
        pdf.line(x + width * 0.15, y + lh * 1.1, x + width * 0.95, y + lh * 1.1)
        return
    cx = x
    for text_lines, column, w in zip(line.wrapped, line.columns, line.widths):
        for n, text in enumerate(text_lines):
            if text:
                fitted = doc.fit_size(text, column.bold, w - 2 * PAD, size)
                doc.put(text, column.bold, fitted, cx, y + n * lh, w, column.align, lh)
            elif column.answer and line.kind == "ask":
                pdf.set_draw_color(GREY)
                pdf.set_line_width(0.15)
                pdf.line(cx + 1, y + lh * 0.9, cx + w - 1, y + lh * 0.9)
        cx += w
