"""The terminal view of a position question: the board, the rack and the scores, one play read, the top plays shown.

`quiz_ui` asks a `board` question through `ask_position`; `positions quiz` runs a whole round with `run_terminal`.
"""

from __future__ import annotations

from typing import Any

import typer

from lexitrain.cli.answer_input import TimedOut, read_terminal_line
from lexitrain.cli.board_view import render_board
from lexitrain.cli.output import stdout_console
from lexitrain.engine.cgp import parse_cgp
from lexitrain.errors import LexitrainError
from lexitrain.study.quiz.kinds.base import Question
from lexitrain.study.quiz.round import Round, command
from lexitrain.study.quiz.session import Outcome, Refused, Session


def run_terminal(session: Session) -> None:
    """The terminal position quiz; `ask_position` does each question."""
    typer.echo(session.title)
    typer.echo("type a play in GCG notation (8D QUITE across, H8 QUITE down, blanks lowercase, "
               "'.' for tiles on the board); empty line = pass, !undo = take the last play back, !quit = stop")
    rnd = Round(session)
    while (question := rnd.question) is not None:
        if ask_position(rnd, question) is None:
            break
    summary = rnd.finish()
    typer.echo(f"\n{summary.correct}/{summary.questions} top plays found")


#: what judges the analysed positions (a simulation, the endgame solver), whose verdicts show the analysis
ANALYSED = ("sim", "endgame")
#: the heading of a position question, by what judges it
ASKED = {"equity": "top play by equity", "sim": "best play by simulation",
         "endgame": "win the endgame: its first play"}


def show_position(number: int, session: Session, question: Question) -> None:
    """A position question as the terminal asks it, typed or as a flashcard: what it asks, the board with
    coordinates and premiums coloured, the rack and the scores (the opponent's tiles in an endgame)."""
    console = stdout_console()
    info = question.info
    position = parse_cgp(info["cgp"], session.lex.tiles, session.lex.layout)
    asks = info.get("asks") or f"{ASKED.get(info.get('by', ''), 'top play')}?"
    console.print(f"\n{number}. {asks}", style="bold")
    console.print(render_board(position.board, {(r, c) for r, c in info.get("highlight", ())}))
    if info.get("note"):
        console.print(info["note"], highlight=False)
    you, other = (position.scores + [0, 0])[:2]
    theirs = f"   the opponent holds {position.racks[1]}" if len(position.racks) > 1 and position.racks[1] else ""
    console.print(f"rack {position.rack}   score {you} to {other}{theirs}", style="bold", highlight=False)
    if info.get("answer_help"):
        console.print(f"type {info['answer_help']}", style="dim", highlight=False)


def ask_position(rnd: Round, question: Question) -> Outcome | None:
    """Show the position (`show_position`); read one play and show the verdict and the top plays. An illegal
    play is refused with its reason and the position asked again. None when the player stops (unscored);
    after `!undo`, the answer taken back (its question is then on show again)."""
    session = rnd.session
    info = question.info
    show_position(rnd.number, session, question)
    while True:
        line = read_terminal_line("play> " if "answer_help" not in info else "> ", session.answer_time_left)
        if isinstance(line, TimedOut):
            outcome = rnd.time_out()
            break
        said = None if line is None else command(line)
        if line is None or (said is not None and said.name == "stop"):
            return None
        if said is not None and said.name == "undo":
            taken = _undo(rnd)
            if taken is not None:
                return taken
            continue
        try:
            outcome = rnd.answer(line.strip())
            break
        except Refused as refused:
            typer.secho(f"  {refused}; try again" if "answer_help" in info else
                        f"  illegal: {refused}; try again (empty line = pass)", fg="red")
    _show_verdict(outcome)
    return outcome


def _undo(rnd: Round) -> Outcome | None:
    """`!undo`: the last play taken back (its position is asked again), or why not."""
    try:
        taken = rnd.undo()
    except LexitrainError as exc:
        typer.echo(f"  {exc}")
        return None
    typer.echo("  took back your last play: it is asked again" if taken else "  no play to take back yet")
    return taken


