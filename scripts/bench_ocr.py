#!/usr/bin/env python3
"""Whole-process benchmark of `scan IMAGE` against the bare `tesseract IMAGE -` CLI.

For each image: median wall time and peak memory (GNU time) of both commands
over N runs, and Ecodex's own per-stage timings (from its JSON output). Both
run with OMP_THREAD_LIMIT=1, the fair setting for the CLI (scan sets it for itself).

    scripts/bench_ocr.py [--runs 5] [--scan .build/release/scan] [IMAGE ...]

Prints a Markdown table; with no images it uses the sample label, three real
photos and a 12-megapixel photo rendered from the sample (needs ImageMagick).
"""
import argparse, json, os, statistics, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(cmd, env):
    """Runs cmd under GNU time; returns (wall seconds, peak RSS MB, stdout)."""
    with tempfile.NamedTemporaryFile("r") as t:
        p = subprocess.run(["/usr/bin/time", "-f", "%e %M", "-o", t.name] + cmd, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        wall, kb = t.read().split()[-2:]
    return float(wall), int(kb) / 1024, p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--scan", default=os.path.join(ROOT, ".build/release/scan"))
    ap.add_argument("--lang", default=None, help="passed to scan --lang (tesseract CLI gets the same)")
    ap.add_argument("images", nargs="*")
    a = ap.parse_args()
    images = a.images or [os.path.join(ROOT, p) for p in (
        "samples/candy-label.jpg", "goldset/real/irockel_image-5.jpg",
        "goldset/real/dart_ingredients_coca_light_de.jpg", "goldset/real/dart_ingredients_en.jpg")]
    tmp = tempfile.mkdtemp()
    if not a.images:
        big = os.path.join(tmp, "label-12mp.jpg")
        subprocess.run(["convert", images[0], "-resize", "4000x3000!", "-quality", "90", big], check=True)
        images.append(big)
    env = dict(os.environ, OMP_THREAD_LIMIT="1", ECODEX_DATA_DIR=os.path.join(tmp, "data"), NO_COLOR="1")
    scan = [a.scan] + (["--lang", a.lang] if a.lang else [])
    tess_lang = ["-l", a.lang] if a.lang else []
    timed([a.scan, "code", "E330"], env)  # first run creates the store; not measured
    print(f"| image | scan wall (median of {a.runs}) | tesseract CLI wall | ratio | scan peak MB | CLI peak MB | preprocess ms | ocr ms | parse ms | assess ms |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for img in images:
        s_runs, t_runs, stages = [], [], []
        for _ in range(a.runs):
            w, m, out = timed(scan[:1] + [img, "--format", "json"] + scan[1:], env)
            s_runs.append((w, m))
            try:
                stages.append(json.loads(out.splitlines()[0])["timingsMs"])
            except (ValueError, IndexError, KeyError):
                pass
            t_runs.append(timed(["tesseract", img, "-"] + tess_lang, env)[:2])
        sw = statistics.median(w for w, _ in s_runs)
        tw = statistics.median(w for w, _ in t_runs)
        med = lambda k: statistics.median(s[k] for s in stages) if stages else float("nan")
        print(f"| {os.path.basename(img)} | {sw:.2f} s | {tw:.2f} s | {sw / tw if tw else 0:.2f}× | "
              f"{max(m for _, m in s_runs):.0f} | {max(m for _, m in t_runs):.0f} | {med('preprocess'):.0f} | "
              f"{med('ocr'):.0f} | {med('parse'):.1f} | {med('assess'):.1f} |")


if __name__ == "__main__":
    sys.exit(main())
