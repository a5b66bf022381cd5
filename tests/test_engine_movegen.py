"""The move generator against the rules: property tests on small boards
(brute force agrees, every play validates and scores the same, transposing
the board transposes the plays) and on ENABLE positions, each for both
searches (pure Python and compiled), and the two searches against each
other on every turn of the real games."""

from __future__ import annotations

import os
from itertools import product

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from lexitrain.engine.board import BLANK_FLAG, EMPTY, Board
from lexitrain.engine.dawg import Dawg, dawg_for, dawg_from_codes
from lexitrain.engine import movegen
from lexitrain.engine.game import self_play
from lexitrain.engine.gcg import read_gcg
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.play import Play, ScoredPlay
from lexitrain.engine.replay import replay
from lexitrain.engine.rules import IllegalPlay, apply_play, check_play
from lexitrain.layouts import BoardLayout, load_layout
from lexitrain.tiles import Rack, load_tile_set
from tests.engine_helpers import ENGINES, graph_words, plays_for, transposed_board

ENGLISH = load_tile_set("english")
LETTERS = "AEINRST"
# a small word list: ENABLE-style words over seven letters, 2 to 5 long
WORDS = sorted(set("""
AE AI AN AR AS AT EN ER ES ET IN IS IT NA NE RE SI TA TI
AIN AIR AIS AIT ANE ANI ANT ARE ARS ART ATE EAR EAT ERA ERN ERS ETA NAE NET NIT RAN RAS RAT RES RET RIA
RIN SAE SAT SEA SEI SEN SER SET SIN SIR SIT SNA TAE TAN TAR TAS TEA TEN TIE TIN TIS
ANES ANTE ANTI ARES ARTS EARN EARS EAST EATS ERAS ERNS ETAS NEAR NEST NETS NITE NITS RAIN RANI RANT
RATE RATS REIN RENT REST RETS RIAS RINE RISE SAIN SANE SATE SEAR SEAT SENT SIRE SITE SNIT STAR STIR
TARE TARS TEAR TEAS TENS TIER TIES TINE TINS TIRE TRES
ANISE ANTES ANTIS ARISE ASTER EARNS INERT INTER IRATE NITER RAINS RAISE RANTS RATES REINS RENTS RESAT
RESIN RINSE RISEN SAINT SATIN SITAR SNARE STAIN STAIR STARE STEIN TEARS TRAIN TRIES
""".split()))
DAWG = dawg_from_codes(WORDS, ENGLISH, "small")
PREMIUM_CYCLE = ["", "DL", "", "TL", "DW", "", "TW", "", "DL", "", "", "DW"]


def small_layout(size: int) -> BoardLayout:
    premiums = tuple(
        tuple(PREMIUM_CYCLE[(r * 5 + c * 3) % len(PREMIUM_CYCLE)] for c in range(size)) for r in range(size)
    )
    return BoardLayout(f"small{size}", size, size, premiums, 50)


def key(play: ScoredPlay) -> tuple:
    return (play.row, play.col, play.down, play.letters, play.through, play.score)


def brute_force(board: Board, rack: str, words: list[str], lexicon: Dawg) -> set[tuple]:
    """Try every line segment of the board against every word, filling the
    empty squares from the rack in every way, and keep what the validator
    accepts. Knows nothing of anchors, cross-checks or the DAWG."""
    index = ENGLISH.index
    counts = {ch: rack.count(ch) for ch in set(rack) if ch != "?"}
    blanks = rack.count("?")
    found: set[tuple] = set()
    first = board.is_empty()
    for down, row, col in product((False, True), range(board.rows), range(board.cols)):
        if first and down:
            continue
        dr, dc = (1, 0) if down else (0, 1)
        for word in words:
            r1, c1 = row + dr * (len(word) - 1), col + dc * (len(word) - 1)
            if not board.inside(r1, c1):
                continue
            fixed = [board.get(row + dr * i, col + dc * i) for i in range(len(word))]
            need = []
            ok = True
            for i, ch in enumerate(word):
                if fixed[i] == EMPTY:
                    need.append(i)
                elif fixed[i] & ~BLANK_FLAG != index(ch):
                    ok = False
                    break
            if not ok or not need or len(need) > len(rack):
                continue
            for choice in product((False, True), repeat=len(need)):  # True: a blank
                use = dict(counts)
                spare = blanks
                letters = [f if f != EMPTY else None for f in fixed]
                for i, blank in zip(need, choice):
                    if blank:
                        spare -= 1
                        letters[i] = index(word[i]) | BLANK_FLAG
                    else:
                        use[word[i]] = use.get(word[i], 0) - 1
                        letters[i] = index(word[i])
                if spare < 0 or any(v < 0 for v in use.values()):
                    continue
                through = sum(1 << i for i in range(len(word)) if i not in need)
                try:
                    play = check_play(board, Play(row, col, down, tuple(letters), through), None, lexicon)
                except IllegalPlay:
                    continue
                if down and len(need) == 1:
                    r, c = row + dr * need[0], col + dc * need[0]
                    if board.occupied(r, c - 1) or board.occupied(r, c + 1):
                        continue  # one tile making words both ways: listed once, as across
                found.add(key(play))
    return found


