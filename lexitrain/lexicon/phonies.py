"""Plausible phonies: a word inflected the way English would inflect it, where the lexicon may not.

A drilled valid-or-phony card draws its phonies from these, and so do the
weaker bots that now and then put one down (`engine/bot_words.py`); which
of the strings made are phonies is for a lexicon to say.
"""

from __future__ import annotations

#: endings a wrong inflection swaps for one another
ENDINGS = ("S", "ES", "ED", "ING", "ER", "EST")


def inflections(word: str) -> list[str]:
    """A word already inflected with one of its endings swapped for another; any other
    inflected as English would if it could be: -S (-ES after a hiss or an O), -ED, -ING, -ER
    (a final E dropped first)."""
    ends = [end for end in ENDINGS if word.endswith(end) and len(word) > len(end) + 2]
    if ends:
        return [word[: -len(end)] + other for end in ends for other in ENDINGS if other != end]
    stem = word[:-1] if word.endswith("E") else word
    return [word + ("ES" if word.endswith(("X", "Z", "CH", "SH", "O")) else "S"),
            stem + "ED", stem + "ING", stem + "ER"]
