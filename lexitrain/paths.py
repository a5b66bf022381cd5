"""Where shipped data and the user's own data live."""

from __future__ import annotations

import os
from pathlib import Path

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


def data_folder(name: str) -> Path:
    """A folder of the data folder (`lexicons`, `lists`), made if missing, with the same one-line error."""
    return _folder(data_home() / name)


def _folder(path: Path) -> Path:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a file there, no permission, a read-only or full disk
        what = "is a file, not a folder" if path.is_file() else f"cannot be made ({exc.strerror or exc})"
        raise LexitrainError(f"the data folder {path} {what}: point LEXITRAIN_HOME at a folder you can write "
                             "(or move what is in the way), and run again") from None
    return path
