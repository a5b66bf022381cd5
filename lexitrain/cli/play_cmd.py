"""`lexitrain play`, `bots`, `games` and `leaks`: a game against a bot in the terminal or as JSON lines, the ladder,
the games kept, and what the player's mistakes cost.

The game is `study/drills/play.py` (over `engine/match.py`); this module
shows it (the board as the position quiz draws it, the rack, both scores and
clocks, the unseen tiles unless hidden) and passes the player's lines on.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Optional

import typer

from lexitrain.cli.options import Json, Jsonl, Lexicon, open_study_lexicon
from lexitrain.cli.output import counted, emit_json, stdout_console
from lexitrain.errors import LexitrainError

#: play, bots, games, leaks (`lexitrain.cli.app` adds them to the root)
commands = typer.Typer()
#: the level a game is played against when none is asked for
DEFAULT_LEVEL = 3
HELP = ("a play in GCG notation (8D RETAINS across, H8 RETAINS down, blanks lowercase, '.' for tiles on the board), "
        "exchange ABC, pass, challenge (the bot's last play), or quit (the game is saved: play --resume goes on)")


@commands.command("play")
def play(
    bot: int = typer.Option(DEFAULT_LEVEL, "--bot", help="The bot's level, 1 (Beginner) to 5 (Champion): "
                            "`lexitrain bots` lists them."),
    clock: float = typer.Option(25.0, "--clock", help="Minutes each (NASPA overtime: 10 points per minute "
                                "or part of one over); 0 untimed."),
    challenge: Optional[str] = typer.Option(None, "--challenge", help="void, single, double, 5 or 10 "
                                            "(default: 5 for a CSW-style lexicon, else double)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="The seed of the bag (the same seed, the same "
                                       "draws); default: a new one each game."),
    hide_unseen: bool = typer.Option(False, "--hide-unseen", help="Hide the unseen tiles; at a few moments "
                                     "(and always before the bag empties) you are asked for them."),
    resume: bool = typer.Option(False, "--resume", help="Go on with the latest unfinished game (or --game)."),
    game: Optional[str] = typer.Option(None, "--game", help="With --resume: the game to go on with (a name "
                                       "from `lexitrain games`, or its GCG file)."),
    *,
    lexicon: Lexicon,
    jsonl: Jsonl = False,
) -> None:
    """Play a game against a bot; it is saved after every move in your data folder (`lexitrain games`)."""
    from lexitrain.engine.match import Settings, challenge_rule
    from lexitrain.study.drills.play import PlayedGame
    from lexitrain.study.store import ProgressStore

    import random
    import secrets

    if game is not None and not resume:
        raise LexitrainError("--game goes with --resume")
    with ProgressStore() as store:
        if resume:
            played = PlayedGame.resume(store, game)
        else:
            lex = open_study_lexicon(lexicon)
            chosen = seed if seed is not None else secrets.randbelow(1_000_000_000)
            settings = Settings(lex.name, bot, challenge_rule(challenge, lex.name), clock, chosen, hide_unseen,
                                first=random.Random(f"first/{chosen}").random() < 0.5)
            played = PlayedGame.start(store, lex, settings)
        if jsonl:
            _run_jsonl(played)
        else:
            _run_terminal(played, resumed=resume)


# -- JSON lines -------------------------------------------------------------------------


def _emit(value: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(value, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def _run_jsonl(played: Any) -> None:
    """The protocol of docs/play.md: a turn line, one line read; the bot's moves; the end."""
    from lexitrain.cli.answer_input import read_line
    from lexitrain.study.quiz.session import Refused
    from lexitrain.study.records.saved_games import GameMoved

    while not played.finished:
        if played.to_move == "bot":
            for happened in played.bot_step():
                _emit_happened(happened)
            continue
        question = played.tracking_question()
        if question is not None:
            match = played.match
            _emit({"track": {"turn": match.turn_number, "cgp": match.cgp(), "rack": match.rack(),
                             "count": question.info["count"]}})
            line = read_line(lambda: None)
            if line is None or not isinstance(line, str):
                played.put_away()
                return
            try:
                outcome = played.track(line)
            except Refused as exc:
                _emit({"error": str(exc)})
                continue
            _emit({"tracked": outcome.check.details})
            continue
        _emit(played.match.turn_json())
        line = read_line(lambda: None)
        if line is None or not isinstance(line, str):
            played.put_away()
            return
        try:
            for happened in played.player_line(line):
                if happened.what == "challenge":
                    _emit({"challenge": {"result": happened.text, "score": happened.score, **happened.details}})
        except GameMoved:
            raise  # another program plays this game: this one stops (one line on stderr)
        except LexitrainError as exc:
            _emit({"error": str(exc)})
    _emit({"end": played.end_json()})


