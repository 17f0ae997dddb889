#!/usr/bin/env python3
"""Builds the Ecodex gold set: truth lines for every image, and the rendered label images.

    goldset/generate.py truth  [--seed 2026]      # writes goldset/truth.jsonl (texts, truth, render parameters)
    goldset/generate.py render [--jobs 2] [--force] [--only ID,...]
                                                   # renders goldset/synth/*.jpg that are missing

Deterministic: every image's parameters come from random.Random("<seed>:<index>") and are
recorded in its truth line, and ImageMagick's noise uses a fixed -seed, so the same
ImageMagick 6 and fonts give the same images. Needs Python 3 (stdlib), ImageMagick 6
`convert`, and fonts from Debian's fonts-dejavu-core, fonts-dejavu-extra and
fonts-urw-base35. `render` needs only truth.jsonl, not the sources.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import lexicon  # noqa: E402
import writer  # noqa: E402

TRUTH = os.path.join(ROOT, "truth.jsonl")
SYNTH = "synth"
LANGS = ["en", "de", "fr", "es", "it", "nl"]

FONTS = {
    "dejavu-sans": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "dejavu-sans-bold": "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "dejavu-serif": "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
    "dejavu-condensed": "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf",
    "dejavu-condensed-bold": "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf",
    "nimbus-sans": "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf",
    "nimbus-narrow": "/usr/share/fonts/opentype/urw-base35/NimbusSansNarrow-Regular.otf",
    "nimbus-narrow-bold": "/usr/share/fonts/opentype/urw-base35/NimbusSansNarrow-Bold.otf",
    "nimbus-roman": "/usr/share/fonts/opentype/urw-base35/NimbusRoman-Regular.otf",
}

# Visual conditions. The first group is "clean-to-moderate" at tier "moderate"; every
# condition also has "hard" images (stronger settings), reported separately from the gate.
CONDITIONS = ["clean", "curved", "low_light", "small_font", "occlusion", "glare", "perspective",
              "blur", "rotation", "jpeg", "light_on_color"]

DARK_ON_LIGHT = [("#1e1a16", "#fbf7ec"), ("#222222", "#ffffff"), ("#2b2118", "#fff4d6"), ("#102a43", "#eef4fa"),
                 ("#3a2a1a", "#f3ead8"), ("#1b3a1b", "#eef6e8")]
LIGHT_ON_COLOR = [("#ffffff", "#b3202a"), ("#fff7d6", "#1f4e8c"), ("#ffffff", "#2f6b2f"), ("#ffe600", "#3b1f5c"),
                  ("#ffffff", "#5a3a22"), ("#f5f5f5", "#c2571a"), ("#ffffff", "#0f6e6e")]


# ---------------------------------------------------------------------------
# Truth
# ---------------------------------------------------------------------------

def real_truth():
    """Truth lines for the real photos, from the hand transcription in real/manifest.jsonl."""
    # Conditions of each photo in the shared vocabulary (the manifest describes them in words).
    cond = {
        "dart_ingredients_en.jpg": (["curved", "glare", "light_on_color"], "moderate"),
        "dart_ingredients_small_en.jpg": (["small_font", "low_res"], "hard"),
        "dart_ingredients_coca_light_de.jpg": (["curved", "light_on_color", "small_font", "low_res"], "hard"),
        "dart_ingredient_3613042717385.jpg": (["low_res"], "hard"),
        "irockel_image-0.jpg": (["coloured_background"], "moderate"),
        "irockel_image-1.jpg": (["light_on_color", "condensed", "all_caps"], "moderate"),
        "irockel_image-2.jpg": (["coloured_background"], "moderate"),
        "irockel_image-3.jpg": (["low_contrast", "all_caps"], "moderate"),
        "irockel_image-4.jpg": (["coloured_background", "condensed", "all_caps"], "moderate"),
        "irockel_image-5.jpg": (["clean"], "moderate"),
        "irockel_image-6.jpg": (["coloured_background", "condensed"], "moderate"),
        "irockel_image-7.jpg": (["small_font", "low_res", "jpeg"], "hard"),
        "irockel_image-8.jpg": (["clean"], "moderate"),
        "irockel_image-9.jpg": (["small_font", "all_caps"], "moderate"),
        "irockel_image-10.jpg": (["small_font", "all_caps"], "moderate"),
        "irockel_image-11.jpg": (["coloured_background", "low_contrast"], "moderate"),
        "irockel_image-12.jpg": (["clean"], "moderate"),
        "irockel_image-13.jpg": (["coloured_background", "all_caps"], "moderate"),
        "irockel_image-14.jpg": (["coloured_background", "condensed", "all_caps"], "moderate"),
        "irockel_image-15.jpg": (["occlusion", "curved", "all_caps"], "hard"),
        "irockel_image-16.jpg": (["perspective", "curved", "all_caps"], "hard"),
        "irockel_image-17.jpg": (["clean"], "moderate"),
        "irockel_image-18.jpg": (["low_contrast", "all_caps"], "moderate"),
    }
    lines = []
    for raw in open(os.path.join(ROOT, "real", "manifest.jsonl"), encoding="utf-8"):
        m = json.loads(raw)
        printed = {lexicon.find_codes(c)[0][2] for c in m["e_codes_printed"]}
        named = set()
        for code in m["additives_named_mapped"].values():
            mm = re.match(r"E(\d+)([a-h]?)", code)
            named.add(lexicon.comparison_code(mm.group(1), mm.group(2)))
        only = {c for c in named if not any(lexicon.same_additive(c, t) for t in printed)}
        conditions, tier = cond[m["file"]]
        lines.append({
            "file": "real/" + m["file"], "truth": sorted(printed, key=lexicon.code_key),
            "namesOnly": sorted(only, key=lexicon.code_key), "conditions": ["real"] + conditions, "tier": tier,
            "lang": m["languages"][0], "region": "EU" if m["file"].startswith("dart") else "US",
            "source": "%s %s (%s)" % (m["repo"], m["path"], "hand transcription in real/manifest.jsonl"),
            "text": m["truth_text_if_any"],
        })
    return lines


def synthetic_plan(seed):
    """(id, lang, text source) for every synthetic image, in a fixed order."""
    off = [json.loads(l) for l in open(os.path.join(ROOT, "sources", "off-texts.jsonl"), encoding="utf-8")]
    rng = random.Random("%s:plan" % seed)
    items = []
    for r in off:
        items.append(("off", r))
    # Written texts fill each language up to ~86 images and add mixed-language panels.
    per_lang = {l: sum(1 for r in off if r["lang"] == l) for l in LANGS}
    for lang in LANGS:
        for _ in range(max(0, 86 - per_lang[lang])):
            items.append(("written", {"lang": lang}))
    for _ in range(38):
        langs = rng.sample(LANGS, rng.choice([2, 2, 3]))
        items.append(("panel", {"lang": "mixed", "langs": langs}))
    return items


def build_truth(seed):
    names = writer.load_label_names()
    matcher = lexicon.NameMatcher(lexicon.load_names())
    lines = real_truth()
    items = synthetic_plan(seed)
    cond_rng = random.Random("%s:conditions" % seed)
    # Conditions go round-robin over a shuffled order so each gets about the same share.
    order = list(range(len(items)))
    cond_rng.shuffle(order)
    assigned = {}
    for k, i in enumerate(order):
        assigned[i] = CONDITIONS[k % len(CONDITIONS)]
    mismatches = 0
    # Hand-check corrections of matcher truth for Open Food Facts texts (see README.md).
    overrides = {}
    path = os.path.join(ROOT, "sources", "truth-overrides.jsonl")
    if os.path.exists(path):
        for raw in open(path, encoding="utf-8"):
            o = json.loads(raw)
            overrides.setdefault(o["file"], []).append(o)
    for i, (kind, src) in enumerate(items):
        rng = random.Random("%s:%d" % (seed, i))
        ident = "g%04d" % i
        if kind == "off":
            # Open Food Facts marks allergens with underscores; a printed label shows no marks.
            text = src["text"].replace("_", "")
            truth, only, _ = lexicon.truth_for(text, matcher)
            for fix in overrides.get("%s/g%04d.jpg" % (SYNTH, i), []):
                truth = sorted((set(truth) | set(fix.get("addTruth", []))) - set(fix.get("removeTruth", [])),
                               key=lexicon.code_key)
                only = set(only) - set(fix.get("removeNamesOnly", []))
                only = sorted((only | set(fix.get("addNamesOnly", []))) - set(truth), key=lexicon.code_key)
            lang = src["lang"]
            source = "Open Food Facts (ODbL) %s via sources/off-texts.jsonl %s" % (src["source"], src["id"])
            langs = [lang]
        elif kind == "written":
            lang = src["lang"]
            text, truth, only, _ = writer.write_text(lang, rng, names)
            source = "written by goldset/tools/writer.py"
            langs = [lang]
        else:
            langs = src["langs"]
            plan = writer.plan_for_panel(rng, names, langs)
            parts, truth_s, only_s = [], set(), set()
            for l in langs:
                t, tr, on, _ = writer.write_text(l, rng, names, plan=plan)
                parts.append(t)
                truth_s |= set(tr)
                only_s |= set(on)
            text = " / ".join(parts) if rng.random() < 0.5 else "\n".join(parts)
            truth = sorted(truth_s, key=lexicon.code_key)
            only = sorted(only_s - truth_s, key=lexicon.code_key)
            lang = "mixed"
            source = "written by goldset/tools/writer.py (mixed-language panel %s)" % "+".join(langs)
        if kind != "off":
            # Truth by construction must agree with the matcher reading the same text.
            t2, o2, _ = lexicon.truth_for(text, matcher)
            if t2 != truth or o2 != only:
                mismatches += 1
                print("note: %s writer %s/%s vs matcher %s/%s" % (ident, truth, only, t2, o2), file=sys.stderr)
        condition = assigned[i]
        params = render_params(rng, condition, lang, text)
        conditions = [condition]
        if lang == "mixed" or "mixed" in source:
            conditions.append("mixed_language")
        if params.get("secondary"):
            conditions.append(params["secondary"])
        if params["font"] in ("dejavu-condensed", "dejavu-condensed-bold", "nimbus-narrow", "nimbus-narrow-bold"):
            conditions.append("condensed")
        if params["caps"]:
            conditions.append("all_caps")
        lines.append({
            "file": "%s/%s.jpg" % (SYNTH, ident), "truth": truth, "namesOnly": only,
            "conditions": conditions, "tier": params["tier"], "lang": lang,
            "region": "EU", "source": source, "text": text, "params": params,
        })
        if lang == "mixed":
            lines[-1]["langs"] = langs
    with open(TRUTH, "w", encoding="utf-8") as f:
        for line in lines:
            f.write(json.dumps(line, ensure_ascii=False) + "\n")
    print("truth: %d lines (%d real, %d synthetic), %d writer/matcher disagreements" %
          (len(lines), 23, len(lines) - 23, mismatches))


def render_params(rng, condition, lang, text):
    """Every choice the renderer makes for one image, drawn from the image's own RNG."""
    hard = rng.random() < 0.35 and condition != "clean"
    p = {"condition": condition, "tier": "hard" if hard else "moderate"}
    p["font"] = rng.choice(list(FONTS))
    p["caps"] = rng.random() < 0.2
    p["width"] = rng.randrange(900, 1601, 10)
    p["pointsize"] = rng.randrange(22, 34)
    fg, bg = rng.choice(DARK_ON_LIGHT)
    p["fg"], p["bg"] = fg, bg
    p["quality"] = rng.randrange(72, 86)
    p["noise"] = round(rng.uniform(0.2, 0.5), 2)
    p["noise_seed"] = rng.randrange(1, 10000)
    if condition == "curved":
        p["arc"] = rng.randrange(40, 70) if hard else rng.randrange(15, 35)
        p["shade"] = round(rng.uniform(0.55, 0.8), 2)
    elif condition == "low_light":
        p["brightness"] = rng.randrange(22, 32) if hard else rng.randrange(38, 55)
        p["noise"] = round(rng.uniform(1.0, 1.5) if hard else rng.uniform(0.5, 0.9), 2)
        p["cast"] = rng.choice(["#402a10", "#10203a", "#302820"])
    elif condition == "small_font":
        p["pointsize"] = rng.randrange(9, 11) if hard else rng.randrange(12, 15)
        p["width"] = rng.randrange(900, 1101, 10)
    elif condition == "occlusion":
        p["occluder"] = rng.choice(["thumb", "sticker", "fold"])
        p["occlude_lines"] = rng.randrange(4, 7) if hard else rng.randrange(2, 4)
    elif condition == "glare":
        p["glare"] = round(rng.uniform(0.78, 0.9) if hard else rng.uniform(0.55, 0.72), 2)
        p["glare_x"] = round(rng.uniform(0.25, 0.75), 2)
        p["glare_y"] = round(rng.uniform(0.3, 0.7), 2)
        p["glare_r"] = round(rng.uniform(0.18, 0.32), 2)
    elif condition == "perspective":
        s = 0.16 if hard else 0.08
        p["corners"] = [round(rng.uniform(0, s), 3) for _ in range(8)]
    elif condition == "blur":
        p["blur"] = round(rng.uniform(1.7, 2.4) if hard else rng.uniform(0.9, 1.4), 2)
        p["motion"] = rng.random() < 0.4
        p["motion_angle"] = rng.randrange(0, 180)
    elif condition == "rotation":
        a = rng.uniform(14, 28) if hard else rng.uniform(3, 12)
        p["angle"] = round(a if rng.random() < 0.5 else -a, 1)
    elif condition == "jpeg":
        p["quality"] = rng.randrange(5, 9) if hard else rng.randrange(11, 18)
        p["downscale"] = round(rng.uniform(0.55, 0.7), 2) if hard else 1.0
    elif condition == "light_on_color":
        p["fg"], p["bg"] = rng.choice(LIGHT_ON_COLOR)
        if hard:
            p["secondary"] = "low_light"
            p["brightness"] = rng.randrange(55, 70)
    if condition == "clean":
        p["noise"] = 0.2
    return p


