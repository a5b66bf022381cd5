"""`lexitrain quiz | daily | challenge | study | stats | progress`: study with spaced repetition."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Optional, TYPE_CHECKING

import typer

from lexitrain.cli.options import Feedback, Json, Jsonl, Lexicon, lexicon_given, open_study_lexicon
from lexitrain.cli.output import counted, emit_json, warn, warn_skipped
from lexitrain.cli.positions_cmd import run_from_quiz
from lexitrain.cli.search_cmd import TAKES_CONDITIONS
from lexitrain.errors import LexitrainError
from lexitrain.study.quiz.preferences import WAIT_AFTER_LAST

if TYPE_CHECKING:
    from lexitrain.cli.quiz_ui import Notes
    from lexitrain.lexicon.lexicon import Lexicon as LexiconData
    from lexitrain.study.quiz.session import Session, Summary
    from lexitrain.study.store import ProgressStore

#: quiz, daily, challenge and stats (`lexitrain.cli.app` adds them to the root).
commands = typer.Typer()
study_app = typer.Typer(name="study", help="Set the study plan, daily limits and scheduling; handle a backlog.",
                        no_args_is_help=True)
progress_app = typer.Typer(name="progress", help="Back up, restore and import study progress.", no_args_is_help=True)



def _lexicon(name: str) -> LexiconData:
    return open_study_lexicon(name)


def _store() -> ProgressStore:
    from lexitrain.study.store import ProgressStore

    return ProgressStore()


def _run(session: Session, jsonl: bool, notes: Notes | None = None, feedback: bool = False, flashcard: bool = False
         ) -> Summary:
    if flashcard:
        from lexitrain.cli import flashcards

        return flashcards.run_jsonl(session, feedback) if jsonl else flashcards.run_terminal(session)
    from lexitrain.cli.quiz_ui import run_jsonl, run_terminal

    return run_jsonl(session, feedback) if jsonl else run_terminal(session, notes)


Flashcard = typer.Option(False, "--flashcard", help="Reveal the answers, then grade yourself 1-4 "
                         "(Again, Hard, Good, Easy).")
BySpeed = typer.Option(False, "--grade-by-speed", help="Grade right answers by your own answer times: "
                       "fast Easy, typical Good, slow Hard.")


@commands.command("quiz", context_settings=TAKES_CONDITIONS)
def quiz(
    *,
    ctx: typer.Context,
    subject: Optional[str] = typer.Argument(None, help="`position`: the position quiz (options: "
                                            "`lexitrain positions quiz --help`)."),
    query: Optional[str] = typer.Option(None, "--search", help="A search, e.g. \"--length 7 --probability 1-100\"."),
    saved: Optional[str] = typer.Option(None, "--saved", "--load", help="A saved search."),
    builtin: Optional[str] = typer.Option(None, "--list", help="A built-in list: twos, threes, ..."),
    word_file: Optional[Path] = typer.Option(None, "--file", help="A word file, one word a line."),
    my_list: Optional[str] = typer.Option(None, "--my-list", help="One of your lists: uploaded in the web app or "
                                          "imported from Zyzzyva (its saved quizzes), by name."),
    skip_invalid: bool = typer.Option(False, "--skip-invalid", help="--file: leave out (and list) the words "
                                      "that are not in the lexicon instead of refusing the file."),
    due: bool = typer.Option(False, "--due", help="The cards due now (any list)."),
    leeches: bool = typer.Option(False, "--leeches", help="The leeches: cards failed again and again (`study leeches`)."),
    kind: Optional[str] = typer.Option(
        None, "--kind", help="anagram (the default), anagram-hooks, hooks, recall, build, valid-or-phony; not with --due."
    ),
    minimum: Optional[int] = typer.Option(None, "--min", help="Shortest word for build questions (default 2)."),
    order: str = typer.Option("alphabetical", "--order", help="Letter order: alphabetical, random, vowels-first, consonants-first."),
    limit: Optional[int] = typer.Option(None, "--limit", help="Ask at most this many questions."),
    shuffle: bool = typer.Option(False, "--shuffle", help="Ask the questions in random order."),
    as_listed: bool = typer.Option(False, "--as-listed", help="Keep the source's order (default: probability)."),
    question_time: Optional[float] = typer.Option(None, "--question-time", help="Seconds per question (late = missed)."),
    round_time: Optional[float] = typer.Option(None, "--round-time", help="Seconds for the whole round."),
    no_schedule: bool = typer.Option(False, "--no-schedule", help="Practice only: do not touch the cards."),
    flashcard: bool = Flashcard,
    by_speed: bool = BySpeed,
    whole: bool = typer.Option(False, "--whole", help="One question: type every word of the list (e.g. all twos)."),
    restart: bool = typer.Option(False, "--restart", help="Start the round afresh instead of resuming it."),
    lexicon: Lexicon,
    jsonl: Jsonl = False,
    feedback: Feedback = False,
) -> None:
    """Quiz yourself on a search, a saved search, a list, a word file or the due cards.

    Search conditions may be typed on the command itself, as for `lexitrain search`
    (`quiz --length 7 --probability 1-100`); beside --search, --saved or --list they narrow it.
    The quiz's own --order (letter order) and --limit (questions) are not the search's:
    write a search's order or limit inside --search "...".
    """

    if subject == "position":
        return run_from_quiz(ctx.args, lexicon, jsonl, limit, no_schedule)
    if subject is not None and not subject.startswith("-"):
        raise LexitrainError(f"quiz: unexpected {subject!r} (the only quiz subject is `position`; "
                             "search conditions start with --)")
    conditions = ([subject] if subject is not None else []) + list(ctx.args)  # click takes the first for SUBJECT
    if query is None and my_list is None and not (saved or builtin or word_file or due or leeches or conditions):
        raise LexitrainError('quiz on what? give --search "...", search conditions (--length 7 ...), --saved NAME, '
                             "--list NAME, --my-list NAME, --file FILE, --due or --leeches (or `lexitrain quiz "
                             "position`)")
    from lexitrain.study.drills.requests import QuizRequest, Words, quiz_source

    words = Words(query=query, saved=saved, builtin=builtin, word_file=word_file, upload=my_list,
                  conditions=tuple(conditions), skip_invalid=skip_invalid)
    request = QuizRequest(quiz_source(words, due=due, leeches=leeches, whole=whole), kind=kind,
                          minimum=minimum, order=order, limit=limit, shuffle=shuffle, as_listed=as_listed,
                          question_time=question_time, round_time=round_time, schedule=not no_schedule,
                          flashcard=flashcard, speed_grades=by_speed, restart=restart)
    with _store() as store:
        _run(request.start(store, _lexicon(lexicon), skipped=warn_skipped), jsonl, feedback=feedback, flashcard=flashcard)


@commands.command("daily")
def daily(
    *,
    lexicon: Lexicon,
    order: str = typer.Option("alphabetical", "--order", help="Letter order: alphabetical, random, vowels-first, consonants-first."),
    status_only: bool = typer.Option(False, "--status", help="Only say what today's drill holds (as JSON with --json)."),
    flashcard: bool = Flashcard,
    by_speed: bool = BySpeed,
    json_out: Json = False,
    jsonl: Jsonl = False,
    feedback: Feedback = False,
) -> None:
    """Today's drill: due reviews, then new cards from the study plan, within the daily limits."""
    from lexitrain.study.drills.requests import DailyRequest

    request = DailyRequest(order, flashcard=flashcard, speed_grades=by_speed)
    with _store() as store:
        lex = _lexicon(lexicon)
        state = request.status(store, lex)
        if status_only:
            data = {"lexicon": lex.name, "new_done": state.new_done, "reviews_done": state.reviews_done,
                    "new_left": state.new_left, "reviews_left": state.reviews_left,
                    "due_later_today": state.due_later_today,
                    "new_answered": state.new_answered, "reviews_answered": state.reviews_answered,
                    "limits": {"new": state.limits.new, "reviews": state.limits.reviews}}
            if json_out:
                emit_json(data)
            else:
                later = f"; {_due_later(state.due_later_today)}" if state.due_later_today else ""
                typer.echo(f"{lex.name}: {counted(state.reviews_left, 'review')} and "
                           f"{counted(state.new_left, 'new card')} left today "
                           f"(done {counted(state.reviews_answered, 'review')}, {state.new_answered} new){later}")
            return
        if not jsonl and state.nothing_left:
            more = (f"{_due_later(state.due_later_today)} (run `lexitrain daily` again then)" if state.due_later_today
                    else "more are due tomorrow")
            typer.echo(f"nothing left {'now' if state.due_later_today else 'today'} in {lex.name}: {counted(state.reviews_answered, 'review')} and "
                       f"{counted(state.new_answered, 'new card')} done; {more} (`lexitrain daily --status`)")
            return
        _run(request.start(store, lex), jsonl, feedback=feedback, flashcard=flashcard)


