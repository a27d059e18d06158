"""The workbench's long jobs (verify, study), each in a process of its own: its progress
read as it comes, cancelled by ending the process, its result kept for the page.

In:  a job's kind and parameters (a draft's file, the checks, the games...).
Out: ``Job``: its events (progress, then done, failed or cancelled), read by the page
     through server-sent events; ``cancel``. The jobs themselves are the application's
     (``app.verifying``, ``app.studying``); this module only runs them apart, so a long
     proof never holds up the checking of what is typed, and a cancel stops it at once.
"""
from __future__ import annotations

import itertools
import json
import multiprocessing as mp
import os
import queue as queues
import signal
import threading
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

from rulewright.compiler.diagnostics import BadInputError, RulesError

KINDS = ("verify", "study")
MOST_RUNNING = 2                # jobs at once (each takes a core or more)
KEPT = 20                       # finished jobs kept for the page


@dataclass
class Job:
    id: str
    kind: str
    started: float = field(default_factory=time.time)
    events: list[dict] = field(default_factory=list)
    state: str = "running"      # running, done, failed, cancelled
    result: Any = None
    process: Any = None
    ended: Any = None           # called once when the job ends (its draft's file taken away)
    out: str | None = None      # the folder it writes (a study's report)
    closed: bool = False        # its last event is in ``events``: a reader may stop

    def end(self) -> None:
        done, self.ended = self.ended, None
        if done is not None:
            done()

    def close(self, event: dict) -> None:
        """The job's last event, once its state is set: the draft's file taken away first,
        then the event, then ``closed``, so a reader that sees ``closed`` has every event."""
        self.end()
        self.events.append(event)
        self.closed = True

    def data(self) -> dict:
        return {"id": self.id, "kind": self.kind, "state": self.state, "events": len(self.events)}


class Jobs:
    def __init__(self):
        self._jobs: dict[str, Job] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def get(self, job_id: str) -> Job | None:
        return self._jobs.get(job_id)

    def running(self) -> int:
        return sum(1 for j in self._jobs.values() if j.state == "running")

    def start(self, kind: str, params: dict, ended=None) -> Job:
        if kind not in KINDS:
            raise BadInputError(f"no job {kind!r}")
        with self._lock:
            if self.running() >= MOST_RUNNING:
                raise BadInputError(f"{MOST_RUNNING} jobs are running: wait for one, or cancel it")
            job = Job(f"{kind}-{next(self._ids)}", kind, ended=ended, out=params.get("out"))
            self._jobs[job.id] = job
            done = [j for j in self._jobs.values() if j.state != "running"]
            for old in done[:-KEPT]:
                del self._jobs[old.id]
        ctx = mp.get_context("spawn")
        q = ctx.Queue()
        job.process = ctx.Process(target=_child, args=(kind, params, q), daemon=False)
        job.process.start()
        threading.Thread(target=_drain, args=(job, q), daemon=True).start()
        return job

    def cancel(self, job_id: str) -> bool:
        job = self._jobs.get(job_id)
        if job is None or job.state != "running":
            return False
        job.state = "cancelled"         # (first: the reading thread then records nothing more)
        _end(job.process)
        job.close({"type": "cancelled"})
        return True

    def close(self) -> None:
        for job in list(self._jobs.values()):
            if job.state == "running":
                self.cancel(job.id)


def _end(process) -> None:
    """The job's process, and the processes it started (a study's workers), ended."""
    if process is None or not process.is_alive():
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)      # (the child leads its own group: its workers too)
    except OSError:
        process.terminate()
    process.join(5)
    if process.is_alive():
        process.kill()


def _drain(job: Job, q) -> None:
    """The child's messages into the job's events, until it ends."""
    try:
        _read(job, q)
    finally:
        if job.state == "running":          # (the queue broke: the job cannot report any more)
            job.state = "failed"
            _end(job.process)
            job.close({"type": "failed", "message": "the job's messages stopped; it was ended"})
        else:
            job.end()


