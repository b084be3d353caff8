"""An edition's one-time work (its bundle and the cards' English that views quote) is done when the server first
loads the edition, never in the middle of a game: the answers of a game parse no card."""
import json
import random

from protocol_client import answer_for
from innoscript.runtime.serving.protocol import Hub
from innoscript.runtime.serving.store import Store


def test_no_answer_parses_a_card(tmp_path, monkeypatch):
    import innoscript.compiler.bundle as B
    from innoscript.runtime.api import faces
    faces._CARD_CATALOGS.clear()   # as in a fresh server process
    hub = Hub(Store(tmp_path / "g.sqlite"), allow_seeds=True)
    hub.bundle("3e")
    parsed = []
    monkeypatch.setattr(B, "parse_card", lambda *a, **k: parsed.append(a[1]))

    def ask(msg):
        return hub.handle("conn", json.dumps(msg))[0][1]
    created = ask({"type": "create", "edition": "3e", "players": 2, "seed": 4, "bots": [None, "random"]})
    game, token = created["game"], created["seats"][0]
    view = ask({"type": "view", "game": game, "player": 0, "token": token})["view"]
    rng, asked_in_effect = random.Random(2), 0
    for _ in range(80):
        d = view["decision"]
        if d is None:
            break
        asked_in_effect += d.get("source_card") is not None
        reply = ask({"type": "answer", "game": game, "player": 0, "token": token, "decision": d["id"],
                     "answer": answer_for(d, rng)})
        assert reply["type"] == "update", reply
        view = reply["view"]
    assert asked_in_effect, "no decision inside an effect was answered"
    assert not parsed, f"cards parsed while answering: {parsed[:3]}"
