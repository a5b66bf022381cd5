"""Study statistics with pandas: what was done, how well, and what is coming.

pandas and matplotlib are imported inside the functions that need them so
that the rest of the CLI starts quickly.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.quiz.kinds.base import new_kind
from lexitrain.study.quiz.scheduler import load_scheduling, to_datetime, utc_now
from lexitrain.study.records.coverage import LengthCoverage, coverage
from lexitrain.study.records.stakes import Covered, covered
from lexitrain.study.store import ProgressStore
from lexitrain.study.store.exchange import peer_club, peer_home
from lexitrain.wording import counted

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure


STATE_NAMES = {0: "new", 1: "learning", 2: "review", 3: "relearning"}
FORECAST_DAYS = 30
HISTORY_DAYS = 30
HARDEST = 10
COVERAGE_ALWAYS = (7, 8)  # lengths whose coverage is shown even when nothing is known yet
#: the kind of question tile tracking asks (study/quiz/kinds/tile_tracking.py)
TRACKING_KIND = "tile-tracking"


@dataclass
class StatsReport:
    lexicon: str
    per_day: pd.DataFrame  # date, answers, correct, new, unscheduled (practice: no card moved)
    by_state: dict[str, int]
    forecast: pd.DataFrame  # date, due
    hardest: pd.DataFrame  # key, correct, incorrect, miss_rate
    retention: float | None  # share of reviews (not first answers) answered right
    retention_30: float | None
    coverage: list[LengthCoverage] = field(default_factory=list)  # per length, the bingo draws known
    points: Covered | None = None  # the points per game the known words cover, and how it grew
    tracking: Tracking | None = None  # tile tracking in games against the bots, tile by tile
    syncs: list[SyncStatus] = field(default_factory=list)  # when the store last synced with each other, what waits
    #: new cards waiting in a study plan's queue, never shown (not in `by_state`: a fresh home's plan makes its
    #: twos, threes, sevens and eights at once, and a player who has studied nothing has no new cards of theirs)
    waiting: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "lexicon": self.lexicon,
            "reviews_per_day": self.per_day.to_dict("records"),
            "cards_by_state": self.by_state,
            "cards_waiting_in_plans": self.waiting,
            "retention": self.retention,
            "retention_30_days": self.retention_30,
            "forecast": self.forecast.to_dict("records"),
            "hardest": self.hardest.to_dict("records"),
            "coverage": {str(c.length): c.to_json() for c in self.coverage},
            **({"points": self.points.to_json()} if self.points is not None else {}),
            **({"tile_tracking": asdict(self.tracking)} if self.tracking is not None else {}),
            "sync": [status.to_json() for status in self.syncs],
        }


@dataclass(frozen=True)
class Tracking:
    """How well the player tracked tiles when asked (`play --hide-unseen`): over every answer, the unseen
    tiles named right, and the mean of each answer's score (right over unseen and wrong together)."""

    asked: int
    exact: int  # answers with every tile right and none too many
    tiles: int
    tiles_right: int
    mean_score: float
    last_score: float


def tracking(store: ProgressStore, lex: Lexicon) -> Tracking | None:
    """The tile tracking figures of a lexicon's answers (None when none was asked); each answer judged again
    from its key (the position, which holds the answer) by the kind that asked it."""
    answers = store.kind_answers(lex.name, TRACKING_KIND)
    if not answers:
        return None
    kind = new_kind(TRACKING_KIND)
    scores, exact, tiles, right = [], 0, 0, 0
    for key, given, _ in answers:
        try:
            check = kind.check(kind.build(lex, key), given)
        except LexitrainError:
            continue  # a position this lexicon cannot read (another tile set): not counted
        if check.refused is not None:
            continue
        scores.append(float(check.details["score"]))
        exact += check.correct
        tiles += int(check.details["tiles"])
        right += int(check.details["tiles_right"])
    if not scores:
        return None
    return Tracking(len(scores), exact, tiles, right, round(sum(scores) / len(scores), 4), scores[-1])


