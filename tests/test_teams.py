"""Options and 2 vs 2 team play: the options schema at every entry point, seating, saves, views,
the team invariants (and that they can fail), and a small checked run per edition and seating.
The team rules themselves are proved by the scenarios in tests/scenarios/*/teams/."""
import json
import subprocess
import sys

import pytest

from innoscript.runtime import Game
from innoscript.runtime.bots import RandomBot
from innoscript.runtime.api.game import BadSave
from innoscript.runtime.rules.invariants import team_violations, violations
from innoscript.runtime.rules.options import OptionsError, normalise
from innoscript.runtime.tools.soak import soak

SEATINGS = ["random", "1+2", "1+3", "1+4"]


def test_defaults_fill_in_and_bad_options_name_the_option():
    assert normalise(None) == {"teams": "none", "extra_achievement": False}
    assert normalise({"teams": "1+3"}, 4)["teams"] == "1+3"
    with pytest.raises(OptionsError, match="teams"):
        normalise({"teams": "2+3"}, 4)
    with pytest.raises(OptionsError, match="'colour' was unexpected"):
        normalise({"colour": "red"})
    with pytest.raises(OptionsError, match="exactly 4 players, not 3"):
        normalise({"teams": "random"}, 3)
    with pytest.raises(OptionsError, match="exactly 4 players"):
        Game.new("3e", 2, options={"teams": "1+2"})


@pytest.mark.parametrize("pairing,partner", [("1+2", 1), ("1+3", 2), ("1+4", 3)])
def test_each_pairing_seats_partners_across(pairing, partner):
    game = Game.new("3e", 4, seed=5, options={"teams": pairing})
    st = game.state
    assert st["teams"][0] == [0, partner]
    seats = st["seating"]
    assert seats[0] == 0 and seats[2] == partner          # across from player 1
    # turns alternate between the teams
    team = {p: i for i, t in enumerate(st["teams"]) for p in t}
    assert [team[p] for p in seats] == [0, 1, 0, 1]


def test_random_teams_follow_the_seed():
    pairs = {tuple(Game.new("3e", 4, seed=s, options={"teams": "random"}).state["teams"][0]) for s in range(20)}
    assert pairs == {(0, 1), (0, 2), (0, 3)}
    a = Game.new("3e", 4, seed=7, options={"teams": "random"}).save()
    b = Game.new("3e", 4, seed=7, options={"teams": "random"}).save()
    assert a == b


def test_options_do_not_change_a_classic_game():
    plain = json.loads(Game.new("3e", 4, seed=3).save())
    explicit = json.loads(Game.new("3e", 4, seed=3, options={"teams": "none", "extra_achievement": False}).save())
    assert plain == explicit and "teams" not in plain


def _play(game, decisions, seed=1):
    bots = [RandomBot(seed + p) for p in range(4)]
    for _ in range(decisions):
        if game.over:
            break
        game.apply(bots[game.decision["player"]].answer(game.decision, game.cards))
    return game


def test_saved_team_game_resumes_and_bad_teams_are_refused():
    game = _play(Game.new("4e", 4, seed=2, options={"teams": "1+2", "extra_achievement": True}), 80)
    text = game.save()
    again = Game.load(text)
    assert again.state["teams"] == [[0, 1], [2, 3]] and again.state["options"]["extra_achievement"] is True
    data = json.loads(text)
    data["seating"] = [0, 1, 2, 3]                      # partners side by side
    with pytest.raises(BadSave, match="across"):
        Game.load(data)
    data = json.loads(text)
    data["options"]["teams"] = "1+5"
    with pytest.raises(BadSave, match="options: teams"):
        Game.load(data)
    data = json.loads(text)
    data["options"]["teams"] = "none"
    with pytest.raises(BadSave, match="teams are given"):
        Game.load(data)


def test_views_show_partners_and_team_totals():
    game = _play(Game.new("3e", 4, seed=4, options={"teams": "1+4"}), 150)
    v = game.view(1)
    assert [p["partner"] for p in v["players"]] == [3, 2, 1, 0]
    assert v["seating"] == [0, 1, 3, 2] and v["options"]["teams"] == "1+4"
    for t in v["teams"]:
        assert t["achievements"] == sum(v["players"][p]["achievements"]["count"] for p in t["players"])
        assert t["points"] == sum(v["players"][p]["points"] for p in t["players"])
    assert Game.new("3e", 2).view(0)["teams"] is None


def test_team_invariants_can_fail():
    game = _play(Game.new("3e", 4, seed=6, options={"teams": "1+3"}), 40)
    assert not violations(game.engine)
    st = game.state
    st["seating"] = [0, 2, 1, 3]
    assert any("across" in v for v in team_violations(game.engine))
    st["seating"] = [0, 1, 2, 3]
    demand = next(c for c in game.cards.cards if any(e["kind"] == "demand" for e in c["effects"]))
    e = next(i for i, x in enumerate(demand["effects"]) if x["kind"] == "demand")
    st["dogma"] = {"stack": [{"work": [[demand["id"], e, 2, 0, False]]}]}
    assert any("partner" in v for v in team_violations(game.engine))
    st["dogma"] = None
    st["result"] = {"winners": [0], "reason": "effect", "card": None}
    assert any("whole teams" in v for v in team_violations(game.engine))


@pytest.mark.parametrize("edition", ["3e", "4e"])
@pytest.mark.parametrize("seating", SEATINGS)
def test_small_checked_run_per_seating(edition, seating):
    r = soak(edition, 4, 2, seed=500, jobs=1, options={"teams": seating})
    assert r["games"] == 2 and r["decisions"] > 0
    assert r["violations"] == 0 and r["errors"] == 0, r["samples"]


def test_command_line_takes_the_same_options(tmp_path):
    run = [sys.executable, "-m", "innoscript.cli"]
    r = subprocess.run(run + ["simulate", "--edition", "3e", "--players", "4", "--games", "2", "--jobs", "1",
                              "--options", '{"teams": "1+2"}', "--format", "json"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["games"] == 2
    f = tmp_path / "opts.json"
    f.write_text('{"teams": "1+3", "extra_achievement": true}')
    r = subprocess.run(run + ["soak", "--players", "3", "--games", "1", "--options", str(f)], capture_output=True, text=True)
    assert r.returncode == 2 and "exactly 4 players" in r.stderr and "Traceback" not in r.stderr


def test_the_protocol_creates_team_games_and_refuses_bad_options(tmp_path):
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
    from test_protocol import Stdio
    s = Stdio(tmp_path / "g.sqlite")
    try:
        created = s.ask({"type": "create", "edition": "4e", "players": 4, "seed": 3,
                         "options": {"teams": "1+2", "extra_achievement": True}})[0]
        view = s.ask({"type": "view", "game": created["game"], "player": None})[0]["view"]
        assert view["options"] == {"teams": "1+2", "extra_achievement": True}
        assert view["seating"] == [0, 2, 1, 3] and [t["players"] for t in view["teams"]] == [[0, 1], [2, 3]]
        bad = s.ask({"type": "create", "players": 3, "options": {"teams": "1+2"}})[0]
        assert bad["type"] == "error" and "exactly 4 players" in bad["message"]
    finally:
        s.close()
