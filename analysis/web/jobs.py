"""Long work of the web app (simulate, exploit, houseway, chart) as jobs: a queue of at most
``queued`` waiting behind ``running`` at once, each with its progress, its files in its own
folder, and a cancel that stops it at its next progress report."""

import itertools
import shutil
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path


class Cancelled(Exception):
    """Raised inside a job's work by its progress callback once the job is cancelled."""


class QueueFull(Exception):
    """More jobs waiting than the queue holds."""


@dataclass
class Job:
    id: str
    kind: str
    params: dict
    folder: Path
    state: str = "queued"  # queued, running, done, failed, cancelled
    stage: str = ""
    done: float = 0
    total: float | None = None
    error: str = ""
    result: dict | None = None
    created: float = field(default_factory=time.time)
    seconds: float | None = None
    cancel: threading.Event = field(default_factory=threading.Event)

    def files(self):
        """The job's result files, by name (the folder's files, not its checkpoints)."""
        if not self.folder.is_dir():
            return []
        return sorted(p.relative_to(self.folder).as_posix() for p in self.folder.rglob("*")
                      if p.is_file() and not p.name.startswith(".") and "checkpoint" not in p.name)

    def to_dict(self):
        return {"id": self.id, "kind": self.kind, "params": self.params, "state": self.state,
                "progress": {"stage": self.stage, "done": self.done, "total": self.total},
                "error": self.error, "result": self.result, "files": self.files(),
                "seconds": self.seconds}

    def stage_callback(self, label, total=None, unit="it"):
        """A progress callback for one stage of the work (as
        :meth:`sapsam.base.progress.Progress.task`) that raises :class:`Cancelled` once the
        job is cancelled."""
        if self.cancel.is_set():
            raise Cancelled
        self.stage, self.done, self.total = label, 0, total

        def progress(done, total=None):
            if self.cancel.is_set():
                raise Cancelled
            self.stage, self.done = label, done
            if total is not None:
                self.total = total

        return progress


class Jobs:
    """The job queue of one server: ``run(job)`` does the work of a job and returns its result
    (JSON-ready), writing any files into ``job.folder``."""

    def __init__(self, root, run, running=1, queued=8, kept=100):
        self.root, self.run, self.queued, self.kept = Path(root), run, queued, kept
        self._pool = ThreadPoolExecutor(running, thread_name_prefix="sapsam-job")
        self._jobs, self._futures = {}, {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def submit(self, kind, params):
        with self._lock:
            waiting = sum(job.state == "queued" for job in self._jobs.values())
            if waiting >= self.queued:
                raise QueueFull(f"{waiting} jobs are waiting already: try again when one is done")
            self._forget_old()
            job_id = f"{next(self._ids)}"
            job = Job(job_id, kind, params, self.root / job_id)
            self._jobs[job_id] = job
            self._futures[job_id] = self._pool.submit(self._work, job)
        return job

    def get(self, job_id):
        return self._jobs.get(job_id)

    def list(self):
        return list(self._jobs.values())

    def cancel(self, job_id):
        """Cancel a waiting job at once, a running one at its next progress report; None if
        there is no such job (or no longer)."""
        with self._lock:
            job, future = self._jobs.get(job_id), self._futures.get(job_id)
        if job is None:
            return None
        job.cancel.set()
        if future.cancel():
            job.state = "cancelled"
        return job

    def shutdown(self):
        for job in self._jobs.values():
            job.cancel.set()
        self._pool.shutdown(wait=True, cancel_futures=True)

    def _work(self, job):
        if job.cancel.is_set():
            job.state = "cancelled"
            return
        job.state = "running"
        start = time.perf_counter()
        job.folder.mkdir(parents=True, exist_ok=True)
        try:
            job.result = self.run(job)
            if job.total is not None:  # a stage that reported less than its whole (a chart's rows)
                job.done = job.total
            state = "done"
        except Cancelled:
            state = "cancelled"
        except (ValueError, TypeError) as exc:  # input only the work itself could check
            state, job.error = "failed", " ".join(str(exc).split())
        except Exception as exc:  # a bug: say what, keep the server up
            traceback.print_exc()
            state, job.error = "failed", f"internal error: {type(exc).__name__}: {exc}"
        # the time before the state that ends the job: a poll that sees it ended sees its time
        job.seconds = round(time.perf_counter() - start, 3)
        job.state = state

    def _forget_old(self):
        """Keep at most ``kept`` finished jobs (the oldest go, with their files)."""
        finished = [j for j in self._jobs.values() if j.state in ("done", "failed", "cancelled")]
        for job in sorted(finished, key=lambda j: j.created)[:max(0, len(finished) - self.kept + 1)]:
            shutil.rmtree(job.folder, ignore_errors=True)
            del self._jobs[job.id], self._futures[job.id]
