"""Terminal play driven as a person would: a pseudo-terminal, keystrokes, save, resume."""
import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest


class Pty:
    def __init__(self, *args, lines=50, **env):
        self.master, slave = pty.openpty()
        env = dict(os.environ, COLUMNS="100", LINES=str(lines), TERM="xterm", **env)
        self.p = subprocess.Popen([sys.executable, "-m", "innoscript.cli", "play", *args], stdin=slave, stdout=slave,
                                  stderr=slave, env=env, close_fds=True)
        os.close(slave)
        self.out = ""

    def read_until(self, pattern, timeout=60):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if re.search(pattern, self.out):
                return self.out
            r, _, _ = select.select([self.master], [], [], 0.5)
            if r:
                try:
                    chunk = os.read(self.master, 65536).decode(errors="replace")
                except OSError:
                    break
                self.out += chunk
        raise AssertionError(f"never saw {pattern!r}; last output:\n{self.out[-2000:]}")

    def type(self, line):
        self.out = ""
        os.write(self.master, (line + "\n").encode())

    def close(self):
        try:
            self.p.wait(timeout=20)
        finally:
            self.p.kill()
            os.close(self.master)


def prompt(t):
    return t.read_until(r"\n> ?$|> $")


def plain(screen):
    """The screen's text without its colours, one string a line."""
    return re.sub(r"\x1b\[[0-9;]*m", "", screen).replace("\r\n", "\n").split("\n")


def _saved(tmp_path, game, seats):
    save = tmp_path / "game.json"
    save.write_text(json.dumps({"game": game.to_json(), "seats": seats}))
    return str(save)


def test_play_several_turns_save_and_resume(tmp_path):
    save = tmp_path / "game.json"
    t = Pty("--players", "2", "--bots", "human,random", "--seed", "3")
    screen = prompt(t)
    assert "Choose a card to meld first" in screen
    t.type("1")                                  # initial meld
    turns = set()
    for _ in range(6):                           # several actions: always the first option (draw)
        screen = prompt(t)
        turns.update(re.findall(r"Turn (\d+)", screen))
        assert "Player 1 (you)" in screen and "1. Draw a [" in screen
        t.type("1")
    screen = prompt(t)
    t.type("9999")                               # a wrong answer is refused, nothing breaks
    screen = prompt(t)
    assert "answer with option numbers" in screen
    t.type(f"save {save}")
    assert "saved to" in prompt(t)
    t.type("quit")
    t.close()
    assert len(turns) >= 2 and save.exists()

    saved = json.loads(save.read_text())
    assert saved["log"] and all(isinstance(n, int) and isinstance(line, str) for n, line in saved["log"])
    r = Pty("--load", str(save))
    screen = prompt(r)
    assert "Player 1 (you)" in screen and "choose an action" in screen
    r.type("log")                                # the log goes on from the save
    screen = " ".join(plain(prompt(r)))
    assert saved["log"][0][1] in " ".join(screen.split())
    r.type("1")
    prompt(r)
    r.type("quit")
    r.close()


@pytest.mark.parametrize("log", [{"a": 1}, [[1]], [["1", "x"]], [[1, "x" * 401]], [[1, "bell\x07"]],
                                 [[1, "x"]] * 2001])
def test_a_saves_log_is_checked(tmp_path, log):
    from innoscript.runtime import Game
    save = tmp_path / "game.json"
    save.write_text(json.dumps({"game": Game.new(players=2, seed=1).to_json(), "seats": ["human", "random"],
                                "log": log}))
    r = subprocess.run([sys.executable, "-m", "innoscript.cli", "play", "--load", str(save)], capture_output=True,
                       text=True, input="quit\n", timeout=60)
    assert r.returncode == 2 and "cannot resume" in r.stderr and "'log'" in r.stderr and "Traceback" not in r.stderr


