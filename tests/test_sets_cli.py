"""Sets are chosen the same way on every subcommand that loads an edition (``--sets echoes``), a wrong
set is a one-line misuse, and an incomplete set is reported wherever it is chosen."""
import json
import os
import subprocess
import sys

import pytest

from innoscript import cli

# cards and coverage report per set with their own --sets
LOADERS = sorted(n for n, p in cli.build_parser()._subparsers._group_actions[0].choices.items()
                 if any(o in a.option_strings for a in p._actions for o in ("--edition", "--from"))
                 and n not in ("cards", "coverage"))


def _options(name):
    sub = cli.build_parser()._subparsers._group_actions[0].choices[name]
    return {o for a in sub._actions for o in a.option_strings}


@pytest.mark.parametrize("name", LOADERS)
def test_every_subcommand_that_loads_an_edition_takes_sets(name):
    assert "--sets" in _options(name), name


def test_the_loaders_include_the_game_commands():
    assert {"play", "simulate", "soak", "errata", "compile", "check", "render", "dis", "diff"} <= set(LOADERS)
    assert "--sets" in _options("scenario")


MISUSES = [
    ("play --sets echos", "unknown set 'echos' given to --sets (known: artifacts, cities, echoes, relics, unseen); did you mean 'echoes'?"),
    ("play --edition 1e --sets echoes", "set 'echoes' has no 1e edition (it has: 3e, 4e)"),
    ("simulate --sets echoes,nope", "unknown set 'nope'"),
    ("soak --sets ../../etc", "unknown set '../../etc'"),
    ("soak --edition 1e --sets echoes", "has no 1e edition"),
    ("scenario --sets nope tests/scenarios/1e", "unknown set 'nope'"),
    ("errata --sets echo --reference x.json", "did you mean 'echoes'?"),
    ("dis Bangle --edition 1e --sets echoes", "has no 1e edition"),
    ("diff --from 1e --sets echoes", "has no 1e edition"),
    ("render Bangle --sets /etc", "unknown set '/etc'"),
    ("compile --edition 3e --sets echos", "unknown set 'echos'"),
    ("check --sets x", "unknown set 'x'"),
]


@pytest.mark.parametrize("argv,message", MISUSES, ids=[m[0] for m in MISUSES])
def test_a_wrong_set_is_one_line_and_exit_2(capsys, argv, message):
    code = cli.main(argv.split())
    out = capsys.readouterr()
    lines = out.err.strip().splitlines()
    assert code == 2 and len(lines) == 1, out.err
    assert message in lines[0] and lines[0].startswith("error[E500]: ")
    assert "Traceback" not in out.err + out.out


def test_set_names_are_normalised(capsys):
    # any case, commas or repeats: the same set once
    assert cli.main(["render", "Bangle", "--sets", "Echoes,echoes", "--sets", " ECHOES", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["name"] == "Bangle"


def _tiny_set(root):
    """A set of one card that expects three: incomplete."""
    folder = root / "sets" / "tiny" / "3e"
    (folder / "age1").mkdir(parents=True, exist_ok=True)
    (folder / "set.json").write_text(json.dumps({"set": "tiny", "edition": "3e", "label": "Tiny", "ages": [1],
                                                 "cards_expected": 3}))
    (folder / "age1" / "pebble.inno").write_text(
        'card "Pebble" {\n    set tiny\n    age 1\n    color red\n    icons hex castle castle castle\n'
        '    dogma castle\n}\n\neffect {\n    draw [1]\n}\n')
    return root


def _run(tmp_path, *args, stdin=""):
    env = dict(os.environ, INNOSCRIPT_CARDS=str(_tiny_set(tmp_path / "own")), INNOSCRIPT_CACHE=str(tmp_path / "c"))
    return subprocess.run([sys.executable, "-m", "innoscript", *args], capture_output=True, text=True, env=env,
                          input=stdin, timeout=240)


INCOMPLETE = "set tiny is incomplete: 1 of its 3 cards are written"


def test_an_incomplete_set_is_reported_by_simulate_soak_and_play(tmp_path):
    r = _run(tmp_path, "simulate", "--sets", "tiny", "--games", "1", "--jobs", "1", "--format", "json")
    assert r.returncode == 0 and f"innoscript simulate: warning: {INCOMPLETE}" in r.stderr, r.stderr
    assert json.loads(r.stdout)["games"] == 1
    r = _run(tmp_path, "soak", "--sets", "tiny", "--games", "1", "--jobs", "1", "--format", "json")
    assert r.returncode == 0 and f"innoscript soak: warning: {INCOMPLETE}" in r.stderr, r.stderr
    assert json.loads(r.stdout)[0]["sets"] == ["tiny"]
    r = _run(tmp_path, "play", "--sets", "tiny", stdin="quit\n")
    assert r.returncode == 0 and INCOMPLETE in " ".join(r.stdout.split()), r.stdout[:500]
    assert "Traceback" not in r.stderr


def test_a_set_card_is_found_by_dis_and_render_only_with_its_set(capsys):
    assert cli.main(["dis", "Bangle", "--sets", "echoes"]) == 0
    assert "== echo effect ==" in capsys.readouterr().out      # named as printed, the dogma effects numbered 1, 2
    assert cli.main(["dis", "Bangle"]) == 1
    assert "no card named 'Bangle'" in capsys.readouterr().err


def test_diff_compares_a_set_card_between_editions_echo_effect_included(capsys):
    assert cli.main(["diff", "Bangle", "--sets", "echoes", "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["status"] == "changed" and d["effects"][0]["kind"] == "cell" and d["effects"][0]["cell"] == "echo"
    assert d["effects"][0]["old"].startswith("Tuck a red card") and "echo effect 1 changed" in d["summary"]


def test_a_set_or_an_edition_that_inherits_itself_is_an_error(tmp_path, monkeypatch, capsys):
    """A folder whose manifest names itself (or a loop of two) as what it inherits: a one-line error, no
    RecursionError."""
    from innoscript.core.diagnostics import CompileError
    from innoscript.core.editions import load_edition
    root = _tiny_set(tmp_path / "own")
    loop = root / "sets" / "loop"
    for edition, parent in (("3e", "3e"), ("4e", "1e"), ("1e", "4e")):
        (loop / edition).mkdir(parents=True)
        (loop / edition / "set.json").write_text(json.dumps({"set": "loop", "edition": edition, "label": "Loop",
                                                              "ages": [1], "cards_expected": 0, "inherit": parent}))
    (root / "selfish").mkdir()
    (root / "selfish" / "edition.json").write_text(json.dumps({"inherit": "selfish", "label": "Selfish"}))
    monkeypatch.setenv("INNOSCRIPT_CARDS", str(root))
    for edition, chain in (("3e", "3e -> 3e"), ("4e", "4e -> 1e -> 4e")):
        with pytest.raises(CompileError, match=f"set 'loop' inherits itself: {chain}"):
            load_edition(edition, sets=["loop"])
    with pytest.raises(CompileError, match="edition 'selfish' inherits itself"):
        load_edition("selfish")
    assert cli.main(["compile", "--edition", "3e", "--sets", "loop"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert "inherits itself" in err[0] and not any("Traceback" in x or "RecursionError" in x for x in err)
