"""A compiled lexicon: tries for fast look-ups, SQLite (through rows.py) for the rest.

`catalog.py` finds one by name and compiles an embedded one on first use."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import marisa_trie

from lexitrain.errors import LexitrainError
from lexitrain.layouts import BoardLayout, load_layout
from lexitrain.lexicon import schema
from lexitrain.lexicon.playability import DATABASE, FILE
from lexitrain.tiles import TileSet, load_tile_set, read_tile_csv

if TYPE_CHECKING:  # rows.py is imported on first use: word look-ups (anagram, judge) start quicker without it
    from lexitrain.lexicon.rows import Condition, RankPer, TextFact, WordRow

_T = TypeVar("_T")

#: A lexicon compiled with a tile set of the player's own keeps a copy of its CSV under this name.
TILES_FILE = "tiles.csv"


@dataclass
class Lexicon:
    """A compiled lexicon. Word look-ups work on tile codes (see tiles.py)."""

    name: str
    folder: Path
    manifest: dict[str, Any]
    _counts: dict[RankPer, dict[int, int]] = field(default_factory=dict, init=False, repr=False, compare=False)
    _draws: dict[int, dict[str, int]] = field(default_factory=dict, init=False, repr=False, compare=False)
    _playability: dict[str, int] | None = field(default=None, init=False, repr=False, compare=False)
    _points: dict[str, float] | None = field(default=None, init=False, repr=False, compare=False)
    _played: dict[str, list[str]] | None = field(default=None, init=False, repr=False, compare=False)

    @cached_property
    def tiles(self) -> TileSet:
        """The shipped tile set it names, or the copy of the player's own CSV it was compiled with."""
        if "tiles_file" in self.manifest:
            return read_tile_csv(self.folder / self.manifest["tiles_file"], self.manifest["tiles"])
        return load_tile_set(self.manifest["tiles"])

    @cached_property
    def layout(self) -> BoardLayout:
        return load_layout(self.manifest["board"])

    @cached_property
    def trie(self) -> marisa_trie.Trie:
        trie = _mmap(marisa_trie.Trie(), self.folder / "words.marisa", self)
        if len(trie) != self.word_count:
            raise self._damaged(f"words.marisa holds {len(trie)} words, the manifest says {self.word_count}")
        return trie

    @cached_property
    def reversed_trie(self) -> marisa_trie.Trie:
        trie = _mmap(marisa_trie.Trie(), self.folder / "reversed.marisa", self)
        sample = self._sample()
        if len(trie) != self.word_count or (sample is not None and sample[::-1] not in trie):
            raise self._damaged("reversed.marisa does not hold the words reversed")
        return trie

    @cached_property
    def alphagram_trie(self) -> marisa_trie.BytesTrie:
        """Alphagram -> its words. Checked on one word as it opens: a file of another kind
        (a words trie copied over it) would find no anagram of anything, and a drill would
        skip every question as if no card had an answer."""
        trie = _mmap(marisa_trie.BytesTrie(), self.folder / "alphagrams.marisa", self)
        sample = self._sample()
        if sample is not None:
            found = trie.get(self.tiles.alphagram_code(sample), [])
            if sample.encode("utf-8") not in found:
                raise self._damaged("alphagrams.marisa does not find the words of words.marisa")
        return trie

    def _sample(self) -> str | None:
        """One word's codes, to check the other files against (None for an empty lexicon)."""
        return next(self.trie.iterkeys(), None)

    def _damaged(self, why: str) -> DamagedLexicon:
        return _damaged(self.name, self.manifest, why)

    @cached_property
    def db(self) -> sqlite3.Connection:
        """Read-only connection to the tables (sqlite3.Row rows), for lexicon/ and tests:
        everything else asks `rows`, `row`, `alphagrams_by_rank` and `counts_by_length`."""
        try:
            conn = schema.connect(self.folder)
            words = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            alphagrams = {row[0] for row in conn.execute("SELECT name FROM alphagram_db.sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as exc:
            raise self._damaged(str(exc)) from None
        for file, tables, wanted in ((schema.WORDS_FILE, words, "words"), (schema.ALPHAGRAMS_FILE, alphagrams, "alphagrams")):
            if wanted not in tables:  # an empty file (a zero-byte .sqlite) opens as an empty database
                raise self._damaged(f"{file} has no {wanted} table")
        return conn

    @property
    def word_count(self) -> int:
        return int(self.manifest["words"])

    @cached_property
    def content_hash(self) -> str:
        """What the lexicon holds, whatever it was named: the build's digest of its
        tile set and words (worked out here for a lexicon built before it was kept)."""
        return self.manifest.get("content_hash") or content_hash(self.tiles.name, self.trie.keys())

    def encode(self, word: str) -> str | None:
        """Tile codes of a word, or None if it has a character outside the set."""
        try:
            return self.tiles.encode(word)
        except ValueError:
            return None

    def __contains__(self, word: str) -> bool:
        code = self.encode(word)
        return code is not None and code in self.trie

    def has_code(self, code: str) -> bool:
        return code in self.trie

    def anagram_codes(self, alphagram_code: str) -> list[str]:
        """Word codes whose alphagram is exactly this one (sorted codes)."""
        return [v.decode("utf-8") for v in self.alphagram_trie.get(alphagram_code, [])]

    def anagrams(self, letters: str) -> list[str]:
        """Words using exactly these tiles (no blanks), in dictionary order."""
        code = self.encode(letters)
        if code is None:
            return []
        tiles = self.tiles
        found = self.anagram_codes(tiles.alphagram_code(code))
        return [tiles.decode(c) for c in sorted(found, key=tiles.sort_key)]

    def rows(self, conditions: Iterable[Condition] = ()) -> list[WordRow]:
        """Rows of every word meeting all the conditions (see rows.py), in no set order."""
        return list(self.each_row(conditions))

    def each_row(self, conditions: Iterable[Condition] = (), order: tuple[str, ...] = (),
                 limit: int | None = None) -> Iterator[WordRow]:
        """The rows `rows` gives, one at a time: a search that keeps the first few of
        many holds only those; sorted by ORDER's facts (`rows.SORTABLE`), the first LIMIT."""
        from lexitrain.lexicon import rows

        with self._reading():
            yield from rows.select(self.db, conditions, order, limit)

    def each_word(self, conditions: Iterable[Condition] = ()) -> Iterator[str]:
        """The words meeting the conditions, in no set order, one at a time as text (no row built, none held: a
        random pick of a few of many keeps those few)."""
        from lexitrain.lexicon import rows

        with self._reading():
            yield from rows.words(self.db, list(conditions))

    def first_words(self, conditions: Iterable[Condition] = (), order: tuple[str, ...] = (), most: int | None = None,
                    kept: Callable[[str], bool] | None = None, read_at_most: int | None = None) -> list[str]:
        """The words meeting the conditions (only those KEPT says, when given: those among a search's words, or
        passing its tests), sorted by ORDER's facts (`rows.SORTABLE`), the first MOST of them (None: all), of the
        first READ_AT_MOST read (None: all); read as text, no row built."""
        from lexitrain.lexicon import rows

        def read(db: sqlite3.Connection) -> list[str]:
            found = islice(rows.words(db, list(conditions), order), read_at_most)
            chosen = found if kept is None else filter(kept, found)
            return list(chosen if most is None else islice(chosen, most))

        return self._read(read)

    def count_rows(self, conditions: Iterable[Condition] = (), most: int | None = None) -> int:
        """How many words meet the conditions, counted up to MOST at most (None: all), no row built."""
        from lexitrain.lexicon import rows

        return self._read(rows.count, list(conditions), most)

    def row(self, word: str) -> WordRow | None:
        """The row of one word as stored (uppercase), or None if it is not a word."""
        from lexitrain.lexicon import rows

        found = self._read(lambda db: list(rows.fetch(db, "w.word = ?", [word])))
        return found[0] if found else None

    def alphagrams_by_rank(self, length: int, ranks: tuple[int, int] | None = None) -> list[str]:
        """Alphagrams of one length in probability order (2 blanks): all, or those ranked low..high."""
        from lexitrain.lexicon import rows

        return self._read(rows.alphagrams_by_rank, length, ranks)

    def exact_draws(self, length: int) -> dict[str, int]:
        """Alphagram -> how many draws of its tiles from the bag, with no blank, spell it exactly (one length);
        read once per length (coverage asks for every length on each stats page)."""
        if length not in self._draws:
            from lexitrain.lexicon import rows

            self._draws[length] = self._read(rows.exact_draws, length)
        return self._draws[length]

    def counts_by_length(self, per: RankPer = "word") -> Mapping[int, int]:
        """How many words (or alphagrams) the lexicon has of each length (asked once)."""
        if per not in self._counts:
            from lexitrain.lexicon import rows

            self._counts[per] = self._read(rows.counts_by_length, per)
        return self._counts[per]

    @property
    def has_playability(self) -> bool:
        """Whether self-play figures are stored for it (`lexitrain lexicon playability`)."""

        return (self.folder / FILE).is_file()

    def playability_ranks(self) -> dict[str, int]:
        """Word -> playability rank within its length (1 the most played), for the words ever played;
        a one-line error when the lexicon has no figures."""
        from lexitrain.lexicon import rows

        self.require_playability()
        if self._playability is None:
            self._playability = rows.playability_ranks(self.db)
        return self._playability

    def playability_meta(self) -> dict[str, Any]:
        from lexitrain.lexicon import rows

        self.require_playability()
        return rows.playability_meta(self.db)

    def points_per_game(self) -> dict[str, float]:
        """Word -> the points a game holds in it: what it scored over the self-play games counted,
        per game (a word never played holds none); a one-line error when the figures have no points."""
        from lexitrain.lexicon import rows

        self.require_playability()
        if self._points is None:
            games = self.require_points()
            self._points = {word: points / games for word, points in rows.points_scored(self.db).items()}
        return self._points

    def require_points(self) -> int:
        """The games the self-play figures were counted over; a one-line error when the lexicon has no figures or
        they were counted before points were (a search by points reads them in SQL: no word's figure held)."""
        from lexitrain.lexicon import rows

        self.require_playability()
        meta = rows.playability_meta(self.db)
        if "scored" not in meta or not meta.get("games"):
            raise LexitrainError(f"lexicon {self.name!r} has playability figures counted before points were; "
                                 f"count them again with `lexitrain lexicon playability {self.name} --games N`")
        return int(meta["games"])

    def played_by_alphagram(self) -> dict[str, list[str]]:
        """Alphagram (as the alphagrams table writes it) -> its words the self-play games played: the
        words holding points an anagram card teaches, for every card at once (read once, in SQL)."""
        from lexitrain.lexicon import rows

        self.require_playability()
        if self._played is None:  # (read once for the open lexicon: every statistics count and drill ranking uses it)
            self._played = rows.played_by_alphagram(self.db)
        return self._played

    def require_playability(self) -> None:
        """A one-line error when the lexicon has no figures; else make sure its connection
        has them (they are attached on opening, and may have come after it was opened)."""

        if not self.has_playability:
            raise LexitrainError(f"lexicon {self.name!r} has no playability figures; count them with "
                                 f"`lexitrain lexicon playability {self.name} --games N`")
        if "db" in self.__dict__ and DATABASE not in {row[1] for row in self.db.execute("PRAGMA database_list")}:
            self.__dict__.pop("db").close()
            self._playability = self._points = self._played = None

    def has_text(self, fact: TextFact) -> bool:
        """Whether any word has FACT (definitions, symbols): searching one a list lacks finds nothing."""
        from lexitrain.lexicon import rows

        return self._read(rows.has_text, fact)

    def _read(self, ask: Callable[..., _T], *args: Any) -> _T:
        """ASK(db, *ARGS), a damaged table (pages lost or overwritten) the one-line error."""
        with self._reading():
            return ask(self.db, *args)

    @contextmanager
    def _reading(self) -> Iterator[None]:
        """Reads of the tables within, a damaged table (pages lost or overwritten) the one-line error."""
        try:
            yield
        except sqlite3.OperationalError:
            raise  # a query of ours that is wrong, not a damaged file
        except sqlite3.DatabaseError as exc:
            raise self._damaged(str(exc)) from None

    def words(self) -> list[str]:
        """Every word, in dictionary (tile) order."""
        tiles = self.tiles
        return [tiles.decode(c) for c in sorted(self.trie.keys(), key=tiles.sort_key)]


def content_hash(tiles_name: str, codes: Iterable[str]) -> str:
    """SHA-256 of a tile set's name and word codes (in plain string order): equal
    for the same words and tiles compiled under any name, from any file."""
    text = tiles_name + "\n" + "".join(f"{code}\n" for code in sorted(codes))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _mmap(trie: Any, path: Path, lexicon: Lexicon) -> Any:
    try:
        trie.mmap(str(path))
    except (RuntimeError, OSError) as exc:  # marisa reports a truncated or foreign file as RuntimeError
        raise _damaged(lexicon.name, lexicon.manifest, f"{path.name}: {exc}") from None
    return trie


def rebuild_hint(name: str, manifest: dict[str, Any]) -> str:
    compared = "".join(f" --compare {other}={symbol}" for other, symbol in (manifest.get("compare") or {}).items())
    board = manifest.get("board", "standard")
    defined = f" --definitions {manifest['definitions']}" if "definitions" in manifest else ""
    return (f"lexitrain lexicon build {manifest.get('source', 'FILE')} --name {name}"
            f" --tiles {manifest.get('tiles', 'english')}{'' if board == 'standard' else f' --board {board}'}{compared}"
            f"{defined}")


class DamagedLexicon(LexitrainError):
    """A compiled lexicon's files are unreadable or do not agree: never a reason to skip
    a question quietly (a drill would skip every one), always said, with the rebuild command."""


def _damaged(name: str, manifest: dict[str, Any], why: object) -> DamagedLexicon:
    """The one-line error for a compiled lexicon whose files are unreadable."""
    return DamagedLexicon(f"lexicon {name!r} is damaged ({why}); rebuild it: {rebuild_hint(name, manifest)}")


def diff(old: Lexicon, new: Lexicon) -> dict[str, list[str]]:
    """Words added and removed going from OLD to NEW (the 'new words' list).
    Both must spell with the same letters, or the words could not be compared."""
    if old.tiles.letters != new.tiles.letters:
        raise LexitrainError(
            f"cannot diff {old.name} ({old.tiles.name} tiles) and {new.name} ({new.tiles.name} tiles): "
            "the letters differ")
    old_words, new_words = set(old.words()), set(new.words())
    key = new.tiles.sort_key
    encode = new.tiles.encode

    def order(words: set[str]) -> list[str]:
        return sorted(words, key=lambda w: key(encode(w)))

    return {"added": order(new_words - old_words), "removed": order(old_words - new_words)}
