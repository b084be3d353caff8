"""The documentation site builds in strict mode, and documents every opcode, code and builtin."""
import subprocess
import sys

from conftest import EXPANSIONS, REFERENCE, ROOT

PRINTED = REFERENCE.exists() and EXPANSIONS.exists()   # the gallery shows printed texts only where they are at hand


def test_mkdocs_build_strict(tmp_path):
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    html = (tmp_path / "site" / "bytecode" / "index.html").read_text()
    from innoscript.core import opcodes as O
    for op in O.OPCODES:
        assert op.name in html, f"opcode {op.name} undocumented"
    errors = (tmp_path / "site" / "errors" / "index.html").read_text()
    from innoscript.core.diagnostics import CODES
    for code in CODES:
        assert code in errors, f"error code {code} undocumented"
    lang = (tmp_path / "site" / "language" / "index.html").read_text()
    from innoscript.core.builtins import BUILTINS
    for name in BUILTINS:
        assert name in lang, f"builtin {name} undocumented"
    _site_is_offline_and_only_pages(tmp_path / "site")
    _gallery_pages_show_what_a_rules_checker_needs(tmp_path / "site")


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


def _gallery_pages_show_what_a_rules_checker_needs(site):
    import html as H
    import json
    import re
    page = (site / "gallery" / "3e" / "oars" / "index.html").read_text(encoding="utf-8")
    assert "Oars (3e)" in page and "Innovation, 3rd edition" in page          # the edition in the title
    m = re.search(r'data-inno-card="([^"]+)"', page)                           # drawn by the shared card renderer
    assert m and json.loads(H.unescape(m.group(1)))["name"] == "Oars"
    assert 'id="inno-icons"' in page and "assets/cards/cards.js" in page and "assets/cards/gallery.js" in page
    assert (site / "assets" / "cards" / "cards.js").exists() and (site / "assets" / "cards" / "icons.svg").exists()
    assert "Printed and rendered text" in page
    if PRINTED:
        assert "(close)" in page and "{+dogma+}" in page
    else:
        assert "No reference text for this card; the rendered text:" in page
    assert "oars-repeat.yaml" in page and (site / "gallery" / "3e" / "scenarios" / "age1-oars-repeat" / "index.html").exists()
    assert "Changes in the 4e edition" in page and "../../4e/oars/" in page
    page4 = (site / "gallery" / "4e" / "oars" / "index.html").read_text(encoding="utf-8")
    assert "Oars (4e)" in page4 and "Changes from the 3e edition" in page4
    index = (site / "gallery" / "4e" / "index.html").read_text(encoding="utf-8")
    assert "Card gallery: Innovation, 4th edition" in index and "errata similarity" in index
    _every_card_has_its_gallery_page(site)
    _a_set_has_its_gallery_pages(site)


def _a_set_has_its_gallery_pages(site):
    """A page per set and edition lists the set's cards; a card page draws it with its echo effect and bonus,
    compares the echo effect with its printed text and links the card in the set's other edition."""
    import html as H
    import json
    import re
    from innoscript.compiler.bundle import load_bundle
    for ed in ("3e", "4e"):
        index = (site / "gallery" / "echoes" / ed / "index.html").read_text(encoding="utf-8")
        assert "Card gallery: Echoes of the Past" in index and "bonus 1" in index
        names = [c["name"] for c in load_bundle(ed, sets=("echoes",))["cards"] if c.get("set") == "echoes"]
        listed = re.findall(r'<td><a href="([^"/]+)/">([^<]+)</a></td>', index)
        assert sorted(H.unescape(n) for _, n in listed) == sorted(names)
    page = (site / "gallery" / "echoes" / "3e" / "bangle" / "index.html").read_text(encoding="utf-8")
    assert "Bangle (3e, echoes)" in page and "Echoes of the Past (3rd edition)" in page
    face = json.loads(H.unescape(re.search(r'data-inno-card="([^"]+)"', page).group(1)))
    assert face["name"] == "Bangle" and face["cell_effects"][0]["cell"] == "echo" and face["cell_effects"][0]["text"]
    assert face["cell_values"] == [None, None, None, 1]
    if PRINTED:
        assert re.search(r"<td>echo</td>\s*<td>Tuck a red card from your hand.</td>", page)
    assert "Changes in the 4e edition" in page and "../4e/bangle/" in page
    dice = (site / "gallery" / "echoes" / "3e" / "dice" / "index.html").read_text(encoding="utf-8")
    assert "dice-no-bonus.yaml" in dice and (site / "gallery" / "echoes" / "3e" / "scenarios" / "age1-dice-no-bonus"
                                              / "index.html").exists()        # the set's scenarios, linked


def _every_card_has_its_gallery_page(site):
    """Each card of each edition is in its gallery index, and its page draws that card, shows its texts and links as
    many scenarios as the index counts (at least one for a card whose file is the edition's own; a card reused
    from another edition is proven by that edition's scenarios)."""
    import html as H
    import json
    import re
    from innoscript.compiler.bundle import load_bundle
    from innoscript.core.editions import available_editions
    row = re.compile(r'<td><a href="([^"/]+)/">([^<]+)</a></td>(?:\s*<td>[^<]*</td>){5}\s*<td>(\d+)</td>\s*</tr>')
    for ed in available_editions():
        index = (site / "gallery" / ed / "index.html").read_text(encoding="utf-8")
        listed = {H.unescape(name): (slug, int(n)) for slug, name, n in row.findall(index)}
        cards = load_bundle(ed)["cards"]
        names = [c["name"] for c in cards]
        own = {c["name"] for c in cards if c["source"].startswith(ed + "/")}
        assert sorted(listed) == sorted(names), (ed, set(names) ^ set(listed))
        for name, (slug, count) in listed.items():
            page = (site / "gallery" / ed / slug / "index.html").read_text(encoding="utf-8")
            drawn = [json.loads(H.unescape(m))["name"] for m in re.findall(r'data-inno-card="([^"]+)"', page)]
            assert drawn == [name], (ed, name, drawn)
            assert f"{H.escape(name, quote=False)} ({ed})" in page and "Printed and rendered text" in page, (ed, name)
            links = set(re.findall(r'href="\.\./scenarios/([^"/]+)/"', page))
            assert len(links) == count and (count >= 1 or name not in own), (ed, name, count, sorted(links))
