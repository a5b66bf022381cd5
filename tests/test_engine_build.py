"""The package builds and runs without a C compiler: the compiled move
generator and graph builder are optional, the pure Python ones take over."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOT_SOURCE = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "*.so", "*.pyd", "__pycache__",
                                    ".hypothesis", ".pytest_cache", "tests", "docs")


@pytest.mark.slow
def test_a_build_without_a_compiler_falls_back_to_pure_python(tmp_path: Path) -> None:
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    missing = str(tmp_path / "no-such-compiler")
    env = {**os.environ, "CC": missing, "CXX": missing, "LDSHARED": f"{missing} -shared"}
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path), str(source)],
        env=env, capture_output=True, text=True, timeout=600,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    [wheel] = tmp_path.glob("lexitrain-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert not [n for n in names if n.endswith((".so", ".pyd"))]
    assert "lexitrain/engine/movegen.py" in names and "lexitrain/lexicon/graph.py" in names
    assert "lexitrain/_shipped/lexicons/wordlists/enable1.txt" in names  # `pip install .` carries the data along
    assert "lexitrain/_shipped/quizzes/lists.toml" in names
    assert "lexitrain/_shipped/lexicons/leaves/english.json" in names  # the leave model behind --by equity

    unpacked = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(unpacked)
    shown = subprocess.run([sys.executable, "-m", "lexitrain", "--version"], capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(unpacked)}, cwd=tmp_path, timeout=60)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.endswith("(move generator: pure Python)\n")
    # the README's first command on a fresh home, and a position solved, all in pure Python
    fresh = {**os.environ, "PYTHONPATH": str(unpacked), "LEXITRAIN_HOME": str(tmp_path / "home")}
    first = subprocess.run([sys.executable, "-m", "lexitrain", "anagram", "AEINRST", "--json"], capture_output=True,
                           text=True, env=fresh, cwd=tmp_path, timeout=300)
    assert first.returncode == 0, first.stderr[-3000:]
    assert "RETAINS" in json.loads(first.stdout) and "Traceback" not in first.stderr
    solved = subprocess.run([sys.executable, "-m", "lexitrain", "best", "--cgp",
                             "15/15/15/15/15/15/15/3QUITE7/15/15/15/15/15/15/15 ABEMSTY/ 0/0 0", "--top", "1", "--json",
                             "--by", "equity"],
                            capture_output=True, text=True, env=fresh, cwd=tmp_path, timeout=300)
    assert solved.returncode == 0, solved.stderr[-3000:]
    top = json.loads(solved.stdout)[0]
    assert top["score"] > 0 and "equity" in top

    # and the editable build of the README's test command (`pip install -e`), through its PEP 660 hook
    editable = subprocess.run(
        [sys.executable, "-c", f"from setuptools import build_meta; print(build_meta.build_editable({str(tmp_path)!r}))"],
        env=env, cwd=source, capture_output=True, text=True, timeout=600,
    )
    assert editable.returncode == 0, editable.stderr[-3000:]
    assert (tmp_path / editable.stdout.split()[-1]).is_file()
    assert not list((source / "lexitrain").rglob("*.so"))


def test_a_source_distribution_carries_the_compiled_modules_sources_and_the_shipped_data(tmp_path: Path) -> None:
    """An sdist (what `pip install lexitrain-*.tar.gz` builds from) has every part the compiled modules
    include and the lexicons setup.py copies into the wheel; without MANIFEST.in it had neither."""
    source = tmp_path / "source"  # (a copy: an egg-info's SOURCES.txt left in the checkout would list files itself)
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    made = subprocess.run([sys.executable, "setup.py", "-q", "sdist", "-d", str(tmp_path)], cwd=source,
                          env={**os.environ, "LEXITRAIN_PURE_PYTHON": "1"}, capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr[-3000:]
    [archive] = tmp_path.glob("lexitrain-*.tar.gz")
    names = {name.split("/", 1)[1] for name in tarfile.open(archive).getnames() if "/" in name}
    sources = {str(p.relative_to(ROOT)) for suffix in ("*.pyx", "*.pxi", "*.pxd") for p in (ROOT / "lexitrain").rglob(suffix)}
    assert "lexitrain/engine/_movegen_search.pxi" in sources and sources <= names
    assert {"lexicons/wordlists/enable1.txt", "lexicons/leaves/english.json", "quizzes/lists.toml"} <= names
    assert not [n for n in names if n.endswith((".so", ".c"))]
