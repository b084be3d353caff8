"""In Chromium: a page of another origin cannot open the game server's WebSocket (so it cannot read a
game), while an origin allowed with --allow-origin can. INNOSCRIPT_SKIP_BROWSER=1 skips it."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from protocol_client import free_port, wait_for_port

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]

pytestmark = pytest.mark.skipif(os.environ.get("INNOSCRIPT_SKIP_BROWSER") == "1", reason="browser tests skipped")

PAGE = """<!doctype html><title>waiting</title><script>
const ws = new WebSocket("ws://127.0.0.1:%d/ws");
ws.onopen = () => { ws.send(JSON.stringify({type: "list"})); };
ws.onmessage = (ev) => { document.title = "read: " + JSON.parse(ev.data).type; };
ws.onerror = () => { document.title = "refused"; };
</script>"""


def test_a_page_of_another_origin_cannot_open_the_websocket(tmp_path):
    r = subprocess.run([str(ROOT / "scripts" / "ensure-chromium")], capture_output=True, text=True)
    assert r.returncode == 0, f"cannot get Chromium for the browser tests: {r.stderr}"
    port, other = free_port(), free_port()
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "page.html").write_text(PAGE % port)
    # one page, served by another server: from 127.0.0.1:OTHER it is allowed, from localhost:OTHER it is not
    site = subprocess.Popen([sys.executable, "-m", "http.server", str(other), "--bind", "127.0.0.1"],
                            cwd=tmp_path / "site", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    server = subprocess.Popen([sys.executable, "-m", "innoscript.cli", "serve", "--web", "--port", str(port), "--db",
                               str(tmp_path / "g.sqlite"), "--allow-origin", f"http://127.0.0.1:{other}"],
                              stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port)
        wait_for_port(other)
        from playwright.sync_api import sync_playwright
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=ARGS)
            try:
                titles = {}
                for host in ("localhost", "127.0.0.1"):
                    page = browser.new_page()
                    page.goto(f"http://{host}:{other}/page.html")
                    page.wait_for_function("() => document.title !== 'waiting'", timeout=15000)
                    titles[host] = page.title()
                    page.close()
            finally:
                browser.close()
        assert titles == {"localhost": "refused", "127.0.0.1": "read: games"}, titles
    finally:
        for proc in (server, site):
            proc.kill()
            proc.wait()
