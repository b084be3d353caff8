"""Command-line tools aimed at card authors and rules checkers: output that survives pipes and keeps icons."""
import json
import subprocess
import sys

from conftest import needs_reference


def run(*args):
    return subprocess.run([sys.executable, "-m", "innoscript", *args], capture_output=True, text=True)


def test_python_dash_m_runs_the_command_line():
    r = run("--version")
    assert r.returncode == 0 and r.stdout.startswith("innoscript ")


def test_diff_keeps_icons():
    r = run("diff", "Alchemy")
    assert r.returncode == 0, r.stderr
    assert "for every three [castle] on your board" in r.stdout
    assert "for every three  on" not in r.stdout


def test_cards_in_a_pipe_are_not_truncated():
    r = run("cards", "--edition", "3e")
    names = [c["name"] for c in json.loads(run("cards", "--edition", "3e", "--format", "json").stdout)["cards"]]
    longest = max(names, key=len)
    assert r.returncode == 0 and longest in r.stdout
    assert "…" not in r.stdout


def _subcommands():
    import argparse
    from innoscript.cli import build_parser
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return parser, sub.choices


def test_every_option_has_help_and_a_default_and_every_command_examples():
    import argparse
    import shlex
    parser, commands = _subcommands()
    assert len(commands) >= 14
    for name, cmd in commands.items():
        text = cmd.format_help()
        assert "examples:" in text, f"{name}: no examples"
        examples = [line.split("  ")[1] if line.startswith("  innoscript") else None
                    for line in text.split("examples:", 1)[1].splitlines()]
        examples = [e.strip() for e in examples if e]
        assert examples, f"{name}: no example commands"
        for ex in examples:
            argv = [w for w in shlex.split(ex.split("|")[0].split(">")[0])][1:]
            try:
                parser.parse_args(argv)
            except SystemExit:
                raise AssertionError(f"{name}: the example {ex!r} does not parse")
        for action in cmd._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help, f"{name} {action.dest}: no help text"
            if action.option_strings and not action.required:
                shown = cmd._get_formatter()._get_help_string(action)
                assert "default" in shown, f"{name} {'/'.join(action.option_strings)}: no default in its help"


def test_shell_completion_comes_from_the_parser():
    r = run("completion", "bash")
    assert r.returncode == 0, r.stderr
    assert "innoscript" in r.stdout and "--reference" in r.stdout and "simulate" in r.stdout
    assert run("completion", "zsh").returncode == 0


def test_simulate_prints_tables_not_python_reprs():
    r = run("simulate", "--games", "2", "--jobs", "1", "--bots", "greedy,random")
    assert r.returncode == 0, r.stderr
    assert "{" not in r.stdout and "[" not in r.stdout.split("cards whose dogma")[0]
    assert "wins by seat" in r.stdout and "greedy" in r.stdout


def _ref():
    from conftest import REFERENCE
    return str(REFERENCE)


@needs_reference
def test_errata_for_one_card_shows_both_texts():
    r = run("errata", "Alchemy", "--reference", _ref())
    assert r.returncode == 0, r.stderr
    assert "Alchemy #1" in r.stdout and "rendered:" in r.stdout and "printed:" in r.stdout
    assert "Archery" not in r.stdout
    assert "[castle]" in r.stdout
    r = run("errata", "Alchemi", "--reference", _ref())
    assert r.returncode == 1 and "did you mean 'Alchemy'" in r.stderr


def test_errata_of_a_set_without_reference_texts(tmp_path):
    ref = tmp_path / "mine.json"
    ref.write_text(json.dumps({"editions": {"3e": {"cards": [
        {"name": "Archery", "dogma_effects": [{"text": "I demand you draw a [1]."}]}]}}}))
    r = run("errata", "--all", "--reference", str(ref), "--format", "json")
    out = json.loads(r.stdout)
    assert r.returncode == 0 and out["summary"]["no_reference"] > 100
    assert {e["status"] for e in out["effects"] if e["card"] != "Archery"} == {"no reference"}
    assert all(e["similarity"] is None for e in out["effects"] if e["card"] != "Archery")
    r = run("errata", "Pottery", "--reference", str(ref))
    assert "no reference text" in r.stdout and "0.000" not in r.stdout
    r = run("errata", "--set", "nosuchset", "--reference", str(ref))
    assert r.returncode == 1 and "no card of set 'nosuchset'" in r.stderr
    r = run("errata", "--set", "base", "Archery", "--reference", str(ref))
    assert r.returncode == 0 and "Archery #1" in r.stdout


def test_coverage_of_one_card_lists_untaken_branches_with_their_lines(tmp_path):
    import shutil
    from pathlib import Path
    d = tmp_path / "scen"
    d.mkdir()
    shutil.copy(Path(__file__).parent / "scenarios" / "3e" / "age1" / "metalworking-no-castle.yaml", d)
    r = run("coverage", "Metalworking", "--scenarios", str(d))
    assert r.returncode == 0, r.stderr
    assert "never taken: Metalworking effect 1, 3e/age1/metalworking.inno:10: if drawn has castle {" in r.stdout
    assert "the condition true" in r.stdout
    assert "Archery" not in r.stdout and "branch outcomes 1/2" in r.stdout
