"""A real LSP session with `innoscript lsp` over stdio: diagnostics, hover and completion."""
import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from innoscript.core.editions import cards_root


class Client:
    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, "-m", "innoscript.cli", "lsp"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.messages: list[dict] = []
        self.lock = threading.Condition()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                ch = out.read(1)
                if not ch:
                    return
                header += ch
            length = int([h for h in header.decode().split("\r\n") if h.lower().startswith("content-length")][0]
                         .split(":")[1])
            msg = json.loads(out.read(length))
            with self.lock:
                self.messages.append(msg)
                self.lock.notify_all()

    def send(self, method, params, request=True):
        msg = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.next_id += 1
            msg["id"] = self.next_id
        body = json.dumps(msg).encode()
        self.proc.stdin.write(f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        self.proc.stdin.flush()
        return msg.get("id")

    def wait(self, pred, timeout=20):
        with self.lock:
            ok = self.lock.wait_for(lambda: any(pred(m) for m in self.messages), timeout)
            assert ok, f"no matching message; got {self.messages}"
            return next(m for m in self.messages if pred(m))

    def request(self, method, params):
        i = self.send(method, params)
        return self.wait(lambda m: m.get("id") == i and ("result" in m or "error" in m))

    def close(self):
        try:
            self.request("shutdown", None)
            self.send("exit", None, request=False)
            self.proc.wait(timeout=10)
        finally:
            self.proc.kill()


@pytest.fixture
def client():
    c = Client()
    c.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    c.send("initialized", {}, request=False)
    yield c
    c.close()


def test_diagnostics_hover_and_completion(client, tmp_path):
    src = (cards_root() / "3e" / "age1" / "metalworking.inno").read_text()
    uri = (cards_root() / "3e" / "age1" / "metalworking.inno").as_uri()
    bad = src.replace("icons castle castle hex castle", "icons castle castel hex castle")
    client.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "innoscript", "version": 1,
                                                          "text": bad}}, request=False)
    diag = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")
    d = diag["params"]["diagnostics"][0]
    assert d["code"] == "E201" and "castle" in d["message"]
    assert d["range"]["start"] == {"line": 3, "character": 17}

    client.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                           "contentChanges": [{"text": src}]}, request=False)
    clean = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                        and m["params"].get("version") == 2)
    assert clean["params"]["diagnostics"] == []

    hover = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 8}})
    assert "Draw and reveal a [1]" in hover["result"]["contents"]["value"]

    comp = client.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                      "position": {"line": 8, "character": 4}})
    labels = {i["label"] for i in comp["result"]["items"]}
    # at the start of a statement: what can start one, not the whole vocabulary
    assert {"draw", "score", "if", "drawn", "count"} <= labels
    assert not {'"Archery"', "age", "wins", "and"} & labels, {'"Archery"', "age", "wins", "and"} & labels
    assert "dogma" in labels                                # statements too: a free dogma
    assert not {"foreshadow", "promote"} & labels           # a set's verbs only where the set is in play

    hover = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 8, "character": 6}})
    assert "draw_stmt" in hover["result"]["contents"]["value"]
    where = client.request("textDocument/definition", {"textDocument": {"uri": uri},
                                                       "position": {"line": 9, "character": 9}})
    assert where["result"]["range"]["start"] == {"line": 8, "character": 27}


HEAD = 'card "X" {\n age 1\n color red\n icons hex leaf leaf leaf\n dogma leaf\n}\neffect {\n'


def labels_at(text, uri="file:///x.inno"):
    from innoscript import lsp
    line = text.count("\n")
    return {i.label for i in lsp.completion_items(uri, text + "\n}\n", line, len(text.split("\n")[-1]))}


def test_a_sets_verbs_and_marks_are_offered_in_its_own_card_files():
    """A set's words come from its manifest: in one of its card files the statements it adds ('foreshadow',
    'promote') are offered where a statement starts, and its Dogma mark after 'dogma X,'."""
    uri = (cards_root() / "sets" / "echoes" / "4e" / "age1" / "x.inno").as_uri()
    head = HEAD.replace(" age 1\n", " set echoes\n age 1\n")
    assert {"foreshadow", "promote"} <= labels_at(head + "    ", uri)
    assert "foreseen" in labels_at(head + "    dogma this card, ", uri)
    assert not {"foreshadow", "promote", "foreseen"} & labels_at(HEAD + "    ")


