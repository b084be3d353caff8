"""The Unseen's last three engine concepts, on their cards: an execution decided by another player
(Hitchhiking: the decider answers for the performer and sees the performer's hidden cards only while it
runs), an execution replacing 'may' with 'must' (Blackmail) and the game's seeded coin (Quantum Computers:
the same flips after a save, other flips in a bot's sampled world, no undo past a flip). The cards' rules
are played by the scenarios under tests/scenarios/unseen-4e/; here what a scenario cannot see."""
import json
from pathlib import Path

import pytest
import yaml

from innoscript.compiler.bundle import load_bundle
from innoscript.compiler.verifier import VerifyError, verify
from innoscript.core import opcodes as O
from innoscript.runtime import BadSave, Game
from innoscript.runtime.api.views import reveals_hidden
from innoscript.runtime.rules.chance import coin
from innoscript.runtime.tools import scenario
from leaks import hidden_from, leaks

UNSEEN = Path(__file__).parent / "scenarios" / "unseen-4e"


def _game(path: Path, players: int | None = None, extra: dict | None = None) -> Game:
    data = yaml.safe_load(path.read_text())
    if players:
        data["players"] = players
        data["setup"]["players"] += [{}] * (players - len(data["setup"]["players"]))
    data.update(extra or {})
    e = scenario.build_state(data, load_bundle("4e", sets=data["sets"]))
    e.advance()
    e.answer(scenario.action(e, data["do"], str(path)))
    return Game(e)


def _names(game, seat, zone):
    pl = game.view(seat)["players"][0]
    return sorted(c["name"] for c in pl[zone]) if isinstance(pl[zone], list) else None


def test_the_decider_answers_for_the_performer_and_sees_their_cards_only_meanwhile():
    game = _game(UNSEEN / "age8/hitchhiking-the-driver-decides.yaml", players=3)
    name = game.cards.by_name
    assert game.decision["kind"] == "choose" and game.decision["what"] == "player"
    game.apply(1)                                                # player 2 drives
    d = game.decision
    assert d["player"] == 1 and "for" not in d                 # the driver gives a card from their own hand
    events = game.apply([name["Agriculture"]], player=1)
    assert next(e for e in events if e["type"] == "execute")["decider"] == [0, 1]
    d = game.decision
    assert d["player"] == 1 and d["for"] == 0 and d["source"] == "Agriculture"   # Agriculture's 'may', for player 1
    assert _names(game, 1, "hand") == ["Archery", "Writing"]    # the driver sees the rider's hand ...
    assert _names(game, 2, "hand") is None                       # ... a third player does not,
    assert _names(game, None, "hand") is None                    # nor does a spectator
    options = game.view(1)["decision"]["options"]
    assert sorted(o["name"] for o in options) == ["Archery", "Writing"]
    for seat in (2, None):                                       # nothing names the rider's hand to the others
        ids = hidden_from(game.state, seat)
        assert not leaks(game.view(seat), [game.cards.name[c] for c in ids], ids)
    game.apply([name["Archery"]], player=1)
    assert game.decision["kind"] == "action"
    assert _names(game, 1, "hand") is None                       # the execution is over: hidden again


def test_no_undo_goes_back_past_an_execution_decided_by_another_player():
    game = _game(UNSEEN / "age8/hitchhiking-the-driver-decides.yaml")
    since = []
    since += game.apply([game.cards.by_name["Agriculture"]], player=1)
    since += game.apply([game.cards.by_name["Archery"]], player=1)
    assert reveals_hidden(since, people=[1]) and not game.undoable(people=[0])   # player 2 saw player 1's hand


def test_a_flip_is_the_same_after_a_save_and_no_undo_goes_back_past_it():
    path = UNSEEN / "age11/quantum-computers-lost-flip-returns-a-secret-and-repeats.yaml"
    game = _game(path)
    saved = game.save()
    events = game.apply([game.cards.by_name["Sailing"]])
    flips = [e["won"] for e in events if e["type"] == "coin_flip"]
    again = Game.load(saved)
    replay = [e["won"] for e in again.apply([again.cards.by_name["Sailing"]]) if e["type"] == "coin_flip"]
    assert flips == replay == [True]                             # the repeat's flip, as seed 5 gives it
    assert json.loads(again.save())["flips"] == 3
    assert reveals_hidden([{"type": "coin_flip", "player": 0, "won": True}], people=[0])
    assert not game.undoable()


def test_the_coin_is_fair_and_keyed_by_the_games_secret():
    heads = sum(coin({"secret": "s", "seed": 1}, n) for n in range(2000))
    assert 900 < heads < 1100
    a = [coin({"secret": "a", "seed": 1}, n) for n in range(64)]
    b = [coin({"secret": "b", "seed": 1}, n) for n in range(64)]
    c = [coin({"secret": "a", "seed": 2}, n) for n in range(64)]
    assert a != b and a != c                                     # a server's secret, a sampled world's seed


def test_must_applies_to_the_execution_only():
    """Blackmail's demand: Agriculture's 'may' is done without a question in the execution; the same card's
    'may' asked in a Dogma of its own afterwards (the frames' flag ends with the execution)."""
    data = yaml.safe_load((UNSEEN / "age4/blackmail-meld-and-self-execute-with-must.yaml").read_text())
    out = scenario.run(UNSEEN / "age4/blackmail-meld-and-self-execute-with-must.yaml")
    assert out.passed, out.failures
    e = scenario.build_state(data, load_bundle("4e", sets=["unseen"]))
    e.advance()
    e.answer(scenario.action(e, data["do"], "blackmail"))
    e.answer([e.cards.by_name["Writing"]])
    e.answer([e.cards.by_name["Agriculture"]])
    assert e.pending["kind"] == "action"                       # no 'may' was asked
    assert not any(f.get("must") for f in (e.state.get("dogma") or {}).get("stack", []))


def _saved_inside_hitchhiking() -> dict:
    game = _game(UNSEEN / "age8/hitchhiking-the-driver-decides.yaml")
    game.apply([game.cards.by_name["Agriculture"]], player=1)     # waiting at Agriculture's 'may', for player 1
    return json.loads(game.save())


def test_a_saved_game_inside_a_decided_execution_resumes_with_its_decider():
    data = _saved_inside_hitchhiking()
    assert any(e.get("decider") == [0, 1] for e in data["dogma"]["stack"])
    game = Game.load(json.dumps(data))
    assert game.decision["player"] == 1 and game.decision["for"] == 0


@pytest.mark.parametrize("spoil", [
    lambda e: e.__setitem__("decider", [0, 0]),            # deciding for oneself
    lambda e: e.__setitem__("decider", [0, 7]),            # no such player
    lambda e: e.__setitem__("decider", 1),                 # not a pair
    lambda e: e.__setitem__("must", "yes"),                # must is true or absent
])
def test_hostile_execution_options_in_a_save_are_refused(spoil):
    data = _saved_inside_hitchhiking()
    for entry in data["dogma"]["stack"]:
        if entry.get("decider"):
            spoil(entry)
    with pytest.raises(BadSave):
        Game.load(json.dumps(data))


@pytest.mark.parametrize("flags", [0, 4, 7, -1])
def test_bad_execute_with_flags_are_refused_by_the_verifier(flags):
    chunk = {"kind": "non_demand", "consts": [None], "locals": [], "lines": [[1, 1]] * 4, "max_stack": 2,
             "code": [[O.CONST, 0], [O.CONST, 0], [O.EXECUTE_WITH, 0, flags], [O.RETURN]]}
    with pytest.raises(VerifyError, match="EXECUTE_WITH: flag operand"):
        verify(chunk)
