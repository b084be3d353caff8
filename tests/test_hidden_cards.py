"""Cards one player sees and the others do not, on real Echoes cards: a private look at a supply pile's top
card, and a choice made by another player among cards of your hand presented as backs (tests/leaks.py
finds a card's name or id in what a seat receives)."""
import os
import random
from pathlib import Path

import pytest
import yaml

from innoscript.compiler.bundle import load_bundle
from innoscript.runtime import Game
from innoscript.runtime.tools import scenario
from innoscript.runtime.api.views import reveals_hidden
from leaks import check_seat, hidden_from, ints_in, leaks

SCENARIOS = Path(__file__).parent / "scenarios"


def _after_action(path, edition):
    """A scenario's set-up with its action taken: the game waits at the action's first decision."""
    data = yaml.safe_load(Path(path).read_text())
    e = scenario.build_state(data, load_bundle(edition, sets=data["sets"]))
    e.advance()
    e.answer(scenario.action(e, data["do"], str(path)))
    return Game(e)


def test_a_look_shows_the_top_card_to_the_performer_only():
    game = _after_action(SCENARIOS / "echoes-3e/age5/tuning-fork-echo-look-at-a-set-deck.yaml", "3e")
    d = game.view(0)["decision"]
    assert d["kind"] == "choose" and d["what"] == "deck" and "echoes 5" in d["options"]
    assert "Deck echoes 5" in d["wording"]["labels"]
    coke = game.cards.by_name["Coke"]
    events = game.apply("echoes 5")
    mine = [e for e in game.events_for(events, 0) if e["type"] == "look"]
    assert mine and mine[0]["card"]["name"] == "Coke" and mine[0]["set"] == "echoes" and mine[0]["age"] == 5
    for viewer in (1, None):
        seen = game.events_for(events, viewer)
        assert [e["card"] for e in seen if e["type"] == "look"] == [{"hidden": True, "age": 5}]
        assert not leaks(seen, ["Coke"], {coke}), viewer
        assert not leaks(game.view(viewer), ["Coke"], {coke}), viewer
    # the card stays on top of its pile, and the look is what makes the turn not undoable for the performer
    assert game.state["set_supply"]["echoes"]["5"][0] == coke
    assert reveals_hidden(events, people=[0]) and not reveals_hidden(events, people=[1])


def test_no_deck_with_cards_means_no_look():
    game = _after_action(SCENARIOS / "echoes-3e/age5/tuning-fork-echo-look-at-a-set-deck.yaml", "3e")
    st = game.state
    for pile in list(st["supply"].values()) + [p for piles in st["set_supply"].values() for p in piles.values()]:
        pile.clear()
    st["pending"] = None
    frame = {"you": 0}
    game.engine.look(frame)
    assert frame["did"] is False and st["pending"] is None


# ---------------------------------------------------------------- an unrevealed choice
ROBOCAR = SCENARIOS / "echoes-4e/age11/robocar-my-turn-self-execute-and-repeat.yaml"


def test_an_unrevealed_choice_shows_the_chooser_backs_only():
    game = _after_action(ROBOCAR, "4e")
    d = game.decision
    assert d["player"] == 1 and d["kind"] == "select_cards" and d["unrevealed"]
    hand = game.state["players"][0]["hand"]
    names = [game.cards.name[c] for c in hand]
    for viewer in (1, None, 0):
        v = game.view(viewer)
        assert not leaks(v["decision"], names, set(hand)), viewer
    options = game.view(1)["decision"]["options"]
    assert [set(o) for o in options] == [{"hidden", "age", "set", "ref"}] * 2
    assert sorted((o["age"], o["set"]) for o in options) == [(1, "base"), (1, "base")]
    assert not leaks(game.view(1), names, set(hand))


@pytest.mark.parametrize("bot", ["random", "greedy", "search"])
def test_bots_answer_an_unrevealed_choice(bot):
    from innoscript.runtime.bots import bot_answer
    game = _after_action(ROBOCAR, "4e")
    answer = bot_answer(game, 1, bot, seed=3, **({"iterations": 5} if bot == "search" else {}))
    assert len(answer) == 1 and answer[0] in game.state["players"][0]["hand"]
    game.apply(answer)
    assert game.decision["kind"] == "action"


