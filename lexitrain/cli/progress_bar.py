"""A progress bar on stderr for slow work (compiling a lexicon, building its
word graph, a simulation, self-play), so stdout keeps only the command's output
(`--json` included); the one place that decides whether a bar is drawn."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, Progress as Bar, TextColumn, TimeElapsedColumn

from lexitrain.lexicon.progress import Progress, quiet


@contextmanager
def progress_bar(what: str, shown: bool = True) -> Iterator[Progress]:
    """A rich bar on stderr while the work runs, gone when it ends; none where stderr is no terminal or the
    command asks for none (SHOWN false: `--quiet`, `--json`, work that is quick): then the progress that says
    nothing."""
    if not (shown and sys.stderr.isatty()):
        yield quiet
        return
    with Bar(TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(),
             console=Console(stderr=True), transient=True, auto_refresh=False) as bar:
        task = bar.add_task(what, total=None)

        def progress(stage: str, done: int, total: int) -> None:
            # (drawn as the work reports, not by a thread of rich's own: a command stays on one thread, so its
            # builds and solvers may fork their workers, `children.may_fork`)
            bar.update(task, description=f"{what}: {stage}", completed=done, total=total, refresh=True)

        yield progress