def compute(store: ProgressStore, lexicon: str, lex: Lexicon | None = None, points: bool = False) -> StatsReport:
    """The report on a lexicon's progress (with `lex`, the lexicon itself, its coverage too; with
    `points` as well, the points per game the known words cover, where the lexicon has the figures).

    SQLite counts (per day, per state, the due days, the hardest cards) and only the small
    tallies come back: at 100,000 cards the report takes tens of milliseconds, not seconds."""
    import pandas as pd

    now = utc_now()
    today = now.astimezone().date()  # days are the player's calendar days, as in the daily drill
    since = today - timedelta(days=HISTORY_DAYS)
    since_at = _midnight(since)

    days: dict[str, list[int]] = {}
    for quarter, *counts in store.answers_per_quarter_hour(lexicon, since_at):
        tally = days.setdefault(_local_date(quarter).isoformat(), [0, 0, 0, 0])
        for place, count in enumerate(counts):
            tally[place] += count
    columns = ["answers", "correct", "new", "unscheduled"]
    per_day = pd.DataFrame.from_records([(day, *days[day]) for day in sorted(days)], columns=["date", *columns])
    per_day[columns] = per_day[columns].astype(int)

    by_state = dict.fromkeys(STATE_NAMES.values(), 0)
    for state, _, n in store.state_counts(lexicon):
        by_state[STATE_NAMES[state]] += n
    waiting = store.waiting_in_plans(lexicon)
    by_state["new"] -= waiting  # (new: cards of the player's making or already introduced, not yet answered)

    hardest = pd.DataFrame.from_records(store.most_missed_cards(lexicon, "anagram", HARDEST),
                                        columns=["key", "correct", "incorrect", "miss_rate"])
    hardest[["correct", "incorrect"]] = hardest[["correct", "incorrect"]].astype(int)

    def share(tally: tuple[int, int]) -> float | None:
        reviews, right = tally
        return round(right / reviews, 3) if reviews else None

    by_length = coverage(store, lex) if lex is not None else []
    reviews, right, recent_reviews, recent_right = store.review_tally(lexicon, since_at)
    return StatsReport(lexicon, per_day, by_state, forecast(store, lexicon), hardest, share((reviews, right)),
                       share((recent_reviews, recent_right)), by_length,
                       _points_covered(store, lex, now) if points and lex is not None else None,
                       tracking(store, lex) if lex is not None else None, sync_status(store), waiting)


def forecast(store: ProgressStore, lexicon: str) -> pd.DataFrame:
    """The cards due on each of the next FORECAST_DAYS days (today's with every card overdue): read from the days
    the store keeps and the due index, a few milliseconds at 100,000 cards, so a page shows it as the store is
    now (a whole report is counted again apart, and may be a count behind: `web.context.Context.stats`)."""
    import pandas as pd

    today = utc_now().astimezone().date()
    due = [0] * FORECAST_DAYS
    due[0], coming = store.due_per_quarter_hour(lexicon, _midnight(today + timedelta(days=1)),
                                                _midnight(today + timedelta(days=FORECAST_DAYS)))
    for quarter, count in coming:  # (cards due before tomorrow are due today: overdue ones too)
        due[(_local_date(quarter) - today).days] += count
    return pd.DataFrame({"date": [(today + timedelta(days=d)).isoformat() for d in range(FORECAST_DAYS)], "due": due})


def _points_covered(store: ProgressStore, lex: Lexicon, now: datetime) -> Covered | None:
    """The points covered, or None for a lexicon whose figures have no points."""
    if not lex.has_playability or "scored" not in lex.playability_meta():
        return None
    return covered(store, lex, load_scheduling(store), now.timestamp())


def _local_date(quarter: int) -> date:
    """The player's calendar day of a quarter hour (numbered from the epoch)."""
    return datetime.fromtimestamp(quarter * 900).date()


def _midnight(day: date) -> float:
    """The time the player's local calendar day begins."""
    return datetime.combine(day, time()).astimezone().timestamp()


def shown_coverage(report: StatsReport) -> list[LengthCoverage]:
    """The lengths a report shows coverage for: those with anything known, and the bingo lengths always."""
    return [c for c in report.coverage if c.known or c.length in COVERAGE_ALWAYS]


