"""`lexitrain judge | define | anagram | hooks | search`: the word tools.

Heavy modules (rich, csv, the SQL side of search) are imported inside the
commands that need them, so `lexitrain anagram` starts quickly.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal, Optional

import typer

from lexitrain.cli.options import Json, Lexicon, default_lexicon
from lexitrain.cli.output import emit_json, warn
from lexitrain.cli.root import click_exceptions
from lexitrain.errors import LexitrainError

#: judge, define, anagram, hooks and search (`lexitrain.cli.app` adds them to the root).
commands = typer.Typer()

if TYPE_CHECKING:
    from lexitrain.lexicon.lexicon import Lexicon as LexiconData
    from lexitrain.lexicon.rows import WordRow
    from lexitrain.search.query import Query

Definitions = Annotated[bool, typer.Option(
    "--definitions", "-d", help="Add each word's lexicon symbols and definition (text and --json).")]


def _word_facts(lex: LexiconData, words: list[str]) -> dict[str, dict[str, Any]]:
    """`{"valid", "symbols", "definition"}` of each of WORDS (uppercase); "" where the lexicon has none."""
    from lexitrain.search.execute import rows_for_words

    rows = {row["word"]: row for row in rows_for_words(lex, words)}
    return {word: {"valid": word in rows, "symbols": rows[word]["symbols"] if word in rows else "",
                   "definition": rows[word]["definition"] if word in rows else ""}
            for word in words}


def _facts_text(facts: dict[str, Any]) -> str:
    """Symbols and definition as a text column ("" when the lexicon has neither)."""
    return "  ".join(part for part in (facts["symbols"], facts["definition"]) if part)



@commands.command()
def judge(
    *,
    ctx: typer.Context,
    words: Optional[list[str]] = typer.Argument(None, help="Words to check (spaces or commas between them)."),
    lexicon: Lexicon,
    secret: bool = typer.Option(False, "--secret", help="Only say whether the whole play is valid, not which word failed "
                                "(with --json: {\"valid\": bool} instead of {\"WORD\": bool, ...})."),
    kiosk: bool = typer.Option(False, "--kiosk", help="The club night's word judge on this terminal, full screen: "
                               "the players type a play, it says VALID or NOT VALID in large letters for the whole "
                               "play, clears after 15 s and logs every judgement; it closes only to the host's key "
                               "(chosen as it starts)."),
    clear_after: float = typer.Option(15.0, "--clear-after", help="With --kiosk: seconds a verdict stays up."),
    definitions: Definitions = False,
    json_out: Json = False,
) -> None:
    """Are these words valid? Exit status 0 only if every one is.

    With --definitions, --json gives {"WORD": {"valid", "symbols", "definition"}, ...}.
    """
    from lexitrain.lexicon.catalog import open_lexicon
    from lexitrain.search.judging import judge_play

    if kiosk:
        _judge_in_kiosk(lexicon, clear_after, bool(words or secret or definitions or json_out))
        return
    typed = _words_to_judge(ctx, words, secret, definitions)
    lex = open_lexicon(lexicon)
    judgement = judge_play(lex, typed)
    if definitions:
        _judge_with_definitions(lex, typed, json_out)
    elif json_out:
        emit_json({"valid": judgement.valid} if secret else judgement.verdicts)
    elif secret:
        typer.echo(f"The play is {'VALID' if judgement.valid else 'NOT valid'} in {lex.name}")
    else:
        for word, ok in judgement.verdicts.items():
            typer.echo(f"{word:<16} {'valid' if ok else 'NOT valid'}")
    if not judgement.valid:
        raise typer.Exit(1)


def _judge_in_kiosk(lexicon: str, clear_after: float, other_options: bool) -> None:
    """`judge --kiosk`: the players type the words, so words or another option given with it are refused."""
    from lexitrain.lexicon.catalog import open_lexicon

    if other_options:
        raise LexitrainError("--kiosk takes no words and no other option but --lexicon: the players type them")
    from lexitrain.cli.kiosk import run_kiosk

    if not 1 <= clear_after <= 600:
        raise LexitrainError(f"--clear-after {clear_after:g}: give 1 to 600 seconds")
    run_kiosk(open_lexicon(lexicon), clear_after)


def _words_to_judge(ctx: typer.Context, words: list[str] | None, secret: bool, definitions: bool) -> list[str]:
    """The words of the play as typed (' cat ' pasted from elsewhere is CAT; `qat,zax` two words); an empty
    one is a typing slip and a blank's mark (`QA?`) a pattern for `search`, both refused with what to do."""
    from lexitrain.search.judging import BlankTyped, words_typed

    if not words:
        raise click_exceptions().UsageError("Missing argument 'words'. Give the words of a play (lexitrain judge QAT ZAX), or "
                               "--kiosk for the club's word judge.", ctx)
    for i, word in enumerate(words, 1):  # a blank argument is a typing slip, not an invalid word
        if not word.strip():
            raise LexitrainError("empty word" + (f" (word {i} of {len(words)})" if len(words) > 1 else ""))
    if secret and definitions:
        raise LexitrainError("--definitions would tell which word is not valid: not with --secret")
    try:
        return words_typed(words)
    except BlankTyped as exc:
        raise LexitrainError(f"{exc} (`lexitrain search --pattern '{exc.word}'` lists the words it could be)") from None


