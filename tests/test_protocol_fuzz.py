"""Hostile protocol input: hand-picked attacks, random messages (hypothesis) and seeded mutations of
real messages. Whatever comes in, every reply follows the schema, none is `internal`, no traceback is
printed, games whose tokens the sender lacks are unchanged in the store, and a game played with
mutated messages by its own seats still loads and keeps its invariants.

INNOSCRIPT_FUZZ_EXAMPLES scales the random and mutated runs (the test suite's quick profile: 300 random
messages and 1,200 mutations; docs/reliability.md records a long run)."""
import copy
import json
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from innoscript.runtime.serving import protocol, sandbox
from innoscript.runtime.api.game import Game
from innoscript.runtime.rules.invariants import violations
from innoscript.runtime.serving.protocol import CLIENT_TYPES, Hub
from innoscript.runtime.serving.store import Store
from protocol_client import VALIDATOR, answer_for

EXAMPLES = int(os.environ.get("INNOSCRIPT_FUZZ_EXAMPLES", "300"))
MUTATIONS = int(os.environ.get("INNOSCRIPT_FUZZ_MUTATIONS", str(EXAMPLES * 4)))
FIELDS = ["type", "id", "game", "player", "token", "decision", "answer", "edition", "players", "seed", "names",
          "bots", "data", "source", "offset", "limit", "options"]
HOSTILE = [True, False, 1.0, -1, 0, 7, 8, 2 ** 31, 2 ** 53 + 1, 10 ** 20, "", "../3e", "/etc", "3e/../4e", "h" * 17,
           "h0000000000000000", "0" * 32, "x" * 100_000, None, {}, [], [[[[]]]], {"ref": True}, {"id": 1.5},
           ["a"] * 300, list(range(2000)), {"type": "dogma", "card": True}, "\u202e", "\ud800"]


class Recorder:
    def __init__(self, hub):
        self.hub = hub
        self.count = 0
        self.codes: dict[str, int] = {}

    def send(self, conn, text):
        self.count += 1
        replies = self.hub.handle(conn, text)
        assert replies, text[:200]
        for _, m in replies:
            errors = list(VALIDATOR.iter_errors({"server": m}))
            assert not errors, (text[:300], m, errors[0].message)
            if m["type"] == "error":
                assert m["code"] != "internal", (text[:300], m)
                self.codes[m["code"]] = self.codes.get(m["code"], 0) + 1
        return replies


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """A hub with a game of seat-holders (mutated by them) and two bystanders' games (must not change)."""
    db = tmp_path_factory.mktemp("fuzz") / "g.sqlite"
    hub = Hub(Store(db), allow_seeds=True)
    rec = Recorder(hub)
    own = json.loads(json.dumps(rec.send("p", json.dumps({"type": "create", "players": 2, "seed": 3}))[0][1]))
    others = [rec.send("p", json.dumps({"type": "create", "players": n, "seed": n, "bots": [None] + ["random"] * (n - 1)}))[0][1]
              for n in (2, 3)]
    saved = rec.send("p", json.dumps({"type": "save", "game": own["game"], "token": own["owner"]}))[0][1]["data"]
    return hub, rec, own, others, saved


@pytest.fixture(autouse=True)
def no_child_processes(monkeypatch):
    """The sandbox's child process has its own test; here a trial is only counted."""
    monkeypatch.setattr(sandbox, "run_in_child", lambda *a, **k: ([], None))


def stored(hub, games):
    return [(r["state"], r["version"], r["undo"]) for r in (hub.store.load(g["game"]) for g in games)]


def assert_playable(hub, gid):
    row = hub.store.load(gid)
    game = Game.load(row["state"], bundle=hub.bundle(row["edition"]))
    assert violations(game.engine) == []
    for p in [None] + list(range(len(game.state["players"]))):
        game.view(p)