def test_the_protocol_takes_an_unrevealed_choice_by_handle_only(tmp_path):
    """The backs are named by handles made for this decision: the cards' ids and their handles elsewhere are
    refused in the very words any other wrong answer gets, so probing tells nothing."""
    import json
    from innoscript.runtime.api.views import token as card_handle
    from innoscript.runtime.serving.protocol import Hub
    from innoscript.runtime.serving.store import Store
    hub = Hub(Store(tmp_path / "g.sqlite"))
    conn = object()
    saved = _after_action(ROBOCAR, "4e").save()
    saved = json.loads(saved) if isinstance(saved, str) else saved
    created = hub.handle(conn, json.dumps({"type": "load", "data": saved}))[0][1]
    gid, token = created["game"], created["seats"][1]
    view = hub.handle(conn, json.dumps({"type": "view", "game": gid, "player": 1, "token": token}))[0][1]["view"]
    d = view["decision"]
    state = hub.get(gid)["game"].state
    hand = state["players"][0]["hand"]
    names = ["City States", "Agriculture"]
    assert d["unrevealed"] and not leaks(view, names, set(hand))
    assert sorted(o["ref"] for o in d["options"]) == [o["ref"] for o in d["options"]]   # in the handles' order
    assert not {o["ref"] for o in d["options"]} & {card_handle(state, c) for c in hand}  # handles of this decision

    def refusal(answer):
        reply = hub.handle(conn, json.dumps({"type": "answer", "game": gid, "player": 1, "token": token,
                                             "decision": d["id"], "answer": answer}))[0][1]
        assert reply["type"] == "error" and reply["code"] == "illegal", reply
        return reply["message"]
    probes = [[c] for c in hand] + [[card_handle(state, c)] for c in hand]
    others = [[9999], [state["players"][1]["hand"][0] if state["players"][1]["hand"] else 500], ["h" + "0" * 16]]
    words = {refusal(a).replace(repr(a[0]), "X") for a in probes + others}   # the echo of what was sent aside
    assert len(words) == 1 and "not one of the options" in words.pop()
    reply = hub.handle(conn, json.dumps({"type": "answer", "game": gid, "player": 1, "token": token,
                                         "decision": d["id"], "answer": [d["options"][0]["ref"]]}))[0][1]
    assert reply["type"] == "update" and reply["view"]["players"][0]["hand"]["count"] == 0   # both melded


@pytest.mark.parametrize("edition,sets", [("3e", ["echoes"]), ("4e", ["echoes"]), ("4e", ["unseen"])])
def test_random_games_with_the_set_show_no_seat_a_hidden_card(edition, sets):
    """Random Echoes games, the private look and the unrevealed choice among them when they come up: no view or
    event names a card to a seat that may not see it (events: unless it was shown to that seat on the way)."""
    from innoscript.runtime.bots import RandomBot, answer_for
    bundle = load_bundle(edition, sets=sets)
    for seed in range(2):
        game = Game.new(edition, 3, seed, bundle=bundle)
        bots = [RandomBot(seed * 11 + p) for p in range(3)]
        before = {v: hidden_from(game.state, v) for v in (0, 1, 2, None)}
        for _ in range(120):
            if game.over:
                break
            p = game.decision["player"]
            events = game.apply(answer_for(game, bots[p], p))
            for viewer in (0, 1, 2, None):
                before[viewer] = check_seat(game, events, viewer, before[viewer])


# ---------------------------------------------------------------- hostile play, through the protocol
HOSTILE_TABLES = {
    "base": {"players": 3},
    "echoes": {"players": 3, "sets": ["echoes"]},
    "echoes-4e": {"edition": "4e", "players": 2, "sets": ["echoes"]},
    "teams": {"players": 4, "options": {"teams": "random"}},
    "unseen": {"edition": "4e", "players": 3, "sets": ["unseen"]},       # the safe's secrets
    "cities": {"players": 3, "sets": ["cities"]},                         # Endorse among the actions
}
HOSTILE_STEPS = int(os.environ.get("INNOSCRIPT_HOSTILE_STEPS", "45"))   # decisions per table; the long profile: 400
CARD_KINDS = ("select_cards", "order", "initial_meld")