def _judge_with_definitions(lex: LexiconData, words: list[str], json_out: bool) -> None:
    facts = _word_facts(lex, words)
    if json_out:
        emit_json(facts)
        return
    for word, fact in facts.items():
        typer.echo(f"{word:<16} {'valid' if fact['valid'] else 'NOT valid':<9}  {_facts_text(fact)}".rstrip())


@commands.command()
def define(
    *,
    words: list[str] = typer.Argument(..., help="Words to define."),
    lexicon: Lexicon,
    json_out: Json = False,
) -> None:
    """Each word's lexicon symbols and definition, Zyzzyva's links written out.

    A word not in the lexicon is a one-line error (the others are still defined);
    the exit status is 0 only if every one is a word. --json gives
    {"WORD": {"valid", "symbols", "definition"}, ...}.
    """
    from lexitrain.lexicon.catalog import open_lexicon

    lex = open_lexicon(lexicon)
    facts = _word_facts(lex, [word.strip().upper() for word in words])
    if json_out:
        emit_json(facts)
    else:
        width = max(len(word) for word in facts)
        for word, fact in facts.items():
            if not fact["valid"]:
                typer.echo(f"error: {word or repr(word)} is not a word in {lex.name}", err=True)
                continue
            typer.echo(f"{word:<{width}}  {_facts_text(fact) or f'(no definition in {lex.name})'}")
    if not all(fact["valid"] for fact in facts.values()):
        raise typer.Exit(1)


@commands.command()
def anagram(
    *,
    letters: str = typer.Argument(..., help="The rack: letters, ? for a blank, [CH] for a multi-letter tile."),
    build: bool = typer.Option(False, "--build", "-b", help="Every word of 2 or more tiles from the rack."),
    lexicon: Lexicon,
    definitions: Definitions = False,
    json_out: Json = False,
) -> None:
    """Words using exactly these tiles (or, with --build, any 2+ of them).

    The letters played by blanks are lowercase, in text and in --json. With
    --definitions, --json gives [{"word", "symbols", "definition"}, ...].
    """
    from lexitrain.lexicon.catalog import open_lexicon
    from lexitrain.search.racks import rack_words, spell_with_blanks

    lex = open_lexicon(lexicon)
    tiles = lex.tiles
    found = rack_words(lex, letters, build=build)
    found.sort(key=lambda w: (-len(w.code), tiles.sort_key(w.code)))
    spelled = [spell_with_blanks(tiles, w) for w in found]
    if definitions:
        _anagrams_with_definitions(lex, spelled, json_out)
    elif json_out:
        emit_json(spelled)
    else:
        sys.stdout.write("".join(word + "\n" for word in spelled))
    if not found and not json_out:
        typer.echo(f"no words from {letters.upper()} in {lexicon}", err=True)


def _anagrams_with_definitions(lex: LexiconData, spelled: list[str], json_out: bool) -> None:
    """Each word (blanks lowercase) with the symbols and definition of the word it spells."""
    facts = _word_facts(lex, [word.upper() for word in spelled])
    if json_out:
        emit_json([{"word": word, "symbols": facts[word.upper()]["symbols"],
                    "definition": facts[word.upper()]["definition"]} for word in spelled])
        return
    width = max((len(word) for word in spelled), default=0)
    sys.stdout.write("".join(f"{word:<{width}}  {_facts_text(facts[word.upper()])}".rstrip() + "\n"
                             for word in spelled))