def test_hand_picked_attacks(world, capsys):
    hub, rec, own, others, saved = world
    before = stored(hub, others)
    gid = others[0]["game"]
    texts = [
        "[" * 100_000 + "]" * 100_000, "{\"a\":" * 5000 + "1" + "}" * 5000, "1" * 5000,
        json.dumps({"type": "create", "seed": 10 ** 5000 // 10 ** 4990}), '{"type":"create","seed":' + "9" * 5000 + "}",
        '{"type":"create","seed":NaN}', '{"type":"create","seed":1e999}', '{"type":"create","players":2.0}',
        json.dumps({"type": "create", "players": True}), json.dumps({"type": "create", "players": 3, "names": ["a"]}),
        json.dumps({"type": "create", "players": 2, "names": ["a"] * 9}), json.dumps({"type": "create", "names": ["a"] * 9}),
        json.dumps({"type": "create", "edition": "../../etc"}), json.dumps({"type": "create", "edition": "/tmp"}),
        json.dumps({"type": "check", "source": "x", "edition": "../3e"}), json.dumps({"type": "sandbox", "source": "x", "edition": "5e"}),
        json.dumps({"type": "answer", "game": gid, "player": 0, "token": "0" * 32, "answer": ["h" + "0" * 16] * 100_000}),
        json.dumps({"type": "answer", "game": gid, "player": 0, "answer": ["h" + "0" * 16] * 999}),
        json.dumps({"type": "view", "game": gid, "player": True}), json.dumps({"type": "view", "game": gid, "player": 1.0}),
        json.dumps({"type": "list", "limit": 10 ** 9}), json.dumps({"type": "list", "offset": -1}),
        json.dumps({"type": "load", "data": {"edition": "../3e"}}), json.dumps({"type": "load", "data": {"edition": 3}}),
        "x" * (protocol.LIMITS["message_bytes"] + 1), "\ud800", "", "null", "[]", "\"hello\"", "{}",
    ]
    for mutant in mutations_of_save(saved, random.Random(1), 300):
        texts.append(json.dumps({"type": "load", "data": mutant}))
    for text in texts:
        for _, m in rec.send("eve", text):
            if m.get("type") == "created":
                assert_playable(hub, m["game"])
    rec.send("eve", b"\xff\xfe not utf-8")
    assert stored(hub, others) == before
    assert "Traceback" not in capsys.readouterr().err


def mutations_of_save(saved, rng, n):
    """Saved games with one value somewhere replaced, removed or duplicated."""
    for _ in range(n):
        data = copy.deepcopy(saved)
        node, path = data, []
        while isinstance(node, (dict, list)) and node and rng.random() < 0.8:
            key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
            path.append((node, key))
            node = node[key]
        if not path:
            continue
        parent, key = path[-1]
        r = rng.random()
        if r < 0.6:
            parent[key] = rng.choice(HOSTILE[:26])
        elif r < 0.8 and isinstance(parent, dict):
            del parent[key]
        elif isinstance(parent, list):
            parent.append(parent[key])
        yield data


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
    | st.sampled_from(HOSTILE[:24]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=5), inner,
                                                                max_size=5),
    max_leaves=20)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(kind=st.sampled_from(CLIENT_TYPES + ("x", "")), fields=st.dictionaries(st.sampled_from(FIELDS), json_values,
                                                                            max_size=6),
       which=st.integers(0, 2))
def test_random_messages_change_no_game_without_its_tokens(world, kind, fields, which):
    hub, rec, own, others, saved = world
    before = stored(hub, others)
    msg = dict(fields, type=kind)
    if which < 2 and "game" in msg:
        msg["game"] = others[which]["game"]   # aim at a real game, without its tokens
    rec.send("eve", json.dumps(msg))
    assert stored(hub, others) == before


