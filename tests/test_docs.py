"""The documentation site builds in strict mode, and documents every opcode, code and builtin."""
import subprocess
import sys

from conftest import ROOT


def test_mkdocs_build_strict(tmp_path):
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    html = (tmp_path / "site" / "bytecode" / "index.html").read_text()
    from innoscript import opcodes as O
    for op in O.OPCODES:
        assert op.name in html, f"opcode {op.name} undocumented"
    errors = (tmp_path / "site" / "errors" / "index.html").read_text()
    from innoscript.diagnostics import CODES
    for code in CODES:
        assert code in errors, f"error code {code} undocumented"
    lang = (tmp_path / "site" / "language" / "index.html").read_text()
    from innoscript.builtins import BUILTINS
    for name in BUILTINS:
        assert name in lang, f"builtin {name} undocumented"