@commands.command()
def hooks(
    *,
    word: str = typer.Argument(..., help="A word (it need not be valid itself)."),
    extensions: bool = typer.Option(False, "--extensions", "-e", help="Also list longer words containing it."),
    lexicon: Lexicon,
    definitions: Definitions = False,
    json_out: Json = False,
) -> None:
    """Front and back hooks, inner hooks, stems (+1 tile anagrams) and extensions.

    With --definitions, the word's symbols and definition too (--json: "symbols", "definition").
    """
    from lexitrain.lexicon.catalog import open_lexicon
    from lexitrain.search import hooks as hooks_mod

    lex = open_lexicon(lexicon)
    tiles = lex.tiles
    code = hooks_mod.word_code(lex, word)
    found = hooks_mod.hooks(lex, code)
    stems = hooks_mod.stems(lex, code)
    data: dict[str, Any] = {
        "word": tiles.decode(code),
        "valid": found.valid,
        "front_hooks": tiles.display_alphagram(found.front),
        "back_hooks": tiles.display_alphagram(found.back),
        "inner_front": found.inner_front,
        "inner_back": found.inner_back,
        "stems": {tiles.decode(t): [tiles.decode(c) for c in words] for t, words in stems.items()},
    }
    if definitions:
        facts = _word_facts(lex, [data["word"]])[data["word"]]
        data.update(symbols=facts["symbols"], definition=facts["definition"])
    if extensions:
        data["extensions"] = {
            side: [tiles.decode(c) for c in codes] for side, codes in hooks_mod.extensions(lex, code).items()
        }
    if json_out:
        emit_json(data)
        return
    _print_hooks(data, lexicon)


def _print_hooks(data: dict[str, Any], lexicon: str) -> None:
    dot_front = "·" if data["inner_front"] else " "
    dot_back = "·" if data["inner_back"] else " "
    validity = "" if data["valid"] else f"   (not a word in {lexicon})"
    facts = f"  {_facts_text(data)}" if data.get("symbols") or data.get("definition") else ""
    typer.echo(f"{data['front_hooks']:>8} {dot_front}{data['word']}{dot_back} {data['back_hooks']}{validity}{facts}")
    if data["stems"]:
        typer.echo(f"{data['word']} + one tile:")
        for tile, words in data["stems"].items():
            typer.echo(f"  +{tile}  {' '.join(words)}")
    for side, words in data.get("extensions", {}).items():
        typer.echo(f"extensions ({side}, {len(words)}): {' '.join(words)}")


SEARCH_HELP = """Find words meeting every condition (AND); see docs/search.md.

\b
Conditions (put --not- before one to turn it round; give any one again to add to it;
--or starts another group of conditions, and a word meeting any group is found):
  --length 7 | 7-8          --anagram LETTERS        --subanagram LETTERS
  (? one tile, * any run, [ABC] one of, [^ABC] none of, (CH) one multi-letter tile)
  --pattern PAT    --regex RE    --starts-with S    --ends-with S
  --takes-prefix S   --takes-suffix S   (make another word with S in front / behind)
  --front-hook [S]   --back-hook [S]     (takes a hook; with S: takes each of S)
  --inner-front   --inner-back   --includes LETTERS   --excludes LETTERS
  --consists-of AEIOU:70-100   (a share in percent of the tiles; no share: all of them)
  --probability 1-500   --probability-lax 1-500   (ties at the edges too)
  (alphagram ranks; --probability-by word, --blanks 0|1|2)
  --playability 1-500   (rank within the length by plays in self-play, 1 the most played)
  --anagrams N-M   --vowels N-M   --points N-M   --unique-letters N-M
  --group type1-sevens|type2-sevens|type3-sevens|type1-eights|type2-eights|type3-eights|
          eights-from-seven-stems|high-fives|hook-words|front-hooks|back-hooks
  --in-lexicon NAME   --in-word-list FILE   --symbol S
  --definition WORDS   (words beginning so in the definition: fish finds fish, fishes)
  --part-of-speech n|v|adj|adv|...    --lexicon NAME

\b
Order and limits:
  --order alphabetical|probability|alphagram|length|random|playability|points-per-game   --seed N
  (points-per-game: the points a game of self-play holds in the word, the most first, whatever
  the length; --points N-M is the face value of its tiles)
  --limit N   --limit-probability 1-100 (or --limit-probability-lax)  (Zyzzyva's, last)
Saved searches: --save NAME [--replace], --load NAME (or --saved NAME); `lexitrain searches` lists them.
The table and --json carry each word's definition; with --words, -d (--definitions) makes each line
`WORD definition`, a word list with definitions as `lexicon build` and Zyzzyva read one.
"""