def _read(job: Job, q) -> None:
    while True:
        try:
            kind, data = q.get(timeout=0.5)
        except queues.Empty:
            if job.state == "cancelled":
                return
            if job.process is not None and not job.process.is_alive():
                if job.state == "running":
                    job.state = "failed"
                    job.close({"type": "failed", "message": "the job ended without a result "
                               f"(exit {job.process.exitcode})"})
                return
            continue
        except (EOFError, OSError):
            return
        if job.state == "cancelled":
            return
        if kind == "progress":
            job.events.append({"type": "progress", **data})
        elif kind == "done":
            job.result = data
            job.state = "done"
            job.close({"type": "done"})
            return
        else:
            job.state = "failed"
            job.close({"type": "failed", **data})
            return


# ---------------------------------------------------------------- in the job's process
def _child(kind: str, params: dict, q) -> None:
    try:
        os.setpgrp()            # (a cancel ends this process and what it started together)
    except OSError:
        pass
    from rulewright.compiler import files       # (in the job's process)
    for root in params.get("roots", ()):
        files.add_root(root)
    last = [0.0]

    def progress(what: str, fraction: float) -> None:
        now = time.monotonic()
        if now - last[0] >= 0.2 or fraction >= 1:
            last[0] = now
            q.put(("progress", {"what": str(what), "fraction": max(0.0, min(1.0, float(fraction or 0)))}))
    try:
        result = (_verify if kind == "verify" else _study)(params, progress)
        q.put(("done", result))
    except RulesError as exc:
        q.put(("failed", {"message": exc.render().replace(params["path"], params["shown"])}))
    except Exception as exc:        # noqa: BLE001 (an internal error: said, with where it happened)
        q.put(("failed", {"message": f"internal error: {type(exc).__name__}: {exc}",
                          "trace": traceback.format_exc()[-2000:]}))


def _verify(params: dict, progress) -> dict:
    from rulewright.app import verifying         # (the job's modules: in its process only)
    from rulewright.app.opening import Request, open_spec      # (in the job's process)
    words = _words()[0]
    program = open_spec(Request(params["path"]))
    base = open_spec(Request(params["against"])) if params.get("against") else None
    report = verifying.verify_rules(program, params["shown"], base=base, against=params.get("against_shown", ""),
                                    checks=set(params["checks"]) if params.get("checks") else None,
                                    time_limit=float(params.get("time_limit", verifying.DEFAULT_TIME_LIMIT)),
                                    progress=progress, words=words)
    from rulewright.app.witnesses import drawn      # (in the job's process)
    data = report.to_json()
    for f, out in zip(report.findings, data["findings"]):
        out["drawn"] = drawn(f)
    text = verifying.report_text(report, False, words).replace(params["path"], params["shown"])
    findings = json.loads(json.dumps(data["findings"], default=str).replace(params["path"], params["shown"]))
    return {"text": text, "findings": findings, "summary": data["summary"]}


def _study(params: dict, progress) -> dict:
    from rulewright.app import studying          # (the job's modules: in its process only)
    from rulewright.app.opening import Request      # (in the job's process)
    from rulewright.app.study_report import effect_text, key_table      # (in the job's process)
    from rulewright.app import study_causes          # (in the job's process)
    sides, plan, reference = studying.set_up(Request(params["path"]), against=params.get("against"),
                                             players=params.get("players"), games=int(params["games"]),
                                             seed=int(params.get("seed", 1)), skill_games=int(params.get("skill_games", 4)),
                                             words=_words()[1])
    done = studying.conduct(sides, plan, out=params["out"], workers=params.get("workers"), reference=reference,
                            progress=progress)
    cols, rows, clear = key_table(done.study, done.figures)
    return {"columns": cols, "rows": rows, "clear": clear,
            "effects": [{"what": e["what"], "difference": effect_text(e), "witness": e["witness"],
                         "rules": e.get("rules", [])} for e in (done.effects or [])[:12]],
            "changes": study_causes.lines(done.figures.get("differences", {}).get("changes", [])),
            "report": any(str(v).endswith("report.html") for v in (done.written or {}).values()),
            "games": len(done.study.records), "seconds": round(done.study.seconds, 1)}


def _words():
    from rulewright.app import studying, verifying      # (in the job's process)
    return (verifying.Options("checks", "compared with its base", "every finding", "the findings' list",
                              "a longer time limit", "definitions looked at", "asked again"),
            studying.Words("compared with", "sweep", "seat", "skill"))