def _emit_happened(happened: Any) -> None:
    """A bot's move (or its challenge of the player's play) as one line."""
    line: dict[str, Any] = {"bot": happened.move, "score": happened.score}
    if happened.what == "challenge":
        line["result"] = happened.text
        line.update(happened.details)
    _emit(line)


# -- the terminal -----------------------------------------------------------------------


def _run_terminal(played: Any, resumed: bool) -> None:
    """The game at the terminal, a turn at a time, until it ends or the player quits (then it is put away)."""
    console = stdout_console()
    match = played.match
    rung = match.bot.rung
    typer.echo(f"{'resumed' if resumed else 'new game'} {played.name}: you against {rung.name} (level {rung.level}), "
               f"{match.lex.name}, {_rules_text(match)}; {'you move' if match.me == 0 else 'the bot moves'} first")
    typer.echo(f"type {HELP}")
    shown = None  # the turn last drawn: a refused line asks again without drawing the board again
    while not played.finished:
        if played.to_move == "bot":
            if not _bot_turn(played, rung.name):
                break
            continue
        if shown != (match.turn_number, len(match.events)):
            _show(console, played)
            shown = (match.turn_number, len(match.events))
        question = played.tracking_question()
        going_on = _player_turn(played, rung.name) if question is None else \
            _tracking_turn(played, question.info["count"], rung.name)
        if not going_on:
            break
    if not played.finished:
        played.put_away()
        typer.echo(f"saved: go on with `lexitrain play --resume` ({played.name})")
        return
    _game_over(console, played)


def _bot_turn(played: Any, bot: str) -> bool:
    """The bot's move, said as it happens; False when Ctrl-C stopped it (the game is put away as it stands)."""
    typer.echo(f"{bot} is thinking...")
    try:
        for happened in played.bot_step():
            _say(happened, bot)
    except KeyboardInterrupt:
        typer.echo()
        return False
    return True


#: what the player types to stop playing (end of input and Ctrl-C stop too); the game is put away
QUIT_WORDS = ("quit", "q", "!quit")


def _tracking_turn(played: Any, count: int, bot: str) -> bool:
    """The tile tracking question before the player's move, and how the answer did; False when they quit."""
    from lexitrain.cli.answer_input import read_terminal_line
    from lexitrain.study.quiz.session import Refused

    typer.secho(f"TILE TRACKING, before your move: which {count} tiles can you not see (the bag and "
                f"{bot}'s rack)? Type them all, e.g. AEEINRST?; your move comes after.", bold=True)
    line = read_terminal_line(f"the {count} unseen tiles> ")
    if not isinstance(line, str) or line.strip().lower() in QUIT_WORDS:
        return False
    try:
        outcome = played.track(line)
    except Refused as exc:
        typer.secho(f"  {exc}", fg="red")
        return True
    d = outcome.check.details
    typer.secho(f"  {d['tiles_right']} of {d['tiles']} right ({100 * d['score']:.0f}%); unseen: {d['unseen']}"
                + (f"; not unseen: {''.join(outcome.check.wrong)}" if outcome.check.wrong else ""),
                fg="green" if outcome.correct else "yellow")
    return True


def _player_turn(played: Any, bot: str) -> bool:
    """The player's line: a move, a challenge, `help`; a refused one is said in red and asked again. False when
    they quit."""
    from lexitrain.cli.answer_input import read_terminal_line
    from lexitrain.study.records.saved_games import GameMoved

    line = read_terminal_line("your move> ")
    if not isinstance(line, str) or line.strip().lower() in QUIT_WORDS:
        return False
    if line.strip().lower() in ("help", "?"):
        typer.echo(f"type {HELP}")
        return True
    try:
        for happened in played.player_line(line):
            _say(happened, bot)
    except GameMoved:
        raise  # another program plays this game: this one stops (one line on stderr)
    except LexitrainError as exc:
        typer.secho(f"  {exc}", fg="red")
    return True


