"""Flashcard mode (`quiz --flashcard`, `daily --flashcard`): reveal the answers, then grade yourself.

Each question is shown; the player thinks (or types an attempt, kept as the
answer given), reveals the answers, and grades the card 1 Again, 2 Hard,
3 Good or 4 Easy (the words work too); FSRS schedules it by that grade
(`Session.grade`). Stopping before the grade (end of input, Ctrl-C, `!quit`)
leaves the question on screen unscored.

JSON lines: `{"question": {..., "flashcard": true}}`, then one line read (the
reveal; its text is kept as the answer given), `{"reveal": {"id", "expected"}}`,
then one grade line read; a line that is no grade gets `{"error": "..."}` and
is read again; then `{"result": {..., "rating": "good"}}` (with `--feedback`, a
`feedback` object as in the typed quiz). The summary ends. The terminal reveals
each answer as the typed quiz's feedback lists it: hooks, inner hooks, symbols
and definition.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import typer

from lexitrain.cli.answer_input import TimedOut, clean_input, duration_text
from lexitrain.cli.feedback_view import note_lines
from lexitrain.cli.output import when_text
from lexitrain.cli.position_view import ANALYSED, show_analysis_table, show_position
from lexitrain.cli.quiz_ui import undo_json, read_answer, result_json
from lexitrain.errors import LexitrainError
from lexitrain.study.quiz.feedback import word_notes
from lexitrain.study.quiz.kinds.base import BOARD, LETTERS, Question
from lexitrain.study.quiz.scheduler import RATINGS, to_datetime, utc_now
from lexitrain.study.quiz.round import STOP, UNDO, Round, command
from lexitrain.study.quiz.session import Session, Summary

GRADE_HELP = "grade: 1 again, 2 hard, 3 good, 4 easy"


def _emit(value: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(value, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def parse_grade(text: str) -> int | None:
    """The rating a grade line names (1-4 or again/hard/good/easy), None if it names none."""
    text = text.strip().lower()
    if text in RATINGS:
        return RATINGS[text]
    return int(text) if text in {"1", "2", "3", "4"} else None


def _reveal(question: Question) -> dict[str, object]:
    return {"id": question.id, "expected": list(question.expected)}


def run_jsonl(session: Session, with_feedback: bool = False) -> Summary:
    """The flashcard JSON lines protocol (module docstring)."""
    rnd = Round(session)
    while (question := rnd.question) is not None:
        _emit({"question": {**question.to_json(), "number": rnd.number, "flashcard": True}})
        given = sys.stdin.readline()
        if not given:
            break
        said = command(clean_input(given))
        if said is not None and said.name == "undo":
            _emit(undo_json(rnd))
            continue
        _emit({"reveal": _reveal(question)})
        while True:
            line = sys.stdin.readline()
            if not line:
                return _finish_jsonl(rnd)
            rating = parse_grade(clean_input(line))
            if rating is not None:
                break
            _emit({"error": f"{line.strip()!r} is no grade ({GRADE_HELP})"})
        outcome = rnd.grade(rating, clean_input(given.rstrip("\r\n")))
        _emit({"result": result_json(session, outcome, with_feedback)})
    return _finish_jsonl(rnd)


def _finish_jsonl(rnd: Round) -> Summary:
    summary = rnd.finish()
    _emit({"summary": summary.to_json()})
    return summary


def run_terminal(session: Session) -> Summary:
    """Show, reveal on Enter, grade with 1-4."""
    typer.echo(session.title)
    typer.echo(f"Enter reveals the answers (type an attempt first if you like); then {GRADE_HELP}; {STOP} = stop, "
               "!undo = take the last grade back")
    rnd = Round(session)
    while (question := rnd.question) is not None:
        _show_question(rnd.number, session, question)
        given = _read("reveal > ")
        if given is None or given.strip().lower() == STOP:
            break
        if given.strip().lower() == UNDO:
            _undo_terminal(rnd)
            continue
        _show_answers(session, question)
        rating = None
        while rating is None:
            line = _read(f"{GRADE_HELP} > ")
            if line is None or line.strip().lower() == STOP:
                return _finish_terminal(rnd)
            rating = parse_grade(line)
            if rating is None:
                typer.echo(f"  {line.strip()!r} is no grade")
        outcome = rnd.grade(rating, given.strip())
        due = to_datetime(outcome.card.due) if outcome.card is not None else None
        typer.echo(f"  graded {outcome.to_json()['rating']}" + (f"; next due {when_text(due, utc_now())}" if due else ""))
    return _finish_terminal(rnd)


def _show_question(number: int, session: Session, question: Question) -> None:
    """The card asked: its letters or words and how many answers to find; a position as the typed quiz shows it
    (coordinates, premiums) with no count, as one play is the answer, naming how many are best when several are
    (an endgame's first plays of equal value): any one of them is right."""
    if question.hint != BOARD:
        typer.secho(f"\n{number}. {question.prompt}  ({len(question.expected)} to find)", bold=True)
        return
    show_position(number, session, question)
    if len(question.expected) > 1:
        typer.echo(f"({len(question.expected)} are best: any one of them is right)")


def _undo_terminal(rnd: Round) -> None:
    """`!undo` at the reveal prompt: the last grade taken back, its card shown again (or why not)."""
    try:
        taken = rnd.undo()
    except LexitrainError as exc:
        typer.echo(f"  {exc}")
        return
    typer.echo("  took back your last grade: the card is shown again" if taken else "  no grade to take back yet")


def _show_answers(session: Session, question: Question) -> None:
    """The answers revealed, each with its hooks, inner hooks, symbols and definition (as the
    typed quiz's feedback lists them); a question that is not answered in words, as they stand."""
    lines = note_lines(word_notes(session.lex, question.expected)) if question.hint == LETTERS else []
    for line in lines or [(" or " if question.hint == BOARD else " ").join(question.expected)]:  # one play is right
        typer.secho(f"  {line}", fg="cyan")
    if question.hint == BOARD and question.info.get("by") in ANALYSED:  # its table and, for an endgame, a best line
        show_analysis_table(session.check(question, "").details)


def _read(prompt: str) -> str | None:
    """A typed line, or None when the player stops (a flashcard has no clock, so no time-out)."""
    text = read_answer(prompt)
    return None if isinstance(text, TimedOut) else text


def _finish_terminal(rnd: Round) -> Summary:
    summary = rnd.finish()
    typer.echo(f"\n{summary.correct}/{summary.questions} known in {duration_text(summary.seconds)}")
    if summary.missed_list:
        typer.echo(f"cards graded Again saved to {summary.missed_list} (quiz them with --file)")
    for name, value in summary.details.items():
        typer.echo(f"{name.replace('_', ' ')}: {value}")
    return summary
