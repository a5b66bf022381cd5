"""A sheet as plain tables, CSV or Markdown, for players who make their own sheets.

One table row per body row, with its group's head fields repeated in front,
so a spreadsheet can sort and filter it; a group with no body rows (a
question) is one row with its head fields only.
"""

from __future__ import annotations

import csv
import io

from lexitrain.sheets.model import Section, Sheet


def _header(sheet: Sheet) -> list[str]:
    """Every field name in sheet order, with `section` first when there are several."""
    keys: list[str] = ["section"] if len(sheet.sections) > 1 else []
    for section in sheet.sections:
        for column in (*section.head_columns, *section.row_columns):
            if column.key not in keys:
                keys.append(column.key)
    return keys


def _records(section: Section) -> list[dict[str, str]]:
    head_keys = [c.key for c in section.head_columns]
    row_keys = [c.key for c in section.row_columns]
    records = []
    for group in section.groups:
        head = dict(zip(head_keys, group.head or ()))
        for row in group.rows or [()]:
            records.append({"section": section.title, **head, **dict(zip(row_keys, row))})
    return records


def to_csv(sheet: Sheet) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, _header(sheet), extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for section in sheet.sections:
        writer.writerows(_records(section))
    return out.getvalue()


def _md_cell(text: str) -> str:
    """A cell's text kept in its cell: a line break (a position's prompt has them) becomes `<br>`."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\r\n", "\n").replace("\n", "<br>")


def to_markdown(sheet: Sheet) -> str:
    """A heading, then one table per section; a group's head shows on its first row only."""
    lines = [f"# {_md_cell(sheet.title)}", "", f"{_md_cell(sheet.lexicon)} · {sheet.date}", ""]
    for section in sheet.sections:
        keys = [c.key for c in (*section.head_columns, *section.row_columns)]
        if section.title:
            lines += [f"## {_md_cell(section.title)}", ""]
        lines.append("| " + " | ".join(keys) + " |")
        lines.append("|" + "|".join(" --- " for _ in keys) + "|")
        for group in section.groups:
            head = list(group.head or ())
            for row in group.rows or [("",) * len(section.row_columns)]:
                lines.append("| " + " | ".join(_md_cell(v) for v in (*head, *row)) + " |")
                head = [""] * len(head)
        lines.append("")
    return "\n".join(lines)
