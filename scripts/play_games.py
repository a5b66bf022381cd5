"""Games against a bot played by another bot in the player's chair, saved as the player's own games.

A deliberately weak player (`--player-level`, the Casual bot by default) plays
`--games` games against `--bot` in the home (LEXITRAIN_HOME), each saved as
`lexitrain play` saves a game, so `lexitrain games`, `lexitrain leaks` and the
web app's Stats and Play pages see them as the player's. It is how the leak
profile of docs/engine.md was made:

    LEXITRAIN_HOME=/tmp/leaky nice -n 10 python scripts/play_games.py --games 20
    LEXITRAIN_HOME=/tmp/leaky lexitrain leaks
    LEXITRAIN_HOME=/tmp/leaky lexitrain leaks --study
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lexitrain.engine.bots import Bot, level  # noqa: E402
from lexitrain.engine.match import BOT, Settings, bot_line, challenge_rule  # noqa: E402
from lexitrain.lexicon.catalog import open_lexicon  # noqa: E402
from lexitrain.study.drills.play import PlayedGame  # noqa: E402
from lexitrain.study.store import ProgressStore  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--player-level", type=int, default=2, help="the bot in the player's chair")
    parser.add_argument("--bot", type=int, default=3, help="the bot played against")
    parser.add_argument("--lexicon", default="enable")
    parser.add_argument("--seed", type=int, default=36)
    args = parser.parse_args()
    lex = open_lexicon(args.lexicon)
    player = Bot(level(args.player_level), lex)
    started = time.perf_counter()
    with ProgressStore() as store:
        for number in range(args.games):
            seed = args.seed * 1000 + number
            settings = Settings(lex.name, args.bot, challenge_rule(None, lex.name), 0, seed, first=number % 2 == 0)
            game = PlayedGame.start(store, lex, settings)
            while not game.finished:
                if game.to_move == BOT:
                    game.bot_step()
                else:
                    game.player_line(bot_line(game.match, player, seed + 1))
            mine, theirs = game.match.scores
            print(f"{game.name}: {mine}-{theirs}", flush=True)
    print(f"{args.games} games in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
