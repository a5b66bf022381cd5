"""Where compiled lexicons live, and how a new build replaces an old one.

Each lexicon is a folder `NAME.<token>/` plus a manifest `NAME.json` naming
that folder. A build writes a fresh folder and then swaps the manifest with
one atomic rename, so readers see the old lexicon or the new one, never half
of either, and a failed build leaves the old one untouched. Names compare
without case: `Enable` opens `enable`, and `CEL` cannot be built beside `cel`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import tempfile
import time
import weakref
from pathlib import Path
from typing import Any

from lexitrain.errors import LexitrainError
from lexitrain.paths import data_folder, lock_file

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")


def lexicons_dir() -> Path:
    return data_folder("lexicons")


def check_name(name: str) -> str:
    if not _NAME.fullmatch(name):
        raise LexitrainError(
            f"bad lexicon name {name!r}: use letters, digits, '-' and '_' (up to 64)"
        )
    return name


def stored_name(name: str) -> str:
    """The spelling a lexicon of this name (compared without case) is compiled under, else NAME."""
    check_name(name)
    if (lexicons_dir() / f"{name}.json").is_file():
        return name
    folded = name.casefold()
    return next((known for known in compiled_names() if known.casefold() == folded), name)


def check_build_name(name: str) -> str:
    """A name a new build may take: a valid one, not another spelling of a compiled lexicon's."""
    known = stored_name(name)
    if known != name:
        raise LexitrainError(f"a lexicon named {known!r} exists, and names compare without case: "
                             f"use --name {known} to rebuild it, or another name")
    return name


def manifest_path(name: str) -> Path:
    return lexicons_dir() / f"{check_name(name)}.json"


def read_manifest(name: str) -> dict[str, Any] | None:
    """The manifest of a compiled lexicon (its name compared without case), or None if it is not compiled."""
    path = manifest_path(stored_name(name))
    again = "delete it and build the lexicon again (an embedded one rebuilds on its own)"
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise LexitrainError(f"{path}: unreadable lexicon manifest ({exc}); {again}") from None
    if not isinstance(manifest, dict):
        raise LexitrainError(f"{path}: unreadable lexicon manifest (not a JSON object); {again}")
    return manifest


def compiled_names() -> list[str]:
    return sorted(p.stem for p in lexicons_dir().glob("*.json"))


#: A build folder's lock file, held (flock) while its build runs: a folder whose lock no
#: process holds was left by a build that was killed, and the next build removes it.
BUILD_LOCK = ".lock"
#: A build folder without a lock file (made by an older lexitrain) is left alone this long.
UNLOCKED_GRACE_SECONDS = 3600
#: the open lock of each build folder of this process
_held: dict[Path, int] = {}


def new_build_dir(name: str) -> Path:
    """A private folder to build into, locked while this process builds; nothing reads it
    until `publish`. Folders left by killed builds are removed first."""
    check_build_name(name)
    remove_stale_builds()
    folder = Path(tempfile.mkdtemp(prefix=f".build-{name}-", dir=lexicons_dir()))
    _held[folder] = lock_file(folder / BUILD_LOCK, wait=True)
    return folder


def _release(folder: Path) -> None:
    fd = _held.pop(folder, -1)
    if fd >= 0:
        os.close(fd)
    (folder / BUILD_LOCK).unlink(missing_ok=True)


def remove_stale_builds() -> list[str]:
    """Remove the build folders no running build holds (a build killed, kill -9 or a power
    cut, leaves its folder: 14 MB for ENABLE); the names of those removed."""

    removed = []
    for folder in sorted(lexicons_dir().glob(".build-*")):
        if not folder.is_dir() or folder in _held:
            continue
        lock = folder / BUILD_LOCK
        if lock.exists():
            fd = lock_file(lock, wait=False)
            if fd < 0:
                continue  # a build is running in it now
            os.close(fd)
        elif time.time() - folder.stat().st_mtime < UNLOCKED_GRACE_SECONDS:
            continue  # a build between making its folder and locking it, or an older lexitrain's, running
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder.name)
    return removed


def publish(name: str, build_dir: Path, manifest: dict[str, Any]) -> None:
    """Make a finished build the current lexicon NAME, atomically; the folders it replaces are removed
    but for those a program reads (`hold`: a running server keeps the lexicon it opened)."""
    folder = Path(tempfile.mkdtemp(prefix=f"{name}.", dir=lexicons_dir()))
    folder.rmdir()
    _release(build_dir)
    reading = lock_file(build_dir, shared=True, folder=True)  # until its manifest names it: no build removes it
    build_dir.rename(folder)
    manifest = {**manifest, "dir": folder.name}
    tmp = manifest_path(name).with_suffix(".json.tmp")
    tmp.write_text(json.dumps(manifest, indent=2, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, manifest_path(name))
    current = (read_manifest(name) or {}).get("dir")  # (another build of the name may have published since)
    for other in lexicons_dir().glob(f"{name}.*"):  # the folder replaced, and any kept before while read
        if other.is_dir() and other.name not in (folder.name, current):
            _remove_unread(other)
    if reading >= 0:
        os.close(reading)


def hold(folder: Path, reader: object) -> bool:
    """Keep a published lexicon folder while READER (the lexicon opened from it) lives: a shared lock on it,
    so that a build of its name elsewhere leaves it in place (before, `lexicon build` beside a running `serve`
    deleted the folder under it: its next search failed, 500). False where the folder is gone (replaced since
    its manifest was read)."""
    try:
        fd = lock_file(folder, shared=True, folder=True)
    except FileNotFoundError:
        return False
    if not folder.is_dir():  # removed while its lock was awaited
        if fd >= 0:
            os.close(fd)
        return False
    if fd >= 0:
        weakref.finalize(reader, os.close, fd)
    return True


def _remove_unread(folder: Path) -> None:
    """Delete a folder no manifest names, unless a program reads it (`hold`); a later build of the name
    removes it once nobody does."""
    try:
        fd = lock_file(folder, wait=False, folder=True)
    except FileNotFoundError:
        return
    if fd < 0 and sys.platform != "win32":
        return  # read by a program
    shutil.rmtree(folder, ignore_errors=True)
    if fd >= 0:
        os.close(fd)


def discard(build_dir: Path) -> None:
    _release(build_dir)
    shutil.rmtree(build_dir, ignore_errors=True)


def remove(name: str) -> str:
    """Delete a compiled lexicon (the manifest first, so it vanishes at once);
    the name it had, as it was compiled (NAME is compared without case)."""
    manifest = read_manifest(name)
    if manifest is None:
        raise LexitrainError(f"no compiled lexicon named {name!r}")
    stored = stored_name(name)
    manifest_path(stored).unlink()
    _remove_unread(lexicons_dir() / manifest["dir"])
    return stored


def lexicon_folder(manifest: dict[str, Any]) -> Path:
    return lexicons_dir() / manifest["dir"]
