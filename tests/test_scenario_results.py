"""The remembered scenario results (runtime/tools/scenario_results.py) are the results of running the files:
a changed file is run again, and a damaged cache file is ignored."""
import json

from conftest import ROOT
from innoscript.compiler.bundle import load_bundle
from innoscript.runtime.tools.scenario_results import scenario_results

SOURCE = ROOT / "tests" / "scenarios" / "3e" / "age1" / "archery-demand.yaml"


def test_a_changed_file_is_run_again_and_a_damaged_cache_is_ignored(tmp_path, monkeypatch):
    monkeypatch.setenv("INNOSCRIPT_CACHE", str(tmp_path / "cache"))
    bundle = load_bundle("3e")
    path = tmp_path / "s.yaml"
    path.write_text(SOURCE.read_text(encoding="utf-8"), encoding="utf-8")
    first = scenario_results([path], bundle)[path]
    assert first["passed"] and first["effects"]
    assert scenario_results([path], bundle)[path] == first          # from the cache
    assert scenario_results([path], bundle, use_cache=False)[path] == first
    # the same file made wrong: a new key, so it is run, and it fails
    text = SOURCE.read_text(encoding="utf-8").replace("hand: [Oars]", "hand: [Oars, Archery]")
    assert text != SOURCE.read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    assert scenario_results([path], bundle)[path]["passed"] is False
    # a cache file claiming the wrong thing in the wrong shape is not believed
    (store,) = (tmp_path / "cache").glob("scenario-results-*.json")
    store.write_text(json.dumps({k: {"passed": "yes"} for k in json.loads(store.read_text())}), encoding="utf-8")
    assert scenario_results([path], bundle)[path]["passed"] is False
    store.write_text("{not json", encoding="utf-8")
    assert scenario_results([path], bundle)[path]["passed"] is False
