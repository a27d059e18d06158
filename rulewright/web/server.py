"""The workbench's web server: the page, and the JSON the page asks for, each answer a job
of the application (``rulewright/app``) as the command line and the Python API run it.

In:  a workspace folder (saves go there and nowhere else), the specs to offer first, the
     address to serve on (127.0.0.1 unless told otherwise); then the browser's requests,
     untrusted: every body read within ``MOST_BODY`` bytes, every name checked, every
     evaluation under the rules' budgets.
Out: ``make_app``: a Starlette application. Safe by default: requests from another
     origin, and with another Host than the server's own (a page that renamed itself
     127.0.0.1), are refused; every page and answer carries a content policy that runs
     only the workbench's own script; a seat's answer holds only what that seat may see
     (``app.table``).

    GET  /                                 the page (static/index.html)
    GET  /api/library                      what may be opened, what the workspace holds
    POST /api/open {name}                  a draft's text (shipped, saved, or a new one)
    POST /api/check {name, text}           the draft checked, its diff, its tokens
    POST /api/save {name, text}            written to WORKSPACE/NAME.rules
    POST /api/jobs {kind, name, text, ...} verify or study the draft (a process)
    GET  /api/jobs/ID, /api/jobs/ID/events its result; its progress (server-sent events)
    POST /api/jobs/ID/cancel               the job ended
    GET  /api/jobs/ID/report               a study's report (a page that runs no script)
    POST /api/replay {game|position, ...}  a witness replayed: its game again, or its position
    POST /api/seats {...}                  the seats of a game for a number of players
    POST /api/tables {...}                 a game at the table (humans and bots)
    GET  /api/tables/ID/seats/SEAT         what that seat is shown
    POST /api/tables/ID/seats/SEAT/choose {index}, .../undo   the seat's move, its undo
    POST /api/tables/ID/seats/SEAT/suggest {bot?}  a suggestion with its reasons
    POST /api/tables/ID/seats/SEAT/step {step}     a finished game stepped through
    GET  /api/tables/ID/save               the game as a state file (play --from reads it)
    POST /api/tables/ID/save {name}        the same, written to WORKSPACE/NAME.json
    POST /api/tables/load {game|state, seats, ...}  a saved game going on at the table
"""
from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import shutil
import sys
import tempfile
import threading
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request as HttpRequest
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from rulewright.app import drafting, witnesses
from rulewright.app.opening import Request, open_spec
from rulewright.compiler import files
from rulewright.app.table import Sitting, seats_of
from rulewright.compiler.diagnostics import BadInputError, RulesError
from rulewright.web.jobs import Jobs

STATIC = Path(__file__).parent / "static"
MOST_BODY = 1024 * 1024         # the largest request body (a draft is at most 256 KiB of text)
MOST_TABLES = 8                 # games kept at once (the oldest dropped)
POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
          "frame-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'self'")
REPORT_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox"