def test_card_prompts_and_undo_after_a_meld():
    t = Pty("--players", "2", "--bots", "human,greedy", "--seed", "3")
    screen = prompt(t)
    assert "1. Meld " in screen                     # options name their verb
    t.type("card Oars")                             # any card's text, from its script
    screen = prompt(t)
    assert "Oars [1]" in screen and "I DEMAND you transfer" in screen and "featured icon" in screen
    t.type("card Oarz")
    assert "did you mean 'Oars'?" in prompt(t)
    t.type("1")
    screen = prompt(t)
    while "2. Meld" not in screen:                  # until there is a card in hand to meld
        t.type("1")
        screen = prompt(t)
    meld = re.search(r"2\. Meld ([^\n]+)", screen).group(1).strip()
    t.type("2")
    screen = prompt(t)
    assert f"melds {meld}" in screen
    t.type("undo")                                  # a meld from your own hand showed the bot nothing it keeps
    screen = prompt(t)
    assert "the last action was taken back" in screen and f"2. Meld {meld}" in screen
    t.type("quit")
    t.close()


def test_a_web_save_resumes_with_its_seats(tmp_path):
    from innoscript.runtime.api.game import Game
    game = Game.new(players=2, seed=5)
    save = tmp_path / "web.json"
    save.write_text(json.dumps({"game": game.to_json(), "seats": ["you", "greedy"]}))   # as the web saved it
    t = Pty("--load", str(save))
    screen = prompt(t)
    assert "Player 1 (you)" in screen and "Player 2 (bot: greedy)" in screen
    t.type("1")
    screen = prompt(t)
    assert "Player 1 (you)" in screen and "you are Player 1" in screen    # the bot answered its own decision
    t.type("quit")
    t.close()


def test_seats_are_checked():
    r = subprocess.run([sys.executable, "-m", "innoscript.cli", "play", "--bots", "human,greedy,random"],
                       capture_output=True, text=True, input="quit\n")
    assert r.returncode == 2 and "3 seats given for 2 players" in r.stderr
    r = subprocess.run([sys.executable, "-m", "innoscript.cli", "play", "--bots", "human,clever"],
                       capture_output=True, text=True, input="quit\n")
    assert r.returncode == 2 and "unknown seat kind 'clever'" in r.stderr and "greedy" in r.stderr


def test_card_command_shows_a_set_cards_echo_effect_and_bonus():
    import io
    from rich.console import Console
    from innoscript.runtime import Game
    from innoscript.runtime.serving.terminal import Terminal
    out = io.StringIO()
    game = Game.new(players=2, seed=1, sets=["echoes"])
    Terminal(game, ["human", "human"], Console(file=out, width=150), 0, input).read_card("bangle")
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("Bangle [1] ") and "+1" in lines[0] and "set echoes" in lines[0]
    assert lines[1].strip().startswith("echo") and "Tuck a red card from your hand." in lines[1]
    assert lines[2].strip().startswith("1. ") and len(lines) == 3     # the echo effect is not numbered as a dogma effect


def _set_table():
    """A game with Echoes, its view given a forecast (as the view documents it, docs/protocol.md) and a score
    with bonus points, as the terminal draws it."""
    import io
    from rich.console import Console
    from innoscript.runtime import Game
    from innoscript.runtime.serving.terminal import Terminal
    game = Game.new(players=2, seed=1, sets=["echoes"])
    flute = next(c for c in game.cards.cards if c["name"] == "Flute")
    real = game.view

    def view(seat):
        v = real(seat)
        v["players"][0]["zones"] = {"forecast": {"cards": [{**real(0)["players"][0]["hand"][0]}], "count": 1,
                                                 "limit": 3}}
        v["players"][1]["zones"] = {"forecast": {"count": 2, "ages": [2, 5], "limit": None}}
        v["players"][1]["points"] += 2      # two points the set adds (bonuses)
        v["players"][0]["board"]["purple"]["cards"] = [{"id": flute["id"], "name": "Flute", "age": 1, "color": "purple",
                                                        "icons": flute["icons"], "dogma": flute["dogma"]}]
        return v
    game.view = view
    out = io.StringIO()
    return Terminal(game, ["human", "human"], Console(file=out, width=150), 0, input), out


