"""A lexicon build that is killed, runs out of disk or cannot write: it cleans up after
itself (or the next build does) and says so in one line, never a traceback.

These run real processes: a build killed with SIGKILL, a home on a full tmpfs, a home
the build may not write (root ignores file modes, so root's DAC override is dropped
with `setpriv`); a test skips when the machine does not allow what it needs.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from lexitrain.paths import shipped
from tests.cli_runner import run, unprivileged

#: a list whose build takes seconds, long enough to be caught in the middle
ENABLE_LIST = shipped("lexicons") / "wordlists" / "enable1.txt"
SMALL = ["ABLE", "BALE", "CABLE", "QI", "ZA"]


def _lexitrain(home: Path, *args: str, prefix: tuple[str, ...] = ()) -> subprocess.Popen[str]:
    env = {**os.environ, "LEXITRAIN_HOME": str(home)}
    return subprocess.Popen([*prefix, sys.executable, "-m", "lexitrain", *args], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)


def _builds(home: Path) -> list[Path]:
    return sorted((home / "lexicons").glob(".build-*"))


def _wait_for_build_folder(home: Path, process: subprocess.Popen[str], skip: Sequence[Path] = (),
                           seconds: float = 60) -> Path:
    """The build folder PROCESS made (not one of SKIP), once it holds its lock."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        found = [f for f in _builds(home) if f not in skip and (f / ".lock").exists()]
        if found:
            return found[0]
        time.sleep(0.02)
    raise AssertionError(f"no build folder appeared (exit {process.poll()})")


def _small_list(tmp_path: Path) -> Path:
    path = tmp_path / "small.txt"
    path.write_text("\n".join(SMALL) + "\n", encoding="utf-8")
    return path


def test_a_killed_build_leaves_a_folder_the_next_build_removes(home: Path, tmp_path: Path) -> None:
    for _ in range(2):  # builds killed with SIGKILL mid-way (their forked children too): each removes the last's
        build = _lexitrain(home, "lexicon", "build", str(ENABLE_LIST), "--name", "big")
        folder = _wait_for_build_folder(home, build, skip=_builds(home))
        os.killpg(build.pid, signal.SIGKILL)
        build.wait(timeout=30)
        assert _builds(home) == [folder]  # what the issue found: left for ever (12 kills: 170 MB)
    made = run("lexicon", "build", str(_small_list(tmp_path)), "--name", "small")
    assert made.exit_code == 0, made.stderr
    assert _builds(home) == []
    assert run("judge", "CABLE", "--lexicon", "small").exit_code == 0
    assert run("lexicon", "info", "big").exit_code == 1  # the killed builds published nothing


def test_a_running_build_keeps_its_folder_while_another_build_cleans_up(home: Path, tmp_path: Path) -> None:
    running = _lexitrain(home, "lexicon", "build", str(ENABLE_LIST), "--name", "big")
    try:
        folder = _wait_for_build_folder(home, running)
        made = run("lexicon", "build", str(_small_list(tmp_path)), "--name", "small")
        assert made.exit_code == 0, made.stderr
        still = running.poll() is None
        assert folder.exists() or not still  # removed only if that build had finished meanwhile
        _, err = running.communicate(timeout=300)
    finally:
        if running.poll() is None:
            os.killpg(running.pid, signal.SIGKILL)
    assert running.returncode == 0, err
    assert run("judge", "ZYZZYVA", "--lexicon", "big").exit_code == 0 and _builds(home) == []


@pytest.fixture
def full_disk(tmp_path: Path):
    """A folder on a 6 MB tmpfs: a real disk that fills up (mounting needs root)."""
    mount = tmp_path / "small-disk"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=6m", "tmpfs", str(mount)], capture_output=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {made.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=True)


