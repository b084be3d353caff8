"""A small pool of child processes for work any client may ask for and make expensive, each job on a budget.

The server's threads serve games; the card editor's ``check`` (compiling a
card anyone types) is sent to these workers instead, so however many clients
send heavy cards, at most ``size`` of them are compiled at once, each in a
process of its own, and the threads that serve games never run one.

Each worker is ``python -m innoscript.runtime.serving.sandbox --worker``: it
reads one JSON job per line and writes one JSON reply per line.  It limits its
own address space, writes no core file, runs at a lower priority than the
server (so a busy worker slows the server's answers as little as possible),
keeps the compiled tier's translations in memory only, and works in a
temporary folder of its own, which is removed when the worker ends.  Before
each job it sets its CPU limit to what it has used so far plus the job's
budget, so the kernel stops a job that runs over (SIGXCPU); the pool kills a
job that outlives its wall-clock budget.  A worker that died is replaced.

A job is refused ``Busy`` at once when every worker is taken (a thread is
never parked waiting for one), and ``OverBudget`` when it was stopped.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

LIMITS = {
    "workers": 2,              # jobs at once; one more is refused 'busy'
    "cpu_seconds": 3,          # CPU time of one job
    "wall_seconds": 6,         # one job's time, waiting included
    "memory_bytes": 1 << 30,   # address space of a worker
}


STARTUP_SECONDS = 60       # for a worker to start (a busy machine); a job's budget begins after


class Busy(Exception):
    """Every worker is taken."""


class OverBudget(Exception):
    """The job ran over its CPU or wall-clock budget and was stopped (its worker is replaced)."""


class _Worker:
    def __init__(self, command: list[str], limits: dict):
        self.folder = tempfile.mkdtemp(prefix="innoscript-worker-")
        env = dict(os.environ, INNOSCRIPT_TIER_CACHE="0", TMPDIR=self.folder, PYTHONDONTWRITEBYTECODE="1",
                   INNOSCRIPT_WORKER_LIMITS=json.dumps(limits), INNOSCRIPT_WORKER_FOLDER=self.folder)
        try:
            self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, cwd=self.folder, env=env, start_new_session=True)
        except OSError:
            shutil.rmtree(self.folder, ignore_errors=True)
            raise
        # it says when it is ready (its imports done), so a job's budget is the job's alone
        timer = threading.Timer(STARTUP_SECONDS, self.kill)
        timer.daemon = True
        timer.start()
        try:
            ready = self.proc.stdout.readline()
        except (OSError, ValueError):
            ready = b""
        finally:
            timer.cancel()
        if ready.strip() != b'{"ready": true}':
            self.kill()
            raise OverBudget("the checker could not start")

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                f.close()
            except OSError:
                pass
        shutil.rmtree(self.folder, ignore_errors=True)


class Pool:
    """Workers started on demand, at most ``limits['workers']`` of them; ``run`` gives a job to a free one."""

    def __init__(self, command: list[str], limits: dict | None = None):
        self.command = list(command)
        self.limits = dict(LIMITS, **(limits or {}))
        self.lock = threading.Lock()
        self.free: list[_Worker] = []
        self.taken = 0
        self.jobs = 0            # jobs run (tests and benchmarks read it)
        self.stopped = 0         # jobs stopped at their budget

    def run(self, job: str, args: dict):
        """The job's result, from a worker. Busy when every worker is taken; OverBudget when it was stopped."""
        with self.lock:
            if self.taken >= self.limits["workers"]:
                raise Busy(job)
            self.taken += 1
            worker = self.free.pop() if self.free else None
        try:
            if worker is None or not worker.alive():
                if worker is not None:
                    worker.kill()
                worker = _Worker(self.command, self.limits)
            result = self._ask(worker, job, args)
        except BaseException:
            if worker is not None:
                worker.kill()
            with self.lock:
                self.taken -= 1
            raise
        with self.lock:
            self.taken -= 1
            self.free.append(worker)
        return result

    def _ask(self, worker: _Worker, job: str, args: dict):
        self.jobs += 1
        request = json.dumps({"job": job, "args": args, "cpu_seconds": self.limits["cpu_seconds"]}) + "\n"
        timer = threading.Timer(self.limits["wall_seconds"], worker.kill)
        timer.daemon = True
        start = time.monotonic()
        timer.start()
        try:
            worker.proc.stdin.write(request.encode())
            worker.proc.stdin.flush()
            line = worker.proc.stdout.readline()
        except (OSError, ValueError):
            line = b""
        finally:
            timer.cancel()
        if not line:
            self.stopped += 1
            worker.kill()
            waited = time.monotonic() - start
            if waited >= self.limits["wall_seconds"] - 0.05:
                raise OverBudget(f"it took longer than {self.limits['wall_seconds']} s and was stopped")
            raise OverBudget(f"it used more than {self.limits['cpu_seconds']} s of CPU time and was stopped")
        reply = json.loads(line)
        if "error" in reply:
            raise OverBudget(reply["error"])
        return reply["result"]

    def close(self) -> None:
        with self.lock:
            workers, self.free = self.free, []
        for w in workers:
            w.kill()


def serve_jobs(jobs: dict, inp=None, out=None) -> int:
    """A worker's main loop: each line a job {"job", "args", "cpu_seconds"}, each answered with one line, its
    "result" or its "error". Called by the module that knows the jobs (runtime/serving/sandbox.py)."""
    import resource
    limits = json.loads(os.environ.get("INNOSCRIPT_WORKER_LIMITS") or "{}")
    memory = int(limits.get("memory_bytes", LIMITS["memory_bytes"]))
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))     # a job stopped by SIGXCPU leaves no core file
    try:
        os.nice(10)
    except OSError:
        pass
    inp = inp or sys.stdin.buffer
    out = out or sys.stdout.buffer
    out.write(b'{"ready": true}\n')
    out.flush()
    for line in inp:
        try:
            request = json.loads(line)
            fn = jobs[request["job"]]
            used = resource.getrusage(resource.RUSAGE_SELF)
            spent = used.ru_utime + used.ru_stime
            _soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
            budget = int(spent + float(request["cpu_seconds"])) + 1
            resource.setrlimit(resource.RLIMIT_CPU, (budget if hard == resource.RLIM_INFINITY else min(budget, hard),
                                                     hard))
            reply = {"result": fn(**request["args"])}
        except MemoryError:
            reply = {"error": "it ran out of memory and was stopped"}
        except RecursionError:
            reply = {"error": "it nested too deeply and was stopped"}
        except Exception as err:   # a bad job: said, and the worker goes on
            reply = {"error": f"it failed ({type(err).__name__})"}
        out.write(json.dumps(reply).encode() + b"\n")
        out.flush()
    folder = os.environ.get("INNOSCRIPT_WORKER_FOLDER", "")   # the server went away: leave nothing behind
    if os.path.basename(folder).startswith("innoscript-worker-") and os.path.realpath(os.getcwd()) == \
            os.path.realpath(folder):
        shutil.rmtree(folder, ignore_errors=True)
    return 0
