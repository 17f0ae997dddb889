#!/usr/bin/env python3
"""Fuzz the built `scan` with mutated ingredient texts and mutated photos (issue 16).

    swift build -c release --product scan
    scripts/fuzz.py --texts 100000 --images 1000            # the long run (seed printed)
    scripts/fuzz.py --texts 2000 --images 30 --seed 42      # what the test suite runs
    scripts/fuzz.py --seed 42 --only-image 17 --keep DIR    # replay one photo, keep the file

Texts are mutated from real ingredient lists (the Open Food Facts texts and parser cases in
Tests/EcodexCoreTests/Fixtures and /work/shared/data/off, the gold-set transcriptions): byte
flips, truncation, insertions, deletions, odd and huge Unicode (combining marks, bidi
controls, emoji, NUL, bytes that are not UTF-8), bracket and code storms, texts grown to the
100 kB limit and past it. They go to `scan text --jsonl -` in batches (one process reads many
texts, one JSON line out per text), and every 500th one also alone to `scan text -` (standard
input and the history write). Photos are mutated from samples/, goldset/real/ and some of
goldset/synth/ (plus PNG, BMP, TIFF, WebP, GIF, HEIC and AVIF copies, progressive and 16-bit copies, a
12 MP progressive photo and 13 and 40 MP PNG and 16-bit TIFF files when ImageMagick is there, and
progressive JPEGs of many scans or huge coefficient buffers made here): bit flips,
byte overwrites, truncation, spliced and repeated chunks, and header corruption (PNG IHDR
with a fixed CRC, JPEG SOF, BMP sizes set to 0, 1, huge or odd). They go to `scan PHOTO...
--format json` in batches.

Each input must end in 10 s of CPU time (the process's CPU, read from /proc between its output
lines; a shared machine's wall time measures the neighbours) and 60 s of wall time, the
process must stay at or under 300 MB peak (ru_maxrss), never die by a signal, and give one
JSON line per input whose error class, if any, is one the input may give (texts:
parse_error; photos: capture_error), and an exit code documented for it (texts 0/12, photos
0/10). A batch that crashes or hangs is killed, the input it was on recorded, and the batch
resumed after it; an input over the CPU bound in a batch (whose process CPU between two lines
also counts the photos read beside it on the other cores) is run again alone, and only counts
when it is over the bound alone too; a batch over the memory bound is run again one input at a time to name the
input. Prints a summary; exits 1 when any defect was found. The same seed makes the same inputs.
"""
import argparse, json, os, random, selectors, shutil, signal, struct, subprocess, sys, tempfile, time, zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLK_TCK = os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------- texts

def load_texts():
    """Real ingredient texts: every `text` field of the JSON Lines corpora found."""
    sources = [os.path.join(ROOT, "Tests/EcodexCoreTests/Fixtures", f) for f in ("ingredient-texts.jsonl", "parser-cases.jsonl")]
    sources += [os.path.join(ROOT, "goldset/truth.jsonl")]
    sources += ["/work/shared/data/off/ingredient-texts.jsonl", "/work/shared/data/off/parser-cases.jsonl"]
    texts, seen = [], set()
    for path in sources:
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            for line in f:
                try:
                    t = json.loads(line).get("text")
                except (ValueError, AttributeError):
                    continue
                if isinstance(t, str) and t and t not in seen:
                    seen.add(t)
                    texts.append(t)
    return texts


NOISE = ["E", "E1", "E 1", "(", ")", "[", "]", ",", ";", ":", ".", "-", "/", "%", "ii", "(ii)", "INS", "℮", "\u0301", "\u0308",
         "\u0000", "\ufeff", "\u200b", "\u200d", "\u202e", "\u2066", "\ufffd", "İ", "ß", "ﬁ", "Ǆ", "É", "🍬", "👨‍👩‍👧", "\U0010ffff",
         "\ud800", "\udfff", "\n", "\r", "\t", "  ", "\"", "\\", "{", "}", "<", ">", "&", "\x7f", "\x85", "\u2028"]