#: Typer settings for a command that reads search conditions from its extra arguments
#: (`ctx.args`, handed to `lexitrain.search.sources.results_from_source(conditions=...)`).
TAKES_CONDITIONS = {"allow_extra_args": True, "ignore_unknown_options": True}


@commands.command(help=SEARCH_HELP, context_settings=TAKES_CONDITIONS)
def search(
    ctx: typer.Context,
    json_out: Json = False,
    csv_out: bool = typer.Option(False, "--csv", help="CSV with a header row."),
    words_out: bool = typer.Option(False, "--words", help="One word per line, for piping."),
    save: Optional[str] = typer.Option(None, "--save", help="Save these conditions under a name."),
    replace: bool = typer.Option(False, "--replace", help="With --save: replace a search saved under that name."),
    load: Optional[str] = typer.Option(None, "--load", "--saved", help="Start from a saved search (more conditions "
                                       "AND on)."),
    builtin: Optional[str] = typer.Option(None, "--list", help="Start from a built-in list (twos, top-sevens, ...)."),
    definitions: Definitions = False,
) -> None:
    from lexitrain.lexicon.catalog import open_lexicon
    from lexitrain.search.execute import run_search, search_notes
    from lexitrain.search.saved import save_search

    if sum((json_out, csv_out, words_out)) > 1:
        raise LexitrainError("choose one of --json, --csv and --words")
    if replace and save is None:
        raise LexitrainError("--replace goes with --save NAME")
    query = _query_asked(ctx.args, builtin, load)
    lex = open_lexicon(query.lexicon or default_lexicon())
    rows = run_search(lex, query)
    if save is not None:
        save_search(save, query.text(), replace=replace)
    for note in search_notes(lex, query):
        warn(note)
    if json_out or csv_out or words_out:
        _write_rows(rows, lex, query, "json" if json_out else "csv" if csv_out else "words", definitions)
    else:
        _print_table(rows, query.probability_by, query.blanks,
                     lex.points_per_game() if query.order == "points-per-game" else None)
        if save is not None:
            typer.echo(f"saved as {save!r}", err=True)


def _query_asked(args: list[str], builtin: str | None, load: str | None) -> Query:
    """The conditions given, ANDed on a built-in list's and a saved search's; none at all is refused, with the
    saved searches named."""
    from lexitrain.search.lists import builtin_list
    from lexitrain.search.query import Query, parse_query
    from lexitrain.search.saved import load_search, saved_searches

    query = Query()
    if builtin is not None:
        query = query.narrowed(parse_query(builtin_list(builtin).query))
    if load is not None:
        query = query.narrowed(parse_query(load_search(load)))
    query = query.narrowed(parse_query(args))
    if not query.has_conditions:
        saved = ", ".join(saved_searches()) or "none"
        raise LexitrainError(f"give at least one condition, e.g. --length 7 (saved searches: {saved})")
    return query


def _write_rows(rows: list[WordRow], lex: LexiconData, query: Query, form: str, definitions: bool) -> None:
    """The rows for a program: as JSON (with each word's points a game when the order is by them, as the table's
    Pts/game column), CSV, or one word a line (with its definition if asked)."""
    if form == "json" and query.order == "points-per-game":
        points = lex.points_per_game()
        emit_json([{**row, "points_per_game": round(points.get(row["word"], 0.0), 4)} for row in rows])
    elif form == "json":
        emit_json(rows)
    elif form == "csv":
        _write_csv(rows)
    else:
        sys.stdout.write("".join(f"{r['word']} {r['definition']}".rstrip() + "\n" if definitions else r["word"] + "\n"
                                 for r in rows))


searches_app = typer.Typer(name="searches", help="List, show, rename and delete saved searches.",
                           no_args_is_help=True)


@searches_app.command("list")
def searches_list(json_out: Json = False) -> None:
    """Every saved search with its conditions."""
    from lexitrain.search.saved import saved_searches

    found = saved_searches()
    if json_out:
        emit_json([{"name": name, "conditions": text} for name, text in found.items()])
        return
    if not found:
        typer.echo("no saved searches (save one with `lexitrain search ... --save NAME`)", err=True)
    width = max((len(name) for name in found), default=0)
    for name, text in found.items():
        typer.echo(f"{name:<{width}}  {text}")


@searches_app.command("show")
def searches_show(name: str = typer.Argument(..., help="A saved search."), json_out: Json = False) -> None:
    """The conditions of one saved search (run it with `lexitrain search --load NAME`)."""
    from lexitrain.search.saved import load_search

    text = load_search(name)
    if json_out:
        emit_json({"name": name, "conditions": text})
    else:
        typer.echo(text)


