"""How the player likes questions shown: kept in the progress database's settings, so every face agrees.

The study lexicon is the `lexicon` setting `lexitrain study set --lexicon`
writes; the rest (tiles drawn or plain letters, dark mode, a custom letter
order for a wall's "custom order" key, lexicon symbols shown beside words,
high-contrast plain letters)
are display choices under `display:` names; whether the terminal quiz waits
for Enter once every answer is found is `quiz:wait_after_last`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import TYPE_CHECKING, Any

from lexitrain.errors import LexitrainError

if TYPE_CHECKING:
    from lexitrain.lexicon.lexicon import Lexicon
    from lexitrain.study.store import ProgressStore

PREFIX = "display:"
#: Whether the terminal quiz waits for Enter once every answer is found (as Zyzzyva does); a bool.
WAIT_AFTER_LAST = "quiz:wait_after_last"


@dataclass(frozen=True)
class Preferences:
    """Display choices; `letter_order` is the tiles in the player's own order ("" = alphabetical)."""

    tiles: bool = True
    dark: bool = False
    letter_order: str = ""
    symbols: bool = True
    contrast: bool = False  # the second letter style: plain letters in high contrast, no tile colours

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def load_preferences(store: ProgressStore) -> Preferences:
    defaults = Preferences()
    return Preferences(**{f.name: store.setting(PREFIX + f.name, getattr(defaults, f.name)) for f in fields(defaults)})


def check_letter_order(lex: Lexicon, order: str) -> str:
    """A custom order: tiles of the lexicon's set, each at most once (uppercased, spaces dropped)."""
    text = "".join(order.split()).upper()
    try:
        tiles = lex.tiles.tokenize(text)
    except ValueError as exc:
        raise LexitrainError(f"letter order {order!r}: {exc}") from None
    repeated = sorted({t for t in tiles if tiles.count(t) > 1})
    if repeated:
        raise LexitrainError(f"letter order {order!r}: {' '.join(repeated)} given twice")
    return text


def save_preferences(store: ProgressStore, lex: Lexicon, preferences: Preferences) -> Preferences:
    """Check and store the choices (the letter order against LEX's tiles); what was stored."""
    checked = Preferences(bool(preferences.tiles), bool(preferences.dark),
                          check_letter_order(lex, preferences.letter_order), bool(preferences.symbols),
                          bool(preferences.contrast))
    with store.transaction():
        for name, value in checked.to_json().items():
            store.set_setting(PREFIX + name, value)
    return checked
