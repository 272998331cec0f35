"""`playset lsp` as an editor uses it: the time from one keystroke in a Whisky Game deck to
its findings, the time of a completion, and the server's memory over many edits.

Usage: python benchmarks/lsp_latency.py [--edits 50] [--burst 1000]
Each edit changes one character of a card's French text (alternately adding and removing
it) and waits for the findings of that version; the burst sends edits without waiting, as
fast typing does, and compares the server's resident memory before and after.
Results go in closing notes, never in tests.
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

REPO = Path(__file__).resolve().parent.parent


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def main(edits: int, burst: int) -> None:
    folder = Path(tempfile.mkdtemp()) / "whisky-game"
    shutil.copytree(REPO / "content" / "whisky-game", folder)
    deck = folder / "decks" / "specials.yaml"
    source = deck.read_text(encoding="utf-8")
    uri = deck.as_uri()
    client = LanguageClient("bench", "1")
    published: dict[str, asyncio.Event] = {}

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def _diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
        if params.uri in published:
            published[params.uri].set()

    await client.start_io(sys.executable, "-m", "toolkit", "lsp")
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    client.initialized(lsp.InitializedParams())
    published[uri] = asyncio.Event()
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=source)
        )
    )
    await asyncio.wait_for(published[uri].wait(), 120)

    def change(version: int) -> None:
        text = source.replace(
            "puis répondez.", "puis répondez vite." if version % 2 else "puis répondez.", 1
        )
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(version=version, uri=uri),
                [lsp.TextDocumentContentChangeWholeDocument(text)],
            )
        )

    latencies = []
    for version in range(2, edits + 2):
        published[uri] = asyncio.Event()
        start = time.perf_counter()
        change(version)
        await asyncio.wait_for(published[uri].wait(), 120)
        latencies.append(time.perf_counter() - start)

    lines = source.splitlines()
    row = next(i for i, x in enumerate(lines) if "send_to:" in x)
    completions = []
    for _ in range(50):
        start = time.perf_counter()
        await client.text_document_completion_async(
            lsp.CompletionParams(
                lsp.TextDocumentIdentifier(uri), lsp.Position(row, len(lines[row]))
            )
        )
        completions.append(time.perf_counter() - start)

    pid = client._server.pid  # the server process
    before = _rss_kib(pid)
    for version in range(edits + 2, edits + 2 + burst):
        change(version)
        await asyncio.sleep(0.001)
    published[uri] = asyncio.Event()
    change(edits + 2 + burst)
    await asyncio.wait_for(published[uri].wait(), 300)
    after = _rss_kib(pid)

    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    shutil.rmtree(folder.parent, ignore_errors=True)
    python = f"{platform.python_implementation()} {platform.python_version()}"
    print(f"machine: {platform.machine()}, {python}")
    print(
        f"findings after one keystroke: median {statistics.median(latencies) * 1000:.0f} ms "
        f"(min {min(latencies) * 1000:.0f}, max {max(latencies) * 1000:.0f}; {edits} edits; "
        "debounce 150 ms included)"
    )
    print(f"completion: median {statistics.median(completions) * 1000:.1f} ms (50 requests)")
    mib = before / 1024, after / 1024
    print(f"server memory: {mib[0]:.0f} MiB before {burst} fast edits, {mib[1]:.0f} MiB after")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--edits", type=int, default=50)
    parser.add_argument("--burst", type=int, default=1000)
    args = parser.parse_args()
    asyncio.run(main(args.edits, args.burst))