class Conn:
    """One connection to an in-process hub, keeping what it receives (replies and pushes)."""

    def __init__(self, hub, name, everyone):
        self.hub, self.name, self.everyone, self.inbox = hub, name, everyone, []

    def ask(self, msg):
        import json
        from protocol_client import check
        out = self.hub.handle(self.name, json.dumps(msg))
        for target, m in out:
            check("server", m)
            self.everyone[target].inbox.append((msg if target == self.name else None, m))
        return next(m for t, m in out if t == self.name)


def _probes(game, seat, d, seen_refs, rng):
    """Hostile answers to the seat's own decision, none of them legal: (answer, the item it names, group).
    Within a group every answer must be refused in the same words, the echo of what was sent aside."""
    from innoscript.runtime.api.views import token as card_handle
    state, kind = game.state, d["kind"]
    pending = state["pending"]
    hidden = sorted(hidden_from(state, seat))
    shown_refs = {o["ref"] for o in d["options"] if isinstance(o, dict) and "ref" in o}
    hidden_options = [o for o in pending["options"] if isinstance(o, int)
                      and not any(isinstance(s, dict) and s.get("id") == o for s in d["options"])]
    plain = [o for o in pending["options"] if not isinstance(o, dict)] if kind not in CARD_KINDS else []
    ids = hidden_options + rng.sample(hidden, min(6, len(hidden))) + [9999]
    boards = [c for pl in state["players"] for pile in pl["board"].values() for c in pile["cards"]]
    named = {o.get("card") if isinstance(o, dict) else o for o in pending["options"]}
    ids += [c for c in boards if c not in named][:2]          # visible cards, not options
    ids = [i for i in dict.fromkeys(ids) if not any(i == o and type(i) is type(o) for o in plain)]
    refs = [card_handle(state, c) for c in hidden_options] + sorted(seen_refs - shown_refs)[:6] + ["h" + "0" * 16]
    refs = [r for r in dict.fromkeys(refs) if r not in shown_refs and r not in plain]
    out = []
    for x in ids:
        out += [(x, x, "id"), ([x], x, "id list")]
        if kind in CARD_KINDS:
            out.append(({"id": x}, x, "id face"))
        if kind == "action":
            out += [({"type": "meld", "card": x}, x, "meld"), ({"type": "dogma", "card": x}, x, "dogma"),
                    ({"type": "achieve", "age": 1, "card": x, "from": "safe"}, x, "achieve from a zone"),
                    ({"type": "set_action", "action": "endorse", "card": x}, x, "set action")]
    for r in refs:
        out += [(r, r, "ref"), ([r], r, "ref list"), ({"ref": r}, r, "ref back"), ({"hidden": True, "ref": r}, r,
                                                                                   "ref back")]
    return out


def _normalised(text, answer, item):
    """A refusal without its echo of what was sent."""
    for sent in (repr(answer), repr(item)):
        if sent in text:
            return text.replace(sent, "X", 1)
    return text