def _due_later(n: int) -> str:
    """The reviews still to fall due today (cards in their learning steps), as both daily lines say it."""
    return f"{counted(n, 'review')} more {'falls' if n == 1 else 'fall'} due later today"


@commands.command("challenge")
def challenge(
    *,
    day: Optional[str] = typer.Option(None, "--date", help="YYYY-MM-DD (default today)."),
    kind: Optional[str] = typer.Option(
        None, "--kind", help="sevens (the default), twos .. fifteens, twos-to-fifteens, blank-bingos, bingo-marathon, "
        "builder-3-6, builder-4-7, builder-5-8, week-toughies, all-time-toughies; with --history, only that kind."
    ),
    lexicon: Lexicon,
    no_timer: bool = typer.Option(False, "--no-timer", help="Untimed (the round time is still recorded)."),
    show_history: bool = typer.Option(False, "--history", help="Show past attempts and personal bests instead "
                                      "(as JSON with --json)."),
    share: bool = typer.Option(False, "--share", help="Print one line with the set's hash and the official score "
                               "of that date and kind, for another player to --verify."),
    verify: Optional[str] = typer.Option(None, "--verify", help="Check another player's --share LINE against "
                                         "your own set (exit 1 if it differs)."),
    json_out: Json = False,
    jsonl: Jsonl = False,
    feedback: Feedback = False,
) -> None:
    """The daily challenge: the same set for everyone with the same word list, on that date and kind."""
    from lexitrain.study.drills import challenge as ch

    if share or verify is not None:
        return _share_or_verify(lexicon, day, "sevens" if kind is None else kind, verify, json_out)
    if show_history:
        ch.check_kind("sevens" if kind is None else kind)
        with _store() as store:
            _show_history(store, _lexicon(lexicon).name, kind, json_out)
        return
    from lexitrain.study.drills.requests import ChallengeRequest

    request = ChallengeRequest("sevens" if kind is None else kind, day, timed=not no_timer)
    with _store() as store:
        lex = _lexicon(lexicon)

        def notes(summary: Summary) -> dict[str, Any]:  # the terminal names the personal best (and a retake as one)
            best = ch.personal_best(store, lex.name, request.kind)
            shown = {"personal best": f"{best.score}/{best.total} in {best.seconds:.0f} s on {best.date}"
                     if best else "none yet (finish a round to set one)"}
            if summary.details.get("retake"):
                shown["this attempt"] = "a retake (that day's first finished attempt is the official one)"
            return shown

        _run(request.start(store, lex), jsonl, notes, feedback)


