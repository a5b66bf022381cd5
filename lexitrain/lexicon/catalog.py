"""The lexicons there are, by name: the embedded ones compiled on first use, the player's own as compiled.

`open_lexicon` is how every command gets a `Lexicon`; `build_lexicon` compiles a word list with the
lexicons it is compared with opened first (`compile.py` is handed their tries, and opens nothing).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lexitrain.errors import LexitrainError
from lexitrain.lexicon import schema, store
from lexitrain.lexicon.lexicon import Lexicon, rebuild_hint
from lexitrain.lexicon.progress import Progress, first_use, quiet
from lexitrain.paths import locked, shipped

if TYPE_CHECKING:  # compiling loads numpy: `judge` and `anagram` open a compiled lexicon without it
    from lexitrain.lexicon.compile import BuildReport

DEFAULT_LEXICON = "enable"

#: Free lists shipped in lexicons/wordlists, compiled on first use, with their definitions in
#: lexicons/definitions (the short words our own, the rest from WordNet; scripts/gen_wordnet_definitions.py).
#: A new `revision` (new definitions, new shipped playability figures) compiles a player's copy again
#: on its next use.
_DEFINED = ("definitions: the twos and threes lexitrain's own (short_words.txt), the rest from Princeton "
            "WordNet 3.0 (see LICENSE-WordNet-3.0.txt)")
EMBEDDED: dict[str, dict[str, str]] = {
    "enable": {"file": "enable1.txt", "definitions": "wordnet_enable.txt", "revision": "participles-1",
               "credit": f"ENABLE, public domain (see COPYRIGHT-debian-scowl-incl-ENABLE-statement.txt); {_DEFINED}"},
    "cel": {"file": "cel.txt", "definitions": "wordnet_cel.txt", "revision": "participles-1",
            "credit": f"CEL, MIT licence (see LICENSE-CEL-MIT.txt); {_DEFINED}"},
}


def _compile_again(name: str, manifest: dict[str, Any]) -> bool:
    """Compile a lexicon that an older lexitrain compiled again, from the list and with the
    options its manifest records, as a first-use step; False where it cannot be (the list is
    gone or no longer reads, its tile set was the player's own file), and the player is asked."""
    source = Path(manifest.get("source", ""))
    definitions = Path(manifest["definitions"]) if "definitions" in manifest else None
    if manifest.get("tiles_file") or not source.is_file() or (definitions and not definitions.is_file()):
        return False
    try:
        with first_use(f"compiling {name} again from {source.name} (an older lexitrain compiled it)") as progress:
            build_lexicon(source, name, manifest.get("tiles", "english"), manifest.get("board", "standard"),
                          manifest.get("compare") or None, progress=progress, definitions=definitions)
    except LexitrainError:
        return False
    return True


def canonical_name(name: str) -> str:
    """The name of the lexicon NAME means, compared without case (an embedded one's, or as compiled)."""
    folded = name.casefold()
    return next((known for known in EMBEDDED if known == folded), None) or store.stored_name(name)


def open_lexicon(name: str = DEFAULT_LEXICON) -> Lexicon:
    """Open a compiled lexicon (its name compared without case), compiling an embedded one on first use."""
    name = canonical_name(name)
    manifest = store.read_manifest(name)
    if _outdated(name, manifest):
        # One process compiles (holding the lexicons folder's lock); one started beside it waits, then opens
        # what that one made (two compiling at once, the later publish deleted the folder the other had opened).
        with locked(store.lexicons_dir(), folder=True):
            manifest = store.read_manifest(name)
            if _outdated(name, manifest):
                manifest = _compiled(name, manifest)
    if manifest is None:
        known = sorted(set(store.compiled_names()) | set(EMBEDDED))
        raise LexitrainError(f"unknown lexicon {name!r} (known: {', '.join(known)})")
    for _ in range(2):  # a build may replace its folder between reading the manifest and holding it: read again
        lexicon = Lexicon(name, store.lexicon_folder(manifest), manifest)
        if store.hold(lexicon.folder, lexicon):
            return lexicon
        manifest = store.read_manifest(name) or manifest
    raise LexitrainError(f"lexicon {name!r} is damaged ({lexicon.folder} is missing); rebuild it")


def _outdated(name: str, manifest: dict[str, Any] | None) -> bool:
    """Whether NAME must be compiled before it opens: an embedded list not compiled yet or of an older
    revision, or a lexicon an older schema wrote."""
    stale = manifest is not None and manifest.get("schema") != schema.SCHEMA_VERSION
    if name in EMBEDDED:
        return manifest is None or stale or manifest.get("revision") != EMBEDDED[name]["revision"]
    return stale


def _compiled(name: str, manifest: dict[str, Any] | None) -> dict[str, Any] | None:
    """The manifest of NAME compiled again (`_outdated`), or the one-line error where it cannot be."""
    if name in EMBEDDED:
        compile_embedded(name)
    elif manifest is not None and not _compile_again(name, manifest):
        raise LexitrainError(f"lexicon {name!r} was compiled by another version of lexitrain; rebuild it: "
                             + rebuild_hint(name, manifest))
    return store.read_manifest(name)


def compile_embedded(name: str) -> None:
    entry = EMBEDDED[name]
    source = shipped("lexicons") / "wordlists" / entry["file"]
    with first_use(f"compiling the embedded {name} lexicon (first use)") as progress:
        build_lexicon(source, name, progress=progress,
                      definitions=shipped("lexicons") / "definitions" / entry["definitions"],
                      revision=entry["revision"])


def known_lexicons() -> list[str]:
    return sorted(set(store.compiled_names()) | set(EMBEDDED))


def _edition(name: str) -> tuple[str, str]:
    """A lexicon name as (letters, year) with a year of four digits cut to two, so
    that NWL2023 and nwl23, CSW21 and CSW2021 are the same edition."""
    folded = name.strip().casefold()
    letters = folded.rstrip("0123456789")
    year = folded[len(letters):]
    if len(year) == 4 and year[:2] in ("19", "20"):
        year = year[2:]
    return letters, year


def compiled_match(named: str, known: Sequence[str] | None = None) -> str | None:
    """The compiled lexicon a file means by NAMED (a GCG's `#lexicon`, a CGP's `lex`):
    compared without case and with the year written either way; None when none is compiled.
    KNOWN: the lexicons there are, read once by a caller matching many names (default: read now)."""
    wanted = _edition(named)
    return next((name for name in (known_lexicons() if known is None else known) if _edition(name) == wanted), None)


def build_lexicon(source: Path, name: str, tiles_name: str = "english", board_name: str = "standard",
                  compare: dict[str, str] | None = None, skip_invalid: bool = False,
                  progress: Progress = quiet, definitions: Path | None = None,
                  revision: str | None = None) -> BuildReport:
    """Compile lexicon NAME from a word list; `compare` maps other lexicons to the symbol
    a word missing from that one gets (`--compare cel=+`); DEFINITIONS and REVISION as
    `compile_lexicon` takes them."""
    from lexitrain.lexicon.compile import Compared, compile_lexicon

    compared = {}
    for other, symbol in (compare or {}).items():
        if other == name:
            raise LexitrainError(f"--compare {other}: a lexicon cannot be compared with itself")
        compared[other] = Compared(symbol, open_lexicon(other).trie)
    return compile_lexicon(source, name, tiles_name, board_name, compared, skip_invalid, progress,
                           definitions, revision)
