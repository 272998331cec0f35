"""The live preview in a real browser (headless Chromium through Selenium and Debian's
chromedriver), against a running `playset preview` on a copy of Tokaido: every card image
loads; a card edited on disk changes in the page without a reload while the others stay;
YAML saved half-way shows its diagnostic beside the card and keeps its image; Ctrl-C stops
the server cleanly. Skips when Chromium or chromedriver is not installed.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

REPO = Path(__file__).parent.parent
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")

pytestmark = pytest.mark.skipif(
    not (CHROMIUM and CHROMEDRIVER), reason="needs Debian's chromium and chromium-driver"
)
KEY = "card/travellers/chuubei/fr/front"
PLACE = "card/travellers/chuubei"
TEXT = "piochez une carte Rencontre et appliquez-la."


@pytest.fixture
def server(tmp_path):
    """`playset preview` on a copy of Tokaido, on a free port; its address."""
    game = tmp_path / "tokaido"
    shutil.copytree(REPO / "content" / "tokaido", game)
    process = subprocess.Popen(
        [sys.executable, "-m", "toolkit", "preview", str(game), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = process.stdout.readline()
        assert " at http://127.0.0.1:" in line, line + process.stderr.read()
        address = line.split(" at ", 1)[1].split()[0]
        yield process, address, game
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.fixture
def browser():
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="playset-chromium-")
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--window-size=1400,1000",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_script_timeout(20)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def wait_for(driver, script: str, timeout: float = 30.0):
    """Run `script` until it returns something truthy; that value."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for: {script}")


CARD_IMAGES = 'img.face[data-key^="card/"]'
# Card faces are asked for (and drawn) as they come near the screen: every image on the
# screen is loaded, and the page holds every card's.
ALL_LOADED = """
const faces = [...document.querySelectorAll('img.face')];
const cards = faces.filter(i => i.dataset.key.startsWith('card/'));
const shown = faces.filter(i => { const r = i.getBoundingClientRect();
  return r.bottom > 0 && r.top < innerHeight && r.width > 0; });
return cards.length && shown.length && shown.every(i => i.complete && i.naturalWidth > 0)
  ? cards.length : 0;
"""
VERSIONS = """
return Object.fromEntries([...document.querySelectorAll('img.face')]
  .filter(i => /^(card|back)\\//.test(i.dataset.key)).map(i => [i.dataset.key, i.dataset.version]));
"""


# Slow (10-15 s): Chromium starts, and the page draws all 76 Tokaido cards, its board and its
# rulebook before the edits; one browser session proves the whole round trip.
@pytest.mark.slow
def test_an_edited_card_changes_in_the_browser_without_a_reload(server, browser) -> None:
    process, address, game = server
    browser.get(address)
    # every Tokaido card's front, in the page's language (fr): the first tiles are made at
    # once, the others when the page is idle
    wait_for(browser, f"return document.querySelectorAll('{CARD_IMAGES}').length === 76", 40)
    cards = wait_for(browser, ALL_LOADED, timeout=40)
    assert cards == 76
    # The board and the rulebook are drawn when the page asks for them (their first page
    # near the screen), and shown when ready; the pages that come back build their own
    # section again, not every card tile.
    browser.execute_script("window.firstTile = document.querySelector('.tile')")
    for section, pages in (("rulebook", 1), ("board\\\\/road", 0)):  # the rulebook: > 1 page
        browser.execute_script(f"document.querySelector('#{section}').scrollIntoView()")
        shown = f"return document.querySelectorAll('#{section} img').length > {pages}"
        wait_for(browser, shown, 40)
        wait_for(browser, ALL_LOADED)
    assert browser.execute_script("return window.firstTile === document.querySelector('.tile')")
    browser.execute_script("window.scrollTo(0, 0)")
    wait_for(browser, ALL_LOADED)
    _vision_modes(browser)
    before = browser.execute_script(VERSIONS)
    first_src = browser.execute_script(f"return document.querySelector('[data-key=\"{KEY}\"]').src")
    browser.execute_script("window.notReloaded = true")

    deck = game / "decks" / "travellers.yaml"
    source = deck.read_text(encoding="utf-8")
    edited = source.replace(TEXT, "piochez une carte Rencontre, puis jouez-la.")
    deck.write_text(edited, encoding="utf-8")
    wait_for(
        browser,
        f"""const i = document.querySelector('[data-key="{KEY}"]');
        return i.dataset.version !== '{before[KEY]}' && i.complete && i.naturalWidth > 0;""",
    )
    after = browser.execute_script(VERSIONS)
    assert {key for key in after if after[key] != before[key]} == {KEY}
    assert browser.execute_script(f"return document.querySelector('[data-key=\"{KEY}\"]').src") != (
        first_src
    )
    assert browser.execute_script("return window.notReloaded === true")

    deck.write_text(source.replace(TEXT, "piochez: [une carte"), encoding="utf-8")  # half-saved
    message = wait_for(
        browser,
        f"""const d = [...document.querySelectorAll('[data-place="{PLACE}"] .diag')];
        const text = d.map(e => e.textContent).join(' | ');
        return text.includes('Y001') && text;""",
    )
    assert "travellers.yaml:" in message
    shown = browser.execute_script(VERSIONS)
    assert shown[KEY] == after[KEY]  # the last good image stays
    assert browser.execute_script(
        f"const i = document.querySelector('[data-key=\"{KEY}\"]'); return i.naturalWidth > 0"
    )
    assert browser.execute_script("return window.notReloaded === true")

    process.send_signal(signal.SIGINT)  # Ctrl-C
    assert process.wait(timeout=15) == 130  # as every command stopped by Ctrl-C
    assert "stopped" in process.stderr.read()


VISION_OF_IMAGES = """
const i = document.querySelector('#main img.face');
return getComputedStyle(i).filter;
"""
PIXEL = """
const i = document.querySelector('[data-key="%s"]');
const r = i.getBoundingClientRect();
return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)];
"""


def _vision_modes(browser) -> None:
    """Each colour-vision view filters the page's own images with its simulation; the
    screenshot changes where the card has colour, and 'as printed' undoes it."""
    from io import BytesIO

    from PIL import Image

    def shot():
        return Image.open(BytesIO(browser.get_screenshot_as_png())).convert("RGB")

    browser.execute_script(
        f"document.querySelector('[data-key=\"{KEY}\"]').scrollIntoView({{block: 'center'}})"
    )
    x, y = browser.execute_script(PIXEL % KEY)
    plain = shot()
    assert browser.execute_script(VISION_OF_IMAGES) == "none"
    seen = {}
    for mode in ("protanopia", "deuteranopia", "tritanopia", "greyscale"):
        browser.execute_script(
            "const s = document.getElementById('vision'); s.value = arguments[0];"
            "s.dispatchEvent(new Event('change'));",
            mode,
        )
        assert f"#vision-{mode}" in browser.execute_script(VISION_OF_IMAGES)
        seen[mode] = shot()
    grey = seen["greyscale"].crop((x - 40, y - 10, x + 40, y + 10))
    colours = grey.getcolors(maxcolors=1_000_000) or []
    assert all(max(c) - min(c) <= 2 for _, c in colours)  # every pixel of the card grey
    assert any(seen[m].getpixel((x, y)) != plain.getpixel((x, y)) for m in seen)
    browser.execute_script(
        "const s = document.getElementById('vision'); s.value = '';"
        "s.dispatchEvent(new Event('change'));"
    )
    assert browser.execute_script(VISION_OF_IMAGES) == "none"
