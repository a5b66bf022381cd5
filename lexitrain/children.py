"""Child processes that end with the process that started them, however it ends, are forked only
where forking is safe, and number no more than the cores this process may run on.

A worker forked or spawned beside the main work (a lexicon build's writers, the web app's sheet
process) must not run on once its parent is gone: it would write into a folder nobody will publish
and hold that folder's lock, so the next build cannot sweep it. `kill -9` runs no clean-up of the
parent's, so the kernel is asked to end the child instead.
"""

from __future__ import annotations

import os
import signal
import sys
import threading

#: Linux's prctl option: the signal a process gets when its parent dies.
_PR_SET_PDEATHSIG = 1


def end_with_parent(parent: int) -> None:
    """Called first thing in a child (PARENT: the starter's pid): the child is killed the moment its parent
    dies (Linux's PR_SET_PDEATHSIG; elsewhere the parent's own ending is what ends it), and a child whose
    parent died before this line ends now. Ctrl-C at a terminal reaches every process of the group: the child
    leaves it to the parent, which ends it, rather than stopping on its own with a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        import ctypes  # (here, in the child: `usable_cores` is asked as the CLI starts, and ctypes costs 2 ms)

        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):  # (no C library to ask)
            pass
    if os.getppid() != parent:
        os._exit(1)


def may_fork() -> bool:
    """Whether this process may fork a worker: it can, and runs no other thread (a fork copies only the forking
    thread: a lock another thread holds at that moment, the import system's, SQLite's, stays held in the child
    for ever; a CI run hung so, a build's child forked beside a web app's threads). Where not, the work runs here."""
    return hasattr(os, "fork") and threading.active_count() == 1


def usable_cores() -> int:
    """The cores this process may run on: its CPU affinity where the system keeps one (a container or
    `taskset` may allow fewer than the machine has, and threads or workers beyond them only take turns),
    else every core. The default of every `--threads` and `--jobs`."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1
