"""`lexitrain web`: the local web app over the same core and progress database."""

from __future__ import annotations

import typer

from lexitrain.cli.options import Lexicon

commands = typer.Typer()


@commands.command("web")
def web(
    *,
    port: int = typer.Option(8765, "--port", help="Port to serve on (0: any free one)."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to bind (anything but 127.0.0.1 is reachable "
                             "from other machines)."),
    no_browser: bool = typer.Option(False, "--no-browser", help="Print the link only; do not open a browser."),
    lexicon: Lexicon,
) -> None:
    """Word walls, the daily challenge, reviews, positions, search and stats in the browser.

    The browser is opened on a launch file in the data folder, readable by you alone, that carries
    the launch's key: no command line shows it. With --no-browser the link is printed for you."""
    from lexitrain.paths import data_home
    from lexitrain.study.drills.plans import active_plan
    from lexitrain.study.store import ProgressStore
    from lexitrain.web.context import Context
    from lexitrain.web.server import LOCAL, hosts, listen, serve, url, write_launch_file

    sock = listen(host, port)  # first: an address that cannot be used is one line, with no warning before it
    if host != LOCAL:
        typer.echo(f"warning: serving on {host}, not only this machine: anyone who gets the link can use it",
                   err=True)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    with ProgressStore() as store:
        ctx = Context(store, lexicon, hosts=hosts(sock, shown), count_apart=True)
        ctx.lex()  # an unknown lexicon is one line before the server starts (it was uvicorn's traceback)
        link = url(sock, ctx, shown)

        def ready() -> None:
            # the lexicon's study plan, which the first page sets up on a new home, set up before the count ahead: the
            # count was of the home without it, and a new player's first Stats said "still being counted" (and
            # lacked the plan's cards) though they had answered nothing
            ctx.offload.write_now(lambda store: active_plan(store, ctx.lex()))
            ctx.count_stats_ahead()  # (on its own thread: the first Stats page finds them counted)
            if no_browser:
                typer.echo(f"lexitrain web: {link}  (Ctrl-C stops it)")
                return
            ctx.launch_file = launch = write_launch_file(data_home(), link)
            typer.echo(f"lexitrain web: opening {launch}  (Ctrl-C stops it)")
            if not _open(launch.as_uri()):
                typer.echo(f"no browser could be opened here: open {launch} (or the link in it) yourself", err=True)

        serve(ctx, sock, ready)


def _open(link: str) -> bool:
    import webbrowser

    try:
        return webbrowser.open(link)
    except webbrowser.Error:
        return False
