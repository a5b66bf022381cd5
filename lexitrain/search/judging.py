"""The word judge: a play typed as words, judged as a whole, and the judge's log.

A tournament judge says whether the play is acceptable, never which word is
not; every face reads what was typed here (`judge`, `judge --kiosk`, the web
app's Judge page), so `qat,zax` is two words everywhere and `QA?` is refused
everywhere in the same words. The kiosk and the Judge page keep a log of
every judgement in the data folder, `judge.log`: one line each, the local time
with its offset, the lexicon, VALID or NOT VALID, and the words, appended with
one write so two judges on one home never mix their lines. The host closes a
judge with a key of their choosing; it is kept only as a salted scrypt digest.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.paths import data_home

#: the most words one judgement takes (a play forms a main word and at most one cross word a tile)
MAX_WORDS = 16
#: the longest word taken (the longest board is 21 squares; anything longer is a slip)
MAX_LETTERS = 32
LOG_FILE = "judge.log"
#: the shortest host's key
KEY_LENGTH = 4
#: seconds a verdict stays on the screen (the kiosk's, the Judge page's)
CLEAR_SECONDS = 15
#: scrypt's cost: some 50 ms a try on a laptop, so guessing a short key takes the night
_SCRYPT = {"n": 2**14, "r": 8, "p": 1}
#: what separates the words typed: spaces and commas (`qat,zax`, `QAT, ZAX`)
_SEPARATORS = re.compile(r"[\s,;]+")
#: marks that stand for letters in a search, never in a play
_WILDCARDS = set("?*[]")


class BlankTyped(LexitrainError):
    """A word typed with a blank's mark (`QA?`): a pattern to search, not a word to judge."""

    def __init__(self, word: str, marks: str) -> None:
        super().__init__(f"{word}: {marks} stands for any letter, and a judge judges words as played: "
                         "type each letter, a blank's letter too")
        self.word = word


@dataclass(frozen=True)
class Judgement:
    """A play judged: its words, whether every one is in the lexicon, and when."""

    lexicon: str
    words: tuple[str, ...]
    verdicts: dict[str, bool] = field(compare=False)
    at: datetime

    @property
    def valid(self) -> bool:
        return all(self.verdicts.values())

    def log_line(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S %z}  {self.lexicon}  {'VALID' if self.valid else 'NOT VALID'}  " \
               f"{' '.join(self.words)}\n"


def typed_words(line: str) -> list[str]:
    """The words typed on a line, uppercase, in order: split at spaces, commas and semicolons (a play's words
    for the judge, a quiz answer's words)."""
    return [word.upper() for word in _SEPARATORS.split(line.strip()) if word]


def words_typed(texts: list[str] | str) -> list[str]:
    """The words of a play as typed, uppercase: split at spaces and commas, blank pieces dropped.
    A word holding `?` or `*` (a blank's mark in a search) is refused in one line, as is a play
    of no words, of more than MAX_WORDS, or a word longer than MAX_LETTERS."""
    pieces = [texts] if isinstance(texts, str) else texts
    words = [word for piece in pieces for word in typed_words(piece)]
    if not words:
        raise LexitrainError("no word to judge: type the words of the play, e.g. QAT ZAX")
    if len(words) > MAX_WORDS:
        raise LexitrainError(f"{len(words)} words: a play forms at most {MAX_WORDS}; judge one play at a time")
    for word in words:
        if _WILDCARDS & set(word):
            raise BlankTyped(word, "".join(sorted(_WILDCARDS & set(word))))
        if len(word) > MAX_LETTERS:
            raise LexitrainError(f"{word[:MAX_LETTERS]}...: longer than any board ({MAX_LETTERS} letters at most)")
    return list(dict.fromkeys(words))  # a word typed twice is judged once


def judge_play(lex: Lexicon, words: list[str], at: datetime | None = None) -> Judgement:
    """Each word's verdict in LEX, and the play's (valid only if every word is)."""
    return Judgement(lex.name, tuple(words), {word: word in lex for word in words},
                     at or datetime.now().astimezone())


def log_path() -> Path:
    return data_home() / LOG_FILE


def log_judgement(judgement: Judgement) -> None:
    """Append the judgement to the judge's log (one write: lines of two judges never mix)."""
    fd = os.open(log_path(), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, judgement.log_line().encode("utf-8"))
    finally:
        os.close(fd)


def check_host_key(key: str) -> str:
    """The host's key, refused in one line unless it has KEY_LENGTH characters, one of them not a letter
    (so that no play typed at a judge can ever be it)."""
    key = key.strip()
    if len(key) < KEY_LENGTH or key.isalpha():
        raise LexitrainError(f"the host's key needs {KEY_LENGTH} characters or more, one of them a digit or a sign, "
                             "so that no play can be it")
    return key


def sealed_key(key: str) -> dict[str, str]:
    """What is kept of a host's key: a salt and the key's scrypt digest, never the key."""
    salt = secrets.token_bytes(16)
    return {"salt": salt.hex(), "scrypt": hashlib.scrypt(key.strip().encode(), salt=salt, **_SCRYPT).hex()}


def key_opens(sealed: dict[str, str], key: str) -> bool:
    """Whether KEY is the host's key SEALED keeps."""
    try:
        salt = bytes.fromhex(sealed["salt"])
        digest = hashlib.scrypt(key.strip().encode(), salt=salt, **_SCRYPT)
    except (KeyError, ValueError, TypeError):
        return False
    return hmac.compare_digest(digest.hex(), str(sealed.get("scrypt", "")))