@dataclass(frozen=True)
class DueDays:
    """Days of the due forecast as a player reads them: one day with cards due, or a run of days with none."""

    first: str  # ISO dates
    last: str
    due: int


def shown_forecast(report: StatsReport, days: int = FORECAST_DAYS) -> list[DueDays]:
    """The first DAYS of the forecast with each run of days that have nothing due as one entry, and the
    days after the last one with cards due left out (a month of zeros says nothing)."""
    shown: list[DueDays] = []
    for day, due in zip(report.forecast["date"][:days], report.forecast["due"][:days]):
        if not due and shown and not shown[-1].due:
            shown[-1] = DueDays(shown[-1].first, day, 0)
        else:
            shown.append(DueDays(day, day, int(due)))
    return shown[:-1] if shown and not shown[-1].due else shown


def render_text(report: StatsReport) -> list[str]:
    """The report as plain lines for the terminal."""
    lines = [f"{report.lexicon}: " + ", ".join(f"{n:,} {name}" for name, n in report.by_state.items())
             + (f"; {report.waiting:,} more wait in your study plan (the daily drill introduces a few a day)"
                if report.waiting else "")]
    retention = "n/a" if report.retention is None else f"{report.retention:.0%}"
    recent = "n/a" if report.retention_30 is None else f"{report.retention_30:.0%}"
    lines.append(f"retention on reviews: {retention} overall, {recent} in the last {HISTORY_DAYS} days")
    lines.append("answers per day (last 30 days):")
    lines += [f"  {r.date}  {r.answers:>4} answered, {r.correct:>4} right, {r.new:>3} new"
              for r in report.per_day.itertuples()] or ["  none yet"]
    week = report.forecast.head(7)
    lines.append("due in the next days: " + "  ".join(f"{d[5:]}:{n}" for d, n in zip(week["date"], week["due"])))
    lines.append(f"due in the next {FORECAST_DAYS} days: {int(report.forecast['due'].sum())}")
    shown = shown_coverage(report)
    if shown:
        lines.append("coverage (of the draws with no blank that make a word, the share whose words you know):")
        lines += [f"  {c.length:>2}s {c.share:>7.2%}  ({c.known:,} of {c.alphagrams:,} alphagrams known)" for c in shown]
    if report.points is not None:
        p = report.points
        lines.append(f"points at stake: the words you know cover {p.now:.1f} of the {p.lexicon_points:.1f} points "
                     f"a game holds ({p.share:.1%}, counting each by how likely you are to recall it now)")
        lines.append("  week by week: " + "  ".join(f"{day[5:]}:{covered:.1f}" for day, covered in p.dated_weeks()))
    if report.tracking is not None:
        t = report.tracking
        lines.append(f"tile tracking: {t.asked} asked, {t.exact} exactly right; {t.tiles_right} of {t.tiles} unseen "
                     f"tiles named ({t.mean_score:.0%} a time on average, {t.last_score:.0%} the last time)")
    if len(report.hardest):
        lines.append("hardest alphagrams: " + "  ".join(
            f"{r.key} ({r.incorrect}/{r.correct + r.incorrect} missed)" for r in report.hardest.itertuples()))
    lines += [synced_line(status) for status in report.syncs]
    return lines


@dataclass(frozen=True)
class SyncStatus:
    """When this store last synced with another, and how many of its answers wait to go there."""

    peer: str  # what this store calls the other: `club_peer`'s or `home_peer`'s name
    synced: float | None
    waiting: int

    def to_json(self) -> dict[str, Any]:
        moment = to_datetime(self.synced)
        return {"with": self.label, "synced": None if moment is None else moment.isoformat(), "waiting": self.waiting}

    @property
    def label(self) -> str:
        """The other store as a player names it: `ann on https://club.example.org`, or `the home laptop`."""
        club = peer_club(self.peer)
        return "the home " + peer_home(self.peer) if club is None else f"{club[1]} on {club[0]}"


def sync_status(store: ProgressStore) -> list[SyncStatus]:
    """Each store this one syncs with, the latest first: when, and the answers waiting to go there."""
    return [SyncStatus(row.peer, row.synced, store.unsent_answers(row.sent)) for row in store.peers()]