def _share_or_verify(lexicon: str, day: Optional[str], kind: str, line: Optional[str], json_out: bool) -> None:
    """`--share`: the official score's line; `--verify LINE`: whether it was made on this player's set."""
    from lexitrain.study.drills import challenge_share
    from lexitrain.study.drills.challenge import parse_day

    if line is None:
        with _store() as store:
            shared = challenge_share.share(store, _lexicon(lexicon), parse_day(day), kind)
        if json_out:
            emit_json({"line": shared.line, **shared.to_json()})
        else:
            typer.echo(shared.line)
        return
    verdict = challenge_share.verify(_lexicon(lexicon), line)
    if json_out:
        emit_json(verdict.to_json())
    elif verdict.ok:
        s = verdict.shared
        typer.echo(f"same set: {s.score}/{s.total} in {s.seconds:.0f} s on {s.kind} {s.day.isoformat()}")
    else:
        typer.echo(f"not verified: {verdict.reason}", err=True)
    if not verdict.ok:
        raise typer.Exit(1)


def _show_history(store: ProgressStore, lexicon: str, kind: Optional[str], json_out: bool) -> None:
    """Past attempts, newest first, and the personal best of each kind (or of KIND)."""
    from lexitrain.study.drills import challenge as ch

    attempts = ch.history(store, lexicon, kind)
    bests = {k: ch.personal_best(store, lexicon, k) for k in ch.KINDS if kind in (None, k)}
    if json_out:
        emit_json({"attempts": [a.to_json() for a in attempts],
                   "best": {k: b.to_json() if b else None for k, b in bests.items()}})
        return
    if not attempts:  # an empty screen would look like a failure
        typer.echo(f"no {kind or 'challenge'} attempts yet in {lexicon} (`lexitrain challenge"
                   + (f" --kind {kind}" if kind else "") + "` starts today's)")
        return
    for k, best in bests.items():
        if best:
            typer.echo(f"best {k}: {best.score}/{best.total} in {best.seconds:.0f} s on {best.date}")
    for a in attempts:
        typer.echo(f"{a.date} {a.kind:<17} {a.score:>2}/{a.total} {a.seconds:>5.0f} s"
                   + ("" if a.completed else "  (unfinished)") + ("  (retake)" if a.retake else ""))


