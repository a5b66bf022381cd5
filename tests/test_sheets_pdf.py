"""PDF sheets read back with pypdf: every alphagram and answer, in order, with hooks."""

from __future__ import annotations

from pathlib import Path

import pytest

from lexitrain.sheets import kinds
from lexitrain.sheets.pdf import GUTTER, MARGIN, PAPERS
from lexitrain.sheets.write import write_sheet
from tests.sheets_support import SMALL_ENGLISH, hook_line, lines_of, page_texts, pieces, source_rows

MM = 72 / 25.4  # points per mm


def column_of(x_points: float, columns: int, paper: str = "a4") -> int:
    """Which printed column a piece of text starting at x (points) sits in."""
    width = (PAPERS[paper][0] - 2 * MARGIN - GUTTER * (columns - 1)) / columns
    return int((x_points / MM - MARGIN) // (width + GUTTER))


def test_anagram_sheet_has_every_alphagram_and_answer_in_order_with_hooks(make_lexicon, tmp_path: Path) -> None:
    lex = make_lexicon(SMALL_ENGLISH)
    rows = source_rows(lex, "w.length >= 4", order="a.alphagram_rank2, w.word")
    out = tmp_path / "anagrams.pdf"
    write_sheet(kinds.anagrams(lex, rows, "Small anagrams"), out)

    lines = lines_of(out)
    expected: list[str] = []
    for row in rows:
        alphagram = row["alphagram"]
        answers = [r for r in rows if r["alphagram"] == alphagram]
        head = f"{row['alphagram_rank']} {alphagram} {len(answers)}"
        if head not in expected:
            expected.append(head)
            expected += [hook_line(answer) for answer in answers]  # in word order within an alphagram
    body = [line for line in lines if line in expected]
    assert body == expected
    # hooks as a player reads them (this list has SCARED but no SCARES; SCARE- and -CARED are words)
    assert "•SCARE D" in lines and "S CARE DS" in lines and "•SCARED•" in lines and "T RACES•" in lines


def test_question_sheet_hides_answers_and_key_follows_on_a_new_page(make_lexicon, tmp_path: Path) -> None:
    lex = make_lexicon(SMALL_ENGLISH)
    rows = source_rows(lex, "w.length = 6", order="a.alphagram_rank2, w.word")
    out = tmp_path / "quiz.pdf"
    write_sheet(kinds.anagrams(lex, rows, "Sixes", questions=True, key=True), out)
    pages = page_texts(out)
    assert len(pages) == 2
    words = {r["word"] for r in rows}
    assert not any(w in pages[0] for w in words)  # questions only
    assert "ACDERS 3" in pages[0] and "Sixes: questions" not in pages[0]
    assert "Questions" in pages[0] and "Answer key" in pages[1]
    assert all(w in pages[1] for w in words)


def test_columns_as_asked_and_groups_never_split(enable, tmp_path: Path) -> None:
    rows = source_rows(enable, "w.length = 7 AND a.alphagram_rank2 <= 150", order="a.alphagram_rank2, w.word")
    for columns in (1, 2, 4):
        out = tmp_path / f"c{columns}.pdf"
        pages = write_sheet(kinds.anagrams(enable, rows, "Sevens"), out, columns=columns)
        found = pieces(out)
        body = [p for p in found if p.y < 780 and p.y > 40]  # between header and footer
        used = {column_of(p.x, columns) for p in body}
        assert used == set(range(columns))
        # every answer sits on the same page and column as its alphagram's head line
        where: dict[str, tuple[int, int]] = {}
        for piece in body:
            spot = (piece.page, column_of(piece.x, columns))
            if piece.text in {r["alphagram"] for r in rows}:
                where[piece.text] = spot
        for row in rows:
            word_spots = {(p.page, column_of(p.x, columns)) for p in body if p.text.strip("•") == row["word"]}
            assert word_spots == {where[row["alphagram"]]}, row["word"]
        assert pages == len(page_texts(out))
    # fewer columns, more pages
    assert len(page_texts(tmp_path / "c1.pdf")) > len(page_texts(tmp_path / "c4.pdf"))


def test_footer_counts_pages_and_header_names_lexicon_and_date(enable, tmp_path: Path) -> None:
    rows = source_rows(enable, "w.length = 7 AND a.alphagram_rank2 <= 300", order="a.alphagram_rank2, w.word")
    out = tmp_path / "sevens.pdf"
    sheet = kinds.anagrams(enable, rows, "Top sevens")
    pages = write_sheet(sheet, out)
    texts = page_texts(out)
    assert pages == len(texts) > 1
    for number, text in enumerate(texts, start=1):
        assert f"page {number} of {pages}" in text
        assert text.startswith("Top sevens") and f"enable · {sheet.date}" in text


def test_spanish_sheet_prints_multi_letter_tiles(make_lexicon, tmp_path: Path) -> None:
    lex = make_lexicon(
        ["AMA", "LLAMA", "CHORRO", "CORRO", "PERRO", "CHILE", "CALLE", "LLAMAS", "ÑU", "ÑUS"],
        name="es", tiles="spanish",
    )
    rows = source_rows(lex)
    out = tmp_path / "es.pdf"
    write_sheet(kinds.anagrams(lex, rows, "Palabras"), out)
    text = "\n".join(page_texts(out))
    lines = lines_of(out)
    for word in ("CHORRO", "LLAMA", "CALLE", "PERRO", "ÑU"):
        assert word in text
    assert "6 [CH]OO[RR] 1" in lines and "1 ACE[LL] 1" in lines  # alphagrams keep their tiles whole, in tile order
    assert "[LL] AMA" in lines  # LL is a front hook of AMA: one tile, not L and L
    assert "•LLAMA S" in lines
    hooks_out = tmp_path / "es-hooks.pdf"
    write_sheet(kinds.hooks(lex, rows, "Ganchos"), hooks_out)
    assert "[CH] ORRO" not in lines_of(hooks_out)  # ORRO is no word here
    assert "ÑU S" in lines_of(hooks_out)


def test_every_tile_set_letter_is_printable(tmp_path: Path) -> None:
    """The shipped font carries the glyph of every tile of every tile set."""
    from fontTools.ttLib import TTFont

    from lexitrain.sheets.pdf import FONT, FONT_DIR
    from lexitrain.tiles import available_tile_sets, load_tile_set

    for style in ("", "-Bold"):
        cmap = TTFont(FONT_DIR / f"{FONT}{style}.ttf").getBestCmap()
        for name in available_tile_sets():
            for tile in load_tile_set(name).letters:
                for ch in tile + tile.lower():
                    assert ord(ch) in cmap, (name, tile)
    assert (FONT_DIR / "LICENSE-DejaVu.txt").is_file()


@pytest.mark.parametrize("kind", ["hooks", "stems"])
def test_hooks_and_stems_sheets_read_back(kind: str, make_lexicon, tmp_path: Path) -> None:
    lex = make_lexicon(SMALL_ENGLISH)
    out = tmp_path / f"{kind}.pdf"
    if kind == "hooks":
        rows = source_rows(lex, "w.length = 4")
        write_sheet(kinds.hooks(lex, rows, "Fours"), out)
        lines = lines_of(out)
        assert lines[1:-1] == ["ACRE S", "S CARE DS", "EAST", "EATS•", "T RACE DS", "•SATE", "•SEAT", "TEAS•"]
    else:
        write_sheet(kinds.stems(lex, ["CARE", "ERAC"], "Stems"), out)  # one stem, given twice
        assert lines_of(out)[1:-1] == [
            "ACER 13", "D ARCED CARED RACED", "S ACRES CARES RACES SCARE",
            "T CARTE CATER CRATE REACT RECTA TRACE",
        ]


def test_a_group_taller_than_a_column_is_cut_and_nothing_is_lost(tmp_path: Path) -> None:
    from lexitrain.sheets.model import Column, Group, Section, Sheet

    rows = [(f"W{i:03d}",) for i in range(150)]
    sheet = Sheet("Tall", "test", "2026-01-01", [Section("", (Column("head"),), (Column("word"),),
                                                             [Group(head=("HEAD",), rows=rows)])], columns=2)
    out = tmp_path / "tall.pdf"
    pages = write_sheet(sheet, out, paper="letter")
    lines = lines_of(out)
    assert [line for line in lines if line.startswith("W")] == [r[0] for r in rows]
    found = pieces(out)
    height_pt = PAPERS["letter"][1] * MM
    body = [p for p in found if p.text.startswith("W")]
    assert {column_of(p.x, 2, "letter") for p in body} == {0, 1}
    assert min(p.y for p in body) > (MARGIN + 4) * MM  # nothing drawn over the footer
    assert max(p.y for p in body) < height_pt - (MARGIN + 8) * MM  # nor under the header
    assert pages == len(page_texts(out)) == 2
    # every column the group runs on to opens with its head again, marked, above its words
    heads = {(p.page, column_of(p.x, 2, "letter")): p for p in found if p.text.startswith("HEAD")}
    columns = {(p.page, column_of(p.x, 2, "letter")) for p in body}
    assert set(heads) == columns and len(columns) == 3
    assert [heads[c].text for c in sorted(heads)] == ["HEAD", "HEAD (cont.)", "HEAD (cont.)"]
    assert all(heads[(p.page, column_of(p.x, 2, "letter"))].y > p.y for p in body)


def test_a_title_too_long_for_the_header_is_cut_short_not_run_into_the_stamp(enable, tmp_path: Path) -> None:
    title = "Every seven a club player should know by the next tournament " * 6
    out = tmp_path / "long.pdf"
    write_sheet(kinds.twos(enable, title), out)
    header = [p for p in pieces(out) if p.y > (PAPERS["a4"][1] - MARGIN - 4) * MM]
    shown = next(p.text for p in header if p.text.startswith("Every seven"))
    assert shown.endswith("…") and title.startswith(shown[:-1].rstrip())
    assert len(shown) < len(title) / 2  # set small but readable, so only part of it fits
    assert any(f"enable · {kinds.today()}" in p.text for p in header)


def test_a_question_sheet_keeps_room_to_write_hooks_beside_a_long_definition() -> None:
    from lexitrain.sheets.kinds import DEFINITION, HOOK_COLUMNS
    from lexitrain.sheets.model import Sheet
    from lexitrain.sheets.pdf import _Document, _field_widths

    columns = (*HOOK_COLUMNS, DEFINITION)
    rows = [("", "CARE", "", "", "to attend to and look after, with a very long note on its usage [v]")]
    doc = _Document(Sheet("Hooks", "small", "2026-01-01", []), "a4", 9.0)
    asked = _field_widths(doc, columns, rows, 90.0, asks=True)
    share = 90.0 * HOOK_COLUMNS[0].width / sum(c.width for c in columns)
    assert asked[0] >= share and asked[2] >= share  # each blank hook field: at least its share, to write in
    assert sum(asked) == pytest.approx(90.0)
