"""The installed package carries every file the code reads at run time (an editable install hides a missing
one): build the package as an install lays it out (setuptools' build_py, which a wheel packs) from the tracked
files in a scratch copy, then check its contents against the data files the code opens."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_installed_package_holds_the_runtime_data(tmp_path):
    src = tmp_path / "src"
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    for f in files:
        (src / f).parent.mkdir(parents=True, exist_ok=True)
        (src / f).write_bytes((ROOT / f).read_bytes())
    out = tmp_path / "lib"
    r = subprocess.run([sys.executable, "-c", "import setuptools; setuptools.setup()", "-q", "build_py", "-d", str(out)],
                       cwd=src, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    names = {str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()}
    needed = {"innoscript/grammar/innoscript.lark", "innoscript/runtime/serving/web/index.html",
              "innoscript/runtime/serving/web/icons.svg", "innoscript/editors/innoscript.tmLanguage.json"}
    needed |= {f"innoscript/core/schemas/{p.name}" for p in (ROOT / "innoscript" / "core" / "schemas").glob("*.json")}
    needed |= {f"innoscript/compiler/tools/data/{p.name}" for p in (ROOT / "compiler" / "tools" / "data").glob("*.json")}
    needed |= {"innoscript/cards/" + str(p.relative_to(ROOT / "cards")) for p in (ROOT / "cards").rglob("*")
               if p.suffix in (".inno", ".json")}
    assert not needed - names, sorted(needed - names)[:10]
    assert len(needed) > 150