@st.composite
def positions(draw, min_plays: int = 0):
    """A small board built from legal plays (chosen by hypothesis), plus a rack."""
    size = draw(st.integers(5, 7))
    board = Board(small_layout(size), ENGLISH)
    for _ in range(draw(st.integers(min_plays, 4))):
        rack = draw(st.text(LETTERS, min_size=2, max_size=5))
        plays = plays_for(board, rack, DAWG)
        if not plays:
            break
        apply_play(board, plays[draw(st.integers(0, len(plays) - 1))])
    rack = draw(st.text(LETTERS, min_size=1, max_size=5)) + "?" * draw(st.integers(0, 2))
    return board, rack[:7]


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.slow  # 60 random positions, each against a brute-force search
@pytest.mark.parametrize("engine", ENGINES)
@SETTINGS
@given(positions())
def test_brute_force_agrees_with_the_generator(engine: str, position) -> None:
    board, rack = position
    fast = [key(p) for p in plays_for(board, rack, DAWG, engine)]
    assert len(fast) == len(set(fast)), "a play was listed twice"
    assert set(fast) == brute_force(board, rack, WORDS, DAWG)


@pytest.mark.parametrize("engine", ENGINES)
@SETTINGS
@given(positions())
def test_generated_plays_validate_and_score_the_same(engine: str, position) -> None:
    board, rack = position
    for play in plays_for(board, rack, DAWG, engine):
        checked = check_play(board, play, rack, DAWG)
        assert checked.score == play.score


@pytest.mark.parametrize("engine", ENGINES)
@SETTINGS
@given(positions(min_plays=1))
def test_transposing_the_board_transposes_the_plays(engine: str, position) -> None:
    board, rack = position
    assume(not board.is_empty())  # an empty board lists across plays only, by design

    def placements(plays, flip):
        return {(frozenset((c, r, t) if flip else (r, c, t) for r, c, t in p.placed()), p.score) for p in plays}

    plays = plays_for(board, rack, DAWG, engine)
    flipped = plays_for(transposed_board(board), rack, DAWG, engine)
    assert len(plays) == len(flipped)
    assert placements(plays, True) == placements(flipped, False)


@pytest.mark.skipif(movegen.compiled is None, reason="compiled search not built")
@SETTINGS
@given(positions())
def test_both_searches_list_the_same_plays_in_the_same_order(position) -> None:
    """Ties keep search order (`best --top N` shows it), so the order must agree too."""
    board, rack = position
    assert plays_for(board, rack, DAWG, "compiled") == plays_for(board, rack, DAWG, "python")


@pytest.mark.parametrize("engine", ENGINES)
def test_empty_board_lists_across_plays_through_the_centre(engine: str) -> None:
    board = Board(load_layout("standard"), ENGLISH)
    plays = plays_for(board, "RETAINS", DAWG, engine)
    assert plays and all(not p.down for p in plays)
    assert all(p.row == 7 and p.col <= 7 < p.col + len(p.letters) for p in plays)
    assert len({p.key() for p in plays}) == len(plays)


@pytest.mark.parametrize("engine", ENGINES)
def test_one_tile_play_making_two_words_is_listed_once(engine: str) -> None:
    board = Board(small_layout(5), ENGLISH)
    for r, c, letter in [(2, 1, "A"), (2, 2, "T"), (3, 2, "I")]:  # AT across, TI down
        board.set(r, c, ENGLISH.index(letter))
    # an S at 4B makes AS (down) and SI (across): one play, written across
    plays = [p for p in plays_for(board, "S", DAWG, engine) if (3, 1, ENGLISH.index("S")) in p.placed()]
    assert [p.format(ENGLISH) for p in plays] == ["4B S."]
    assert plays[0].score == check_play(board, Play.parse("B3 .S", ENGLISH), "S", DAWG).score


