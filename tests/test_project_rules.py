"""Project-wide rules: card behaviour lives in card files; the README's test command is CI's."""
import json
import re
import subprocess
import sys
from pathlib import Path

from card_facts import load as load_facts
from conftest import ROOT


def test_no_card_name_in_python_source():
    names = {c["name"] for e in load_facts()["editions"].values() for c in e["cards"]}
    pattern = re.compile("|".join(re.escape(f'"{n}"') + "|" + re.escape(f"'{n}'") for n in sorted(names)))
    offenders = []
    for py in ROOT.rglob("*.py"):
        rel = py.relative_to(ROOT)
        if rel.parts[0] in ("tests", ".venv", "site", "build") or "benchmarks" in rel.parts:
            continue
        m = pattern.search(py.read_text(errors="ignore"))
        if m:
            offenders.append(f"{rel}: {m.group(0)}")
    assert not offenders


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    blocks = re.findall(r"```sh\n(.*?)\n```", readme, re.S)
    test_cmd = [b for b in blocks if "pytest" in b]
    assert len(test_cmd) == 1
    assert test_cmd[0].strip() in ci


def test_engine_has_no_branch_on_an_edition():
    """Every difference between editions is a manifest value or switch, never a test of the edition's name."""
    # a comparison with an edition's name or number, in either order
    pattern = re.compile(r"""(==|!=)\s*['"][0-9]+e?['"]|['"][0-9]+e?['"]\s*(==|!=|\bin\b)|edition\w*['"]?\]?\s*(==|!=)\s*['"]""")
    offenders = []
    for folder in ("runtime", "compiler", "innoscript"):
        for py in (ROOT / folder).rglob("*.py"):
            for i, line in enumerate(py.read_text().splitlines(), 1):
                code = line.split("#")[0]
                if pattern.search(code):
                    offenders.append(f"{py.relative_to(ROOT)}:{i}: {line.strip()}")
    assert not offenders, "\n".join(offenders)



def _names_itself(text: str) -> bool:
    m = re.search(r'card\s+"([^"]+)"', text)
    return bool(m) and f'"{m.group(1)}"' in text[m.end():]


def test_no_card_script_names_its_own_card_in_a_string():
    """A card refers to itself as 'this card', never by spelling its name."""
    offenders = [str(p.relative_to(ROOT)) for p in sorted((ROOT / "cards").rglob("*.inno"))
                 if _names_itself(p.read_text(encoding="utf-8"))]
    assert not offenders, offenders


def test_the_own_name_check_can_fail():
    assert _names_itself('card "Fission" {\n}\neffect {\n    return a top card other than "Fission" from your board\n}\n')
    assert not _names_itself('card "Fission" {\n}\neffect {\n    return a top card other than this card from your board\n}\n')


def _set_names() -> tuple[set[str], set[str]]:
    """Every set's names (folder, manifest name and label) and the names of its cards and special
    achievements, read from every set folder and from the card facts (tests/card_facts.py)."""
    from innoscript.core.editions import CARD_NAME_RE
    sets, names = set(), set()
    for manifest in (ROOT / "cards" / "sets").glob("*/*/set.json"):
        data = json.loads(manifest.read_text())
        sets |= {manifest.parent.parent.name, data.get("set", "")} - {""}
        names |= {data.get("label", "")} | {s["name"] for s in data.get("special_achievements", [])}
        for card in manifest.parent.rglob("*.inno"):
            names |= set(CARD_NAME_RE.findall(card.read_text(errors="ignore")))
    for e in load_facts()["editions"].values():
        for name, s in e.get("sets", {}).items():
            sets.add(name)
            names |= {c["name"] for c in s["cards"]} | set(s.get("special_achievements", []))
    return {s.lower() for s in sets}, names - {""}


def _naming_sets(text: str, sets: set[str], names: set[str]) -> list[str]:
    """Where Python source names a set, a set's card or a special achievement as a whole string (a
    variable may be called after a concept, e.g. a count of echo effects)."""
    import io
    import tokenize
    found = []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return ["(cannot be read)"]
    for tok in tokens:
        if tok.type == tokenize.STRING:
            body = tok.string.lstrip("rbfuRBFU")[1:-1].strip("'\"")
            if body.lower() in sets or body in names:
                found.append(f"{tok.start[0]}: {tok.string}")
    return found


def test_no_python_outside_tests_names_a_set_or_its_cards():
    """A set's rules are its manifest and InnoScript files; the engine offers general concepts only."""
    sets, names = _set_names()
    assert "echoes" in sets and "Perfume" in names       # the reference is read
    offenders = []
    for py in ROOT.rglob("*.py"):
        rel = py.relative_to(ROOT)
        if rel.parts[0] in ("tests", ".venv", "site", "build") or "benchmarks" in rel.parts:
            continue
        offenders += [f"{rel}:{where}" for where in _naming_sets(py.read_text(errors="ignore"), sets, names)]
    assert not offenders, "\n".join(offenders)


