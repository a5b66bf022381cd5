"""A club's members: invitations, sign-up, passwords, logins and their sessions, the login throttle.

Passwords are kept only as argon2id hashes (argon2-cffi); invitation codes and session tokens only
as SHA-256 digests, so a copy of the database lets no one in. A session is a random token in an
HttpOnly cookie plus a CSRF token the member's writes send back in a header; both live in the
database, so any `serve` process recognises them.

The throttle counts password checks, before each is made, in the database (one statement per count, so
checks racing each other are counted one by one, whichever process serves them): per name and per client
address. Past their free checks, each further one waits, first FIRST_WAIT, then twice as long each time up
to LONGEST_WAIT (429 until then): forty guesses at once get five argon2 checks of a name, and a guessing
flood slows to one check every fifteen minutes. No one can lock a member out: a browser the member logged in
from carries a cookie (`lexitrain_device`) whose checks are counted on their own, so failures of others, of
the name or from the same address, never delay them. A member id is never given twice.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lexitrain.club.store import ClubDatabase, ClubStore
from lexitrain.errors import LexitrainError
from lexitrain.web.edge import Refused

if TYPE_CHECKING:
    from argon2 import PasswordHasher

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,31}")
SHORTEST_PASSWORD = 8
LONGEST_PASSWORD = 1024  # (argon2 would take any length; a bound keeps a request's cost bounded)
SESSION_DAYS = 30
#: How long a browser the member logged in from is known by its cookie.
DEVICE_DAYS = 365
#: Password checks a name (or a member's known browser) and a client address have before each further one waits.
FREE_CHECKS_PER_NAME = 5
FREE_CHECKS_PER_ADDRESS = 20
#: The first wait past them; each further check doubles it, up to the longest.
FIRST_WAIT = 30.0
LONGEST_WAIT = 15 * 60.0
#: Checks last made this long ago are forgotten (the count starts again).
FORGET_AFTER = 24 * 3600.0
#: argon2id hashes a process computes at once (each takes 64 MiB while it runs: eight members logging in at
#: once took a process past 450 MB); the others wait their turn.
HASHES_AT_ONCE = 2
_HASHING = threading.BoundedSemaphore(HASHES_AT_ONCE)


@dataclass(frozen=True)
class Member:
    id: int
    name: str
    admin: bool


@dataclass(frozen=True)
class Login:
    """A new session: the cookie's value (given once, never stored), its CSRF token, and the browser's cookie
    (`device`: the one it sent when it is this member's already, else a new one)."""

    member: Member
    token: str
    csrf: str
    device: str


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def _hasher() -> PasswordHasher:
    """argon2id at the library's recommended cost (imported here: the club extra may be missing)."""
    try:
        from argon2 import PasswordHasher
    except ImportError:
        raise LexitrainError("the club server needs the club extra: pip install 'lexitrain[club]'") from None
    return PasswordHasher()


def check_name(name: str) -> str:
    if not NAME.fullmatch(name):
        raise Refused(400, f"bad member name {name[:40]!r}: 1-32 letters, digits, '_', '.' or '-', "
                           "starting with a letter or digit")
    return name


def check_password(password: str) -> str:
    if not SHORTEST_PASSWORD <= len(password) <= LONGEST_PASSWORD:
        raise Refused(400, f"a password has {SHORTEST_PASSWORD} to {LONGEST_PASSWORD} characters")
    return password


def make_invite(db: ClubDatabase, now: float) -> str:
    """A new one-time invitation code (only its digest is stored)."""
    code = secrets.token_urlsafe(12)
    with db.reading() as store:
        store.add_invite(digest(code), now)
    return code


def sign_up(db: ClubDatabase, name: str, password: str, invite: str, now: float) -> Member:
    """A new member, using up the invitation: an unknown or used one is refused (403), a taken name
    too (409, and the invitation stays unused)."""
    check_name(name)
    with _HASHING:
        hashed = _hasher().hash(check_password(password))
    with db.transaction() as store:
        if not store.use_invite(digest(invite), now):
            raise Refused(403, "this invitation is unknown or was used already")
        member_id = store.add_member(name, hashed, now, digest(invite))
        if member_id is None:
            raise Refused(409, f"the name {name!r} is taken")
    return Member(member_id, name, admin=False)


def make_admin(db: ClubDatabase, name: str) -> None:
    with db.reading() as store:
        if not store.set_admin(name):
            raise LexitrainError(f"no member named {name!r}")


def log_in(db: ClubDatabase, name: str, password: str, address: str, now: float, device: str | None = None) -> Login:
    """A new session for the right name and password; wrong is 401. The check is counted first (see the
    module's docstring): against the member's own browser when DEVICE is its cookie, else against the name and
    the ADDRESS; one that must wait is 429, saying how long, and no password is checked."""
    name = name[:64]
    with db.transaction() as store:
        known = device is not None and store.device_of(digest(device), name)
        keys = [(f"device:{digest(device)}", FREE_CHECKS_PER_NAME)] if known and device is not None else [
            (f"name:{name}", FREE_CHECKS_PER_NAME), (f"address:{address}", FREE_CHECKS_PER_ADDRESS)]
        _reserve_checks(store, keys, now)
        found = store.member_with_password(name)
    if not _verified(found[1] if found else None, password):
        raise Refused(401, "wrong name or password")
    assert found is not None
    member = Member(*found[0])
    token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
    browser = device if known and device is not None else secrets.token_urlsafe(24)
    with db.transaction() as store:
        store.forget_checks(keys[0][0])
        for key, _free in keys[1:]:  # (a right password costs its address nothing: a club's room shares one)
            store.give_back_check(key)
        store.add_login(digest(token), member.id, csrf, now + SESSION_DAYS * 86400.0, now)
        store.add_device(digest(browser), member.id, now)
    return Login(member, token, csrf, browser)


def _reserve_checks(store: ClubStore, keys: list[tuple[str, int]], now: float) -> None:
    """Count one password check against each (key, free checks) before it is made; 429, saying how long, when
    one of them must wait (the caller's transaction then counts nothing)."""
    for key, free in keys:
        if not store.reserve_check(key, now, free, FIRST_WAIT, LONGEST_WAIT, now - FORGET_AFTER):
            wait = max(0.0, (store.next_check(key) or now) - now)
            raise Refused(429, f"too many wrong passwords lately: try again in {_duration(wait)}")


def change_password(db: ClubDatabase, member: Member, token: str, current: str, password: str,
                    now: float) -> dict[str, Any]:
    """A member's own new PASSWORD (the sign-up's rules), once their CURRENT one is verified: every other session of
    theirs ends, the one whose cookie is TOKEN stays. The check is counted first, against this session alone (a
    stolen session's guesses slow down that session, and never keep the member from changing it elsewhere): 429
    when it must wait; a wrong current password is 403 (401 would tell the page the session had ended). The
    notice that closes the ended sessions' sockets."""
    check_password(password)
    key = f"session:{digest(token)}"
    with db.transaction() as store:
        _reserve_checks(store, [(key, FREE_CHECKS_PER_NAME)], now)
        found = store.member_with_password(member.name)
    if found is None or not _verified(found[1], current):
        raise Refused(403, "the current password is wrong")
    with _HASHING:
        hashed = _hasher().hash(password)
    with db.transaction() as store:
        store.forget_checks(key)
        ended = store.change_own_password(member.id, found[1], hashed, digest(token))
    if ended is None:  # (the password verified is not the member's now, or this session ended, since the check)
        raise Refused(409, "your password was changed meanwhile (elsewhere or by an admin): nothing was changed")
    return ended


def _duration(seconds: float) -> str:
    whole = max(1, round(seconds))
    return f"{whole} seconds" if whole < 120 else f"{round(whole / 60)} minutes"


#: Verified against when the name is unknown, so a wrong name takes as long as a wrong password.
_DUMMY_HASH: list[str] = []


def _verified(hashed: str | None, password: str) -> bool:
    from argon2.exceptions import InvalidHashError, VerificationError

    hasher = _hasher()
    with _HASHING:
        if hashed is None:
            if not _DUMMY_HASH:
                _DUMMY_HASH.append(hasher.hash(secrets.token_urlsafe(16)))
            hashed = _DUMMY_HASH[0]
            password = password + "\0"  # (never equal to the dummy's random password)
        try:
            return bool(hasher.verify(hashed, password))
        except (VerificationError, InvalidHashError):
            return False


def session_member(db: ClubDatabase, token: str | None, now: float) -> tuple[Member, str] | None:
    """The member a session cookie belongs to and the session's CSRF token, or None (no cookie, unknown,
    expired)."""
    if not token:
        return None
    with db.reading() as store:
        found = store.session(digest(token), now)
    return None if found is None else (Member(*found[0]), found[1])


def session_of(db: ClubDatabase, session: str, now: float) -> int | None:
    """The member of the session whose token has this digest (None: it ended or expired): a socket's session
    checked again."""
    with db.reading() as store:
        found = store.session(session, now)
    return None if found is None else found[0][0]


def log_out(db: ClubDatabase, token: str) -> dict[str, Any]:
    """End the session: the notice that closes the sockets it opened (`club.events`)."""
    with db.reading() as store:
        return store.end_login(digest(token))


def reset_password(db: ClubDatabase, name: str, password: str) -> dict[str, Any]:
    """A new password, set by an admin; the member's sessions end: the notice that closes their sockets."""
    if not NAME.fullmatch(name):  # (no such member: nor is a NUL sent to PostgreSQL, which refuses it)
        raise Refused(404, f"no member named {name[:40]!r}")
    with _HASHING:
        hashed = _hasher().hash(check_password(password))
    with db.reading() as store:
        ended = store.set_password(name, hashed)
    if ended is None:
        raise Refused(404, f"no member named {name!r}")
    return ended


def member_named(db: ClubDatabase, name: str) -> Member | None:
    """The member of that name (None: none, or a name no member could have)."""
    if not NAME.fullmatch(name):
        return None
    with db.reading() as store:
        found = store.member_named(name)
    return None if found is None else Member(*found)


def roll(db: ClubDatabase) -> list[dict[str, Any]]:
    """The club's members as an admin's page lists them: `{"member", "admin", "joined"}` (a Unix time), by name."""
    with db.reading() as store:
        return [{"member": name, "admin": admin, "joined": joined} for name, admin, joined in store.all_members()]


def remove(db: ClubDatabase, member_id: int, now: float) -> dict[str, Any]:
    """Delete a member and everything of theirs in the club's tables, in one transaction that also notes that
    their store is still to be deleted (`end_removal` once it is; a server starting finishes what a crash left).
    The notice that closes their sockets."""
    with db.reading() as store:
        return store.remove_member(member_id, now)


def end_removal(db: ClubDatabase, member_id: int) -> None:
    """The removed member's store and folder are gone: nothing of the removal is left to do."""
    with db.reading() as store:
        store.end_removal(member_id)


def unfinished_removals(db: ClubDatabase) -> list[int]:
    with db.reading() as store:
        return store.removals()


def give_ids_above(db: ClubDatabase, highest: int) -> None:
    """Never give a member id at or below HIGHEST (a member's store or folder is there under it)."""
    with db.reading() as store:
        store.give_ids_above(highest)