@pytest.mark.parametrize("engine", ENGINES)
def test_enable_positions_from_self_play_validate(enable, engine: str) -> None:
    dawg = dawg_for(enable)
    _, snapshots = self_play(Board(load_layout("standard"), enable.tiles), MoveGenerator(dawg, engine=engine),
                             seed=7, max_turns=12)
    for snap in snapshots[1::3]:
        rack = snap.rack[:6] + "?"
        for play in plays_for(snap.board, rack, dawg, engine):
            assert check_play(snap.board, play, rack, dawg).score == play.score


@pytest.mark.skipif(movegen.compiled is None, reason="compiled search not built")
def test_both_searches_agree_on_every_turn_of_the_real_games(enable, real_games) -> None:
    """Every English real game, turn by turn with its recorded rack (some
    2,600 positions, blanks and all): the same plays, scores and order."""
    dawg = dawg_for(enable)
    pure, fast = MoveGenerator(dawg, engine="python"), MoveGenerator(dawg, engine="compiled")
    positions = 0
    for path in sorted(real_games.glob("*.gcg")):
        if "polish" in path.name:
            continue  # Polish tiles, not an ENABLE position
        for turn in replay(read_gcg(path), enable.tiles):
            text = turn.rack.upper()
            if not text or any(ch != "?" and ch not in enable.tiles.letters for ch in text):
                continue
            rack = Rack.parse(enable.tiles, text, in_play=True)
            assert fast.plays(turn.board, rack) == pure.plays(turn.board, rack), (path.name, turn.notation)
            positions += 1
    assert positions > 2500


def test_compiled_search_is_built_where_required() -> None:
    """CI sets LEXITRAIN_REQUIRE_COMPILED=1: a build that silently fell back
    to pure Python there would otherwise only skip the compiled tests."""
    if os.environ.get("LEXITRAIN_REQUIRE_COMPILED") != "1":
        pytest.skip("LEXITRAIN_REQUIRE_COMPILED is not set")
    from lexitrain.lexicon import graph

    assert movegen.compiled is not None and graph.compiled is not None, "the compiled modules were not built"
    assert MoveGenerator(DAWG).engine == "compiled"


def test_structure_is_cached_beside_the_lexicon(enable, monkeypatch: pytest.MonkeyPatch) -> None:
    from lexitrain.engine import dawg as dawg_module

    dawg_module._OPEN.clear()
    built = dawg_for(enable)  # built and written to the cache
    path = enable.folder / dawg_module.FILE_NAME
    assert path.is_file()
    assert len(graph_words(built)) == enable.word_count

    def no_rebuild(*args, **kwargs):
        raise AssertionError("rebuilt instead of loading the cache")

    dawg_module._OPEN.clear()
    monkeypatch.setattr(dawg_module, "dawg_from_codes", no_rebuild)
    loaded = dawg_for(enable)
    assert (loaded.mask, loaded.final, loaded.edge) == (built.mask, built.final, built.edge)


def test_a_lexicon_compiled_before_graphs_gets_one_on_first_use(make_lexicon) -> None:
    """A lexicon compiled by an older version has no dawg-v3.bin (maybe a
    dawg-v2.bin): the first search builds the graph, saves it, drops the old file."""
    from lexitrain.engine import dawg as dawg_module

    lexicon = make_lexicon(["CAT", "CATS", "SCAT", "ACT"])
    (lexicon.folder / dawg_module.FILE_NAME).unlink()
    old = lexicon.folder / "dawg-v2.bin"
    old.write_bytes(b"LXDAWG2\0" + bytes(40))  # what the previous layout began with
    dawg_module._OPEN.clear()
    dawg = dawg_for(lexicon)
    assert sorted("".join(lexicon.tiles.letters[i] for i in w) for w in graph_words(dawg)) == ["ACT", "CAT", "CATS", "SCAT"]
    assert (lexicon.folder / dawg_module.FILE_NAME).is_file()
    assert not old.exists()


