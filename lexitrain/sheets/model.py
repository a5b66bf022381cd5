"""A study sheet as data, before it is laid out as PDF, HTML, CSV or Markdown.

A sheet is a list of sections; a section is a list of groups; a group is the
unit that is printed together and never split across a column (an alphagram
with its answers, a stem with its sevens, one word with its hooks). Each
renderer reads the same model, so every output format shows the same words.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

Align = Literal["L", "R", "C"]


@dataclass(frozen=True)
class Column:
    """One field of a row: its table header, its share of a printed column's width."""

    key: str
    width: float = 1.0
    align: Align = "L"
    bold: bool = False
    answer: bool = False  # blanked out on a question-only sheet
    prose: bool = False  # running text (a definition): wraps, and takes its share of the width like the answers


@dataclass
class Group:
    """Rows printed together: an optional head line, then body rows.

    `write_lines` empty ruled lines follow the rows on a question sheet, one per
    answer to write in.
    """

    head: tuple[str, ...] | None = None
    rows: list[tuple[str, ...]] = field(default_factory=list)
    write_lines: int = 0
    asked_rows: bool = False  # the rows are part of the question (a position's board): a question sheet keeps them


@dataclass
class Section:
    """A run of groups under one title; `new_page` starts it on a fresh page."""

    title: str
    head_columns: tuple[Column, ...]
    row_columns: tuple[Column, ...]
    groups: list[Group]
    new_page: bool = False
    asks: bool = False  # a question sheet: blank answer fields are drawn as write-in rules


@dataclass
class Sheet:
    title: str
    lexicon: str
    date: str
    sections: list[Section]
    columns: int = 3  # printed columns per page unless the user asks otherwise
    one_page: bool = False  # the PDF shrinks its type to keep everything on one page
    skipped: list[str] = field(default_factory=list)  # source entries that print nothing, left out (for a warning)

    @property
    def is_empty(self) -> bool:
        return not any(section.groups for section in self.sections)

    @property
    def entries(self) -> int:
        """How many entries the sheet prints: with an answer key, its questions
        (the key repeats them, so counting every group would say twice as many)."""
        asked = [section for section in self.sections if section.asks]
        return sum(len(section.groups) for section in asked or self.sections)


def questions_only(section: Section, title: str) -> Section:
    """The same section with its answers left out, for the player to write in.

    Groups with a head keep the head (its answer fields blank) and get one ruled line per
    answer row, or, where the rows are part of the question (a board), keep them and get
    one ruled line; groups without a head keep their rows with the answer fields blank.
    """
    keep = [not c.answer for c in section.row_columns]
    head_keep = [not c.answer for c in section.head_columns]
    groups = []
    for group in section.groups:
        if group.head is not None:
            head = tuple(v if k else "" for v, k in zip(group.head, head_keep))
            if group.asked_rows:
                groups.append(Group(head=head, rows=group.rows, write_lines=1, asked_rows=True))
            else:
                groups.append(Group(head=head, write_lines=len(group.rows)))
        else:
            rows = [tuple(v if k else "" for v, k in zip(row, keep)) for row in group.rows]
            groups.append(Group(rows=rows))
    return replace(section, title=title, groups=groups, asks=True)
