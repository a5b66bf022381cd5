"""Front ends for a quiz session: the terminal, and JSON lines for other programs.

Both drive a session through the one round driver (`lexitrain.study.quiz.round.Round`),
rendering what it holds and reading the player's lines, and show each question the way
its rendering hint says (`letters`: a prompt and words typed; `board`: the
board and one play; `choice`: a word and one choice typed), never by the kind's name. In either one an answer line
`!correct` (or `!c`) / `!missed` (`!m`) overrides the verdict on the
previous question before the current one is answered, `!undo` takes the last
scored question back and asks it again, and `!shuffle` (`!s`,
or a lone `,`) / `!order [NAME]` show its letters shuffled again / in
alphabetical (or NAME) order; in the terminal an
empty line ends a question (but not one in its first moments: that Enter was
meant for the question before, which moved on by itself once every answer
was found; with `study set --wait-after-last` it waits for that Enter
instead), and after the last question one more line may mark it. (JSON lines end with the summary at once: a driving program waits
for it.) Stopping -- `!quit`, end of input, Ctrl-D, Ctrl-C -- ends the round
and never scores the question on screen: only an answer submitted, or its
time running out, does. A line the question does not take (an illegal play)
is refused with its reason, and the same question is asked again.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Callable

import typer

from lexitrain.cli.answer_input import (Answer, TimedOut, clock_text, duration_text, read_line,
                                        read_terminal_line)
from lexitrain.cli.feedback_view import show_feedback
from lexitrain.cli.position_view import ask_position
from lexitrain.errors import LexitrainError
from lexitrain.study.quiz.feedback import feedback
from lexitrain.study.quiz.kinds.base import BOARD, CHOICE, LETTERS, Question
from lexitrain.study.quiz.kinds.words import answer_words
from lexitrain.study.quiz.preferences import WAIT_AFTER_LAST
from lexitrain.study.quiz.round import Command, Round, command
from lexitrain.study.quiz.session import Outcome, Refused, Session, Summary

#: An empty line this soon after a question appears is an Enter pressed for the one before (a
#: Zyzzyva habit, the quiz having moved on by itself): ignored, never scored as a miss.
STRAY_ENTER_SECONDS = 0.6
#: Lines the terminal adds under the summary (by default the round's own details, as named there).
Notes = Callable[[Summary], dict[str, Any]]


class Undone(Exception):
    """`!undo` typed: the last scored question was taken back and is on show again (`Round.question`)."""


def read_answer(prompt: str, time_left: Callable[[], float | None] | None = None) -> Answer:
    """One typed line; None when the player stops (Ctrl-D, end of input, Ctrl-C), TIMED_OUT
    when the clock `time_left` reaches 0 (it then shows in the prompt, counting down)."""
    return read_terminal_line(prompt, time_left)


def _emit(value: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(value, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def run_jsonl(session: Session, with_feedback: bool = False) -> Summary:
    """The JSON lines protocol (docs/study.md): question line out, answer line in, result line out; summary last.
    `with_feedback` adds the feedback (study/quiz/feedback.py) to each result and override line."""
    rnd = Round(session)
    shown: Question | None = None
    while (question := rnd.question) is not None:
        if question is not shown:
            shown = question
            line = {"question": {**question.to_json(), "number": rnd.number}}
            left = session.time_left()
            if left is not None:
                line["question"]["time_left"] = round(left, 1)
            _emit(line)
        text = read_line(session.answer_time_left)
        if isinstance(text, TimedOut):  # reported the moment it happens, no answer read
            _emit({"result": result_json(session, rnd.time_out(), with_feedback)})
            continue
        said = command(text) if text is not None else Command("stop")
        if said is None:
            try:
                outcome = rnd.answer(text or "")
            except Refused as refused:  # not an answer it takes (an illegal play): the question stays open
                _emit({"refused": {"id": question.id, "given": text, "reason": str(refused)}})
                continue
            _emit({"result": result_json(session, outcome, with_feedback)})
        elif said.name == "stop":  # stopping leaves the question unscored
            break
        elif said.name == "override":
            marked = rnd.override(said.correct)
            _emit({"override": None if marked is None else result_json(session, marked, with_feedback)})
        elif said.name == "undo":
            _emit(undo_json(rnd))
        else:
            shown = _reorder_jsonl(rnd, said.order)
    return _finish_jsonl(rnd)


def undo_json(rnd: Round) -> dict[str, Any]:
    """`{"undo": {"id", "number"}}` (the question is then asked again), `{"undo": null}` when there
    is nothing to take back, or `{"undo": null, "error": ...}` when it cannot be."""

    try:
        taken = rnd.undo()
    except LexitrainError as exc:
        return {"undo": None, "error": str(exc)}
    return {"undo": None if taken is None else {"id": taken.question.id, "number": rnd.number}}


def result_json(session: Session, outcome: Outcome, with_feedback: bool) -> dict[str, Any]:
    """A result line's object: the outcome, with `feedback` added when asked (`--feedback`)."""
    data = outcome.to_json()
    if with_feedback:
        data["feedback"] = feedback(session.lex, outcome, session.timers.question).to_json()
    return data


