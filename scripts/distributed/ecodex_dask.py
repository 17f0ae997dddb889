#!/usr/bin/env python3
"""Scan a photo corpus on a Dask cluster with `scan batch` on every worker.

    ecodex_dask.py MANIFEST OUT.jsonl|OUT.parquet [--scheduler tcp://host:8786 | --local-workers N]
                   [--task-size 25] [--retries 3] [--scan /path/to/scan] [-- SCAN OPTIONS]

MANIFEST lists one photo path per line, as seen from the workers (a shared or
replicated folder). Options after `--` go to every `scan batch` (`--region US`,
`--lang eng+deu`). Prints a JSON summary; OUT gets one line (or Parquet row) per
distinct photo, keyed by the SHA-256 of its bytes, however often a task ran.

Only `run_on_dask` knows about Dask. The rest is the engine-free part: cutting the
manifest into tasks, the per-worker `scan batch` process, merging and the summary.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import os
import select
import shutil
import subprocess
import sys
import threading
import time

# --------------------------------------------------------------------------
# On the worker: one long-lived `scan batch --manifest -` per worker process.
# --------------------------------------------------------------------------


class ScanEngineDied(RuntimeError):
    """The worker's `scan batch` process ended or stopped answering: the task is retried."""


class ScanWorker:
    """A `scan batch` process fed one path at a time on standard input.

    Its OCR engine and store stay open across every task the worker runs; one
    path in, one JSON line out, in order. A photo that takes longer than
    `photo_timeout` seconds kills the process (the next task starts a new one).
    """

    def __init__(self, scan: str, args: list[str], photo_timeout: float):
        self.key = (scan, tuple(args))
        self.photo_timeout = photo_timeout
        env = dict(os.environ, OMP_THREAD_LIMIT="1")
        self.proc = subprocess.Popen(
            [scan, "batch", "--manifest", "-", *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, bufsize=0)
        self.pending = b""

    def alive(self) -> bool:
        return self.proc.poll() is None

    def scan(self, path: str) -> str:
        try:
            self.proc.stdin.write(path.encode() + b"\n")
        except OSError as e:
            raise ScanEngineDied(f"scan batch stopped: {e}") from e
        line = self._read_line()
        if json.loads(line).get("input") != path:
            self.close()
            raise ScanEngineDied(f"scan batch answered out of turn for {path}")
        return line

    def _read_line(self) -> str:
        deadline = time.monotonic() + self.photo_timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                self.close()
                raise ScanEngineDied(f"no answer from scan batch in {self.photo_timeout:.0f} s")
            chunk = os.read(fd, 65536)
            if not chunk:
                code = self.proc.wait()
                raise ScanEngineDied(f"scan batch exited with {code}")
            self.pending += chunk
        line, _, self.pending = self.pending.partition(b"\n")
        return line.decode()

    def close(self) -> None:
        if self.alive():
            self.proc.kill()
        self.proc.wait()


def scan_task(paths: list[str], scan: str, args: list[str], photo_timeout: float) -> list[str]:
    """One task: the JSON lines of `paths`, from this worker thread's `scan batch`.

    A photo that stops or hangs the engine is tried once more on a fresh engine,
    then gets an error line of its own, so one bad photo cannot fail its task.
    """
    engines = _engines()
    thread = threading.get_ident()
    lines = []
    for path in paths:
        for attempt in (1, 2):
            engine = engines.get(thread)
            if engine is None or not engine.alive() or engine.key != (scan, tuple(args)):
                if engine is not None:
                    engine.close()
                engine = engines[thread] = ScanWorker(scan, args, photo_timeout)
            try:
                lines.append(engine.scan(path))
                break
            except ScanEngineDied as e:
                if attempt == 2:
                    lines.append(engine_error_line(path, str(e)))
    return lines


def _engines(home=None) -> dict:
    """The engines of this worker process, one per worker thread, kept on the Dask worker object.

    Not a module global: the driver ships this code by value, and each task would get its own copy.
    """
    if home is None:
        try:
            from distributed import get_worker
            home = get_worker()
        except (ImportError, ValueError):  # called outside a worker
            home = sys.modules[__name__]
    if not hasattr(home, "_ecodex_engines"):
        home._ecodex_engines = {}
    return home._ecodex_engines


def peak_memory_mb(dask_worker=None) -> dict:
    """Peak resident memory (VmHWM, MB) of this worker process and of its `scan batch` engines (`client.run`)."""
    def hwm(pid) -> float:
        with open(f"/proc/{pid}/status") as f:
            kb = next(int(ln.split()[1]) for ln in f if ln.startswith("VmHWM:"))
        return round(kb / 1024, 1)
    engines = [hwm(e.proc.pid) for e in _engines(dask_worker).values() if e.alive()]
    return {"worker": hwm("self"), "scan": max(engines) if engines else None}


def engine_error_line(path: str, why: str) -> str:
    """The line `scan batch` would print for a photo it could not finish (ocr_error, exit code 11)."""
    try:
        # 1 MB at a time, as `scan batch` hashes: a huge file costs no memory.
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
        digest = h.hexdigest()
    except OSError:
        digest = None
    return json.dumps({"error": {"class": "ocr_error", "message": f"The OCR engine stopped on this photo ({why})."},
                       "exitCode": 11, "input": path, "sha256": digest}, sort_keys=True)


# --------------------------------------------------------------------------
# On the driver: tasks, merging by content hash, output and summary.
# --------------------------------------------------------------------------


def read_manifest(path: str) -> list[str]:
    stream = sys.stdin if path == "-" else open(path, encoding="utf-8")
    with stream:
        return [ln.strip() for ln in stream if ln.strip() and not ln.lstrip().startswith("#")]


def chunks(paths: list[str], size: int) -> list[list[str]]:
    return [paths[i:i + size] for i in range(0, len(paths), size)]


class ResultSink:
    """Writes each distinct photo once (JSON Lines, or Parquet through pyarrow) and keeps the summary counts.

    The key is the photo's SHA-256; an input that could not be read has none and
    is keyed by its path. Nothing but the keys seen stays in memory.
    """

    PARQUET_BATCH = 1000

    def __init__(self, out: str):
        self.out = out
        self.parquet = out.endswith(".parquet")
        self.seen: set[str] = set()
        self.photos = 0
        self.duplicates = 0
        self.errors: collections.Counter[str] = collections.Counter()
        self.additives: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
        self.badges: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
        self.rows: list[dict] = []
        self.writer = None
        self.file = None if self.parquet else open(out, "w", encoding="utf-8")

    def add(self, line: str) -> bool:
        obj = json.loads(line)
        key = obj.get("sha256") or "path:" + obj["input"]
        if key in self.seen:
            self.duplicates += 1
            return False
        self.seen.add(key)
        self.photos += 1
        error = obj.get("error")
        if error:
            self.errors[error["class"]] += 1
        region = obj.get("region", "?")
        for a in obj.get("additives", []):
            self.additives[region][a["code"]] += 1
            self.badges[region][a["badge"]] += 1
        if self.parquet:
            self.rows.append({
                "sha256": obj.get("sha256"), "input": obj["input"], "region": obj.get("region"),
                "codes": [a["code"] for a in obj.get("additives", [])],
                "badges": [a["badge"] for a in obj.get("additives", [])],
                "error_class": error["class"] if error else None, "json": line})
            if len(self.rows) >= self.PARQUET_BATCH:
                self._flush_parquet()
        else:
            self.file.write(line + "\n")
        return True

    def _flush_parquet(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq
        if not self.rows:
            return
        schema = pa.schema([("sha256", pa.string()), ("input", pa.string()), ("region", pa.string()),
                            ("codes", pa.list_(pa.string())), ("badges", pa.list_(pa.string())),
                            ("error_class", pa.string()), ("json", pa.string())])
        table = pa.Table.from_pylist(self.rows, schema=schema)
        if self.writer is None:
            self.writer = pq.ParquetWriter(self.out, table.schema)
        self.writer.write_table(table)
        self.rows = []

    def close(self) -> None:
        if self.parquet:
            self._flush_parquet()
            if self.writer:
                self.writer.close()
        else:
            self.file.close()

    def summary(self, inputs: int, seconds: float, workers: int, unfinished: int) -> dict:
        return {
            "inputs": inputs, "photos": self.photos, "duplicateLinesDropped": self.duplicates,
            "errorsByClass": dict(self.errors),
            "additivesPerRegion": {r: dict(c.most_common()) for r, c in self.additives.items()},
            "badgesPerRegion": {r: dict(c) for r, c in self.badges.items()},
            "seconds": round(seconds, 2), "workers": workers,
            "photosPerSecond": round(self.photos / seconds, 3) if seconds > 0 else None,
            "photosInFailedTasks": unfinished,
        }


# --------------------------------------------------------------------------
# The Dask part.
# --------------------------------------------------------------------------


def run_on_dask(client, tasks: list[list[str]], scan: str, args: list[str], retries: int,
                photo_timeout: float, on_lines) -> list[list[str]]:
    """Runs every task on the cluster; `on_lines` gets each finished task's lines. Returns the tasks that failed.

    A task lost with its worker (killed, out of memory, machine gone) is rescheduled
    by Dask itself, up to `distributed.scheduler.allowed-failures` times; a task that
    raised is resubmitted up to `retries` times.
    """
    import cloudpickle
    from distributed import as_completed

    # Ship this file's code with the tasks, so workers need only the `scan` binary and Dask.
    if __name__ != "__main__":
        cloudpickle.register_pickle_by_value(sys.modules[__name__])
    futures = {client.submit(scan_task, t, scan, args, photo_timeout, retries=retries, pure=False,
                             key=f"ecodex-scan-{i}"): t for i, t in enumerate(tasks)}
    failed = []
    for future in as_completed(futures):
        try:
            on_lines(future.result())
        except Exception as e:  # noqa: BLE001 - a failed task is reported, the others go on
            print(f"ecodex_dask: a task of {len(futures[future])} photos failed: {e!r}", file=sys.stderr)
            failed.append(futures[future])
        future.release()
    return failed


def drive(manifest: list[str], out: str, client, scan: str, args: list[str], task_size: int = 25,
          retries: int = 3, photo_timeout: float = 120.0, on_progress=None) -> dict:
    """Scans `manifest` on `client`'s cluster into `out`; returns the summary."""
    sink = ResultSink(out)
    start = time.monotonic()
    workers = len(client.scheduler_info(n_workers=-1)["workers"])

    def on_lines(lines: list[str]) -> None:
        for line in lines:
            sink.add(line)
        if on_progress:
            on_progress(sink.photos)

    try:
        failed = run_on_dask(client, chunks(manifest, task_size), scan, args, retries, photo_timeout, on_lines)
    finally:
        sink.close()
    summary = sink.summary(len(manifest), time.monotonic() - start, workers, sum(len(t) for t in failed))
    summary["peakMemoryMB"] = sorted(client.run(peak_memory_mb).values(), key=lambda m: m["worker"])
    return summary


def main(argv: list[str]) -> int:
    own, scan_args = (argv[:argv.index("--")], argv[argv.index("--") + 1:]) if "--" in argv else (argv, [])
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("manifest")
    p.add_argument("out")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--scheduler", help="address of a running Dask scheduler (tcp://host:8786)")
    where.add_argument("--local-workers", type=int, default=os.cpu_count(),
                       help="start a local cluster of N single-threaded worker processes (default: one per core)")
    p.add_argument("--task-size", type=int, default=25, help="photos per task (default 25)")
    p.add_argument("--retries", type=int, default=3, help="retries of a task whose engine failed (default 3)")
    p.add_argument("--photo-timeout", type=float, default=120.0, help="seconds one photo may take (default 120)")
    p.add_argument("--scan", default=os.environ.get("ECODEX_SCAN") or shutil.which("scan") or "scan",
                   help="path of the scan binary on the workers (default: $ECODEX_SCAN, else scan on PATH)")
    p.add_argument("--summary", help="also write the summary JSON to this file")
    o = p.parse_args(own)

    from distributed import Client, LocalCluster

    manifest = read_manifest(o.manifest)
    if o.scheduler:
        client = Client(o.scheduler)
    else:
        cluster = LocalCluster(n_workers=o.local_workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    with client:
        summary = drive(manifest, o.out, client, o.scan, scan_args, o.task_size, o.retries, o.photo_timeout)
    text = json.dumps(summary, indent=2, sort_keys=True)
    print(text)
    if o.summary:
        with open(o.summary, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    return 1 if summary["photosInFailedTasks"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
