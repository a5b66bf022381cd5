"""`lexitrain study deck | decks | move | suspend | unsuspend | delete | card | cards | leeches | tournament | from-games`.

Commands on single cards and on decks, and the cards made from a player's games, added to the `study` group.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional, TYPE_CHECKING

import typer

from lexitrain.cli.options import Json, Lexicon, files_lexicon, lexicon_given, open_study_lexicon
from lexitrain.cli.output import counted, emit_json, warn
from lexitrain.cli.study_cmd import study_app
from lexitrain.errors import LexitrainError

if TYPE_CHECKING:
    from lexitrain.lexicon.lexicon import Lexicon as LexiconData
    from lexitrain.study.store import CardRow, ProgressStore

Cards = typer.Argument(None, help="Cards as KIND:KEY (anagram:AEINRST, hooks:CARE) or their letters (see --kind).")
Kind = typer.Option(None, "--kind", help="The kind of the cards named by their letters (default anagram).")
Search = typer.Option(None, "--search", help="Also every existing card of a search, e.g. \"--length 7\".")


def _open(lexicon: str) -> tuple[ProgressStore, LexiconData]:
    """The store and the study lexicon (a removed one is an error saying how to pick another)."""

    from lexitrain.study.store import ProgressStore

    return ProgressStore(), open_study_lexicon(lexicon)


def _selected(store: ProgressStore, lex: LexiconData, names: list[str] | None, kind: str | None, search: str | None
              ) -> list[CardRow]:
    """The cards named, and those of a search that exist (a search with none is an error)."""
    from lexitrain.study.records.cards import find_cards

    cards = find_cards(store, lex, list(names), kind) if names else []
    if search is not None:
        from lexitrain.study.quiz.kinds.base import new_kind
        from lexitrain.study.quiz.sources import question_keys, question_results

        chosen = new_kind(kind or "anagram")
        found = [store.find_card(lex.name, chosen.name, key)
                 for key in question_keys(chosen, question_results(lex, query=search))]
        cards += [c for c in found if c is not None]
        if not any(found):
            raise LexitrainError(f"the search {search!r} names no {chosen.name} card in {lex.name} yet")
    if not names and search is None:
        raise LexitrainError("name the cards (KIND:KEY or their letters) or give --search")
    return list({c.id: c for c in cards}.values())


@study_app.command("deck")
def deck(
    *,
    name: str = typer.Argument(..., help="The deck's name."),
    retention: Optional[float] = typer.Option(None, "--retention", help="Its FSRS desired retention (0.70-0.99)."),
    new: Optional[int] = typer.Option(None, "--new", help="Most of its new cards a day."),
    reviews: Optional[int] = typer.Option(None, "--reviews", help="Most of its reviews a day."),
    delete: bool = typer.Option(False, "--delete", help="Delete the deck (its cards stay, in no deck)."),
    lexicon: Lexicon,
    json_out: Json = False,
) -> None:
    """Make a deck, or change its own settings (those not given stay as they are)."""
    from lexitrain.study.records import decks

    store, lex = _open(lexicon)
    with store:
        if delete:
            if any(v is not None for v in (retention, new, reviews)):
                raise LexitrainError("--delete takes no settings")
            freed = decks.remove(store, lex.name, name)
            if json_out:
                emit_json({"deleted": name, "cards": freed})
            else:
                typer.echo(f"deck {name} deleted; its {counted(freed, 'card')} {'is' if freed == 1 else 'are'} in no "
                           "deck now")
            return
        saved = decks.save(store, lex.name, name, decks.DeckSettings(retention, new, reviews))
    if json_out:
        emit_json({"name": saved.name, "retention": saved.retention, "new_per_day": saved.new_per_day,
                   "reviews_per_day": saved.reviews_per_day})
    else:
        new_text = ("the general number of new cards" if saved.new_per_day is None
                    else counted(saved.new_per_day, "new card"))
        review_text = ("the general number of reviews" if saved.reviews_per_day is None
                       else counted(saved.reviews_per_day, "review"))
        typer.echo(f"deck {saved.name}: retention {saved.retention or 'general'}, {new_text} and {review_text} a day")


@study_app.command("decks")
def decks_(*, lexicon: Lexicon, json_out: Json = False) -> None:
    """The decks with their settings and cards (and the cards in no deck)."""
    from lexitrain.study.quiz.scheduler import load_scheduling
    from lexitrain.study.records import decks

    store, lex = _open(lexicon)
    with store:
        rows = decks.listing(store, lex.name, load_scheduling(store))
    if json_out:
        emit_json(rows)
        return
    for row in rows:
        limits = ", ".join(f"{counted(row[k], label)} a day" for k, label in (("new_per_day", "new card"),
                                                                              ("reviews_per_day", "review"))
                           if row[k] is not None)
        typer.echo(f"{row['name'] or '(no deck)'}: {counted(row['cards'], 'card')} ({row['suspended']} suspended), "
                   f"retention {row['retention']}" + (f", {limits}" if limits else ""))


@study_app.command("move")
def move(
    *,
    cards: Optional[list[str]] = Cards,
    deck: str = typer.Option(..., "--deck", help="The deck to put them in (`none`: in no deck)."),
    kind: Optional[str] = Kind,
    search: Optional[str] = Search,
    lexicon: Lexicon,
) -> None:
    """Move cards into a deck."""
    from lexitrain.study.records import decks

    store, lex = _open(lexicon)
    with store:
        chosen = _selected(store, lex, cards, kind, search)
        moved = decks.move(store, lex.name, chosen, deck)
    typer.echo(f"moved {counted(moved, 'card')} to {deck} ({len(chosen) - moved} were there already)")


def _suspend(cards: Optional[list[str]], kind: Optional[str], search: Optional[str], leeches: bool,
             lexicon: str, suspended: bool) -> None:
    from lexitrain.study.records.cards import leeches as find_leeches

    store, lex = _open(lexicon)
    with store:
        chosen = find_leeches(store, lex.name) if leeches else []
        if cards or search is not None or not leeches:
            chosen += _selected(store, lex, cards, kind, search)
        changed = store.set_suspended((c.id for c in chosen), suspended)
    typer.echo(f"{'suspended' if suspended else 'unsuspended'} {counted(changed, 'card')} "
               f"({len({c.id for c in chosen}) - changed} were already)")


@study_app.command("suspend")
def suspend(
    *,
    cards: Optional[list[str]] = Cards,
    kind: Optional[str] = Kind,
    search: Optional[str] = Search,
    leeches: bool = typer.Option(False, "--leeches", help="Every leech."),
    lexicon: Lexicon,
) -> None:
    """Suspend cards: never asked until unsuspended, their schedule kept."""
    _suspend(cards, kind, search, leeches, lexicon, True)


@study_app.command("unsuspend")
def unsuspend(
    *,
    cards: Optional[list[str]] = Cards,
    kind: Optional[str] = Kind,
    search: Optional[str] = Search,
    leeches: bool = typer.Option(False, "--leeches", help="Every leech."),
    lexicon: Lexicon,
) -> None:
    """Take suspended cards back into study (they are due as they were)."""
    _suspend(cards, kind, search, leeches, lexicon, False)


@study_app.command("delete")
def delete(
    *,
    cards: Optional[list[str]] = Cards,
    kind: Optional[str] = Kind,
    search: Optional[str] = Search,
    lexicon: Lexicon,
) -> None:
    """Delete cards and their schedule (their answers stay in the history); a plan set again makes them new."""
    store, lex = _open(lexicon)
    with store:
        deleted = store.delete_cards(c.id for c in _selected(store, lex, cards, kind, search))
    typer.echo(f"deleted {counted(deleted, 'card')}")


@study_app.command("card")
def card(
    *,
    name: str = typer.Argument(..., help="KIND:KEY (anagram:AEINRST) or the card's letters (see --kind)."),
    kind: Optional[str] = Kind,
    lexicon: Lexicon,
    json_out: Json = False,
) -> None:
    """One card: state, stability, difficulty, retrievability now, due, deck, and every answer it was given."""
    from lexitrain.study.records.cards import look_up

    store, lex = _open(lexicon)
    with store:
        data = look_up(store, lex, name, kind).to_json()
    if json_out:
        emit_json(data)
        return
    flags = [f for f, on in (("suspended", data["suspended"]), ("leech", data["leech"])) if on]
    typer.echo(f"{data['id']} ({data['lexicon']}, deck {data['deck'] or 'none'}){'  ' + ' '.join(flags) if flags else ''}")
    typer.echo(f"  {data['state']}, due {data['due'] or '-'}, last review {data['last_review'] or '-'}")
    typer.echo(f"  stability {_num(data['stability'])} days, difficulty {_num(data['difficulty'])}, "
               f"retrievability now {data['retrievability']:.1%}, Leitner box {_num(data['leitner_box'])}, "
               f"{data['correct']} right / {data['incorrect']} wrong")
    for r in data["reviews"]:
        verdict = r["rating"] or ("right" if r["correct"] else "wrong")
        seconds = "" if r["seconds"] is None else f" in {r['seconds']:.1f} s"
        typer.echo(f"  {r['at']}  {r['mode']:<9} {verdict:<6}{seconds}  {r['given']!r}")


def _num(value: Any) -> str:
    return "-" if value is None else f"{value:.2f}" if isinstance(value, float) else str(value)


@study_app.command("cards")
def cards_(*, lexicon: Lexicon, json_out: Json = False) -> None:
    """How many cards are in each state and each Leitner box (by interval: docs/study.md), suspended, leeches."""
    from lexitrain.study.records.cards import counts

    store, lex = _open(lexicon)
    with store:
        data = counts(store, lex.name)
    if json_out:
        emit_json(data)
        return
    typer.echo(f"{lex.name}: {counted(data['cards'], 'card')}: " + ", ".join(f"{n} {s}" for s, n in data["by_state"].items())
               + f"; {data['suspended']} suspended, {counted(data['leeches'], 'leech', 'leeches')}")
    typer.echo("Leitner boxes (by interval): " + "  ".join(
        f"{box} ({days}d+): {n}" for (box, n), days in zip(data["by_box"].items(), data["box_days"])))


@study_app.command("leeches")
def leeches(
    *,
    failed: Optional[int] = typer.Option(None, "--failed", help="Failed this many times or more "
                                         "(default: the leech setting, `study set --leech`)."),
    lexicon: Lexicon,
    json_out: Json = False,
) -> None:
    """Cards failed again and again, most failed first (drill them with `quiz --leeches`)."""
    from lexitrain.study.records.cards import leeches as find_leeches
    from lexitrain.study.quiz.session import card_json

    store, lex = _open(lexicon)
    with store:
        found = find_leeches(store, lex.name, failed)
        places = {c.id: store.card_place(c.id) for c in found}
    if json_out:
        emit_json([{"id": f"{c.kind}:{c.key}", "incorrect": c.incorrect, "correct": c.correct,
                    "deck": places[c.id][0], "suspended": places[c.id][1], **card_json(c)} for c in found])
        return
    if not found:
        typer.echo(f"no leeches in {lex.name}")
    for c in found:
        typer.echo(f"{c.kind}:{c.key}  {c.incorrect} wrong, {c.correct} right" + ("  (suspended)" if places[c.id][1] else ""))


@study_app.command("tournament")
def tournament(
    *,
    day: str = typer.Argument(..., help="The tournament's date, YYYY-MM-DD (today or later)."),
    retention: float = typer.Option(..., "--retention", help="Recall wanted on that day, e.g. 0.9."),
    lexicon: Lexicon,
    json_out: Json = False,
) -> None:
    """Pull forward the cards FSRS predicts below RETENTION on the day, spread over the days left."""
    from lexitrain.study.drills.tournament import prepare

    store, lex = _open(lexicon)
    with store:
        plan = prepare(store, lex.name, day, retention)
    if json_out:
        emit_json(plan.to_json())
    else:
        first = min(plan.per_day, default=plan.day)  # today: the first day a card may be moved to
        span = "to today, the tournament's day" if first == plan.day else \
            f"over the {counted(plan.days, 'day')} before {plan.day}"
        typer.echo(f"{counted(plan.moved, 'card')} pulled forward {span} "
                   f"({plan.at_risk} predicted below {retention:.0%}, {plan.at_risk - plan.moved} already due in time)")


@study_app.command("from-games")
def from_games(
    *,
    ctx: typer.Context,
    files: list[Path] = typer.Argument(..., help="Recorded games (.gcg)."),
    player: Optional[str] = typer.Option(None, "--player", help="Only this player's turns (nick or name in the files)."),
    points: int = typer.Option(20, "--points", help="A turn giving up more points than this makes a position card."),
    sim_iterations: int = typer.Option(0, "--sim-iterations", help="Simulate every turn with tiles in the bag this "
                                       "many iterations (0: none): a best-play card where the simulation's best play "
                                       "is not a top-scoring one."),
    endgame_time: float = typer.Option(0.0, "--endgame-time", help="Solve every turn with the bag empty, at most "
                                       "this many seconds each (0: none): an endgame card where it is solved exactly."),
    read_rack: bool = typer.Option(False, "--read-rack", help="Also a read-rack card for each opponent's move that "
                                   "kept 1 to 3 tiles: what did they keep? (judged against their recorded rack, "
                                   "where the game has it, and the engine's inference)."),
    lexicon: Lexicon,
    json_out: Json = False,
) -> None:
    """Cards from your games: missed bingos as anagram cards, costly turns as position cards,
    phonies played as valid-or-phony cards; with --sim-iterations and --endgame-time, best-play
    and endgame cards too; with --read-rack, read-the-rack cards; new ones are due now (`quiz --due`). A file that
    does not read or lacks the player is skipped and named (exit 1 when anything was skipped).
    The cards go to the lexicon most games name (their #lexicon) when it is compiled here, the
    study lexicon for a game that names none; a game in another is skipped and named, unless
    --lexicon is given to judge every game by one."""
    from lexitrain.study.records.from_games import cards_from_games

    name, files, left_out = files_lexicon(files, lexicon, lexicon_given(ctx))
    store, lex = _open(name)
    from lexitrain.cli.progress_bar import progress_bar

    with store, progress_bar("from-games", shown=bool(sim_iterations or endgame_time)) as progress:
        found = cards_from_games(store, lex, files, player, points, sim_iterations, endgame_time, progress, read_rack)
    found.skipped[:0] = left_out
    if json_out:
        emit_json({**found.to_json(), "lexicon": lex.name})
    else:
        for reason in found.skipped:
            warn(f"skipped {reason}")
        for note in found.notes:
            warn(note)
        typer.echo(found.said(lex.name))
        if found.simulated:  # as `gcg analyze --sim` says it: a rack read changes what a card's win chances mean
            typer.echo(f"{counted(found.simulated, 'turn')} simulated, {sim_iterations} iterations each: the "
                       f"opponent's rack read from their last move for {found.inferred} of the "
                       f"{len(found.keys['best-play'])} best-play cards (the rest a random draw)")
        if found.unsolved:
            typer.echo(f"{counted(found.unsolved, 'endgame')} of {found.endgames} not solved exactly within "
                       f"{endgame_time:g} s: no card (a longer --endgame-time may solve them)")
    if found.skipped:
        raise typer.Exit(1)


