"""A home's link to the member's store on a club, over HTTPS: the other store of `lexitrain sync`.

The link speaks the club's sync calls (`club.sync`: plain JSON, the member's session cookie, and the
session's CSRF token on a write) and keeps the session in the home (`club-sessions.json`, readable by
the player alone), so the password is asked once; `forget` ends the session on the club (it can no
longer be used from anywhere) and deletes it here. A password goes only over HTTPS (or to this
machine itself: a club served on localhost for a try). What the link sent and received is counted
in bytes.
"""

from __future__ import annotations

import json
import ssl
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from http.cookies import CookieError, SimpleCookie
from pathlib import Path
from typing import Any

from lexitrain.errors import LexitrainError
from lexitrain.paths import data_home, write_atomically
from lexitrain.study.store.exchange import club_peer, peer_club

#: The header a write carries the session's CSRF token in (the club's `members.CSRF_HEADER`).
CSRF_HEADER = "X-CSRF-Token"
#: How long a call may take before the club is taken for unreachable.
TIMEOUT_SECONDS = 120.0
#: The largest answer read from a club (a page of changes is a few megabytes).
MOST_BYTES = 256 << 20
_LOOPBACK = {"localhost", "127.0.0.1", "::1"}


class LoginNeeded(LexitrainError):
    """No session kept for this club and member, or the club no longer takes it: log in (once)."""


class Unreachable(LexitrainError):
    """No answer from the address at all (refused, timed out, no TLS there)."""


@dataclass(frozen=True)
class Session:
    cookie: str  # name=value, as the club set it
    csrf: str


def club_address(url: str) -> str:
    """A club's address as the link uses it: http(s)://host[:port][/path], no trailing slash; a one-line
    error for one that is not, or for plain http to another machine (the password would travel in clear)."""
    parts = urllib.parse.urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise LexitrainError(f"{url!r} is not a club's address (expected e.g. https://club.example.org)")
    if parts.scheme == "http" and not _loopback(url):
        raise LexitrainError(f"{url}: a club is reached over https:// (a password sent over http:// travels in clear)")
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))


class ClubLink:
    """The member's store on a club (a sync's `Peer`), reached with the session kept in the home."""

    def __init__(self, url: str, member: str) -> None:
        self.url = club_address(url)
        self.member = member
        self.sent_bytes = 0
        self.received_bytes = 0
        self.session = _sessions().get(self.name)

    @property
    def name(self) -> str:
        return club_peer(self.url, self.member)

    def log_in(self, password: str) -> None:
        """Start a session on the club (one line if the club refuses the name or password, or the address is
        not a club's) and keep it here."""
        if not self._is_club():
            root = urllib.parse.urlunsplit(urllib.parse.urlsplit(self.url)[:2] + ("", "", ""))
            if root != self.url and ClubLink(root, self.member)._is_club():
                raise LexitrainError(f"{self.url} is not a lexitrain club's address: it is a page of the club at {root} "
                                     "(give that)")
            raise LexitrainError(f"{self.url} is not a lexitrain club's address (give the address the club's page "
                                 "opens at, e.g. https://club.example.org)")
        raw, headers = self._call("POST", "/api/session", {"name": self.member, "password": password}, anonymous=True)
        cookie = _session_cookie(headers.get_all("Set-Cookie") or [])
        if cookie is None or not isinstance(raw.get("csrf"), str):
            raise LexitrainError(f"{self.url}: the club's login answered without a session: is this a lexitrain club?")
        self.session = Session(cookie, raw["csrf"])
        kept = _sessions()
        kept[self.name] = self.session
        _save_sessions(kept)

    def _is_club(self) -> bool:
        """Whether a lexitrain club answers here: its anonymous `GET /api/session` (no password sent yet;
        a page's address, a page of a club's included, answered a login with that page's refusal)."""
        try:
            said = self._call("GET", "/api/session", None, anonymous=True)[0]
        except Unreachable:
            raise
        except LexitrainError:
            return False
        return "member" in said and "lexicon" in said

    def forget(self) -> bool:
        """End the session on the club (if it still holds it) and delete it here; whether one was kept."""
        if self.session is None:
            return False
        try:
            self._call("DELETE", "/api/session", None)
        except LoginNeeded:
            pass  # (the club had ended it already)
        kept = _sessions()
        kept.pop(self.name, None)
        _save_sessions(kept)
        self.session = None
        return True

    def identity(self) -> dict[str, Any]:
        answer = self._call("GET", "/api/sync", None)[0]
        if not isinstance(answer.get("store"), str) or not isinstance(answer.get("last"), int):
            raise LexitrainError(f"{self.url}: the club's sync answered {str(answer)[:80]!r}: is this a lexitrain club?")
        return answer

    def take(self, page: dict[str, Any], since: int) -> dict[str, Any]:
        return self._call("POST", "/api/sync/push", {"since": since, "page": page})[0]

    def changes(self, since: int, limit: int, skip: Sequence[tuple[int, int]] = ()) -> dict[str, Any]:
        ranges = ",".join(f"{int(first)}-{int(last)}" for first, last in skip)
        return self._call("GET", f"/api/sync/changes?since={int(since)}&limit={int(limit)}"
                          + (f"&skip={ranges}" if ranges else ""), None)[0]

    def done(self, home: str, label: str, through: int) -> None:
        self._call("POST", "/api/sync/done", {"home": home, "label": label[:100], "through": through})

    def _call(self, method: str, path: str, body: dict[str, Any] | None,
              anonymous: bool = False) -> tuple[dict[str, Any], Any]:
        """One call to the club (in the member's session unless ANONYMOUS): its JSON answer and headers; a
        refusal or a failure as one line."""
        using = None if anonymous else self.session
        if not anonymous and using is None:
            raise LoginNeeded(f"{self.url}: not logged in as {self.member}")
        data = None if body is None else json.dumps(body, separators=(",", ":")).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if using is not None:
            request.add_header("Cookie", using.cookie)
            request.add_header(CSRF_HEADER, using.csrf)
        self.sent_bytes += len(data or b"")
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
                raw = response.read(MOST_BYTES + 1)
                headers = response.headers
        except urllib.error.HTTPError as exc:
            message = _error_message(exc)
            if exc.code == 401 and using is not None:
                raise LoginNeeded(f"{self.url}: the session as {self.member} has ended ({message})") from None
            raise LexitrainError(f"{self.url}: {message} ({exc.code})") from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            if isinstance(reason, ssl.SSLError) and reason.reason == "WRONG_VERSION_NUMBER":
                raise Unreachable(f"{self.url}: the server there answers plain http, not https"
                                  + (" (a club on this machine is reached at http://)" if _loopback(self.url) else "")
                                  ) from None
            raise Unreachable(f"{self.url}: cannot reach the club ({reason}); nothing more was sent") from None
        self.received_bytes += len(raw)
        if len(raw) > MOST_BYTES:
            raise LexitrainError(f"{self.url}: the club's answer is larger than {MOST_BYTES >> 20} MB")
        try:
            answer = json.loads(raw)
        except ValueError:
            raise LexitrainError(f"{self.url}{path}: the club did not answer JSON: is this a lexitrain club?") from None
        if not isinstance(answer, dict):
            raise LexitrainError(f"{self.url}{path}: the club answered {str(answer)[:60]!r}, not an object")
        return answer, headers


