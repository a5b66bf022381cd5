"""Soak one progress file with everything that writes to it at once, then check nothing was lost.

For a bounded time (default 5 minutes) on one LEXITRAIN_HOME:
- 8 drills (`daily --jsonl`, and `quiz --list twos --jsonl` for every fourth), answering right
  or wrong, some with `!c` / `!m` on the answer before;
- the web app's reviews: a real `lexitrain web` server on loopback, answered over HTTP;
- `study spread`, `study postpone` and `study tournament` now and then;
- an export/import loop: `progress export`, the backup restored into an empty home, and merged
  back into this one.

Then it prints the counts of each operation and four figures that must all be 0:
- cards mis-scheduled: a card whose last review is not its latest answer's, whose counters do
  not add up to its answers, or that was missed and then moved more than a day ahead by a bulk
  reschedule that had read it before the miss (a lost update);
- backups not restorable: exports that failed, or did not import into an empty home (the newest
  automatic backup is tried at the end too);
- rows lost: answers reported to the drills and the web page but not in the file;
- tracebacks: in any command's or the server's stderr.

Run: python scripts/soak_progress.py [--seconds 300] [--drills 8] [--lexicon-home DIR] [--daily-order points-per-game]
(--lexicon-home: a LEXITRAIN_HOME with the lexicon compiled, to skip compiling it; --daily-order
points: the drills and the web reviews take the cards by points at stake.)
"""

from __future__ import annotations

import argparse
import http.cookiejar
import itertools
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from datetime import date, timedelta
from pathlib import Path

DAY = 86400.0
#: FSRS's shortest learning step: a card missed is not due again sooner.
LEARNING_STEP = 60.0


