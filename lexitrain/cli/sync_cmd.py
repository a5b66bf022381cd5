"""`lexitrain sync`: this home and the member's progress on a club made one, both ways (docs/sync.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from lexitrain.cli.options import Json
from lexitrain.cli.output import emit_json
from lexitrain.errors import LexitrainError

commands = typer.Typer()


@commands.command("sync")
def sync_command(
    url: Optional[str] = typer.Argument(None, help="The club's address, e.g. https://club.example.org (left out: the "
                                        "club this home keeps a session with)."),
    *,
    name: Optional[str] = typer.Option(None, "--name", help="Your member name on the club."),
    password_file: Optional[Path] = typer.Option(None, "--password-file", help="Read the password from the first line "
                                                 "of this file (else it is asked once, when no session is kept)."),
    home: Optional[Path] = typer.Option(None, "--home", help="Sync with another home folder instead of a club (a "
                                        "second account's LEXITRAIN_HOME, a USB stick, a shared folder)."),
    forget: bool = typer.Option(False, "--forget", help="End the kept session on the club (the club's, or every one "
                                "kept) and delete it here; nothing is synced."),
    json_output: Json = False,
) -> None:
    """Sync this home's progress with your progress on a club, both ways: every answer given on either
    side counted once, every card rescheduled from all its answers in time order. The password is asked
    once; the session is kept in the home until `lexitrain sync --forget`. With --home, the other store
    is another home's folder."""
    from lexitrain.study.records.club_link import ClubLink, LoginNeeded, saved_links
    from lexitrain.study.records.sync import sync_home, sync_homes
    from lexitrain.study.store import ProgressStore

    if home is not None:
        if url or name or forget or password_file:
            raise LexitrainError("--home syncs with another home's folder: give no club address, --name, "
                                 "--password-file or --forget with it")
        with ProgressStore() as store:
            done = sync_homes(store, home.expanduser())
        if json_output:
            emit_json(done.to_json())
        else:
            typer.echo(done.said(f"the home {home}"))
        return

    kept = saved_links()
    if forget:
        chosen = [_which(url, name, kept)] if url or name else kept
        forgotten = [(club, member) for club, member in chosen if ClubLink(club, member).forget()]
        if json_output:
            emit_json({"forgotten": [{"club": club, "name": member} for club, member in forgotten]})
        else:
            for club, member in forgotten:
                typer.echo(f"forgot the session as {member} on {club}")
            if not forgotten:
                typer.echo("no club session was kept")
        return
    club, member = _which(url, name, kept)
    link = ClubLink(club, member)
    with ProgressStore() as store:
        if link.session is None:
            link.log_in(_password(password_file, club, member))
        try:
            done = sync_home(store, link, link.name)
        except LoginNeeded:
            link.log_in(_password(password_file, club, member))
            done = sync_home(store, link, link.name)
    if json_output:
        emit_json(done.to_json())
        return
    typer.echo(done.said(f"{member} on {club}"))


def _which(url: str | None, name: str | None, kept: list[tuple[str, str]]) -> tuple[str, str]:
    """The club and member named, or the one session kept when neither is given."""
    from lexitrain.study.records.club_link import club_address

    if url is not None and name is not None:
        return club_address(url), name
    matching = [(c, m) for c, m in kept if (url is None or c == club_address(url)) and (name is None or m == name)]
    if len(matching) == 1:
        return matching[0]
    if not kept or url is not None:
        raise LexitrainError("give the club's address and your member name: lexitrain sync URL --name NAME")
    raise LexitrainError("sessions are kept with " + ", ".join(f"{m} on {c}" for c, m in kept)
                         + ": give the club's address and --name")


def _password(path: Path | None, club: str, member: str) -> str:
    """The password: the first line of PATH, or asked once (not echoed)."""
    if path is None:
        return str(typer.prompt(f"password for {member} on {club}", hide_input=True))
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise LexitrainError(f"{path}: cannot read the password ({getattr(exc, 'strerror', None) or exc})") from None
    if not lines or not lines[0]:
        raise LexitrainError(f"{path}: the first line (the password) is empty")
    return lines[0]