@searches_app.command("rename")
def searches_rename(
    old: str = typer.Argument(..., help="The saved search."),
    new: str = typer.Argument(..., help="Its new name."),
    replace: bool = typer.Option(False, "--replace", help="Replace a search already saved under the new name."),
) -> None:
    """Give a saved search another name."""
    from lexitrain.search.saved import rename_search

    rename_search(old, new, replace=replace)
    typer.echo(f"renamed {old!r} to {new!r}", err=True)


@searches_app.command("delete")
def searches_delete(name: str = typer.Argument(..., help="The saved search.")) -> None:
    """Forget a saved search."""
    from lexitrain.search.saved import delete_search

    delete_search(name)
    typer.echo(f"deleted {name!r}", err=True)


CSV_COLUMNS = (
    "word", "alphagram", "length", "probability_rank", "alphagram_rank", "combinations",
    "front_hooks", "back_hooks", "inner_front", "inner_back", "anagrams", "points", "vowels",
    "symbols", "definition",
)


def _write_csv(rows: list[WordRow]) -> None:
    import csv

    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        fields: Mapping[str, Any] = row
        writer.writerow(
            [" ".join(map(str, fields[c])) if c == "combinations" else fields[c] for c in CSV_COLUMNS]
        )


def _table_cells(
    rows: list[WordRow], probability_by: str, blanks: int = 2, points: Mapping[str, float] | None = None,
) -> tuple[list[str], list[list[str]]]:
    """Zyzzyva-like: alphagram and rank once per group, hooks either side, inner-hook dots.

    The rank shown is the one the search used (`--blanks`), so it matches the range asked for;
    with `points` (the search ordered by points per game), the points a game holds in each word beside it.
    """
    ranks: Literal["alphagram_ranks", "probability_ranks"] = (
        "alphagram_ranks" if probability_by == "alphagram" else "probability_ranks")
    header = ["Prob", "Alphagram", "", "Word", ""]
    with_symbols = any(r["symbols"] for r in rows)
    with_defs = any(r["definition"] for r in rows)
    with_points = points is not None
    header += [POINTS_HEADER] * with_points + ["Sym"] * with_symbols + ["Definition"] * with_defs
    cells = []
    previous = None
    for r in rows:
        first = r["alphagram"] != previous or ranks == "probability_ranks"
        previous = r["alphagram"]
        word = ("·" if r["inner_front"] else " ") + r["word"] + ("·" if r["inner_back"] else " ")
        line = [str(r[ranks][blanks]) if first else "", r["alphagram"] if first else "", r["front_hooks"], word, r["back_hooks"]]
        if points is not None:
            line.append(f"{points.get(r['word'], 0.0):.2f}")
        line += [r["symbols"]] * with_symbols + [r["definition"]] * with_defs
        cells.append(line)
    return header, cells


#: Right-aligned columns (rank, front hooks) and the ANSI style of each column on a terminal
#: (the columns after the back hooks have none).
_RIGHT = (0, 2)
_STYLES = ("2", "36", "32", "1", "32")
#: the column of the points a game holds in a word (`--order points-per-game`)
POINTS_HEADER = "Pts/game"


def _print_table(rows: list[WordRow], probability_by: str, blanks: int = 2,
                 points: Mapping[str, float] | None = None) -> None:
    """Plain aligned columns, styled on a terminal (rich's Table took over a second for 500 rows)."""
    if not rows:
        typer.echo("no words match", err=True)
        return
    header, cells = _table_cells(rows, probability_by, blanks, points)
    right = _RIGHT + ((header.index(POINTS_HEADER),) if POINTS_HEADER in header else ())
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(header)]
    widths[-1] = 0  # the last column is not padded: a long definition runs on
    styled = sys.stdout.isatty() and "NO_COLOR" not in os.environ
    out = []
    for n, line in enumerate([header, *cells]):
        parts = []
        for i, (cell, width) in enumerate(zip(line, widths)):
            text = cell.rjust(width) if i in right else cell.ljust(width)
            style = "1" if n == 0 else _STYLES[i] if i < len(_STYLES) else ""
            parts.append(f"\x1b[{style}m{text}\x1b[0m" if styled and style and cell else text)
        out.append("  ".join(parts).rstrip())
    count = f"{len(rows):,} word{'' if len(rows) == 1 else 's'}"
    out.append(f"\x1b[2m{count}\x1b[0m" if styled else count)
    sys.stdout.write("\n".join(out) + "\n")