def _loopback(url: str) -> bool:
    """Whether the address is this machine's own (plain http allowed)."""
    return urllib.parse.urlsplit(url.strip()).hostname in _LOOPBACK


def saved_links() -> list[tuple[str, str]]:
    """(club address, member) of every session kept in this home."""
    return [link for link in map(peer_club, sorted(_sessions())) if link is not None]


def _error_message(exc: urllib.error.HTTPError) -> str:
    try:
        said = json.loads(exc.read(64 << 10))
        return str(said.get("error", exc.reason)) if isinstance(said, dict) else str(exc.reason)
    except (ValueError, OSError):
        return str(exc.reason)


def _session_cookie(headers: list[str]) -> str | None:
    for header in headers:
        cookie = SimpleCookie()
        try:
            cookie.load(header)
        except CookieError:
            continue
        for name, morsel in cookie.items():
            if morsel.value:
                return f"{name}={morsel.value}"
    return None


def _sessions_path() -> Path:
    return data_home() / "club-sessions.json"


#: The sessions file as last read: (its path, inode, size and change time) and what it held. The local app's home
#: page asks on every view: the file is read again only when it has changed (a login, a logout, another home's).
_read: tuple[tuple[str, int, int, int], dict[str, Session]] | None = None


def _sessions() -> dict[str, Session]:
    global _read
    path = _sessions_path()
    try:
        seen = path.stat()
    except OSError:  # (gone: none kept; unreadable: said in one line as it is read)
        return _load_sessions(path)
    version = (str(path), seen.st_ino, seen.st_size, seen.st_mtime_ns)
    if _read is None or _read[0] != version:
        _read = (version, _load_sessions(path))
    return dict(_read[1])


def _load_sessions(path: Path) -> dict[str, Session]:
    """The sessions kept in the file at PATH (none when it is gone)."""
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise LexitrainError(f"{path}: the kept club sessions cannot be read ({exc}); delete it and log in "
                             "again") from None
    if not isinstance(kept, dict):
        return {}
    return {name: Session(str(s.get("cookie", "")), str(s.get("csrf", ""))) for name, s in kept.items()
            if isinstance(s, dict)}


def _save_sessions(kept: dict[str, Session]) -> None:
    """Write the sessions readable by the player alone, replacing the file whole."""
    text = json.dumps({name: {"cookie": s.cookie, "csrf": s.csrf} for name, s in kept.items()}, indent=1)
    write_atomically(_sessions_path(), text)  # (its temporary file, and so the file, made 0600)
