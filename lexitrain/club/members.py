"""A club's members: invitations, sign-up, passwords, logins and their sessions, the login throttle.

Passwords are kept only as argon2id hashes (argon2-cffi); invitation codes and session tokens only
as SHA-256 digests, so a copy of the database lets no one in. A session is a random token in an
HttpOnly cookie plus a CSRF token the member's writes send back in a header; both live in the
database, so any `serve` process recognises them. Failed logins are counted per name and per
address over a window: past the limit, logins are refused (429) until the window moves on, right
password or not, which is what slows a guessing flood.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lexitrain.club.store import ClubDatabase
from lexitrain.errors import LexitrainError
from lexitrain.web.edge import Refused

if TYPE_CHECKING:
    from argon2 import PasswordHasher

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,31}")
SHORTEST_PASSWORD = 8
LONGEST_PASSWORD = 1024  # (argon2 would take any length; a bound keeps a request's cost bounded)
SESSION_DAYS = 30
#: Failed logins allowed per name, and per address, within the window before logins are refused.
FAILURES_PER_NAME = 5
FAILURES_PER_ADDRESS = 20
FAILURE_WINDOW = 15 * 60.0


@dataclass(frozen=True)
class Member:
    id: int
    name: str
    admin: bool


@dataclass(frozen=True)
class Login:
    """A new session: the cookie's value (given once, never stored) and its CSRF token."""

    member: Member
    token: str
    csrf: str


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


def log_in(db: ClubDatabase, name: str, password: str, address: str, now: float) -> Login:
    """A new session for the right name and password; wrong is 401, too many failures lately 429."""
    since = now - FAILURE_WINDOW
    with db.reading() as store:
        by_name, by_address = store.login_failures(name[:64], address, since)
        found = store.member_with_password(name)
    if by_name >= FAILURES_PER_NAME or by_address >= FAILURES_PER_ADDRESS:
        raise Refused(429, "too many failed logins: wait a few minutes and try again")
    if not _verified(found[1] if found else None, password):
        with db.reading() as store:
            store.add_login_failure(name[:64], address, now, since)
        raise Refused(401, "wrong name or password")
    assert found is not None
    member = Member(*found[0])
    token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
    with db.reading() as store:
        store.add_login(digest(token), member.id, csrf, now + SESSION_DAYS * 86400.0, now)
    return Login(member, token, csrf)


#: Verified against when the name is unknown, so a wrong name takes as long as a wrong password.
_DUMMY_HASH: list[str] = []


def _verified(hashed: str | None, password: str) -> bool:
    from argon2.exceptions import InvalidHashError, VerificationError

    hasher = _hasher()
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


def log_out(db: ClubDatabase, token: str) -> None:
    with db.reading() as store:
        store.end_login(digest(token))


def reset_password(db: ClubDatabase, name: str, password: str) -> None:
    """A new password, set by an admin; the member's sessions end."""
    hashed = _hasher().hash(check_password(password))
    with db.reading() as store:
        if not store.set_password(name, hashed):
            raise Refused(404, f"no member named {name!r}")


def member_named(db: ClubDatabase, name: str) -> Member | None:
    with db.reading() as store:
        found = store.member_named(name)
    return None if found is None else Member(*found)


def remove(db: ClubDatabase, member_id: int) -> None:
    """Delete a member and everything of theirs in the club's tables (their progress store goes next:
    `club.member_study`)."""
    with db.reading() as store:
        store.remove_member(member_id)