def _reorder_jsonl(rnd: Round, order: str) -> Question:
    """`{"reorder": {"id", "prompt", "order"}}`, or `{"reorder": null, "error": ...}` for an unknown order."""

    try:
        question = rnd.reorder(order)
    except LexitrainError as exc:
        _emit({"reorder": None, "error": str(exc)})
        return rnd.current()
    _emit({"reorder": {"id": question.id, "prompt": question.prompt, "order": order}})
    return question


def _finish_jsonl(rnd: Round) -> Summary:
    summary = rnd.finish()
    _emit({"summary": summary.to_json()})
    return summary


def run_terminal(session: Session, notes: Notes | None = None) -> Summary:
    """Interactive quiz: every word checked as typed, found words kept, answers listed after."""
    typer.echo(session.title + (" (--restart starts afresh)" if session.resumed else ""))
    rnd = Round(session)
    first = rnd.question
    if first is not None and first.hint == CHOICE:  # the round opens on a word to judge: say how
        typer.echo(f"type {_choice_keys(first)} for each word shown, then Enter; !c / !m = mark last correct / "
                   "missed, !undo = take the last answer back, !quit = stop")
    else:
        typer.echo("type words (several a line is fine); empty line = next question, !c / !m = mark last "
                   "correct / missed, !undo = take the last answer back, !quit = stop")
        typer.echo("!s (or ,) shuffles the letters, !order puts them back (!order vowels-first, consonants-first ...)")
    while True:
        while (question := rnd.question) is not None:
            try:
                if ASKERS.get(question.hint, _ask_letters)(rnd, question) is None:
                    return _finish_terminal(rnd, notes)
            except Undone:
                continue
        if rnd.last is None or not _last_call(rnd):
            return _finish_terminal(rnd, notes)


def _ask_letters(rnd: Round, question: Question) -> Outcome | None:
    """One question answered by typing words; None when the player stops, leaving it unscored
    (only an empty line, every answer found, or the clock running out scores it)."""
    session = rnd.session
    _ask_heading(rnd, question)
    found: list[str] = []
    given: list[str] = []
    while True:
        line = _answer_line(rnd, "> " if not found else f"[{' '.join(found)}] > ")
        if isinstance(line, TimedOut):
            outcome = rnd.time_out(" ".join(given))
            _show_outcome(session, outcome)
            return outcome
        if line is None:
            return None
        said = command(line)
        if said is not None and said.name == "reorder":
            question = _reorder_terminal(rnd, question, said.order)
            continue
        if not line.strip():
            if not given and _at_a_terminal() and session.clock() - session.asked_at < STRAY_ENTER_SECONDS:
                typer.secho("  (Enter ignored: the question had only just appeared)", dim=True)
                continue
            break
        _judge_words(session, question, line, given, found)
        if len(found) == len(question.expected):
            if not _wait_for_enter(session):
                return None
            break
    outcome = rnd.answer(" ".join(given))
    _show_outcome(session, outcome)
    return outcome


def _ask_heading(rnd: Round, question: Question) -> None:
    """The question's number, prompt and how many answers it has, with the clocks as the prompt shows them."""
    session = rnd.session
    left = session.time_left()
    clock = f"  [{clock_text(left)} left]" if left is not None else ""  # as the prompt's clock shows it
    if session.timers.question is not None:
        clock += f"  [{session.timers.question:g} s to answer]"
    typer.secho(f"\n{rnd.number}. {question.prompt}  ({len(question.expected)} to find){clock}", bold=True)


def _judge_words(session: Session, question: Question, line: str, given: list[str], found: list[str]) -> None:
    """Each new word of a typed line said right or wrong at once, added to GIVEN and its answers to FOUND
    (a word given before, or whose answers are all found already, is passed over)."""
    for word in answer_words(line)[0]:
        if word in given:
            continue
        hits = session.check(question, word).right  # the same verdict, word by word, as the final one
        right = [w for w in hits if w not in found]
        if hits and not right:  # SANE after S-: already found
            continue
        given.append(word)
        found.extend(right)
        shown = word if right in ([], [word]) else f"{word} = {' '.join(right)}"  # S- = SCARE
        typer.secho(f"  {shown} {'yes' if right else 'no'}", fg="green" if right else "red")


def _at_a_terminal() -> bool:
    """Whether a person types the answers (piped lines were all written before: none is stray)."""
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


def _wait_for_enter(session: Session) -> bool:
    """Every answer is found: with the `study set --wait-after-last` setting, wait for Enter, so an
    Enter pressed out of Zyzzyva's habit ends this question, not the next; False when the player stops."""
    if not session.store.setting(WAIT_AFTER_LAST, False):
        return True
    while True:
        line = read_answer("all found: Enter for the next question > ", session.answer_time_left)
        if line is None:
            return False
        if isinstance(line, TimedOut):  # (the answers found stand)
            return True
        command = line.strip().lower()
        if not command or command == "!quit":
            return not command
        typer.echo("  every answer is found: press Enter for the next question")


def _answer_line(rnd: Round, prompt: str) -> Answer:
    """The next line typed for the question on show (None when the player stops, TimedOut when
    its clock ran out). A `!c` / `!m` line marks the previous question correct or missed here and
    another line is read; `!undo` takes the last answer back and raises Undone."""
    while True:
        line = read_answer(prompt, rnd.session.answer_time_left)
        said = command(line) if isinstance(line, str) else None
        if line is None or (said is not None and said.name == "stop"):
            return None
        if said is None and isinstance(line, str) and line.strip().startswith("!"):  # no word: a mistyped command
            typer.echo(f"  {line.strip()} is no command: !quit, !c / !m, !undo, !s (or ,), !order")
            continue
        if said is None or said.name == "reorder":
            return line
        if said.name == "undo":
            _undo_terminal(rnd)
            continue
        marked = rnd.override(said.correct)
        if marked is None:  # say so, rather than leave the player wondering whether it took
            typer.echo("  no previous question to mark yet")
        else:
            typer.echo(f"  previous question marked {'correct' if marked.correct else 'missed'}")


def _undo_terminal(rnd: Round) -> None:
    """`!undo`: raises Undone once the last answer is taken back (its question is asked again);
    says why not and returns when there is none, or it cannot be taken back."""

    try:
        taken = rnd.undo()
    except LexitrainError as exc:
        typer.echo(f"  {exc}")
        return
    if taken is None:
        typer.echo(f"  {rnd.nothing_to_undo()}")
        return
    typer.echo(f"  took back your answer to {taken.question.prompt}: it is asked again")
    raise Undone


def _reorder_terminal(rnd: Round, question: Question, order: str) -> Question:
    """The question's letters again in ORDER (or why not), the words found so far kept."""

    try:
        reordered = rnd.reorder(order)
    except LexitrainError as exc:
        typer.echo(f"  {exc}")
        return question
    if reordered.prompt == question.prompt and order == "random":
        typer.echo("  no other order to show")
    else:
        typer.secho(f"   {reordered.prompt}", bold=True)
    return reordered


def _ask_board(rnd: Round, question: Question) -> Outcome | None:
    """A play, not words: the board and one answer line."""
    return ask_position(rnd, question)


def _ask_choice(rnd: Round, question: Question) -> Outcome | None:
    """A word shown and one choice typed (v or p); a line that is no choice is refused and asked again."""
    choices = " / ".join(f"{choice} ({choice[0]})" for choice in question.info.get("choices", ()))
    typer.secho(f"\n{rnd.number}. {question.info.get('word', question.prompt)}   {choices}?", bold=True)
    while True:
        line = _answer_line(rnd, "> ")
        if isinstance(line, TimedOut):
            outcome = rnd.time_out()
            break
        if line is None:
            return None
        try:
            outcome = rnd.answer(line.strip())
            break
        except Refused as refused:
            typer.secho(f"  {refused}", fg="red")
    if outcome.correct:  # a miss says why in the feedback
        typer.secho(f"  yes: {outcome.check.details.get('verdict', '')}", fg="green")
    _show_outcome(rnd.session, outcome)
    return outcome


def _choice_keys(question: Question) -> str:
    """`v (valid) or p (phony)`: the keys a choice question takes, each its choice's first letter."""
    return " or ".join(f"{choice[0]} ({choice})" for choice in question.info.get("choices", ()))


#: How the terminal asks a question, by its rendering hint (one it does not know: as typed words).
ASKERS: dict[str, Callable[[Round, Question], Outcome | None]] = {
    LETTERS: _ask_letters,
    BOARD: _ask_board,
    CHOICE: _ask_choice,
}


def _last_call(rnd: Round) -> bool:
    """After the last question, a chance to mark it (as Zyzzyva allows before the quiz is
    closed) or take it back; an empty line or end of input finishes the round. True when
    `!undo` put a question on show again."""
    while True:
        line = read_answer("end of the round: !c / !m marks the last answer, !undo takes it back, Enter finishes > ")
        said = command(line) if isinstance(line, str) and line.strip() else None
        if said is None and isinstance(line, str) and line.strip():
            typer.echo("  the round is over: !c, !m, !undo or Enter")
        elif said is None or said.name == "stop":
            return False
        elif said.name == "undo":
            try:
                _undo_terminal(rnd)
            except Undone:
                return True
        elif said.name == "override":
            marked = rnd.override(said.correct)
            if marked is not None:
                typer.echo(f"  last question marked {'correct' if marked.correct else 'missed'}")
        else:
            typer.echo("  the round is over: !c, !m, !undo or Enter")


def _show_outcome(session: Session, outcome: Outcome) -> None:
    """The verdict, why a miss was a miss, and every answer with its hooks and definition."""
    show_feedback(feedback(session.lex, outcome, session.timers.question))


def _finish_terminal(rnd: Round, notes: Notes | None) -> Summary:
    summary = rnd.finish()
    typer.echo(f"\n{summary.correct}/{summary.questions} right in {duration_text(summary.seconds)}")
    if summary.missed_list:
        typer.echo(f"missed words saved to {summary.missed_list} (quiz them with --file)")
    for name, value in (notes(summary) if notes else summary.details).items():
        typer.echo(f"{_words(name)}: {_note_text(value)}")
    return summary


def _words(name: str) -> str:
    return name.replace("_", " ")


def _note_text(value: Any) -> str:
    """A summary detail as a player reads it: a group of figures (a resumed round's) as
    `answered before 1, round questions 5`, never as Python's dict text."""
    if isinstance(value, dict):
        return ", ".join(f"{_words(str(key))} {item}" for key, item in value.items())
    return str(value)
