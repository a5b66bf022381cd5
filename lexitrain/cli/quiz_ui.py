"""Front ends for a quiz session: the terminal, and JSON lines for other programs.

Both drive `lexitrain.study.session.Session`, and show each question the way
its rendering hint says (`letters`: a prompt and words typed; `board`: the
board and one play), never by the kind's name. In either one an answer line
`!correct` (or `!c`) / `!missed` (`!m`) overrides the verdict on the
previous question before the current one is answered; in the terminal an
empty line ends a question, `!quit` (or end of input) ends the round, and
after the last question one more line may mark it. (JSON lines end with the
summary at once: a driving program waits for it.)
"""

from __future__ import annotations

import json
import sys
from typing import Any, Callable

import typer

from lexitrain.study.kinds.base import BOARD, LETTERS, Question
from lexitrain.study.kinds.words import answer_words
from lexitrain.study.session import Outcome, Session, Summary

OVERRIDES = {"!correct": True, "!c": True, "!missed": False, "!m": False}
#: Lines the terminal adds under the summary (by default the round's own details, as named there).
Notes = Callable[[Summary], dict[str, Any]]


def clean_input(text: str) -> str:
    """Bytes that are not UTF-8 (which Python keeps as lone surrogates) become U+FFFD,
    so such an answer is judged wrong instead of failing to be stored. A byte-order
    mark (Windows pipes start with one) is dropped so the first answer still counts."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace").replace("\ufeff", "")


def read_answer(prompt: str) -> str | None:
    """One typed line, or None when the player stops: end of input (Ctrl-D) or Ctrl-C.

    Ctrl-C is how most players stop a terminal program; it ends the round like
    Ctrl-D, with the summary and the missed list, instead of killing it silently.
    """
    try:
        return clean_input(input(prompt))
    except EOFError:
        return None
    except KeyboardInterrupt:
        typer.echo()  # the summary starts on a line of its own, not after "^C"
        return None


def _emit(value: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(value, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def run_jsonl(session: Session) -> Summary:
    """The JSON lines protocol (docs/study.md): question line out, answer line in, result line out; summary last."""
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
            text = sys.stdin.readline()
            if not text:
                return _finish_jsonl(session)
            text = clean_input(text.rstrip("\r\n"))
            command = text.strip().lower()
            if command in OVERRIDES:
                if last is not None:
                    last = session.override(last, OVERRIDES[command])
                    _emit({"override": last.to_json()})
                else:
                    _emit({"override": None})
                continue
            break
        last = session.answer(question, text)
        _emit({"result": last.to_json()})
    return _finish_jsonl(session)


def _finish_jsonl(session: Session) -> Summary:
    summary = session.finish()
    _emit({"summary": summary.to_json()})
    return summary


def run_terminal(session: Session, notes: Notes | None = None) -> Summary:
    """Interactive quiz: every word checked as typed, found words kept, answers listed after."""
    typer.echo(session.title)
    typer.echo("type words (several a line is fine); empty line = next question, !c / !m = mark last "
               "correct / missed, !quit = stop")
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
    """One question answered by typing words; None when the player stops (the words typed so far still count)."""
    left = session.time_left()
    clock = f"  [{int(left) // 60}:{int(left) % 60:02d} left]" if left is not None else ""
    if session.timers.question is not None:
        clock += f"  [{session.timers.question:g} s to answer]"
    typer.secho(f"\n{number}. {question.prompt}  ({len(question.expected)} to find){clock}", bold=True)
    found: list[str] = []
    given: list[str] = []
    while True:
        line = read_answer("> " if not found else f"[{' '.join(found)}] > ")
        command = (line or "").strip().lower()
        if line is None or command == "!quit":
            if given:
                _show_outcome(session.answer(question, " ".join(given)))
            return None
        if command in OVERRIDES:
            if last is not None:
                last = session.override(last, OVERRIDES[command])
                typer.echo(f"  previous question marked {'correct' if last.correct else 'missed'}")
            else:  # say so, rather than leave the player wondering whether it took
                typer.echo("  no previous question to mark yet")
            continue
        if not line.strip():
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
            break
    outcome = session.answer(question, " ".join(given))
    _show_outcome(outcome)
    return outcome


def _ask_board(session: Session, question: Question, number: int, last: Outcome | None) -> Outcome | None:
    """A play, not words: the board and one answer line."""
    from lexitrain.cli.positions_cmd import ask_position

    return ask_position(session, question, number)


#: How the terminal asks a question, by its rendering hint (one it does not know: as typed words).
ASKERS: dict[str, Callable[[Session, Question, int, Outcome | None], Outcome | None]] = {
    LETTERS: _ask_letters,
    BOARD: _ask_board,
}


def _last_call(session: Session, last: Outcome) -> None:
    """After the last question, a chance to mark it (as Zyzzyva allows before
    the quiz is closed); an empty line or end of input finishes the round."""
    while True:
        line = read_answer("end of the round: !c / !m marks the last answer, Enter finishes > ")
        command = (line or "").strip().lower()
        if not command:
            return
        if command in OVERRIDES:
            last = session.override(last, OVERRIDES[command])
            typer.echo(f"  last question marked {'correct' if last.correct else 'missed'}")
        elif command == "!quit":
            return
        else:
            typer.echo("  the round is over: !c, !m or Enter")


def _show_outcome(outcome: Outcome) -> None:
    verdict = "right" if outcome.correct else ("too slow" if outcome.timed_out else "missed")
    typer.secho(f"  {verdict}: {' '.join(outcome.question.expected)}", fg="green" if outcome.correct else "yellow")
    if outcome.check.wrong:
        typer.echo(f"  not words here: {' '.join(outcome.check.wrong)}")
    if outcome.check.missing:
        typer.echo(f"  missing: {' '.join(outcome.check.missing)}")


def _finish_terminal(session: Session, notes: Notes | None) -> Summary:
    summary = session.finish()
    minutes, seconds = divmod(int(summary.seconds), 60)
    typer.echo(f"\n{summary.correct}/{summary.questions} right in {minutes}:{seconds:02d}")
    if summary.missed_list:
        typer.echo(f"missed words saved to {summary.missed_list} (quiz them with --file)")
    for name, value in (notes(summary) if notes else summary.details).items():
        typer.echo(f"{name.replace('_', ' ')}: {value}")
    return summary
