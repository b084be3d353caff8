"""Command-line misuse: each is one line on stderr and exit status 2, never a traceback.

A table of misuses runs in-process (fast); a few run as real processes too.
"""
import io
import json
import subprocess
import sys

import pytest

from innoscript import cli
from innoscript.runtime import Game
from innoscript.runtime.serving.terminal import Terminal


def _files(tmp):
    (tmp / "notjson.json").write_text("{")
    (tmp / "list.json").write_text("[1, 2]")
    (tmp / "schema.json").write_text(json.dumps({"game": {"format": "innoscript-game"}}))
    (tmp / "seats.json").write_text(json.dumps({"game": Game.new(players=2, seed=1).to_json(), "seats": "x"}))
    (tmp / "deep.json").write_text("[" * 100000 + "]" * 100000)
    (tmp / "afile").write_text("x")
    (tmp / "adir").mkdir()


# (arguments, what stderr must say); {tmp} is a scratch folder
MISUSES = [
    ("play --players 5", "for 2 to 4 players, not 5"),
    ("play --players 1", "for 2 to 4 players, not 1"),
    ("play --edition 4e --players 6", "for 2 to 5 players, not 6"),
    ("play --players 0", "out of range"),
    ("play --players x", "not a whole number"),
    ("play --players 99999999999999999999999", "out of range"),
    ("play --edition 5e", "unknown edition '5e'"),
    ("play --edition ../../etc", "unknown edition"),
    ("play --edition /tmp", "unknown edition"),
    ("play --bots robot", "unknown seat kind 'robot'"),
    ("play --bots human,random,random", "3 seats given for 2 players"),
    ("play --seed -1", "less than 0"),
    ("play --seed 1.5", "not a whole number"),
    ("play --load {tmp}/missing.json", "No such file"),
    ("play --load {tmp}/adir", "Is a directory"),
    ("play --load {tmp}/notjson.json", "cannot resume"),
    ("play --load {tmp}/list.json", "a saved game is a JSON object"),
    ("play --load {tmp}/schema.json", "saved game"),
    ("play --load {tmp}/seats.json", "seats"),
    ("play --load {tmp}/deep.json", "cannot resume"),
    ("play --nonsense", "unrecognized arguments"),
    ("simulate --players 9", "for 2 to 4 players, not 9"),
    ("simulate --games 0", "less than 1"),
    ("simulate --games -5", "less than 1"),
    ("simulate --jobs -1", "out of range"),
    ("simulate --jobs 100000", "out of range"),
    ("simulate --bots robot", "--bots takes up to"),
    ("simulate --edition 5e", "unknown edition"),
    ("simulate --backend spark", "invalid choice"),
    ("soak --players a,b", "not a comma-separated list"),
    ("soak --players 9", "for 2 to 4 players, not 9"),
    ("soak --players 2,", "not a comma-separated list"),
    ("soak --games 0", "less than 1"),
    ("compile", "required: --edition"),
    ("compile --edition 3e -o {tmp}/missing/x.json", "No such file or directory"),
    ("compile --edition 3e -o {tmp}/adir", "Is a directory"),
    ("compile --edition 9e", "unknown edition '9e'"),
    ("serve --port 70000", "out of range"),
    ("serve --port x", "not a whole number"),
    ("serve --stdio --db {tmp}/afile/games.sqlite", "error"),
    ("serve --stdio --db {tmp}/adir", "error"),
    ("serve --stdio --db mysql://inno:hunter2@db/games", "'mysql' is not a database this server keeps games in"),
    ("serve --stdio --db postgresql://inno:hunter2@[::1/games", "not a PostgreSQL URL"),
    ("serve --stdio --db postgresql://inno:hunter2@db/games?nosuch=1", "not a PostgreSQL URL"),
    ("serve --stdio --db postgresql://inno:hunter2@127.0.0.1:1/games", "cannot connect to postgresql://inno@127.0.0.1:1/games"),
    ("serve --stdio --db postgresql://inno:hunter2@127.0.0.1:99999/games", "invalid port number"),
    ("diff --from 9e", "unknown edition '9e' given to --from"),
    ("diff --to 2e", "unknown edition '2e' given to --to"),
    ("render Archery --edition 5e", "unknown edition"),
    ("dis Archery --edition 5e", "unknown edition"),
    ("cards --edition x", "unknown edition"),
    ("coverage --edition x", "unknown edition"),
    ("check --edition 7e", "unknown edition"),
    ("scenario {tmp}/missing.yaml", "no such file or folder"),
    ("completion fish", "invalid choice"),
    ("frobnicate", "invalid choice"),
]


@pytest.mark.parametrize("argv,message", MISUSES, ids=[m[0] for m in MISUSES])
def test_misuse_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch, argv, message):
    _files(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    try:
        code = cli.main(argv.format(tmp=tmp_path).split())
    except SystemExit as e:   # argparse's own usage errors
        code = e.code
    out = capsys.readouterr()
    lines = out.err.strip().splitlines()
    assert code == 2, (code, out.err, out.out[-300:])
    assert len(lines) == 1, out.err
    assert message in lines[0], lines[0]
    assert "Traceback" not in out.err + out.out
    assert "hunter2" not in out.err + out.out   # a database URL's password is never shown


@pytest.mark.parametrize("argv", ["play --players 5", "play --edition 5e", "serve --stdio --db /dev/null/x.sqlite",
                                  "soak --players x", "serve --port 0 --db postgresql://inno:hunter2@127.0.0.1:1/g",
                                  ["serve", "--stdio", "--db", ""], ["serve", "--stdio", "--db", " "]])
def test_misuse_as_a_process(argv):
    argv = argv.split() if isinstance(argv, str) else argv
    r = subprocess.run([sys.executable, "-m", "innoscript.cli", *argv], capture_output=True, text=True,
                       stdin=subprocess.DEVNULL, timeout=120)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr, r.stderr
    assert "hunter2" not in r.stderr


def _terminal(lines, game=None):
    from rich.console import Console
    out = io.StringIO()
    feed = iter(lines)

    def ask(prompt):
        try:
            line = next(feed)
        except StopIteration:
            raise EOFError from None
        if isinstance(line, BaseException):
            raise line
        return line
    game = game or Game.new(players=2, seed=5)
    return Terminal(game, ["human", "human"], Console(file=out, width=120), 0, ask), game, out


def test_terminal_save_failures_keep_the_game(tmp_path):
    good = tmp_path / "ok.json"
    term, game, out = _terminal([f"save {tmp_path}/missing/x.json", f"save {tmp_path}", "save a b",
                                 KeyboardInterrupt(), "1", f"save {good}", "quit"])
    before = game.save()
    assert term.run() == 0
    text = out.getvalue()
    assert text.count("cannot save to") == 2 and "the game goes on" in text and "one file name" in text
    assert "interrupted" in text
    assert game.save() != before          # the answer after the failures was played
    saved = json.loads(good.read_text())
    assert Game.load(saved["game"]).save() == game.save()
    assert not list(tmp_path.glob("*.tmp"))


def test_terminal_save_does_not_clobber_a_good_file_on_failure(tmp_path, monkeypatch):
    good = tmp_path / "ok.json"
    good.write_text("precious")
    term, game, out = _terminal([f"save {good}", "quit"])

    def broken(*a, **k):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr("builtins.open", broken)
    term.run()
    monkeypatch.undo()
    assert good.read_text() == "precious" and "No space left" in out.getvalue()
