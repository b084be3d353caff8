"""A set's game-wide zones (scope game: 'the NAME') and cards with a home, with a made-up set
(tests/corpus/shared-zones: 'gallery', 3rd edition): the vault (seen by all, at most two cards, its verb
'stash'), the crypt (face down) and the shrine (the Idol starts there and comes back when returned).
docs/engine-concepts.md, "Shared zones and cards with a home"."""
import copy
import io
import json
from pathlib import Path

import jsonschema
import pytest

from innoscript.compiler.bundle import load_bundle
from innoscript.core.diagnostics import CompileError
from innoscript.core.editions import load_edition, schema
from innoscript.runtime import BadSave, Game
from innoscript.runtime.rules.invariants import violations
from innoscript.runtime.state.positions import place, remove_from_anywhere
from innoscript.runtime.tools import scenario as S

ROOT = Path(__file__).parent / "corpus" / "shared-zones"
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))
VIEW = jsonschema.Draft202012Validator({"$defs": schema("protocol.schema.json")["$defs"], "$ref": "#/$defs/view_body"})


@pytest.fixture
def gallery(monkeypatch):
    monkeypatch.setenv("INNOSCRIPT_CARDS", str(ROOT))
    return load_bundle("3e", sets=("gallery",))


def _game(bundle, seed=1) -> Game:
    game = Game.new("3e", 2, seed, bundle=bundle)
    st, cards = game.state, game.cards
    for zone, names in (("vault", ["Sailing"]), ("crypt", ["Oars", "Clothing"])):
        for name in names:
            cid = cards.by_name[name]
            remove_from_anywhere(st, cid)
            place(cards, st, cid, zone, None)
    return game


# ---------------------------------------------------------------- scripts fill and empty them

@pytest.mark.parametrize("path", SCENARIOS, ids=[p.name for p in SCENARIOS])
def test_scenarios(path, gallery):
    out = S.run(path)
    assert out.passed, "\n".join(out.failures)


def test_a_scenario_naming_an_unknown_game_wide_zone_is_refused(gallery, tmp_path):
    text = (ROOT / "scenarios" / "borrower-empties-the-vault.yaml").read_text().replace("{vault: [Oars]}", "{attic: [Oars]}")
    (tmp_path / "bad.yaml").write_text(text)
    with pytest.raises(S.ScenarioError, match="no game-wide zone 'attic'.*crypt"):
        S.run(tmp_path / "bad.yaml")


# ---------------------------------------------------------------- set-up, state, invariants

def test_the_zones_are_the_games_and_the_idol_starts_in_its_shrine(gallery):
    game = Game.new("3e", 2, 7, bundle=gallery)
    st, cards = game.state, game.cards
    idol = cards.by_name["Idol"]
    assert st["zones"] == {"crypt": [], "shrine": [idol], "vault": []}
    assert all("zones" not in pl for pl in st["players"])        # no per-player zone declared
    assert all(idol not in pile for piles in st["set_supply"].values() for pile in piles.values())
    assert cards.home == {idol: "shrine"} and violations(game.engine) == []
    # no set declares one: no key at all (the Echoes games stay as they were)
    assert "zones" not in Game.new("3e", 2, 7, bundle=load_bundle("3e", sets=("echoes",))).state


def test_invariants_see_a_card_twice_and_a_card_with_a_home_in_a_pile(gallery):
    game = _game(gallery)
    st, cards = game.state, game.cards
    st["zones"]["vault"].append(st["players"][0]["hand"][0])
    assert any("more than one place" in v for v in violations(game.engine))
    game = _game(gallery)
    idol = game.cards.by_name["Idol"]
    game.state["zones"]["shrine"].remove(idol)
    game.state["set_supply"]["gallery"]["1"].append(idol)
    assert any("start in a game-wide zone are in a supply pile" in v for v in violations(game.engine))
    del game.state["zones"]["crypt"]
    assert any("game-wide zones" in v for v in violations(game.engine))


# ---------------------------------------------------------------- views

def test_every_seat_and_spectators_see_the_zones_by_their_visibility(gallery):
    game = _game(gallery)
    cards = game.cards
    for viewer in (0, 1, None):
        v = game.view(viewer)
        zones = v["zones"]
        assert [c["name"] for c in zones["vault"]["cards"]] == ["Sailing"] and zones["vault"]["limit"] == 2
        assert zones["crypt"] == {"count": 2, "ages": [1, 1], "limit": None}
        assert [c["name"] for c in zones["shrine"]["cards"]] == ["Idol"]
        assert "Oars" not in json.dumps(v) and "Clothing" not in json.dumps(v)
        errors = list(VIEW.iter_errors(v))
        assert not errors, errors[0].message
    # a card put into the face-down crypt is named in events only to the player whose hand it came from
    from innoscript.runtime.api.views import event_view
    ev = {"type": "transfer", "player": 0, "to": None, "zone": "crypt", "card": cards.by_name["Oars"],
          "from": "hand", "from_player": 0, "shared": True}
    assert all(event_view(cards, game.state, ev, who)["card"] == {"hidden": True, "age": 1} for who in (1, None))
    assert event_view(cards, game.state, ev, 0)["card"]["name"] == "Oars"     # it was never hidden from them


