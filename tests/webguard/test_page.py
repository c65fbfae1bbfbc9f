"""One way to write a page's head (issue 35, webguard/page.py): every page of both servers is its file with the
shared head put before it, the whole page served with a tag and told 304 while the browser's copy is the page."""

from __future__ import annotations

from pathlib import Path

from kiosk.config import Settings
from kiosk.main import PAGES, STATIC, create_app
from tests.kiosk.fakes import FakeService
from tests.web import HTTP
from webguard.page import HEAD
from webguard.server import BackgroundServer

ROOT = Path(__file__).resolve().parents[2]


def test_each_page_file_holds_only_its_own_head_and_body() -> None:
    files = sorted([*(ROOT / "kiosk" / "static").glob("*.html"), *(ROOT / "club" / "static").glob("*.html")])
    assert len(files) >= 10
    for file in files:
        text = file.read_text(encoding="utf-8")
        assert text.lstrip().startswith("<title>"), file.name
        assert "<!doctype" not in text.lower() and "<meta" not in text and text.count("</head>") == 1, file.name


def test_the_kiosk_serves_each_page_whole_with_a_tag(tmp_path: Path) -> None:
    app = create_app(Settings(data_dir=tmp_path), service=FakeService(), coach_engine=None)
    with BackgroundServer(app) as server:
        for path, name in PAGES.items():
            page = HTTP.get(server.url + path)
            assert page.status_code == 200 and page.headers["content-type"] == "text/html; charset=utf-8"
            assert page.text == HEAD + (STATIC / name).read_text(encoding="utf-8"), path
            assert page.text.startswith('<!doctype html>\n<html lang="pt-BR">')
            assert page.headers["cache-control"] == "no-cache"
            again = HTTP.get(server.url + path, headers={"If-None-Match": page.headers["etag"]})
            assert again.status_code == 304 and again.content == b"", path
            assert HTTP.get(server.url + path, headers={"If-None-Match": '"old"'}).status_code == 200
