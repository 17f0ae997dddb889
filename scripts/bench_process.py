#!/usr/bin/env python3
"""Whole-process timings of `scan` as a shopper runs it, against the bare `tesseract` CLI.

Runs each command N times, interleaved (scan, CLI, scan, CLI, ...) so both see the same load,
and prints medians, the ratio scan / CLI (also against `--psm 6`, which reads every line of a
label as scan does) and peak memory (maxrss of the process). `scan` runs
as a user runs it (no OMP_THREAD_LIMIT in its environment: it sets it itself before loading
Tesseract); the CLI gets OMP_THREAD_LIMIT=1, its fair setting on this machine.

    swift build -c release --product scan
    scripts/bench_process.py [--runs 7] [--scan .build/release/scan] [--skip-batch]

Photos: the sample label, a real gold-set photo, a 12-megapixel photo rendered from the
sample (ImageMagick), a real-size phone frame (1080x1920) from the gold set, and the
12-megapixel photo again as HEIC (an iPhone's format; the CLI reads its JPEG), and, when the real
development set's frames are extracted on this machine (goldset/real-dev/), a real 720x1280
camera frame with four text blocks (`09297/a.jpg`, read on two engines). Then `scan text`,
`scan code E120`, `scan text -` with 99 kB of ingredient text (just under the input limit),
a batch of the four photos (twice each) and one of 32 gold-set photos (g0000-g0031), each on
one core (`taskset -c 0`) against two.
`--compare OLD_SCAN` also runs another build of scan on every row but the batches, interleaved
with this one (before/after in one run). Prints Markdown tables and the load average.
"""
import argparse, os, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PHOTOS = ["samples/candy-label.jpg", "goldset/real/irockel_image-5.jpg", None, "goldset/synth/g0570.jpg"]
# Not committed (no licence stated): timed only where goldset/tools/extract_real_dev.py has run.
REAL_FRAME = "goldset/real-dev/frames/09297/a.jpg"


