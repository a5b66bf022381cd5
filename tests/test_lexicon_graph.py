"""The word graph a build writes (dawg-v3.bin): every word and nothing else,
the compiled builder byte for byte the same as the Python one, mapped from
its file, and a damaged file rebuilt instead of read."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexitrain.engine import dawg as dawg_module
from lexitrain.engine.cgp import parse_cgp
from lexitrain.engine.dawg import dawg_for
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.lexicon import graph
from lexitrain.tiles import Rack, load_tile_set
from tests.engine_helpers import graph_words

ENGLISH = load_tile_set("english")
needs_compiled = pytest.mark.skipif(graph.compiled is None, reason="compiled graph builder not built")


def spelled(dawg: graph.Dawg) -> list[str]:
    return sorted("".join(dawg.tiles.letters[i] for i in word) for word in graph_words(dawg))


def test_a_build_writes_the_graph_of_its_words(make_lexicon) -> None:
    words = ["CARE", "RACE", "ACRE", "CARES", "AT", "CAT", "CATS", "SCAT", "ZA"]
    lexicon = make_lexicon(words)
    path = lexicon.folder / graph.FILE_NAME
    assert path.is_file()
    mapped = graph.load(path, lexicon.tiles)
    assert mapped is not None and mapped.source is not None  # read by memory map, not copied
    assert spelled(mapped) == sorted(words)
    assert mapped.contains(ENGLISH.index(c) for c in "CATS") and not mapped.contains(ENGLISH.index(c) for c in "CA")


def test_the_first_search_after_a_build_reads_the_built_graph(make_lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    lexicon = make_lexicon(["QUITE", "QI", "TE", "ET"])

    def no_build(*args, **kwargs):
        raise AssertionError("the graph was built again instead of read")

    dawg_module._OPEN.clear()
    monkeypatch.setattr(dawg_module, "dawg_from_codes", no_build)
    position = parse_cgp("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 QUITE/ 0/0 0", lexicon.tiles, lexicon.layout)
    plays = MoveGenerator(dawg_for(lexicon)).plays(position.board, Rack.parse(lexicon.tiles, "QUITE"))
    assert plays[0].word(lexicon.tiles) == "QUITE"


@pytest.mark.parametrize("damage", ["truncated", "foreign", "empty", "other tiles"])
def test_a_damaged_graph_file_is_rebuilt(make_lexicon, damage: str) -> None:
    lexicon = make_lexicon(["CAT", "ACT", "TACT"])
    path = lexicon.folder / graph.FILE_NAME
    data = path.read_bytes()
    if damage == "truncated":
        path.write_bytes(data[:-4])
    elif damage == "foreign":
        path.write_bytes(b"NOTADAWG" + data[8:])
    elif damage == "empty":
        path.write_bytes(b"")
    assert graph.load(path, load_tile_set("polish") if damage == "other tiles" else lexicon.tiles) is None
    if damage != "other tiles":
        dawg_module._OPEN.clear()
        assert spelled(dawg_for(lexicon)) == ["ACT", "CAT", "TACT"]
        assert graph.load(path, lexicon.tiles) is not None  # saved again


@needs_compiled
@settings(max_examples=60, deadline=None)
@given(st.lists(st.text("ABCDEZ", min_size=1, max_size=9), max_size=60))
def test_compiled_and_python_builders_lay_out_the_same_bytes(words: list[str]) -> None:
    encoded = graph.word_bytes(words, ENGLISH)
    python, compiled = graph.build_in_python(encoded, ENGLISH), graph.build_compiled(encoded, ENGLISH)
    assert bytes(compiled.data) == bytes(python.data)
    assert spelled(compiled) == sorted(set(words))


@needs_compiled
def test_compiled_and_python_builders_agree_on_enable(enable) -> None:
    encoded = graph.word_bytes(enable.trie.keys(), enable.tiles)
    compiled = graph.build_compiled(encoded, enable.tiles)
    assert bytes(compiled.data) == bytes(graph.build_in_python(encoded, enable.tiles).data)
    assert (compiled.nodes, compiled.edges) == (52_928, 121_438)
    assert bytes(dawg_for(enable).data) == bytes(compiled.data)  # what the build wrote


def test_a_graph_is_compact_and_shared() -> None:
    """32-bit records in one buffer: no Python int per slot."""
    dawg = graph.from_codes(["CAT", "CATS", "ACT"], ENGLISH)
    assert dawg.data.format == "I" and dawg.data.itemsize == 4
    assert dawg.nbytes == dawg.nodes * dawg.record * 4
    assert dawg.edge.obj is dawg.data.obj  # the views share one buffer
