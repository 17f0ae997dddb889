#!/usr/bin/env python3
"""Extract the real development set's frames from a local mirror of
lenamerkli/ingredient-scanner.

The repository holds short handheld phone videos (data/full_images/videos/<id>.mov)
and, for one frame of each, the four corners of the ingredient panel
(data/full_images/frames_json/<id>_<frame>.json, frames numbered from 1 as
FFmpeg's `%04d` pattern numbers them). No licence is stated, so nothing this
script writes may be committed: it writes under goldset/real-dev/frames/, which
.gitignore keeps out of git. Only the truth (goldset/real-dev/truth.jsonl) and
this script are ours.

For every id in ../shared/data/real-dev-videos.txt it writes

    frames/<id>/a.jpg          the annotated frame
    frames/<id>/b1.jpg ...     neighbouring frames (--offsets, default -12,-6,+6,+12),
                               the burst `scan bench` fuses with the annotated one
    frames/<id>/corners.json   the panel corners copied from the repository

Usage:
    goldset/tools/extract_real_dev.py --mirror /path/to/ingredient-scanner.git \
        [--ids ../shared/data/real-dev-videos.txt] [--out goldset/real-dev/frames] \
        [--offsets=-12,-6,6,12] [--only 07429,07434]

The mirror may be a bare git directory (read with `git show`) or a checkout.
Needs ffmpeg and ffprobe (Debian package ffmpeg). Re-running skips ids whose
frames exist.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
DEFAULT_IDS = os.path.normpath(os.path.join(ROOT, "..", "shared", "data", "real-dev-videos.txt"))
DEFAULT_OUT = os.path.join(ROOT, "goldset", "real-dev", "frames")
MAX_VIDEO_BYTES = 200 * 1024 * 1024


class Mirror:
    """Reads files from a bare git mirror or from a plain checkout."""

    def __init__(self, path):
        self.path = path
        self.bare = not os.path.isdir(os.path.join(path, "data"))
        if self.bare:
            listing = subprocess.run(
                ["git", "-C", path, "ls-tree", "-r", "--name-only", "HEAD", "data/full_images"],
                check=True, capture_output=True, text=True).stdout.split("\n")
            self.files = [f for f in listing if f]
        else:
            base = os.path.join(path, "data", "full_images")
            self.files = []
            for dirpath, _, names in os.walk(base):
                for n in names:
                    self.files.append(os.path.relpath(os.path.join(dirpath, n), path))

    def read(self, rel):
        if self.bare:
            size = int(subprocess.run(["git", "-C", self.path, "cat-file", "-s", f"HEAD:{rel}"],
                                      check=True, capture_output=True, text=True).stdout)
            if size > MAX_VIDEO_BYTES:
                raise ValueError(f"{rel}: {size} bytes is over the {MAX_VIDEO_BYTES} byte bound")
            return subprocess.run(["git", "-C", self.path, "show", f"HEAD:{rel}"],
                                  check=True, capture_output=True).stdout
        full = os.path.join(self.path, rel)
        if os.path.getsize(full) > MAX_VIDEO_BYTES:
            raise ValueError(f"{rel}: over the {MAX_VIDEO_BYTES} byte bound")
        with open(full, "rb") as f:
            return f.read()


def frame_count(video):
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-count_frames",
                          "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", video],
                         check=True, capture_output=True, text=True, timeout=120).stdout
    return int(out.strip().split(",")[0])


def extract(video, index0, dest):
    """Writes frame `index0` (0-based, after the container's rotation) as a JPEG."""
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", video,
                    "-vf", f"select=eq(n\\,{index0})", "-frames:v", "1", "-q:v", "2", dest],
                   check=True, timeout=120)
    if not os.path.exists(dest) or os.path.getsize(dest) == 0:
        raise RuntimeError(f"ffmpeg wrote no frame {index0 + 1} to {dest}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mirror", required=True, help="bare git mirror or checkout of lenamerkli/ingredient-scanner")
    ap.add_argument("--ids", default=DEFAULT_IDS)
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--offsets", default="-12,-6,6,12",
                    help="frames around the annotated one to extract as the burst")
    ap.add_argument("--only", default="", help="comma-separated ids (default: all in --ids)")
    args = ap.parse_args()

    with open(args.ids) as f:
        ids = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    if args.only:
        wanted = set(args.only.split(","))
        ids = [i for i in ids if i in wanted]
    offsets = [int(x) for x in args.offsets.split(",") if x.strip()]

    mirror = Mirror(args.mirror)
    by_id = {}
    for rel in mirror.files:
        if rel.startswith("data/full_images/frames_json/") and rel.endswith(".json"):
            stem = os.path.basename(rel)[:-5]
            vid, _, frame = stem.rpartition("_")
            by_id.setdefault(vid, []).append((int(frame), rel))

    done = failed = 0
    for vid in ids:
        dest = os.path.join(args.out, vid)
        if os.path.exists(os.path.join(dest, "a.jpg")):
            done += 1
            continue
        if vid not in by_id:
            print(f"{vid}: no annotated frame in the mirror", file=sys.stderr)
            failed += 1
            continue
        frame, json_rel = sorted(by_id[vid])[0]
        try:
            corners = json.loads(mirror.read(json_rel))
            data = mirror.read(f"data/full_images/videos/{vid}.mov")
            os.makedirs(dest, exist_ok=True)
            with tempfile.NamedTemporaryFile(suffix=".mov") as tmp:
                tmp.write(data)
                tmp.flush()
                count = frame_count(tmp.name)
                annotated = min(frame - 1, count - 1)
                extract(tmp.name, annotated, os.path.join(dest, "a.jpg"))
                used = {annotated}
                k = 0
                for off in offsets:
                    index0 = max(0, min(count - 1, annotated + off))
                    if index0 in used:
                        continue
                    used.add(index0)
                    k += 1
                    extract(tmp.name, index0, os.path.join(dest, f"b{k}.jpg"))
            corners["frame"] = frame
            corners["frames_in_video"] = count
            with open(os.path.join(dest, "corners.json"), "w") as f:
                json.dump(corners, f, indent=1)
            done += 1
        except (subprocess.SubprocessError, ValueError, RuntimeError, OSError) as e:
            print(f"{vid}: {e}", file=sys.stderr)
            failed += 1
    print(f"extract_real_dev: {done} videos ready in {args.out}, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
