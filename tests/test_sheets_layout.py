"""Column placement: order kept, no group split across a column, pages as asked."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from lexitrain.sheets.model import Column, Group, Section, questions_only
from lexitrain.sheets.pdf import place

COLUMN_HEIGHT = 100.0

blocks = st.lists(
    st.tuples(st.floats(min_value=1.0, max_value=COLUMN_HEIGHT), st.booleans()), min_size=1, max_size=60
)


@given(blocks, st.integers(min_value=1, max_value=5))
def test_place_keeps_order_fits_columns_and_breaks_pages(items, columns) -> None:
    heights = [h for h, _ in items]
    fresh = [f for _, f in items]
    spots = place(heights, fresh, COLUMN_HEIGHT, columns)
    assert len(spots) == len(items)
    assert spots[0] == (0, 0, 0.0)
    for (page, column, top), height in zip(spots, heights):
        assert 0 <= column < columns
        assert top + height <= COLUMN_HEIGHT + 1e-9  # never runs past the column's foot
    flat = [(page, column) for page, column, _ in spots]
    assert flat == sorted(flat)  # filled page by page, column by column, in order
    for i in range(1, len(items)):
        if fresh[i]:
            assert spots[i][:2] == (spots[i - 1][0] + 1, 0) and spots[i][2] == 0
        elif spots[i][:2] == spots[i - 1][:2]:  # same column: directly below the one before
            assert spots[i][2] == spots[i - 1][2] + heights[i - 1]
        else:  # moved on only because it did not fit below
            assert spots[i - 1][2] + heights[i - 1] + heights[i] > COLUMN_HEIGHT


def test_a_full_page_moves_on_to_the_next() -> None:
    spots = place([60.0] * 5, [False] * 5, COLUMN_HEIGHT, 2)
    assert [(p, c) for p, c, _ in spots] == [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]


def test_questions_only_keeps_heads_and_blanks_answers() -> None:
    head = (Column("alphagram"),)
    rows = (Column("front", answer=True), Column("word"), Column("back", answer=True))
    headed = Section("S", head, rows, [Group(head=("AEST",), rows=[("", "EAST", ""), ("", "EATS", "")])])
    asked = questions_only(headed, "Questions")
    assert asked.asks and asked.title == "Questions"
    assert asked.groups == [Group(head=("AEST",), write_lines=2)]
    bare = Section("", (), rows, [Group(rows=[("S", "CARE", "DS")])])
    assert questions_only(bare, "Q").groups == [Group(rows=[("", "CARE", "")])]


def test_a_markdown_cell_keeps_a_prompt_of_several_lines_in_its_row():
    from lexitrain.sheets.model import Sheet
    from lexitrain.sheets.tables import to_markdown

    board = "8D QUITE on the board\nrack ABEMSTY | your play?"  # a position card's prompt, as `sheet due` prints it
    section = Section("due", (Column("prompt"),), (Column("answer"),), [Group(head=(board,), rows=[("MESQUITE",)])])
    table = [line for line in to_markdown(Sheet("Due", "enable", "2026-12-04", [section])).splitlines()
             if line.startswith("|")]
    assert table == ["| prompt | answer |", "| --- | --- |", "| 8D QUITE on the board<br>rack ABEMSTY \\| your play? | MESQUITE |"]


def test_printed_html_pages_after_the_first_carry_the_title_and_stamp():
    """Page margin boxes repeat the header; a title with quotes or a closing tag stays a CSS string."""
    from lexitrain.sheets.html import to_html
    from lexitrain.sheets.model import Sheet

    section = Section("", (), (Column("word"),), [Group(rows=[("AA",)])])
    page = to_html(Sheet('Sevens "</style><b>', "enable", "2026-12-04", [section]))
    style = page[page.index("<style>") + len("<style>"):page.index("</style>")]
    assert "<" not in style and '"Sevens \\22 \\3c \\2f style\\3e \\3c b\\3e "' in style
    assert "@top-left { content: \"Sevens" in style and '"enable \\b7  2026\\2d 12\\2d 04"' in style
    assert "@page :first { @top-left { content: none; }" in style  # page 1 has the page's own header
    assert page.count("</style>") == 1 and "<h1>Sevens &quot;&lt;/style&gt;&lt;b&gt;</h1>" in page
