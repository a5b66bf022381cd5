"""The printable report of `gcg analyze --report`: the players' totals, then for
each game the turns that gave up the most equity, each with the board before
it, the rack, the move made and what was better (HTML or PDF).

The PDF uses the sheets' font (every tile set's letters print) and fpdf2,
imported only here; premium squares are grey tints so it prints in black
and white.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any, Sequence

from lexitrain.engine.analysis import GameReport, TurnReport, costliest
from lexitrain.engine.cgp import parse_cgp
from lexitrain.errors import LexitrainError

#: grey level (0 black .. 255 white) of each premium square in the PDF
TINTS = {"": 255, "DL": 225, "TL": 195, "DW": 210, "TW": 170, "QL": 180, "QW": 150}
SQUARE = 5.2  # mm


def write_report(out: Path, games: Sequence[GameReport], players: dict[str, dict[str, Any]]) -> None:
    """Write the report to OUT (.html or .pdf)."""
    fmt = out.suffix.lower()
    if fmt not in (".html", ".pdf"):
        raise LexitrainError(f"{out}: a report is .pdf or .html, not {out.suffix or '(no suffix)'!r}")
    if not out.parent.is_dir():
        raise LexitrainError(f"{out}: folder {out.parent} does not exist")
    if fmt == ".html":
        out.write_text(_html(games, players), encoding="utf-8")
    else:
        _pdf(games, players, out)


def summary_lines(player: str, s: dict[str, Any]) -> str:
    return (f"{player}: {s['turns']} turns, best move by equity {s['top_plays_found']} times; gave up "
            f"{s['points_given_up']} points and {s['equity_given_up']:.1f} equity; {s['missed_bingo_turns']} missed "
            f"bingos; {s['phonies_played']} phonies ({s['phonies_stood']} stood); {s['valid_challenged_off']} valid "
            f"plays challenged off; {s['exchanges']} exchanges, {s['passes']} passes")


def turn_lines(t: TurnReport) -> list[str]:
    """What a costly turn shows beside its board."""
    lines = [f"turn {t.turn}, {t.player}, rack {t.rack}: played {t.move} for {t.score}",
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


def _squares(t: TurnReport) -> list[list[tuple[str, str]]]:
    """The board before the turn: (letter or '', premium) per square."""
    board = parse_cgp(t.cgp).board
    premiums = board.layout.premiums
    return [[(board.text_at(r, c) or "", premiums[r][c]) for c in range(board.cols)] for r in range(board.rows)]


def _html(games: Sequence[GameReport], players: dict[str, dict[str, Any]]) -> str:
    parts = ["<!doctype html><meta charset='utf-8'><title>Game analysis</title><style>",
             "body{font-family:sans-serif} table.board{border-collapse:collapse;margin:4px 0}",
             "table.board td{width:20px;height:20px;border:1px solid #999;text-align:center;font-weight:bold}",
             ".DL{background:#dde}.TL{background:#bbd}.DW{background:#edd}.TW{background:#dbb}",
             "</style><h1>Game analysis</h1><ul>"]
    parts += [f"<li>{escape(summary_lines(p, s))}</li>" for p, s in players.items()]
    parts.append("</ul>")
    for game in games:
        parts.append(f"<h2>{escape(Path(game.source).name)}</h2>")
        for t in costliest(game.turns):
            rows = "".join("<tr>" + "".join(f'<td class="{premium}">{escape(letter)}</td>' for letter, premium in row)
                           + "</tr>" for row in _squares(t))
            parts.append(f'<table class="board">{rows}</table>')
            parts += [f"<p>{escape(line)}</p>" for line in turn_lines(t)]
    return "\n".join(parts) + "\n"


def _pdf(games: Sequence[GameReport], players: dict[str, dict[str, Any]], out: Path) -> None:
    from fpdf import FPDF

    from lexitrain.sheets.pdf import FONT, FONT_DIR

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
            if pdf.get_y() + SQUARE * len(squares) + 30 > pdf.h - 12:
                pdf.add_page()
            x0, y0 = pdf.l_margin, pdf.get_y()
            pdf.set_font(FONT, "B", 8)
            for r, row in enumerate(squares):
                for c, (letter, premium) in enumerate(row):
                    pdf.set_fill_color(TINTS.get(premium, 255))
                    pdf.rect(x0 + c * SQUARE, y0 + r * SQUARE, SQUARE, SQUARE, style="DF")
                    if letter:
                        pdf.set_xy(x0 + c * SQUARE, y0 + r * SQUARE)
                        pdf.cell(SQUARE, SQUARE, letter, align="C")
            pdf.set_xy(x0, y0 + SQUARE * len(squares) + 2)
            pdf.set_font(FONT, "", 9)
            for line in turn_lines(t):
                pdf.multi_cell(0, 4.5, line, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(3)
    pdf.output(str(out))