def run(cmd, env, stdin=None):
    """Wall seconds and peak resident MB of one run of cmd (stdout discarded)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, env=env, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if stdin:
        p.stdin.write(stdin)
        p.stdin.close()
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) not in (0, 10):
        sys.exit(f"failed ({status}): {' '.join(cmd)}")
    return wall, usage.ru_maxrss / 1024


def medians(cmds, runs):
    """Interleaved runs of each (cmd, env); per command the median wall and the highest peak."""
    results = [[] for _ in cmds]
    for _ in range(runs):
        for i, c in enumerate(cmds):
            results[i].append(run(*c))
    return [(statistics.median(w for w, _ in r), max(m for _, m in r)) for r in results]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--scan", default=os.path.join(ROOT, ".build/release/scan"))
    ap.add_argument("--skip-batch", action="store_true")
    ap.add_argument("--skip-photos", action="store_true")
    ap.add_argument("--compare", help="another scan binary for every row but the batches (its own data folder)")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp()
    try:
        photos = [os.path.join(ROOT, p) if p else os.path.join(tmp, "label-12mp.jpg") for p in PHOTOS]
        subprocess.run(["convert", photos[0], "-resize", "4000x3000!", "-quality", "90", photos[2]], check=True)
        base = {k: v for k, v in os.environ.items() if k != "OMP_THREAD_LIMIT"}
        env = dict(base, ECODEX_DATA_DIR=os.path.join(tmp, "data"), ECODEX_CONFIG=os.path.join(tmp, "prefs.conf"),
                   NO_COLOR="1")
        cli = dict(base, OMP_THREAD_LIMIT="1")
        print(f"load average at start: {' '.join(open('/proc/loadavg').read().split()[:3])}")
        run([a.scan, "code", "E330"], env)  # the first run builds the store; not measured
        run([a.scan, "text", "E330"], env)  # ... and the parser image when the build did not
        scans = [("", a.scan, env)]
        if a.compare:
            old = dict(env, ECODEX_DATA_DIR=os.path.join(tmp, "data-old"))
            run([a.compare, "code", "E330"], old)
            run([a.compare, "text", "E330"], old)
            scans.append((" (--compare)", a.compare, old))

        # The ratio is against the CLI as a user runs it (page mode 3). On the sample, mode 3
        # skips the three lines that hold the ingredients; `--psm 6`, the mode scan reads a label
        # crop in, reads every line, so its column is the like-for-like reading.
        print(f"| photo | scan (median of {a.runs}) | tesseract CLI | ratio | CLI --psm 6 | ratio | scan peak MB | CLI peak MB |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        # The 12 MP photo also as an iPhone saves it (HEIC); the CLI, which cannot read HEIC,
        # reads the JPEG of the same picture.
        heic = os.path.join(tmp, "label-12mp.heic")
        rows = [(p, p) for p in photos]
        if subprocess.run(["convert", photos[2], "-quality", "80", heic], capture_output=True).returncode == 0:
            rows.append((heic, photos[2]))
        real = os.path.join(ROOT, REAL_FRAME)
        if os.path.exists(real):
            rows.append((real, real))
        for p, cli_photo in ([] if a.skip_photos else rows):
            timed = medians([([binary, p, "--region", "EU"], e) for _, binary, e in scans]
                            + [(["tesseract", cli_photo, "-"], cli), (["tesseract", cli_photo, "-", "--psm", "6"], cli)],
                            a.runs)
            (tw, tm), (t6, _) = timed[-2:]
            name = os.path.relpath(p, ROOT) if p.startswith(ROOT) else (
                "12 MP photo as HEIC (the CLI reads its JPEG)" if p == heic else "12 MP photo (4000x3000)")
            for (suffix, _, _), (sw, sm) in zip(scans, timed):
                print(f"| {name}{suffix} | {sw:.3f} s | {tw:.3f} s | {sw / tw:.2f}x | {t6:.3f} s | {sw / t6:.2f}x | {sm:.0f} | {tm:.0f} |")

        print()
        print(f"| command | median of {a.runs} | peak MB |")
        print("|---|---:|---:|")
        typed = "Sugar, colours: E102, E129, citric acid"
        line = "Sugar, glucose syrup, colours: E102, E129, acid: citric acid, "
        limit = (line * (99_000 // len(line))).encode()
        for label, args, stdin in [(f'scan text "{typed}"', ["text", typed], None),
                                   ("scan code E120", ["code", "E120"], None),
                                   ("scan text - (99 kB)", ["text", "-", "--format", "json"], limit)]:
            rows = medians([([binary] + args, e, stdin) for _, binary, e in scans], a.runs)
            for (suffix, _, _), (w, m) in zip(scans, rows):
                print(f"| `{label}`{suffix} | {w * 1000:.0f} ms | {m:.0f} |")

        if not a.skip_batch:
            batch = [a.scan] + photos * 2 + ["--region", "EU"]
            (one, m1), (two, m2) = medians([(["taskset", "-c", "0"] + batch, env), (batch, env)], max(1, a.runs // 3))
            print()
            print(f"Batch of {len(photos) * 2} photos: one core {one:.2f} s ({m1:.0f} MB), two cores {two:.2f} s "
                  f"({m2:.0f} MB): {one / two:.2f}x the throughput")
            # docs/performance.md's batch: 32 gold-set photos (a shopper's or a corpus's batch is mostly label
            # crops, some read again in their own languages), where engine starts weigh less.
            gold = [os.path.join(ROOT, "goldset", "synth", f"g{i:04d}.jpg") for i in range(32)]
            batch = [a.scan] + gold + ["--region", "EU", "--format", "json"]
            (one, m1), (two, m2) = medians([(["taskset", "-c", "0"] + batch, env), (batch, env)], max(1, a.runs // 3))
            print(f"Batch of {len(gold)} gold-set photos g0000-g0031: one core {one:.2f} s ({m1:.0f} MB), two cores "
                  f"{two:.2f} s ({m2:.0f} MB): {one / two:.2f}x the throughput")
        print(f"\nload average at end: {' '.join(open('/proc/loadavg').read().split()[:3])}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
