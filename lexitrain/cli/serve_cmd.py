"""`lexitrain serve`: the club server for many members, and its invitations and admins (docs/club.md)."""

from __future__ import annotations

import time

import typer

from lexitrain.cli.options import Lexicon

serve_app = typer.Typer(name="serve", invoke_without_command=True, no_args_is_help=False,
                        help="A club server: members, leaderboards and the daily challenge over the JSON API.")

Database = typer.Option(..., "--database", help="The club's database: an SQLite file (one machine), or a "
                        "postgresql:// URL (several serve processes over one club).")


@serve_app.callback()
def serve(
    context: typer.Context,
    *,
    database: str = typer.Option(None, "--database", help="The club's database: an SQLite file (one machine), or "
                                 "a postgresql:// URL (several serve processes over one club)."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to bind (behind a reverse proxy: 127.0.0.1)."),
    port: int = typer.Option(8770, "--port", help="Port to serve on (0: any free one)."),
    public_url: str = typer.Option(None, "--public-url", help="The address members use, e.g. https://club.example.org "
                                   "(https: session cookies are sent over TLS only)."),
    pool: int = typer.Option(10, "--pool", help="Most PostgreSQL connections this process holds."),
    trusted_proxy: list[str] = typer.Option([], "--trusted-proxy", help="The address (or network, e.g. 10.0.0.0/8) "
                                            "of a reverse proxy whose X-Forwarded-For names the client; repeat for "
                                            "several. Without it, a request's address is its connection's own."),
    lexicon: Lexicon,
) -> None:
    """Serve the club (see `serve invite` and `serve admin` to let members in)."""
    if context.invoked_subcommand is not None:
        return
    if database is None:
        raise typer.BadParameter("give the club's database: --database FILE or --database postgresql://...",
                                 param_hint="--database")

    from lexitrain.club.app import Club
    from lexitrain.club.store import ClubDatabase
    from lexitrain.club.server import check_serving, serve as run
    from lexitrain.lexicon.catalog import open_lexicon

    check_serving(public_url, trusted_proxy)
    lex = open_lexicon(lexicon)
    with ClubDatabase(database, pool_size=pool) as db:
        club = Club(db, lex, public_url=public_url, clock=time.time)
        club.sets.get("sevens", club.today())  # (today's usual set worked out before the first member asks)
        run(club, host, port, lambda link: typer.echo(f"lexitrain serve: {link} ({lex.name}, {db.dialect}; "
                                                      "Ctrl-C stops it)"), trusted_proxy)


@serve_app.command("invite")
def invite(database: str = Database) -> None:
    """Print a one-time invitation code for a new member."""

    from lexitrain.club.store import ClubDatabase
    from lexitrain.club.members import make_invite

    with ClubDatabase(database, pool_size=1) as db:
        typer.echo(make_invite(db, time.time()))


@serve_app.command("admin")
def admin(name: str = typer.Argument(..., help="The member to make an admin."), database: str = Database) -> None:
    """Make a member an admin (they may invite, reset passwords and remove members)."""
    from lexitrain.club.store import ClubDatabase
    from lexitrain.club.members import make_admin

    with ClubDatabase(database, pool_size=1) as db:
        make_admin(db, name)
    typer.echo(f"{name} is an admin")
