"""The bot-strength benchmark's run in parts: parts combine into one table, a game counted once, and parts
played with other search settings are refused."""
import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("bots_benchmark", ROOT / "benchmarks" / "bots.py")
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def run(tmp_path, name, *args):
    out = tmp_path / name
    assert bench.main(["--editions", "3e", "--pairings", "heuristic-random", "--json", str(out), *args]) == 0
    return out


def test_parts_combine_into_one_table(tmp_path, capsys):
    a = run(tmp_path, "a.json", "--games", "1")
    b = run(tmp_path, "b.json", "--games", "1", "--first-game", "1")
    assert [g["game"] for g in json.loads(b.read_text())["games"]] == [1]
    capsys.readouterr()
    assert bench.main(["--combine", str(a), str(b), str(a)]) == 0   # a part given twice counts once
    row = capsys.readouterr().out.splitlines()[2].split("|")
    assert [c.strip() for c in row[1:4]] == ["3e", "heuristic-random", "2"]
    whole = run(tmp_path, "whole.json", "--games", "2")
    assert json.loads(whole.read_text())["games"] == json.loads(a.read_text())["games"] + json.loads(b.read_text())["games"]


def test_parts_with_other_settings_are_refused(tmp_path):
    a = run(tmp_path, "a.json", "--games", "1")
    b = run(tmp_path, "b.json", "--games", "1", "--first-game", "1", "--search-option", "prune=3")
    with pytest.raises(SystemExit, match="settings"):
        bench.combine([str(a), str(b)])
    (tmp_path / "junk.json").write_text("[1, 2]")
    with pytest.raises(SystemExit, match="not a --json file"):
        bench.combine([str(tmp_path / "junk.json")])
    bad = json.loads(a.read_text())
    bad["games"][0]["outcome"] = "won"
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    with pytest.raises(SystemExit, match="malformed"):
        bench.combine([str(tmp_path / "bad.json")])


@pytest.mark.parametrize("wins,n,lo,hi", [(0, 10, 0.0, 0.28), (10, 10, 0.72, 1.0), (140, 200, 0.63, 0.76)])
def test_win_rate_interval(wins, n, lo, hi):
    a, b = bench.wilson(wins, n)
    assert a == pytest.approx(lo, abs=0.01) and b == pytest.approx(hi, abs=0.01)


def test_a_game_that_does_not_end_is_stopped_and_counted_unfinished(monkeypatch):
    monkeypatch.setattr(bench, "MAX_DECISIONS", 30)
    r = bench.one_game(("3e", "heuristic", "random", 0, {}, {}))
    assert r["outcome"] == "unfinished" and r["turns"] < 30
    row = bench.table([r], ["3e"], ["heuristic-random"]).splitlines()[2].split("|")
    assert [c.strip() for c in row[4:9]] == ["0", "0", "0", "1", "0% (0%-79%)"]


def test_the_table_gives_the_search_times_and_those_over_the_limit():
    records = [{"edition": "3e", "pairing": "search-heuristic", "game": g, "outcome": "win", "turns": 9,
                "search_times": [0.5] * 18 + [1.5, 2.5], "search_cpu": [0.4] * 20} for g in range(2)]
    records.append({**records[0], "game": 2, "search_cpu": [3.0]})
    del records[1]["search_cpu"]               # a game recorded before CPU times were kept
    row = bench.table(records, ["3e"], ["search-heuristic"]).splitlines()[2].split("|")
    assert row[9].strip() == "0.65, 1.50, 2.50" and row[10].strip() == "3 of 60"
    assert row[11].strip() == "0.52, 0.40, 3.00 (2)" and row[12].strip() == "1 of 21"


def test_two_settings_of_the_search_bot_play_each_other(monkeypatch, tmp_path, capsys):
    """search-search: the second bot has the first's budget with --opponent-option's settings; seats
    alternate by game, the outcome is the first bot's and only its decisions are timed."""
    from innoscript.runtime import bots
    made = []
    real = bots.make_bot
    monkeypatch.setattr(bots, "make_bot", lambda kind, seed, **o: made.append((kind, o)) or real(kind, seed, **o))
    monkeypatch.setattr(bench, "MAX_DECISIONS", 60)
    out = tmp_path / "ss.json"
    assert bench.main(["--editions", "3e", "--pairings", "search-search", "--games", "1", "--first-game", "1",
                       "--search-iterations", "2", "--opponent-option", "root=ucb", "--json", str(out)]) == 0
    assert made == [("search", {"iterations": 2, "root": "ucb"}), ("search", {"iterations": 2})]  # game 1: first sits second
    data = json.loads(out.read_text())
    assert data["budget"]["opponent"] == {"root": "ucb"}
    [r] = data["games"]
    assert r["outcome"] in ("win", "loss", "tie", "unfinished") and 0 < len(r["search_times"]) < 60
    with pytest.raises(SystemExit):
        bench.main(["--pairings", "heuristic-random", "--opponent-option", "root=ucb"])
    with pytest.raises(SystemExit):
        bench.main(["--pairings", "search-search", "--opponent-option", "=1"])
