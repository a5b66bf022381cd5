"""lexitrain: word study, anagram training and lexicon tools for Scrabble players."""

__version__ = "0.1.0"
