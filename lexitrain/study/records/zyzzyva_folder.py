"""A Zyzzyva user folder brought over in one go (`lexitrain import zyzzyva DIR`).

Zyzzyva keeps a player's work in one folder (`~/Zyzzyva`, or wherever its preferences put it):
- `lexicons/NAME.txt`, a lexicon of the player's own (`WORD definition` a line), and the database
  Zyzzyva made of each lexicon, `lexicons/NAME.db` (its `words` table: word and definition);
- `quiz/data/LEXICON/<Quiz type>.db`, a cardbox per lexicon and quiz type (records/zyzzyva.py);
- `search/saved/...*.zzs` saved searches and `quiz/saved/...*.zzq` saved quizzes (search/zyzzyva_searches.py),
  beside copies of the ones Zyzzyva ships (`search/predefined`, `quiz/predefined`);
- `words/` (word lists saved from searches), `judge/` (the word judge's logs), `config/`.

Each lexicon is compiled with its definitions (from the text file, else from Zyzzyva's database,
written out as a text file in lexitrain's data folder); each cardbox becomes cards of the matching
kind with its schedule; each saved search a saved search, each saved quiz a list of the words its
search finds; the study lexicon becomes the one with the most of the folder's cards, when the import
brings cards (a run that brings none leaves the player's choice alone). What is left out is named
with the reason. Nothing is done twice: a lexicon compiled from the same bytes, a card already
studied, a search or list saved with the same content are left as they are, so a second import
changes nothing; a different one of the same name is never replaced, but named as skipped.
"""

from __future__ import annotations

import hashlib
import re
from functools import cache
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lexitrain.errors import LexitrainError
from lexitrain.lexicon import store as compiled
from lexitrain.lexicon.catalog import DEFAULT_LEXICON, EMBEDDED, build_lexicon, compiled_match, open_lexicon
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.lexicon.progress import Progress, quiet
from lexitrain.lexicon.wordlist import InvalidWord, zyzzyva_database_lines
from lexitrain.paths import data_folder, write_atomically
from lexitrain.search.execute import run_search
from lexitrain.search.saved import save_search, saved_searches
from lexitrain.search.zyzzyva_searches import NotCarried, read_quiz, read_search
from lexitrain.study.quiz.scheduler import utc_now
from lexitrain.study.records.zyzzyva import cardbox_kind, import_cardbox
from lexitrain.study.store import ProgressStore
from lexitrain.wording import counted

#: the folder of lexitrain's data where what Zyzzyva held in its databases is kept as text
KEPT = "zyzzyva"
#: what each top-level entry of a Zyzzyva folder is, for those left alone, and why
LEFT_ALONE = {
    "words": "word lists Zyzzyva saved from searches: play one as it is with `lexitrain quiz --file FILE`, "
             "or upload it on the web app's home page",
    "judge": "the word judge's logs: they stay where they are; lexitrain's judge (`judge --kiosk`, the web "
             "app's Judge page) keeps its own log, judge.log",
    "config": "Zyzzyva's own settings: lexitrain's are set with `lexitrain study set`",
}
#: the entries this import reads
READ = ("lexicons", "quiz", "search")


@dataclass
class FolderImport:
    """What an import of a Zyzzyva folder did: the lexicons of the folder compiled here (`compiled` the
    ones compiled this time), the cards, searches and lists it added, what it left out and why."""

    lexicons: list[str] = field(default_factory=list)
    compiled: list[str] = field(default_factory=list)
    cards: int = 0
    searches: int = 0
    lists: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (item, why)
    done: list[str] = field(default_factory=list)  # what it did, a line each
    study_lexicon: str | None = None
    folder_cards: dict[str, int] = field(default_factory=dict)  # lexicon -> the folder's cards here (added or kept)

    def to_json(self) -> dict[str, Any]:
        return {"lexicons": self.lexicons, "cards": self.cards, "searches": self.searches, "lists": self.lists,
                "skipped": [{"item": item, "why": why} for item, why in self.skipped],
                "compiled": self.compiled, "study_lexicon": self.study_lexicon, "done": self.done}