# ---------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------

_metrics = {}


def char_widths(font):
    """Advance width of each character at 100 pt, measured once per font with ImageMagick."""
    if font in _metrics:
        return _metrics[font]
    cache = os.path.join(ROOT, ".cache", "metrics-%s.json" % font)
    if os.path.exists(cache):
        _metrics[font] = json.load(open(cache, encoding="utf-8"))
        return _metrics[font]
    chars = sorted(set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,;:()[]%-/&'*_!?°+"
        "äöüßÄÖÜéèêëàâçîïôûùñáíóúÉÈÀÂÇÔÑÁÍÓÚìòœŒ"))
    args = ["convert", "-font", FONTS[font], "-pointsize", "100"]
    for ch in chars:
        s = ch if ch != " " else "x x"
        args += ["label:" + escape(s * 10), "label:" + escape(s * 20)]
    out = subprocess.run(args + ["-format", "%w\n", "info:"], capture_output=True, text=True, check=True).stdout.split()
    widths = {}
    for k, ch in enumerate(chars):
        w10, w20 = int(out[2 * k]), int(out[2 * k + 1])
        widths[ch] = (w20 - w10) / 10.0
    # "x x" repeated measures x + space + x: take the space alone.
    widths[" "] = widths[" "] - 2 * widths["x"]
    os.makedirs(os.path.dirname(cache), exist_ok=True)
    json.dump(widths, open(cache, "w", encoding="utf-8"))
    _metrics[font] = widths
    return widths


