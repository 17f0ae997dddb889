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
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import lexicon  # noqa: E402
import writer  # noqa: E402

TRUTH = os.path.join(ROOT, "truth.jsonl")
# ImageMagick 6; /usr/local/bin/convert on some machines is a stand-in that cannot render.
CONVERT = "/usr/bin/convert" if os.path.exists("/usr/bin/convert") else "convert"
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

# More installed faces (same Debian packages) for the phone_frame tier only: adding them to
# FONTS would change the draws of the existing images.
PHONE_FONTS = {
    "nimbus-sans-bold": "/usr/share/fonts/opentype/urw-base35/NimbusSans-Bold.otf",
    "urw-gothic": "/usr/share/fonts/opentype/urw-base35/URWGothic-Book.otf",
    "p052-roman": "/usr/share/fonts/opentype/urw-base35/P052-Roman.otf",
    "c059-roman": "/usr/share/fonts/opentype/urw-base35/C059-Roman.otf",
    "dejavu-serif-condensed": "/usr/share/fonts/truetype/dejavu/DejaVuSerifCondensed.ttf",
}
ALL_FONTS = dict(FONTS, **PHONE_FONTS)
CONDENSED = ("dejavu-condensed", "dejavu-condensed-bold", "nimbus-narrow", "nimbus-narrow-bold",
             "dejavu-serif-condensed")

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
        if params["font"] in CONDENSED:
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
    # phone_frame: whole phone frames, after all the other synthetic images (their own draws).
    phone, pm = phone_truth(seed, names, matcher, len(items))
    lines += phone
    mismatches += pm
    # Strong blur and a tight cylinder: hard-tier lines after phone_frame (their own draws).
    strong, sm = strong_truth(seed, names, matcher, len(items) + PHONE_COUNT)
    lines += strong
    mismatches += sm
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
    args = [CONVERT, "-font", ALL_FONTS[font], "-pointsize", "100"]
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
    if p["condition"] == "phone_frame":
        render_phone(line)
        for j in range(1, len(line.get("burst", [])) + 1):
            render_phone(line, j)
        return
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
    args = [CONVERT, "-size", "%dx%d" % (w, h), "xc:" + p["bg"], "-font", FONTS[p["font"]],
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
    elif cond == "curved_tight":
        args += cylinder_args(p, w, h)
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
    if cond == "blur_strong":
        if p["blur_kind"] == "motion":
            # One-sided streak of 2r+1 pixels with near-even weights (sigma well above the radius).
            r = (p["streak"] - 1) // 2
            args += ["-motion-blur", "%dx%d+%d" % (r, 2 * p["streak"], p["motion_angle"])]
        else:
            args += ["-blur", "0x%s" % p["blur"]]
    elif cond == "blur":
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


# ---------------------------------------------------------------------------
# blur_strong and curved_tight: hard-tier labels blurred by a share of the letter height, or
# wrapped round a tight cylinder (visible span 80-116 degrees, text compressed near the edges)
# ---------------------------------------------------------------------------

STRONG_COUNT = 42   # truth lines per condition (6 per language and 6 mixed panels)
STRONG_CONDITIONS = ["blur_strong", "curved_tight"]


def strong_truth(seed, names, matcher, first):
    """Truth lines for blur_strong then curved_tight, all hard, ids after phone_frame."""
    lines, mismatches = [], 0
    for k in range(STRONG_COUNT * len(STRONG_CONDITIONS)):
        i = first + k
        rng = random.Random("%s:%d" % (seed, i))
        ident = "g%04d" % i
        condition = STRONG_CONDITIONS[k // STRONG_COUNT]
        lang = (LANGS + ["mixed"])[k % (len(LANGS) + 1)]
        if lang == "mixed":
            langs = rng.sample(LANGS, rng.choice([2, 2, 3]))
            wplan = writer.plan_for_panel(rng, names, langs)
            parts, truth_s, only_s = [], set(), set()
            for l in langs:
                t, tr, on, _ = writer.write_text(l, rng, names, plan=wplan)
                parts.append(t)
                truth_s |= set(tr)
                only_s |= set(on)
            text = " / ".join(parts) if rng.random() < 0.5 else "\n".join(parts)
            truth = sorted(truth_s, key=lexicon.code_key)
            only = sorted(only_s - truth_s, key=lexicon.code_key)
            source = "written by goldset/tools/writer.py (mixed-language panel %s)" % "+".join(langs)
        else:
            langs = [lang]
            text, truth, only, _ = writer.write_text(lang, rng, names)
            source = "written by goldset/tools/writer.py"
        t2, o2, _ = lexicon.truth_for(text, matcher)
        if t2 != truth or o2 != only:
            mismatches += 1
            print("note: %s writer %s/%s vs matcher %s/%s" % (ident, truth, only, t2, o2), file=sys.stderr)
        params = strong_params(rng, condition)
        conditions = [condition]
        if lang == "mixed":
            conditions.append("mixed_language")
        if params["font"] in CONDENSED:
            conditions.append("condensed")
        if params["caps"]:
            conditions.append("all_caps")
        line = {
            "file": "%s/%s.jpg" % (SYNTH, ident), "truth": truth, "namesOnly": only,
            "conditions": conditions, "tier": "hard", "lang": lang,
            "region": "EU", "source": source, "text": text, "params": params,
        }
        if lang == "mixed":
            line["langs"] = langs
        lines.append(line)
    return lines, mismatches


def strong_params(rng, condition):
    """Every choice for one blur_strong or curved_tight image, drawn from the image's own RNG.

    Letter height is the font's cap height at the drawn size (`letter_px`); the blur is a share
    of it, so it scales with the print as a camera's defocus or shake does relative to the text."""
    p = {"condition": condition, "tier": "hard"}
    p["font"] = rng.choice(list(FONTS))
    p["caps"] = rng.random() < 0.2
    p["width"] = rng.randrange(900, 1601, 10)
    p["pointsize"] = rng.randrange(22, 34)
    p["fg"], p["bg"] = rng.choice(DARK_ON_LIGHT)
    p["quality"] = rng.randrange(72, 86)
    p["noise"] = round(rng.uniform(0.2, 0.5), 2)
    p["noise_seed"] = rng.randrange(1, 10000)
    letter = cap_height(p["font"]) * p["pointsize"]
    p["letter_px"] = round(letter, 1)
    if condition == "blur_strong":
        p["blur_kind"] = "motion" if rng.random() < 0.5 else "gaussian"
        p["motion_angle"] = rng.randrange(0, 180)
        if p["blur_kind"] == "gaussian":
            p["blur_frac"] = round(rng.uniform(0.10, 0.15), 3)            # Gaussian sigma / letter height
            p["blur"] = round(p["blur_frac"] * letter, 2)
        else:
            p["blur_frac"] = round(rng.uniform(0.5, 2.0 / 3.0), 3)        # streak length / letter height
            p["streak"] = max(3, 2 * int(round((p["blur_frac"] * letter - 1) / 2)) + 1)   # nearest odd: 2r+1 px
    else:
        p["span"] = rng.randrange(80, 117)                # visible part of the cylinder, degrees
        p["elevation"] = round(rng.uniform(4, 14) * rng.choice([-1, 1]), 1)   # camera above/below, degrees
        p["shade"] = round(rng.uniform(0.55, 0.8), 2)
    return p


def cylinder_args(p, w, h):
    """Wrap the flat label (w x h) round a cylinder whose visible part spans `span` degrees: column
    u (-1..1) lands at sin(u th) (orthographic view), so text near the edges is compressed by cos,
    and seen from `elevation` above or below, lines bow into elliptical arcs."""
    import math
    th = math.radians(p["span"] / 2.0)
    st = math.sin(th)
    half = w / 2.0
    radius = w / (2.0 * th)                                   # the label's width is the arc th..-th
    bow = radius * math.sin(math.radians(p["elevation"]))   # a line's rise from edge to centre / (1 - cos th)
    bpad = int(abs(bow) * (1 - math.cos(th))) + 4
    oh = h + 2 * bpad
    dxmax = max(abs(math.asin(t / 200.0 * st) / th - t / 200.0) for t in range(-200, 201)) * half + 2
    dymax = abs(bow) * (1 - math.cos(th)) + 2
    t = "max(-1,min(1,(i-%.1f)/%.3f))" % (half, half)
    xexpr = "0.5+((asin(%s*%.6f)/%.6f-%s)*%.3f)/(2*%.3f)" % (t, st, th, t, half, dxmax)
    yexpr = "0.5+(%.3f*(%.6f-cos(asin(%s*%.6f))))/(2*%.3f)" % (bow, math.cos(th), t, st, dymax)
    shade = ["(", "-size", "%dx1" % w, "xc:white", "-fx", "1-(1-%s)*pow(abs(2*i/w-1),2)" % p["shade"],
             "-scale", "%dx%d!" % (w, h), ")", "-compose", "multiply", "-composite"]
    return shade + [
        "-bordercolor", "#8a8578", "-compose", "over", "-border", "0x%d" % bpad,
        "(", "-size", "%dx1" % w, "xc:", "-fx", xexpr, "-scale", "%dx%d!" % (w, oh), ")",
        "(", "-size", "%dx1" % w, "xc:", "-fx", yexpr, "-scale", "%dx%d!" % (w, oh), ")",
        "-background", "#8a8578", "-virtual-pixel", "background", "-compose", "displace",
        "-set", "option:compose:args", "%.3fx%.3f" % (dxmax, dymax), "-composite", "-compose", "over",
        # Orthographic width of the visible arc: the centre keeps its scale, the edges shrink.
        "-resize", "%dx%d!" % (int(round(w * st / th)), oh)]


_caps = {}


def cap_height(font):
    """Height of a capital H at 100 pt, in pixels / 100 (ImageMagick, measured once per font)."""
    if font not in _caps:
        out = subprocess.run([CONVERT, "-font", ALL_FONTS[font], "-pointsize", "100", "label:H", "-trim",
                              "-format", "%h", "info:"], capture_output=True, text=True, check=True).stdout
        _caps[font] = int(out) / 100.0
    return _caps[font]


# ---------------------------------------------------------------------------
# phone_frame: whole phone frames (a small label panel on a package, in a hand, in a scene)
# ---------------------------------------------------------------------------

PHONE_COUNT = 44   # truth lines, burst leaders included
PHONE_HARD = 18    # of them in the hard tier
PHONE_BURSTS = 8   # leaders that get 4 more frames each (-b1 … -b4)
SWISS = ["de", "fr", "it"]

PANEL_COLORS = DARK_ON_LIGHT + [("#1e1a16", "#f2a23c"), ("#202020", "#f3d34a"), ("#2a1a10", "#d3e6b5"),
                                ("#1a1a1a", "#dcd6cc"), ("#ffffff", "#b3202a"), ("#fff7d6", "#1f4e8c")]
PACKAGE_COLORS = ["#c0392b", "#1f4e8c", "#2f6b2f", "#e08a1e", "#6b3fa0", "#e9c21a", "#8e5a2b", "#e8e2d4",
                  "#0f6e6e", "#a9aaa6", "#f4f1ea", "#2c2c2c"]
SKINS = [("#e3b08f", "#c48b6a"), ("#f0c8ac", "#d29f80"), ("#c68e6f", "#a0694d"), ("#a8704f", "#84522f"),
         ("#8a5a3c", "#6a4028")]
SCENES = {
    "kitchen": [("#b9b3a9", "#4f4a44"), ("#aeb4b8", "#2b2f34"), ("#c6c0b6", "#7a7060")],
    "shelf": [("#d8d6d0", "#8a867c"), ("#c4c8cc", "#6e767e"), ("#d5cfc2", "#a09480")],
    "table": [("#b98c5e", "#6e4b2c"), ("#d8c3a0", "#8c7050"), ("#7a7f86", "#3a3d42")],
}
CLUTTER_COLORS = ["#c0392b", "#2e86c1", "#27ae60", "#f39c12", "#8e44ad", "#ecf0f1", "#34495e", "#d35400",
                  "#7f8c8d", "#f7dc6f", "#a04000", "#1abc9c", "#ffffff", "#222222"]
# Text that is on packages but is no ingredient list (checked by `truth`: no additive in it).
BRANDS = ["Alpenhof", "Bergfeld", "Sonnhalde", "Lac Bleu", "Monte Verde", "Gartenfrisch", "Le Chalet",
          "Dolce Valle", "Nordlicht", "Prima Casa", "Seeland", "Belle Ferme"]
PRODUCTS = ["Classic", "Original", "Bio", "Family Pack", "Extra fein", "Nature", "Gourmet", "Premium",
            "Tradizione", "Petit Déjeuner"]
CLUTTER_TEXT = ["PASTA", "Bio Milch 1 l", "Nussini 200 g", "Riso Arborio", "Tomates pelées", "Müesli",
                "Kaffee Crema", "Thé vert", "Biscotti", "Aktion -20%", "2 für 1", "CHF 3.95", "Fr. 2.40",
                "Joghurt Nature", "NEU", "Spaghetti n.5", "Bouillon", "Haferdrink"]
NUTRITION = [("Nährwerte / Valeurs nutritives", "100 g"), ("Energie / Énergie", "1650 kJ"), ("", "394 kcal"),
             ("Fett / Matières grasses", "12 g"), ("Kohlenhydrate / Glucides", "60 g"),
             ("davon Zucker / dont sucres", "21 g"), ("Eiweiss / Protéines", "6.5 g"), ("Salz / Sel", "0.8 g")]


def phone_check_clutter(matcher):
    """The scene and package texts must not hold an additive, or the truth would be wrong."""
    for s in BRANDS + PRODUCTS + CLUTTER_TEXT + [a + " " + b for a, b in NUTRITION]:
        for t in (s, s.upper()):
            tr, on, _ = lexicon.truth_for(t, matcher)
            if tr or on:
                raise SystemExit("phone_frame clutter text %r reads as additives %s %s" % (t, tr, on))


def phone_truth(seed, names, matcher, first):
    """Truth lines for the phone_frame tier: ids after the other synthetic images."""
    phone_check_clutter(matcher)
    plan = random.Random("%s:phone" % seed)
    ks = list(range(PHONE_COUNT))
    plan.shuffle(ks)
    hard = set(ks[:PHONE_HARD])
    leaders = set(ks[:PHONE_BURSTS // 2] + ks[PHONE_HARD:PHONE_HARD + PHONE_BURSTS // 2])
    lines, mismatches = [], 0
    for k in range(PHONE_COUNT):
        i = first + k
        rng = random.Random("%s:%d" % (seed, i))
        ident = "g%04d" % i
        if k % 2 == 0:
            # Swiss panels: the same list in German, French and Italian (sometimes two of them).
            langs = list(SWISS) if rng.random() < 0.75 else [l for l in SWISS if l in rng.sample(SWISS, 2)]
            wplan = writer.plan_for_panel(rng, names, langs)
            parts, truth_s, only_s = [], set(), set()
            for l in langs:
                t, tr, on, _ = writer.write_text(l, rng, names, plan=wplan)
                parts.append(t)
                truth_s |= set(tr)
                only_s |= set(on)
            text = "\n".join(parts) if rng.random() < 0.8 else " / ".join(parts)
            truth = sorted(truth_s, key=lexicon.code_key)
            only = sorted(only_s - truth_s, key=lexicon.code_key)
            lang = "mixed"
            source = "written by goldset/tools/writer.py (mixed-language panel %s)" % "+".join(langs)
        else:
            lang = LANGS[(k // 2) % len(LANGS)]
            langs = [lang]
            text, truth, only, _ = writer.write_text(lang, rng, names)
            source = "written by goldset/tools/writer.py"
        t2, o2, _ = lexicon.truth_for(text, matcher)
        if t2 != truth or o2 != only:
            mismatches += 1
            print("note: %s writer %s/%s vs matcher %s/%s" % (ident, truth, only, t2, o2), file=sys.stderr)
        params = phone_params(rng, k in hard, k in leaders)
        conditions = ["phone_frame"]
        if lang == "mixed":
            conditions.append("mixed_language")
        if params["font"] in CONDENSED:
            conditions.append("condensed")
        if params["caps"]:
            conditions.append("all_caps")
        line = {
            "file": "%s/%s.jpg" % (SYNTH, ident), "truth": truth, "namesOnly": only,
            "conditions": conditions, "tier": params["tier"], "lang": lang,
            "region": "CH" if lang == "mixed" else "EU", "source": source, "text": text, "params": params,
        }
        if lang == "mixed":
            line["langs"] = langs
        if "bursts" in params:
            line["burst"] = ["%s/%s-b%d.jpg" % (SYNTH, ident, j) for j in range(1, len(params["bursts"]) + 1)]
        lines.append(line)
    return lines, mismatches


def phone_blur(rng, hard):
    kind = rng.choice(["gaussian", "motion", "disc", "box"])
    if kind == "gaussian":
        amount = round(rng.uniform(0.9, 1.3) if hard else rng.uniform(0.4, 0.8), 2)
    elif kind == "motion":
        amount = round(rng.uniform(1.6, 2.4) if hard else rng.uniform(0.8, 1.4), 2)
    elif kind == "disc":
        amount = round(rng.uniform(1.5, 2.0) if hard else rng.uniform(1.0, 1.3), 2)
    else:
        amount = 3 if hard else 2
    return {"blur_kind": kind, "blur": amount, "motion_angle": rng.randrange(0, 180)}


def phone_glare(rng, hard):
    return {"glare": round(rng.uniform(0.6, 0.85) if hard else rng.uniform(0.3, 0.55), 2),
            "glare_x": round(rng.uniform(-0.45, 0.45), 2), "glare_y": round(rng.uniform(-0.45, 0.45), 2),
            "glare_r": round(rng.uniform(0.06, 0.14), 3), "glare_angle": rng.randrange(-40, 41)}


def phone_params(rng, hard, burst):
    """Every choice for one phone frame, drawn from the image's own RNG (sizes in frame pixels)."""
    p = {"condition": "phone_frame", "tier": "hard" if hard else "moderate"}
    p["font"] = rng.choice(list(ALL_FONTS))
    p["caps"] = rng.random() < 0.15
    p["frame"] = [1080, 1920] if not burst and rng.random() < 0.2 else [720, 1280]
    # Final x-height in the frame; the panel is drawn at `pointsize` and scaled down to reach it.
    p["xheight"] = round(rng.uniform(5.0, 7.0) if hard else rng.uniform(7.0, 10.0), 1)
    p["pointsize"] = int(round(p["xheight"] * rng.uniform(3.4, 4.2)))   # about 2x the final size
    low = max(0.25, min(0.5, 34.0 * p["xheight"] / p["frame"][0]))
    p["panel_frac"] = round(rng.uniform(low, 0.6), 3)   # panel width / frame width
    p["fg"], p["bg"] = rng.choice(PANEL_COLORS)
    p["package"] = rng.choice(["box", "box", "pouch", "can", "bottle"])
    p["package_color"] = rng.choice(PACKAGE_COLORS)
    p["brand"] = rng.choice(BRANDS)
    p["product"] = rng.choice(PRODUCTS)
    # Package around the panel (left, top, right, bottom), in panel widths.
    p["margins"] = [round(rng.uniform(0.08, 0.22), 3), round(rng.uniform(0.05, 0.2), 3),
                    round(rng.uniform(0.08, 0.22), 3), round(rng.uniform(0.1, 0.35), 3)]
    if p["package"] in ("can", "bottle"):
        p["cylinder"] = rng.randrange(55, 80) if hard else rng.randrange(35, 60)   # half-angle seen, degrees
        p["bow"] = round(rng.uniform(0.01, 0.035) * rng.choice([-1, 1]), 3)       # in panel widths
        p["shade"] = round(rng.uniform(0.55, 0.8), 2)
    p["corners"] = [round(rng.uniform(0, 0.11 if hard else 0.05), 3) for _ in range(8)]
    p["angle"] = round(rng.uniform(-9, 9) if hard else rng.uniform(-4, 4), 1)
    p["offset"] = [round(rng.uniform(-0.1, 0.1), 3), round(rng.uniform(-0.12, 0.12), 3)]
    skin, shadow = rng.choice(SKINS)
    p["hand"] = {"side": rng.choice(["left", "right"]), "y": round(rng.uniform(0.35, 0.85), 2),
                 "angle": rng.randrange(-40, 15), "skin": skin, "shadow": shadow}
    p.update(phone_glare(rng, hard))
    p.update(phone_blur(rng, hard))
    # ImageMagick's Poisson noise takes time in proportion to brightness x attenuate: 720-wide frames only.
    p["noise_kind"] = rng.choice(["gaussian", "poisson", "impulse"] if p["frame"][0] == 720 else ["gaussian", "impulse"])
    # -attenuate for ImageMagick's +noise. Poisson noise gets weaker as the value grows, but
    # ImageMagick 6.9 breaks above about 60 (white turns grey), so it stays under 55.
    p["noise"] = {"gaussian": round(rng.uniform(0.35, 0.6) if hard else rng.uniform(0.12, 0.3), 2),
                  "poisson": round(rng.uniform(12, 25) if hard else rng.uniform(40, 55), 1),
                  "impulse": round(rng.uniform(0.03, 0.05) if hard else rng.uniform(0.01, 0.025), 3)}[p["noise_kind"]]
    p["noise_seed"] = rng.randrange(1, 10000)
    p["exposure"] = round(rng.uniform(0.7, 0.95) if hard else rng.uniform(0.85, 1.08), 2)
    p["sharpen"] = rng.random() < 0.5
    p["quality"] = rng.randrange(35, 66) if hard else rng.randrange(60, 91)
    # Chroma subsampling varies on the 720-wide frames; the big ones keep 4:2:0 (file size).
    p["sampling"] = "4:2:0" if p["frame"][0] > 720 else rng.choice(["4:2:0", "4:2:0", "4:2:2", "4:4:4"])
    p["scene"] = rng.choice(sorted(SCENES))
    p["scene_seed"] = rng.randrange(1, 100000)
    if burst:
        frames = []
        for _ in range(4):
            b = {"xheight": round(min(7.0 if hard else 10.0, max(5.0 if hard else 7.0,
                                                                   p["xheight"] * rng.uniform(0.88, 1.12))), 1),
                 "angle": round(p["angle"] + rng.uniform(-3, 3), 1),
                 "offset": [round(p["offset"][0] + rng.uniform(-0.05, 0.05), 3),
                            round(p["offset"][1] + rng.uniform(-0.06, 0.06), 3)],
                 "noise_seed": rng.randrange(1, 10000)}
            b["panel_frac"] = round(min(0.6, p["panel_frac"] * b["xheight"] / p["xheight"]), 3)
            b.update(phone_glare(rng, hard))
            b.update(phone_blur(rng, hard))
            frames.append(b)
        p["bursts"] = frames
    return p


_xheights = {}


def x_height(font):
    """Height of a lower-case x at 100 pt, in pixels / 100 (ImageMagick, measured once per font)."""
    if font not in _xheights:
        out = subprocess.run([CONVERT, "-font", ALL_FONTS[font], "-pointsize", "100", "label:x", "-trim",
                              "-format", "%h", "info:"], capture_output=True, text=True, check=True).stdout
        _xheights[font] = int(out) / 100.0
    return _xheights[font]


def luminance(hexcolor):
    r, g, b = (int(hexcolor[k:k + 2], 16) for k in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b


def render_phone(line, which=0):
    """One phone frame (which = 0) or burst frame `which` (1–4) of a phone_frame line."""
    p = dict(line["params"])
    out = os.path.join(ROOT, line["file"] if which == 0 else line["burst"][which - 1])
    if which:
        p.update(p["bursts"][which - 1])
    text = line["text"].upper() if p["caps"] else line["text"]
    fw, fh = p["frame"]
    size = p["pointsize"]
    k = p["xheight"] / (x_height(p["font"]) * size)        # panel pixels -> frame pixels
    widths = char_widths(p["font"])
    pw = int(round(p["panel_frac"] * fw / k))
    margin = int(size * 0.9)
    lines = wrap(text, widths, size, pw - 2 * margin)
    lead = int(size * 1.3)
    top = margin + size
    ph = top + lead * (len(lines) - 1) + int(size * 0.4) + margin
    ml, mt, mr, mb = [int(m * pw) for m in p["margins"]]
    mt += int(size * 3.6)                                   # brand name and product line
    rows = NUTRITION[:max(0, min(len(NUTRITION), (mb - size) // int(size * 1.25)))]
    w, h = pw + ml + mr, ph + mt + mb
    cyl = "cylinder" in p
    with tempfile.TemporaryDirectory() as tmp:
        obj = os.path.join(tmp, "object.miff")
        pad = int(fw * 0.22 / k)
        info = phone_object(p, text, lines, (w, h, pw, ph, ml, mt, mr, mb, margin, top, lead, rows, pad), obj)
        scene = os.path.join(tmp, "scene.miff")
        phone_scene(p, fw, fh, scene)
        # Where the object lands: centre of the frame plus the framing offset, moved (if needed)
        # so that the whole panel stays inside the frame with a 3 % border.
        import math
        a = math.radians(p["angle"])
        ow, oh = w + 2 * pad, h + 2 * pad

        def to_frame(x, y, cx, cy):
            dx, dy = (x - ow / 2.0) * k, (y - oh / 2.0) * k
            return cx + dx * math.cos(a) - dy * math.sin(a), cy + dx * math.sin(a) + dy * math.cos(a)

        cx, cy = fw / 2.0 + p["offset"][0] * fw, fh / 2.0 + p["offset"][1] * fh
        px0, px1 = info["panel_x"]
        corners = [to_frame(x, y, cx, cy) for x in (px0, px1) for y in (pad + mt, pad + mt + ph)]
        bx, by = 0.03 * fw, 0.03 * fh
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        cx += max(0, bx - min(xs)) - max(0, max(xs) - (fw - bx))
        cy += max(0, by - min(ys)) - max(0, max(ys) - (fh - by))
        args = [CONVERT, scene]
        args += phone_hand(p, info, to_frame, cx, cy, k, fw, fh, ow)
        gx, gy = int(round(cx - fw / 2.0)), int(round(cy - fh / 2.0))
        sh = max(3, fw // 110)
        # The package and a soft shadow under it (offset down and to the right).
        args += ["(", obj, "-resize", "%.4f%%" % (k * 100), "-background", "none", "-rotate", str(p["angle"]),
                 "-write", "mpr:object", "+delete", ")",
                 "(", "mpr:object", "-background", "black", "-shadow", "55x%d+0+0" % sh, "+repage", ")",
                 "-gravity", "center", "-geometry", "%+d%+d" % (gx + sh, gy + 2 * sh), "-compose", "over", "-composite",
                 "mpr:object", "-geometry", "%+d%+d" % (gx, gy), "-composite",
                 "+gravity", "-alpha", "off"]   # (alpha would upset -morphology)
        # Specular glare: a bright soft ellipse near the panel (tall and thin on cans and bottles).
        gcx, gcy = to_frame((px0 + px1) / 2.0 + p["glare_x"] * (px1 - px0), pad + mt + ph / 2.0 + p["glare_y"] * ph, cx, cy)
        rx = p["glare_r"] * fw
        ry = rx * (3.0 if cyl else 0.55)
        level = int(p["glare"] * 255)
        # (drawn and blurred at a quarter of the size: a wide blur on the whole frame is slow)
        q = 4
        args += ["(", "-size", "%dx%d" % (fw // q, fh // q), "xc:black", "-fill", "rgb(%d,%d,%d)" % (level, level, level),
                 "-draw", "translate %d,%d rotate %d ellipse 0,0 %d,%d 0,360" % (
                     gcx / q, gcy / q, p["angle"] if cyl else p["glare_angle"], rx / q, ry / q),
                 "-blur", "0x%.2f" % (max(2, int(rx * 0.35)) / float(q)), "-resize", "%dx%d!" % (fw, fh), ")",
                 "-compose", "screen", "-composite"]
        args += ["-evaluate", "multiply", str(p["exposure"])]
        kind, amount = p["blur_kind"], p["blur"]
        if kind == "gaussian":
            args += ["-blur", "0x%s" % amount]
        elif kind == "motion":
            args += ["-motion-blur", "0x%s+%d" % (amount, p["motion_angle"])]
        elif kind == "disc":
            args += ["-define", "convolve:scale=!", "-morphology", "Convolve", "Disk:%s" % amount]
        else:
            args += ["-statistic", "Mean", "%dx%d" % (amount, amount)]
        args += ["-seed", str(p["noise_seed"]), "-attenuate", str(p["noise"]),
                 "+noise", p["noise_kind"].capitalize()]
        if p["noise_kind"] == "impulse":
            args += ["-attenuate", "0.3", "+noise", "Gaussian"]
        if p["sharpen"]:
            args += ["-unsharp", "0x1+0.7+0.02"]
        args += ["-strip", "-sampling-factor", p["sampling"], "-quality", str(p["quality"]), out]
        os.makedirs(os.path.dirname(out), exist_ok=True)
        subprocess.run(args, check=True)


def phone_object(p, text, lines, geo, out):
    """The package with the label panel, bent round a cylinder for cans and bottles, with the
    thumb on one edge, in panel pixels on a transparent canvas (`pad` on every side)."""
    import math
    w, h, pw, ph, ml, mt, mr, mb, margin, top, lead, rows, pad = geo
    size = p["pointsize"]
    pc = p["package_color"]
    ink = "#1a1a1a" if luminance(pc) > 140 else "#fafafa"
    args = [CONVERT, "-size", "%dx%d" % (w, h), "xc:" + pc]
    if p["package"] == "can":
        rim = max(6, h // 30)
        args += ["-fill", "#b9bcc0", "-draw", "rectangle 0,0 %d,%d" % (w, rim),
                 "-draw", "rectangle 0,%d %d,%d" % (h - rim, w, h)]
    args += ["-font", ALL_FONTS["nimbus-sans-bold"], "-pointsize", str(int(size * 2.3)), "-fill", ink,
             "-annotate", "+%d+%d" % (ml, mt - int(size * 1.45)), escape(p["brand"]),
             "-font", ALL_FONTS["dejavu-sans"], "-pointsize", str(int(size * 0.95)),
             "-annotate", "+%d+%d" % (ml, mt - int(size * 0.4)), escape(p["product"])]
    # The panel and its text (the same layout as the other synthetic images).
    args += ["-fill", p["bg"], "-draw", "rectangle %d,%d %d,%d" % (ml, mt, ml + pw - 1, mt + ph - 1),
             "-font", ALL_FONTS[p["font"]], "-pointsize", str(size), "-fill", p["fg"]]
    for j, (s, e) in enumerate(lines):
        args += ["-annotate", "+%d+%d" % (ml + margin, mt + top + j * lead), escape(text[s:e])]
    # A nutrition-table-like grid under the panel.
    if rows:
        gy = mt + ph + int(size * 0.6)
        rh = int(size * 1.25)
        gw = int(pw * 0.8)
        args += ["-fill", "#f4f2ee", "-stroke", "#333333", "-strokewidth", "2",
                 "-draw", "rectangle %d,%d %d,%d" % (ml, gy, ml + gw, gy + rh * len(rows)), "-stroke", "none",
                 "-fill", "#333333", "-pointsize", str(int(size * 0.85)), "-font", ALL_FONTS["dejavu-sans"]]
        nw = char_widths("dejavu-sans")
        for j, (label, value) in enumerate(rows):
            y = gy + rh * (j + 1)
            if text_width(label, nw, int(size * 0.85)) > gw * 0.7:
                label = label.split(" / ")[0]          # a narrow grid shows the German half only
            if j < len(rows) - 1:
                args += ["-draw", "line %d,%d %d,%d" % (ml, y, ml + gw, y)]
            args += ["-annotate", "+%d+%d" % (ml + int(size * 0.4), y - int(size * 0.3)), escape(label),
                     "-annotate", "+%d+%d" % (ml + int(gw * 0.75), y - int(size * 0.3)), escape(value)]
    cyl = "cylinder" in p
    if cyl:
        args += ["(", "-size", "%dx1" % w, "xc:white", "-fx", "1-(1-%s)*pow(abs(2*i/w-1),2)" % p["shade"],
                 "-scale", "%dx%d!" % (w, h), ")", "-compose", "multiply", "-composite"]
    else:
        # Package outline: a darker rim along the edges.
        args += ["-fill", "none", "-stroke", "rgba(0,0,0,0.35)", "-strokewidth", str(max(3, size // 6)),
                 "-draw", "rectangle 1,1 %d,%d" % (w - 2, h - 2), "-stroke", "none"]
    args += ["-alpha", "set", "-bordercolor", "none", "-compose", "over", "-border", str(pad)]
    ow, oh = w + 2 * pad, h + 2 * pad
    panel_x = [pad + ml, pad + ml + pw]
    if cyl:
        # Output column x shows surface column u of the package: x = sin(u θ) / sin θ (both in -1…1).
        th = math.radians(p["cylinder"])
        st = math.sin(th)
        half = w / 2.0
        bow = p["bow"] * pw
        dxmax = max(abs(math.asin(t / 200.0 * st) / th - t / 200.0) for t in range(-200, 201)) * half + 2
        dymax = abs(bow) + 2
        t = "max(-1,min(1,(i-%d)/%.3f))" % (pad + half, half)
        xexpr = "0.5+((asin(%s*%.6f)/%.6f-%s)*%.3f)/(2*%.3f)" % (t, st, th, t, half, dxmax)
        yexpr = "0.5+(%.3f*(%.6f-cos(asin(%s*%.6f))))/(2*%.3f)" % (bow, math.cos(th), t, st, dymax)
        args += ["(", "-size", "%dx1" % ow, "xc:", "-fx", xexpr, "-scale", "%dx%d!" % (ow, oh), ")",
                 "(", "-size", "%dx1" % ow, "xc:", "-fx", yexpr, "-scale", "%dx%d!" % (ow, oh), ")",
                 "-virtual-pixel", "transparent", "-compose", "displace",
                 "-set", "option:compose:args", "%.3fx%.3f" % (dxmax, dymax), "-composite", "-compose", "over"]

        def fwd(u):
            return pad + half + math.sin(u * th) / st * half

        panel_x = [fwd((ml - half) / half), fwd((ml + pw - half) / half)]
    # The thumb across one edge: it reaches into the package margin, never into the panel.
    hd = p["hand"]
    k = p["xheight"] / (x_height(p["font"]) * size)
    fw = p["frame"][0]
    tl, tw = fw * 0.17 / k, fw * 0.085 / k                 # thumb length and width
    ty = pad + hd["y"] * h
    if hd["side"] == "left":
        edge, room = pad, panel_x[0] - pad
    else:
        edge, room = pad + w, pad + w - panel_x[1]
    reach = max(0.0, min(tl * 0.45, room - size * 0.8))
    ang = hd["angle"] if hd["side"] == "left" else 180 - hd["angle"]
    a = math.radians(ang)
    ext = math.sqrt((tl / 2 * math.cos(a)) ** 2 + (tw / 2 * math.sin(a)) ** 2)
    tx = edge + reach - ext if hd["side"] == "left" else edge - reach + ext
    nx, ny = tx + math.cos(a) * tl * 0.3, ty + math.sin(a) * tl * 0.3
    args += ["-fill", hd["shadow"], "-draw", "translate %d,%d rotate %d ellipse 0,0 %d,%d 0,360" % (
                 tx, ty + tw * 0.06, ang, tl / 2, tw / 2 + tw * 0.05),
             "-fill", hd["skin"], "-draw", "translate %d,%d rotate %d ellipse 0,0 %d,%d 0,360" % (
                 tx, ty, ang, tl / 2, tw / 2),
             "-fill", "rgba(255,235,225,0.55)", "-draw", "translate %d,%d rotate %d ellipse 0,0 %d,%d 0,360" % (
                 nx, ny, ang, tl * 0.14, tw * 0.3)]
    c = p["corners"]
    args += ["-virtual-pixel", "transparent", "-distort", "Perspective",
             "0,0 %d,%d  %d,0 %d,%d  %d,%d %d,%d  0,%d %d,%d" % (
                 c[0] * w, c[1] * h, ow, ow - c[2] * w, c[3] * h, ow, oh, ow - c[4] * w, oh - c[5] * h,
                 oh, c[6] * w, oh - c[7] * h), out]
    subprocess.run(args, check=True)
    return {"panel_x": panel_x, "thumb": (tx, ty), "edge": edge, "tl": tl, "tw": tw}


def phone_hand(p, info, to_frame, cx, cy, k, fw, fh, ow):
    """Draw commands (frame pixels, behind the package) for the palm and wrist below the thumb and
    the finger tips showing past the opposite edge."""
    hd = p["hand"]
    tx, ty = to_frame(info["thumb"][0], info["thumb"][1], cx, cy)
    ex, _ = to_frame(info["edge"], info["thumb"][1], cx, cy)
    left = hd["side"] == "left"
    far = 0 if left else fw
    args = ["-fill", hd["skin"], "-stroke", "none"]
    # Palm: from the frame edge to a bit past the package edge, wrist going down out of the frame.
    px = (far + ex) / 2.0
    rx = abs(ex - far) / 2.0 + fw * 0.08
    args += ["-draw", "ellipse %d,%d %d,%d 0,360" % (px, ty + fh * 0.1, rx, fh * 0.13),
             "-draw", "polygon %d,%d %d,%d %d,%d %d,%d" % (
                 far, ty + fh * 0.02, ex + (-1 if left else 1) * fw * 0.02, ty + fh * 0.15,
                 far + (1 if left else -1) * max(fw * 0.3, abs(ex - far) * 0.8), fh + 10, far, fh + 10)]
    # Fingers behind the package, tips past the other edge.
    ox, _ = to_frame(info["edge"] + (-1 if left else 1) * 0, info["thumb"][1], cx, cy)
    other = to_frame(ow - info["edge"], info["thumb"][1], cx, cy)[0]
    d = 1 if left else -1
    for j in range(3):
        fy = ty - fh * 0.02 + j * fw * 0.085
        args += ["-fill", hd["shadow"], "-draw", "ellipse %d,%d %d,%d 0,360" % (other + d * fw * 0.01, fy + 3, fw * 0.07, fw * 0.038),
                 "-fill", hd["skin"], "-draw", "ellipse %d,%d %d,%d 0,360" % (other + d * fw * 0.01, fy, fw * 0.07, fw * 0.036)]
    return args


def phone_scene(p, fw, fh, out):
    """Background of a phone frame: gradient, mottled light, out-of-focus shelf/kitchen clutter."""
    rs = random.Random(p["scene_seed"])
    c1, c2 = rs.choice(SCENES[p["scene"]])
    args = [CONVERT, "-size", "%dx%d" % (fw, fh), "-define", "gradient:angle=%d" % rs.randrange(150, 211),
            "gradient:%s-%s" % (c1, c2),
            "(", "-size", "%dx%d" % (fw // 60, fh // 60), "xc:gray50", "-seed", str(p["scene_seed"] % 9973 + 1),
            "-attenuate", "1.2", "+noise", "Gaussian", "-colorspace", "gray", "-resize", "%dx%d!" % (fw, fh),
            "-blur", "0x%d" % (fw // 40), ")",
            "-compose", "soft-light", "-composite", "-compose", "over"]
    if p["scene"] == "shelf":
        y = rs.randrange(fh // 10, fh // 4)
        while y < fh:
            args += ["-fill", "#6b6b6b", "-draw", "rectangle 0,%d %d,%d" % (y, fw, y + fh // 60),
                     "-fill", "#d8d8d8", "-draw", "rectangle 0,%d %d,%d" % (y - 3, fw, y)]
            y += rs.randrange(fh // 4, fh // 2)
    elif p["scene"] == "kitchen":
        args += ["-fill", "none", "-stroke", "#2a2a2a", "-strokewidth", str(fw // 60),
                 "-draw", "ellipse %d,%d %d,%d 0,360" % (rs.randrange(fw), rs.randrange(fh // 3), fw // 4, fw // 9),
                 "-stroke", "none", "-fill", "#3a3d40",
                 "-draw", "rectangle 0,%d %d,%d" % (fh * 0.72, fw, fh * 0.74)]
    for _ in range(rs.randint(4, 8)):
        x, y = rs.randrange(-fw // 4, fw), rs.randrange(-fh // 10, fh)
        bw, bh = rs.randrange(fw // 8, fw // 2), rs.randrange(fh // 12, fh // 3)
        col = rs.choice(CLUTTER_COLORS)
        args += ["-fill", col, "-draw", "roundrectangle %d,%d %d,%d %d,%d" % (x, y, x + bw, y + bh, 6, 6)]
        if rs.random() < 0.7:
            ink = "#111111" if luminance(col) > 140 else "#f5f5f5"
            args += ["-fill", ink, "-font", ALL_FONTS[rs.choice(["nimbus-sans-bold", "dejavu-sans", "urw-gothic"])],
                     "-pointsize", str(rs.randrange(fw // 36, fw // 14)),
                     "-annotate", "+%d+%d" % (x + bw // 10, y + bh // 2), escape(rs.choice(CLUTTER_TEXT + BRANDS))]
    args += ["-blur", "0x%.1f" % rs.uniform(1.0, 3.0), out]
    subprocess.run(args, check=True)


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
        files = [line["file"]] + line.get("burst", [])
        if a.force or a.only or not all(os.path.exists(os.path.join(ROOT, f)) for f in files):
            todo.append(line)
    for font in {l["params"]["font"] for l in todo}:
        char_widths(font)
    with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        for n, _ in enumerate(pool.map(lambda l: render(l, matcher), todo), 1):
            if n % 50 == 0 or n == len(todo):
                print("render: %d/%d" % (n, len(todo)), file=sys.stderr)


if __name__ == "__main__":
    main()