def import_folder(store: ProgressStore, folder: Path, progress: Progress = quiet) -> FolderImport:
    """Bring everything of a Zyzzyva user folder that lexitrain can hold into this home."""
    folder = folder.expanduser()
    if not folder.is_dir():
        what = "a file, not a folder" if folder.exists() else "no such folder"
        raise LexitrainError(f"{folder}: {what} (give Zyzzyva's user folder, e.g. ~/Zyzzyva; one cardbox on its own: "
                             "`lexitrain progress import-zyzzyva FILE`)")
    if not any((folder / name).is_dir() for name in READ):
        raise LexitrainError(f"{folder}: not a Zyzzyva user folder (no lexicons/, quiz/ or search/ in it; "
                             "Zyzzyva's preferences name it, ~/Zyzzyva by default)")
    report = FolderImport()
    for entry in sorted(folder.iterdir()):
        if entry.name not in READ:
            why = LEFT_ALONE.get(entry.name, "not something of a Zyzzyva user folder lexitrain reads")
            report.skipped.append((entry.name + ("/" if entry.is_dir() else ""), why))
    _lexicons(folder, report, progress)
    opened = cache(open_lexicon)  # (each lexicon opened once, for all its cardboxes and quizzes)
    _cardboxes(store, folder, report, opened)
    _searches(folder, report)
    _quizzes(store, folder, report, opened)
    _study_lexicon(store, report)
    return report


# -- lexicons ------------------------------------------------------------------------------------


def lexicon_name(stem: str) -> str:
    """A lexicon's name here from the name Zyzzyva gives it (`NWL2023`: nwl2023), in lexitrain's letters."""
    name = re.sub(r"[^a-z0-9_-]+", "-", stem.lower()).strip("-_")[:64]
    return compiled.check_name(name or "-")


def _compiled(zyzzyva_name: str) -> str | None:
    """The lexicon compiled here that Zyzzyva's name means: as named (NWL2023: nwl2023 or nwl23), or as its text
    file is compiled when the name has letters lexitrain's names have not (OWL2+LWL: owl2-lwl); None if none."""
    found = compiled_match(zyzzyva_name)
    if found is None:
        try:
            found = compiled_match(lexicon_name(zyzzyva_name))
        except LexitrainError:
            return None
    return found


def _lexicons(folder: Path, report: FolderImport, progress: Progress) -> None:
    lexicons = folder / "lexicons"
    if not lexicons.is_dir():
        return
    texts = {path.stem.casefold(): path for path in lexicons.glob("*.txt")}
    for path in sorted(lexicons.iterdir()):
        item = f"lexicons/{path.name}"
        if path.suffix == ".db" and path.stem.casefold() in texts:
            continue  # the database Zyzzyva made of a text file read here
        if path.suffix == ".db" and path.stem.startswith("orig-"):
            report.skipped.append((item, "a copy Zyzzyva kept of an older database of that lexicon"))
            continue
        if path.suffix not in (".txt", ".db") or not path.is_file():
            report.skipped.append((item, "neither a lexicon text file (.txt) nor Zyzzyva's database of one (.db)"))
            continue
        try:
            name = lexicon_name(path.stem)
            source = path if path.suffix == ".txt" else _text_of_database(path, name)
            _compile(source, name, item, report, progress)
        except LexitrainError as exc:
            report.skipped.append((item, str(exc)))


def _text_of_database(path: Path, name: str) -> Path:
    """The words and definitions of a lexicon database Zyzzyva made, as a `WORD definition` file in
    lexitrain's data folder (a build records its list, and a newer lexitrain compiles it again from it)."""
    lines = zyzzyva_database_lines(path)
    out = data_folder(KEPT) / f"{name}.txt"
    text = "\n".join(lines) + "\n"
    if not out.is_file() or out.read_text(encoding="utf-8") != text:
        write_atomically(out, text)
    return out


def _compile(source: Path, name: str, item: str, report: FolderImport, progress: Progress) -> None:
    """Compile SOURCE as NAME unless it is compiled here already from the same bytes (then left as it is);
    a lexicon of that name from another list, or an embedded one, is never replaced."""
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    manifest = compiled.read_manifest(name)
    if manifest is not None or name in EMBEDDED:
        known = compiled.stored_name(name)
        if manifest is not None and manifest.get("source_sha256") == digest:
            report.lexicons.append(known)
            report.done.append(f"{item}: lexicon {known} is compiled from it already")
            return
        if name in EMBEDDED:
            raise LexitrainError(f"{name} is the name of lexitrain's embedded lexicon: compile it under another "
                                 f"name with `lexitrain lexicon build {source} --name {name}-zyzzyva`")
        raise LexitrainError(f"a lexicon named {known} is already compiled here from another list "
                             f"({manifest.get('source', '?') if manifest else '?'}); `lexitrain lexicon build "
                             f"{source} --name {known}` replaces it")
    try:
        built = build_lexicon(source, name, progress=progress)
    except InvalidWord as exc:  # the import has no --skip-invalid: say what does
        raise LexitrainError(f"{exc.line}; mend the line, or leave such words out with `lexitrain lexicon build "
                             f"{source} --name {name} --skip-invalid`, then import again") from None
    report.lexicons.append(built.name)
    report.compiled.append(built.name)
    report.done.append(f"{item}: compiled lexicon {built.name}, {built.words:,} words")


