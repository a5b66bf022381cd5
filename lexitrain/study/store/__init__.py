"""The progress database: cards, answers, sessions, plans, challenges, positions, settings.

Every statement on the progress database lives in this package, behind
methods named for what they do, one module per idea (the connection and its
transactions, the migrations, cards, answers, plans, challenges, positions,
settings, backups, the drills' leases on cards, `graded`: the one way a graded
answer is kept, `rounds`: open rounds, and `word_lists`: uploaded lists);
`ProgressStore` is all of them on one connection.

Each method is one short transaction of its own: an answer is committed the
moment it is given, so a killed process loses nothing already answered.
`with store.transaction():` groups several calls into one commit (an inner
use joins the outer one), e.g. saving a card and recording its answer.
The statements are written once for SQLite and PostgreSQL alike
(`study.store.dialect` spells what differs): a club member's store is a
PostgreSQL schema (`study.store.postgres`) with the same tables and methods.
"""

from lexitrain.study.store import backups
from lexitrain.study.store.answers import AnswerRow, Answers, Opening
from lexitrain.study.store.card_care import CardCare, ReviewRow
from lexitrain.study.store.cards import CardRow, Cards, DueMove
from lexitrain.study.store.challenges import Attempt, Challenges
from lexitrain.study.store.connection import BUSY_SECONDS, FILE_NAME, progress_path
from lexitrain.study.store.exchange import PeerRow, Taken, Exchange
from lexitrain.study.store.leases import Leases
from lexitrain.study.store.decks import DeckRow, Decks
from lexitrain.study.store.graded import UNCHECKED, CardMoved, GivenAnswer, Graded, Kept, Reschedule
from lexitrain.study.store.migrations import SCHEMA_VERSION
from lexitrain.study.store.plans import PlanRow, Plans
from lexitrain.study.store.positions import POSITION_FIELDS, Filters, Positions, StoredPosition
from lexitrain.study.store.rounds import Rounds, SavedRound
from lexitrain.study.store.settings import Settings
from lexitrain.study.store.transfer import Transfer
from lexitrain.study.store.word_lists import WordLists

__all__ = [
    "BUSY_SECONDS", "FILE_NAME", "POSITION_FIELDS", "SCHEMA_VERSION", "UNCHECKED", "AnswerRow", "Attempt", "CardMoved",
    "CardRow", "DeckRow", "DueMove", "Filters", "GivenAnswer", "Kept", "Opening", "PeerRow", "PlanRow", "ProgressStore", "Reschedule",
    "ReviewRow", "SavedRound", "StoredPosition", "Taken", "backups", "progress_path",
]


class ProgressStore(Graded, Exchange, Cards, Answers, Transfer, CardCare, Decks, Plans, Positions, Challenges, Settings,
                    Leases, Rounds, WordLists):
    """An open progress database. Use as a context manager or call close()."""
