"""A progress bar on stderr for slow work (compiling a lexicon, building its
word graph), so stdout keeps only the command's output (`--json` included)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, Progress as Bar, TextColumn, TimeElapsedColumn

from lexitrain.lexicon.progress import Progress


@contextmanager
def progress_bar(what: str) -> Iterator[Progress]:
    """A rich bar on stderr while the work runs, gone when it ends."""
    with Bar(TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(),
             console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(what, total=None)

        def progress(stage: str, done: int, total: int) -> None:
            bar.update(task, description=f"{what}: {stage}", completed=done, total=total)

        yield progress