# -- cardboxes -----------------------------------------------------------------------------------


def _not_compiled(report: FolderImport, zyzzyva_name: str) -> str:
    """Why a cardbox of a lexicon not compiled here is left out: its file in the folder did not compile (as that
    file's own skipped line says), or the folder has none."""
    try:
        name = lexicon_name(zyzzyva_name)
    except LexitrainError:
        name = "NAME"
    failed = [item for item, _ in report.skipped
              if item.startswith("lexicons/") and Path(item).stem.casefold() == zyzzyva_name.casefold()]
    if failed:
        return (f"its lexicon {zyzzyva_name} is not compiled here: {failed[0]} did not compile (its own line says "
                f"why); mend it or compile the list with `lexitrain lexicon build FILE --name {name}`, then import "
                f"again")
    return (f"its lexicon {zyzzyva_name} is not compiled here (and the folder has no lexicons/{zyzzyva_name}.txt): "
            f"compile it with `lexitrain lexicon build FILE --name {name}`, then import again")


def _cardboxes(store: ProgressStore, folder: Path, report: FolderImport, opened: Callable[[str], Lexicon]) -> None:
    data = folder / "quiz" / "data"
    if not data.is_dir():
        return
    for lexicon_folder in sorted(p for p in data.iterdir() if p.is_dir()):
        found = _compiled(lexicon_folder.name)
        for path in sorted(lexicon_folder.glob("*.db")):
            item = f"quiz/data/{lexicon_folder.name}/{path.name}"
            if found is None:
                report.skipped.append((item, _not_compiled(report, lexicon_folder.name)))
                continue
            try:
                kind = cardbox_kind(path)
                made = import_cardbox(store, opened(found), path, kind)
            except LexitrainError as exc:
                report.skipped.append((item, str(exc)))
                continue
            report.cards += made.imported
            report.folder_cards[found] = report.folder_cards.get(found, 0) + made.imported + made.kept
            report.done.append(f"{item}: {counted(made.imported, kind + ' card')} in {found}"
                               + (f" ({made.kept} already studied here, kept as they are)" if made.kept else ""))
            report.skipped += [(f"{item}: {question or '(empty)'}", why) for question, why in made.skipped]
            if found not in report.lexicons:
                report.lexicons.append(found)


def _study_lexicon(store: ProgressStore, report: FolderImport) -> None:
    """Make the lexicon with the most of the folder's cards the study lexicon (the first by name on a tie), when
    this run brought cards: counted over every card here instead, or chosen again by a run that brought none, the
    cards the player's own study made since, or the study lexicon they chose since, were overruled."""
    current = str(store.setting("lexicon", DEFAULT_LEXICON))
    carded = {name: n for name, n in report.folder_cards.items() if n}
    if not carded:
        return
    if not report.cards:
        report.study_lexicon = current
        report.done.append(f"study lexicon: {current}, left as it is (no new cards)")
        return
    chosen = max(sorted(carded), key=lambda name: carded[name])
    report.study_lexicon = chosen
    if current != chosen:
        store.set_setting("lexicon", chosen)
        report.done.append(f"study lexicon: {chosen}, the one with the most cards of the folder ({carded[chosen]})")
    else:
        report.done.append(f"study lexicon: {chosen} already")


# -- saved searches and quizzes ------------------------------------------------------------------


def _saved_files(folder: Path, suffix: str, leave: tuple[str, ...]) -> Iterator[tuple[Path, Path]]:
    """(file, path below FOLDER) of each saved file with SUFFIX, those under LEAVE (Zyzzyva's own copies) apart."""
    if folder.is_dir():
        for path in sorted(folder.rglob(f"*{suffix}")):
            below = path.relative_to(folder)
            if below.parts[0] not in leave and path.is_file():
                yield path, below


