"""The `lexitrain` command: every command module's commands and groups, added to the root app in one order.

A command module never imports this one: it defines its commands on typers of
its own, and `COMMANDS` below adds them, so `lexitrain --help` lists them in
this order whatever was imported first.
"""

from __future__ import annotations

import typer

from lexitrain.cli import (card_cmd, engine_cmd, import_cmd, infer_cmd, lexicon_cmd, play_cmd, positions_cmd,
                           search_cmd, serve_cmd, sheet_cmd, sim_cmd, study_cmd, sync_cmd, web_cmd)
from lexitrain.cli.root import new_root_app, run

#: In the order `lexitrain --help` lists them: look words up, study, solve
#: positions, print sheets, the web app, manage lexicons. A typer with a name is a command
#: group (`lexitrain study ...`); one without adds its commands at the top level.
COMMANDS: tuple[typer.Typer, ...] = (
    search_cmd.commands,  # judge, anagram, hooks, search
    search_cmd.searches_app,
    study_cmd.commands,  # quiz, daily, challenge, stats
    study_cmd.study_app,  # (card_cmd adds its card and deck commands to it)
    study_cmd.progress_app,
    import_cmd.import_app,  # import zyzzyva
    sync_cmd.commands,  # sync
    positions_cmd.positions_app,
    engine_cmd.commands,  # best, score
    sim_cmd.commands,  # sim
    infer_cmd.commands,  # infer
    engine_cmd.gcg_app,
    play_cmd.commands,  # play, bots, games
    sheet_cmd.commands,  # sheet
    web_cmd.commands,  # web
    serve_cmd.serve_app,  # serve, serve invite, serve admin
    lexicon_cmd.lexicon_app,
)

app = new_root_app()
for part in COMMANDS:
    app.add_typer(part)


def main() -> None:
    """Console entry point (`lexitrain`, `python -m lexitrain`)."""
    run(app)
