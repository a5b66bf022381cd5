"""The tests' throw-away PostgreSQL cluster does not outlive a killed test run: the next cluster
started stops the server a dead run left behind and removes its folder."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from postgres_cluster import REQUIRE, Cluster, _alive, postmaster_pid, binaries
from study_helpers import small  # noqa: F401  (a fixture)

START_AND_HANG = """
import sys, time
sys.path.insert(0, {tests!r})
from postgres_cluster import Cluster, binaries
cluster = Cluster(binaries())
print(cluster.folder, flush=True)
time.sleep(120)
"""


@pytest.fixture
def short_tmp() -> Iterator[Path]:
    """A temp folder of its own with a short path (a unix socket's path is at most 107 bytes)."""
    folder = Path(tempfile.mkdtemp(prefix="pgt-", dir="/tmp"))
    folder.chmod(0o755)  # (the server runs as another user when the tests run as root)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.timeout(180)
def test_a_cluster_left_by_a_killed_run_is_stopped_and_removed_by_the_next(short_tmp: Path) -> None:
    bin_dir = binaries()
    if bin_dir is None:
        if os.environ.get(REQUIRE) == "1":
            pytest.fail(f"{REQUIRE}=1 but no PostgreSQL binaries (initdb) were found")
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    run = subprocess.Popen([sys.executable, "-c", START_AND_HANG.format(tests=str(Path(__file__).parent))],
                           stdout=subprocess.PIPE, text=True, env={**os.environ, "TMPDIR": str(short_tmp)})
    try:
        assert run.stdout is not None
        folder = Path(run.stdout.readline().strip())
        server = postmaster_pid(folder / "data")
        assert folder.parent == short_tmp and server is not None and _alive(server)
    finally:
        run.send_signal(signal.SIGKILL)  # (the test run killed: nothing of its own runs after this)
        run.wait(timeout=30)
    assert folder.exists() and _alive(server)  # left behind, still serving
    cluster = Cluster(bin_dir, parent=short_tmp)
    try:
        assert not _alive(server) and not folder.exists()
        assert postmaster_pid(cluster.folder / "data") is not None
    finally:
        cluster.stop()



@pytest.mark.timeout(180)
def test_a_sqlite_store_copied_into_a_members_schema_holds_the_same_and_goes_on(postgres_cluster, small) -> None:
    """copy_store (bench_review's and bench_sync's one copy): every card and answer of a SQLite store lands in the
    member's schema, the due counts the triggers keep match the home's, the copy has a store id of its own, and
    the next answer's id follows the rows copied (the sequences set past them)."""
    import uuid

    import psycopg

    from postgres_cluster import copy_store

    from lexitrain.study.store import ProgressStore, progress_path
    from lexitrain.study.store.postgres import PostgresConnection
    from tests.cli_runner import run

    assert run("quiz", "--list", "twos", "--jsonl", "--lexicon", "small", input="AB BA\nx\n\n").exit_code == 0
    cards_sql = "SELECT id, kind, key, state, due FROM cards ORDER BY id"
    answers_sql = "SELECT id, card_id, given, correct FROM answers ORDER BY id"
    with ProgressStore() as home:
        cards = [tuple(row) for row in home.conn.execute(cards_sql)]
        answers = [(i, c, g, int(k)) for i, c, g, k in home.conn.execute(answers_sql)]
        due, store_id = home.due_count("small", 2e9), home.store_id
    assert len(answers) >= 3 and cards and due
    url = postgres_cluster.create_database(f"copy_{uuid.uuid4().hex[:12]}")
    copy_store(progress_path(), url, "member_7")
    with ProgressStore(postgres=PostgresConnection(psycopg.connect(url), "member_7")) as copy:
        assert [tuple(row) for row in copy.conn.execute(cards_sql)] == cards
        assert [(i, c, g, int(k)) for i, c, g, k in copy.conn.execute(answers_sql)] == answers
        assert copy.due_count("small", 2e9) == due and copy.store_id != store_id
        assert copy.conn.execute("SELECT nextval(pg_get_serial_sequence('answers', 'id'))").fetchone()[0] == \
            answers[-1][0] + 1