class Refused(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


class Workbench:
    """The server's state: the drafts, the jobs, the tables; one lock for the rules' work
    done in the server's own process (the interpreter's budget is the process's)."""

    def __init__(self, workspace: str | Path, specs: tuple[str, ...] = ()):
        self.drafts = drafting.Drafts(workspace)
        self.jobs = Jobs()
        self.tables: dict[str, Sitting] = {}
        self.placed: dict[str, Path | None] = {}       # table -> the draft's file it plays
        self.specs = tuple(specs)
        self._ids = itertools.count(1)
        self.lock = threading.Lock()
        self.outs = Path(tempfile.mkdtemp(prefix="rulewright-jobs-"))

    def close(self) -> None:
        self.jobs.close()
        self.drafts.close()
        shutil.rmtree(self.outs, ignore_errors=True)

    def locked(self, fn, *args):
        with self.lock:
            return fn(*args)


# ---------------------------------------------------------------- requests
async def _body(request: HttpRequest) -> dict:
    """The request's JSON object, read within MOST_BODY bytes."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise Refused(415, "the workbench takes JSON (Content-Type: application/json)")
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > MOST_BODY):
        raise Refused(413, f"the request is larger than the {MOST_BODY:,} bytes the workbench reads")
    chunks, total = [], 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > MOST_BODY:
            raise Refused(413, f"the request is larger than the {MOST_BODY:,} bytes the workbench reads")
        chunks.append(chunk)
    try:
        data = json.loads(b"".join(chunks).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Refused(400, "the request is not JSON") from None
    if not isinstance(data, dict):
        raise Refused(400, "the request is not a JSON object")
    return data


def _error(exc: BaseException) -> JSONResponse:
    if isinstance(exc, Refused):
        return JSONResponse({"error": exc.message}, status_code=exc.status)
    if isinstance(exc, RulesError):
        d = exc.diagnostics[0]
        return JSONResponse({"error": exc.render(), "message": d.message, **({"hint": d.hint} if d.hint else {})},
                            status_code=400)
    print(f"rulewright serve: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
    return JSONResponse({"error": f"internal error ({type(exc).__name__}): please report it"}, status_code=500)


def _handler(fn):
    """An endpoint whose errors are answers: a user's mistake 400 with its message."""
    async def endpoint(request: HttpRequest):
        try:
            return await fn(request)
        except Exception as exc:        # noqa: BLE001 (every error answered, none a traceback)
            return _error(exc)
    return endpoint


def _text_of(data: dict) -> tuple[str, str]:
    return drafting.name_ok(data.get("name")), drafting.text_ok(data.get("text"))


# ---------------------------------------------------------------- the application
def make_app(workspace: str | Path, specs: tuple[str, ...] = (),
             hosts: tuple[str, ...] | None = ("127.0.0.1",)) -> "Guard":
    """The workbench's application, answering to ``hosts`` (and this machine's own names;
    None: to any name, when served on another address than this machine's)."""
    wb = Workbench(workspace, specs)

    async def index(request):
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

    async def library(request):
        from rulewright.solver.verify.findings import CHECKS   # (the names of verify's checks: no solver loaded)
        return JSONResponse({"checks": list(CHECKS), "library": drafting.library(), "workspace": wb.drafts.saved(), "games": wb.drafts.games(),
                             "folder": str(wb.drafts.workspace), "first": list(wb.specs)})

    async def open_(request):
        data = await _body(request)
        return JSONResponse(await run_in_threadpool(wb.locked, wb.drafts.opened, data.get("name")))

    async def check(request):
        name, text = _text_of(await _body(request))
        return JSONResponse(await run_in_threadpool(wb.locked, wb.drafts.check, name, text))

    async def save(request):
        name, text = _text_of(await _body(request))
        path = await run_in_threadpool(wb.locked, wb.drafts.save, name, text)
        return JSONResponse({"saved": path.name, "folder": str(wb.drafts.workspace)})

    async def start_job(request):
        data = await _body(request)
        name, text = _text_of(data)
        kind = data.get("kind")
        path = await run_in_threadpool(wb.locked, wb.drafts.place, name, text, f"job-{next(wb._ids)}")
        params: dict = {"path": str(path), "shown": f"{name}.rules", "roots": [str(wb.drafts.workspace)]}
        if kind in ("verify", "study") and (kind == "study" or data.get("against_base")):
            try:
                base = await run_in_threadpool(wb.locked, _base_of, str(path))
            except BaseException:
                wb.drafts.drop(path)
                raise
        if kind == "verify":
            if data.get("against_base"):
                params.update(against=base, against_shown=base)
            checks = data.get("checks")
            if checks is not None and (not isinstance(checks, list) or not all(isinstance(c, str) for c in checks)):
                raise Refused(400, "checks is a list of check names")
            params.update(checks=checks, time_limit=_number(data.get("time_limit", 10), 1, 300, "time limit"))
        elif kind == "study":
            out = wb.outs / f"study-{next(wb._ids)}"
            out.mkdir()
            params.update(against=base, games=_number(data.get("games", 40), 2, 20000, "games"),
                          players=data.get("players") and _number(data["players"], 1, 12, "players"),
                          seed=_number(data.get("seed", 1), 0, 2**31, "seed"), out=str(out),
                          skill_games=_number(data.get("skill_games", 4), 0, 10000, "skill games"))
        else:
            wb.drafts.drop(path)
            raise Refused(400, "kind is verify or study")
        try:
            job = wb.jobs.start(kind, params, ended=lambda: wb.drafts.drop(path))
        except BaseException:
            wb.drafts.drop(path)
            raise
        return JSONResponse(job.data())

    def _job(request):
        return _found(wb.jobs.get(request.path_params["job"]), "no such job (finished jobs are kept for a while only)")

    async def job_state(request):
        job = _job(request)
        return JSONResponse({**job.data(), "result": job.result,
                             "message": next((e.get("message") for e in job.events if e["type"] == "failed"), None)})

    async def job_events(request):
        job = _job(request)

        async def stream():
            sent = 0
            while True:
                while sent < len(job.events):
                    yield f"data: {json.dumps(job.events[sent])}\n\n"
                    sent += 1
                if job.closed and sent >= len(job.events):      # (its last event is in)
                    return
                await asyncio.sleep(0.2)
                yield ": still here\n\n"
        return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})

    async def job_cancel(request):
        job = _job(request)
        return JSONResponse({"cancelled": await run_in_threadpool(wb.jobs.cancel, job.id)})

    async def job_report(request):
        job = _job(request)
        out = job.out
        if job.kind != "study" or job.state != "done" or not out or not (Path(out) / "report.html").is_file():
            raise Refused(404, "no report: the study has not finished")
        return FileResponse(Path(out) / "report.html", media_type="text/html; charset=utf-8",
                            headers={"Content-Security-Policy": REPORT_POLICY})

    async def new_table(request):
        data = await _body(request)
        seats = _seats_of(data)
        players = _number(data["players"], 1, 12, "players") if data.get("players") is not None else None
        seed = _number(data.get("seed", 1), 0, 2**31, "seed")

        lang = _lang_of(data)

        def made():
            return _sitting(wb, data, lambda spec, program: Sitting(program, spec, players=players, seed=seed,
                                                                    kinds=seats, lang=lang))
        return _seated(wb, *await run_in_threadpool(wb.locked, made))

    async def table_seats(request):
        data = await _body(request)
        players = _number(data["players"], 1, 12, "players") if data.get("players") is not None else None

        def seats():
            spec, program, placed = _program_of(wb, data, "draft")
            try:
                return seats_of(program, spec, players)
            finally:
                wb.drafts.drop(placed)
        return JSONResponse(await run_in_threadpool(wb.locked, seats))

    def _table(request) -> Sitting:
        return _found(wb.tables.get(request.path_params["table"]), "no such game at the table (start one)")

    async def seat_view(request):
        t = _table(request)
        return JSONResponse(await run_in_threadpool(wb.locked, t.seen_by, request.path_params["seat"]))

    async def seat_choose(request):
        t = _table(request)
        data = await _body(request)
        seat = request.path_params["seat"]

        def chosen():
            t.choose(seat, data.get("index"))
            return t.seen_by(seat)
        return JSONResponse(await run_in_threadpool(wb.locked, chosen))

    async def seat_undo(request):
        t = _table(request)
        seat = request.path_params["seat"]

        def undone():
            if seat not in t.humans:
                raise BadInputError(f"no seat {seat!r} is played by a person at this table")
            if not t.undo(seat):
                raise BadInputError("nothing of yours to take back yet")
            return t.seen_by(seat)
        return JSONResponse(await run_in_threadpool(wb.locked, undone))

    async def seat_step(request):
        t = _table(request)
        step = (await _body(request)).get("step")
        return JSONResponse(await run_in_threadpool(wb.locked, t.at, request.path_params["seat"], step))

    async def seat_suggest(request):
        t = _table(request)
        data = await _body(request)
        bot = data.get("bot")
        if bot is not None and not isinstance(bot, str):
            raise Refused(400, "bot is the name of a bot (greedy, mcts:time=1), or left out for the solver")
        return JSONResponse(await run_in_threadpool(wb.locked, t.suggest, request.path_params["seat"], bot))

    async def replay(request):
        data = await _body(request)
        game, position = data.get("game"), data.get("position")

        def replayed():
            if not isinstance(game, dict) and not isinstance(position, dict):
                raise BadInputError("replay takes a witness's game (mode, players, seed) or its position")
            spec, program, placed = _program_of(wb, data, "replay")
            try:
                if isinstance(game, dict):
                    out = witnesses.replayed(program, str(game.get("mode")),
                                             _number(game.get("players"), 1, 12, "players"),
                                             _number(game.get("seed"), 0, 2**63, "seed"))
                else:
                    path = wb.drafts.game_file(text=json.dumps(position))
                    out = {"lines": witnesses.shown(program, spec, str(path))}
            except RulesError as exc:
                raise Shown(exc, placed, data) from None
            finally:
                wb.drafts.drop(placed)
            return _shown(out, wb, placed, data)
        return JSONResponse(await run_in_threadpool(wb.locked, replayed))

    async def table_save(request):
        t = _table(request)
        text = await run_in_threadpool(wb.locked, t.save_text)
        return Response(text, media_type="application/json",
                        headers={"Content-Disposition": 'attachment; filename="game.json"'})

    async def table_save_here(request):
        t = _table(request)
        name = drafting.name_ok((await _body(request)).get("name"))

        def saved():
            return wb.drafts.save_game(name, t.save_text())
        path = await run_in_threadpool(wb.locked, saved)
        return JSONResponse({"saved": path.name, "folder": str(wb.drafts.workspace)})

    async def table_load(request):
        data = await _body(request)
        seats = _seats_of(data)

        def loaded():
            game = data.get("game")
            path = wb.drafts.game_file(name=game) if game is not None else \
                wb.drafts.game_file(text=data.get("state"))
            return _sitting(wb, data, lambda spec, program: Sitting.saved(program, spec, str(path), kinds=seats,
                                                                          lang=_lang_of(data)))
        return _seated(wb, *await run_in_threadpool(wb.locked, loaded))

    routes = [
        Route("/", index),
        Route("/api/library", _handler(library)),
        Route("/api/open", _handler(open_), methods=["POST"]),
        Route("/api/check", _handler(check), methods=["POST"]),
        Route("/api/save", _handler(save), methods=["POST"]),
        Route("/api/jobs", _handler(start_job), methods=["POST"]),
        Route("/api/jobs/{job}", _handler(job_state)),
        Route("/api/jobs/{job}/events", _handler(job_events)),
        Route("/api/jobs/{job}/cancel", _handler(job_cancel), methods=["POST"]),
        Route("/api/jobs/{job}/report", _handler(job_report)),
        Route("/api/tables", _handler(new_table), methods=["POST"]),
        Route("/api/seats", _handler(table_seats), methods=["POST"]),
        Route("/api/tables/{table}/seats/{seat}", _handler(seat_view)),
        Route("/api/tables/{table}/seats/{seat}/choose", _handler(seat_choose), methods=["POST"]),
        Route("/api/tables/{table}/seats/{seat}/undo", _handler(seat_undo), methods=["POST"]),
        Route("/api/tables/{table}/seats/{seat}/suggest", _handler(seat_suggest), methods=["POST"]),
        Route("/api/tables/{table}/seats/{seat}/step", _handler(seat_step), methods=["POST"]),
        Route("/api/tables/{table}/save", _handler(table_save)),
        Route("/api/tables/{table}/save", _handler(table_save_here), methods=["POST"]),
        Route("/api/tables/load", _handler(table_load), methods=["POST"]),
        Route("/api/replay", _handler(replay), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        wb.close()
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.workbench = wb
    return Guard(app, hosts)


def _found(thing, missing: str):
    if thing is None:
        raise Refused(404, missing)
    return thing


LANGUAGES = ("en", "fr", "es", "zh")


def _lang_of(data: dict) -> str:
    """The language of a table's words (the spec's catalogues: i18n/LANG.po)."""
    lang = data.get("lang") or "en"
    if lang not in LANGUAGES:
        raise Refused(400, f"lang is one of {', '.join(LANGUAGES)}")
    return lang


def _seats_of(data: dict) -> dict[str, str]:
    seats = data.get("seats") or {}
    if not isinstance(seats, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in seats.items()):
        raise Refused(400, "seats maps each seat's name to human or a bot")
    return seats


def _sitting(wb: Workbench, data: dict, make) -> tuple[Sitting, Path | None]:
    """A game at the table of the spec sent (``make(spec, program)``), and the draft's
    file it keeps while it is played (None for a shipped spec)."""
    table = f"table-{next(wb._ids)}"
    spec, program, placed = _program_of(wb, data, table)
    with _dropped_on_error(wb, placed, data):
        sitting = make(spec, program)
    if placed is not None:           # a game saved names the house rule's own file, not the draft's
        sitting.spec_file = str(wb.drafts.workspace / f"{data['name']}.rules")
    return sitting, placed


def _seated(wb: Workbench, sitting: Sitting, placed: Path | None) -> JSONResponse:
    """A new game at the table, kept (the oldest dropped past MOST_TABLES, with its draft's file)."""
    table_id = f"table-{next(wb._ids)}"
    wb.tables[table_id] = sitting
    wb.placed[table_id] = placed
    for old in list(wb.tables)[:-MOST_TABLES]:
        del wb.tables[old]
        wb.drafts.drop(wb.placed.pop(old, None))
    return JSONResponse({"id": table_id, "humans": list(sitting.humans), "game": sitting.program.title,
                         "players": sitting.players, "warnings": sitting.warnings})


class Shown(RulesError):
    """A spec error of a placed draft, its file written as the draft's name."""

    def __init__(self, exc: RulesError, placed: Path | None, data: dict):
        self.placed, self.shown = placed, f"{data.get('name')}.rules"
        super().__init__(exc.diagnostics)
        self.exit_code = exc.exit_code

    def render(self) -> str:
        text = super().render()
        return drafting.shown_as(text, self.placed, self.shown) if self.placed is not None else text


def _shown(out: dict, wb: Workbench, placed: Path | None, data: dict) -> dict:
    text = json.dumps(out).replace(str(wb.drafts.folder) + "/", "")
    if placed is not None:
        text = text.replace(json.dumps(str(placed))[1:-1], f"{data.get('name')}.rules")
    return json.loads(text)


def _program_of(wb: Workbench, data: dict, use: str):
    """The spec sent: a shipped one by name, or the draft (placed for ``use``): its path,
    its program, and the placed file (None for a shipped spec), which the caller drops."""
    if data.get("shipped"):
        name = data["shipped"]
        found = files.shipped(name) if isinstance(name, str) and files.is_name(name) else None
        if found is None:
            raise BadInputError(f"no shipped game, version or house rule {str(name)[:80]!r}")
        return str(found), open_spec(Request(str(found))), None
    name, text = _text_of(data)
    placed = wb.drafts.place(name, text, use)
    with _dropped_on_error(wb, placed, data):
        return str(placed), open_spec(Request(str(placed))), placed


@contextlib.contextmanager
def _dropped_on_error(wb: Workbench, placed: Path | None, data: dict):
    """The placed draft taken away when what reads it fails (its errors naming the draft)."""
    try:
        yield
    except RulesError as exc:
        wb.drafts.drop(placed)
        raise Shown(exc, placed, data) from None
    except BaseException:
        wb.drafts.drop(placed)
        raise


def _base_of(path: str) -> str:
    program = open_spec(Request(path))
    if not program.variants:
        raise BadInputError("this spec is no house rule: it extends no game, so there is no base to compare with")
    return program.variants[0].extends


def _number(value, low: int, high: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadInputError(f"{what}: a whole number from {low} to {high}, not {str(value)[:40]!r}")
    return value


class Guard:
    """Every request checked before the application sees it: its Host is the server's own
    (a page that renamed its own name to 127.0.0.1 is refused), a request that changes
    anything comes from the workbench's own page (its Origin); every answer carries the
    content policy (only the workbench's own script runs) and is never framed elsewhere."""

    def __init__(self, app, hosts: tuple[str, ...] | None):
        # (None: served on another address than this machine's own, which other machines
        # reach by names the server cannot know: the Origin check still holds)
        self.app = app
        self.hosts = None if hosts is None else set(hosts) | {"127.0.0.1", "localhost", "[::1]"}

    @property
    def workbench(self) -> Workbench:
        return self.app.state.workbench

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host", "")
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        refused = None
        if self.hosts is not None and name not in self.hosts:
            refused = (421, f"this server answers to {', '.join(sorted(self.hosts))} only, not {host[:80]!r}")
        elif scope["method"] not in ("GET", "HEAD"):
            origin = headers.get("origin")
            if origin is None or origin.split("://", 1)[-1] != host:
                refused = (403, "a request from another page than the workbench's own is refused")

        async def sending(message):
            if message["type"] == "http.response.start":
                extra = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
                         (b"cache-control", b"no-store")]
                have = {k.lower() for k, _ in message.get("headers", [])}
                if b"content-security-policy" not in have:
                    extra.append((b"content-security-policy", POLICY.encode()))
                message = {**message, "headers": list(message.get("headers", [])) + extra}
            await send(message)
        if refused is not None:
            return await JSONResponse({"error": refused[1]}, status_code=refused[0])(scope, receive, sending)
        return await self.app(scope, receive, sending)


__all__ = ["Guard", "MOST_BODY", "make_app"]