# Bytes that are not UTF-8 (a lone continuation byte, an overlong form, a cut sequence, a surrogate, past U+10FFFF).
BAD_UTF8 = [b"\x80", b"\xc0\xaf", b"\xe2\x82", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xff", b"\xfe\xff"]


def storm(rng):
    """A long run of one thing: brackets, codes, digits, commas, one long word, combining marks."""
    unit = rng.choice(["(", "[", ")", "E1", "E 102, ", "E", ",", "1", "a", "\u0301", "(ii)", "INS 2", "e-", "ä", "🍬", " ", "-\n"])
    return unit * rng.choice([50, 500, 5000, 20000])


def mutate_text(text, rng):
    """Returns the mutated text as bytes (it may hold bytes that are not UTF-8)."""
    b = bytearray(text.encode("utf-8", "surrogatepass"))
    for _ in range(rng.randint(1, 6)):
        at = rng.randrange(len(b) + 1)
        op = rng.randrange(11)
        if op == 0 and b:                                     # flip one bit
            i = rng.randrange(len(b)); b[i] ^= 1 << rng.randrange(8)
        elif op == 1 and b:                                   # overwrite a byte
            b[rng.randrange(len(b))] = rng.randrange(256)
        elif op == 2:                                         # insert odd Unicode
            b[at:at] = rng.choice(NOISE).encode("utf-8", "surrogatepass")
        elif op == 3:                                         # insert bytes that are not UTF-8
            b[at:at] = rng.choice(BAD_UTF8)
        elif op == 4 and b:                                   # delete a span
            b[at:at + rng.randint(1, 40)] = b""
        elif op == 5:                                         # truncate
            del b[at:]
        elif op == 6:                                         # repeat a span
            n = rng.randint(1, 200)
            b[at:at] = b[at:at + n] * rng.randint(1, 20)
        elif op == 7:                                         # a storm
            b[at:at] = storm(rng).encode("utf-8", "surrogatepass")
        elif op == 8:                                         # random bytes
            b[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
        elif op == 9:                                         # swap case / strip accents region
            j = min(len(b), at + rng.randint(1, 60))
            b[at:j] = bytes(b[at:j]).swapcase()
        else:                                                 # another text spliced in
            pass
    r = rng.random()
    if r < 0.004:                                             # grown to the 100 kB limit, or just past it
        target = rng.choice([99_990, 100_000, 100_001, 150_000, 700_000])
        unit = bytes(b) or b"E102, "
        b = bytearray((unit * (target // len(unit) + 1))[:target])
    elif r < 0.006:
        b = bytearray()                                       # empty
    return bytes(b)


def json_line(raw, rng):
    """`{"text": ...}` with `raw` inside: quotes, backslashes and control bytes escaped, the
    rest (bytes that are not UTF-8 too) as they are; now and then a lone surrogate escape,
    another field, or a line that is not JSON at all."""
    out = bytearray()
    for c in raw:
        if c == 0x22: out += b'\\"'
        elif c == 0x5C: out += b"\\\\"
        elif c < 0x20: out += b"\\u%04x" % c
        else: out.append(c)
    r = rng.random()
    if r < 0.002:
        return bytes(raw.replace(b"\n", b" ")) or b"x"        # not JSON
    if r < 0.004:
        out += b"\\ud800"                                     # lone surrogate escape: the line is refused
    extra = b', "lang": "en"' if rng.random() < 0.1 else b""
    return b'{"text": "' + bytes(out) + b'"' + extra + b"}"


# ---------------------------------------------------------------- photos

def image_originals(tmp, rng, synth):
    files = [os.path.join(ROOT, "samples", f) for f in sorted(os.listdir(os.path.join(ROOT, "samples"))) if f.endswith(".jpg")]
    real = os.path.join(ROOT, "goldset/real")
    if os.path.isdir(real):
        files += [os.path.join(real, f) for f in sorted(os.listdir(real)) if f.lower().endswith((".jpg", ".jpeg", ".png"))]
    syn = os.path.join(ROOT, "goldset/synth")
    if synth and os.path.isdir(syn):
        pool = sorted(f for f in os.listdir(syn) if f.endswith(".jpg"))
        files += [os.path.join(syn, f) for f in rng.sample(pool, min(synth, len(pool)))]
    convert = shutil.which("convert")
    if convert:
        src = os.path.join(ROOT, "samples/candy-label.jpg")
        for ext in ("png", "bmp", "tif", "webp", "gif", "heic", "avif"):
            dst = os.path.join(tmp, "candy." + ext)
            if subprocess.run([convert, src, dst], capture_output=True).returncode == 0:
                files.append(dst)
        # Progressive and 16-bit copies, a 12 MP progressive photo, and PNG and 16-bit TIFF files
        # at the colour decode limit (13 MP, read) and at 40 MP (refused from the header).
        big = [("candy-progressive.jpg", [src, "-interlace", "Plane"]),
               ("candy-16.png", [src, "-depth", "16"]), ("candy-16.tif", [src, "-depth", "16"]),
               ("photo12-progressive.jpg", [src, "-resize", "4000x3000!", "-sampling-factor", "2x2", "-interlace", "Plane"]),
               ("flat13.png", ["-size", "4400x3000", "xc:gray", "-fill", "black", "-draw", "rectangle 100,100 900,400", "PNG24:"]),
               ("flat13-16.tif", ["-size", "4400x3000", "xc:gray", "-type", "TrueColor", "-depth", "16", "-compress", "lzw"]),
               ("flat40.png", ["-size", "7744x5164", "xc:gray", "PNG24:"]),
               ("flat40-16.tif", ["-size", "7744x5164", "xc:gray", "-type", "TrueColor", "-depth", "16", "-compress", "lzw"])]
        for name, cmd in big:
            dst = os.path.join(tmp, name)
            out = cmd[:-1] + [cmd[-1] + dst] if cmd[-1].endswith(":") else cmd + [dst]
            if subprocess.run([convert] + out, capture_output=True).returncode == 0:
                files.append(dst)
    # Progressive JPEGs that cost far more to decode than their size: many scans, huge coefficient
    # buffers, and one near both limits at once (27 MP, 4:2:0, 100 scans).
    for name, data in [("scans-883.jpg", flat_progressive_jpeg(4000, 4000, [(1, 1)], refinements=13)),
                       ("huge-progressive.jpg", flat_progressive_jpeg(10000, 10000, [(1, 1)] * 3, refinements=0, bands=5)),
                       ("progressive27-100scans.jpg", flat_progressive_jpeg(6000, 4500, [(2, 2), (1, 1), (1, 1)], refinements=2, bands=11))]:
        dst = os.path.join(tmp, name)
        open(dst, "wb").write(data)
        files.append(dst)
    return [(f, open(f, "rb").read()) for f in files]


def flat_progressive_jpeg(width, height, sampling, refinements, bands=63):
    """A valid progressive JPEG of a flat grey picture: a DC scan of all components, then per
    component and per AC coefficient up to `bands` a first scan and `refinements` refinement
    scans. Every coefficient is zero, so each scan is runs of empty blocks: a few bytes that the
    decoder still visits every block for."""
    hmax, vmax = max(h for h, _ in sampling), max(v for _, v in sampling)
    out = bytearray(b"\xff\xd8")
    def seg(marker, body):
        out.extend(struct.pack(">BBH", 0xFF, marker, len(body) + 2) + body)
    seg(0xDB, bytes([0] + [1] * 64))
    seg(0xC2, struct.pack(">BHHB", 8, height, width, len(sampling)) + b"".join(bytes([c + 1, h << 4 | v, 0]) for c, (h, v) in enumerate(sampling)))
    seg(0xC4, bytes([0x00, 1] + [0] * 15 + [0]))                              # DC: difference 0 is "0"
    seg(0xC4, bytes([0x10, 0, 0, 0, 15] + [0] * 12 + [r << 4 for r in range(15)]))  # AC: EOB0-EOB14, 4 bits
    def sos(comps, ss, se, ah, al, data):
        seg(0xDA, bytes([len(comps)] + [x for c in comps for x in (c + 1, 0)] + [ss, se, ah << 4 | al]))
        out.extend(data)
    def ceil(a, b):
        return -(-a // b)
    blocks = ceil(width, 8 * hmax) * ceil(height, 8 * vmax) * sum(h * v for h, v in sampling)
    sos(list(range(len(sampling))), 0, 0, 0, 0, bytes(blocks // 8) + (bytes([(1 << (8 - blocks % 8)) - 1]) if blocks % 8 else b""))
    for c, (h, v) in enumerate(sampling):
        bits, n = [], ceil(ceil(width * h, hmax), 8) * ceil(ceil(height * v, vmax), 8)
        while n > 0:
            run = min(n, 32767); r = run.bit_length() - 1
            bits += [(r >> i) & 1 for i in range(3, -1, -1)] + [((run - (1 << r)) >> i) & 1 for i in range(r - 1, -1, -1)]
            n -= run
        bits += [1] * (-len(bits) % 8)
        data = bytearray()
        for i in range(0, len(bits), 8):
            byte = int("".join(map(str, bits[i:i + 8])), 2)
            data += bytes([byte, 0]) if byte == 0xFF else bytes([byte])
        for k in range(1, bands + 1):
            sos([c], k, k, 0, refinements, data)
            for al in range(refinements - 1, -1, -1):
                sos([c], k, k, al + 1, al, data)
    out.extend(b"\xff\xd9")
    return bytes(out)


def odd_size(rng):
    return rng.choice([0, 1, 2, 15, 16, 17, 255, 4096, 20000, 20001, 65535, 65536, 1 << 24, 0x7FFFFFFF, 0xFFFFFFFF])


def corrupt_header(b, rng):
    """Sets the image's claimed size to something odd, keeping the file otherwise whole."""
    if b[:8] == b"\x89PNG\r\n\x1a\n" and len(b) >= 33:
        w, h = odd_size(rng), odd_size(rng)
        ihdr = b[12:16] + struct.pack(">II", w, h) + b[24:29]
        b[16:24] = struct.pack(">II", w, h)
        if rng.random() < 0.8:                                 # a fixed CRC, so the decoder believes it
            b[29:33] = struct.pack(">I", zlib.crc32(ihdr) & 0xFFFFFFFF)
        if rng.random() < 0.3:
            b[24] = rng.choice([1, 2, 4, 8, 16, 3, 0, 255])   # bit depth
            b[25] = rng.choice([0, 2, 3, 4, 6, 7, 255])       # colour type
    elif b[:2] == b"\xff\xd8":
        i = 2
        while i + 9 < len(b):
            if b[i] != 0xFF:
                i += 1; continue
            marker = b[i + 1]
            if marker in (0xC0, 0xC1, 0xC2, 0xC3):
                dims = [odd_size(rng) & 0xFFFF, odd_size(rng) & 0xFFFF]
                b[i + 5:i + 9] = struct.pack(">HH", *dims)
                if rng.random() < 0.3:
                    b[i + 9] = rng.choice([0, 1, 2, 3, 4, 255])  # components
                break
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
                i += 2; continue
            i += 2 + struct.unpack(">H", b[i + 2:i + 4])[0]
    elif b[4:8] == b"ftyp" and b.find(b"ispe") > 0:
        # HEIF: the image's size lives in its `ispe` properties (version and flags, then width
        # and height); a HEIC grid has one for the whole image and one per tile.
        at = b.find(b"ispe")
        while at > 0:
            if rng.random() < 0.7 and at + 16 <= len(b):
                b[at + 8:at + 16] = struct.pack(">II", odd_size(rng), odd_size(rng))
            at = b.find(b"ispe", at + 4)
    elif b[:2] == b"BM" and len(b) >= 30:
        b[18:26] = struct.pack("<ii", rng.choice([0, 1, -1, 20000, 0x7FFFFFFF, -0x80000000]), rng.choice([0, 1, -1, 20000, 0x7FFFFFFF, -0x80000000]))
        if rng.random() < 0.3:
            b[28:30] = struct.pack("<H", rng.choice([0, 1, 4, 8, 24, 32, 64, 0xFFFF]))
    else:
        for _ in range(4):
            if len(b) > 32:
                b[rng.randrange(4, 32)] = rng.choice([0, 0xFF, 0x7F, 0x80])
    return b


def mutate_image(data, rng):
    b = bytearray(data)
    if rng.random() < 0.35 and len(b) > 4096:
        # Damage in the pixel data only: the header stays whole, so the photo decodes (with
        # garbage in it) and reaches preprocessing, OCR and the barcode reader.
        for _ in range(rng.randint(1, 6)):
            at = rng.randrange(2048, len(b) - 64)
            op = rng.randrange(3)
            if op == 0: b[at] ^= 1 << rng.randrange(8)
            elif op == 1: b[at:at + 64] = bytes(rng.randrange(256) for _ in range(64))
            else: b[at:at + 32] = bytes(32)
        return bytes(b)
    if rng.random() < 0.25:
        b = corrupt_header(b, rng)
    for _ in range(rng.randint(0 if len(b) else 1, 8)):
        if not b:
            break
        near = min(len(b), 1024) if rng.random() < 0.5 else len(b)   # headers are where decoders decide
        at = rng.randrange(near)
        op = rng.randrange(6)
        if op == 0: b[at] ^= 1 << rng.randrange(8)
        elif op == 1: b[at] = rng.choice([0x00, 0xFF, 0x7F, 0x80])
        elif op == 2: del b[max(1, at):]
        elif op == 3: b[at:at] = b[at:at + rng.randint(1, 256)]
        elif op == 4: b[at:at + 64] = bytes(rng.randrange(256) for _ in range(64))
        else: b[at:at] = bytes(rng.randint(1, 4096))             # a run of zeros
    if rng.random() < 0.01:
        b = b[:rng.randint(0, 16)]                                # next to nothing
    return bytes(b)


# ---------------------------------------------------------------- running scan

def proc_cpu(pid):
    """User plus system CPU seconds of a live process (its threads included)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK
    except (OSError, IndexError, ValueError):
        return None


class Batch:
    """One `scan` process over several inputs; results keyed by input index."""
    def __init__(self):
        self.lines = {}          # index -> parsed JSON line
        self.cpu = {}            # index -> CPU seconds spent on it
        self.status = None       # exit code, or -signal
        self.peak_mb = 0.0
        self.stopped = None      # ("hang", index, why) when we killed it
        self.bad = []            # output lines that are not JSON
        self.stderr = ""


def run_batch(cmd, env, stdin_bytes, index_of, expected, cpu_limit, wall_limit, startup_wall):
    b = Batch()
    err = tempfile.TemporaryFile()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE if stdin_bytes is not None else subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=err, env=env)
    if stdin_bytes is not None:
        os.set_blocking(p.stdin.fileno(), False)
    sel = selectors.DefaultSelector()
    sel.register(p.stdout, selectors.EVENT_READ)
    pending_in = memoryview(stdin_bytes) if stdin_bytes is not None else None
    if pending_in is not None:
        sel.register(p.stdin, selectors.EVENT_WRITE)
    buf = b""
    last_wall, last_cpu = time.monotonic(), 0.0
    first = True
    done = 0
    eof = False
    while not eof:
        for key, _ in sel.select(timeout=0.2):
            if key.fileobj is p.stdin:
                try:
                    n = os.write(p.stdin.fileno(), pending_in[:1 << 16])
                    pending_in = pending_in[n:]
                except BlockingIOError:
                    n = 0
                except BrokenPipeError:
                    pending_in = memoryview(b"")
                if len(pending_in) == 0:
                    sel.unregister(p.stdin); p.stdin.close()
                continue
            chunk = os.read(p.stdout.fileno(), 1 << 16)
            if not chunk:
                eof = True
                break
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                now_cpu = proc_cpu(p.pid)
                try:
                    obj = json.loads(line)
                    i = index_of(obj.get("input"))
                except (ValueError, AttributeError):
                    b.bad.append(line[:200]); continue
                if i is None:
                    b.bad.append(line[:200]); continue
                b.lines[i] = obj
                if now_cpu is not None:
                    b.cpu[i] = now_cpu - last_cpu
                    last_cpu = now_cpu
                last_wall = time.monotonic()
                first = False
                done += 1
        if eof:
            break
        cpu = proc_cpu(p.pid)
        wall = time.monotonic() - last_wall
        limit_wall = wall_limit + (startup_wall if first else 0)
        if (cpu is not None and cpu - last_cpu > cpu_limit + (2 if first else 0)) or wall > limit_wall:
            why = f"{(cpu or 0) - last_cpu:.1f} s CPU, {wall:.0f} s wall without a result"
            b.stopped = ("hang", done, why)
            p.kill()
            break
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    b.status = p.returncode
    b.peak_mb = usage.ru_maxrss / 1024
    err.seek(0)
    b.stderr = err.read().decode("utf-8", "replace")[-2000:]
    err.close()
    return b


class Findings:
    def __init__(self, kind):
        self.kind = kind
        self.inputs = 0
        self.processes = 0
        self.crashes, self.hangs, self.memory, self.undocumented, self.bad_output = [], [], [], [], []
        self.worst_mb = 0.0
        self.worst_cpu = (0.0, None)
        self.results = {}

    def defects(self):
        return self.crashes + self.hangs + self.memory + self.undocumented + self.bad_output

    def summary(self):
        return (f"{self.kind}: {self.inputs} inputs in {self.processes} processes: {len(self.crashes)} crashes, {len(self.hangs)} hangs, "
                f"{len(self.memory)} over memory, {len(self.undocumented)} undocumented results, {len(self.bad_output)} bad outputs; "
                f"worst peak {self.worst_mb:.0f} MB, most CPU for one input {self.worst_cpu[0]:.2f} s ({self.worst_cpu[1]}); "
                f"results {dict(sorted(self.results.items()))}")


def drive(kind, items, make_cmd, index_of, allowed_classes, allowed_codes, args, env, describe):
    """Runs `items` (a list) through batches of `make_cmd(start, end) -> (cmd, stdin)`, resuming after a crash or hang."""
    f = Findings(kind)
    f.inputs = len(items)
    batch = args.batch if kind == "texts" else args.image_batch

    def alone(i):
        """Input `i` run by itself: (its CPU seconds, why it is a defect or None)."""
        cmd1, stdin1 = make_cmd(i, i + 1)
        one = run_batch(cmd1, env, stdin1, lambda name: index_of(name, i, i + 1), 1, args.cpu_limit, args.wall_limit,
                        args.startup_wall)
        f.processes += 1
        if one.stopped:
            return 0.0, one.stopped[2] + " (alone)"
        return one.cpu.get(i, 0.0), None

    start = 0
    while start < len(items):
        end = min(len(items), start + batch)
        cmd, stdin = make_cmd(start, end)
        b = run_batch(cmd, env, stdin, lambda name: index_of(name, start, end), end - start, args.cpu_limit, args.wall_limit,
                      args.startup_wall)
        f.processes += 1
        f.worst_mb = max(f.worst_mb, b.peak_mb)
        for i, obj in b.lines.items():
            cls = (obj.get("error") or {}).get("class") if isinstance(obj.get("error"), dict) else None
            f.results[cls or "ok"] = f.results.get(cls or "ok", 0) + 1
            if cls is not None and cls not in allowed_classes:
                f.undocumented.append((i, f"error class {cls}: {obj['error'].get('message')}", describe(i)))
            c = b.cpu.get(i, 0.0)
            if c > args.cpu_limit and end - start > 1:
                # The process's CPU between two lines also holds the photos read beside this one
                # on the other cores: the input alone says whether it is the slow one.
                c, why = alone(i)
                if why:
                    f.hangs.append((i, why, describe(i)))
                    continue
            if c > f.worst_cpu[0]:
                f.worst_cpu = (c, i)
            if c > args.cpu_limit:
                f.hangs.append((i, f"{c:.1f} s CPU", describe(i)))
        for line in b.bad:
            f.bad_output.append((start, f"not a result line: {line!r}", ""))
        resume = end
        if b.stopped:
            _, k, why = b.stopped
            if end - start > 1:
                c, why_alone = alone(start + k)
                why = f"{why}; alone: {why_alone or f'{c:.1f} s CPU'}"
                if not why_alone and c <= args.cpu_limit:
                    why = None
            if why:
                f.hangs.append((start + k, why, describe(start + k)))
            resume = start + k + 1
        elif b.status < 0:
            k = len(b.lines)
            f.crashes.append((start + k, f"signal {-b.status} ({signal.Signals(-b.status).name}) {b.stderr[-300:]}", describe(start + k)))
            resume = start + k + 1
        else:
            missing = [i for i in range(start, end) if i not in b.lines]
            if missing:
                f.bad_output.append((missing[0], f"{len(missing)} inputs without a result line, exit {b.status}: {b.stderr[-300:]}",
                                     describe(missing[0])))
            if b.status not in allowed_codes:
                f.undocumented.append((start, f"exit code {b.status}: {b.stderr[-300:]}", ""))
            first_fail = next(((obj.get("error") or {}).get("class") for i, obj in sorted(b.lines.items()) if obj.get("error")), None)
            want = 0 if first_fail is None else {"capture_error": 10, "ocr_error": 11, "parse_error": 12, "lookup_error": 13}.get(first_fail)
            if want is not None and b.status != want:
                f.undocumented.append((start, f"exit code {b.status}, first failure {first_fail} wants {want}", ""))
        if b.peak_mb > args.max_mb:
            if end - start == 1:
                f.memory.append((start, f"peak {b.peak_mb:.0f} MB", describe(start)))
            else:  # name the input: run this batch's inputs one at a time
                for i in range(start, end):
                    cmd1, stdin1 = make_cmd(i, i + 1)
                    one = run_batch(cmd1, env, stdin1, lambda name, i=i: index_of(name, i, i + 1), 1, args.cpu_limit, args.wall_limit,
                                    args.startup_wall)
                    f.processes += 1
                    if one.peak_mb > args.max_mb:
                        f.memory.append((i, f"peak {one.peak_mb:.0f} MB alone", describe(i)))
                if not any(m[0] >= start for m in f.memory):
                    f.memory.append((start, f"batch of {end - start} peaked at {b.peak_mb:.0f} MB; each alone is under", ""))
        start = resume
        if args.progress and f.processes % args.progress == 0:
            print(f"  {kind}: {start}/{len(items)} ({f.processes} processes, worst {f.worst_mb:.0f} MB)", file=sys.stderr, flush=True)
    return f


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scan", default=os.path.join(ROOT, ".build/release/scan"), help="the scan binary (default: the release build)")
    ap.add_argument("--texts", type=int, default=2000)
    ap.add_argument("--images", type=int, default=30)
    ap.add_argument("--seed", type=int, default=None, help="seed (default: a fresh one, printed)")
    ap.add_argument("--batch", type=int, default=2000, help="texts per process")
    ap.add_argument("--image-batch", type=int, default=10, help="photos per process")
    ap.add_argument("--singles", type=int, default=None, help="texts also run alone through `scan text -` (default: one in 500)")
    ap.add_argument("--synth", type=int, default=12, help="gold-set synthetic images among the originals")
    ap.add_argument("--cpu-limit", type=float, default=10.0, help="CPU seconds one input may take")
    ap.add_argument("--wall-limit", type=float, default=60.0, help="wall seconds without a result before a process is killed")
    ap.add_argument("--startup-wall", type=float, default=60.0, help="extra wall seconds for a process's first result")
    ap.add_argument("--max-mb", type=float, default=300.0, help="peak memory bound per process")
    ap.add_argument("--keep", help="write the inputs that found a defect (and --only-* inputs) to this folder")
    ap.add_argument("--only-text", type=int, help="run only text number N (replay)")
    ap.add_argument("--only-image", type=int, help="run only photo number N (replay)")
    ap.add_argument("--progress", type=int, default=0, help="print progress every N processes")
    args = ap.parse_args()

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 2**63)
    print(f"fuzz: seed {seed} (replay with --seed {seed})", flush=True)
    if not os.access(args.scan, os.X_OK):
        sys.exit(f"fuzz: no scan binary at {args.scan}; build it: swift build -c release --product scan")
    tmp = tempfile.mkdtemp(prefix="ecodex-fuzz-")
    env = dict(os.environ, ECODEX_DATA_DIR=os.path.join(tmp, "data"), ECODEX_CONFIG=os.path.join(tmp, "preferences.conf"),
               NO_COLOR="1", OMP_THREAD_LIMIT="1")
    started = time.monotonic()
    failed = False
    try:
        # Build the store once, so no batch pays for it.
        subprocess.run([args.scan, "code", "E330"], env=env, capture_output=True, timeout=300)

        # Texts: a generator per text index, so the same seed gives the same text whatever ran before.
        corpus = load_texts()
        n_texts = 1 if args.only_text is not None else args.texts
        if n_texts:
            ids = [args.only_text] if args.only_text is not None else list(range(args.texts))
            def make(i):
                """Text number ids[i], made anew from the seed (100,000 of them do not fit in memory at once)."""
                rng = random.Random(f"{seed}:text:{ids[i]}")
                raw = mutate_text(rng.choice(corpus), rng)
                return raw, json_line(raw, rng)

            class Lines:  # the drive loop's view: indexable, with a length
                def __len__(self): return len(ids)
                def __getitem__(self, i): return make(i)[1]
            lines = Lines()
            if args.keep and args.only_text is not None:
                os.makedirs(args.keep, exist_ok=True)
                open(os.path.join(args.keep, f"text-{ids[0]}.jsonl"), "wb").write(lines[0] + b"\n")

            def text_cmd(s, e):
                return [args.scan, "text", "--jsonl", "-", "--format", "json"], b"".join(make(i)[1] + b"\n" for i in range(s, e))

            def text_index(name, s, e):
                if isinstance(name, str) and name.startswith("stdin:") and name[6:].isdigit():
                    n = int(name[6:])
                    return s + n - 1 if 1 <= n <= e - s else None
                return None

            ft = drive("texts", lines, text_cmd, text_index, {"parse_error"}, {0, 12}, args, env,
                       lambda i: lines[i][:300].decode("utf-8", "replace") if i < len(lines) else "")
            # Some alone through `scan text -` (standard input, the history write).
            singles = args.singles if args.singles is not None else len(lines) // 500
            step = max(1, len(lines) // singles) if singles else 1
            for i in range(0, min(singles, len(lines)) * step, step):
                raw = make(i)[0]
                b = run_batch([args.scan, "text", "-", "--format", "json"], env, raw, lambda name: 0, 1, args.cpu_limit,
                              args.wall_limit, args.startup_wall)
                ft.processes += 1
                ft.worst_mb = max(ft.worst_mb, b.peak_mb)
                if b.stopped:
                    ft.hangs.append((i, "alone: " + b.stopped[2], lines[i][:300].decode("utf-8", "replace")))
                elif b.status < 0:
                    ft.crashes.append((i, f"alone: signal {-b.status}", lines[i][:300].decode("utf-8", "replace")))
                elif b.status not in (0, 12):
                    ft.undocumented.append((i, f"alone: exit {b.status} {b.stderr[-200:]}", ""))
                if b.peak_mb > args.max_mb:
                    ft.memory.append((i, f"alone: peak {b.peak_mb:.0f} MB", ""))
            print(ft.summary(), flush=True)
            for d in ft.defects()[:20]:
                print(f"  text {d[0]}: {d[1]}\n    {d[2]!r}")
            if args.keep:
                os.makedirs(args.keep, exist_ok=True)
                for d in ft.defects():
                    if d[0] < len(lines):
                        open(os.path.join(args.keep, f"text-{ids[d[0]]}.jsonl"), "wb").write(lines[d[0]] + b"\n")
            failed |= bool(ft.defects())

        # Photos: a generator per photo index, too.
        n_images = 1 if args.only_image is not None else args.images
        if n_images:
            originals = image_originals(tmp, random.Random(f"{seed}:originals"), args.synth)
            ids = [args.only_image] if args.only_image is not None else list(range(args.images))
            folder = os.path.join(tmp, "photos")
            os.makedirs(folder)
            paths, sources = [], []
            for k in ids:
                rng = random.Random(f"{seed}:image:{k}")
                name, data = originals[rng.randrange(len(originals))]
                path = os.path.join(folder, f"m{k:06d}" + os.path.splitext(name)[1])
                open(path, "wb").write(mutate_image(data, rng))
                paths.append(path)
                sources.append(os.path.relpath(name, ROOT) if name.startswith(ROOT) else os.path.basename(name))
            if args.keep and args.only_image is not None:
                os.makedirs(args.keep, exist_ok=True)
                shutil.copy(paths[0], args.keep)
            where = {p: i for i, p in enumerate(paths)}

            def image_cmd(s, e):
                return [args.scan] + paths[s:e] + ["--format", "json"], None

            def image_index(name, s, e):
                i = where.get(name)
                return i if i is not None and s <= i < e else None

            fi = drive("photos", paths, image_cmd, image_index, {"capture_error"}, {0, 10}, args, env,
                       lambda i: f"photo {ids[i] if i < len(ids) else i} from {sources[i] if i < len(sources) else '?'}")
            print(fi.summary(), flush=True)
            for d in fi.defects()[:20]:
                print(f"  photo {d[0]}: {d[1]} ({d[2]})")
            if args.keep:
                os.makedirs(args.keep, exist_ok=True)
                for d in fi.defects():
                    if d[0] < len(paths):
                        shutil.copy(paths[d[0]], args.keep)
            failed |= bool(fi.defects())
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"fuzz: seed {seed}, {time.monotonic() - started:.0f} s, {'DEFECTS FOUND' if failed else 'no defect'}", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
