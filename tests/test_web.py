"""The web page at ``/`` over the demo history: login, timeline, fact page, sessions, search, ask, forget, tenancy,
escaping and errors (fast tier: FastAPI's TestClient, no browser)."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from sodamem.demo import example_history_path
from sodamem.keys import KeyRing
from sodamem.memory import Memory
from sodamem.server.app import create_app
from sodamem.server.auth import COOKIE
from sodamem.server.settings import ServeSettings
from sodamem.server.web_views import Span, period, segments

USER, OTHER = "demo", "other"


@pytest.fixture(scope="module")
def template_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """The demo history under ``demo``, one session of ``other``, and a key for each (built once, copied per test)."""
    path = tmp_path_factory.mktemp("web") / "m.db"
    with Memory(path, embedder="fake", user=USER) as memory:
        memory.ingest(example_history_path(), user=USER)
        memory.add(["I live in Oslo and I work at Fjord Labs."], session_id="o1", user=OTHER)
        ring = KeyRing(memory.store)
        _, demo_key = ring.create(USER)
        _, other_key = ring.create(OTHER)
    return path, demo_key, other_key


@pytest.fixture
def db(template_db: tuple[Path, str, str], tmp_path: Path) -> Path:
    source = template_db[0]
    for file in source.parent.glob(source.name + "*"):
        shutil.copy(file, tmp_path / file.name)
    return tmp_path / source.name


@pytest.fixture
def keys(template_db: tuple[Path, str, str]) -> tuple[str, str]:
    return template_db[1], template_db[2]


def _client(db: Path, *, auth: bool = True, user: str = "default") -> Iterator[TestClient]:
    app = create_app(ServeSettings(db=str(db), embedder="fake", pool_size=2, auth=auth, user=user))
    with TestClient(app, base_url="http://127.0.0.1") as client:  # a server without keys answers loopback names
        yield client


@pytest.fixture
def anon(db: Path) -> Iterator[TestClient]:
    yield from _client(db)


@pytest.fixture
def client(anon: TestClient, keys: tuple[str, str]) -> TestClient:
    response = anon.post("/login", data={"key": keys[0], "next": "/"}, follow_redirects=False)
    assert response.status_code == 303
    return anon


def chunk_with(html: str, text: str, marker: str = '<div class="chain') -> str:
    """The piece of ``html`` between two ``marker``s that contains ``text``."""
    found = [part for part in html.split(marker) if text in part]
    assert found, f"{text!r} not on the page"
    return found[0]


# -- login ------------------------------------------------------------------------------------------------------


def test_pages_redirect_to_login_until_a_key_is_pasted(anon: TestClient, keys: tuple[str, str]) -> None:
    response = anon.get("/facts/3?x=1", follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/login?next=%2Ffacts%2F3%3Fx%3D1"
    page = anon.get(response.headers["location"])
    assert page.status_code == 200 and 'name="key"' in page.text and 'value="/facts/3?x=1"' in page.text

    refused = anon.post("/login", data={"key": "smk_not-a-key", "next": "/"}, follow_redirects=False)
    assert refused.status_code == 403 and "unknown or revoked" in refused.text
    assert COOKIE not in refused.cookies

    accepted = anon.post("/login", data={"key": keys[0], "next": "/facts/3?x=1"}, follow_redirects=False)
    assert accepted.status_code == 303 and accepted.headers["location"] == "/facts/3?x=1"
    cookie = accepted.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}={keys[0]};")
    assert "HttpOnly" in cookie and "samesite=strict" in cookie.lower() and "Path=/" in cookie
    assert "Maya lives in Leeds" in anon.get("/facts/3").text

    anon.post("/logout", follow_redirects=False)
    assert anon.get("/", follow_redirects=False).status_code == 303


def test_login_goes_only_to_paths_of_this_site(anon: TestClient, keys: tuple[str, str]) -> None:
    for target in ("//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"):
        response = anon.post("/login", data={"key": keys[0], "next": target}, follow_redirects=False)
        assert response.headers["location"] == "/", target


def test_without_auth_no_login_is_needed(db: Path) -> None:
    for client in _client(db, auth=False, user=USER):
        page = client.get("/")
        assert page.status_code == 200 and "Maya lives in Manchester" in page.text
        assert "Log out" not in page.text
        assert client.get("/login", follow_redirects=False).headers["location"] == "/"


# -- reading ----------------------------------------------------------------------------------------------------


def test_timeline_draws_each_supersession_chain(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    chain = chunk_with(page.text, "Maya lives in Leeds")
    assert chain.index("Maya lives in Leeds") < chain.index("superseded by") < chain.index("Maya lives in Manchester")
    assert 'badge st-superseded">superseded' in chain and 'badge st-active">active' in chain
    assert 'href="/facts/3"' in chain and 'href="/facts/25"' in chain
    assert "12 Apr 2026" in chain  # when Leeds gave way
    diet = chunk_with(page.text, "Maya is pescatarian")
    assert diet.count("Maya is vegetarian") == 2 and "updated by" in diet
    assert "Mon 2 March 2026" in page.text and 'href="/sessions/s01"' in page.text

    changed = client.get("/?show=changed").text
    assert "Maya lives in Leeds" in changed and "Maya is 34 years old" not in changed


def test_fact_page_marks_the_quote_in_its_message(client: TestClient) -> None:
    page = client.get("/facts/3").text
    assert "Quick intro: I&#39;m 34, " in page  # the whole message...
    assert re.search(r'<mark class="st-superseded"[^>]*>I live in Leeds</mark>', page)  # ...with the quote marked
    assert "characters 89–104" in page
    assert 'href="/sessions/s01?turn=0&amp;start=89&amp;end=104#t0"' in page
    links = chunk_with(page, "superseded by", "<li>")
    assert 'href="/facts/25"' in links and "Maya lives in Manchester" in links
    assert "2026-03-02T19:05:00" in page and "12 Apr 2026, 15:30" in page  # validity from → to

    dated = client.get("/facts/17").text  # "offered me the ... job yesterday"
    assert "“yesterday”" in dated and "23 Mar 2026" in dated
    assert "<code>2026-03-23T00:00:00</code> → <code>2026-03-24T00:00:00</code>, to the day" in dated

    history = client.get("/facts/24").text
    chain = history.split("<h2>History</h2>")[1]
    assert chain.count("Maya is vegetarian") == 2 and 'class="fact st-active current"' in chain


def test_sessions_and_a_session_with_every_fact_marked(client: TestClient) -> None:
    listing = client.get("/sessions").text
    assert listing.count('href="/sessions/s') == 11 and "o1" not in listing

    page = client.get("/sessions/s01").text
    assert page.count('<li id="t') == 10
    for fact_id, quote in ((3, "I live in Leeds"), (2, "I&#39;m 34"), (6, "My dog, Biscuit")):
        assert re.search(rf'<a class="span" href="/facts/{fact_id}"[^>]*><mark class="st-[a-z]+">{quote}', page), quote
    assert 'class="chip st-superseded" href="/facts/3"' in page

    cited = client.get("/sessions/s08?turn=0&start=11&end=36").text
    assert '<li id="t0" class="turn by-user target">' in cited
    assert re.search(r'<mark class="[^"]*cite[^"]*"[^>]*>we live in Manchester now</mark>', cited)


def test_search_explains_each_hit(client: TestClient) -> None:
    page = client.get("/search", params={"q": "where does Maya live"}).text
    hits = page.split('<li class="hit">')[1:]
    assert len(hits) == 10
    first = hits[0]
    assert '<span class="chip">bm25</span>' in first and re.search(r"<li>bm25 hop 0 rank \d+ \+[\d.]+</li>", first)
    assert re.search(r'href="/sessions/s\d\d\?turn=\d+&amp;start=\d+&amp;end=\d+#t\d+"', first)
    assert '<mark class="cite">' in first
    assert any("Manchester" in hit for hit in hits)
    assert "Search</button>" in client.get("/search").text  # no query: just the boxes


def test_ask_cites_and_each_citation_opens_its_message(client: TestClient) -> None:
    page = client.get("/ask", params={"q": "Where does Maya live?"}).text
    assert "Manchester" in page.split('class="answer-text">')[1].split("</p>")[0]
    links = re.findall(r'<a class="citation" href="([^"]+)">', page)
    assert links and "/sessions/s08?turn=0&amp;start=11&amp;end=36#t0" in links
    message = client.get(links[0].replace("&amp;", "&").split("#")[0]).text
    assert re.search(r'<mark class="[^"]*cite[^"]*"[^>]*>we live in Manchester now</mark>', message)


def test_ask_as_of_a_day_answers_from_what_was_known_by_its_end(client: TestClient) -> None:
    page = client.get("/ask", params={"q": "Where does Maya live?", "as_of": "2026-03-05"}).text
    assert page.split('class="answer-text">')[1].split("</p>")[0] == "Leeds"
    assert 'name="as_of" value="2026-03-05"' in page and "Manchester" not in page.split("<h2>Citations</h2>")[1]
    bad = client.get("/ask", params={"q": "Where does Maya live?", "as_of": "early March"})
    assert bad.status_code == 400 and "as_of" in bad.text


# -- forgetting -------------------------------------------------------------------------------------------------


def test_forget_a_session_after_seeing_what_goes(client: TestClient) -> None:
    confirm = client.get("/forget", params={"session": "s07"}).text
    assert "Forget session s07?" in confirm
    assert "Turns (12)" in confirm and "Facts that go (4)" in confirm
    for text in ("Maya is pescatarian", "Maya is cutting down on spicy food", "Mild is my life now"):
        assert text in confirm
    assert '<input type="hidden" name="session" value="s07">' in confirm
    assert "Maya is pescatarian" in client.get("/").text  # a dry run: nothing went

    done = client.post("/forget", data={"session": "s07"}, follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"] == "/"
    timeline = client.get("/").text
    assert "Forgot session s07: 12 turns and 4 facts." in timeline
    assert "Maya is pescatarian" not in timeline and "Mild is my life" not in timeline
    assert "Forgot session" not in client.get("/").text  # the notice shows once
    assert client.get("/facts/24").status_code == 404
    assert "badge st-active" in client.get("/facts/20").text.split("</h1>")[0]  # what it replaced holds again
    assert "s07" not in client.get("/sessions").text


def test_forget_a_turn_and_a_fact(client: TestClient) -> None:
    confirm = client.get("/forget", params={"turn": "s01:0", "session": "s01"}).text
    assert "Forget turn s01:0 of session s01?" in confirm and "Maya lives in Leeds" in confirm
    done = client.post("/forget", data={"turn": "s01:0", "session": "s01"}, follow_redirects=False)
    assert done.headers["location"] == "/sessions/s01"
    session = client.get("/sessions/s01").text
    assert "Forgot turn s01:0 of session s01" in session and "Quick intro" not in session

    assert "Maya&#39;s dog is Biscuit" in client.get("/forget", params={"fact": "6"}).text
    client.post("/forget", data={"fact": "6"})
    assert client.get("/facts/6").status_code == 404
    assert "My dog, Biscuit" in client.get("/sessions/s01").text  # the message stays


def test_forms_from_another_site_are_refused(client: TestClient) -> None:
    evil = client.post("/forget", data={"session": "s01"}, headers={"Origin": "https://evil.example"})
    assert evil.status_code == 403 and "this site" in evil.text
    cross = client.post("/forget", data={"session": "s01"}, headers={"Sec-Fetch-Site": "cross-site"})
    assert cross.status_code == 403
    assert client.get("/sessions/s01").status_code == 200
    same = client.post("/forget", data={"session": "s01"}, headers={"Origin": "http://127.0.0.1"})
    assert same.status_code == 200 and client.get("/sessions/s01").status_code == 404


# -- tenancy, escaping, errors ----------------------------------------------------------------------------------


def test_another_users_records_are_not_found(client: TestClient, db: Path) -> None:
    with Memory(db, embedder="fake") as memory:
        theirs = memory.facts(status="all", user=OTHER)[0].id
    for url in (f"/facts/{theirs}", "/sessions/o1", f"/forget?fact={theirs}", "/forget?session=o1"):
        page = client.get(url)
        assert page.status_code == 404, url
        assert page.headers["content-type"].startswith("text/html") and "Not found" in page.text
    assert client.post("/forget", data={"fact": str(theirs)}).status_code == 404
    assert "I live in Oslo" not in client.get("/search", params={"q": "Oslo Fjord Labs"}).text


def test_text_is_escaped_everywhere(client: TestClient, keys: tuple[str, str]) -> None:
    text = 'I live in <b>Paris</b> now <script>alert("x")</script> & "quotes"'
    response = client.post(
        "/v1/messages",
        json={"session_id": "<img src=x onerror=alert(1)>", "messages": [{"speaker": "user", "text": text}]},
        headers={"Authorization": f"Bearer {keys[0]}"},
    )
    assert response.status_code == 200
    pages = [
        client.get("/sessions/" + "<img src=x onerror=alert(1)>"),
        client.get("/search", params={"q": "Paris <script>alert(2)</script>"}),
        client.get("/sessions"),
        client.get("/"),
    ]
    for page in pages:
        assert page.status_code == 200
        assert "<script>" not in page.text and "<img src=x" not in page.text and "<b>Paris" not in page.text
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in pages[0].text
    assert "&lt;b&gt;Paris&lt;/b&gt;" in pages[0].text
    assert "“Paris &lt;script&gt;alert(2)&lt;/script&gt;”" in pages[1].text
    assert 'href="/sessions/%3Cimg%20src%3Dx%20onerror%3Dalert%281%29%3E"' in pages[2].text


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/facts/abc", 404),
        ("/facts/0", 404),
        ("/facts/99999999999999999999999", 404),
        ("/sessions/nope", 404),
        ("/forget", 400),
        ("/forget?fact=3&session=s01", 400),
        ("/forget?turn=nope", 404),
        ("/sessions/s01?turn=first", 400),
        ("/search?q=" + "x" * 2001, 400),
        ("/ask?q=" + "x" * 2001, 400),
        ("/search?q=%3F%3F%3F", 400),  # "???": no word to search for
        ("/ask?q=%3F", 400),
    ],
)
def test_errors_are_pages(client: TestClient, url: str, status: int) -> None:
    page = client.get(url)
    assert page.status_code == status
    assert page.headers["content-type"].startswith("text/html")
    assert f'<span class="code">{status}</span>' in page.text


def test_pages_forbid_scripts_frames_and_caching(client: TestClient) -> None:
    headers = client.get("/").headers
    policy = headers["content-security-policy"]
    assert "default-src 'none'" in policy and "script-src" not in policy and "frame-ancestors 'none'" in policy
    assert headers["x-frame-options"] == "DENY" and headers["cache-control"] == "no-store"
    assert client.get("/static/web.css").status_code == 200
    api = client.get("/openapi.json").json()["paths"]
    assert api and not any(path == "/" or path.startswith(("/facts", "/login", "/forget")) for path in api)


# -- pieces -----------------------------------------------------------------------------------------------------


def test_segments_nest_overlapping_spans() -> None:
    parts = segments("abcdefgh", [Span(1, 6, fact_id=1), Span(3, 5, fact_id=2), Span(4, 99, cited=True)])
    assert [(p.text, p.link, p.classes) for p in parts] == [
        ("a", None, ""),
        ("bc", 1, ""),
        ("d", 2, ""),
        ("e", 2, "cite"),
        ("f", 1, "cite"),
        ("gh", None, "cite"),
    ]
    assert segments("", [Span(0, 3)]) == []


def test_periods_read_like_dates() -> None:
    assert period("2025-06-01T00:00:00", "2025-09-01T00:00:00") == "Jun – Aug 2025"
    assert period("2026-03-23T00:00:00", "2026-03-24T00:00:00") == "23 Mar 2026"
    assert period("2026-03-02T06:00:00", "2026-03-02T12:00:00") == "2 Mar 2026, 06:00–12:00"
    assert period("2026-02-28T00:00:00", "2026-03-02T00:00:00") == "28 Feb – 1 Mar 2026"
    assert period("not a date", None) == "not a date"


def test_the_api_does_not_take_the_page_cookie(client: TestClient, keys: tuple[str, str]) -> None:
    """The login cookie opens the pages only: /v1 and /mcp want the bearer header (a page another site opens in
    the browser must not reach the API with it)."""
    assert client.cookies.get(COOKIE)
    assert client.get("/").status_code == 200
    assert client.get("/v1/facts").status_code == 401
    assert client.delete("/v1/sessions/s01", params={"dry_run": "true"}).status_code == 401
    assert client.get("/v1/facts", headers={"Authorization": f"Bearer {keys[0]}"}).status_code == 200
