"""A sheet as one self-contained HTML page, styled for screen and for print.

The print stylesheet sets the page size and margins, flows groups into
columns (CSS multi-column) and keeps each group out of column and page
breaks, the way the PDF does; browsers that support page margin boxes also
print "page X of Y" at the foot of each page.
"""

from __future__ import annotations

from html import escape

from lexitrain.sheets.model import Column, Group, Section, Sheet

_ALIGN = {"L": "left", "R": "right", "C": "center"}

STYLE = """
body { font-family: "DejaVu Sans Condensed", "DejaVu Sans", Arial, sans-serif;
       font-size: 10pt; color: #000; background: #fff; margin: 1.5em; }
header { display: flex; justify-content: space-between; align-items: baseline;
         border-bottom: 1px solid #000; margin-bottom: 0.6em; }
header h1 { font-size: 14pt; margin: 0; }
h2 { font-size: 11pt; border-bottom: 1px solid #999; margin: 0.6em 0 0.3em; column-span: all; }
.groups { column-count: var(--columns); column-gap: 5mm; column-rule: 0.5px solid #999; }
.group { break-inside: avoid; page-break-inside: avoid; margin-bottom: 0.35em; }
.line { display: grid; gap: 0 0.3em; }
.line span { white-space: nowrap; overflow-wrap: anywhere; }
.line span.wrap { white-space: normal; }
.bold { font-weight: bold; }
.blank { border-bottom: 0.5px solid #999; }
.write { border-bottom: 0.5px solid #999; height: 1.25em; margin: 0 5% 0 15%; }
.new-page { break-before: page; page-break-before: always; }
@media print {
  @page { size: A4; margin: 12mm 12mm 14mm;
          @bottom-center { content: "page " counter(page) " of " counter(pages); font-size: 8pt; } }
  body { margin: 0; font-size: 9pt; }
}
"""


def _line(cells: tuple[str, ...], columns: tuple[Column, ...], kind: str, asks: bool) -> str:
    template = " ".join(f"{c.width:g}fr" for c in columns)
    spans = []
    for text, column in zip(cells, columns):
        classes = [c for c, on in (("bold", column.bold), ("wrap", " " in text),
                                   ("blank", asks and column.answer and not text)) if on]
        style = f"text-align:{_ALIGN[column.align]}"
        spans.append(f'<span class="{" ".join(classes)}" style="{style}">{escape(text)}</span>')
    return f'<div class="line {kind}" style="grid-template-columns:{template}">{"".join(spans)}</div>'


def _group(group: Group, section: Section) -> str:
    parts = []
    if group.head is not None:
        parts.append(_line(group.head, section.head_columns, "head", False))
    parts += [_line(row, section.row_columns, "row", section.asks) for row in group.rows]
    parts += ['<div class="write"></div>'] * group.write_lines
    return f'<div class="group">{"".join(parts)}</div>'


def to_html(sheet: Sheet, columns: int | None = None) -> str:
    columns = columns or sheet.columns
    body = []
    for section in sheet.sections:
        classes = "section new-page" if section.new_page else "section"
        title = f"<h2>{escape(section.title)}</h2>" if section.title else ""
        groups = "\n".join(_group(g, section) for g in section.groups)
        body.append(f'<section class="{classes}">{title}<div class="groups">\n{groups}\n</div></section>')
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>{escape(sheet.title)}</title>\n<style>{STYLE}</style>\n</head>\n"
        f'<body style="--columns:{columns}">\n'
        f"<header><h1>{escape(sheet.title)}</h1><span>{escape(sheet.lexicon)} · {escape(sheet.date)}</span></header>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )
