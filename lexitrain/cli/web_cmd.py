"""`lexitrain web`: the local web app over the same core and progress database."""

from __future__ import annotations

import typer

from lexitrain.cli.options import StudyLexicon

commands = typer.Typer()


@commands.command("web")
def web(
    *,
    port: int = typer.Option(8765, "--port", help="Port to serve on (0: any free one)."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to bind (anything but 127.0.0.1 is reachable "
                             "from other machines)."),
    no_browser: bool = typer.Option(False, "--no-browser", help="Print the link only; do not open a browser."),
    lexicon: StudyLexicon,
) -> None:
    """Word walls, the daily challenge, reviews, positions, search and stats in the browser."""
    from lexitrain.study.store import ProgressStore
    from lexitrain.web.context import Context
    from lexitrain.web.server import LOCAL, listen, serve, url

    sock = listen(host, port)  # first: an address that cannot be used is one line, with no warning before it
    if host != LOCAL:
        typer.echo(f"warning: serving on {host}, not only this machine: anyone who gets the link can use it",
                   err=True)
    with ProgressStore() as store:
        ctx = Context(store, lexicon)
        link = url(sock, ctx, "127.0.0.1" if host in ("0.0.0.0", "::") else host)

        def ready() -> None:
            typer.echo(f"lexitrain web: {link}  (Ctrl-C stops it)")
            if not no_browser:
                _open(link)

        serve(ctx, sock, ready)


def _open(link: str) -> None:
    import webbrowser

    try:
        opened = webbrowser.open(link)
    except webbrowser.Error:
        opened = False
    if not opened:
        typer.echo("no browser could be opened here: open the link above yourself", err=True)
