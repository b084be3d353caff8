"""Terminal play driven as a person would: a pseudo-terminal, keystrokes, save, resume."""
import os
import pty
import re
import select
import subprocess
import sys
import time


class Pty:
    def __init__(self, *args):
        self.master, slave = pty.openpty()
        env = dict(os.environ, COLUMNS="100", LINES="50", TERM="xterm")
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


def test_play_several_turns_save_and_resume(tmp_path):
    save = tmp_path / "game.json"
    t = Pty("--players", "2", "--bots", "human,random", "--seed", "3")
    screen = prompt(t)
    assert "choose a card to meld first" in screen
    t.type("1")                                  # initial meld
    turns = set()
    for _ in range(6):                           # several actions: always the first option (draw)
        screen = prompt(t)
        turns.update(re.findall(r"Turn (\d+)", screen))
        assert "Player 1 (you)" in screen and "1. draw" in screen
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

    r = Pty("--load", str(save))
    screen = prompt(r)
    assert "Player 1 (you)" in screen and "choose an action" in screen
    r.type("1")
    prompt(r)
    r.type("quit")
    r.close()
