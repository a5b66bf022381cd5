"""Members, their invitations and sessions, and the failed logins the throttle counts: the statements.

What they mean (hashing, the throttle's limits, who may do what) is `club.members`'; here is only how
they are kept. A write that reads first is one conditional statement.
"""

from __future__ import annotations

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
        """A new member's id, the invitation marked as theirs; None when the name is taken."""
        row = self.conn.execute("INSERT INTO members (name, password, joined) VALUES (?, ?, ?) ON CONFLICT DO NOTHING "
                                "RETURNING id", (name, password_hash, now)).fetchone()
        if row is None:
            return None
        self.conn.execute("UPDATE invites SET used_by = ? WHERE code_hash = ?", (row[0], invite_hash))
        return int(row[0])

    def set_admin(self, name: str) -> bool:
        """Make a member an admin; whether there is one of that name."""
        return self.conn.execute("UPDATE members SET admin = 1 WHERE name = ?", (name,)).rowcount == 1

    def login_failures(self, name: str, address: str, since: float) -> tuple[int, int]:
        """The failed logins since a time, of the name and of the address."""
        row = self.conn.execute(
            "SELECT count(*) FILTER (WHERE name = ?), count(*) FILTER (WHERE address = ?) FROM login_failures "
            "WHERE at >= ? AND (name = ? OR address = ?)", (name, address, since, name, address)).fetchone()
        return int(row[0]), int(row[1])

    def member_with_password(self, name: str) -> tuple[MemberRow, str] | None:
        """A member and their password's hash."""
        row = self.conn.execute("SELECT id, name, admin, password FROM members WHERE name = ?", (name,)).fetchone()
        return None if row is None else ((int(row[0]), str(row[1]), bool(row[2])), str(row[3]))

    def add_login_failure(self, name: str, address: str, now: float, forget_before: float) -> None:
        """Count a failed login, and forget those too old to count."""
        with self.transaction():
            self.conn.execute("INSERT INTO login_failures (name, address, at) VALUES (?, ?, ?)", (name, address, now))
            self.conn.execute("DELETE FROM login_failures WHERE at < ?", (forget_before,))

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

    def end_login(self, token_hash: str) -> None:
        self.conn.execute("DELETE FROM logins WHERE token_hash = ?", (token_hash,))

    def set_password(self, name: str, password_hash: str) -> bool:
        """A member's new password, their sessions ended; whether there is one of that name."""
        with self.transaction():
            row = self.conn.execute("UPDATE members SET password = ? WHERE name = ? RETURNING id",
                                    (password_hash, name)).fetchone()
            if row is None:
                return False
            self.conn.execute("DELETE FROM logins WHERE member_id = ?", (row[0],))
            return True

    def member_named(self, name: str) -> MemberRow | None:
        row = self.conn.execute("SELECT id, name, admin FROM members WHERE name = ?", (name,)).fetchone()
        return None if row is None else (int(row[0]), str(row[1]), bool(row[2]))

    def remove_member(self, member_id: int) -> None:
        """Delete a member and everything of theirs in the club's tables."""
        self.conn.execute("DELETE FROM members WHERE id = ?", (member_id,))