def test_the_terminal_lists_the_zones(gallery):
    from rich.console import Console
    from innoscript.runtime.serving.terminal import Terminal
    out = io.StringIO()
    game = _game(gallery)
    Terminal(game, ["human", "human"], Console(file=out, width=150), 0, input).show(0)
    text = out.getvalue()
    assert "the vault (1 card(s), at most 2): " in text and "Sailing" in text
    assert "the crypt (2 card(s)): face down, ages 1 1" in text and "Oars" not in text
    assert "the shrine (1 card(s)): " in text


def test_the_web_app_lists_the_zones():
    js = (Path(__file__).parent.parent / "runtime" / "serving" / "web" / "app.js").read_text()
    assert "Object.entries(v.zones || {})" in js


# ---------------------------------------------------------------- saved games

def test_a_saved_game_with_the_zones_loads_and_plays_on(gallery):
    game = _game(gallery)
    data = json.loads(game.save())
    again = Game.load(json.dumps(data), bundle=gallery)
    assert again.state["zones"] == game.state["zones"] and again.view(None)["zones"] == game.view(None)["zones"]


@pytest.mark.parametrize("change,words", [
    (lambda d: d["zones"]["vault"].append(d["players"][0]["hand"][0]), "cards in more than one place"),
    (lambda d: d["zones"].update(attic=[]), "game-wide zones ['attic', 'crypt', 'shrine', 'vault'] are not"),
    (lambda d: d["zones"].pop("crypt"), "cards missing"),
    (lambda d: d.pop("zones"), "cards missing"),
    (lambda d: d["zones"].update(vault=[10 ** 6]), "unknown card ids"),
    (lambda d: d["zones"].update(vault="Sailing"), "zones/vault"),
    (lambda d: d["zones"]["shrine"].clear() or d["set_supply"]["gallery"]["1"].append(d["zones_idol"]),
     "start in a game-wide zone are in a supply pile"),
])
def test_a_hostile_save_is_refused_clearly(gallery, change, words):
    game = _game(gallery)
    data = json.loads(game.save())
    data["zones_idol"] = game.cards.by_name["Idol"]
    change(data)
    data.pop("zones_idol")
    with pytest.raises(BadSave, match="saved game") as err:
        Game.load(json.dumps(data), bundle=gallery)
    assert words in str(err.value), err.value


def test_a_save_with_zones_no_set_declares_is_refused(gallery):
    plain = Game.new("3e", 2, 1, bundle=load_bundle("3e", sets=("echoes",)))
    data = json.loads(plain.save())
    data["zones"] = {"vault": []}
    with pytest.raises(BadSave, match="game-wide zones \\['vault'\\] are not the sets' game-wide zones \\[\\]"):
        Game.load(json.dumps(data))


# ---------------------------------------------------------------- manifests and scripts

def _set(root: Path, zones: dict, effect: str = "draw [1]", name: str = "oddity"):
    folder = root / "sets" / name / "3e"
    (folder / "age1").mkdir(parents=True, exist_ok=True)
    (folder / "set.json").write_text(json.dumps({"set": name, "edition": "3e", "label": "Oddity", "ages": [1],
                                                 "cards_expected": 1, "zones": zones}))
    (folder / "age1" / "trinket.inno").write_text(
        f'card "Trinket" {{\n    set {name}\n    age 1\n    color red\n    icons hex castle castle castle\n'
        f'    dogma castle\n}}\n\neffect {{\n    {effect}\n}}\n')