@study_app.command("plan", context_settings=TAKES_CONDITIONS)
def plan(
    *,
    ctx: typer.Context,
    builtin: list[str] = typer.Option([], "--list", help="Built-in list (repeatable, studied in order)."),
    queries: list[str] = typer.Option([], "--search", help="A search (repeatable)."),
    saved: list[str] = typer.Option([], "--saved", "--load", help="A saved search (repeatable)."),
    files: list[Path] = typer.Option([], "--file", help="A word file (repeatable)."),
    lengths: list[str] = typer.Option([], "--length", help="All alphagrams of a length, most probable first "
                                      "(with search conditions, or as a range N-M: a search condition)."),
    top: Optional[int] = typer.Option(None, "--top", help="With --length: only the N most probable."),
    kind: str = typer.Option("anagram", "--kind", help="Question kind for every step."),
    minimum: Optional[int] = typer.Option(None, "--min", help="With --kind build: shortest word asked for (default 2)."),
    as_listed: bool = typer.Option(False, "--as-listed", help="New cards in each source's order (default: probability)."),
    name: str = typer.Option("my-plan", "--name", help="Name of the plan."),
    default: bool = typer.Option(False, "--default", help="Go back to the default plan."),
    lexicon: Lexicon,
    json_out: Json = False,
) -> None:
    """Set the active study plan: steps studied in the order given.

    Search conditions typed on the command (`study plan --length 7 --probability 1-100`) make one
    search step, after the --search steps; a --length given with them is one of the conditions.
    """
    from lexitrain.study.quiz.kinds.base import new_kind
    from lexitrain.study.drills.plans import DEFAULT_PLAN, DEFAULT_PLAN_NAME, set_plan

    if top is not None and top < 1:  # SQLite reads a negative LIMIT as "no limit": every alphagram
        raise LexitrainError(f"--top {top}: expected 1 or more")
    if minimum is not None and not new_kind(kind).takes_minimum:
        raise LexitrainError(f"--min is only for build questions (this plan asks {kind} questions)")
    if minimum is not None and minimum < 2:
        raise LexitrainError(f"--min {minimum}: words have 2 or more letters")
    if ctx.args or any(not length.isdigit() for length in lengths):
        queries, lengths = [*queries, _conditions_step(ctx.args, lengths, top)], []
    if default:
        steps, name = DEFAULT_PLAN, DEFAULT_PLAN_NAME
    else:
        sources = [("builtin", b) for b in builtin] + [("query", q) for q in queries] + [
            ("saved", s) for s in saved] + [("word_file", str(f)) for f in files]
        steps = _plan_steps(kind, sources, lengths, top, as_listed, minimum)
    with _store() as store:
        info = set_plan(store, _lexicon(lexicon), name, steps)
    if json_out:
        emit_json({"name": info.name, "cards": info.cards, "new": info.waiting, "steps": info.steps})
    else:
        typer.echo(f"study plan {info.name}: {counted(info.cards, 'card')}, {info.waiting} new to learn")


def _plan_steps(kind: str, sources: list[tuple[str, str]], lengths: list[str], top: int | None, as_listed: bool,
                minimum: int | None) -> list[dict[str, Any]]:
    """The plan's steps in the order given, the length steps last, each asking KIND questions (and taking
    --as-listed and --min, which hold for every step); none at all is refused."""
    steps: list[dict[str, Any]] = [{"kind": kind, source: value} for source, value in sources] + [
        {"kind": kind, "length": int(n), **({"top": top} if top else {})} for n in lengths]
    if not steps:
        raise LexitrainError("give the plan's steps: --list, --search, --saved, --file or --length (or --default)")
    if as_listed:
        steps = [{**step, "as_listed": True} for step in steps]
    if minimum is not None:
        steps = [{**step, "minimum": minimum} for step in steps]
    return steps


