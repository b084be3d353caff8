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
    _site_is_offline_and_only_pages(tmp_path / "site")


def _site_is_offline_and_only_pages(site):
    import re
    remote = re.compile(r"""<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)=["']?(?:https?:)?//""", re.I)
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "fonts.googleapis" not in text and "fonts.gstatic" not in text, f"{page}: remote fonts"
        m = remote.search(text)
        assert m is None, f"{page}: loads a remote resource: {m.group(0) if m else ''}"
    for css in site.rglob("*.css"):
        assert "@import url(http" not in css.read_text(encoding="utf-8", errors="replace"), f"{css}: remote import"
    assert not (site / "hooks.py").exists(), "the build hook is published"
    assert not (site / "data").exists(), "the recorded figures' data files are published"
