"""Child processes that end with the process that started them, however it ends.

A worker forked or spawned beside the main work (a lexicon build's writers, the web app's sheet
process) must not run on once its parent is gone: it would write into a folder nobody will publish
and hold that folder's lock, so the next build cannot sweep it. `kill -9` runs no clean-up of the
parent's, so the kernel is asked to end the child instead.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

#: Linux's prctl option: the signal a process gets when its parent dies.
_PR_SET_PDEATHSIG = 1


def end_with_parent(parent: int) -> None:
    """Called first thing in a child (PARENT: the starter's pid): the child is killed the moment its parent
    dies (Linux's PR_SET_PDEATHSIG; elsewhere the parent's own ending is what ends it), and a child whose
    parent died before this line ends now."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):  # (no C library to ask)
            pass
    if os.getppid() != parent:
        os._exit(1)
