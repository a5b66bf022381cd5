"""A sheet as one self-contained HTML page, styled for screen and for print.

The print stylesheet sets the page size and margins, flows groups into
columns (CSS multi-column) and keeps each group out of column and page
breaks, the way the PDF does; browsers that support page margin boxes also
print "page X of Y" at the foot of each page, and the title, lexicon and date
at the top of every page after the first.
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
header h1 { font-size: 14pt; margin: 0; overflow-wrap: anywhere; }
header span { white-space: nowrap; margin-left: 1em; }
h2 { font-size: 11pt; border-bottom: 1px solid #999; margin: 0.6em 0 0.3em; column-span: all; }
.groups { column-count: var(--columns); column-gap: 5mm; column-rule: 0.5px solid #999; }
.group { break-inside: avoid; page-break-inside: avoid; margin-bottom: 0.35em; }
table.group { width: 100%; border-collapse: collapse; }
.group td { padding: 0 0.15em; white-space: nowrap; vertical-align: top; }
.group td.wrap { white-space: normal; }
.group td.fit { width: 1%; }
.head td { padding: 0; }
.headline { display: flex; gap: 0.3em; }
.headline span.grow { flex: 1; }
.bold { font-weight: bold; }
.blank { border-bottom: 0.5px solid #999; }
.write div { border-bottom: 0.5px solid #999; height: 1.25em; margin: 0 5% 0 15%; }
.new-page { break-before: page; page-break-before: always; }
@media print {
  @page { size: A4; margin: 12mm 12mm 14mm;
          @bottom-center { content: "page " counter(page) " of " counter(pages); font-size: 8pt; } }
  body { margin: 0; font-size: 9pt; }
}
"""


def _stretch(columns: tuple[Column, ...]) -> list[bool]:
    """Which fields take the spare width: the answers and any prose, or else the widest field; the rest fit their text."""
    stretch = [c.answer or c.prose for c in columns]
    if not any(stretch) and columns:
        stretch[max(range(len(columns)), key=lambda i: columns[i].width)] = True
    return stretch


def _classes(text: str, column: Column, blank: bool) -> str:
    on = (("bold", column.bold), ("wrap", " " in text), ("blank", blank))
    return " ".join(name for name, yes in on if yes)


def _head(cells: tuple[str, ...], columns: tuple[Column, ...], span: int) -> str:
    spans = "".join(
        f'<span class="{_classes(text, column, False)}{" grow" if grow else ""}" '
        f'style="text-align:{_ALIGN[column.align]}">{escape(text)}</span>'
        for text, column, grow in zip(cells, columns, _stretch(columns))
    )
    return f'<tr class="head"><td colspan="{span}"><div class="headline">{spans}</div></td></tr>'


def _row(cells: tuple[str, ...], columns: tuple[Column, ...], asks: bool) -> str:
    share_total = sum(c.width for c in columns) or 1.0
    tds = []
    for text, column, grow in zip(cells, columns, _stretch(columns)):
        classes = _classes(text, column, asks and column.answer and not text) + ("" if grow else " fit")
        width = f";width:{100 * column.width / share_total:.0f}%" if grow else ""
        tds.append(f'<td class="{classes.strip()}" style="text-align:{_ALIGN[column.align]}{width}">{escape(text)}</td>')
    return f"<tr>{''.join(tds)}</tr>"


def _group(group: Group, section: Section) -> str:
    """One table per group, so its rows line up and it can be kept out of column breaks."""
    span = max(len(section.row_columns), 1)
    parts = [_head(group.head, section.head_columns, span)] if group.head is not None else []
    parts += [_row(row, section.row_columns, section.asks) for row in group.rows]
    parts += [f'<tr class="write"><td colspan="{span}"><div></div></td></tr>'] * group.write_lines
    return f'<table class="group">{"".join(parts)}</table>'


def _css_string(text: str) -> str:
    """TEXT as a quoted CSS string; anything but letters, digits and spaces is
    written as a hex escape, so no title can end the string or the style element."""
    return '"' + "".join(c if c.isalnum() or c == " " else f"\\{ord(c):x} " for c in text) + '"'


def _running_header(sheet: Sheet) -> str:
    """The title, lexicon and date at the top of every printed page after the first
    (which has the page's own header), in browsers that print page margin boxes."""
    title, stamp = _css_string(sheet.title), _css_string(f"{sheet.lexicon} · {sheet.date}")
    return (
        "@media print {\n"
        f"  @page {{ @top-left {{ content: {title}; font-size: 8pt; font-weight: bold; }}\n"
        f"          @top-right {{ content: {stamp}; font-size: 8pt; }} }}\n"
        "  @page :first { @top-left { content: none; } @top-right { content: none; } }\n"
        "}\n"
    )


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
        f"<title>{escape(sheet.title)}</title>\n<style>{STYLE}{_running_header(sheet)}</style>\n</head>\n"
        f'<body style="--columns:{columns}">\n'
        f"<header><h1>{escape(sheet.title)}</h1><span>{escape(sheet.lexicon)} · {escape(sheet.date)}</span></header>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )
