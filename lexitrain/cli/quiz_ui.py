"""Front ends for a quiz session: the terminal, and JSON lines for other programs.

Both drive `lexitrain.study.quiz.session.Session`, and show each question the way
its rendering hint says (`letters`: a prompt and words typed; `board`: the
board and one play; `choice`: a word and one choice typed), never by the kind's name. In either one an answer line
`!correct` (or `!c`) / `!missed` (`!m`) overrides the verdict on the
previous question before the current one is answered, and `!shuffle` (`!s`,
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

from lexitrain.cli.answer_input import (Answer, TimedOut, clock_text, duration_text, read_jsonl_line,
                                        read_terminal_line)
from lexitrain.cli.position_view import ask_position
from lexitrain.study.quiz.kinds.base import BOARD, CHOICE, LETTERS, Question
from lexitrain.study.quiz.kinds.words import answer_words
from lexitrain.study.quiz.session import Outcome, Refused, Session, Summary

OVERRIDES = {"!correct": True, "!c": True, "!missed": False, "!m": False}
#: An empty line this soon after a question appears is an Enter pressed for the one before (a
#: Zyzzyva habit, the quiz having moved on by itself): ignored, never scored as a miss.
STRAY_ENTER_SECONDS = 0.6
SHUFFLES = ("!shuffle", "!s", ",")
#: Lines the terminal adds under the summary (by default the round's own details, as named there).
Notes = Callable[[Summary], dict[str, Any]]


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
    last: Outcome | None = None
    number = 0
    for question in session.questions():
        number += 1
        line = {"question": {**question.to_json(), "number": number}}
        left = session.time_left()
        if left is not None:
            line["question"]["time_left"] = round(left, 1)
        _emit(line)
        while True:
            text = read_jsonl_line(session.answer_time_left)
            if isinstance(text, TimedOut):  # reported the moment it happens, no answer read
                last = session.time_out(question)
                break
            if text is None or text.strip().lower() == "!quit":  # stopping leaves the question unscored
                return _finish_jsonl(session)
            command = text.strip().lower()
            if command in OVERRIDES:
                if last is not None:
                    last = session.override(last, OVERRIDES[command])
                    _emit({"override": result_json(session, last, with_feedback)})
                else:
                    _emit({"override": None})
                continue
            order = reorder_order(command)
            if order is not None:
                question = _reorder_jsonl(session, question, order)
                continue
            try:
                last = session.answer(question, text)
            except Refused as refused:  # not an answer it takes (an illegal play): the question stays open
                _emit({"refused": {"id": question.id, "given": text, "reason": str(refused)}})
                continue
            break
        _emit({"result": result_json(session, last, with_feedback)})
    return _finish_jsonl(session)


def result_json(session: Session, outcome: Outcome, with_feedback: bool) -> dict[str, Any]:
    """A result line's object: the outcome, with `feedback` added when asked (`--feedback`)."""
    data = outcome.to_json()
    if with_feedback:
        from lexitrain.study.quiz.feedback import feedback

        data["feedback"] = feedback(session.lex, outcome, session.timers.question).to_json()
    return data


def reorder_order(command: str) -> str | None:
    """The letter order an answer line asks for: `!shuffle`, `!s` or `,` a new shuffle, `!order`
    alphabetical, `!order NAME` that order; None when the line is not one of these."""
    if command in SHUFFLES:
        return "random"
    word, _, name = command.partition(" ")
    return (name.strip() or "alphabetical") if word == "!order" else None


def _reorder_jsonl(session: Session, question: Question, order: str) -> Question:
    """`{"reorder": {"id", "prompt", "order"}}`, or `{"reorder": null, "error": ...}` for an unknown order."""
    from lexitrain.errors import LexitrainError

    try:
        question = session.reorder(question, order)
    except LexitrainError as exc:
        _emit({"reorder": None, "error": str(exc)})
        return question
    _emit({"reorder": {"id": question.id, "prompt": question.prompt, "order": order}})
    return question


def _finish_jsonl(session: Session) -> Summary:
    summary = session.finish()
    _emit({"summary": summary.to_json()})
    return summary


def run_terminal(session: Session, notes: Notes | None = None) -> Summary:
    """Interactive quiz: every word checked as typed, found words kept, answers listed after."""
    typer.echo(session.title)
    typer.echo("type words (several a line is fine); empty line = next question, !c / !m = mark last "
               "correct / missed, !quit = stop")
    typer.echo("!s (or ,) shuffles the letters, !order puts them back (!order vowels-first, consonants-first ...)")
    last: Outcome | None = None
    number = 0
    for question in session.questions():
        number += 1
        asked = ASKERS.get(question.hint, _ask_letters)(session, question, number, last)
        if asked is None:
            return _finish_terminal(session, notes)
        last = asked
    if last is not None:
        _last_call(session, last)
    return _finish_terminal(session, notes)