def synced_line(status: SyncStatus) -> str:
    """When a store last synced with another, and what waits to go, in words."""
    moment = to_datetime(status.synced)
    when = "not finished yet" if moment is None else f"last on {moment.astimezone():%Y-%m-%d at %H:%M}"
    waiting = "nothing waits to go" if not status.waiting else (
        f"{counted(status.waiting, 'answer')} wait{'s' if status.waiting == 1 else ''} to go")
    return f"synced with {status.label}: {when}; {waiting}"


def _nothing_yet(ax: Any, text: str) -> None:
    """A chart with no data says so, rather than drawing empty axes around zero."""
    ax.set_xticks([])
    ax.set_yticks([])
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, color="#666666")


def _whole_counts(ax: Any, values: Iterable[int], headroom: float = 1.05) -> None:
    """A count axis from 0 in whole numbers, even when every count is 0 (no axis around -0.04 to 0.04);
    HEADROOM above the tallest bar (room for a legend)."""
    from matplotlib.ticker import MaxNLocator

    ax.set_ylim(0, max(1, max(values, default=0)) * headroom)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))


def plot(report: StatsReport, path: Path) -> None:
    """Charts in one PNG: answers per day, the due forecast, cards by state, hardest alphagrams, and
    (where the report has them) the points per game the known words cover, week by week."""
    if path.suffix.lower() != ".png":
        raise LexitrainError(f"{path}: the plot is written as PNG; give a file name ending in .png")
    import matplotlib.pyplot as plt

    fig = charts(report)
    try:
        fig.savefig(path, format="png")
    except OSError as exc:
        raise LexitrainError(f"{path}: cannot write the plot ({exc.strerror or exc})") from None
    finally:
        plt.close(fig)


def _points_chart(ax: Any, points: Covered) -> None:
    """The points per game the known words cover, at the end of each week, as a line."""
    days = [day[5:] for day, _ in points.dated_weeks()]
    ax.plot(days, [covered for _, covered in points.weeks], marker="o", color="#2e8540")
    ax.set_title(f"Points per game your words cover (of {points.lexicon_points:.0f} a game holds), week by week")
    ax.set_ylim(bottom=0, top=max(1.0, max(covered for _, covered in points.weeks) * 1.15))


def charts(report: StatsReport) -> Figure:
    """The plot's figure, drawn off screen, laid out and ready to save."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = 2 if report.points is None else 3
    fig = plt.figure(figsize=(12, 4 * rows))
    grid = fig.add_gridspec(rows, 2)
    axes = [[fig.add_subplot(grid[row, column]) for column in range(2)] for row in range(2)]
    if report.points is not None:
        _points_chart(fig.add_subplot(grid[2, :]), report.points)
    per_day = report.per_day
    axes[0][0].set_title("Answers per day")
    if len(per_day):
        axes[0][0].bar(per_day["date"], per_day["answers"], label="answered", color="#9db4d6")
        axes[0][0].bar(per_day["date"], per_day["correct"], label="right", color="#2e8540")
        axes[0][0].legend(loc="upper left", ncols=2)  # side by side, in the headroom above the bars
        axes[0][0].tick_params(axis="x", labelrotation=60, labelsize=7)
        _whole_counts(axes[0][0], per_day["answers"], headroom=1.25)
    else:
        _nothing_yet(axes[0][0], "no answers yet")
    axes[0][1].bar(report.forecast["date"].str[5:], report.forecast["due"])
    axes[0][1].set_title(f"Due in the next {FORECAST_DAYS} days")
    axes[0][1].tick_params(axis="x", labelrotation=60, labelsize=7)
    _whole_counts(axes[0][1], report.forecast["due"])
    axes[1][0].bar(list(report.by_state), list(report.by_state.values()))
    axes[1][0].set_title("Cards by state")
    _whole_counts(axes[1][0], report.by_state.values())
    axes[1][1].set_title("Hardest alphagrams (share missed)")
    if len(report.hardest):
        axes[1][1].barh(report.hardest["key"][::-1], report.hardest["miss_rate"][::-1])
    else:
        _nothing_yet(axes[1][1], "none yet")
    fig.tight_layout()
    return fig