def _game_over(console: Any, played: Any) -> None:
    """The final board, the end's adjustments, the result, and where the game was saved and what to run on it."""
    match = played.match
    bot = match.bot.rung.name
    _show(console, played, final=True)
    end = played.end_json()
    mine, theirs = end["scores"]
    verdict = "you win" if end["winner"] == match.settings.player else "a draw" if end["winner"] == "draw" else \
        f"{bot} wins"
    for event in match.events:  # the end's adjustments, counted in the final scores below
        if event.kind in ("end-rack", "time"):
            whose = "you" if event.player == match.settings.player else bot
            typer.echo(f"  {whose}: {'time penalty' if event.kind == 'time' else 'rack'} {event.score:+d}")
    typer.secho(f"game over: {mine} to {theirs}, {verdict}", bold=True)
    typer.echo(f"saved as {end['gcg']}; see what it cost: lexitrain gcg analyze {end['gcg']} --player "
               f"{match.settings.player} --sim, then lexitrain leaks")


def _rules_text(match: Any) -> str:
    from lexitrain.engine.match import rule_name

    minutes = match.settings.minutes
    clock = f"{minutes:g} minutes each" if minutes else "untimed"
    return f"{rule_name(match.settings.challenge)} challenge, {clock}"


def _say(happened: Any, bot: str) -> None:
    who = "you" if happened.who == "player" else bot
    colour = "cyan" if happened.who == "bot" else None
    if happened.what == "challenge":
        typer.secho(f"  {who} challenge: {happened.text}", fg="magenta")
    elif happened.what in ("play", "exchange", "pass"):
        typer.secho(f"  {who}: {happened.text}", fg=colour)


def _show(console: Any, played: Any, final: bool = False) -> None:
    """The board (the last play marked), the rack, both scores and clocks, the bag and the unseen tiles."""
    from lexitrain.cli.answer_input import clock_text
    from lexitrain.cli.board_view import render_board

    match = played.match
    console.print(render_board(match.game.board, match.last_play_squares()))
    mine, theirs = match.scores
    left = match.clock_seconds()
    if match.clock.timed:
        clocks = "   clocks " + "  ".join(("-" if s < 0 else "") + clock_text(abs(s)) for s in left)
    else:
        clocks = ""
    console.print(f"you {mine}   {match.bot.name} {theirs}{clocks}   bag {match.bag()}", style="bold",
                  highlight=False)
    if final:
        return
    console.print(f"turn {match.turn_number}   rack {match.rack()}", style="bold", highlight=False)
    if not match.settings.hide_unseen:
        console.print(f"unseen {match.unseen()}", highlight=False)


# -- the ladder and the games kept --------------------------------------------------------------


@commands.command("bots")
def bots(json_out: Json = False) -> None:
    """The bots' levels, weakest first, with their strength measured by self-play (scripts/bench_bots.py)."""
    from lexitrain.engine.bots import ladder

    rows = ladder()
    if json_out:
        emit_json([{k: r[k] for k in ("level", "name", "description", "mean_score", "win_vs_equity", "games",
                                      "mean_score_se", "win_vs_equity_se")} for r in rows])
        return
    for r in rows:
        measured = ""
        if r["mean_score"] is not None:
            measured = (f"  (mean score {r['mean_score']:.0f} +- {r['mean_score_se']}, wins {100 * r['win_vs_equity']:.1f}%"
                        f" +- {100 * r['win_vs_equity_se']:.1f}% against the equity player, {r['games']} games)")
        typer.echo(f"{r['level']} {r['name']}: {r['description']}{measured}")


@commands.command("games")
def games(json_out: Json = False) -> None:
    """Your games against the bots, newest first: each is a GCG file (`play --resume --game NAME` goes on)."""
    from lexitrain.study.records.saved_games import saved_games

    found = saved_games()
    if json_out:
        emit_json([g.to_json() for g in found])
        return
    if not found:
        typer.echo("no games yet: `lexitrain play` starts one")
        return
    for g in found:
        state = (f"{g.scores[0]}-{g.scores[1]}, " + ("you won" if g.winner == g.settings.player else "a draw"
                                                     if g.winner == "draw" else f"{g.bot} won")) if g.finished \
            else f"unfinished, {g.scores[0]}-{g.scores[1]} after {counted(g.turns, 'turn')}"
        typer.echo(f"{g.gcg.stem}  {g.bot} (level {g.settings.level}), {g.settings.lexicon}: {state}")


