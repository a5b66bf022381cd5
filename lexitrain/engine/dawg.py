"""The word graph the move generator searches, per lexicon.

The graph itself (`Dawg`, its layout and its file) belongs to the compiled
lexicon (`lexitrain.lexicon.graph`): `lexicon build` and the first-use
compile write it beside the tries. Here a lexicon's graph is opened, or
built and saved for a lexicon compiled before graphs were part of a build.
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
from typing import Iterable

from lexitrain.lexicon.graph import FILE_NAME, Dawg, from_codes, load, save
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.lexicon.progress import first_use
from lexitrain.tiles import TileSet

__all__ = ["Dawg", "dawg_for", "dawg_from_codes"]


def dawg_from_codes(codes: Iterable[str], tiles: TileSet, name: str = "") -> Dawg:
    """A graph of words given as tile codes, in memory (tests, small lists)."""
    return from_codes(codes, tiles, name)


#: graphs open in this process, most recently used last, by compiled folder
#: name (unique per build); each is a memory map, so this bounds open files
_OPEN: OrderedDict[str, Dawg] = OrderedDict()
OPEN_LIMIT = 2


def dawg_for(lexicon: Lexicon) -> Dawg:
    """The lexicon's graph: from memory, else its file, else built and saved."""
    path = Path(lexicon.folder) / FILE_NAME
    key = path.parent.name
    dawg = _OPEN.get(key)
    if dawg is None:
        dawg = load(path, lexicon.tiles, lexicon.name)
        if dawg is None:  # a lexicon compiled before its build made the graph
            with first_use(f"building the word graph of {lexicon.name} (first use)"):
                dawg = dawg_from_codes(lexicon.trie.keys(), lexicon.tiles, lexicon.name)
            try:
                save(dawg, path)
                for old in path.parent.glob("dawg-v*.bin"):  # a graph an older version wrote
                    if old != path:
                        old.unlink()
            except OSError:
                pass  # a read-only lexicon folder still works, only slower next time
        _OPEN[key] = dawg
        while len(_OPEN) > OPEN_LIMIT:
            _OPEN.popitem(last=False)
    _OPEN.move_to_end(key)
    return dawg