@pytest.mark.parametrize("table", list(HOSTILE_TABLES))
def test_hostile_answers_show_no_seat_a_hidden_card(tmp_path, table):
    """Each seat in turn answers its own decisions with what an attacker would send (the ids of hidden cards, every
    handle it has been shown, handles of other places and decisions, in every form), others answer for it, with its
    token and without: every refusal, every error, every view and event received by every seat and a spectator
    names no card hidden from it; answers naming hidden cards are refused in the same words as any other wrong
    answer; and nothing changes until the seat's honest answer."""
    import json
    from innoscript.runtime.serving.protocol import Hub
    from innoscript.runtime.serving.store import Store
    from protocol_client import answer_for
    from leaks import announced, numbers_named, refs_in, shown_by
    hub = Hub(Store(tmp_path / "g.sqlite"), allow_seeds=True)
    spec = HOSTILE_TABLES[table]
    bundle = hub.bundle(spec.get("edition", "3e"), spec.get("sets", ()))
    rng = random.Random(table)
    tally = {"replies": 0, "refusals": 0, "named": 0, "games": 0}
    game = None
    for step in range(HOSTILE_STEPS):
        if game is None or hub.get(gid)["game"].over:   # a new game (the long profile plays several)
            conns = {}
            host = conns["host"] = Conn(hub, "host", conns)
            created = host.ask({"type": "create", "seed": 7 + tally["games"], **spec})
            gid, tokens, n = created["game"], created["seats"], created["players"]
            viewers = list(range(n)) + [None]
            for v in viewers:
                conns[v] = Conn(hub, v, conns)
                conns[v].ask({"type": "join", "game": gid, "player": v, **({} if v is None else {"token": tokens[v]})})
            tally["games"] += 1
        game = hub.get(gid)["game"]
        state = game.state
        seat = state["pending"]["player"]
        hidden = {v: hidden_from(state, v) - announced(state) for v in viewers}
        names = {v: [game.cards.name[c] for c in hidden[v]] for v in viewers}
        for c in conns.values():
            c.inbox.clear()
        me = conns[seat]
        d = me.ask({"type": "view", "game": gid, "player": seat, "token": tokens[seat]})["view"]["decision"]
        conns[None].ask({"type": "view", "game": gid})
        before = (game.save(), hub.store.version(gid))
        seen = refs_in([m for c in (me,) for _, m in c.inbox])
        words = {}
        for answer, item, group in _probes(game, seat, d, seen | set(getattr(me, "refs", set())), rng):
            reply = me.ask({"type": "answer", "game": gid, "player": seat, "token": tokens[seat],
                            "decision": d["id"], "answer": answer})
            assert reply["type"] == "error", (table, d["kind"], answer, reply)
            words.setdefault(group, set()).add(_normalised(reply["message"], answer, item))
        for group, said in words.items():
            assert len(said) == 1, (table, d["kind"], group, said)   # a probe tells nothing
        other = (seat + 1) % n
        undoer = next(q for q in range(n) if q != game.undo_player())
        for msg in ({"type": "answer", "game": gid, "player": other, "token": tokens[other], "decision": d["id"],
                     "answer": 0},                                                      # not its decision
                    {"type": "answer", "game": gid, "player": seat, "token": tokens[other], "answer": 0},  # a token
                    {"type": "answer", "game": gid, "player": seat, "token": tokens[seat], "decision": d["id"] - 1,
                     "answer": 0},                                                      # a stale decision
                    {"type": "answer", "game": gid, "player": seat, "token": tokens[seat], "answer": [True]},
                    {"type": "undo", "game": gid, "player": undoer, "token": tokens[undoer]}):
            reply = conns[[q for q in range(n) if tokens[q] == msg["token"]][0]].ask(msg)
            assert reply["type"] == "error", (msg, reply)
        assert (game.save(), hub.store.version(gid)) == before, "a refused answer changed the game"
        # the honest answer; the same answer on a copy gives the engine's events, to judge what each saw
        answer = answer_for(d, rng)
        copy = Game.load(game.save(), bundle=bundle)
        events = copy.apply_as_seen(answer, seat)
        reply = me.ask({"type": "answer", "game": gid, "player": seat, "token": tokens[seat], "decision": d["id"],
                        "answer": answer})
        assert reply["type"] == "update", reply
        me.refs = set(getattr(me, "refs", set())) | refs_in(reply)
        after = {v: hidden_from(copy.state, v) - announced(copy.state) for v in viewers}
        for v in viewers:
            for sent, m in conns[v].inbox:
                tally["replies"] += 1
                if m["type"] == "error":
                    tally["refusals"] += 1
                    allowed = {d["id"], d["player"], d.get("min", 0), d.get("max", 0), len(d.get("options") or []),
                               *d.get("sizes", []), *(ints_in(sent) if sent else set())}
                    allowed |= {x for o in d.get("options") or [] if not isinstance(o, dict) for x in ints_in(o)}
                    found = leaks(m, names[v], set()) + sorted(numbers_named(m["message"], hidden[v], allowed))
                elif m["type"] == "update" and m["version"] != before[1]:   # after the honest answer
                    ev = (hidden[v] & after[v]) - shown_by(events, v)
                    found = leaks(m["view"], [copy.cards.name[c] for c in after[v]], after[v]) + \
                        leaks(m["events"], [copy.cards.name[c] for c in ev], ev)
                else:
                    found = leaks(m, names[v], hidden[v])
                tally["named"] += len(found)
                assert not found, (table, v, found, json.dumps(m)[:400])
    print(f"\n{table}: {step + 1} decisions in {tally['games']} game(s), {tally['replies']} replies and pushes checked "
          f"({tally['refusals']} refusals), {tally['named']} hidden cards named")
    assert tally["refusals"] > 20 * step
