"""The web playground end to end, in headless Chromium driven by Playwright, as a person uses it:
start a game, play several turns by clicking, save; write a card with an error, fix it, see its text.
The screenshots go to a temporary folder, or into docs/img when INNOSCRIPT_SCREENSHOTS is set to that folder
(`INNOSCRIPT_SCREENSHOTS=docs/img python -m pytest tests/test_web.py`, the documented way to refresh the docs'
pictures), so a test run leaves the working tree clean. INNOSCRIPT_SKIP_BROWSER=1 skips these tests."""
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from protocol_client import free_port, wait_for_port

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]

pytestmark = pytest.mark.skipif(os.environ.get("INNOSCRIPT_SKIP_BROWSER") == "1", reason="browser tests skipped")


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
    # many games from one address in a minute: this server takes them all
    proc = subprocess.Popen([sys.executable, "-m", "innoscript.cli", "serve", "--web", "--allow-seeds", "--port", str(port),
                             "--db", str(db), "--quota", "games_per_minute=0"],
                            stderr=subprocess.PIPE, text=True)
    wait_for_port(port)
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



def next_decision(pg, before: str) -> None:
    """Wait until the page shows a decision other than `before` (its id), not a fixed time."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    try:
        pg.wait_for_function("(id) => document.querySelector('#decision').dataset.decision !== id", arg=before,
                             timeout=5000)
    except PlaywrightTimeout:   # the same decision asked again (a refused answer): the loop looks at it anew
        pass


def test_play_several_turns_by_clicking_and_save(server, browser, tmp_path, shots):
    pg, errors = page(browser, server)
    pg.select_option("#seat-1", "greedy")
    pg.click("#start")
    pg.wait_for_selector("#decision .option")
    assert "Choose a card to meld first" in pg.inner_text("#prompt")
    assert pg.inner_text("#turn").startswith("Setting up")       # no turn, no actions left, before the first
    turns = set()
    for _ in range(16):
        pg.wait_for_selector("#decision .option")
        turns.add(pg.inner_text("#turn"))
        options = pg.query_selector_all("#decision .options .option")
        before = pg.get_attribute("#decision", "data-decision")
        if pg.query_selector("#confirm"):
            options[0].click()
            pg.click("#confirm")
        else:
            options[-1 if len(options) > 1 else 0].click()   # the last option: often a dogma
        next_decision(pg, before)
    assert len(turns) >= 3, turns                            # the game moved on through several turns
    assert pg.query_selector_all(".player") and pg.query_selector_all("#log li")
    pg.screenshot(path=str(shots / "web-table.png"))
    with pg.expect_download() as dl:
        pg.click("#save")
    saved = tmp_path / "game.json"
    dl.value.save_as(saved)
    assert '"format": "innoscript-game"' in saved.read_text() or '"format":"innoscript-game"' in saved.read_text()
    log = json.loads(saved.read_text())["log"]               # the log as the terminal keeps it: [turn, line]
    assert log and all(isinstance(n, int) and isinstance(line, str) for n, line in log)
    # resume the saved game in a fresh page: its log goes on
    pg2, errors2 = page(browser, server)
    pg2.set_input_files("#load", str(saved))
    pg2.wait_for_selector("text=resumed")
    pg2.wait_for_selector("#decision .option")
    assert pg2.inner_text("#turn") == pg.inner_text("#turn")
    assert log[-1][1] in pg2.inner_text("#log")
    # a save whose log is not such pairs resumes without it, and says so; markup in a line stays text
    data = json.loads(saved.read_text())
    data["log"] = [[1, "<b>bold</b>"], ["x", 2]]
    bad = tmp_path / "bad-log.json"
    bad.write_text(json.dumps(data))
    pg3, errors3 = page(browser, server)
    pg3.set_input_files("#load", str(bad))
    pg3.wait_for_selector("text=left out")
    assert not pg3.query_selector("#log b")
    data["log"] = [[1, "<b>bold</b>"]]
    plain = tmp_path / "markup-log.json"
    plain.write_text(json.dumps(data))
    pg3.set_input_files("#load", str(plain))
    pg3.wait_for_selector("#log li:has-text('<b>bold</b>')")
    assert not pg3.query_selector("#log b")
    assert not errors and not errors2 and not errors3


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


XSS = '<img src=x onerror="window.__pwned=1">'


def saved_game(tmp_path, turns=None, seed=5, names=None, over=False, edition="3e", players=2, options=None):
    """A saved game (as the web saves it) played by bots to a given turn, or to its end."""
    import json
    from innoscript.runtime.bots import GreedyBot, RandomBot, answer_for
    from innoscript.runtime.api.game import Game
    game = Game.new(edition=edition, players=players, seed=seed, names=names, options=options)
    bots = [(GreedyBot if i % 2 == 0 else RandomBot)(seed + i) for i in range(players)]
    while not game.over and (over or game.state["turn"]["number"] < turns
                             or game.decision["kind"] != "action" or game.decision["player"] != 0):
        game.apply(answer_for(game, bots[game.decision["player"]], game.decision["player"]))
    path = tmp_path / f"saved-{seed}-{turns}-{players}.json"
    path.write_text(json.dumps({"game": game.to_json(), "seats": ["you"] + ["greedy"] * (players - 1)}))
    return path, game


def saved_at(tmp_path, want, seeds=range(1, 100)):
    """A saved 2-player game stopped at the first decision of player 0 (the page's seat) that want(decision)
    accepts, played by random bots from the first seed that reaches one."""
    import json
    from innoscript.runtime.bots import RandomBot, answer_for
    from innoscript.runtime.api.game import Game
    for seed in seeds:
        game = Game.new(edition="3e", players=2, seed=seed)
        bots = [RandomBot(seed), RandomBot(seed + 1)]
        for _ in range(2000):
            if game.over:
                break
            d = game.decision
            if d["player"] == 0 and want(d):
                path = tmp_path / f"at-{seed}-{d['id']}.json"
                path.write_text(json.dumps({"game": game.to_json(), "seats": ["you", "greedy"]}))
                return path, game
            game.apply(answer_for(game, bots[d["player"]], d["player"]))
    raise AssertionError("no game reached such a decision")


def load_in(browser, server, path, size=(1400, 900)):
    pg = browser.new_page(viewport={"width": size[0], "height": size[1]})
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server)
    pg.wait_for_selector("text=connected")
    pg.set_input_files("#load", str(path))
    pg.wait_for_selector("text=resumed")
    pg.wait_for_selector(".player .inno-card")
    return pg, errors


def no_sideways_scroll(pg):
    return pg.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def click_an_answer(pg):
    """Answer by clicking: the last option (often a dogma), or for a choice of several cards the first cards until
    the count is legal (the confirm button is enabled only then), else the decline button."""
    options = pg.query_selector_all("#decision .options .option")
    if pg.query_selector("#confirm"):
        for o in options:
            if pg.is_enabled("#confirm"):
                break
            o.click()
        pg.click("#confirm" if pg.is_enabled("#confirm") else "#decline")
    else:
        options[-1].click()


def play_until_turn(pg, turn, limit=600, each=None):
    """Answer by clicking until the turn; each(pg), when given, runs after every answer."""
    for _ in range(limit):
        pg.wait_for_selector("#decision .options .option")
        text = pg.inner_text("#turn")
        if text.startswith("Turn ") and int(text.split()[1].rstrip(":")) >= turn:
            return
        before = pg.get_attribute("#decision", "data-decision")
        click_an_answer(pg)
        # a function, not an expression: the page's Content-Security-Policy forbids eval
        pg.wait_for_function("(before) => document.getElementById('decision').dataset.decision !== before", arg=before)
        if each:
            each(pg)
    raise AssertionError(f"turn {turn} not reached")


@pytest.mark.parametrize("size", [(1400, 900), (390, 844)], ids=["desktop", "phone"])
def test_table_after_40_turns(server, browser, shots, size):
    """40 turns played by clicking: glyphs, fanned splays, card text on hover and tap, prompts naming their
    verb, the newest log entry in view, no sideways scrolling."""
    pg = browser.new_page(viewport={"width": size[0], "height": size[1]}, has_touch=size[0] < 900)
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server)
    pg.wait_for_selector("text=connected")
    tag = "desktop" if size[0] > 900 else "phone"
    pg.fill("#seed", "2")
    assert pg.input_value("#seat-1") == "search"           # the default opponent
    pg.select_option("#seat-1", "greedy")                   # a quick one, for 40 turns
    pg.click("#start")
    play_until_turn(pg, 40)
    # every card drawn has its icon glyphs, in its printed slots
    cards = pg.query_selector_all(".player .inno-card:not(.inno-back):not(.inno-special)")
    assert cards and all(c.query_selector_all(".inno-slot svg.inno-icon") for c in cards)
    assert pg.query_selector(".inno-slot-top_left use[href^='#inno-icon-']")
    # splayed piles are fanned: strips of the covered cards, showing the icons the splay reveals
    assert pg.query_selector_all(".inno-pile:is(.inno-fan-left, .inno-fan-right, .inno-fan-up) .inno-strip .inno-icon")
    # the newest log entry is in view: inside the log's box, and the box inside the window
    assert "Turn 40" in pg.inner_text("#log")
    assert pg.evaluate("""() => { const log = document.getElementById('log');
        const items = log.querySelectorAll('li'); const last = items[items.length - 1];
        const r = last.getBoundingClientRect(), b = log.getBoundingClientRect();
        return items.length > 40 && r.bottom <= b.bottom + 1 && r.top >= b.top - 1; }""")
    if tag == "desktop":
        assert pg.evaluate("""() => { const items = document.querySelectorAll('#log li');
            return items[items.length - 1].getBoundingClientRect().bottom <= window.innerHeight; }""")
    # card text on hover (desktop) or tap (phone)
    top = pg.query_selector(".player .inno-pile .inno-card")
    if tag == "desktop":
        top.hover()
    else:
        top.tap()
    pg.wait_for_selector("#card-tip:not([hidden]) .inno-effects")
    assert top.get_attribute("data-card") in pg.inner_text("#card-tip")
    assert pg.query_selector("#card-tip .inno-featured svg.inno-icon")
    # the prompt and its buttons name what they do
    assert "choose an action" in pg.inner_text("#prompt")
    labels = [b.inner_text() for b in pg.query_selector_all("#decision .options .option")]
    assert labels[0].startswith("Draw a [") and all(l.split()[0] in ("Draw", "Meld", "Dogma", "Achieve") for l in labels)
    assert no_sideways_scroll(pg)
    pg.screenshot(path=str(shots / f"web-table-{tag}.png"))   # the window: a full page would misplace the decision
    assert not errors


def test_names_are_never_markup(server, browser, tmp_path):
    """A saved game whose player names hold markup: shown as text everywhere, no script runs."""
    path, _ = saved_game(tmp_path, turns=6, names=[XSS, "Ada " + XSS])
    pg, errors = load_in(browser, server, path)
    play_until_turn(pg, 8)
    pg.click("#tab-editor")
    pg.click("#tab-play")
    assert pg.evaluate("window.__pwned") is None
    assert not pg.query_selector("main img")
    assert XSS in pg.inner_text("#table") and XSS in pg.inner_text("#log")
    assert not errors


def test_prompts_name_their_verb_and_answer_from_the_keyboard(server, browser, tmp_path, shots):
    pg, errors = page(browser, server)
    pg.select_option("#seat-1", "random")
    pg.fill("#seed", "3")                      # a seed whose first turns ask several card questions
    pg.click("#start")
    pg.wait_for_selector("#decision .option")
    seen = {}
    for _ in range(120):                       # play by keyboard only: the digit keys pick the n-th option
        pg.wait_for_selector("#decision .options .option")
        prompt = pg.inner_text("#prompt")
        buttons = [b.inner_text() for b in pg.query_selector_all("#decision .option")]
        if ":" in prompt and "choose an action" not in prompt:
            seen[prompt] = buttons
            if len(seen) >= 3:
                break
        before = pg.get_attribute("#decision", "data-decision")
        if pg.query_selector("#confirm"):
            pg.keyboard.press("1")
            pg.focus("#confirm")
            pg.keyboard.press("Enter")
        else:
            n = len(pg.query_selector_all("#decision .options .option"))
            pg.keyboard.press(str(min(n, 9)))
        next_decision(pg, before)
    assert seen, "no card effect asked anything"
    verbs = ("Return", "Meld", "Score", "Tuck", "Transfer", "Splay", "Don't", "Skip", "Draw", "Keep", "Choose",
             "Achieve", "Junk", "Put", "Option", "Value", "Reveal", "Exchange", "Rearrange", "Execute", "Take")
    for prompt, buttons in seen.items():
        assert not prompt.endswith("choose cards") and "do it?" not in prompt
        assert all(b.split()[0].startswith(verbs) or b.split()[0] in ("blue", "red", "green", "yellow", "purple")
                   for b in buttons), (prompt, buttons)
    pg.screenshot(path=str(shots / "web-prompt.png"))
    assert not errors


def test_end_of_game_panel(server, browser, tmp_path, shots):
    path, game = saved_game(tmp_path, over=True, seed=3)
    pg, errors = load_in(browser, server, path)
    pg.wait_for_selector("#end:not([hidden])")
    text = pg.inner_text("#end")
    winner = game.state["players"][game.result["winners"][0]]["name"]
    assert f"Game over: {winner}" in text and "Achievements" in text and "Score" in text
    assert game.result["reason"].replace("_", " ") in text
    pg.screenshot(path=str(shots / "web-end.png"))
    assert not errors


def test_undo_button_follows_what_the_server_allows(server, browser):
    pg, errors = page(browser, server)
    pg.select_option("#seat-1", "random")
    pg.fill("#seed", "5")
    pg.click("#start")
    melded = False
    for _ in range(60):
        pg.wait_for_selector("#decision .options .option")
        buttons = pg.query_selector_all("#decision .options .option")
        if "2 actions left" in pg.inner_text("#turn"):
            melds = [b for b in buttons if b.inner_text().startswith("Meld")]
            if melds:
                assert pg.is_disabled("#undo")          # the last action was not this seat's
                melds[0].click()
                pg.wait_for_function("() => !document.querySelector('#undo').disabled")
                melded = True                            # a meld from one's own hand showed nobody anything
                break
        before = pg.get_attribute("#decision", "data-decision")
        if pg.query_selector("#confirm"):
            buttons[0].click()
            pg.click("#confirm")
        else:
            buttons[0].click()
        next_decision(pg, before)
    assert melded, "no two-action turn with a meld"
    draws = [b for b in pg.query_selector_all("#decision .options .option") if b.inner_text().startswith("Draw")]
    draws[0].click()                                     # a draw shows the drawer a card: it cannot be taken back
    pg.wait_for_function("() => document.querySelector('#undo').disabled")
    assert not errors


def test_sets_are_chosen_in_the_form_and_an_incomplete_set_is_noted(server, browser, shots):
    from innoscript.compiler.bundle import load_bundle
    from innoscript.runtime.api.faces import card_catalog
    from innoscript.runtime.rules.sets import report
    from innoscript.runtime.state.cards import Cards
    pg, errors = page(browser, server)
    pg.wait_for_selector("#sets input[value=echoes]")
    pg.select_option("#edition", "1e")                       # an edition without sets offers none
    assert not pg.query_selector("#sets input")
    pg.select_option("#edition", "3e")
    pg.check("#set-echoes")
    pg.select_option("#seat-1", "greedy")
    pg.click("#start")
    pg.wait_for_selector("#decision .option")
    [echoes] = report(Cards(load_bundle("3e", sets=("echoes",))))
    note = pg.query_selector("#set-note")
    assert note.is_visible() == (not echoes["complete"])
    if not echoes["complete"]:
        assert f"{echoes['label']}: {echoes['cards']} of its {echoes['expected']} cards are written" in note.inner_text()
    # the set's cards are in the game's catalog: a hover on any card finds its text
    supply = pg.inner_text(".shared")
    assert "Supply" in supply
    # the set's own supply piles, each drawn as a back of that set with its count
    piles = pg.query_selector_all(".shared ul.supply[aria-label='echoes supply'] li")
    assert len(piles) == 10 and all(li.query_selector(".inno-back[data-set=echoes]") for li in piles)
    assert piles[0].get_attribute("aria-label").startswith("echoes age 1: ")
    # the renderer draws a set card's bonus with its value and its echo effect in its own box
    bangle = next(c for c in card_catalog("3e", ["echoes"])["cards"] if c["name"] == "Bangle")
    html = pg.evaluate("""(face) => { const d = InnoCards.detail(face); document.body.appendChild(d);
        return {bonus: d.querySelector('.inno-value-cell .inno-cell-value').textContent,
                label: d.querySelector('.inno-value-cell svg').getAttribute('aria-label'),
                echo: d.querySelector('.inno-cell-effect-box[data-cell=echo]').textContent,
                cell: !!d.querySelector('.inno-slot-bottom_middle.inno-effect-cell use[href="#inno-icon-echo"]'),
                dogma: Array.from(d.querySelectorAll('.inno-effect')).map((p) => p.textContent)}; }""", bangle)
    assert html["bonus"] == "1" and html["label"] == "bonus 1" and html["cell"]
    echo = bangle["cell_effects"][0]["text"]
    assert echo in html["echo"] and "Echo effect" in html["echo"] and all(echo not in t for t in html["dogma"])
    pg.screenshot(path=str(shots / "web-sets.png"))
    assert not errors


def test_a_sets_zone_score_breakdown_and_echo_marks_are_drawn(server, browser, shots):
    """The forecast as the view documents it (docs/protocol.md): its cards for the owner, its size and ages for the
    others; the score with what the set adds; echo effects, promotions and free dogmas marked in the log."""
    pg, errors = page(browser, server)
    pg.wait_for_selector("#sets input[value=echoes]")
    pg.check("#set-echoes")
    pg.select_option("#seat-1", "greedy")
    pg.click("#start")
    pg.wait_for_selector("#decision .option")
    drawn = pg.evaluate("""() => {
        const v = JSON.parse(JSON.stringify(currentView()));
        const mine = v.players[0], theirs = v.players[1];
        mine.zones = {forecast: {cards: mine.hand.slice(0, 1), count: 1, limit: 3}};
        theirs.zones = {forecast: {count: 2, ages: [2, 5], limit: null}};
        theirs.points += 2;
        const a = playerBox(v, mine, 0), b = playerBox(v, theirs, 1);
        document.body.append(a, b);
        const card = {id: 1, name: "Flute", age: 1, color: "purple"};
        const log = [{type: "effect", player: 1, card, effect: 0, cell: "echo", echo: true},
                     {type: "effect", player: 1, card, effect: 1},
                     {type: "meld", player: 0, card, from: "forecast", verb: "promote", promoted: true},
                     {type: "dogma", player: 0, card, free: true, mark: "foreseen", foreseen: true},
                     {type: "foreshadow", player: 1, card: {hidden: true, age: 3}, zone: "forecast"}].map((e) => logEntry(e, v));
        return {mine: a.querySelector('[data-zone=forecast]').textContent,
                mineCards: a.querySelectorAll('[data-zone=forecast] .inno-card:not(.inno-back)').length,
                theirs: b.querySelector('[data-zone=forecast]').textContent,
                theirBacks: Array.from(b.querySelectorAll('[data-zone=forecast] .inno-back')).map((x) => x.textContent),
                score: b.querySelector('.stats').textContent,
                log: log.map((li) => li ? li.textContent : null)};
    }""")
    assert drawn["mine"].startswith("Forecast (1 card, at most 3)") and drawn["mineCards"] == 1
    assert drawn["theirs"].startswith("Forecast (2 cards)") and drawn["theirBacks"] == ["2", "5"]
    assert "2 (0 in the score pile, +2 from Echoes of the Past" in drawn["score"]
    # a card printed with no dogma effect (its pile's echo effects may still run) is not "still to script"
    blank = pg.evaluate("""() => InnoCards.detail({name: "Blank", age: 1, color: "red", icons: ["hex", "echo", "crown",
        "crown"], dogma: "crown", no_effect: true, effects: []}).querySelector('.inno-effects').textContent""")
    assert "no dogma effect printed" in blank and "scripted" not in blank
    assert drawn["log"] == ["↳ echo effect of Flute for Player 2", None, "Player 1 promotes Flute from their forecast",
                            "Player 1 uses the free dogma of Flute (foreseen)", "Player 2 foreshadows a [3]"], drawn["log"]
    assert not errors


def test_the_card_editor_writes_a_set_card_with_its_set(server, browser):
    pg, errors = page(browser, server)
    pg.click("#tab-editor")
    source = (ROOT / "cards" / "sets" / "echoes" / "3e" / "age1" / "bangle.inno").read_text().replace(
        '"Bangle"', '"Anklet"')
    pg.fill("#source", source)
    pg.wait_for_selector("#diagnostics li:has-text('E209')")        # the set is not in play: unknown set
    pg.check("#editor-set-echoes")
    pg.wait_for_selector("#diagnostics li.ok")
    pg.wait_for_selector("#editor-card .inno-cell-effect-box")
    assert "Tuck a red card from your hand." in pg.inner_text("#editor-card .inno-cell-effect-box")
    assert pg.inner_text("#editor-card .inno-value-cell .inno-cell-value") == "1"
    assert not errors


def test_the_page_sends_no_seed_to_a_server_that_deals_its_own(browser, tmp_path):
    """On a server without --allow-seeds the page offers no seed and its 'create' names none."""
    import json
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "innoscript.cli", "serve", "--web", "--port", str(port),
                             "--db", str(tmp_path / "g.sqlite")], stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port)
        pg = browser.new_page(viewport={"width": 1400, "height": 900})
        sent = []
        pg.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(payload)))
        pg.goto(f"http://127.0.0.1:{port}/")
        pg.wait_for_selector("text=connected")
        pg.wait_for_function("() => document.querySelector('#edition option') !== null")   # hello answered
        assert pg.is_hidden("#seed-field")
        pg.select_option("#seat-1", "random")
        pg.click("#start")
        pg.wait_for_selector("#decision .option")
        creates = [json.loads(f) for f in sent if '"create"' in f]
        assert creates and all("seed" not in m for m in creates), creates
    finally:
        proc.kill()
        proc.wait()


def test_a_city_is_drawn_with_its_six_positions(server, browser, shots):
    """Cities of Destiny on the table: a city's top right and top middle beside its name, a set's cell drawn by its
    manifest's glyph, a splayed city showing its top right."""
    from innoscript.runtime.api.faces import card_catalog
    pg, errors = page(browser, server)
    pg.wait_for_selector("#sets input[value=cities]")
    pg.check("#set-cities")
    pg.select_option("#seat-1", "greedy")
    pg.click("#start")
    pg.wait_for_selector("#decision .option")
    cat = {c["name"]: c for c in card_catalog("3e", ["cities"])["cards"]}
    drawn = pg.evaluate("""([zurich, cordoba]) => {
        const a = InnoCards.card(zurich), b = InnoCards.detail(cordoba);
        const p = InnoCards.pile({splay: "left", cards: [cordoba, zurich]});
        document.body.append(a, b, p);
        const slots = (el) => Array.from(el.querySelectorAll('.inno-slot')).map((s) => s.className.match(/inno-slot-(\\w+)/)[1]);
        const box = (sel) => a.querySelector(sel).getBoundingClientRect();
        return {six: a.classList.contains('inno-six'), slots: slots(a),
                flag: a.querySelector('.inno-slot-top_middle text').textContent,
                flagLabel: a.querySelector('.inno-slot-top_middle svg').getAttribute('aria-label'),
                topRow: Math.abs(box('.inno-slot-top_middle').top - box('.inno-slot-top_left').top) < 2
                        && box('.inno-slot-top_middle').bottom <= box('.inno-slot-bottom_left').top,
                arrow: b.querySelector('.inno-slot-top_middle text').textContent,
                strip: slots(p.querySelector('.inno-strip'))};
    }""", [cat["Zurich"], cat["Cordoba"]])
    assert drawn["six"] and set(drawn["slots"]) == {"top_left", "bottom_left", "bottom_middle", "bottom_right",
                                                    "top_right", "top_middle"}
    assert drawn["flag"] == "\u2691" and drawn["flagLabel"] == "flag" and drawn["topRow"]
    assert drawn["arrow"] == "\u2190"
    assert drawn["strip"] == ["bottom_right", "top_right"]        # a left splay shows a city's top right too
    pg.screenshot(path=str(shots / "web-cities.png"))
    assert not errors


def tip_closed(pg):
    """No card text open: a moment after an answer too (a page redrawn under a still mouse sends it over a card)."""
    pg.wait_for_timeout(250)
    assert pg.is_hidden("#card-tip"), "card text opened by itself after an answer"


DECISION_IN_VIEW = """() => {
    const d = document.getElementById('decision'), r = d.getBoundingClientRect();
    const buttons = Array.from(d.querySelectorAll('button'));
    return {height: r.height, buttons: buttons.length,
            hidden: buttons.filter((b) => { const x = b.getBoundingClientRect();
                return x.top < Math.max(r.top, 0) - 1 || x.bottom > Math.min(r.bottom, innerHeight) + 1
                    || x.left < r.left - 1 || x.right > r.right + 1; }).map((b) => b.textContent),
            log: document.querySelectorAll('#log li').length,
            logScrolls: document.getElementById('log').scrollHeight > document.getElementById('log').clientHeight}; }"""


@pytest.mark.parametrize("size", [(1400, 900), (390, 844)], ids=["desktop", "phone"])
def test_the_decision_stays_in_view_at_turn_50(server, browser, tmp_path, shots, size):
    """A game loaded at turn 42 and played by clicking to turn 50: the log has grown past its box, and the
    decision's panel still shows all its buttons (at least 150 px of it); no card text opens after an answer."""
    path, _ = saved_game(tmp_path, turns=42, seed=1)
    pg, errors = load_in(browser, server, path, size)
    play_until_turn(pg, 50, each=tip_closed)
    tag = "" if size[0] > 900 else "-phone"
    got = pg.evaluate(DECISION_IN_VIEW)
    assert got["log"] > 30 and got["buttons"] >= 3, got
    if not tag:
        assert got["logScrolls"], got                   # the log is longer than its box: the case that squeezed
    assert got["height"] >= 150 and not got["hidden"], got
    pg.evaluate("() => { window.scrollBy(0, 700); document.getElementById('table').scrollTop = 700; }")
    got = pg.evaluate(DECISION_IN_VIEW)                  # the table scrolled: the decision stays
    assert got["height"] >= 150 and not got["hidden"], got
    pg.evaluate("() => { window.scrollTo(0, 0); document.getElementById('table').scrollTop = 0; }")
    assert "Turn 50" in pg.inner_text("#log")
    assert no_sideways_scroll(pg)
    pg.screenshot(path=str(shots / f"web-decision-turn50{tag}.png"))
    assert not errors


def test_card_text_only_when_asked(server, browser, tmp_path):
    """No text after answers by mouse or keyboard; text on hover, and on a focus made with Tab."""
    path, _ = saved_game(tmp_path, turns=10, seed=1)
    pg, errors = load_in(browser, server, path)
    melds = [b for b in pg.query_selector_all("#decision .options .option.card-option")]
    assert melds
    before = pg.get_attribute("#decision", "data-decision")
    melds[0].hover()                                    # asked: the hovered option's card
    pg.wait_for_selector("#card-tip:not([hidden])")
    melds[0].click()
    next_decision(pg, before)
    tip_closed(pg)
    before = pg.get_attribute("#decision", "data-decision")
    n = len(pg.query_selector_all("#decision .options .option"))
    pg.keyboard.press(str(min(n, 9)))                   # the keyboard: a digit answers
    next_decision(pg, before)
    tip_closed(pg)
    pg.mouse.move(5, 5)
    pg.hover(".player .board .inno-card")
    pg.wait_for_selector("#card-tip:not([hidden])")
    pg.keyboard.press("Escape")
    assert pg.is_hidden("#card-tip")
    pg.focus("#decision")
    for _ in range(40):                                 # Tab to the first card: its text appears
        pg.keyboard.press("Tab")
        if pg.evaluate("() => !!document.activeElement.closest('[data-card-id]')"):
            break
    pg.wait_for_selector("#card-tip:not([hidden])")
    assert not errors


def test_a_choice_of_cards_allows_only_legal_counts(server, browser, tmp_path, shots):
    """'You may return three cards': 0 or 3. The button says so and is enabled only at 3; cards are picked where
    they lie in the hand; a refused answer is said beside the buttons and gone after the next answer."""
    path, game = saved_at(tmp_path, lambda d: d["kind"] == "select_cards" and d.get("sizes") == [0, 3]
                          and len(d["options"]) >= 4)
    pg, errors = load_in(browser, server, path)
    assert "3 cards (or none)" in pg.inner_text("#prompt")
    confirm = pg.text_content("#confirm")
    assert "choose 0 or 3" in confirm and "0–3" not in confirm
    assert pg.is_disabled("#confirm")
    hand = pg.query_selector_all(".player .hand .selectable")
    assert len(hand) == len(game.decision["options"])   # every option is clickable in the hand
    for k, card in enumerate(hand[:4]):
        card.click()
        assert pg.is_disabled("#confirm") == (k + 1 != 3), k
    assert "Return 4 cards" in pg.text_content("#confirm")
    hand[3].click()                                     # picked twice: put back
    assert pg.is_enabled("#confirm") and "Return 3 cards" in pg.text_content("#confirm")
    assert len(pg.query_selector_all(".player .hand .selectable.picked")) == 3
    pg.mouse.move(5, 890)
    pg.keyboard.press("Escape")
    pg.screenshot(path=str(shots / "web-choose-cards.png"))
    # one card of each colour: the page's rule for its button, on decisions as the view gives them
    legal = pg.evaluate("""() => {
        const colours = {kind: "select_cards", min: 0, max: 2, one_per_color: true, optional: true,
                         options: [{id: 1, color: "red"}, {id: 2, color: "red"}, {id: 3, color: "blue"}]};
        const range = {kind: "select_cards", min: 1, max: 2, options: [{id: 1}, {id: 2}, {id: 3}]};
        return [[0, 1], [0, 2], [2], []].map((p) => legalPick(colours, p))
            .concat([[], [0], [0, 1], [0, 1, 2]].map((p) => legalPick(range, p)))
            .concat([allowedText(colours), allowedText(range), allowedText({min: 0, max: 3, sizes: [0, 2, 3], options: []})]); }""")
    assert legal == [False, True, False, True, False, True, True, False,
                     "one of each colour, or none", "choose 1 or 2", "choose 0, 2 or 3"], legal
    # a refused answer: said in the decision, by its buttons, not in the header
    pg.evaluate("() => answer(currentView().decision, [123456])")
    pg.wait_for_selector("#decision #refusal")
    assert "123456" in pg.inner_text("#refusal") and "123456" not in pg.inner_text("#status")
    before = pg.get_attribute("#decision", "data-decision")
    pg.click("#decline")
    next_decision(pg, before)
    assert not pg.query_selector("#refusal")
    tip_closed(pg)
    assert not errors


def test_a_single_card_to_choose_takes_one_click(server, browser, tmp_path):
    """One card among several (min = max = 1): one click on it, where it lies, answers."""
    path, game = saved_at(tmp_path, lambda d: d["kind"] == "select_cards" and d["min"] == d["max"] == 1
                          and len(d["options"]) >= 2 and "unrevealed" not in d)
    pg, errors = load_in(browser, server, path)
    assert not pg.query_selector("#confirm")
    cards = pg.query_selector_all("#table .selectable")
    assert len(cards) == len(game.decision["options"])
    before = pg.get_attribute("#decision", "data-decision")
    cards[0].click()
    pg.wait_for_function("(b) => document.getElementById('decision').dataset.decision !== b", arg=before)
    tip_closed(pg)
    assert not errors


def test_a_forced_choice_of_every_card_is_one_button(server, browser, tmp_path):
    """When the only answer but none is every option ('return three cards' with three in hand), one button."""
    path, game = saved_at(tmp_path, lambda d: d["kind"] == "select_cards" and d.get("sizes")
                          and max(d["sizes"]) == len(d["options"]) > 1)
    pg, errors = load_in(browser, server, path)
    buttons = pg.query_selector_all("#decision .options .option")
    assert len(buttons) == 1 and not pg.query_selector("#confirm")
    n = len(game.decision["options"])
    assert ("both cards" if n == 2 else f"all {n} cards") in buttons[0].inner_text()
    before = pg.get_attribute("#decision", "data-decision")
    buttons[0].click()
    next_decision(pg, before)
    assert pg.get_attribute("#decision", "data-decision") != before
    assert not errors


def test_four_players_fit_the_window(server, browser, tmp_path, shots):
    """Four players at turn 50 at 1400x900: every board in the window without scrolling, top cards' names whole,
    each panel with its icon counts, hand and score pile sizes and achievements."""
    names = ["Ada Lovelace", "Bartholomew", "Charlotte", "Dmitri Mendeleev"]
    path, game = saved_game(tmp_path, turns=50, seed=1, players=4, names=names)
    assert not game.over
    pg, errors = load_in(browser, server, path)
    got = pg.evaluate("""() => {
        const table = document.getElementById('table').getBoundingClientRect();
        const boards = Array.from(document.querySelectorAll('.player .board'), (b) => b.getBoundingClientRect());
        const names = Array.from(document.querySelectorAll('.player .board .inno-card .inno-name'));
        return {boards: boards.length, scrolled: scrollY || document.getElementById('table').scrollTop,
                outside: boards.filter((r) => r.bottom > Math.min(innerHeight, table.bottom) || r.right > innerWidth).length,
                cut: names.filter((n) => n.scrollWidth > n.clientWidth + 1).map((n) => n.textContent),
                tops: names.length}; }""")
    assert got["boards"] == 4 and not got["outside"] and not got["scrolled"], got
    assert got["tops"] >= 12 and not got["cut"], got
    for panel in pg.query_selector_all(".player"):
        text = panel.inner_text()
        assert "Hand" in text and "Score pile" in text and "Achievements" in text
        assert len(panel.query_selector_all(".icon-counts li")) >= 6
    assert [p.get_attribute("data-player") for p in pg.query_selector_all(".player")][0] == "0"   # you first
    pg.screenshot(path=str(shots / "web-table-4p.png"))
    assert not errors


def test_the_partner_sits_beside_you(server, browser, tmp_path):
    path, _ = saved_game(tmp_path, turns=8, seed=1, players=4, options={"teams": "1+3"})
    pg, errors = load_in(browser, server, path)
    order = [p.get_attribute("data-player") for p in pg.query_selector_all(".player")]
    assert order[:2] == ["0", "2"], order
    assert "with Player 3" in pg.inner_text(".player[data-player='0']")
    assert not errors


def test_names_typed_in_the_form(server, browser):
    """Names from the new-game form reach the table as text; an empty one is the default."""
    pg, errors = page(browser, server)
    pg.select_option("#seat-1", "greedy")
    pg.fill("#name-0", XSS)
    pg.click("#start")
    pg.wait_for_selector("#decision .option")
    assert pg.is_hidden("#new-game")                    # folded away for the table
    assert XSS in pg.inner_text(".player[data-player='0'] .pname")
    assert pg.inner_text(".player[data-player='1'] .pname") == "Player 2"
    assert pg.evaluate("window.__pwned") is None and not pg.query_selector("main img")
    pg.click("#setup-toggle")
    assert pg.is_visible("#start")
    assert not errors


def test_the_log_names_exchanged_cards_and_ages_once(server, browser, tmp_path):
    path, _ = saved_game(tmp_path, turns=6, seed=1)
    pg, errors = load_in(browser, server, path)
    got = pg.evaluate("""() => {
        const v = currentView(), mine = v.players[0].hand[0];
        const text = (e) => logEntry(e, v).textContent;
        return {mine: mine.name,
                exchange: text({type: "exchange", player: 0, cards: [mine, {hidden: true, age: 3}],
                                other: [{hidden: true, age: 4}], zone: "hand", owner: 0, other_zone: "score",
                                other_owner: 1}),
                none: text({type: "exchange", player: 1, cards: [], other: [mine]}),
                hidden: text({type: "draw", player: 1, card: {hidden: true, age: 4}, age: 4}),
                seen: text({type: "draw", player: 0, card: mine, age: mine.age}),
                hook: logEntry({type: "hook", player: 0, point: "meld_action", set: "echoes"}, v),
                out: text({type: "eliminated", player: 1})}; }""")
    assert got["exchange"] == (f"Player 1 exchanges {got['mine']} and a [3] from their hand "
                               "with a [4] from Player 2's score pile"), got
    assert got["none"] == f"Player 2 exchanges nothing with {got['mine']}", got
    assert got["hidden"] == "Player 2 draws a [4]", got
    assert got["seen"].startswith(f"Player 1 draws {got['mine']} (age "), got
    assert got["hook"] is None and got["out"] == "Player 2 is eliminated from the game", got   # no 'Player 1 hook'
    assert not errors