def escape(s):
    """ImageMagick interprets % escapes and a leading @ in text arguments."""
    s = s.replace("\\", "\\\\").replace("%", "%%")
    return " " + s if s.startswith("@") else s


def text_width(s, widths, size):
    return sum(widths.get(ch, widths["m"] * 0.8) for ch in s) * size / 100.0


def wrap(text, widths, size, max_w):
    """Greedy word wrap; returns lines as (text, [(start, end) offsets into `text`])."""
    lines = []
    for para_start, para in paragraphs(text):
        words = [(m.start() + para_start, m.end() + para_start) for m in re.finditer(r"\S+", para)]
        cur = []
        for w in words:
            trial = text[cur[0][0]:w[1]] if cur else text[w[0]:w[1]]
            if cur and text_width(trial, widths, size) > max_w:
                lines.append((cur[0][0], cur[-1][1]))
                cur = [w]
            else:
                cur.append(w)
        if cur:
            lines.append((cur[0][0], cur[-1][1]))
    return lines


def paragraphs(text):
    pos = 0
    for part in text.split("\n"):
        yield pos, part
        pos += len(part) + 1


def render(line, matcher):
    p = line["params"]
    out = os.path.join(ROOT, line["file"])
    text = line["text"].upper() if p["caps"] else line["text"]
    widths = char_widths(p["font"])
    size = p["pointsize"]
    margin = int(p["width"] * 0.05)
    lines = wrap(text, widths, size, p["width"] - 2 * margin)
    lead = int(size * 1.32)
    top = margin + size
    height = top + lead * len(lines) + margin
    w, h = p["width"], max(height, int(p["width"] * 0.18))
    args = ["convert", "-size", "%dx%d" % (w, h), "xc:" + p["bg"], "-font", FONTS[p["font"]],
            "-pointsize", str(size), "-fill", p["fg"]]
    for k, (s, e) in enumerate(lines):
        args += ["-annotate", "+%d+%d" % (margin, top + k * lead), escape(text[s:e])]
    if p["condition"] == "occlusion":
        args += occluder(p, line, text, lines, widths, size, margin, top, lead, w, matcher)
    cond = p["condition"]
    # Effects run in the order a camera would add them: geometry, light, optics, sensor, codec.
    if cond == "curved":
        # Shade first (dark at both edges, like a lit can), then bend the lines into an arc.
        args += ["(", "-size", "%dx1" % w, "xc:white", "-fx", "1-(1-%s)*pow(abs(2*i/w-1),2)" % p["shade"],
                 "-scale", "%dx%d!" % (w, h), ")", "-compose", "multiply", "-composite",
                 "-background", "#8a8578", "-virtual-pixel", "background", "-distort", "Arc", str(p["arc"])]
    elif cond == "perspective":
        c = p["corners"]
        args += ["-background", "#8a8578", "-virtual-pixel", "background", "-distort", "Perspective",
                 "0,0 %d,%d  %d,0 %d,%d  %d,%d %d,%d  0,%d %d,%d" % (
                     c[0] * w, c[1] * h, w, w - c[2] * w, c[3] * h, w, h, w - c[4] * w, h - c[5] * h,
                     h, c[6] * w, h - c[7] * h)]
    elif cond == "rotation":
        args += ["-background", "#9a9488", "-rotate", str(p["angle"])]
    if cond == "glare":
        gx, gy, gr = int(p["glare_x"] * w), int(p["glare_y"] * h), int(p["glare_r"] * w)
        level = int(p["glare"] * 255)
        args += ["(", "-size", "%dx%d" % (w, h), "xc:black", "-fill", "rgb(%d,%d,%d)" % (level, level, level),
                 "-draw", "ellipse %d,%d %d,%d 0,360" % (gx, gy, gr, int(gr * 0.6)), "-blur", "0x%d" % (gr // 3),
                 ")", "-compose", "screen", "-composite"]
    if cond == "low_light" or p.get("secondary") == "low_light":
        # Linear darkening keeps hues (HSL -modulate would saturate pale backgrounds), then a colour cast.
        args += ["-evaluate", "multiply", "%.2f" % (p["brightness"] / 100.0), "-fill", p.get("cast", "#302820"),
                 "-colorize", "10%"]
    if cond == "blur":
        if p["motion"]:
            args += ["-motion-blur", "0x%s+%d" % (p["blur"] * 1.6, p["motion_angle"])]
        else:
            args += ["-blur", "0x%s" % p["blur"]]
    else:
        args += ["-blur", "0x0.5"]
    args += ["-seed", str(p["noise_seed"]), "-attenuate", str(p["noise"]), "+noise", "Gaussian"]
    if cond == "jpeg" and p["downscale"] != 1.0:
        args += ["-resize", "%d%%" % int(p["downscale"] * 100)]
    args += ["-strip", "-sampling-factor", "4:2:0", "-quality", str(p["quality"]), out]
    os.makedirs(os.path.dirname(out), exist_ok=True)
    subprocess.run(args, check=True)


def occluder(p, line, text, lines, widths, size, margin, top, lead, w, matcher):
    """Draw commands for a thumb, price sticker or fold covering part of the text.

    It only covers text after the last additive mention on each line it crosses, so
    the truth stays exact: what it hides is ordinary ingredients and footer text.
    """
    mentions = lexicon.truth_for(text, matcher)[2]
    free = []
    for s, e in lines:
        last = max([me for ms, me, _, _ in mentions if ms < e and me > s] or [s])
        x = margin + text_width(text[s:last], widths, size) + (size * 1.5 if last > s else 0)
        free.append(int(x))
    k = p["occlude_lines"]
    best = None
    for i in range(0, max(1, len(lines) - k + 1)):
        band = free[i:i + k] or [margin]
        x0 = max(band)
        if best is None or x0 < best[0]:
            best = (x0, i)
    x0, i = best
    x0 = max(x0, int(w * 0.25))
    y0 = top + i * lead - size
    if x0 > w - int(w * 0.08):
        # No band of lines has room after its last additive (clamping would cut one):
        # the occluder covers the margin under the text instead.
        x0, y0 = int(w * 0.55), top + (len(lines) - 1) * lead + int(size * 0.6)
    y1 = y0 + k * lead
    if p["occluder"] == "thumb":
        return ["-fill", "#c8957a", "-draw", "roundrectangle %d,%d %d,%d %d,%d" % (x0, y0, w + 40, y1, lead, lead),
                "-fill", "#b07c63", "-draw", "roundrectangle %d,%d %d,%d %d,%d" % (x0 + 8, y0 + 8, x0 + lead, y1 - 8, 6, 6)]
    if p["occluder"] == "sticker":
        return ["-fill", "#f7f2e8", "-stroke", "#c0392b", "-strokewidth", "3", "-draw",
                "roundrectangle %d,%d %d,%d 10,10" % (x0, y0, min(w - 5, x0 + int(w * 0.3)), y1),
                "-stroke", "none", "-fill", p["fg"]]
    return ["-fill", "rgba(60,50,40,0.92)", "-draw", "polygon %d,%d %d,%d %d,%d %d,%d" % (
        x0, y0, w, y0 - lead // 2, w, y1 + lead // 2, x0 + lead, y1), "-fill", p["fg"]]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("step", choices=["truth", "render"])
    ap.add_argument("--seed", default="2026")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--force", action="store_true")
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    if a.step == "truth":
        build_truth(a.seed)
        return
    matcher = lexicon.NameMatcher(lexicon.load_names())
    todo = []
    for raw in open(TRUTH, encoding="utf-8"):
        line = json.loads(raw)
        if "params" not in line:
            continue
        ident = os.path.splitext(os.path.basename(line["file"]))[0]
        if a.only and ident not in a.only.split(","):
            continue
        if a.force or a.only or not os.path.exists(os.path.join(ROOT, line["file"])):
            todo.append(line)
    for font in {l["params"]["font"] for l in todo}:
        char_widths(font)
    with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        for n, _ in enumerate(pool.map(lambda l: render(l, matcher), todo), 1):
            if n % 50 == 0 or n == len(todo):
                print("render: %d/%d" % (n, len(todo)), file=sys.stderr)


if __name__ == "__main__":
    main()
