"""The web playground end to end, in headless Chromium driven by Playwright, as a person uses it:
start a game, play several turns by clicking, save; write a card with an error, fix it, see its text.
The screenshots go to a temporary folder, or into docs/img when INNOSCRIPT_SCREENSHOTS is set to that folder
(`INNOSCRIPT_SCREENSHOTS=docs/img python -m pytest tests/test_web.py`, the documented way to refresh the docs'
pictures), so a test run leaves the working tree clean. INNOSCRIPT_SKIP_BROWSER=1 skips these tests."""
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]

pytestmark = pytest.mark.skipif(os.environ.get("INNOSCRIPT_SKIP_BROWSER") == "1", reason="browser tests skipped")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    folder = os.environ.get("INNOSCRIPT_SCREENSHOTS")
    path = Path(folder).resolve() if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    r = subprocess.run([str(ROOT / "scripts" / "ensure-chromium")], capture_output=True, text=True)
    assert r.returncode == 0, f"cannot get Chromium for the browser tests: {r.stderr}"
    port = free_port()
    db = tmp_path_factory.mktemp("web") / "games.sqlite"
    proc = subprocess.Popen([sys.executable, "-m", "innoscript.cli", "serve", "--web", "--port", str(port), "--db", str(db)],
                            stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            time.sleep(0.1)
    yield f"http://127.0.0.1:{port}/"
    proc.kill()
    proc.wait()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=shutil.which("chromium"), args=ARGS)
        yield b
        b.close()


def page(browser, url):
    pg = browser.new_page(viewport={"width": 1400, "height": 900}, accept_downloads=True)
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(url)
    pg.wait_for_selector("text=connected")
    return pg, errors


def test_play_several_turns_by_clicking_and_save(server, browser, tmp_path, shots):
    pg, errors = page(browser, server)
    pg.select_option("#seat-1", "greedy")
    pg.click("#start")
    pg.wait_for_selector("#decision .option")
    assert "choose a card to meld first" in pg.inner_text("#prompt")
    turns = set()
    for _ in range(16):
        pg.wait_for_selector("#decision .option")
        turns.add(pg.inner_text("#turn"))
        options = pg.query_selector_all("#decision .option")
        if pg.query_selector("#confirm"):
            options[0].click()
            pg.click("#confirm")
        else:
            options[-1 if len(options) > 1 else 0].click()   # the last option: often a dogma
        pg.wait_for_timeout(150)
    assert len(turns) >= 3, turns                            # the game moved on through several turns
    assert pg.query_selector_all(".player") and pg.query_selector_all("#log li")
    pg.screenshot(path=str(shots / "web-table.png"))
    with pg.expect_download() as dl:
        pg.click("#save")
    saved = tmp_path / "game.json"
    dl.value.save_as(saved)
    assert '"format": "innoscript-game"' in saved.read_text() or '"format":"innoscript-game"' in saved.read_text()
    # resume the saved game in a fresh page
    pg2, errors2 = page(browser, server)
    pg2.set_input_files("#load", str(saved))
    pg2.wait_for_selector("text=resumed")
    pg2.wait_for_selector("#decision .option")
    assert pg2.inner_text("#turn") == pg.inner_text("#turn")
    assert not errors and not errors2


def test_author_a_card_with_an_error_then_fix_it(server, browser, shots):
    pg, errors = page(browser, server)
    pg.click("#tab-editor")
    pg.wait_for_selector("#rendered:not(:empty)")
    source = pg.input_value("#source").replace("if drawn is yellow", "if drawn is yelow")
    pg.fill("#source", "")
    pg.type("#source", source[:40])                   # typing: diagnostics follow as you type
    pg.fill("#source", source)
    pg.wait_for_selector("#diagnostics li:has-text('E200')")
    diag = pg.inner_text("#diagnostics")
    assert "12:21 error[E200]: unknown colour 'yelow'" in diag and "did you mean 'yellow'?" in diag
    assert pg.inner_text("#rendered") == ""
    pg.fill("#source", source.replace("yelow", "yellow"))
    pg.wait_for_selector("#diagnostics li.ok")
    pg.wait_for_selector("#rendered:not(:empty)")
    text = pg.inner_text("#rendered")
    assert "Lantern (age 1, yellow)" in text and "draw and reveal a [2]" in text
    assert "DRAW" in pg.inner_text("#disassembly")
    pg.click("#sandbox")
    pg.wait_for_selector("#sandbox-log li")
    assert "Lantern" in pg.inner_text("#sandbox-log")
    pg.screenshot(path=str(shots / "web-editor.png"))
    assert not errors