def test_terminal_draws_a_sets_zones_bonuses_and_score_breakdown():
    term, out = _set_table()
    term.show(0)
    text = out.getvalue()
    assert re.search(r"forecast \(1 card\(s\), at most 3\): \w", text)        # the owner sees the cards
    assert "forecast (2 card(s)): ages 2 5" in text                        # the others its size and ages
    assert re.search(r"0 points, .*\n(?:.*\n)*.*2 points \(0 in the score pile, \+2 from Echoes of the Past", text)
    assert re.search(r"purple\s+Flute \[1\] \+1", text)                    # a bonus with its value on the board
    assert re.search(r"^echoes supply 1:\d+  2:\d+", text, re.M)            # the set's own piles


def test_terminal_log_marks_echo_effects_promotions_and_free_dogmas():
    term, _ = _set_table()
    flute = {"id": 1, "name": "Flute", "age": 1, "color": "purple", "icons": [], "dogma": "crown"}
    events = [{"type": "dogma", "player": 0, "card": flute, "counts": [2, 3]},
              {"type": "effect", "player": 1, "card": flute, "effect": 0, "cell": "echo", "echo": True},
              {"type": "effect", "player": 1, "card": flute, "effect": 1},
              {"type": "foreshadow", "player": 0, "card": flute, "zone": "forecast", "from": "hand"},
              {"type": "meld", "player": 0, "card": flute, "from": "forecast", "verb": "promote", "promoted": True},
              {"type": "dogma", "player": 0, "card": flute, "counts": [2, 1], "free": True, "mark": "foreseen",
               "foreseen": True}]
    term.game.events_for = lambda evs, seat: evs
    term.note(events, 0)
    lines = [line for _, line in term.log]
    assert lines == ["Player 1 uses the dogma of Flute [1] (shared by Player 2)", "↳ echo effect of Flute [1] for Player 2",
                     "Player 1 foreshadows Flute [1]", "Player 1 promotes Flute [1] from their forecast",
                     "Player 1 uses the free dogma of Flute [1] (foreseen)"]


def test_terminal_draws_a_real_forecast_to_its_owner_and_its_size_to_the_others():
    import io
    from rich.console import Console
    from innoscript.runtime import Game
    from innoscript.runtime.bots import RandomBot, answer_for
    from innoscript.runtime.serving.terminal import Terminal
    game = Game.new(players=2, seed=1, sets=["echoes"])
    bots = [RandomBot(1), RandomBot(8)]
    while not any(pl.get("zones", {}).get("forecast") for pl in game.state["players"]):
        assert not game.over and game.state["decisions"] < 3000
        p = game.decision["player"]
        game.apply(answer_for(game, bots[p], p))
    owner = next(i for i, pl in enumerate(game.state["players"]) if pl["zones"]["forecast"])
    card = game.cards.name[game.state["players"][owner]["zones"]["forecast"][0]]
    for seat, seen in ((owner, True), (1 - owner, False)):
        out = io.StringIO()
        Terminal(game, ["human", "human"], Console(file=out, width=150), 0, input).show(seat)
        text = out.getvalue()
        section = text.split(game.state["players"][owner]["name"] + " (", 1)[1]
        line = next(l for l in section.splitlines() if l.strip().startswith("forecast ("))
        assert (card in line) == seen and ("ages " in line) != seen, line


def test_card_text_draws_the_icons_it_names():
    t = Pty("--players", "2", "--bots", "human,greedy", "--seed", "3")
    prompt(t)
    t.type("card Metalworking")
    screen = "\n".join(plain(prompt(t)))
    assert "If it has a ♜, score it" in screen              # the castle's glyph, as on the board
    t.type("quit")
    t.close()
    t = Pty("--players", "2", "--bots", "human,greedy", "--seed", "3", PYTHONIOENCODING="ascii")
    prompt(t)
    t.type("card Metalworking")
    screen = "\n".join(plain(prompt(t)))
    assert "If it has a castle, score it" in screen         # no glyph to be had: the icon's name
    assert "Metalworking [1] CaCaHeCa" in screen
    t.type("quit")
    t.close()