def test_completion_follows_what_the_parser_accepts():
    assert labels_at(HEAD + "    draw ") == {"and", "[1]"}
    assert {"left", "right", "up", "aslant"} == labels_at(HEAD + "    splay red ") & {"left", "right", "up", "aslant", "draw"}
    after_other_than = labels_at(HEAD + "    return a top card other than ")
    assert '"Archery"' in after_other_than and "draw" not in after_other_than
    bound = labels_at(HEAD + "    draw [1] as fresh\n    score ")
    assert "fresh" in bound and "your" in bound and "draw" not in bound
    assert "draw" in labels_at(HEAD + "    draw ] [1]\n    ")      # broken text before: everything
    own = labels_at(HEAD + "    draw [1] as fresh\n    record your card_drawn = fresh\n    score all cards from your hand "
                           "where (it in your.")
    assert own == {"card_drawn"}, own
    # the last Echoes cards' words: a condition, an execution, an unrevealed choice, a private look
    assert "it is your turn" in labels_at(HEAD + "    if ")
    assert "fully" in labels_at(HEAD + "    draw [1] as fresh\n    ")
    assert "unrevealed" in labels_at(HEAD + "    choose an ")
    assert "look" in labels_at(HEAD + "    ")


def test_hover_on_every_keyword_shows_its_reference_entry():
    from innoscript import lsp
    from innoscript.compiler.parser import all_keywords
    for word in sorted(all_keywords()):
        text = lsp.hover_text(f"    {word}\n", "file:///x.inno", 0, 5)
        assert text and word in text and "`" in text, f"no reference entry on hover for {word!r}"


def test_definition_of_bound_names():
    from innoscript import lsp
    text = HEAD + "    choose color as c\n    each x in colors(your board) {\n        splay x left\n    }\n    splay c up\n}\n"
    r = lsp.definition_range(text, 11, 10)
    assert (r.start.line, r.start.character) == (7, 20)
    r = lsp.definition_range(text, 9, 14)
    assert (r.start.line, r.start.character) == (8, 9)
    assert lsp.definition_range(text, 11, 6) is None        # a keyword


def test_completion_in_a_set_file_offers_its_sets_and_zones():
    from pathlib import Path
    from innoscript import lsp
    uri = (Path(__file__).resolve().parent.parent / "cards" / "sets" / "echoes" / "4e" / "age1" / "new.inno").as_uri()

    def at(text):
        return {i.label for i in lsp.completion_items(uri, text + "\n}\n", text.count("\n"), len(text.split("\n")[-1]))}
    assert at(HEAD + "    draw ") == {"and", "[1]", "echoes"}
    assert at(HEAD + "    draw 2 ") == {"[1]", "echoes"}
    zones = at(HEAD + "    return a card from your ")
    assert {"forecast", "hand", "board"} <= zones and "draw" not in zones and "echoes" not in zones
    assert "echoes" not in labels_at(HEAD + "    draw ")      # no set in play outside a set's folder


def test_completion_and_hover_know_the_cells_of_the_sets_in_play():
    """A set's cells (manifest cells) are offered where a name may come and explained on hover; outside a set's
    folder, with no set in play, they are neither."""
    from pathlib import Path
    from innoscript import lsp
    uri = (Path(__file__).resolve().parent.parent / "cards" / "sets" / "echoes" / "3e" / "age1" / "new.inno").as_uri()
    text = HEAD + "    if cell_value(b"
    labels = {i.label for i in lsp.completion_items(uri, text + ", drawn) > 1 { draw [1] }\n}\n",
                                                    text.count("\n"), len(text.split("\n")[-1]))}
    assert {"bonus", "echo"} <= labels
    assert "bonus" not in labels_at(HEAD + "    if cell_value(b")
    hover = lsp.hover_text(HEAD + "    draw [1]\n}\n# echo bonus\n", uri, HEAD.count("\n") + 2, 8)
    assert hover and "cell `bonus`" in hover and "number" in hover and "score" in hover


def test_completion_of_a_hook_offers_the_points_and_after_one_the_verbs():
    """In a set's rules file: 'hook ' offers the hook points, 'hook after ' the zone verbs of the sets in play (the
    relics' rules need Artifacts, so its verb 'dig' is there)."""
    from pathlib import Path
    from innoscript import lsp
    uri = (Path(__file__).resolve().parent.parent / "cards" / "sets" / "relics" / "3e" / "rules" / "new.inno").as_uri()
    points = {i.label for i in lsp.completion_items(uri, "hook \n", 0, 5)}
    assert {"meld_action", "turn_start", "after"} <= points and "draw" not in points
    verbs = {i.label for i in lsp.completion_items(uri, "hook after \n", 0, 11)}
    assert "dig" in verbs and "meld_action" not in verbs and "foreshadow" not in verbs
    assert not lsp.diagnostics_for("hook after dig(card, place) {\n    draw [1]\n}\n", uri)
