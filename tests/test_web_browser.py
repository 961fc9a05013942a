"""The web page in a real browser against the real server process (slow tier): log in, read the timeline of the
demo history, follow a superseded fact to its successor, search, ask and open a citation, forget a session.

Takes the screenshots the README shows; they are written to docs/img/ only with SODAMEM_REFRESH_SCREENSHOTS=1 (else
to a temporary folder, so a test run leaves the tree clean). Needs Chromium (Debian's ``chromium``; CI installs it) and
PyPI's playwright, which drives that Chromium (``playwright install`` is never needed).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sodamem.demo import example_history_path
from tests.serve_process import start_server

pytestmark = pytest.mark.slow

DOCS_IMAGES = Path(__file__).resolve().parents[1] / "docs" / "img"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
MAX_IMAGE_BYTES = 300_000


def _sodamem(db: Path, *args: str, env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "sodamem", "--db", str(db), *args],
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """``sodamem serve`` on a free port over the demo history of user ``demo``: its URL and demo's key."""
    tmp = tmp_path_factory.mktemp("web-browser")
    db = tmp / "m.db"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SODAMEM_LLM_", "OPENAI_"))}  # offline answers
    env["SODAMEM_EMBEDDER"] = "fake"
    key = json.loads(_sodamem(db, "keys", "create", "--user", "demo", "--json", env=env))["key"]
    # The file names its sessions' user ("default"): `ingest --user` stores them under demo instead.
    _sodamem(db, "ingest", "--user", "demo", str(example_history_path()), env=env)
    with start_server(db) as served:
        yield served.base, key


@pytest.fixture(scope="module")
def page(server: tuple[str, str]) -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("no chromium on PATH: install Debian's chromium (apt-get install chromium) to run the browser test")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1200, "height": 800}, base_url=server[0])
        context.set_default_timeout(15_000)
        yield context.new_page()
        context.close()
        browser.close()


@pytest.fixture
def images(tmp_path: Path) -> Path:
    return DOCS_IMAGES if os.environ.get("SODAMEM_REFRESH_SCREENSHOTS") == "1" else tmp_path


def _shot(page: Any, images: Path, name: str) -> None:
    images.mkdir(parents=True, exist_ok=True)
    path = images / name
    page.screenshot(path=str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert path.stat().st_size < MAX_IMAGE_BYTES, f"{name} is {path.stat().st_size} bytes"


def test_the_page_in_a_browser(server: tuple[str, str], page: Any, images: Path) -> None:
    url, key = server
    # Unauthenticated: the login page; the key goes into the cookie and the timeline opens.
    page.goto("/")
    assert page.url.endswith("/login")
    page.fill("#key", key)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(url + "/")
    assert page.inner_text("h1") == "Timeline"
    assert page.locator(".fact").count() > 25
    page.get_by_role("link", name="Only what changed").click()
    page.wait_for_url(url + "/?show=changed")
    leeds = page.locator(".chain", has_text="Maya lives in Leeds")
    assert "superseded by" in leeds.inner_text() and "Maya lives in Manchester" in leeds.inner_text()
    _shot(page, images, "timeline.png")

    # A superseded fact, then what replaced it, with its quote marked inside the message it came from.
    leeds.get_by_role("link", name="Maya lives in Leeds").click()
    assert page.inner_text("h1").startswith("Maya lives in Leeds")
    assert page.text_content("h1 .badge") == "superseded"
    assert page.inner_text("blockquote mark") == "I live in Leeds"
    page.locator(".links li", has_text="superseded by").get_by_role("link").click()
    assert page.inner_text("h1").startswith("Maya lives in Manchester")
    assert page.text_content("h1 .badge") == "active"
    assert page.inner_text("blockquote mark") == "we live in Manchester now"
    assert "We did it, we live in Manchester now!" in page.inner_text("blockquote")
    _shot(page, images, "fact.png")

    # Search: each hit cites its turn and says why it came up.
    page.get_by_role("link", name="Search / Ask").click()
    page.fill("#q-search", "where does Maya live")
    page.press("#q-search", "Enter")
    page.wait_for_selector(".hit")
    first = page.locator(".hit").first
    assert "bm25" in first.locator(".why").inner_text() and first.locator(".explain li").count() > 2
    assert "session s" in first.locator(".hit-head a").inner_text()
    _shot(page, images, "search.png")

    # Ask: a citation opens its message with the quote marked.
    page.fill("#q-ask", "Where does Maya live?")
    page.press("#q-ask", "Enter")
    page.wait_for_selector(".answer")
    assert "Manchester" in page.inner_text(".answer-text")
    citation = page.locator("a.citation").first
    quote = citation.inner_text().split("“", 1)[1].rstrip("”")
    citation.click()
    page.wait_for_selector("li.turn.target")
    assert "/sessions/" in page.url and "#t" in page.url
    assert page.inner_text("li.turn.target mark.cite") == quote

    # Forget a session: the confirmation lists what goes; afterwards its facts are gone from the timeline.
    page.goto("/sessions")
    page.locator("tr", has_text="s07").get_by_role("link", name="forget…").click()
    assert page.inner_text("h1") == "Forget session s07?"
    gone = page.inner_text(".facts-gone")
    assert "Maya is pescatarian" in gone and "Maya is cutting down on spicy food" in gone
    _shot(page, images, "forget.png")
    page.get_by_role("button", name="Forget for good").click()
    page.wait_for_url(url + "/")
    assert "Forgot session s07" in page.inner_text(".notice")
    timeline = page.inner_text("main")
    assert "Maya is pescatarian" not in timeline and "Maya is cutting down on spicy food" not in timeline
    assert "Maya lives in Manchester" in timeline

    # Log out: the pages ask for the key again.
    page.get_by_role("button", name="Log out").click()
    page.wait_for_url(url + "/login")
    page.goto("/facts/25")
    assert "/login?next=" in page.url
