"""All of a lexicon's words in one newline-separated string, for regex scans.

Scanning one string with an anchored regex is several times faster than
matching 170,000 words one by one in Python. Built once per lexicon folder.
"""

from __future__ import annotations

import re
from pathlib import Path

from lexitrain.lexicon.lexicon import Lexicon

_CACHE: dict[Path, str] = {}


def word_blob(lex: Lexicon) -> str:
    """'\\n' + every word code + '\\n', one per line."""
    blob = _CACHE.get(lex.folder)
    if blob is None:
        blob = "\n" + "\n".join(lex.trie.keys()) + "\n"
        _CACHE[lex.folder] = blob
    return blob


def all_codes(lex: Lexicon) -> list[str]:
    return word_blob(lex)[1:-1].split("\n")


def scan(lex: Lexicon, regex_source: str) -> list[str]:
    """Word codes matching the regex source in full (it must not contain groups)."""
    return re.findall(f"\n({regex_source})(?=\n)", word_blob(lex))
