"""Print one sheet of each kind with the real CLI and turn its first page into a PNG.

The PNGs in docs/images/ (shown in the README and docs/sheets.md) come from
this script; tests/test_sheets_images.py runs the same code into a scratch
folder. Pages are rasterised with pypdfium2 (a wheel with PDFium inside, no
system packages).

Run: python scripts/sheet_images.py            (writes docs/images/sheet-*.png)
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"

#: image name -> `lexitrain` arguments (the output file is added).
SHEETS: dict[str, list[str]] = {
    "anagrams": ["sheet", "anagrams", "--query", "--length 7 --probability 1-200 --order probability"],
    "anagrams-questions": ["sheet", "anagrams", "--query", "--length 7 --probability 1-200 --order probability",
                           "--questions-only"],
    "hooks": ["sheet", "hooks", "--list", "threes"],
    "twos": ["sheet", "twos"],
    "stems": ["sheet", "stems", "--stem", "SATINE", "--stem", "RETINA", "--stem", "SATIRE"],
    "new-words": ["sheet", "new-words", "--old", "threes-old", "--lexicon", "threes-new"],
    "due": ["sheet", "due"],
}
#: The due sheet's progress is made up (see `make_due_cards`), on a pinned date.
DUE_NOW = "2026-03-10T09:00:00+00:00"


def run(args: list[str], home: Path) -> str:
    env = {**os.environ, "LEXITRAIN_HOME": str(home), "PYTHONPATH": str(ROOT), "LEXITRAIN_NOW": DUE_NOW}
    done = subprocess.run([sys.executable, "-m", "lexitrain", *args], check=True, env=env,
                          stdout=subprocess.PIPE, text=True)
    return done.stdout


def make_due_cards(home: Path) -> None:
    """A made-up week of reviews: top sevens and some threes' hooks, due over the next days."""
    import json
    from dataclasses import replace
    from datetime import datetime, timedelta

    sys.path.insert(0, str(ROOT))
    from lexitrain.study.store import FILE_NAME, ProgressStore

    sevens = json.loads(run(["search", "--list", "top-sevens", "--json"], home))
    threes = json.loads(run(["search", "--list", "front-hooked-threes", "--json"], home))
    keys = [("anagram", a) for a in dict.fromkeys(r["alphagram"] for r in sevens[:160:3])]
    keys += [("hooks", r["word"]) for r in threes[:60:4]]
    now = datetime.fromisoformat(DUE_NOW)
    with ProgressStore(home / FILE_NAME) as store:
        ids = store.ensure_cards("enable", keys, now.timestamp())
        with store.transaction():
            for i, card_id in enumerate(ids):
                due = now + timedelta(days=(i * 5) % 8 - 1, hours=i % 5)
                store.save_card(replace(store.card(card_id), state=2, due=due.timestamp()))


def make_diff_lexicons(home: Path, scratch: Path) -> None:
    """Two made-up editions of ENABLE's 2-4 letter words, each missing some threes,
    so that new-words has a diff (with hooks) to show."""
    words = [w for w in (ROOT / "lexicons" / "wordlists" / "enable1.txt").read_text().split() if len(w) <= 4]
    for name, skip in (("threes-old", 9), ("threes-new", 23)):
        path = scratch / f"{name}.txt"
        path.write_text("\n".join(w for i, w in enumerate(words) if len(w) != 3 or i % skip) + "\n")
        run(["lexicon", "build", str(path), "--name", name, "--quiet"], home)


def to_png(pdf: Path, png: Path, scale: float = 1.5) -> None:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        document[0].render(scale=scale).to_pil().convert("L").save(png, optimize=True)
    finally:
        document.close()


def make_images(folder: Path, home: Path, kinds: list[str] | None = None) -> dict[str, Path]:
    """Print each sheet into FOLDER as PDF and PNG; returns the PNG paths by name."""
    folder.mkdir(parents=True, exist_ok=True)
    made: dict[str, Path] = {}
    with tempfile.TemporaryDirectory() as scratch:
        if "new-words" in (kinds or SHEETS):
            make_diff_lexicons(home, Path(scratch))
        if "due" in (kinds or SHEETS):
            make_due_cards(home)
        for name in kinds or SHEETS:
            pdf = Path(scratch) / f"{name}.pdf"
            run([*SHEETS[name], "--out", str(pdf)], home)
            made[name] = folder / f"sheet-{name}.png"
            to_png(pdf, made[name])
    return made


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as home:
        for path in make_images(IMAGES, Path(home)).values():
            print(f"wrote {path.relative_to(ROOT)}")
