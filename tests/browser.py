"""The browser tests' set-up: the system's Chromium (driven by Playwright, no browser
download), its flags on a machine with no network, and a quiet static server on 127.0.0.1."""
from __future__ import annotations

import contextlib
import functools
import http.server
import shutil
import threading

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class Quiet(http.server.SimpleHTTPRequestHandler):
    """A static server's answers, unlogged. Every file but a page may be kept by the browser
    for an hour (``Cache-Control``): a browser opening page after page then reads the
    theme's scripts and styles once and compiles its scripts once, as a reader's browser
    does. With ``empty_search`` (``serving(..., without_search=True)``), the site's search
    index is answered by that one instead."""
    empty_search: bytes | None = None

    def log_message(self, *args):
        pass

    def end_headers(self):
        if not self.path.split("?")[0].endswith(("/", ".html")):
            self.send_header("Cache-Control", "max-age=3600")
        super().end_headers()

    def do_GET(self):
        if self.empty_search is not None and self.path.split("?")[0].endswith("/search/search_index.json"):
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(self.empty_search)))
            self.end_headers()
            self.wfile.write(self.empty_search)
            return
        super().do_GET()


class Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass                    # a page left before its files arrived: not the site's fault


@contextlib.contextmanager
def serving(folder, without_search: bool = False):
    """The files of ``folder`` served on 127.0.0.1: yields the address. ``without_search``:
    the site's search index answered by one with the same settings and no page. Every page
    starts the search in a worker that reads the whole index (5 MB, four languages'
    pipelines) as soon as it loads, which is most of a page's cost in a headless browser;
    tests that read pages and not search results need none of it (the search tests keep
    the real index). (Answered by the server rather than by the browser's request routing:
    a browser that routes requests keeps nothing in its cache.)"""
    handler = Quiet
    if without_search:
        import json
        from pathlib import Path
        config = json.loads((Path(folder) / "search" / "search_index.json").read_text(encoding="utf-8"))["config"]
        handler = type("QuietWithoutSearch", (Quiet,),
                       {"empty_search": json.dumps({"config": config, "docs": []}).encode()})
    server = Server(("127.0.0.1", 0), functools.partial(handler, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
