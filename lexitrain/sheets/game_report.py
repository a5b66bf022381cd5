"""The printable report of `gcg analyze --report`: the players' totals, then for
each game the turns that gave up the most equity, each with the board before
it, the rack, the move made and what was better (HTML or PDF).

Each board has its column letters and row numbers, so `7H` can be found on
it; the move made is drawn in its squares outlined in black, the best play by
equity in grey letters, as a coach would pencil both onto the position. The
PDF uses the sheets' font (every tile set's letters print) and fpdf2,
imported only here; premium squares are grey tints named in small print
(TW, DW, TL, DL) so it prints in black and white.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any, Sequence

from lexitrain.engine.analysis import GameReport, TurnReport, costliest
from lexitrain.engine.board import Board, column_name, tile_text
from lexitrain.engine.cgp import parse_cgp
from lexitrain.engine.play import Play
from lexitrain.errors import LexitrainError
from lexitrain.sheets.pdf import FONT, FONT_DIR

#: grey level (0 black .. 255 white) of each premium square in the PDF
TINTS = {"": 255, "DL": 225, "TL": 195, "DW": 210, "TW": 170, "QL": 180, "QW": 150}
SQUARE = 5.2  # mm
#: grey level of the best play's letters, drawn onto the board before the turn
BEST_GREY = 130
PLAYED, BEST = "played", "best"


def write_report(out: Path, games: Sequence[GameReport], players: dict[str, dict[str, Any]]) -> None:
    """Write the report to OUT (.html or .pdf)."""
    if check_report_path(out) == ".html":
        out.write_text(_html(games, players), encoding="utf-8")
    else:
        _pdf(games, players, out)


def check_report_path(out: Path) -> str:
    """OUT's format (.html or .pdf), or a one-line error before any work is done."""
    fmt = out.suffix.lower()
    if fmt not in (".html", ".pdf"):
        raise LexitrainError(f"{out}: a report is .pdf or .html, not {out.suffix or '(no suffix)'!r}")
    if not out.parent.is_dir():
        raise LexitrainError(f"{out}: folder {out.parent} does not exist")
    return fmt


def summary_lines(player: str, s: dict[str, Any]) -> str:
    return (f"{player}: {s['turns']} turns, best move by equity {s['top_plays_found']} times; gave up "
            f"{s['points_given_up']} points and {s['equity_given_up']:.1f} equity; {s['missed_bingo_turns']} missed "
            f"bingos; {s['phonies_played']} phonies ({s['phonies_stood']} stood); {s['valid_challenged_off']} valid "
            f"plays challenged off; {s['exchanges']} exchanges, {s['passes']} passes")


def turn_lines(t: TurnReport) -> list[str]:
    """What a costly turn shows beside its board."""
    lines = [f"turn {t.turn}, {t.player}, rack {t.rack}: {_move_text(t)} for {t.score}",
             f"gave up {t.points_given_up} points and {t.equity_given_up:.1f} equity"]
    lines += ["by score: " + ", ".join(f"{p['position']} {p['word']} {p['score']}" for p in t.top_by_score[:3])]
    lines += ["by equity: " + ", ".join(
        f"{c['position']} {c['word'] or c['kind']} {c['equity']:.1f} (keeps {c['leave'] or '-'})"
        for c in t.top_by_equity[:3])]
    if t.missed_bingos:
        lines.append("missed bingos: " + ", ".join(f"{b['position']} {b['word']} {b['score']}" for b in t.missed_bingos))
    if t.phonies:
        lines.append(f"phony: {', '.join(t.phonies)} ({'stood' if t.phony_stood else 'challenged off'})")
    return lines


def _move_text(t: TurnReport) -> str:
    """The move made, in words for an exchange or a pass."""
    if t.kind == "pass":
        return "passed"
    if t.kind == "exchange":
        return f"exchanged {t.move[1:]}" if t.move[1:] else "exchanged"
    return f"played {t.move}"


def _squares(t: TurnReport) -> list[list[tuple[str, str, str]]]:
    """The board before the turn: (letter, premium, mark) per square, where the
    empty squares of the move made carry its letters marked PLAYED and those of
    the best play by equity its letters marked BEST (the move made drawn over it)."""
    board = parse_cgp(t.cgp).board
    premiums = board.layout.premiums
    marks: dict[tuple[int, int], tuple[str, str]] = {}
    best = t.top_by_equity[0] if t.top_by_equity else None
    if best is not None and best["kind"] == "play":
        marks.update(_placed(board, best["position"], best["tiles"], BEST))
    if t.kind == "play":
        where, _, written = t.move.partition(" ")
        marks.update(_placed(board, where, written, PLAYED))
    return [[_square(board.text_at(r, c), premiums[r][c], marks.get((r, c))) for c in range(board.cols)]
            for r in range(board.rows)]


def _square(tile: str, premium: str, mark: tuple[str, str] | None) -> tuple[str, str, str]:
    """A square's (letter, premium, mark): a tile on the board unmarked, else a play's letter and mark."""
    if tile:
        return tile, premium, ""
    letter, marked = mark or ("", "")
    return letter, premium, marked


def _placed(board: Board, where: str, written: str, mark: str) -> dict[tuple[int, int], tuple[str, str]]:
    """The squares a play (GCG notation) puts tiles on, with their letters and MARK."""
    try:
        play = Play.from_notation(where, written, board.tiles).resolve(board)
    except LexitrainError:  # a move the file wrote that does not fit the board: nothing to draw
        return {}
    return {(r, c): (tile_text(board.tiles, tile), mark) for r, c, tile in play.placed()}