def _conditions_step(conditions: list[str], lengths: list[str], top: Optional[int]) -> str:
    """The search text of a plan step typed as conditions. The plan's own --length (a step of
    its own without conditions) is taken for the search's length condition here."""
    from lexitrain.search.query import parse_query

    if top is not None:
        raise LexitrainError("--top goes with --length steps, not with search conditions "
                             "(use --probability 1-N for the N most probable)")
    if len(lengths) > 1:
        raise LexitrainError("with search conditions give one --length (it is one of the conditions)")
    return parse_query([*(["--length", lengths[0]] if lengths else []), *conditions]).text()


@study_app.command("set")
def set_(
    new: Optional[int] = typer.Option(None, "--new", help="New cards a day."),
    reviews: Optional[int] = typer.Option(None, "--reviews", help="Reviews a day."),
    mode: Optional[str] = typer.Option(None, "--mode", help="fsrs or leitner (Zyzzyva's cardbox)."),
    retention: Optional[float] = typer.Option(None, "--retention", help="FSRS desired retention (default 0.9)."),
    lexicon: Optional[str] = typer.Option(None, "--lexicon", help="The lexicon to study by default."),
    leech: Optional[int] = typer.Option(None, "--leech", help="Failed answers that make a card a leech (default 8)."),
    wait_after_last: Optional[bool] = typer.Option(None, "--wait-after-last/--no-wait-after-last", help="In the "
                                                   "terminal, wait for Enter once every answer is found, as Zyzzyva "
                                                   "does (default: go on at once)."),
    daily_order: Optional[str] = typer.Option(None, "--daily-order", help="The daily drill's order: due (the most "
                                              "overdue review first, new cards in the plan's order; the default) or "
                                              "points-per-game (each the card whose study gains the most points per game per "
                                              "minute: how often its words are played, what they score, how likely "
                                              "you are to miss it now)."),
    json_out: Json = False,
) -> None:
    """Daily limits, scheduling mode, desired retention, the default lexicon, the daily drill's order and how
    the terminal quiz moves on (shown as `study show` shows them)."""
    from lexitrain.study.quiz.scheduler import Scheduling
    from lexitrain.study.records.stakes import DAILY_ORDER_SETTING
    from lexitrain.lexicon.catalog import open_lexicon
    from lexitrain.study.drills.daily import Limits

    with _store() as store:
        Limits(new if new is not None else 0, reviews if reviews is not None else 0)
        Scheduling(mode if mode is not None else store.setting("mode", "fsrs"),
                   retention if retention is not None else float(store.setting("retention", 0.9)))
        if lexicon is not None:  # stored as the lexicon names itself, so `--lexicon Enable` shows and compares as enable
            lexicon = open_lexicon(lexicon).name
        if leech is not None:
            from lexitrain.study.records.cards import check_leech_threshold

            check_leech_threshold(leech)
        if daily_order is not None:
            from lexitrain.study.records.stakes import check_daily_order

            daily_order = check_daily_order(daily_order)
        for setting, value in (("limit:new", new), ("limit:reviews", reviews), ("mode", mode),
                               ("retention", retention), ("lexicon", lexicon), ("leech", leech),
                               (WAIT_AFTER_LAST, wait_after_last), (DAILY_ORDER_SETTING, daily_order)):
            if value is not None:
                store.set_setting(setting, value)
        _show_settings(store, json_out)


@study_app.command("show")
def show(*, lexicon: Lexicon, json_out: Json = False) -> None:
    """The settings and the active plan."""
    with _store() as store:
        _show_settings(store, json_out, _lexicon(lexicon))


