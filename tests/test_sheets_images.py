"""A page of each kind, printed by the CLI and rasterised to PNG (as in docs/images/)."""

from __future__ import annotations

import runpy
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]


def ink_columns(png: Path, columns: int) -> list[float]:
    """Share of dark pixels in each of COLUMNS equal vertical strips of the page body."""
    image = Image.open(png).convert("L")
    width, height = image.size
    body = image.crop((int(width * 0.06), int(height * 0.08), int(width * 0.94), int(height * 0.9)))
    strip = body.width // columns
    shares = []
    for i in range(columns):
        part = body.crop((i * strip, 0, (i + 1) * strip, body.height))
        dark = sum(part.histogram()[:128])
        shares.append(dark / (part.width * part.height))
    return shares


def test_each_kind_renders_a_printed_page(enable, home: Path, tmp_path: Path) -> None:
    script = runpy.run_path(str(ROOT / "scripts" / "sheet_images.py"))
    made = script["make_images"](tmp_path / "images", home)
    assert set(made) == set(script["SHEETS"])
    # printed columns, and how many of them page 1 fills
    expected_columns = {"anagrams": (3, 3), "anagrams-questions": (3, 3), "hooks": (3, 3), "twos": (2, 2),
                        "stems": (2, 2), "new-words": (4, 3), "due": (3, 3)}
    for name, png in made.items():
        image = Image.open(png)
        assert image.mode == "L"  # printed in black and white
        assert abs(image.height / image.width - 297 / 210) < 0.01  # an A4 page
        columns, filled = expected_columns[name]
        shares = ink_columns(png, columns)
        assert all(share > 0.003 for share in shares[:filled]), (name, shares)  # text in the filled columns
        assert all(share < 0.0005 for share in shares[filled:]), (name, shares)
        assert committed_image_exists(name)


def committed_image_exists(name: str) -> bool:
    return (ROOT / "docs" / "images" / f"sheet-{name}.png").is_file()