def _shipped_left(folder: Path, area: str, suffix: str, report: FolderImport) -> None:
    """Zyzzyva's own searches or quizzes, copied into the folder as it starts: named once, left alone."""
    shipped = folder / area / "predefined"
    count = sum(1 for _ in shipped.rglob(f"*{suffix}")) if shipped.is_dir() else 0
    if count:
        what = counted(count, "search", "searches") if area == "search" else counted(count, "quiz", "quizzes")
        report.skipped.append((f"{area}/predefined/", f"the {what} Zyzzyva ships, copied there: lexitrain has its "
                               "own built-in lists (`lexitrain quiz --list NAME`, quizzes/lists.toml)"))


def search_name(below: Path) -> str:
    """A saved search's name here from its file below Zyzzyva's search folder (`saved/JQXZ/Q 4s.zzs`: JQXZ-Q-4s)."""
    parts = list(below.with_suffix("").parts)
    parts = parts[1:] if parts[0] == "saved" and len(parts) > 1 else parts
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", "-".join(parts)).strip("-.")
    return name[:64] or "zyzzyva"


def _word_file(name: str) -> Callable[[list[str]], Path]:
    """Where an In Word List condition's words are kept, as a word file the saved search reads."""

    def keep(words: list[str]) -> Path:
        path = data_folder(KEPT) / "word-lists" / f"{name}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        text = "".join(word.upper() + "\n" for word in words)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            write_atomically(path, text)
        return path

    return keep


def _searches(folder: Path, report: FolderImport) -> None:
    _shipped_left(folder, "search", ".zzs", report)
    known = saved_searches()
    for path, below in _saved_files(folder / "search", ".zzs", ("predefined",)):
        item = f"search/{below.as_posix()}"
        name = search_name(below)
        try:
            text = read_search(path, _word_file(name)).text()
        except NotCarried as exc:
            report.skipped.append((item, str(exc)))
            continue
        if name in known:
            if known[name] != text:
                report.skipped.append((item, f"a search named {name} is saved here already with other conditions "
                                             f"({known[name]}); rename one (`lexitrain searches rename`) and import "
                                             "again"))
            continue
        save_search(name, text)
        known[name] = text
        report.searches += 1
        report.done.append(f"{item}: saved search {name} ({text})")


def list_name(below: Path) -> str:
    """A list's name here from a saved quiz's file below Zyzzyva's quiz folder (`saved/Top 7s.zzq`: Top 7s)."""
    parts = list(below.with_suffix("").parts)
    parts = parts[1:] if parts[0] == "saved" and len(parts) > 1 else parts
    name = re.sub(r"[^\w .-]+", "-", " - ".join(parts)).strip(" -.")[:60]
    return name or "zyzzyva quiz"


def _quizzes(store: ProgressStore, folder: Path, report: FolderImport, opened: Callable[[str], Lexicon]) -> None:
    """Each saved quiz as a list of the words its search finds, kept in the store as an uploaded list is."""
    _shipped_left(folder, "quiz", ".zzq", report)
    lists = set(store.word_list_names())
    for path, below in _saved_files(folder / "quiz", ".zzq", ("predefined", "data")):
        item = f"quiz/{below.as_posix()}"
        name = list_name(below)
        try:
            quiz = read_quiz(path, _word_file(name))
            found = _compiled(quiz.lexicon) if quiz.lexicon else None
            if found is None:
                raise NotCarried(f"its lexicon {quiz.lexicon or '(none named)'} is not compiled here")
            words = [row["word"] for row in run_search(opened(found), quiz.query)]
        except LexitrainError as exc:
            report.skipped.append((item, str(exc)))
            continue
        if not words:
            report.skipped.append((item, f"its search finds no words in {found}"))
            continue
        text = "".join(word + "\n" for word in words)
        if name in lists:
            if store.word_list(name) != text:
                report.skipped.append((item, f"a list named {name!r} is kept here already with other words"))
            continue
        store.keep_word_list(name, text, utc_now().timestamp())
        lists.add(name)
        report.lists += 1
        report.done.append(f"{item}: list {name!r}, the {len(words)} words of its search in {found} "
                           f"({quiz.quiz_type or 'quiz'}; play it with `lexitrain quiz --my-list \"{name}\"`, or from "
                           "Your lists on the home page of `lexitrain web`)")
