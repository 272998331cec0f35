"""The live preview's two headline times, against a real `playset preview` process.

1. Save to served image: a 100-card deck (benchmarks/cards_100.py's game); one card's
   French text is changed on disk; the clock stops when the page has heard of the new
   image (server-sent event) and has fetched it. Median of --runs saves.
2. Start-up to the first full page: from starting the process to every image of the page's
   first language fetched (cards, backs, board, rulebook pages), six at a time as a browser
   fetches, for each bundled game (the largest is the one that counts).

Usage: python benchmarks/preview_latency.py [--runs N] [--games whisky-game,tokaido]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).parent


def _cards_100():
    spec = importlib.util.spec_from_file_location("cards_100", HERE / "cards_100.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def start(game: Path) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "toolkit", "preview", str(game), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    line = process.stdout.readline()
    return process, line.split(" at ", 1)[1].split()[0]


def get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=60) as response:
        return response.read()


def listen(address: str, inbox: queue.Queue) -> None:
    """Every state the page would hear, into `inbox` (a daemon thread)."""

    def run() -> None:
        with urllib.request.urlopen(address + "events", timeout=120) as stream:
            data: list[str] = []
            for raw in stream:
                line = raw.decode().rstrip("\n")
                if line.startswith("data: "):
                    data.append(line[6:])
                elif not line and data:
                    inbox.put(json.loads("".join(data)))
                    data = []

    threading.Thread(target=run, daemon=True).start()


def version(state: dict, key: str) -> int:
    _, deck, card, lang, _ = key.split("/")
    section = next(s for s in state["sections"] if s.get("id") == deck)
    face = next(c for c in section["cards"] if c["id"] == card)["front"][lang]
    return face["version"]


def save_to_image(runs: int) -> list[float]:
    folder = Path(tempfile.mkdtemp(prefix="playset-preview-bench-"))
    game = _cards_100().make_game(folder)
    deck = game / "decks" / "cards.yaml"
    process, address = start(game)
    try:
        inbox: queue.Queue = queue.Queue()
        listen(address, inbox)
        inbox.get(timeout=60)
        times = []
        source = deck.read_text(encoding="utf-8")
        for run in range(runs):
            card = 10 + run
            key = f"card/cards/card-{card}/fr/front"
            for lang in ("fr", "es", "en"):  # drawn once, so the next drawing is a change
                get(address + "img/" + key.replace("/fr/", f"/{lang}/"))
            time.sleep(1.0)  # let the worker finish checks and queued drawings
            while not inbox.empty():
                inbox.get_nowait()
            edited = source.replace(f"fr: Carte {card},", f"fr: Carte {card} bis,", 1)
            assert edited != source
            started = time.perf_counter()
            deck.write_text(edited, encoding="utf-8")
            while True:
                state = inbox.get(timeout=30)
                if version(state, key) >= 2:
                    break
            get(address + f"img/{key}?v=2")
            times.append(time.perf_counter() - started)
            deck.write_text(source, encoding="utf-8")
            time.sleep(1.5)
            source = deck.read_text(encoding="utf-8")
        return times
    finally:
        process.terminate()
        process.wait()


def first_page(game_id: str) -> tuple[float, int, dict[str, float]]:
    from toolkit.content.game import bundled_games

    started = time.perf_counter()
    process, address = start(bundled_games()[game_id])
    marks = {"address": time.perf_counter() - started}
    try:
        get(address)
        get(address + "static/app.js")
        state = json.loads(get(address + "api/state"))
        lang = state["game"]["languages"][0]
        urls = []
        for section in state["sections"]:
            if section["kind"] == "deck":
                urls += [f"img/{c['front'][lang]['key']}" for c in section["cards"]]
                if section["back"].get(lang):
                    urls.append(f"img/{section['back'][lang]['key']}")
        with ThreadPoolExecutor(6) as pool:
            list(pool.map(lambda url: get(address + url), urls))
            marks["cards"] = time.perf_counter() - started
            inbox: queue.Queue = queue.Queue()
            listen(address, inbox)
            docs = [s for s in state["sections"] if s["kind"] != "deck"]
            # boards and rulebooks not made yet: their first page asked for, as the page
            # does, makes each (and announces its pages by an event)
            firsts = [f"img/{d['place']}/{lang}/1" for d in docs if d["pages"].get(lang) is None]
            list(pool.map(lambda url: get(address + url), firsts))
            while any(s["pages"].get(lang) is None for s in docs):
                state = inbox.get(timeout=60)
                docs = [s for s in state["sections"] if s["kind"] != "deck"]
            pages = [
                f"img/{doc['place']}/{lang}/{i + 1}"
                for doc in docs
                for i in range(len(doc["pages"][lang]))
            ]
            list(pool.map(lambda url: get(address + url), pages))
        return time.perf_counter() - started, len(urls) + len(pages), marks
    finally:
        process.terminate()
        process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--games", default="whisky-game,tokaido,drinking-heroes,muckle-stoater")
    args = parser.parse_args()
    times = save_to_image(args.runs)
    print(
        f"save → served image, 100-card deck: median {statistics.median(times):.3f} s"
        f" (min {min(times):.3f}, max {max(times):.3f}, {len(times)} saves)"
    )
    for game_id in args.games.split(","):
        seconds, images, marks = first_page(game_id)
        print(
            f"start-up → first full page, {game_id}: {seconds:.2f} s ({images} images;"
            f" address printed at {marks['address']:.2f} s, every card at {marks['cards']:.2f} s)"
        )


if __name__ == "__main__":
    main()
