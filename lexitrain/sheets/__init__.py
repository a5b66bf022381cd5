"""Printable study sheets: a sheet model, the kinds of sheet, and PDF/HTML/CSV/Markdown output.

The kinds are named here, where a face can read them at start-up without
importing the rest (request.py checks and builds a sheet).
"""

KINDS = ("anagrams", "hooks", "twos", "stems", "new-words", "due")
DEFAULT_DAYS = 7  # the due sheet: cards due within a week