@pytest.mark.parametrize("zones,words", [
    ({"pit": {"scope": "game", "visibility": "owner"}}, "seen by all or by none"),
    ({"pit": {"visibility": "none"}}, "seen by its owner or by all"),
    ({"pit": {"scope": "game", "visibility": "all", "actions": ["meld"]}}, "not from a game-wide one"),
    ({"pit": {"scope": "game", "visibility": "all", "cards": ["Nothing At All"]}}, "'Nothing At All', no card of the game"),
    ({"pit": {"visibility": "all", "cards": ["Trinket"]}}, "only a game-wide zone"),
    ({"pit": {"scope": "game", "visibility": "all", "return_to_home": True}}, "return_to_home needs the cards"),
    ({"top": {"scope": "game", "visibility": "all"}}, "game-wide zone 'top' is a word of the language"),
])
def test_a_bad_game_wide_zone_is_refused_where_it_is_declared(tmp_path, monkeypatch, zones, words):
    monkeypatch.setenv("INNOSCRIPT_CARDS", str(tmp_path))
    _set(tmp_path, zones)
    with pytest.raises(CompileError) as err:
        load_bundle("3e", sets=("oddity",), use_cache=False)
    assert words in str(err.value), err.value


def test_a_script_naming_an_unknown_game_wide_zone_is_e211(tmp_path, monkeypatch):
    monkeypatch.setenv("INNOSCRIPT_CARDS", str(tmp_path))
    _set(tmp_path, {"pit": {"scope": "game", "visibility": "all"}}, "take a card from the pot")
    with pytest.raises(CompileError) as err:
        load_bundle("3e", sets=("oddity",), use_cache=False)
    assert "E211" in str(err.value) and "the pot" in str(err.value) and "pit" in str(err.value)


def test_a_bundle_naming_a_zone_no_set_declares_is_refused(gallery):
    from innoscript.compiler.bundle import check_bundle
    bad = copy.deepcopy(gallery)
    lender = next(c for c in bad["cards"] if c["name"] == "Lender")
    lender["effects"][0]["consts"] = ["attic" if x == "vault" else x for x in lender["effects"][0]["consts"]]
    with pytest.raises(CompileError, match="zone 'attic' is not one the sets in play declare"):
        check_bundle(bad)
    bad = copy.deepcopy(gallery)
    bad["sets"]["gallery"]["zones"]["crypt"]["cards"] = ["Idol"]     # one card, two homes
    with pytest.raises(CompileError, match="each in one game-wide zone once"):
        check_bundle(bad)


def test_a_condition_reading_a_game_wide_zone_reads_it():
    from innoscript.compiler.bundle import compile_condition, vocabulary
    ed = load_edition("3e")
    vocab = vocabulary(ed.manifest, ed.card_names, [{"set": "x", "ages": [1], "zones": {"vault": {"scope": "game"}}}])
    from innoscript.core.readsets import read_set
    assert read_set(compile_condition("count(the vault) > 1", "t", vocab)) == ["shared"]


# ---------------------------------------------------------------- cards with a home

def test_a_card_with_a_home_comes_back_to_it_from_anywhere_and_the_others_go_to_their_piles(gallery):
    game = _game(gallery)
    eng, st, cards = game.engine, game.state, game.cards
    idol, sailing = cards.by_name["Idol"], cards.by_name["Sailing"]
    for where in ("achievements", "score", "hand"):   # another player's achievements too
        remove_from_anywhere(st, idol)
        place(cards, st, idol, where, 1)
        frame = {"you": 0, "kind": "effect"}
        assert eng.move(frame, [idol], "return") == [idol]
        assert st["zones"]["shrine"] == [idol] and violations(eng) == []
    remove_from_anywhere(st, idol)
    place(cards, st, idol, "hand", 0)
    eng.move({"you": 0, "kind": "effect"}, [idol], "place")     # on top of its deck: home all the same
    assert st["zones"]["shrine"] == [idol]
    assert eng.events[-1]["type"] == "place" and eng.events[-1]["zone"] == "shrine" and eng.events[-1]["shared"]
    # a card of a zone that is not its home goes to its own pile
    eng.move({"you": 0, "kind": "effect"}, [sailing], "return")
    assert st["zones"]["vault"] == [] and st["supply"]["1"][-1] == sailing and violations(eng) == []


def test_a_script_writing_a_zone_the_other_way_is_told_how(tmp_path, monkeypatch):
    monkeypatch.setenv("INNOSCRIPT_CARDS", str(ROOT))
    from innoscript.compiler.bundle import compile_card, vocabulary
    from innoscript.core.editions import available_sets
    ed = load_edition("3e", sets=available_sets("3e"))
    vocab = vocabulary(ed.manifest, ed.card_names, ed.sets)
    head = 'card "X" {\n age 1\n color red\n icons hex leaf leaf leaf\n dogma leaf\n}\n'
    for body, hint in (("take a card from your vault", "write 'the vault'"),
                       ("take a card from the forecast", "write 'your forecast'")):
        with pytest.raises(CompileError) as err:
            compile_card(head + "effect {\n    " + body + "\n}\n", "x.inno", vocab)
        assert "E211" in err.value.render() and hint in err.value.render(), err.value.render()
