"""Project-wide rules: card behaviour lives in card files; the README's test command is CI's."""
import json
import re
from pathlib import Path

from conftest import REFERENCE, ROOT


def test_no_card_name_in_python_source():
    ref = json.loads(REFERENCE.read_text())
    names = {c["name"] for e in ref["editions"].values() for c in e["cards"]}
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