def test_seeded_mutations_of_real_messages(world, capsys):
    """The seats of one game play it with mutated messages; bystanders' games do not move."""
    hub, rec, own, others, saved = world
    before = stored(hub, others)
    gid, tokens = own["game"], own["seats"]
    rng = random.Random(2024)
    tried = 0
    while tried < MUTATIONS:
        view = rec.send("p", json.dumps({"type": "view", "game": gid}))[0][1]["view"]
        if view["decision"] is None:   # over: start again from the saved copy
            own = rec.send("p", json.dumps({"type": "load", "data": saved}))[0][1]
            gid, tokens = own["game"], own["seats"]
            continue
        seat = view["decision"]["player"]
        d = rec.send("p", json.dumps({"type": "view", "game": gid, "player": seat, "token": tokens[seat]}))[0][1]
        d = d["view"]["decision"]
        good = {"type": "answer", "game": gid, "player": seat, "token": tokens[seat], "decision": d["id"],
                "answer": answer_for(d, rng)}
        for base in (good, {"type": "undo", "game": gid, "player": seat, "token": tokens[seat]},
                     {"type": "view", "game": gid, "player": seat, "token": tokens[seat]},
                     {"type": "join", "game": gid, "player": seat, "token": tokens[seat]}):
            text = mutate(base, rng)
            rec.send("p", text)
            tried += 1
        rec.send("p", json.dumps(good))   # and the game goes on
        assert_playable(hub, gid)
    assert stored(hub, others) == before
    assert "Traceback" not in capsys.readouterr().err
    print(f"protocol fuzz: {rec.count} messages, errors by code {dict(sorted(rec.codes.items()))}")


def mutate(msg, rng) -> str:
    m = copy.deepcopy(msg)
    r = rng.random()
    if r < 0.45:
        m[rng.choice(list(m))] = rng.choice(HOSTILE)
    elif r < 0.55:
        m.pop(rng.choice(list(m)))
    elif r < 0.65:
        m[rng.choice(FIELDS)] = rng.choice(HOSTILE)
    elif r < 0.75 and "answer" in m:
        a = m["answer"]
        m["answer"] = rng.choice([[a], [a, a], [a] * 300, {"ref": a}, {"card": a}, str(a), True, 1.0,
                                  a if not isinstance(a, int) else float(a)])
    else:
        text = json.dumps(m)
        i = rng.randrange(len(text))
        op = rng.random()
        if op < 0.3:
            return text[:i]
        if op < 0.6:
            return text[:i] + rng.choice('{}[]",:0123456789tfn\\ ') + text[i + 1:]
        return text[:i] + text[i:i + rng.randint(1, 20)] * 2 + text[i:]
    return json.dumps(m)


def test_the_fast_message_check_agrees_with_jsonschema(world):
    """A client message passes the compiled check only if jsonschema finds nothing against it, and
    every conforming message without a float passes it (the fast check only spares jsonschema's work)."""
    pytest.importorskip("fastjsonschema")
    hub, rec, own, others, saved = world
    gid, tok = own["game"], own["seats"][0]
    bases = [{"type": "create", "players": 2, "seed": 3, "bots": [None, "random"]},
             {"type": "view", "game": gid, "player": 0, "token": tok},
             {"type": "answer", "game": gid, "player": 0, "token": tok, "decision": 4, "answer": {"type": "draw"}},
             {"type": "answer", "game": gid, "player": 0, "token": tok, "answer": [1, 2]},
             {"type": "undo", "game": gid, "player": 0, "token": tok},
             {"type": "join", "game": gid, "player": 0, "token": tok},
             {"type": "save", "game": gid, "token": own["owner"]},
             {"type": "list", "offset": 0, "limit": 10},
             {"type": "load", "data": saved}]
    rng = random.Random(7)
    verdicts = set()
    for i in range(EXAMPLES * 4):
        base = bases[i % len(bases)]
        try:
            m = json.loads(mutate(base, rng)) if i >= len(bases) else base
        except ValueError:      # a mutation that is no JSON at all
            continue
        if not isinstance(m, dict) or m.get("type") not in CLIENT_TYPES:
            continue
        fast = protocol.conforms_fast(m["type"], m)
        slow = not list(protocol.validator_for(m["type"]).iter_errors(m))
        floats = any(isinstance(v, float) for v in _values(m))
        assert fast == slow or (slow and floats), json.dumps(m)[:300]
        verdicts.add(fast)
    assert verdicts == {True, False}


def _values(v):
    stack = [v]
    while stack:
        x = stack.pop()
        yield x
        if isinstance(x, dict):
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
