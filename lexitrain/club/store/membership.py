"""Members, their invitations, sessions and browsers, removals, and the password checks the throttle counts:
the statements.

What they mean (hashing, the throttle's limits, who may do what) is `club.members`'; here is only how
they are kept. A write that reads first is one conditional statement.
"""

from __future__ import annotations

from typing import Any

from lexitrain.club.store.shared_walls import announce
from lexitrain.study.store.connection import StoreConnection

#: A member as read: id, name, whether an admin.
MemberRow = tuple[int, str, bool]


class Membership(StoreConnection):
    def add_invite(self, code_hash: str, now: float) -> None:
        self.conn.execute("INSERT INTO invites (code_hash, made) VALUES (?, ?)", (code_hash, now))

    def use_invite(self, code_hash: str, now: float) -> bool:
        """Mark an unused invitation used; whether it was one."""
        return self.conn.execute("UPDATE invites SET used = ? WHERE code_hash = ? AND used IS NULL",
                                 (now, code_hash)).rowcount == 1

    def add_member(self, name: str, password_hash: str, now: float, invite_hash: str) -> int | None:
        """A new member's id (one never given before), the invitation marked as theirs; None when the name is
        taken (inside the caller's transaction, which is then undone: the id is not used up)."""
        given = self.conn.execute("UPDATE member_ids SET last = last + 1 RETURNING last").fetchone()
        row = self.conn.execute("INSERT INTO members (id, name, password, joined) VALUES (?, ?, ?, ?) "
                                "ON CONFLICT DO NOTHING RETURNING id", (given[0], name, password_hash, now)).fetchone()
        if row is None:
            return None
        self.conn.execute("UPDATE invites SET used_by = ? WHERE code_hash = ?", (row[0], invite_hash))
        return int(row[0])

    def set_admin(self, name: str) -> bool:
        """Make a member an admin; whether there is one of that name."""
        return self.conn.execute("UPDATE members SET admin = 1 WHERE name = ?", (name,)).rowcount == 1

    def member_with_password(self, name: str) -> tuple[MemberRow, str] | None:
        """A member and their password's hash."""
        row = self.conn.execute("SELECT id, name, admin, password FROM members WHERE name = ?", (name,)).fetchone()
        return None if row is None else ((int(row[0]), str(row[1]), bool(row[2])), str(row[3]))

    def reserve_check(self, key: str, now: float, free: int, first_wait: float, longest_wait: float,
                      forget_before: float) -> bool:
        """Count one more password check of KEY (a name, a browser, an address), if it may have one now: while
        fewer than FREE were counted since the last success (checks last made before FORGET_BEFORE are
        forgotten), or once the wait in force has passed. From the FREE-th on, each check sets the next wait:
        FIRST_WAIT, then twice the last, up to LONGEST_WAIT. One statement (the key's row locked as it is
        counted), so checks racing each other are counted one by one. Whether this one may go ahead."""
        wait = ("CASE WHEN login_throttle.last < ? OR login_throttle.checks + 1 < ? THEN 0 "
                "WHEN login_throttle.wait * 2 > ? THEN ? WHEN login_throttle.wait * 2 < ? THEN ? "
                "ELSE login_throttle.wait * 2 END")
        first = first_wait if free <= 1 else 0.0
        row = self.conn.execute(
            "INSERT INTO login_throttle (key, checks, wait, next_at, last) VALUES (?, 1, ?, ?, ?) "
            "ON CONFLICT (key) DO UPDATE SET "
            "checks = CASE WHEN login_throttle.last < ? THEN 1 ELSE login_throttle.checks + 1 END, "
            f"wait = {wait}, next_at = excluded.last + {wait}, last = excluded.last "
            "WHERE login_throttle.last < ? OR login_throttle.checks < ? OR login_throttle.next_at <= excluded.last "
            "RETURNING checks",
            (key, first, now + first, now, forget_before,
             *(forget_before, free, longest_wait, longest_wait, first_wait, first_wait) * 2,
             forget_before, free)).fetchone()
        return row is not None

    def next_check(self, key: str) -> float | None:
        """When KEY's next password check may come (None: it is not being counted)."""
        row = self.conn.execute("SELECT next_at FROM login_throttle WHERE key = ?", (key,)).fetchone()
        return None if row is None else float(row[0])

    def give_back_check(self, key: str) -> None:
        """A check of KEY that succeeded: no longer counted."""
        self.conn.execute("UPDATE login_throttle SET checks = checks - 1 WHERE key = ? AND checks > 0", (key,))

    def forget_checks(self, key: str) -> None:
        """A success: KEY's checks are counted from none again."""
        self.conn.execute("DELETE FROM login_throttle WHERE key = ?", (key,))

    def add_device(self, token_hash: str, member_id: int, now: float) -> None:
        self.conn.execute("INSERT INTO devices (token_hash, member_id, made) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                          (token_hash, member_id, now))

    def device_of(self, token_hash: str, name: str) -> bool:
        """Whether a browser's cookie is one the member of that name logged in from."""
        return self.conn.execute("SELECT 1 FROM devices d JOIN members m ON m.id = d.member_id "
                                 "WHERE d.token_hash = ? AND m.name = ?", (token_hash, name)).fetchone() is not None

    def add_login(self, token_hash: str, member_id: int, csrf: str, expires: float, now: float) -> None:
        """A new session, and those expired forgotten."""
        with self.transaction():
            self.conn.execute("INSERT INTO logins (token_hash, member_id, csrf, expires) VALUES (?, ?, ?, ?)",
                              (token_hash, member_id, csrf, expires))
            self.conn.execute("DELETE FROM logins WHERE expires < ?", (now,))

    def session(self, token_hash: str, now: float) -> tuple[MemberRow, str] | None:
        """The member of an unexpired session, and its CSRF token."""
        row = self.conn.execute(
            "SELECT m.id, m.name, m.admin, l.csrf FROM logins l JOIN members m ON m.id = l.member_id "
            "WHERE l.token_hash = ? AND l.expires > ?", (token_hash, now)).fetchone()
        return None if row is None else ((int(row[0]), str(row[1]), bool(row[2])), str(row[3]))

    def live_sessions(self, token_hashes: list[str], now: float) -> set[str]:
        """Which of these sessions (their tokens' digests) still stand: not ended, not expired, their member not
        removed."""
        found: set[str] = set()
        for start in range(0, len(token_hashes), 500):
            part = token_hashes[start:start + 500]
            found.update(str(row[0]) for row in self.conn.execute(
                "SELECT l.token_hash FROM logins l JOIN members m ON m.id = l.member_id WHERE l.expires > ? AND "
                f"l.token_hash IN ({', '.join('?' * len(part))})", (now, *part)).fetchall())
        return found

    def end_login(self, token_hash: str) -> dict[str, Any]:
        """End a session: the notice that closes its sockets (`club.events`)."""
        with self.transaction():
            self.conn.execute("DELETE FROM logins WHERE token_hash = ?", (token_hash,))
            return announce(self, {"ended": {"session": token_hash}})

    def set_password(self, name: str, password_hash: str) -> dict[str, Any] | None:
        """A member's new password, their sessions ended: the notice that closes their sockets (None: there is no
        member of that name)."""
        with self.transaction():
            row = self.conn.execute("UPDATE members SET password = ? WHERE name = ? RETURNING id",
                                    (password_hash, name)).fetchone()
            if row is None:
                return None
            self.conn.execute("DELETE FROM logins WHERE member_id = ?", (row[0],))
            return announce(self, {"ended": {"member": int(row[0])}})

    def change_own_password(self, member_id: int, verified_hash: str, password_hash: str,
                            kept: str) -> dict[str, Any] | None:
        """A member's new password, set by themself: every session of theirs but KEPT (its token's digest) ends. The
        notice that closes the ended sessions' sockets; None, nothing changed, where the password is no longer the
        one VERIFIED_HASH verified or the session KEPT has ended since (an admin's reset, a change elsewhere)."""
        with self.transaction():
            row = self.conn.execute(
                "UPDATE members SET password = ? WHERE id = ? AND password = ? AND EXISTS "
                "(SELECT 1 FROM logins WHERE member_id = ? AND token_hash = ?) RETURNING id",
                (password_hash, member_id, verified_hash, member_id, kept)).fetchone()
            if row is None:
                return None
            self.conn.execute("DELETE FROM logins WHERE member_id = ? AND token_hash <> ?", (member_id, kept))
            return announce(self, {"ended": {"member": member_id, "kept": kept}})

    def all_members(self) -> list[tuple[str, bool, float]]:
        """Every member's name, whether an admin, and when they joined, by name."""
        return [(str(name), bool(admin), float(joined))
                for name, admin, joined in self.conn.execute("SELECT name, admin, joined FROM members ORDER BY name")]

    def member_named(self, name: str) -> MemberRow | None:
        row = self.conn.execute("SELECT id, name, admin FROM members WHERE name = ?", (name,)).fetchone()
        return None if row is None else (int(row[0]), str(row[1]), bool(row[2]))

    def remove_member(self, member_id: int, now: float) -> dict[str, Any]:
        """Delete a member and everything of theirs in the club's tables, noting that their store is still to be
        deleted: both in one transaction. The notice that closes their sockets."""
        with self.transaction():
            self.conn.execute("INSERT INTO removals (member_id, at) VALUES (?, ?) ON CONFLICT DO NOTHING",
                              (member_id, now))
            self.conn.execute("DELETE FROM members WHERE id = ?", (member_id,))
            return announce(self, {"ended": {"member": member_id}})

    def end_removal(self, member_id: int) -> None:
        """The removed member's store and folder are gone."""
        self.conn.execute("DELETE FROM removals WHERE member_id = ?", (member_id,))

    def removals(self) -> list[int]:
        """The members removed whose stores are still to be deleted (a removal interrupted)."""
        return [int(row[0]) for row in self.conn.execute("SELECT member_id FROM removals ORDER BY member_id")]

    def give_ids_above(self, highest: int) -> None:
        """Never give a member id at or below HIGHEST (a store was found under it)."""
        self.conn.execute("UPDATE member_ids SET last = ? WHERE last < ?", (highest, highest))