def test_the_set_name_check_can_fail():
    sets, names = _set_names()
    assert _naming_sets('if game_set == "echoes":\n    pass\n', sets, names)
    assert _naming_sets("def echoes_draw(x):\n    return x\n", sets, names) == []    # code names are not strings
    assert _naming_sets("name = 'Echoes'\n", sets, names)
    assert _naming_sets('special = "Destiny"\n', sets, names)
    assert _naming_sets('card = "Perfume"\n', sets, names)
    assert _naming_sets('help = "draw a card of a set"\n', sets, names) == []


def _set_words() -> set[str]:
    """The words the sets give the language: their zones, their verbs, their Dogma marks, their icons and their
    cells, read from every set manifest, and the words the sets still to come will bring (issue notes: museums,
    relics, the safe)."""
    words = {"museum", "museums", "relic", "relics", "safeguard", "display"}
    for manifest in (ROOT / "cards" / "sets").glob("*/*/set.json"):
        data = json.loads(manifest.read_text())
        for zone, spec in data.get("zones", {}).items():
            words |= {zone, spec.get("verb") or zone}
        words |= set(data.get("verbs", {})) | set(data.get("dogma_marks", []))
        words |= set(data.get("icons", {})) | set(data.get("cells", {}))
    return words - {""}


_BASE_TERMS = ("sharing_bonus",)
# set words that are also plain English the engine uses in its own sense: Cities' 'flag' and 'plus' cells (a
# bytecode's flag operand, a saved record's flags; the renderer's 'plus' for +)
_COMMON_WORDS = {"flag", "plus"}


def _using_set_words(text: str, words: set[str]) -> list[str]:
    """Where code (not a docstring or a comment) says a set's word: an identifier or a part of one
    ('forecast_limit'), or a word of a string ('foreshadow')."""
    import ast
    tree = ast.parse(text)
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                docs.add(id(first.value))
    found = []

    def parts(name: str) -> list[str]:
        for term in _BASE_TERMS:       # the base game's own words that hold a set's ('sharing_bonus')
            name = name.replace(term, "")
        return name.split("_")
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            text = node.value.lower().replace("sharing bonus", "")
            names = [p for w in re.findall(r"[a-z_]+", text) for p in parts(w)]
        elif isinstance(node, ast.Name):
            names = parts(node.id.lower())
        elif isinstance(node, ast.Attribute):
            names = parts(node.attr.lower())
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names = parts(node.name.lower())
        hit = sorted(set(names) & words)
        if hit:
            found.append(f"{getattr(node, 'lineno', '?')}: {', '.join(hit)}")
    return found


def test_no_python_outside_tests_uses_a_sets_own_words():
    """The grammar, the opcode table and the engine know no set's zone, verb or Dogma mark by name: they come
    from the manifests (docs/engine-concepts.md)."""
    words = _set_words() - _COMMON_WORDS
    assert {"forecast", "foreshadow", "promote", "foreseen", "echo", "bonus", "music_note", "fountain"} <= words
    offenders = []
    for folder in ("innoscript", "compiler", "runtime", "grammar"):
        for py in (ROOT / folder).rglob("*.py"):
            offenders += [f"{py.relative_to(ROOT)}:{where}" for where in _using_set_words(py.read_text(), words)]
    grammar = (ROOT / "grammar" / "innoscript.lark").read_text()
    offenders += [f"grammar/innoscript.lark: {w}" for w in sorted(words)
                  if re.search(rf'"{w}"', grammar)]
    assert not offenders, "\n".join(offenders)


def test_the_set_word_check_can_fail():
    words = _set_words()
    assert _using_set_words('verb = "foreshadow"\n', words)
    assert _using_set_words("forecast_limit = 3\n", words)
    assert _using_set_words("x = cards.promote\n", words)
    assert _using_set_words('kind = "echo"\n', words) and _using_set_words("bonuses = card.bonus\n", words)
    assert not _using_set_words('rule = "sharing_bonus"\n', words)
    assert not _using_set_words('"""A docstring may say foreshadow."""\nx = 1  # and so may a comment: forecast\n', words)


def test_the_readmes_python_example_runs():
    """The README's 'Playing from Python' example, as printed, plays a game to its end (with any bot)."""
    import re
    readme = (ROOT / "README.md").read_text()
    code = re.search(r"## Playing from Python\n\n```python\n(.*?)```", readme, re.S).group(1)
    probe = code.replace("print(game.result)", "print(json.dumps(game.result))")
    r = subprocess.run([sys.executable, "-c", "import json\n" + probe], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout.strip().splitlines()[-1])["winners"]