def _show_verdict(outcome: Outcome) -> None:
    v = outcome.check.details
    if "verdict" in v:  # the kind says it in its own lines, and a table
        _show_lines(outcome, v)
        return
    if v.get("by") in ANALYSED:
        _show_analysis(outcome, v)
        return
    if not v["legal"]:
        typer.secho(f"  illegal: {v['reason']}", fg="red")
    else:
        same = f" (= {v['same_as']})" if v.get("same_as") else ""
        equity = f", equity {v['equity']:.2f}" if v.get("by") == "equity" else ""
        typer.secho(f"  {v['play']}{same} scores {v['score']}{equity}: rank {v['rank']} of {v['plays']}",
                    fg="green" if outcome.correct else "yellow")
    for n, play in enumerate(v["top"], start=1):
        equity = f"{play['equity']:>7.2f} " if "equity" in play else ""
        typer.echo(f"  {n}. {equity}{play['score']:>4}  {play['position']:<4} {play['tiles']:<16} {play['word']}")


def _show_lines(outcome: Outcome, v: dict[str, Any]) -> None:
    """A verdict the kind wrote: its lines (right or not, in colour), then its table."""
    colour = "green" if outcome.correct else "yellow"
    lines = v["verdict"] or [f"no answer: {' or '.join(outcome.question.expected)}"]
    for line in lines:
        typer.secho(f"  {line}", fg=colour)
    table = v.get("table")
    if table and table.get("rows"):
        widths = [max(len(str(c)) for c in column) for column in zip(table["columns"], *table["rows"])]
        typer.echo("     " + "  ".join(str(c).ljust(w) for c, w in zip(table["columns"], widths)))
        for n, row in enumerate(table["rows"], start=1):
            typer.echo(f"  {n:>2}. " + "  ".join(str(c).ljust(w) for c, w in zip(row, widths)))


def _show_analysis(outcome: Outcome, v: dict[str, Any]) -> None:
    """The verdict of an analysed position: the play against the best, then the simulation's
    table (win %, equity, spread, iterations per candidate) or the endgame's first plays and best line."""
    colour = "green" if outcome.correct else "yellow"
    best = " or ".join(outcome.question.expected)
    if not v["legal"]:
        typer.secho(f"  passed: the best is {best}", fg="yellow")
    elif v["by"] == "sim":
        where = f"rank {v['rank']} of {v['plays']} simulated" if v["rank"] else "not one of the moves simulated"
        typer.secho(f"  {v['play']} scores {v['score']}: {'the best play' if outcome.correct else where}"
                    f"{'' if outcome.correct else f'; the best is {best}'}", fg=colour)
    else:
        worth = f"worth {v['play_value']:+d}" if v["play_value"] is not None else "not valued"
        typer.secho(f"  {v['play']} scores {v['score']}, {worth} to the end; the best is {best}, "
                    f"worth {v['value']:+d} (final spread {v['spread'] + v['value']:+d})", fg=colour)
    show_analysis_table(v)


def show_analysis_table(v: dict[str, Any]) -> None:
    """What an analysed position's verdict shows whatever the answer (a flashcard's reveal too): the
    simulation's table, or the endgame's first plays by exact value and a best line."""
    if v["by"] == "sim":
        typer.echo(f"  {'':3}{'win %':>6} {'equity':>7} {'spread':>7} {'score':>5} {'iter':>5}  move")
        for n, row in enumerate(v["top"], start=1):
            typer.echo(f"  {n:>2}.{100 * row['win']:>6.1f} {row['equity']:>7.2f} {row['spread']:>7.2f} "
                       f"{row['score']:>5} {row['iterations']:>5}  {row['play']} {row['word']} {row['leave'] or '-'}")
        read = ", the opponent's rack drawn from what their last move says of it" if v.get("inferred") else ""
        typer.echo(f"  ({v['iterations']} iterations, {v['plies']} plies, seed {v['seed']}{read})")
        return
    typer.echo(f"  {'':3}{'value':>6} {'score':>5}  move  (value: the spread gained from here to the end, "
               f"best play after)")
    for n, row in enumerate(v["top"], start=1):
        typer.echo(f"  {n:>2}.{row['value']:>+6d} {row['score']:>5}  {row['play']:<14} {row['word']}")
    line = ", ".join(("you " if n % 2 == 0 else "opponent ")  # the moves alternate from yours, a pass among them
                     + (f"{m['position']} {m['word']} {m['score']}" if m["position"] != "-" else "pass")
                     for n, m in enumerate(v["sequence"]))
    typer.echo(f"  a best line: {line}")