def legend(t: TurnReport) -> str:
    """What the marks on a board mean, for this turn."""
    best = t.top_by_equity[0] if t.top_by_equity else None
    parts = [f"outlined: the move made, {t.move}"] if t.kind == "play" else [_move_text(t)]
    if best is not None and best["kind"] == "play":
        parts.append(f"grey: the best play by equity, {best['position']} {best['tiles']}")
    elif best is not None:
        parts.append(f"the best move by equity: {best['kind']} {best['tiles']}".rstrip())
    return "; ".join(parts)


def _html(games: Sequence[GameReport], players: dict[str, dict[str, Any]]) -> str:
    parts = ["<!doctype html><meta charset='utf-8'><title>Game analysis</title><style>",
             "body{font-family:sans-serif} table.board{border-collapse:collapse;margin:4px 0}",
             "table.board td{width:20px;height:20px;border:1px solid #999;text-align:center;font-weight:bold}",
             "table.board th{font-size:11px;font-weight:normal;color:#555}",
             ".DL{background:#dde}.TL{background:#bbd}.DW{background:#edd}.TW{background:#dbb}",
             f"td.{PLAYED}{{outline:2px solid #000;outline-offset:-2px}}",
             f"td.{BEST}{{color:#888;font-weight:normal}}",
             "</style><h1>Game analysis</h1><ul>"]
    parts += [f"<li>{escape(summary_lines(p, s))}</li>" for p, s in players.items()]
    parts.append("</ul>")
    for game in games:
        parts.append(f"<h2>{escape(Path(game.source).name)}</h2>")
        for t in costliest(game.turns):
            squares = _squares(t)
            head = "<tr><th></th>" + "".join(f"<th>{column_name(c)}</th>" for c in range(len(squares[0]))) + "</tr>"
            rows = "".join(f"<tr><th>{r + 1}</th>" + "".join(
                f'<td class="{" ".join(filter(None, (premium, mark)))}">{escape(letter)}</td>'
                for letter, premium, mark in row) + "</tr>" for r, row in enumerate(squares))
            parts.append(f'<table class="board">{head}{rows}</table>')
            parts += [f"<p>{escape(line)}</p>" for line in [legend(t), *turn_lines(t)]]
    return "\n".join(parts) + "\n"


def _pdf(games: Sequence[GameReport], players: dict[str, dict[str, Any]], out: Path) -> None:
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(True, 12)
    pdf.add_font(FONT, "", str(FONT_DIR / f"{FONT}.ttf"))
    pdf.add_font(FONT, "B", str(FONT_DIR / f"{FONT}-Bold.ttf"))
    pdf.add_page()
    pdf.set_font(FONT, "B", 14)
    pdf.cell(0, 8, "Game analysis", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(FONT, "", 9)
    for p, s in players.items():
        pdf.multi_cell(0, 5, summary_lines(p, s), new_x="LMARGIN", new_y="NEXT")
    for game in games:
        pdf.set_font(FONT, "B", 11)
        pdf.cell(0, 8, Path(game.source).name, new_x="LMARGIN", new_y="NEXT")
        for t in costliest(game.turns):
            squares = _squares(t)
            if pdf.get_y() + SQUARE * (len(squares) + 1) + 34 > pdf.h - 12:
                pdf.add_page()
            x0, y0 = pdf.l_margin + SQUARE, pdf.get_y() + SQUARE  # room for the coordinates
            pdf.set_font(FONT, "", 6)
            pdf.set_text_color(90)
            for c in range(len(squares[0])):
                pdf.set_xy(x0 + c * SQUARE, y0 - SQUARE)
                pdf.cell(SQUARE, SQUARE, column_name(c), align="C")
            for r in range(len(squares)):
                pdf.set_xy(x0 - SQUARE, y0 + r * SQUARE)
                pdf.cell(SQUARE, SQUARE, str(r + 1), align="C")
            for r, row in enumerate(squares):
                for c, (letter, premium, mark) in enumerate(row):
                    x, y = x0 + c * SQUARE, y0 + r * SQUARE
                    pdf.set_draw_color(0)
                    pdf.set_line_width(0.2)
                    pdf.set_fill_color(TINTS.get(premium, 255) if not letter or mark == BEST else 255)
                    pdf.rect(x, y, SQUARE, SQUARE, style="DF")
                    if mark == PLAYED:
                        pdf.set_line_width(0.6)
                        pdf.rect(x + 0.3, y + 0.3, SQUARE - 0.6, SQUARE - 0.6)
                    pdf.set_xy(x, y)
                    if letter:
                        pdf.set_font(FONT, "" if mark == BEST else "B", 8)
                        pdf.set_text_color(BEST_GREY if mark == BEST else 0)
                        pdf.cell(SQUARE, SQUARE, letter, align="C")
                    elif premium:
                        pdf.set_font(FONT, "", 4)
                        pdf.set_text_color(90)
                        pdf.cell(SQUARE, SQUARE, premium, align="C")
            pdf.set_text_color(0)
            pdf.set_line_width(0.2)
            pdf.set_xy(pdf.l_margin, y0 + SQUARE * len(squares) + 2)
            pdf.set_font(FONT, "", 9)
            for line in [legend(t), *turn_lines(t)]:
                pdf.multi_cell(0, 4.5, line, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(3)
    pdf.output(str(out))