def test_a_full_disk_is_one_line_and_leaves_nothing(full_disk: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEXITRAIN_HOME", str(full_disk))
    for args in (["judge", "QI"], ["lexicon", "build", str(ENABLE_LIST), "--name", "mine"]):  # first use, and a build
        result = run(*args)
        assert result.exit_code == 1
        assert result.stderr.startswith(f"error: cannot build lexicon '{'enable' if args[0] == 'judge' else 'mine'}' "
                                        f"in {full_disk / 'lexicons'}: the disk is full; free some space")
        assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr
        assert _builds(full_disk) == [] and list((full_disk / "lexicons").iterdir()) == []


def test_a_read_only_home_is_one_line(home: Path, tmp_path: Path) -> None:
    prefix = unprivileged()
    (home / "lexicons").mkdir()
    (home / "lexicons").chmod(0o555)
    home.chmod(0o555)
    try:
        for args, name in ((["lexicon", "build", str(_small_list(tmp_path)), "--name", "small"], "small"),
                           (["judge", "QI"], "enable")):
            process = _lexitrain(home, *args, prefix=prefix)
            out, err = process.communicate(timeout=120)
            assert process.returncode == 1 and out == ""
            assert err == (f"error: cannot build lexicon '{name}' in {home / 'lexicons'}: Permission denied; "
                           "point LEXITRAIN_HOME at a folder you can write, and run again (nothing was changed)\n")
    finally:
        home.chmod(0o755)
        (home / "lexicons").chmod(0o755)


def _children(pid: int) -> list[int]:
    try:
        return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _gone(pid: int) -> bool:
    """Whether the process has ended (a zombie nobody has reaped yet counts as ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def _cpu_ticks(pid: int) -> int:
    """The user and system time the process has used, in clock ticks (0 once it has ended)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux's /proc to find a build's workers")
def test_a_build_killed_alone_takes_its_workers_with_it(home: Path, tmp_path: Path) -> None:
    """kill -9 of the build process only (not its group): before, its forked worker ran on, holding
    the build folder's lock, so the next build could not remove the folder. The worker is held stopped
    here so that it cannot simply finish its job first."""
    build = _lexitrain(home, "lexicon", "build", str(ENABLE_LIST), "--name", "big")
    workers: list[int] = []
    try:
        folder = _wait_for_build_folder(home, build)
        deadline = time.monotonic() + 60
        while not workers and time.monotonic() < deadline and build.poll() is None:
            workers = _children(build.pid)
            time.sleep(0.005)
        assert workers, "the build started no worker"
        # stopped only once at work: a worker stopped between its fork and its first line (which asks the
        # kernel to end it with its parent) would stay stopped for ever, as no real worker is (failed 1 run in 4
        # at load 30); 5 ticks of CPU are far beyond that line and far short of a writer's job
        while not all(_cpu_ticks(w) >= 5 or _gone(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.005)
        for worker in workers:
            os.kill(worker, signal.SIGSTOP)
        os.kill(build.pid, signal.SIGKILL)
        build.wait(timeout=30)
        deadline = time.monotonic() + 10
        while not all(_gone(worker) for worker in workers) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert all(_gone(worker) for worker in workers)
    finally:
        for worker in workers:
            if not _gone(worker):
                os.kill(worker, signal.SIGKILL)
        if build.poll() is None:
            os.killpg(build.pid, signal.SIGKILL)
    made = run("lexicon", "build", str(_small_list(tmp_path)), "--name", "small")
    assert made.exit_code == 0, made.stderr
    assert not folder.exists() and _builds(home) == []


def test_a_build_beside_other_threads_forks_no_child_that_waits_forever(
        home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fork copies only the thread that forks: a lock another thread holds at that moment stays held in the
    child for ever, and the build waited for that child (a CI run hung so: a build in a test's process, beside a
    web app's threads). Beside other threads the build's jobs run in its own process, and it finishes."""
    import threading

    from lexitrain.lexicon import compile as compiler
    from lexitrain.lexicon.catalog import open_lexicon

    held, locked, job_started = threading.Lock(), threading.Event(), threading.Event()

    def holder() -> None:  # holds the lock until the build's job has started, as a busy thread would
        with held:
            locked.set()
            job_started.wait(10)

    write = compiler._write_tries_and_graph

    def job(*args: object) -> None:
        job_started.set()  # (in a forked child this reaches no thread of the parent's)
        if not held.acquire(timeout=5):  # a child forked while the lock was held never gets it
            raise RuntimeError("the lock a thread held at the fork is held for ever in the child")
        held.release()
        write(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(compiler, "_write_tries_and_graph", job)
    thread = threading.Thread(target=holder)
    thread.start()
    locked.wait(10)
    source = tmp_path / "tiny.txt"
    source.write_text("QI\nZA\nQAT\n", encoding="utf-8")
    try:
        report = compiler.compile_lexicon(source, "tiny")
    finally:
        job_started.set()
        thread.join()
    assert report.words == 3 and "QAT" in open_lexicon("tiny")


def test_a_process_forks_only_while_it_runs_one_thread() -> None:
    """`may_fork`, which the build's writers and the solvers' worker pools ask: not beside another thread."""
    import threading

    from lexitrain.children import may_fork

    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert not may_fork()
    finally:
        release.set()
        other.join()
    assert may_fork() == (threading.active_count() == 1)  # (earlier tests of this process may leave threads)


def test_a_child_leaves_ctrl_c_to_its_parent() -> None:
    """Ctrl-C at a terminal goes to the whole process group: a child begun by `end_with_parent` (the web app's
    sheet and count processes, the pre-endgame's workers, a build's writers) leaves it to the parent, which ends
    it. `lexitrain web` stopped by Ctrl-C printed the count process's KeyboardInterrupt traceback."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from lexitrain.children import end_with_parent

    spawned = multiprocessing.get_context("spawn")  # as the web app starts its processes apart
    with ProcessPoolExecutor(1, mp_context=spawned, initializer=end_with_parent, initargs=(os.getpid(),)) as pool:
        child = pool.submit(os.getpid).result(timeout=60)
        assert pool.submit(signal.getsignal, signal.SIGINT).result(timeout=60) == signal.SIG_IGN
        os.kill(child, signal.SIGINT)
        time.sleep(0.5)  # (an interrupt taken would end the worker waiting for work: the pool then breaks)
        assert pool.submit(os.getpid).result(timeout=60) == child


#: the default of each command's `--threads`, as the command line reads it, one line a command
THREADS_DEFAULTS = (
    "import os, sys\n"
    "if sys.argv[1:]: os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})\n"
    "import typer.main; from lexitrain.cli.app import app; from lexitrain.children import usable_cores\n"
    "root = typer.main.get_command(app)\n"
    "for path in (['sim'], ['best'], ['endgame'], ['preendgame'], ['gcg', 'analyze']):\n"
    "    command = root\n"
    "    for name in path: command = command.commands[name]\n"
    "    print(' '.join(path), next(p.default for p in command.params if p.name == 'threads'), usable_cores())\n")


def test_every_core_means_the_cores_this_process_may_run_on() -> None:
    """The default of `--threads` (sim, endgame, preendgame, gcg analyze; best's with --by sim) and of the
    playability count's jobs is the cores the process may run on (`children.usable_cores`, the one function):
    pinned to one core (a container, `taskset -c 0`) it is 1, not the machine's count, so no threads take turns
    on one core."""
    import subprocess
    import sys

    import lexitrain.cli.sim_cmd as sim_cmd

    assert not hasattr(sim_cmd, "default_threads")  # (a wrapper of usable_cores once: the one is used)
    for pinned, cores in ((True, 1), (False, len(os.sched_getaffinity(0)))):
        said = subprocess.run([sys.executable, "-c", THREADS_DEFAULTS, *(["pinned"] if pinned else [])],
                              capture_output=True, text=True, check=True).stdout.splitlines()
        best = next(line for line in said if line.startswith("best "))
        assert best == f"best None {cores}"  # (best's --threads is for --by sim: by default usable_cores)
        assert [line for line in said if line != best] == [f"{name} {cores} {cores}" for name in
                                                            ("sim", "endgame", "preendgame", "gcg analyze")], said
