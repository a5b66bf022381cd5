"""Draw a board in the terminal: coordinates, coloured premium squares,
blanks shown lowercase in their own colour."""

from __future__ import annotations

from rich.text import Text

from lexitrain.engine.board import EMPTY, Board, column_name, is_blank, tile_text

PREMIUM_STYLE = {
    "TW": ("on red3", "="), "DW": ("on pink3", "-"), "QW": ("on dark_red", "#"),
    "TL": ("on blue3", '"'), "DL": ("on sky_blue3", "'"), "QL": ("on purple4", "^"),
}
TILE_STYLE = "bold black on wheat1"
BLANK_STYLE = "bold dark_red on wheat1"
NEW_STYLE = "bold black on gold1"


def render_board(board: Board, highlight: set[tuple[int, int]] | None = None) -> Text:
    """The board as rich Text; `highlight` marks squares (e.g. the last play)."""
    highlight = highlight or set()
    wide = max(len(t) for t in board.tiles.letters)  # cells wide enough for CH, L·L
    cell = max(2, wide + 1)
    out = Text()
    out.append("   " + "".join(column_name(c).center(cell) for c in range(board.cols)) + "\n")
    for r in range(board.rows):
        out.append(f"{r + 1:>2} ")
        for c in range(board.cols):
            tile = board.get(r, c)
            if tile == EMPTY:
                style, mark = PREMIUM_STYLE.get(board.premium(r, c), ("", "."))
                out.append(mark.center(cell), style=style)
            else:
                style = NEW_STYLE if (r, c) in highlight else BLANK_STYLE if is_blank(tile) else TILE_STYLE
                out.append(tile_text(board.tiles, tile).center(cell), style=style)
        out.append(f" {r + 1}\n")
    return out
