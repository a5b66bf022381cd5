"""Write the data files MAGPIE needs to simulate on our words, from ours, into a MAGPIE checkout.

MAGPIE's own data comes as a download from its data repository, which this
machine cannot reach; so that scripts/bench_sim.py can run MAGPIE (built from
its public source) side by side with ours on the same footing, this writes
its files from the project's own: the lexicon's words (ENABLE by default) as
text for MAGPIE's `convert text2kwg` and `text2wordmap` (its word map), the
tile set as its letter distribution, the standard board as its layout, the
shipped leave table (every leave of up to 6 tiles) as its leaves CSV for
`convert csv2klv`, and the shipped win model as its win percentage table
(per tiles unseen and spread, 1,000,000 games a row). Then it runs those
conversions with the checkout's bin/magpie.

    python scripts/magpie_data.py /path/to/MAGPIE [--lexicon enable]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lexitrain.engine.leave_table import LeaveTable, every_leave, load_leaves  # noqa: E402
from lexitrain.engine.movegen import _premiums  # noqa: E402
from lexitrain.engine.win_probability import load_win_model  # noqa: E402
from lexitrain.lexicon.catalog import open_lexicon  # noqa: E402

#: MAGPIE's board file characters by (letter multiplier, word multiplier)
SQUARES = {(1, 1): " ", (2, 1): "'", (3, 1): '"', (1, 2): "-", (1, 3): "="}
#: the widest spread the win table covers either way, and the games each row stands for
SPREAD, GAMES = 400, 1_000_000


def magpie_name(lexicon: str) -> str:
    """The lexicon's name in MAGPIE: prefixed so that MAGPIE takes the English letter distribution for it
    (it picks one by the name's prefix, and knows no ENABLE)."""
    return "TWL" + lexicon.upper()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("magpie", type=Path, help="a MAGPIE checkout with bin/magpie built (make magpie BUILD=release)")
    parser.add_argument("--lexicon", default="enable")
    args = parser.parse_args()
    lex = open_lexicon(args.lexicon)
    tiles, layout = lex.tiles, lex.layout
    name = magpie_name(args.lexicon)
    data = args.magpie / "data"
    for folder in ("lexica", "letterdistributions", "layouts", "strategy"):
        (data / folder).mkdir(parents=True, exist_ok=True)
    (data / "lexica" / f"{name}.txt").write_text("".join(f"{w}\n" for w in lex.words()))
    rows = [f"?,?,{tiles.blanks},0,0"] + [f"{letter},{letter.lower()},{count},{points},{int(letter in 'AEIOU')}"
                                         for letter, count, points in zip(tiles.letters, tiles.counts, tiles.points)]
    (data / "letterdistributions" / "english.csv").write_text("\n".join(rows) + "\n")
    lm, wm = _premiums(layout, False)
    board = [f"{layout.center[0]},{layout.center[1]}"]
    for r in range(layout.rows):
        board.append("".join(SQUARES[lm[r * layout.cols + c], wm[r * layout.cols + c]] for c in range(layout.cols)))
    (data / "layouts" / f"standard{layout.rows}.txt").write_text("\n".join(board) + "\n")
    table = load_leaves(tiles)
    if not isinstance(table, LeaveTable):
        raise SystemExit(f"no leave table is shipped for the {tiles.name} tiles")
    leaves = []
    for (counts, blanks), value in zip(every_leave(tiles), table.values):
        text = "".join(letter * n for letter, n in zip(tiles.letters, counts)) + "?" * blanks
        if text:
            leaves.append(f"{text},{int(value) / 100:.2f}")
    (data / "lexica" / f"{name}.csv").write_text("\n".join(leaves) + "\n")
    win = load_win_model(tiles)
    lines = []
    for unseen in range(1, sum(tiles.counts) + tiles.blanks + 1):
        wins = [round(2 * GAMES * win.win(spread, unseen)) for spread in range(-SPREAD, SPREAD + 1)]
        lines.append(" ".join(map(str, [GAMES, *wins])))
    (data / "strategy" / "winpct.csv").write_text("\n".join(lines) + "\n")
    binary = str(args.magpie / "bin" / "magpie")
    for command in (["convert", "text2kwg", name], ["convert", "text2wordmap", name], ["convert", "csv2klv", name]):
        done = subprocess.run([binary, *command], cwd=args.magpie, capture_output=True, text=True)
        print(" ".join(command), "->", done.returncode, (done.stdout + done.stderr).strip()[-300:])


if __name__ == "__main__":
    main()