def _show_settings(store: ProgressStore, json_out: bool, lex: LexiconData | None = None) -> None:
    from lexitrain.study.quiz.scheduler import load_scheduling
    from lexitrain.study.records.stakes import POINTS_FIRST, daily_order
    from lexitrain.study.records.cards import leech_threshold
    from lexitrain.study.drills.daily import load_limits
    from lexitrain.study.drills.plans import active_plan

    limits, scheduling = load_limits(store), load_scheduling(store)
    data: dict[str, Any] = {"new_per_day": limits.new, "reviews_per_day": limits.reviews,
                            "mode": scheduling.mode, "retention": scheduling.retention,
                            "fsrs_parameters": "own" if scheduling.parameters else "default",
                            "lexicon": store.setting("lexicon", "enable"), "leech": leech_threshold(store),
                            "wait_after_last": bool(store.setting(WAIT_AFTER_LAST, False)),
                            "daily_order": daily_order(store)}
    if lex is not None:
        info = active_plan(store, lex)
        data["plan"] = {"name": info.name, "cards": info.cards, "new": info.waiting, "steps": info.steps}
    if json_out:
        emit_json(data)
        return
    own = " (your own FSRS parameters)" if scheduling.parameters else ""
    typer.echo(f"{counted(limits.new, 'new card')} and {counted(limits.reviews, 'review')} a day; "
               f"{scheduling.mode} scheduling{own}, "
               f"retention {scheduling.retention}; lexicon {data['lexicon']}; leech after {data['leech']} misses")
    if data["wait_after_last"]:
        typer.echo("the terminal quiz waits for Enter once every answer is found")
    if data["daily_order"] == POINTS_FIRST:
        typer.echo("the daily drill asks first the cards whose study gains the most points per game per minute")
    if "plan" in data:
        typer.echo(f"plan {data['plan']['name']}: {counted(data['plan']['cards'], 'card')}, {data['plan']['new']} new "
                   "to learn")


@study_app.command("optimize")
def optimize(
    *,
    lexicon: Lexicon,
    dry_run: bool = typer.Option(False, "--dry-run", help="Fit and report, but keep the parameters in use."),
    reset: bool = typer.Option(False, "--reset", help="Go back to FSRS's default parameters."),
    json_out: Json = False,
) -> None:
    """Fit FSRS's parameters to your own reviews (per deck where a deck's own fit is better); keep them
    only where they predict held-out reviews better than those in use."""
    from lexitrain.study.quiz import fsrs_fit

    with _store() as store:
        if reset:
            fsrs_fit.reset(store)
            if json_out:
                emit_json({"reset": True})
            else:
                typer.echo("back to FSRS's default parameters")
            return
        result = fsrs_fit.optimize(store, _lexicon(lexicon).name, apply=not dry_run)
    if json_out:
        emit_json(result.as_json())
        return
    b, a = result.before, result.after
    verdict = ("applied" if result.applied else
               "not applied (dry run)" if dry_run and a.log_loss < b.log_loss else
               "not applied: they predict your held-out reviews no better")
    typer.echo(f"fitted FSRS to {result.reviews:,} reviews of {result.cards:,} cards; on "
               f"{result.held_out:,} held-out reviews: log loss {b.log_loss:.4f} -> {a.log_loss:.4f}, "
               f"RMSE {b.rmse:.4f} -> {a.rmse:.4f}; {verdict}")
    for deck in result.decks:
        general, own = deck["general"], deck["own"]
        assert isinstance(general, dict) and isinstance(own, dict)
        typer.echo(f"  deck {deck['deck']}: {deck['reviews']:,} reviews, log loss {general['log_loss']:.4f} "
                   f"(general) vs {own['log_loss']:.4f} (its own): "
                   + ("its own applied" if deck["applied"] else "the general ones kept"))


@study_app.command("postpone")
def postpone(
    *,
    days: int = typer.Option(..., "--days", help="Push cards forward by this many days."),
    count: Optional[int] = typer.Option(None, "--count", help="How many overdue cards (default: all)."),
    lexicon: Lexicon,
    json_out: Json = False,
) -> None:
    """Push the overdue cards least at risk of being forgotten forward."""
    from lexitrain.study.quiz.scheduler import load_scheduling
    from lexitrain.study.drills.backlog import postpone as push

    with _store() as store:
        lex = _lexicon(lexicon)
        moved = push(store, lex.name, load_scheduling(store), days, count)
    if json_out:
        emit_json({"lexicon": lex.name, "postponed": moved, "days": days})
    elif moved:
        typer.echo(f"postponed {counted(moved, 'card')} by {counted(days, 'day')}")
    else:
        typer.echo(f"no cards are overdue in {lex.name}: nothing to postpone")


@study_app.command("spread")
def spread(
    *,
    per_day: int = typer.Option(..., "--per-day", help="Overdue cards to take back each day."),
    lexicon: Lexicon,
    json_out: Json = False,
) -> None:
    """Reschedule the overdue backlog over the coming days, N a day, most at risk first."""
    from lexitrain.study.quiz.scheduler import load_scheduling
    from lexitrain.study.drills.backlog import spread as spread_out

    with _store() as store:
        lex = _lexicon(lexicon)
        overdue, days = spread_out(store, lex.name, load_scheduling(store), per_day)
    if json_out:
        emit_json({"lexicon": lex.name, "overdue": overdue, "per_day": per_day, "days": days})
    elif not overdue:
        typer.echo(f"no cards are overdue in {lex.name}: nothing to spread")
    else:
        rest = f", the rest {per_day} a day over the next {counted(days - 1, 'day')}" if days > 1 else ""
        typer.echo(f"{counted(overdue, 'overdue card')}: {min(overdue, per_day)} due today{rest}")


