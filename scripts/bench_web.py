"""Benchmark the web app (`lexitrain web`), with 100,000 cards in the progress store.

Prints medians and p95 (milliseconds):
- `lexitrain web` started to its first page served (a process, the link it prints, the page);
- starting a 50-alphagram wall and one guess, server side (the app in-process, no network);
- the wall page and its assets in bytes, and whether any points off the machine;
- `lexitrain --help`, to compare with the figure before the web command existed.

The store is filled as scripts/bench_study.py fills it (100,000 ENABLE cards, 60,000 reviewed).

Run: python scripts/bench_web.py [--runs N] [--home DIR]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import warnings
from http.cookiejar import CookieJar
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

WALL = "--length 7 --probability 1-50"  # 50 alphagrams


def figures(name: str, samples: list[float]) -> None:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    print(f"{name}: median {statistics.median(ordered) * 1000:.2f} ms, p95 {p95 * 1000:.2f} ms ({len(ordered)} runs)")


def first_page(runs: int) -> list[float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        server = subprocess.Popen([sys.executable, "-m", "lexitrain", "web", "--port", "0", "--no-browser"],
                                  stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            assert server.stdout is not None
            link = re.search(r"http://\S+", server.stdout.readline())
            assert link, "no link printed"
            opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
            with opener.open(link.group(0), timeout=30) as page:
                page.read()
            samples.append(time.perf_counter() - start)
        finally:
            server.terminate()
            server.wait(timeout=10)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100, help="timed walls and guesses")
    parser.add_argument("--starts", type=int, default=5, help="timed launches of `lexitrain web`")
    parser.add_argument("--home", help="LEXITRAIN_HOME with ENABLE compiled (default: a fresh temporary one)")
    args = parser.parse_args()
    home = args.home or tempfile.mkdtemp(prefix="bench-web-")
    os.environ["LEXITRAIN_HOME"] = home

    from bench_study import fill

    from lexitrain.lexicon.lexicon import open_lexicon
    from lexitrain.study.store import ProgressStore
    from lexitrain.web.app import create_app
    from lexitrain.web.context import Context

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    lex = open_lexicon("enable")
    with ProgressStore() as store:
        if store.conn.execute("SELECT COUNT(*) FROM cards").fetchone()[0] < 100_000:
            fill(store, lex)
        cards = store.conn.execute("SELECT COUNT(*) FROM cards").fetchone()[0]
        print(f"{cards} cards in the store")
        ctx = Context(store, "enable", secret="bench")
        with TestClient(create_app(ctx), headers={"origin": "http://testserver"}) as client:
            client.get("/?key=bench")
            starts, guesses, page_bytes = [], [], 0
            for run in range(args.runs):
                begin = time.perf_counter()
                response = client.post("/wall", data={"source": "search", "value": WALL}, follow_redirects=False)
                starts.append(time.perf_counter() - begin)
                ident = response.headers["location"].rsplit("/", 1)[1]
                cells = client.get(f"/api/wall/{ident}").json()["round"]["cells"]
                assert len(cells) == 50, len(cells)
                word = lex.anagrams(cells[run % 50]["alphagram"])[0]
                begin = time.perf_counter()
                client.post(f"/api/wall/{ident}/guess", json={"word": word})
                guesses.append(time.perf_counter() - begin)
                client.post(f"/api/wall/{ident}/give-up")
            page = client.get(f"/wall/{ident}").text
            assets = re.findall(r'(?:src|href)="(/static/[^"]+)"', page)
            bodies = [page] + [client.get(a).text for a in assets]
            page_bytes = sum(len(b.encode()) for b in bodies)
            outside = [u for b in bodies for u in re.findall(r"https?://[^\s\"')]+", b)]
    figures("start a 50-alphagram wall (server side)", starts)
    figures("one guess (server side)", guesses)
    print(f"wall page and its {len(assets)} assets: {page_bytes / 1024:.1f} KB; addresses off the machine: "
          f"{outside or 'none'}")
    figures("`lexitrain web` to the first page served", first_page(args.starts))
    helps = []
    for _ in range(args.starts):
        begin = time.perf_counter()
        subprocess.run([sys.executable, "-m", "lexitrain", "--help"], capture_output=True, check=True)
        helps.append(time.perf_counter() - begin)
    figures("`lexitrain --help`", helps)


if __name__ == "__main__":
    main()
