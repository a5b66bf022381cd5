"""The terminal's feedback after a question (study/quiz/feedback.py): the verdict and why, then
each answer as Zyzzyva lists it: front hooks, `·` for an inner hook, the word, back hooks,
lexicon symbols and definition; found answers marked `found`, the others `missed`."""

from __future__ import annotations

from collections.abc import Sequence

import typer

from lexitrain.study.quiz.feedback import AnswerNote, Feedback


def show_feedback(feedback: Feedback) -> None:
    if feedback.correct and feedback.nothing_to_find:
        typer.secho("  right: nothing to find", fg="green")
    elif feedback.correct:
        if feedback.answers:  # (a phony judged rightly has no word to name)
            typer.secho(f"  right: {' '.join(a.row['word'] for a in feedback.answers)}", fg="green")
    else:
        typer.secho(f"  missed: {'; '.join(feedback.reasons)}", fg="yellow")
    for note, line in zip(feedback.answers, note_lines(feedback.answers, marks=not feedback.nothing_to_find)):
        typer.secho(f"    {line}", fg=None if note.found else "yellow")


def note_lines(notes: Sequence[AnswerNote], marks: bool = False) -> list[str]:
    """One aligned line a word: [found|missed] front-hooks ·WORD· back-hooks symbols definition."""
    cells = [[("found" if n.found else "missed") if marks else "", n.row["front_hooks"], hooked_word(n),
              n.row["back_hooks"], n.row["symbols"], n.definition] for n in notes]
    if not cells:
        return []
    widths = [max(len(c[i]) for c in cells) for i in range(len(cells[0]))]
    lines = []
    for line in cells:
        parts = [text.rjust(width) if i == 1 else text.ljust(width)
                 for i, (text, width) in enumerate(zip(line, widths)) if width]
        lines.append("  ".join(parts).rstrip())
    return lines


def hooked_word(note: AnswerNote) -> str:
    """The word between its inner-hook marks: `·` where it stays a word without that end's tile."""
    row = note.row
    return ("·" if row["inner_front"] else " ") + row["word"] + ("·" if row["inner_back"] else " ")