def test_the_log_files_each_line_under_the_turn_it_happened_in():
    t = Pty("--players", "2", "--bots", "human,human", "--seed", "3")
    for _ in range(2 + 5):                   # both first melds, then always draw: turns of 1, 2 and 2 actions
        prompt(t)
        t.type("1")
    prompt(t)
    t.type("log")
    sections, turn = {}, None
    for line in plain(prompt(t)):
        m = re.match(r"(turn \d+|set-up) ─", line)
        if m:
            turn = sections.setdefault(m.group(1), [])
        elif line.startswith("  · "):
            turn.append(line[4:])
    assert len(sections["set-up"]) == 2 and all(" melds " in line for line in sections["set-up"])
    assert [len(sections[f"turn {n}"]) for n in (1, 2, 3)] == [1, 2, 2]
    players = [{line.split(" draws ")[0] for line in sections[f"turn {n}"]} for n in (1, 2, 3)]
    assert all(len(p) == 1 for p in players) and players[0] == players[2] != players[1], sections
    t.type("quit")
    t.close()


def test_an_exchange_is_logged_with_the_cards_the_seat_may_see(tmp_path):
    import yaml
    from innoscript.compiler.bundle import load_bundle
    from innoscript.runtime import Game
    from innoscript.runtime.tools import scenario
    data = yaml.safe_load((Path(__file__).parent / "scenarios/3e/age7/sanitation-exchange.yaml").read_text())
    engine = scenario.build_state(data, load_bundle("3e"))
    engine.advance()
    t = Pty("--load", _saved(tmp_path, Game(engine), ["human", "random"]))
    screen = "\n".join(plain(prompt(t)))
    t.type(re.search(r"(\d+)\. Dogma Sanitation", screen).group(1))
    screen = "\n".join(plain(prompt(t)))
    # the opponent's two highest for my lowest: theirs are named to me now, mine was in my own hand
    assert "Player 2 exchanges Coal [5] and Calendar [2] from their hand with Archery [1] from Player 1's hand" \
        in " ".join(screen.split())      # the line may wrap at the screen's width
    t.type("quit")
    t.close()


def test_card_text_stays_above_the_prompt():
    t = Pty("--players", "2", "--bots", "human,greedy", "--seed", "3")
    prompt(t)
    t.type("card Oars")
    after = plain(prompt(t))
    assert any("I DEMAND you transfer" in line for line in after)
    assert not any("(you)" in line or "Choose a card to meld first" in line for line in after)   # no table after it
    assert after[-1].startswith(">")
    t.type("board")                                  # the table again, on request
    assert "Player 1 (you)" in "\n".join(plain(prompt(t)))
    t.type("quit")
    t.close()


def test_a_long_option_list_leaves_the_table_and_the_prompt_on_a_40_line_screen(tmp_path):
    from innoscript.runtime import Game
    game = Game.new(players=2, seed=3)
    st = game.to_json()
    hand = st["players"][0]["hand"]
    for age in map(str, range(1, 11)):               # a first meld among 41 cards
        while len(hand) < 41 and st["supply"][age]:
            hand.append(st["supply"][age].pop(0))
    st["pending"]["options"] = list(hand)
    save = _saved(tmp_path, Game.load(st), ["human", "random"])
    t = Pty("--load", save, lines=40)
    lines = plain(prompt(t))
    assert len(lines) <= 40 and lines[0].startswith("─") and "Turn 0" in lines[0]   # the whole table is on screen
    assert any(l.startswith("Player 1 (you)") for l in lines) and lines[-1].startswith(">")
    assert all(any(re.search(rf"\b{n}\. Meld ", l) for l in lines) for n in range(1, 42))
    t.type("quit")
    t.close()
    t = Pty("--load", save, lines=30)                # a shorter screen: the options in pages
    lines = plain(prompt(t))
    assert len(lines) <= 30 and "Turn 0" in lines[0] and "'more' shows the next" in lines[-2]
    first = {int(n) for l in lines for n in re.findall(r"\b(\d+)\. Meld ", l)}
    t.type("more")
    rest = {int(n) for l in plain(prompt(t)) for n in re.findall(r"\b(\d+)\. Meld ", l)}
    assert first and rest and first | rest == set(range(1, 42)) and not first & rest
    t.type("41")                                     # any number answers, whichever page shows it
    lines = plain(prompt(t))[1:]                     # (after the answer typed)
    assert len(lines) <= 30 and "Turn 1" in lines[0] and any("melds " in l for l in lines)   # the log cut to fit
    t.type("quit")
    t.close()
