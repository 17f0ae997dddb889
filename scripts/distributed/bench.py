#!/usr/bin/env python3
"""Throughput of the Dask driver against `scan batch` alone, for the table in docs/distributed.md.

    .venv-distributed/bin/python scripts/distributed/bench.py .build/release/scan [--images 100] [--seed 18]

Runs, over the same seeded sample of goldset/synth photos: `scan batch` alone (one
process), the driver with one local worker, the driver with two. Prints one JSON
object: photos/s of each, the speed-up of two workers over one, the driver's
per-photo overhead over `scan batch` alone, peak memory, and the load average
before each run (the machine is shared; read the numbers with it).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ecodex_dask  # noqa: E402
from test_driver import pick_images  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("scan")
    p.add_argument("--images", type=int, default=100)
    p.add_argument("--seed", type=int, default=18)
    o = p.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="ecodex-dask-bench-"))
    os.environ.update(ECODEX_DATA_DIR=str(tmp / "data"), ECODEX_CONFIG=str(tmp / "preferences.conf"),
                      OMP_THREAD_LIMIT="1")
    images = pick_images(o.images, o.seed)
    args = ["--region", "EU"]
    subprocess.run([o.scan, "code", "E330"], capture_output=True, check=True)  # builds the store once
    result = {"images": len(images)}

    manifest = tmp / "manifest.txt"
    manifest.write_text("\n".join(images) + "\n")
    result["loadBeforeBatch"] = os.getloadavg()[0]
    start = time.monotonic()
    run = subprocess.run(["/usr/bin/time", "-f", "%M", o.scan, "batch", "--manifest", str(manifest), *args],
                         capture_output=True, text=True)
    seconds = time.monotonic() - start
    result["batchAlone"] = {"photosPerSecond": round(len(images) / seconds, 3), "seconds": round(seconds, 1),
                            "peakMB": round(int(run.stderr.strip().splitlines()[-1]) / 1024, 1)}

    from distributed import Client, LocalCluster
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as c, \
                Client(c) as client:
            result[f"loadBefore{workers}Workers"] = os.getloadavg()[0]
            s = ecodex_dask.drive(images, str(tmp / f"out{workers}.jsonl"), client, o.scan, args)
            result[f"driver{workers}Workers"] = {k: s[k] for k in ("photosPerSecond", "seconds", "peakMemoryMB")}
    one, two = result["driver1Workers"]["photosPerSecond"], result["driver2Workers"]["photosPerSecond"]
    result["speedUp2Over1"] = round(two / one, 2)
    result["driverOverheadPerPhoto"] = f"{(result['batchAlone']['photosPerSecond'] / one - 1) * 100:+.1f} %"
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