@commands.command("stats")
def stats(
    *,
    lexicon: Lexicon,
    plot: Optional[Path] = typer.Option(None, "--plot", help="Also save charts to this PNG file."),
    json_out: Json = False,
) -> None:
    """Reviews per day, retention, cards by state, the next 30 days' due cards, hardest alphagrams, coverage,
    and the points per game the words you know cover, week by week."""
    from lexitrain.study.records import stats as st

    with _store() as store:
        lex = _lexicon(lexicon)
        report = st.compute(store, lex.name, lex, points=True)
    if plot is not None:
        st.plot(report, plot)
    if json_out:
        emit_json(report.to_json())
        return
    for line in st.render_text(report):
        typer.echo(line)
    if plot is not None:
        typer.echo(f"charts saved to {plot}")


@progress_app.command("export")
def export(file: Path = typer.Argument(..., help="JSON file to write."), json_out: Json = False) -> None:
    """Write all progress (cards, answers, plans, settings, challenge history, stored positions, uploaded lists) to a
    JSON file."""
    from lexitrain.study.store import ProgressStore
    from lexitrain.study.records.transfer import export_progress

    with ProgressStore(read_only=True) as store:  # (a home on a read-only disk can still be backed up)
        counts = export_progress(store, file)
    if json_out:
        emit_json({"file": str(file), **counts})
        return
    typer.echo(f"exported {counted(counts['cards'], 'card')}, {counted(counts['answers'], 'answer')} and "
               f"{counted(counts['positions'], 'position')} to {file}"
               + (f", with {counted(counts['lists'], 'uploaded list')}" if counts["lists"] else ""))


@progress_app.command("import")
def import_(
    file: Path = typer.Argument(..., help="A file written by `progress export`, or an automatic backup "
                                "(`progress backups`)."), json_out: Json = False
) -> None:
    """Merge a progress backup into this one (the more recent state of each card wins; a schedule is
    never dropped for a card never answered here)."""
    from lexitrain.study.records.transfer import import_progress

    with _store() as store:
        counts = import_progress(store, file)
    if json_out:
        emit_json({"file": str(file), **counts})
        return
    merged = counts["merged"]
    typer.echo(f"imported {counted(counts['cards'], 'card')}, {counted(counts['answers'], 'answer')} and "
               f"{counted(counts['positions'], 'position')} from {file} ({counted(merged['added'], 'card')} added, "
               f"{merged['backup_newer']} newer in the backup, "
               f"{merged['scheduled_over_new']} scheduled there and new here; {merged['kept_here']} kept as they are "
               "here)" + (f", with {counted(counts['lists'], 'uploaded list')} (new, or changed later there)"
                          if counts["lists"] else ""))


@progress_app.command("backups")
def backups_(json_out: Json = False) -> None:
    """List the automatic backups (one a day, and one before each upgrade; kept a week)."""
    from lexitrain.study.store import backups, progress_path

    found = backups.backups(progress_path())
    if json_out:
        emit_json([{"file": str(b.path), "taken": b.taken.isoformat(), "reason": b.reason, "bytes": b.size}
                   for b in found])
        return
    if not found:
        typer.echo(f"no automatic backups yet in {backups.folder(progress_path())} (one is taken each day)")
        return
    for backup in found:
        typer.echo(f"{backup.taken:%Y-%m-%d %H:%M}  {backup.reason:<20} {backup.size / 1e6:7.2f} MB  {backup.path}")
    typer.echo("restore one with `lexitrain progress import FILE` (it merges: the more recent state of each card wins)")


