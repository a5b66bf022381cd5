"""How slow first-use work reports its progress, without printing anything here.

A compile of an embedded lexicon on first use, or a word graph built for a
lexicon compiled before graphs were part of a build, takes seconds: the face
(the CLI) installs a reporter that draws it (`report_first_use`), and the
core wraps such work in `first_use(what)`, which gives a progress callback.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from typing import Callable

#: stage, steps done, steps in all
Progress = Callable[[str, int, int], None]
#: what -> a context in which the work runs, giving its progress callback
Reporter = Callable[[str], AbstractContextManager[Progress]]


def quiet(stage: str, done: int, total: int) -> None:
    """The progress callback that says nothing."""


_reporter: Reporter | None = None


def report_first_use(reporter: Reporter | None) -> None:
    """Install (or with None, remove) the reporter of first-use work."""
    global _reporter
    _reporter = reporter


def first_use(what: str) -> AbstractContextManager[Progress]:
    """Run slow first-use work inside this: `with first_use("...") as progress:`."""
    return _reporter(what) if _reporter else nullcontext(quiet)
