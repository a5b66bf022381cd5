"""Where shipped data and the user's own data live."""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from lexitrain.errors import LexitrainError

_PACKAGE = Path(__file__).resolve().parent


def shipped(name: str) -> Path:
    """A top-level shipped folder (`lexicons`, `quizzes`).

    In a wheel they are carried inside the package under `_shipped/`; in a
    source checkout or editable install they sit beside the package.
    """
    inside = _PACKAGE / "_shipped" / name
    return inside if inside.is_dir() else _PACKAGE.parent / name


def data_home() -> Path:
    """The user's data folder: compiled lexicons, progress, saved searches.

    `LEXITRAIN_HOME` overrides the platform's user data directory so tests
    (and people with several set-ups) never touch the real one; a relative one (or one starting
    with `~`) is taken from the folder the command runs in (the home folder), made absolute at once.
    """
    override = os.environ.get("LEXITRAIN_HOME")
    if override:
        home = Path(override).expanduser().resolve()
    else:
        from platformdirs import user_data_dir

        home = Path(user_data_dir("lexitrain", appauthor=False))
    return _folder(home)


def data_folder(name: str, home: Path | None = None) -> Path:
    """A folder of the data folder (`lexicons`, `lists`), or of HOME (a club member's own folder), made if
    missing, with the same one-line error."""
    return _folder((data_home() if home is None else home) / name)


def _folder(path: Path) -> Path:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a file there, no permission, a read-only or full disk
        what = "is a file, not a folder" if path.is_file() else f"cannot be made ({exc.strerror or exc})"
        raise LexitrainError(f"the data folder {path} {what}: point LEXITRAIN_HOME at a folder you can write "
                             "(or move what is in the way), and run again") from None
    return path


def write_atomically(path: Path, text: str) -> None:
    """Write a text file whole or not at all: into a temporary file beside it, then moved into place
    (a reader sees the old file or the new one, never half of one). A one-line error when it cannot."""
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-")
    except OSError as exc:
        raise LexitrainError(f"{path}: cannot write ({exc.strerror or exc})") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise LexitrainError(f"{path}: cannot write ({exc.strerror or exc})") from None


def lock_file(path: Path, wait: bool = True, shared: bool = False, folder: bool = False) -> int:
    """An open descriptor of PATH holding its lock (flock: exclusive, or SHARED with other readers); -1 where
    it is held elsewhere (WAIT False) or the system has no flock (Windows). A FOLDER is locked itself: no
    file is made (FileNotFoundError where it is gone)."""
    try:
        import fcntl
    except ImportError:
        return -1
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY) if folder else os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    how = fcntl.LOCK_SH if shared else fcntl.LOCK_EX
    try:
        fcntl.flock(fd, how if wait else how | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return -1
    return fd


@contextmanager
def locked(path: Path, folder: bool = False) -> Iterator[None]:
    """Hold PATH's lock (waiting for it; a FOLDER's own) while the block runs: one process at a time reads
    and writes what it guards."""
    fd = lock_file(path, folder=folder)
    try:
        yield
    finally:
        if fd >= 0:
            os.close(fd)