def test_open_graphs_are_bounded_and_reopen_from_their_cache(make_lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    """A process keeps the two graphs it used last; another one pushes out the
    least recently used, which comes back from its cache file when asked again."""
    from lexitrain.engine import dawg as dawg_module

    a, b, c = (make_lexicon(words, name=name) for words, name in
               ((["CAT", "ACT"], "a"), (["DOG", "GOD"], "b"), (["EMU", "MEW"], "c")))
    dawg_module._OPEN.clear()
    first_a, first_b = dawg_for(a), dawg_for(b)
    assert dawg_for(a) is first_a  # still open; now the most recently used
    dawg_for(c)  # pushes out b
    assert dawg_for(a) is first_a

    def no_rebuild(*args, **kwargs):
        raise AssertionError("rebuilt instead of loading the cache")

    monkeypatch.setattr(dawg_module, "dawg_from_codes", no_rebuild)
    again_b = dawg_for(b)
    assert again_b is not first_b and graph_words(again_b) == graph_words(first_b)
    assert len(dawg_module._OPEN) == dawg_module.OPEN_LIMIT == 2


def test_a_generator_with_small_memos_finds_the_same_plays(enable) -> None:
    """The memos only save work: a generator whose memos start again every
    few entries lists exactly the plays of one that keeps them, and stays
    within its limits."""
    dawg = dawg_for(enable)
    kept = MoveGenerator(dawg, engine="python")
    small = MoveGenerator(dawg, cross_limit=5, through_limit=40, engine="python")
    _, snapshots = self_play(Board(load_layout("standard"), enable.tiles), MoveGenerator(dawg), seed=11, max_turns=14)
    for snap in snapshots:
        rack = Rack.parse(enable.tiles, snap.rack)
        assert small.plays(snap.board, rack) == kept.plays(snap.board, rack)
        cross, through = small.memo_entries
        fresh = MoveGenerator(dawg, engine="python")
        fresh.plays(snap.board, rack)
        assert cross <= 5 and through < 40 + fresh.memo_entries[1]  # checked before each search
    assert kept.memo_entries[0] > 5 and kept.memo_entries[1] > 40


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("layout_name,tiles_name", [("super", "english_super"), ("wordswithfriends", "wordswithfriends")])
def test_other_layouts(layout_name: str, tiles_name: str, engine: str) -> None:
    tiles = load_tile_set(tiles_name)
    dawg = dawg_from_codes(WORDS, tiles, "small")
    board = Board(load_layout(layout_name), tiles)
    plays = plays_for(board, "RETAINS", dawg, engine)
    assert plays
    for play in plays[:50]:
        assert check_play(board, play, "RETAINS", dawg).score == play.score
    assert all(p.row == board.layout.center[0] for p in plays)


@pytest.mark.parametrize("engine", ENGINES)
def test_multi_letter_tiles(engine: str) -> None:
    spanish = load_tile_set("spanish")
    words = ["CHE", "ECHO", "OCHO", "HOLA", "LLAMA", "AMA", "MAL"]
    dawg = dawg_from_codes([spanish.encode(w) for w in words], spanish, "es")
    board = Board(load_layout("standard"), spanish)
    plays = plays_for(board, "OCHOA", dawg, engine)
    formatted = {p.format(spanish) for p in plays}
    assert {"8F O[CH]O", "8G O[CH]O", "8H O[CH]O"} <= formatted  # brackets: CH is one tile
    ocho = next(p for p in plays if p.word(spanish) == "OCHO")
    assert len(ocho.letters) == 3  # O, CH, O
    assert check_play(board, Play.parse(ocho.format(spanish), spanish), "OCHOA", dawg).score == ocho.score


def test_without_the_compiled_search_the_best_move_by_equity_says_so_in_one_line(monkeypatch) -> None:
    """On a machine with no C compiler the compiled search is not built: the best move by equity, which
    only it chooses (self-play, the playability count), is the one-line error, not an AttributeError."""
    from lexitrain.engine.leave_table import load_leaves
    from lexitrain.engine.selfplay import SelfPlayer
    from lexitrain.errors import LexitrainError

    tiles = load_tile_set("english")
    monkeypatch.setattr(movegen, "compiled", None)
    generator = MoveGenerator(dawg_from_codes([tiles.encode(w) for w in ("CAT", "ACT")], tiles, "tiny"),
                              engine="python")
    with pytest.raises(LexitrainError, match="needs the compiled move generator"):
        generator.best_by_equity(Board(load_layout("standard"), tiles), Rack.parse(tiles, "CATSDOG"),
                                 load_leaves(tiles), 80, True)
    with pytest.raises(LexitrainError, match="needs the compiled move generator"):
        SelfPlayer(generator, load_layout("standard"), load_leaves(tiles)).play(1)