@commands.command("leaks")
def leaks(
    files: Optional[list[Path]] = typer.Argument(None, help="GCG files of games played elsewhere (default: your "
                                                 "finished games against the bots)."),
    player: Optional[str] = typer.Option(None, "--player", help="With FILES: whose leaks (nick or name)."),
    sim: bool = typer.Option(False, "--sim", help="Judge each turn by phase (simulation, pre-endgame, endgame) "
                             "instead of by equity: slower, kept for next time."),
    study: bool = typer.Option(False, "--study", help="Turn the costliest kinds into this week's study: their "
                               "words and positions as cards, due now."),
    kinds: int = typer.Option(3, "--kinds", help="With --study: how many kinds of leak to study."),
    *,
    lexicon: Lexicon,
    json_out: Json = False,
) -> None:
    """Your leak profile: what your mistakes cost by kind (missed bingos, phonies, leaves, endgames...), per game."""
    from lexitrain.cli.progress_bar import progress_bar
    from lexitrain.study.records.leaks import Analysts, analysed_file, leak_profile, saved_analyses

    if files and not player:
        raise LexitrainError("with GCG files, say whose leaks with --player NAME")
    if player and not files:
        raise LexitrainError("--player goes with GCG files (your own games are yours)")
    if kinds < 1:
        raise LexitrainError("--kinds: at least 1")
    analysts = Analysts(sim)
    with progress_bar("leak profile") as progress:
        if files:
            games = [analysed_file(path, player or "", lexicon, analysts) for path in files]
        else:
            games = saved_analyses(analysts, progress)
    if not games and study:
        raise LexitrainError("no finished games to study from yet: play one first (`lexitrain play`)")
    profile = leak_profile(games)
    data = profile.to_json()
    if study:
        from lexitrain.study.records.leak_cards import leak_study
        from lexitrain.study.store import ProgressStore

        with ProgressStore() as store, progress_bar("this week's study") as progress:
            data["study"] = leak_study(store, profile, kinds, progress=progress).to_json()
    if json_out:
        emit_json(data)
        return
    _print_leaks(data)


def _print_leaks(data: dict[str, Any]) -> None:
    if not data["games"]:
        typer.echo("no finished games against the bots yet: `lexitrain play` starts one, and its mistakes' cost "
                   "shows here kind by kind (or profile games played elsewhere: `lexitrain leaks FILE.gcg --player "
                   "NAME`)")
        return
    total = data["total"]
    typer.echo(f"{counted(data['games'], 'game')} of {data['player']}, judged by {', '.join(data['judged_by'])}: "
               f"{total['win_per_turn']:.2f}% win probability given up a turn on average (over "
               f"{counted(total['turns'], 'turn')}) and {total['points_per_game']:.1f} points a game, over "
               f"{counted(total['leaks'], 'leak')}")
    for row in data["kinds"]:
        if row["count"]:
            typer.echo(f"  {row['title']:<36} {row['win_per_turn']:>6.2f}% a turn {row['points_per_game']:>7.1f} pts a game"
                       f"  ({counted(row['count'], 'time')}, {100 * row['share']:.0f}% of the cost)")
    if len(data["weeks"]) > 1:
        typer.echo("by week:")
        for week in data["weeks"]:
            typer.echo(f"  {week['week']}: {counted(week['games'], 'game')}, {week['win_per_turn']:.2f}% a turn and "
                       f"{week['points_per_game']:.1f} points a game; most: {week['top'] or '-'}")
    if data["costliest"]:
        typer.echo("costliest:")
        for leak in data["costliest"][:5]:
            where = f"{leak['game']} turn {leak['turn']}" if leak["turn"] else leak["game"]
            best = f" (best {leak['best']})" if leak["best"] else ""
            typer.echo(f"  {where}: {leak['kind']}, {leak['move']}{best}: -{100 * leak['win']:.1f}%, "
                       f"-{leak['points']:.0f} pts")
    if "study" in data:
        s = data["study"]
        typer.echo(f"this week's study: {counted(s['added'], 'new card')} due now "
                   f"({s['already_cards']} already studied keep their schedule)")
        for k in s["kinds"]:
            cards = ", ".join(f"{n} {kind}" for kind, n in k["cards"].items()) or "no cards"
            typer.echo(f"  {k['title']}: {cards}")
        for note in s["notes"]:
            typer.echo(f"  {note}")
    else:
        typer.echo("`lexitrain leaks --study` makes this week's study of the top kinds")
