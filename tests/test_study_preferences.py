"""Display preferences kept in the progress database: defaults, saved and read back, a bad letter order refused."""

from __future__ import annotations

import pytest

from lexitrain.errors import LexitrainError
from lexitrain.study.quiz.preferences import Preferences, load_preferences, save_preferences
from lexitrain.study.store import ProgressStore
from study_helpers import small  # noqa: F401  (small is a fixture)


def test_preferences_default_then_persist_across_connections(small):
    with ProgressStore() as store:
        assert load_preferences(store) == Preferences(tiles=True, dark=False, letter_order="", symbols=True)
        saved = save_preferences(store, small, Preferences(tiles=False, dark=True, letter_order="aei ou", symbols=False))
        assert saved.letter_order == "AEIOU"
    with ProgressStore() as store:
        assert load_preferences(store) == Preferences(tiles=False, dark=True, letter_order="AEIOU", symbols=False)


@pytest.mark.parametrize("order, reason", [("AEA", "A given twice"), ("AE1", "letter order 'AE1'")])
def test_a_bad_letter_order_is_refused_and_nothing_is_stored(small, order, reason):
    with ProgressStore() as store:
        with pytest.raises(LexitrainError, match=reason):
            save_preferences(store, small, Preferences(letter_order=order))
        assert load_preferences(store) == Preferences()