class Soak:
    def __init__(self, home: Path, lexicon: str, seconds: float) -> None:
        self.home = home
        self.lexicon = lexicon
        self.deadline = time.monotonic() + seconds
        self.counts: Counter[str] = Counter()
        self.problems: Counter[str] = Counter()
        self.tracebacks: list[str] = []
        self.details: list[str] = []  # what was wrong with each card found mis-scheduled
        self.bulk: list[tuple[float, float]] = []  # (start, end) unix seconds of each bulk reschedule
        self.lock = threading.Lock()
        self.env = {**os.environ, "LEXITRAIN_HOME": str(home)}

    def running(self) -> bool:
        return time.monotonic() < self.deadline

    def count(self, name: str, n: int = 1) -> None:
        with self.lock:
            self.counts[name] += n

    def command(self, *args: str, home: Path | None = None) -> subprocess.CompletedProcess[str]:
        """Run `lexitrain ARGS` (in another home if given), noting a traceback."""
        env = self.env if home is None else {**self.env, "LEXITRAIN_HOME": str(home)}
        result = subprocess.run([sys.executable, "-m", "lexitrain", *args], env=env, capture_output=True, text=True,
                                timeout=600)
        self.note_stderr(" ".join(args[:2]), result.stderr)
        return result

    def note_stderr(self, what: str, stderr: str) -> None:
        if "Traceback" in stderr:
            with self.lock:
                self.tracebacks.append(f"{what}: {stderr.strip().splitlines()[-1]}")

    # -- the drills ----------------------------------------------------------------

    def drill(self, number: int) -> None:
        rng = random.Random(number)
        known: dict[str, str] = {}  # question id -> the right answer line, learnt from result lines
        args = (["quiz", "--list", "twos"] if number % 4 == 3 else ["daily"]) + ["--lexicon", self.lexicon, "--jsonl"]
        while self.running():
            process = subprocess.Popen([sys.executable, "-m", "lexitrain", *args], env=self.env, text=True,
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            killer = threading.Timer(max(1.0, self.deadline - time.monotonic()) + 60, process.kill)
            killer.start()
            try:
                self._drive(process, rng, known)
            finally:
                killer.cancel()
                stderr = process.stderr.read() if process.stderr else ""
                process.wait()
                self.note_stderr(args[0], stderr)
            self.count("drill sessions")

    def _drive(self, process: subprocess.Popen[str], rng: random.Random, known: dict[str, str]) -> None:
        assert process.stdin is not None and process.stdout is not None
        questions = rng.randint(3, 15)
        asked = 0
        for line in process.stdout:
            record = json.loads(line)
            if "summary" in record:
                if not asked:
                    time.sleep(1)  # nothing due yet: wait for the learning steps
                return
            if "override" in record:
                self.count("overrides")
            if "question" not in record:
                continue
            asked += 1
            question = record["question"]
            if questions == 0 or not self.running():
                process.stdin.write("!quit\n")
                process.stdin.flush()
                continue
            questions -= 1
            right = question["id"] in known and rng.random() < 0.7
            process.stdin.write((known[question["id"]] if right else "ZZZZ") + "\n")
            if rng.random() < 0.15:  # then mark it the other way: a typo, or a guess
                process.stdin.write(("!m" if right else "!c") + "\n")
            process.stdin.flush()
            for reply in process.stdout:
                answer = json.loads(reply)
                if "result" in answer:
                    self.count("drill answers")
                    known[question["id"]] = " ".join(answer["result"]["expected"])
                    break  # (an override line, if any, is read before the next question)

    # -- the web app's reviews -----------------------------------------------------------

    def web(self) -> None:
        server = subprocess.Popen([sys.executable, "-m", "lexitrain", "web", "--port", "0", "--no-browser",
                                   "--lexicon", self.lexicon], env=self.env, text=True, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)
        assert server.stdout is not None
        try:
            link = re.search(r"(http://\S+)", server.stdout.readline() or "")
            if link is None:
                self.problems["web server did not start"] += 1
                return
            self._review(link.group(1))
        finally:
            server.terminate()
            try:
                _, stderr = server.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                server.kill()
                _, stderr = server.communicate()
            self.note_stderr("web", stderr)

    def _review(self, link: str) -> None:
        origin = link.split("/?")[0]
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        opener.open(link, timeout=60).read()  # sets the launch's cookie

        def post(path: str, data: dict[str, object]) -> dict[str, object]:
            request = urllib.request.Request(origin + path, data=json.dumps(data).encode(), method="POST",
                                             headers={"Content-Type": "application/json", "Origin": origin})
            with opener.open(request, timeout=60) as reply:
                return dict(json.loads(reply.read()))

        rng = random.Random(99)
        while self.running():
            try:
                state = post("/api/review", {})
                while self.running() and state.get("question"):
                    question = dict(state["question"])  # type: ignore[arg-type]
                    ident = {"question": question["id"], "token": question.get("token", "")}  # (which it answers)
                    if rng.random() < 0.3:
                        state = post(f"/api/review/{state['id']}/grade", {**ident, "rating": rng.randint(1, 4)})
                    else:
                        state = post(f"/api/review/{state['id']}/answer", {**ident, "text": "ZZZZ"})
                    self.count("web reviews")
            except urllib.error.HTTPError as exc:  # (the server's stderr says why: counted as a traceback there)
                self.problems[f"web HTTP {exc.code}"] += 1
            time.sleep(0.5)

    # -- bulk reschedules, backups ----------------------------------------------------------

    def reschedules(self) -> None:
        rng = random.Random(7)
        for which in itertools.cycle(["spread", "postpone", "tournament"]):
            time.sleep(rng.uniform(1, 4))
            if not self.running():
                return
            args = {"spread": ["study", "spread", "--per-day", "5"],
                    "postpone": ["study", "postpone", "--days", "2", "--count", "20"],
                    "tournament": ["study", "tournament", (date.today() + timedelta(days=5)).isoformat(),
                                   "--retention", "0.95"]}[which]
            started = time.time()
            result = self.command(*args, "--lexicon", self.lexicon)
            with self.lock:
                self.bulk.append((started, time.time()))
            self.count(which if result.returncode == 0 else f"{which} refused")

    def backups(self) -> None:
        folder = Path(tempfile.mkdtemp(prefix="soak-backups-"))
        number = 0
        while self.running():
            number += 1
            backup = folder / f"backup-{number}.json"
            if self.command("progress", "export", str(backup)).returncode != 0:
                self.problems["backups not restorable"] += 1
                continue
            self.count("exports")
            if not self.restorable(backup):
                self.problems["backups not restorable"] += 1
            if self.command("progress", "import", str(backup)).returncode == 0:
                self.count("imports back")
            else:
                self.problems["imports back refused"] += 1
            time.sleep(2)
        shutil.rmtree(folder, ignore_errors=True)

    def restorable(self, backup: Path) -> bool:
        empty = Path(tempfile.mkdtemp(prefix="soak-restore-"))
        try:
            result = self.command("progress", "import", str(backup), home=empty)
            self.count("restores into an empty home")
            return result.returncode == 0
        finally:
            shutil.rmtree(empty, ignore_errors=True)

    # -- the checks ----------------------------------------------------------------------------

    def check(self) -> dict[str, int]:
        conn = sqlite3.connect(f"file:{self.home / 'progress.sqlite'}?mode=ro", uri=True)
        stored = conn.execute("SELECT count(*) FROM answers").fetchone()[0]
        reported = self.counts["drill answers"] + self.counts["web reviews"]
        latest = conn.execute(
            "SELECT c.id, c.last_review, c.due, c.correct + c.incorrect, "
            "(SELECT max(at) FROM answers WHERE card_id = c.id), (SELECT count(*) FROM answers WHERE card_id = c.id), "
            "(SELECT correct FROM answers WHERE card_id = c.id ORDER BY at DESC, id DESC LIMIT 1) "
            "FROM cards c WHERE EXISTS (SELECT 1 FROM answers WHERE card_id = c.id)").fetchall()
        quick = conn.execute("PRAGMA quick_check").fetchone()[0]
        conn.close()
        mis = 0
        for card_id, last_review, due, counted, last_at, answers, last_correct in latest:
            why = []
            if last_review != last_at:
                why.append(f"last review {last_review} is not its latest answer's {last_at}")
            if counted != answers:
                why.append(f"counters add up to {counted}, {answers} answers")
            # A miss is due again in a learning step (1 or 10 minutes): only a bulk reschedule that read the
            # card once it was due again may move it, so one that ended within a minute of the miss may not.
            if not last_correct and due is not None and due > last_at + DAY and not any(
                    end > last_at + LEARNING_STEP for _, end in self.bulk):
                why.append(f"missed at {last_at}, then due {due}: moved by a reschedule that read it before")
            if why:
                mis += 1
                self.details.append(f"card {card_id}: {'; '.join(why)}")
        newest = sorted((self.home / "backups").glob("*.sqlite"))
        automatic_ok = not newest or self.restorable(newest[-1])
        return {"cards mis-scheduled": mis,
                "backups not restorable": self.problems["backups not restorable"] + (not automatic_ok),
                "rows lost": max(0, reported - stored), "tracebacks": len(self.tracebacks),
                "answers stored": stored, "answers reported": reported, "quick_check ok": int(quick == "ok")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=300.0, help="how long to run (default 300)")
    parser.add_argument("--drills", type=int, default=8, help="drills at once (default 8)")
    parser.add_argument("--lexicon", default="enable")
    parser.add_argument("--plan", type=int, default=3000, help="cards in the plan of sevens (default 3000)")
    parser.add_argument("--lexicon-home", type=Path, help="a LEXITRAIN_HOME with the lexicon compiled")
    parser.add_argument("--daily-order", choices=("due", "points-per-game"), default="due",
                        help="the drills' order (points: ranked by points at stake, outside the transactions)")
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="soak-progress-"))
    if args.lexicon_home:
        shutil.copytree(args.lexicon_home / "lexicons", home / "lexicons", copy_function=os.link)
    soak = Soak(home, args.lexicon, args.seconds)
    setup = [("study", "set", "--new", "100000", "--reviews", "100000", "--lexicon", args.lexicon,
              "--daily-order", args.daily_order),
             ("study", "plan", "--length", "7", "--top", str(args.plan), "--lexicon", args.lexicon)]
    started = time.monotonic()
    for step in setup:
        result = soak.command(*step)
        if result.returncode != 0:
            sys.exit(f"setup failed: lexitrain {' '.join(step)}: {result.stderr.strip()}")
    soak.deadline = time.monotonic() + args.seconds
    print(f"home {home}; set up in {time.monotonic() - started:.0f} s; soaking for {args.seconds:g} s ...", flush=True)
    workers = [threading.Thread(target=soak.drill, args=(n,)) for n in range(args.drills)]
    workers += [threading.Thread(target=soak.web), threading.Thread(target=soak.reschedules),
                threading.Thread(target=soak.backups)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    figures = soak.check()
    print("operations: " + ", ".join(f"{name} {n}" for name, n in sorted(soak.counts.items())))
    for name, value in figures.items():
        print(f"{name}: {value}")
    for name, value in soak.problems.items():
        if name != "backups not restorable":
            print(f"{name}: {value}")
    for line in soak.tracebacks[:10]:
        print(f"traceback: {line}")
    for line in soak.details[:10]:
        print(f"mis-scheduled: {line}")
    load = os.getloadavg()
    print(f"load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    bad = figures["cards mis-scheduled"] + figures["backups not restorable"] + figures["rows lost"] + figures["tracebacks"]
    if bad:
        print(f"the home is kept for a look: {home}")
    else:
        shutil.rmtree(home, ignore_errors=True)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