@progress_app.command("rescue")
def rescue_(
    file: Path = typer.Argument(..., help="The backup (JSON) to write what can be read to."),
    source: Optional[Path] = typer.Option(None, "--from", help="The damaged file (default: this progress file)."),
    json_out: Json = False,
) -> None:
    """Save every row that can still be read from a damaged progress file, as a backup to import."""
    from lexitrain.study.store import progress_path
    from lexitrain.study.records.rescue import rescue

    report = rescue(source or progress_path(), file)
    if json_out:
        emit_json(report)
        return
    saved = report["saved"]
    typer.echo(f"rescued {counted(saved['cards'], 'card')}, {counted(saved['answers'], 'answer')}, "
               f"{counted(saved['sessions'], 'session')} and {counted(saved['positions'], 'position')} to {file}")
    lost = {name: n for name, n in report["unreadable"].items() if n}
    if lost or report["tables_lost"] or report["left_out"]:
        parts = [f"{n} unreadable {name} rows" for name, n in lost.items()]
        parts += [f"table {name} unreadable" for name in report["tables_lost"]]
        parts += [f"{n} {name} left out (incomplete)" for name, n in report["left_out"].items()]
        typer.echo(f"lost: {', '.join(parts)}")
    typer.echo(f"move the damaged file aside, then `lexitrain progress import {file}`")


@progress_app.command("import-zyzzyva")
def import_zyzzyva(
    *,
    ctx: typer.Context,
    file: Path = typer.Argument(..., help="A Zyzzyva quiz database, e.g. .../quiz/data/NWL2023/Anagrams.db."),
    lexicon: Lexicon,
    kind: Optional[str] = typer.Option(None, "--kind", help="Question kind of that cardbox (anagram, hooks, ...; "
                                       "default: the quiz type its file names, Hooks.db hooks, else anagram)."),
    json_out: Json = False,
) -> None:
    """Turn a Zyzzyva cardbox into FSRS cards (and Leitner boxes), in the lexicon its folder
    names (Zyzzyva keeps .../NWL2023/Anagrams.db) when that is compiled here, else --lexicon.
    Every question left out is named with the reason. (`lexitrain import zyzzyva DIR` brings
    a whole Zyzzyva folder: every cardbox, its lexicons, searches and quizzes.)"""
    from lexitrain.study.records.zyzzyva import cardbox_kind, import_cardbox

    kind = kind or cardbox_kind(file, default="anagram")
    name, hint = _cardbox_lexicon(file, lexicon, lexicon_given(ctx))
    with _store() as store:
        lex = _lexicon(name)
        report = import_cardbox(store, lex, file, kind)
    if json_out:
        emit_json({**report.to_json(), "lexicon": lex.name})
        return
    for question, why in report.skipped:
        warn(f"skipped {question or '(empty)'}: {why}")
    for key, questions in report.merged:
        warn(f"merged {' and '.join(questions)} into one card {key} (their answers added up, the later schedule kept)")
    notes = [hint] if hint else []
    if report.kept:
        notes.append(f"{report.kept} already studied here, kept as they are")
    if report.merged:
        notes.append(f"{counted(len(report.merged), 'case duplicate')} merged")
    notes.append(f"{len(report.skipped) - report.damaged - report.outside} not in {lex.name}")
    if report.outside:
        notes.append(f"{report.outside} out of the cardbox (quiz statistics only)")
    if report.damaged:
        notes.append(f"{report.damaged} damaged rows left out")
    typer.echo(f"imported {report.imported} of {counted(report.questions, 'question')} from {file} "
               f"({'; '.join(notes)})")


#: the lexicon names Zyzzyva keeps its quiz folders under (quiz/data/NWL2023/, CSW21/ ...)
ZYZZYVA_LEXICON_FOLDER = r"(?i)(NWL|TWL|OWL|OSPD|CSW|OSW|SOWPODS|WWF|ENABLE|CEL|FISE|ODS)\d*"


def _cardbox_lexicon(file: Path, lexicon: str, given: bool) -> tuple[str, str]:
    """The lexicon to import a cardbox into, and a note when its folder chose it: --lexicon
    when typed, else the compiled lexicon the folder names; a folder naming one that is not
    compiled here is refused (the cards would be judged by the wrong words)."""

    from lexitrain.lexicon.catalog import compiled_match

    folder = file.resolve().parent.name
    if given or not folder:
        return lexicon, ""
    found = compiled_match(folder)
    if found is not None:
        return found, f"lexicon {found}, from the file's folder {folder}"
    if re.fullmatch(ZYZZYVA_LEXICON_FOLDER, folder):
        raise LexitrainError(
            f"{file} is in Zyzzyva's folder for {folder}, which is not compiled here: build it with "
            f"`lexitrain lexicon build FILE --name {folder.lower()}`, or give --lexicon to import it into another")
    return lexicon, ""