def _ask_letters(session: Session, question: Question, number: int, last: Outcome | None) -> Outcome | None:
    """One question answered by typing words; None when the player stops, leaving it unscored
    (only an empty line, every answer found, or the clock running out scores it)."""
    left = session.time_left()
    clock = f"  [{clock_text(left)} left]" if left is not None else ""  # as the prompt's clock shows it
    if session.timers.question is not None:
        clock += f"  [{session.timers.question:g} s to answer]"
    typer.secho(f"\n{number}. {question.prompt}  ({len(question.expected)} to find){clock}", bold=True)
    found: list[str] = []
    given: list[str] = []
    while True:
        line, last = _answer_line(session, "> " if not found else f"[{' '.join(found)}] > ", last)
        if isinstance(line, TimedOut):
            outcome = session.time_out(question, " ".join(given))
            _show_outcome(session, outcome)
            return outcome
        if line is None:
            return None
        order = reorder_order(line.strip().lower())
        if order is not None:
            question = _reorder_terminal(session, question, order)
            continue
        if not line.strip():
            if not given and _at_a_terminal() and session.clock() - session.asked_at < STRAY_ENTER_SECONDS:
                typer.secho("  (Enter ignored: the question had only just appeared)", dim=True)
                continue
            break
        for word in answer_words(line)[0]:
            if word in given:
                continue
            hits = session.check(question, word).right  # the same verdict, word by word, as the final one
            right = [w for w in hits if w not in found]
            if hits and not right:  # SANE after S-: already found
                continue
            given.append(word)
            found += right
            shown = word if right in ([], [word]) else f"{word} = {' '.join(right)}"  # S- = SCARE
            typer.secho(f"  {shown} {'yes' if right else 'no'}", fg="green" if right else "red")
        if len(found) == len(question.expected):
            if not _wait_for_enter(session):
                return None
            break
    outcome = session.answer(question, " ".join(given))
    _show_outcome(session, outcome)
    return outcome


def _at_a_terminal() -> bool:
    """Whether a person types the answers (piped lines were all written before: none is stray)."""
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


def _wait_for_enter(session: Session) -> bool:
    """Every answer is found: with the `study set --wait-after-last` setting, wait for Enter, so an
    Enter pressed out of Zyzzyva's habit ends this question, not the next; False when the player stops."""
    from lexitrain.study.quiz.preferences import WAIT_AFTER_LAST

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


def _answer_line(session: Session, prompt: str, last: Outcome | None) -> tuple[Answer, Outcome | None]:
    """The next line typed for the question on screen (None when the player stops, TimedOut when
    its clock ran out), with the previous question as it stands: a `!c` / `!m` line marks it
    correct or missed here and another line is read."""
    while True:
        line = read_answer(prompt, session.answer_time_left)
        command = line.strip().lower() if isinstance(line, str) else ""
        if line is None or command == "!quit":
            return None, last
        if command not in OVERRIDES:
            return line, last
        if last is None:  # say so, rather than leave the player wondering whether it took
            typer.echo("  no previous question to mark yet")
            continue
        last = session.override(last, OVERRIDES[command])
        typer.echo(f"  previous question marked {'correct' if last.correct else 'missed'}")


def _reorder_terminal(session: Session, question: Question, order: str) -> Question:
    """The question's letters again in ORDER (or why not), the words found so far kept."""
    from lexitrain.errors import LexitrainError

    try:
        reordered = session.reorder(question, order)
    except LexitrainError as exc:
        typer.echo(f"  {exc}")
        return question
    if reordered.prompt == question.prompt and order == "random":
        typer.echo("  no other order to show")
    else:
        typer.secho(f"   {reordered.prompt}", bold=True)
    return reordered


def _ask_board(session: Session, question: Question, number: int, last: Outcome | None) -> Outcome | None:
    """A play, not words: the board and one answer line."""
    return ask_position(session, question, number)


def _ask_choice(session: Session, question: Question, number: int, last: Outcome | None) -> Outcome | None:
    """A word shown and one choice typed (v or p); a line that is no choice is refused and asked again."""
    choices = " / ".join(question.info.get("choices", ()))
    typer.secho(f"\n{number}. {question.info.get('word', question.prompt)}   {choices}?", bold=True)
    while True:
        line, last = _answer_line(session, "> ", last)
        if isinstance(line, TimedOut):
            outcome = session.time_out(question)
            break
        if line is None:
            return None
        try:
            outcome = session.answer(question, line.strip())
            break
        except Refused as refused:
            typer.secho(f"  {refused}", fg="red")
    if outcome.correct:  # a miss says why in the feedback
        typer.secho(f"  yes: {outcome.check.details.get('verdict', '')}", fg="green")
    _show_outcome(session, outcome)
    return outcome


#: How the terminal asks a question, by its rendering hint (one it does not know: as typed words).
ASKERS: dict[str, Callable[[Session, Question, int, Outcome | None], Outcome | None]] = {
    LETTERS: _ask_letters,
    BOARD: _ask_board,
    CHOICE: _ask_choice,
}


def _last_call(session: Session, last: Outcome) -> None:
    """After the last question, a chance to mark it (as Zyzzyva allows before
    the quiz is closed); an empty line or end of input finishes the round."""
    while True:
        line = read_answer("end of the round: !c / !m marks the last answer, Enter finishes > ")
        command = line.strip().lower() if isinstance(line, str) else ""
        if not command:
            return
        if command in OVERRIDES:
            last = session.override(last, OVERRIDES[command])
            typer.echo(f"  last question marked {'correct' if last.correct else 'missed'}")
        elif command == "!quit":
            return
        else:
            typer.echo("  the round is over: !c, !m or Enter")


def _show_outcome(session: Session, outcome: Outcome) -> None:
    """The verdict, why a miss was a miss, and every answer with its hooks and definition."""
    from lexitrain.cli.feedback_view import show_feedback
    from lexitrain.study.quiz.feedback import feedback

    show_feedback(feedback(session.lex, outcome, session.timers.question))


def _finish_terminal(session: Session, notes: Notes | None) -> Summary:
    summary = session.finish()
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
