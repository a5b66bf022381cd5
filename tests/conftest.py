"""Shared fixtures: an isolated LEXITRAIN_HOME per test, ENABLE compiled once."""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Callable

import pytest

from lexitrain.lexicon.catalog import open_lexicon
from lexitrain.lexicon.lexicon import Lexicon
from postgres_cluster import REQUIRE, Cluster, binaries

#: the 110 real recorded games (copied from ../shared/data/gcg with their credits: see its SOURCES.txt)
REAL_GAMES = Path(__file__).resolve().parent / "data" / "gcg"


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh user data folder for every test; the real one is never touched."""
    path = tmp_path / "home"
    path.mkdir()
    monkeypatch.setenv("LEXITRAIN_HOME", str(path))
    return path


@pytest.fixture(scope="session")
def compiled_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """ENABLE and CEL compiled once per test session."""
    path = tmp_path_factory.mktemp("compiled")
    old = os.environ.get("LEXITRAIN_HOME")
    os.environ["LEXITRAIN_HOME"] = str(path)
    try:
        open_lexicon("enable")
        open_lexicon("cel")
    finally:
        if old is None:
            del os.environ["LEXITRAIN_HOME"]
        else:
            os.environ["LEXITRAIN_HOME"] = old
    return path


def _link_lexicon(src_home: Path, dst_home: Path, name: str) -> None:
    src = src_home / "lexicons"
    dst = dst_home / "lexicons"
    dst.mkdir(exist_ok=True)
    manifest = src / f"{name}.json"
    shutil.copy(manifest, dst / manifest.name)
    import json

    folder = json.loads(manifest.read_text())["dir"]
    if not (dst / folder).exists():
        shutil.copytree(src / folder, dst / folder, copy_function=os.link)


@pytest.fixture
def enable(compiled_home: Path, home: Path) -> Lexicon:
    """The compiled ENABLE lexicon (and CEL) inside this test's home."""
    _link_lexicon(compiled_home, home, "enable")
    _link_lexicon(compiled_home, home, "cel")
    return open_lexicon("enable")


@pytest.fixture
def make_lexicon(tmp_path: Path) -> Callable[..., Lexicon]:
    """Compile a small word list given as a list of lines."""
    from lexitrain.lexicon.catalog import build_lexicon

    def make(lines: list[str], name: str = "small", tiles: str = "english", **kwargs) -> Lexicon:
        source = tmp_path / f"{name}.txt"
        source.write_text("\n".join(lines) + "\n", encoding="utf-8")
        build_lexicon(source, name, tiles, **kwargs)
        return open_lexicon(name)

    return make


@pytest.fixture
def real_games() -> Path:
    """The folder of real recorded games, kept in the repository so a clean clone tests them."""
    return REAL_GAMES


#: fixtures whose tests are slow by the marker's own definition (ENABLE compiled, real games replayed)
SLOW_FIXTURES = {"enable", "compiled_home", "real_games"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test that uses ENABLE or the real games `slow`, so `-m 'not slow'` is a quick run."""
    for item in items:
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    """A throw-away PostgreSQL cluster for this test session (one per xdist worker), stopped at the end;
    the test skips where PostgreSQL is not installed, unless LEXITRAIN_REQUIRE_POSTGRES=1 (CI) says it must run."""
    bin_dir = binaries()
    if bin_dir is None:
        if os.environ.get(REQUIRE) == "1":
            pytest.fail(f"{REQUIRE}=1 but no PostgreSQL binaries (initdb) were found")
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    cluster = Cluster(bin_dir)
    yield cluster
    cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def club_target(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty club database: an SQLite file, or a new database on the test cluster."""
    if request.param == "sqlite":
        yield str(tmp_path / "club.sqlite")
        return
    cluster: Cluster = request.getfixturevalue("postgres_cluster")
    name = f"club_{uuid.uuid4().hex[:12]}"
    yield cluster.create_database(name)
    cluster.drop_database(name)
