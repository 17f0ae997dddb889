#!/usr/bin/env python3
"""Generate packs/base/additives/*.json from the sources.

Inputs (read only):
  /work/shared/data/off/additives.txt     Open Food Facts taxonomy (ODbL 1.0)
  /work/shared/data/additive-synonyms.jsonl
  /work/shared/data/region-facts.jsonl    researched per-region rules
  packs/tools/curated.json                our hand-curated overlay (its `curated_entries` add
                                          Union-list codes the taxonomy lacks)
  packs/tools/fact_decisions.json         what we decided for each medium-confidence fact row
  packs/tools/union-list-names/<lang>.tsv names in a language the taxonomy barely covers, from
                                          that country's regulators (code, name, source key)

Outputs: packs/base/additives/<CODE>.json (one record per code) and
packs/base/ambiguous-names.json (names that several codes shared, and where we kept them).

Python 3 standard library only. Deterministic: same inputs, same bytes.
Usage: python3 packs/tools/import_off.py [--data /work/shared/data]
"""
import argparse
import json
import os
import re
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import citations
import offtaxonomy  # noqa: E402

PACKS = os.path.dirname(HERE)
OUT_DIR = os.path.join(PACKS, "base", "additives")
UPDATED_AT = "2026-11-21"
REGIONS = ["EU", "US", "UK", "CA", "AU", "IN"]
CORE_LANGS = ["en", "de", "fr", "es", "it", "nl"]

# Pseudo-codes used in region-facts.jsonl. Those with a real E-number are mapped;
# the others (Orange B, caffeine) have no E-number and stay out of the pack.
FACT_CODE_MAP = {"INS958": "E958", "PonceauSX": "E125"}

# Sulphite rows: region-facts has one E220 row standing for E220-E228. We apply it only
# to the sulphites that region lists (see REVIEW.md).
SULPHITE_SPREAD = {
    "EU": ["E221", "E222", "E223", "E224", "E226", "E227", "E228"],
    "UK": ["E221", "E222", "E223", "E224", "E226", "E227", "E228"],
    "US": ["E221", "E222", "E223", "E224", "E228"],
    "CA": ["E221", "E222", "E223", "E224"],
    "AU": ["E221", "E222", "E223", "E224", "E225", "E228"],
    "IN": [],
}

OFF_CLASS_MAP = {
    "stabilizer": "stabiliser",
    "flavour-enhancer": "flavour enhancer",
    "acidity-regulator": "acidity regulator",
    "anti-caking-agent": "anti-caking agent",
    "raising-agent": "raising agent",
    "gelling-agent": "gelling agent",
    "firming-agent": "firming agent",
    "glazing-agent": "glazing agent",
    "flour-treatment-agent": "flour treatment agent",
    "bulking-agent": "bulking agent",
    "foaming-agent": "foaming agent",
    "anti-foaming-agent": "anti-foaming agent",
    "emulsifying-salts": "emulsifying salt",
    "packaging-gas": "packaging gas",
    "modified-starch": "thickener",
    "anticaking-agent": "anti-caking agent",
}

# Names in the taxonomy that are not names of the additive (notes, formulas, organisms).
JUNK_NAME = re.compile(
    r"(^\d+-\d+-\d$)|(^[EeЕе]\s?-?\d{3,4})|(^synonyms\b)|(\belement[oa]? \d+)|(^pigment metal)|(^bacillus )|(^c\d+h\d+)"
    # A piece of a name the taxonomy split at a comma: it starts or ends with a hyphen
    # (Slovak "-tokoferol", Hungarian "valamint Na-" of "ciklaminsav, valamint Na- és Ca-sói").
    r"|(^-)|(-$)",
    re.IGNORECASE)
FORMULA = re.compile(r"^([A-Z][a-z]?\d*){2,}$")  # C17H20N4O6, NaCl: formulas, not label names

# British spellings in English names and their US regulatory spelling (21 CFR uses
# "sodium aluminum phosphate", "sulfite", "color").
US_SPELLINGS = [(re.compile(r"aluminium", re.IGNORECASE), "aluminum"), (re.compile(r"sulph", re.IGNORECASE), "sulf"),
                (re.compile(r"colour", re.IGNORECASE), "color")]



# Word stems that tell a mineral salt's full name (a mineral and an anion), as the parser's
# `NutrientSalts` has them: `calcium carbonate`, `Calciumcarbonat`, `carbonate de calcium`
# (BasePackTests.theGeneratorKnowsASaltByTheParsersStems keeps the two lists equal).
SALT_CATIONS = ["CALC", "KALZ", "WAPN", "POTAS", "KALIUM", "NATRI", "SODI", "SODU", "MAGNE", "FERR", "EISEN",
                "HIERRO", "IJZER", "ZELAZ", "ZINC", "ZINK", "CYNK"]
SALT_ANIONS = ["CITRAT", "CYTRYNIAN", "CHLOR", "CLORUR", "CHLOREK", "CARBONAT", "KARBONAT", "WEGLAN", "PHOSPHAT",
               "FOSFAT", "LACTAT", "LAKTAT", "LATTAT", "MLECZAN", "GLUCONAT", "GLUKONIAN", "SULFAT", "SULPHAT",
               "SOLFAT", "SIARCZAN", "OXID", "OXYD", "OSSID", "TLENEK",
               "CITRAAT", "CARBONAAT", "FOSFAAT", "LACTAAT", "GLUCONAAT", "SULFAAT"]


def names_a_salt(name):
    """Whether a name holds both a mineral stem and an anion stem (accents folded)."""
    folded = "".join(ch for ch in unicodedata.normalize("NFKD", name) if not unicodedata.combining(ch)).upper()
    return any(s in folded for s in SALT_CATIONS) and any(s in folded for s in SALT_ANIONS)

def us_spelling(name):
    """The US spelling of an English name, or None when it has no British spelling."""
    out = name
    for pattern, us in US_SPELLINGS:
        out = pattern.sub(lambda m, us=us: us if m.group(0)[0].islower() else us.capitalize(), out)
    return out if out != name else None


US_STYLE = re.compile(r"^(FD&C|D&C|Citrus Red|(Yellow|Red|Blue|Green) (No\. )?\d+( Lake)?$)", re.IGNORECASE)
# The fatty-acid tail of a glyceride ester's name, and the glycerides that must end what is left.
FATTY_TAIL = re.compile(r"\s+(of fatty acids|von Speisefettsäuren|von Fettsäuren|d'acides gras(?: alimentaires)?|"
                        r"des acides gras|degli acidi grassi|de ácidos grasos|de ácidos gordos)$", re.IGNORECASE)
GLYCERIDES_END = re.compile(r"(glycerides|glyceriden|glycérides|gliceridi|glicéridos)$", re.IGNORECASE)


def code_key(code):
    m = offtaxonomy.CODE_RE.match(code)
    romans = ["", "i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii"]
    return (int(m.group(1)), m.group(2) or "", romans.index(m.group(3) or ""))


def structural_parents(code):
    """E160a(ii) -> [E160a, E160]; E150a -> [E150]."""
    m = offtaxonomy.CODE_RE.match(code)
    num, letter, roman = m.group(1), m.group(2), m.group(3)
    out = []
    if roman:
        out.append("E" + num + (letter or ""))
        if letter:
            out.append("E" + num)
    elif letter:
        out.append("E" + num)
    return out


def file_name(code):
    return code.replace("(", "_").replace(")", "") + ".json"


def ecfr(section):
    return {"label": "21 CFR " + section, "url": "https://www.ecfr.gov/current/title-21/section-" + section}


def range_classes(code):
    n = code_key(code)[0]
    if 100 <= n < 200:
        return ["colour"]
    if 200 <= n < 300:
        return ["preservative"]
    if 300 <= n < 330:
        return ["antioxidant"]
    if 330 <= n < 400:
        return ["acidity regulator"]
    if 400 <= n < 500:
        return ["thickener", "stabiliser", "emulsifier"]
    if 500 <= n < 600:
        return ["acidity regulator", "anti-caking agent"]
    if 600 <= n < 700:
        return ["flavour enhancer"]
    if 900 <= n < 910:
        return ["glazing agent"]
    if 910 <= n < 938:
        return ["flour treatment agent"]
    if 938 <= n < 950:
        return ["packaging gas"]
    if 950 <= n < 970:
        return ["sweetener"]
    if n == 999:
        return ["foaming agent"]
    if 1100 <= n < 1200:
        return ["enzyme"]
    if 1400 <= n < 1500:
        return ["thickener", "stabiliser"]
    if 1500 <= n < 1600:
        return ["carrier"]
    return []


CLASS_PHRASE = {
    "colour": "It adds colour to food.",
    "preservative": "It helps food keep longer.",
    "antioxidant": "It stops fats from going off.",
    "emulsifier": "It helps oil and water mix.",
    "stabiliser": "It keeps the texture of food even.",
    "thickener": "It makes food thicker.",
    "sweetener": "It makes food taste sweet.",
    "acidity regulator": "It sets how sour a food is.",
    "acid": "It makes food taste sour.",
    "flavour enhancer": "It boosts the taste of food.",
    "raising agent": "It helps dough rise.",
    "gelling agent": "It helps food set like a gel.",
    "humectant": "It keeps food moist.",
    "firming agent": "It keeps fruit and veg firm.",
    "glazing agent": "It gives food a shiny coat.",
    "anti-caking agent": "It stops powders from clumping.",
    "sequestrant": "It binds metals in food.",
    "propellant": "It is a gas that pushes food out of a can.",
    "packaging gas": "It is a gas used in food packs.",
    "flour treatment agent": "It is used to treat flour.",
    "bulking agent": "It adds bulk to food.",
    "carrier": "It carries other additives.",
    "foaming agent": "It helps make foam.",
    "anti-foaming agent": "It stops foam.",
    "emulsifying salt": "It helps cheese melt smoothly.",
    "enzyme": "It is an enzyme used to make food.",
}


def status_sentence(rules):
    eu, us = rules.get("EU"), rules.get("US")
    if eu and us:
        if eu["approved"] and us["approved"]:
            return "It is allowed in the EU and the US."
        if eu["approved"]:
            return "It is allowed in the EU but not in the US."
        if us["approved"]:
            return "It is allowed in the US but not in the EU."
        return "It is not allowed in the EU or the US."
    if eu:
        return "It is allowed in the EU." if eu["approved"] else "It is not allowed in the EU."
    if us:
        return "It is allowed in the US." if us["approved"] else "It is not allowed in the US."
    return "We have no rule for it on file yet."


def template_plain(classes, rules):
    first = CLASS_PHRASE.get(classes[0]) if classes else None
    lead = first or "It is a food additive."
    return lead + " " + status_sentence(rules)


GOV_HOSTS = ("eur-lex.europa.eu", "legislation.gov.uk", "ecfr.gov", "govinfo.gov", "fda.gov", "canada.ca",
             "laws.justice.gc.ca", "legislation.gov.au", "foodstandards.gov.au", "fssai.gov.in", "efsa.europa.eu",
             "doi.org", "fao.org", "accc.gov.au", "productsafety.gov.au", "foodstandards.gov.scot", "gc.ca")


def is_primary(url):
    host = re.sub(r"^https?://(www\d?\.)?", "", url).split("/")[0]
    return any(host == h or host.endswith("." + h) for h in GOV_HOSTS)


HOST_LABELS = {
    "laws.justice.gc.ca": "Food and Drug Regulations (C.R.C., c. 870), Canada",
    "canada.ca": "Health Canada",
    "inspection.canada.ca": "Canadian Food Inspection Agency (CFIA)",
    "foodstandards.gov.au": "Food Standards Australia New Zealand (FSANZ)",
    "legislation.gov.au": "Australia New Zealand Food Standards Code (Federal Register of Legislation)",
    "legislation.gov.uk": "UK legislation (legislation.gov.uk)",
    "govinfo.gov": "US Federal Register (govinfo.gov)",
    "fda.gov": "US Food and Drug Administration",
    "eur-lex.europa.eu": "EUR-Lex",
    "accc.gov.au": "Australian Competition and Consumer Commission",
    "productsafety.gov.au": "Product Safety Australia (ACCC)",
    "foodstandards.gov.scot": "Food Standards Scotland",
}


def host_of(url):
    return re.sub(r"^https?://(www\d?\.)?", "", url).split("/")[0]


def gov_label(url, source):
    m = re.search(r"CELEX(?:%3A|:)3(\d{4})R0*(\d+)", url)
    if m:
        return "Reg. (EU) %s/%s (EUR-Lex)" % (m.group(1), m.group(2))
    m = re.search(r"FR-(\d{4}-\d{2}-\d{2})", url)
    if m:
        return "US Federal Register, %s" % m.group(1)
    label = source.split(url)[0].strip(" (;,")
    label = label.split(";")[-1].strip()
    if label and len(label) < 100:
        return label
    host = host_of(url)
    for h, lab in HOST_LABELS.items():
        if host == h or host.endswith("." + h):
            return lab
    return host


def parse_source_ref(source, region, refs, note=""):
    """(primary {label, url}, [secondary refs]) from a region-facts source string (and its note)."""
    urls = [u.rstrip(".,") for u in re.findall(r"https?://[^\s;)]+", source)]
    secondary = []
    for u in urls:
        if not is_primary(u):
            secondary.append({"label": "Secondary source (%s), used in our research" % host_of(u), "url": u})
    text = source + " " + note
    m = re.search(r"21 CFR (\d{2,3}\.\d+)(?!\d)", source)
    if m:
        return ecfr(m.group(1)), secondary
    gov = [u for u in urls if is_primary(u)]
    if region == "US" and gov:
        return {"label": gov_label(gov[0], source)[:120], "url": gov[0]}, secondary
    m = region == "US" and re.search(r"21 CFR (\d{2,3}\.\d+)(?!\d)", note)
    if m:
        return ecfr(m.group(1)), secondary
    # 2022/63 removed E 171; other notes cite its consolidated Annex II text only as a copy of the Union list.
    if "2022/63" in text and region == "EU" and "E 171" in refs["eu2022_63"]["label"] and "titanium" in text.lower():
        return refs["eu2022_63"], secondary
    if "884/2007" in text and region == "EU":
        return {"label": "Commission Reg. (EC) No 884/2007 (suspension of E 128)",
                "url": "https://eur-lex.europa.eu/eli/reg/2007/884/oj"}, secondary
    if "1169/2011" in text and region in ("EU", "UK"):
        return (refs["uk1169"] if region == "UK" else refs["eu1169"]), secondary
    if ("1333/2008" in text or "Union list" in text) and region in ("EU", "UK"):
        if region == "UK":
            return refs["uk1333"], secondary
        # "No Annex V warning" names Annex V only to say it does not apply.
        warned = "Annex V" in text and not re.search(r"\bno Annex V", text, re.I)
        return (refs["eu1333v"] if warned else refs["eu1333"]), secondary
    if "380/2012" in text and region == "EU":
        return refs["eu380_2012"], secondary
    if region in ("EU", "UK") and not any(is_primary(u) for u in urls):
        return (refs["uk1333"] if region == "UK" else refs["eu1333"]), secondary
    for u in urls:
        if is_primary(u):
            return {"label": gov_label(u, source)[:120], "url": u}, [x for x in secondary if x["url"] != u]
    if region == "AU":
        return refs["fsanz15"] if ("Schedule 15" in source or "Sch. 15" in source) else refs["fsanz_code"], secondary
    if region == "IN":
        return refs["fssai_regs"], secondary
    if region == "CA":
        return refs["hc_lists"], secondary
    return (secondary[0] if secondary else None), secondary[1:]


def lower_first(sentence):
    """`Allowed only in …` -> `allowed only in …`, to follow a colon; `EFSA …` stays."""
    if len(sentence) > 1 and sentence[0].isupper() and not sentence[1].isupper():
        return sentence[0].lower() + sentence[1:]
    return sentence


def quoted_statement(note):
    for q in re.findall(r"'([^']{15,})'", note):
        return q
    return None


def expand_codes(spec, codes, parent):
    """`E450` -> [E450]; `E450+` -> E450 and every sub-form below it that has a record."""
    if not spec.endswith("+"):
        return [spec] if spec in codes else []
    root = spec[:-1]
    out = []
    for c in codes:
        p, chain = c, []
        while p:
            chain.append(p)
            p = parent.get(p)
        if root in chain:
            out.append(c)
    return out


def list_reference(key, refs):
    return ecfr(key[4:]) if key.startswith("cfr:") else refs[key]


def apply_region_lists(cur, codes, parent, rules, refs):
    """Rules from the per-region lists in curated.json (`region_lists`): one entry per list
    and condition, naming the codes it covers. They fill only regions that have no rule
    yet (region-facts rows and extra_rules win). Returns the medium-confidence entries."""
    medium = []
    for region in sorted(cur["region_lists"]):
        for group in cur["region_lists"][region]:
            covered = []
            for spec in group["codes"]:
                for c in expand_codes(spec, codes, parent):
                    old = rules[c].get(region)
                    if old and group.get("label_statement_for_existing") and old["approved"]:
                        # The list adds a label statement to a permission recorded elsewhere: a warning
                        # (`statement`), or a plain declaration such as India's added-colour line, which
                        # is no warning and so goes into the conditions (it must not turn the badge red).
                        if group.get("statement"):
                            old["warning_required"] = True
                            old["statement"] = group["statement"]
                        elif group.get("declaration") and group["declaration"] not in old.get("conditions", ""):
                            old["conditions"] = (old.get("conditions", "") + " " + group["declaration"]).strip()
                        continue
                    if old:
                        continue
                    r = {"approved": group["approved"], "warning_required": group.get("warning_required", False),
                         "conditions": group["conditions"], "reference": list_reference(group["ref"], refs)}
                    if group.get("statement"):
                        r["statement"] = group["statement"]
                    if group.get("provision"):
                        r["_provision"] = tuple(group["provision"])  # the table or part citations.py cites
                    rules[c][region] = r
                    covered.append(c)
            if group["confidence"] != "high" and covered:
                medium.append((region, covered, group["conditions"], group["settle"]))
    return medium


def apply_rule_overrides(cur, rules):
    """`rule_overrides` ("CODE/REGION": keys): replace those keys of the generated rule, last of
    all, so dated terms, corrected references and statements are not overwritten by a later step."""
    for key, over in cur.get("rule_overrides", {}).items():
        if key.startswith("_"):
            continue
        code, region = key.split("/")
        if code not in rules:
            raise SystemExit("rule_overrides: %s has no record" % key)
        rule = rules[code].get(region)
        if rule is None:
            if "approved" not in over:
                raise SystemExit("rule_overrides: %s adds a rule, so it needs approved" % key)
            rule = rules[code][region] = {"warning_required": False}
        for k, v in over.items():
            if not k.startswith("_"):
                rule[k] = v


def inherit_group_rules(codes, parent, rules):
    """Outside the EU and UK, a roman sub-form (E450(i)) with no rule of its own takes its
    group's rule: the US, Canadian, FSANZ and FSSAI lists name the substance family, and
    labels there use the group number. (EU sub-forms are listed one by one in
    eu_subforms_inherit; the UK mirrors the EU.)"""
    for c in codes:
        if "(" not in c or not parent.get(c):
            continue
        for region in ("US", "CA", "AU", "IN"):
            group = rules[parent[c]].get(region)
            if group and region not in rules[c]:
                r = dict(group)
                r.pop("name", None)
                r["conditions"] = "Part of group %s. %s" % (parent[c], group.get("conditions", "")) if not group.get("conditions", "").startswith("Part of group") else group["conditions"]
                rules[c][region] = r


# Class titles that labels use with the code number in AU/NZ (Standard 1.2.4, Schedule 7) and India.
CLASS_TITLES = {
    "colour": "Colour", "preservative": "Preservative", "antioxidant": "Antioxidant", "emulsifier": "Emulsifier",
    "stabiliser": "Stabiliser", "thickener": "Thickener", "sweetener": "Sweetener", "acidity regulator": "Acidity regulator",
    "acid": "Food acid", "flavour enhancer": "Flavour enhancer", "raising agent": "Raising agent",
    "gelling agent": "Gelling agent", "humectant": "Humectant", "firming agent": "Firming agent",
    "glazing agent": "Glazing agent", "anti-caking agent": "Anticaking agent", "sequestrant": "Sequestrant",
    "propellant": "Propellant", "flour treatment agent": "Flour treatment agent", "bulking agent": "Bulking agent",
    "foaming agent": "Foaming agent", "anti-foaming agent": "Antifoaming agent", "emulsifying salt": "Emulsifying salt",
}


def apply_region_names(cur, codes, rules, by_code):
    """The name a shopper reads on labels in each region: curated names (Canada's list
    names, such as Allura Red), and in AU/NZ and India the class title with the code
    number (Colour (102)) for additives the region permits."""
    for region, names in cur["region_names"].items():
        for c, name in names.items():
            if region in rules.get(c, {}):
                rules[c][region]["name"] = name
    for c in codes:
        classes = cur["records"].get(c, {}).get("class") or by_code[c].get("class") \
            or by_code[c]["props"].get("mandatory_additive_class:en", "")
        first = classes[0] if isinstance(classes, list) else classes.split(",")[0].replace("en:", "").strip()
        cls = OFF_CLASS_MAP.get(first, first.replace("-", " "))
        number = re.sub(r"\(.*\)$", "", c[1:])
        for region in ("AU", "IN"):
            # AU/NZ labels say "Food acid (330)"; Indian labels use the Codex title "Acidity regulator (330)".
            title = "Acidity regulator" if region == "IN" and cls == "acid" else CLASS_TITLES.get(cls)
            r = rules[c].get(region)
            if title and r and r["approved"] and not r.get("name"):
                r["name"] = "%s (%s)" % (title, number)


REVIEW = os.path.join(PACKS, "base", "REVIEW.md")
BEGIN, END = "<!-- medium-confidence list: generated by import_off.py -->", "<!-- end of generated list -->"


def write_review_section(medium):
    """Rewrites the generated list of medium-confidence list rules in REVIEW.md."""
    text = open(REVIEW, encoding="utf-8").read()
    if BEGIN not in text:
        return
    lines = [BEGIN, "", "| region | codes | rule | what would settle it |", "|---|---|---|---|"]
    for region, covered, cond, settle in medium:
        lines.append("| %s | %s | %s | %s |" % (region, ", ".join(covered), cond, settle))
    lines += ["", END]
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    with open(REVIEW, "w", encoding="utf-8") as f:
        f.write(head + "\n".join(lines) + tail)


def add_curated_entries(cur, by_code):
    """Codes the taxonomy lacks (`curated_entries` in curated.json: Union-list additives
    such as E969 advantame) become entries shaped like the taxonomy's, marked `curated`,
    so the rest of the pipeline (names, rules, plain lines, references) treats them alike.
    Their names come from the regulation's language versions, not from Open Food Facts."""
    for c, ce in sorted(cur.get("curated_entries", {}).items(), key=lambda kv: kv[0]):
        if c.startswith("_"):
            continue
        if not offtaxonomy.valid_code(c):
            sys.exit("curated_entries: %s is not a valid E-number" % c)
        if c in by_code:
            sys.exit("curated_entries: the taxonomy now has %s; move its names to extra_names" % c)
        if not ce.get("names", {}).get("en") or not ce.get("class"):
            sys.exit("curated_entries.%s: needs an English name and a class" % c)
        by_code[c] = {"code": c, "names": {lang: list(ns) for lang, ns in sorted(ce["names"].items())},
                      "props": {}, "parents": [], "counts": [], "curated": True,
                      "class": list(ce["class"]), "diet": dict(ce.get("diet", {}))}


def add_union_list_names(cur, by_code):
    """Merges packs/tools/union-list-names/<lang>.tsv into the curated extra names. A row of a
    sub-form the store has no record of (E331(i)) names its group (E331)."""
    folder = os.path.join(HERE, "union-list-names")
    extra = cur.setdefault("extra_names", {})
    for fn in sorted(os.listdir(folder)):
        if not fn.endswith(".tsv"):
            continue
        lang = fn[:-4]
        for n, line in enumerate(open(os.path.join(folder, fn), encoding="utf-8"), 1):
            if not line.strip() or line.startswith("#"):
                continue
            code, name, source = line.rstrip("\n").split("\t")
            if code not in by_code:
                code = re.sub(r"\(.*", "", code)
            if code not in by_code or not name.strip() or not source.strip():
                sys.exit("%s:%d: unknown code or empty field: %r" % (fn, n, line))
            names = extra.setdefault(code, {}).setdefault(lang, [])
            if name.lower() not in [x.lower() for x in names]:
                names.append(name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="/work/shared/data")
    args = ap.parse_args()

    cur = json.load(open(os.path.join(HERE, "curated.json"), encoding="utf-8"))
    decisions = json.load(open(os.path.join(HERE, "fact_decisions.json"), encoding="utf-8"))["decisions"]
    cur["rule_checks"] = citations.load_checks(os.path.join(HERE, "checks"))
    refs = cur["refs"]

    entries = [e for e in offtaxonomy.parse(os.path.join(args.data, "off", "additives.txt"))
               if offtaxonomy.valid_code(e["code"])]
    by_code = {}
    for e in entries:
        if e["code"] in by_code:  # duplicate block: merge names
            for lang, names in e["names"].items():
                by_code[e["code"]]["names"].setdefault(lang, []).extend(names)
            by_code[e["code"]]["counts"] += e["counts"]
            by_code[e["code"]]["props"].update(e["props"])
        else:
            by_code[e["code"]] = e
    add_curated_entries(cur, by_code)
    add_union_list_names(cur, by_code)
    codes = sorted(by_code, key=code_key)

    # ---------- names ----------
    names = {}
    drop_names = {k: [n.lower() for n in v] for k, v in cur.get("drop_names", {}).items()}
    for c in codes:
        e = by_code[c]
        nd = {}
        # Curated names may be in a language the taxonomy's entry lacks (Ukrainian, say).
        extra = cur.get("extra_names", {}).get(c, {})
        for lang in sorted(set(e["names"]) | {k.replace("-", "_") for k in extra}):
            cleaned = [n.strip(" :") for n in offtaxonomy.clean_names(e, lang)] if lang in e["names"] else []
            cleaned = [n for n in cleaned if len(n) >= 3 and not JUNK_NAME.search(n) and not (FORMULA.match(n) and re.search(r"\d", n))
                       and n.lower() not in drop_names.get(c, [])]
            lang = lang.replace("_", "-")
            for n in cleaned + extra.get(lang, []):
                lst = nd.setdefault(lang, [])
                if n.lower() not in [x.lower() for x in lst]:
                    lst.append(n)
        # A curated display spelling (e.g. "Allura Red AC") replaces the taxonomy's
        # first English name when they differ only in case.
        shown = cur.get("display_names", {}).get(c)
        if shown:
            en = [n for n in nd.get("en", []) if n.lower() != shown.lower()]
            nd["en"] = [shown] + en
        names[c] = nd
    for line in open(os.path.join(args.data, "additive-synonyms.jsonl"), encoding="utf-8"):
        row = json.loads(line)
        c, n, lang = row["code"], row["name"].strip(), row["lang"]
        if c not in names or len(n) < 3:
            continue
        if US_STYLE.match(n):
            lang = "us"
        lst = names[c].setdefault(lang, [])
        if n.lower() not in [x.lower() for x in lst]:
            lst.append(n)
    for c, us in cur["us_names"].items():
        lst = names[c].setdefault("us", [])
        for n in us:
            if n.lower() not in [x.lower() for x in lst]:
                lst.append(n)
    # move US-style names (FD&C Yellow No. 5, Yellow 5) out of every language into us
    for c in codes:
        for lang in sorted(names[c]):
            if lang == "us":
                continue
            ns = names[c][lang]
            moved = [n for n in ns if US_STYLE.match(n)]
            if not moved:
                continue
            names[c][lang] = [n for n in ns if n not in moved]
            if not names[c][lang]:
                if lang == "en":
                    names[c][lang] = ns  # no other English name: keep the US one as the display name too
                else:
                    del names[c][lang]
            lst = names[c].setdefault("us", [])
            for n in moved:
                if n.lower() not in [x.lower() for x in lst]:
                    lst.append(n)

    # US spellings of English names (aluminium -> aluminum), unless some code already has that spelling
    taken = {n.lower() for c in codes for ns in names[c].values() for n in ns}
    for c in codes:
        for n in list(names[c].get("en", [])):
            us = us_spelling(n)
            if us and us.lower() not in taken and not re.search(r"\d", us):
                names[c].setdefault("us", []).append(us)
                taken.add(us.lower())

    # Labels drop the fatty-acid tail of the glyceride esters' names ("citric acid esters of
    # mono- and diglycerides", "Citronensäureester von Mono- und Diglyceriden"): the short form
    # is a name too, when what is left still ends in the glycerides (E471, E472a-f).
    for c in codes:
        for lang, ns in names[c].items():
            for n in list(ns):
                m = FATTY_TAIL.search(n)
                short = n[:m.start()].strip() if m else ""
                if short and GLYCERIDES_END.search(short) and short.lower() not in taken:
                    ns.append(short)
                    taken.add(short.lower())

    # parents: nearest existing structural ancestor
    parent = {}
    for c in codes:
        parent[c] = next((p for p in structural_parents(c) if p in by_code), None)

    # resolve names shared by several codes
    owners = {}
    for c in codes:
        for lang, ns in names[c].items():
            for n in ns:
                owners.setdefault(n.lower(), set()).add(c)
    freq = {c: offtaxonomy.label_frequency(by_code[c]) for c in codes}
    ambiguous = []
    keep_at = {}
    first_names = {c: {lang: ns[:1] for lang, ns in names[c].items() if lang != "us"} for c in codes}
    eu_listed = set(cur["eu_authorised"]) | set(cur["eu_subforms_inherit"])
    fact_codes = set()
    for line in open(os.path.join(args.data, "region-facts.jsonl"), encoding="utf-8"):
        fc = json.loads(line)["code"]
        fact_codes.add(FACT_CODE_MAP.get(fc, fc))
    # codes that carry our rules or curation: a shared name stays with them rather than move to a bare sub-form
    important = eu_listed | set(cur["us"]) | set(cur["records"]) | fact_codes | set(cur["eu_not_authorised"]) \
        | {c for c in by_code if by_code[c].get("curated")}
    for key in sorted(owners):
        cs = sorted(owners[key], key=code_key)
        if len(cs) == 1:
            continue
        # Prefer the group entry over its roman sub-forms (E101 over E101(i)); prefer the one
        # letter sub-form over a bare number (E160a over E160) when only one letter child has it.
        def is_anc(a, b):
            return a in structural_parents(b)
        # codes that carry rules or curation win over old codes and bare sub-forms
        filtered = any(c in important for c in cs) and not all(c in important for c in cs)
        if filtered:
            cs = [c for c in cs if c in important]
        roots = [c for c in cs if not any(is_anc(o, c) for o in cs if o != c)]
        firsts = [c for c in cs if any(ns and ns[0].lower() == key for ns in first_names[c].values())]
        # A name several letter sub-forms of one group share (caramel color: E150a, E150c) cannot
        # tell them apart: it belongs to the group entry.
        group = {re.sub(r"[a-z](\(.*\))?$", "", c) for c in cs}
        siblings = len(group) == 1 and next(iter(group)) in by_code and all(re.search(r"\d[a-z]", c) for c in cs) \
            and len({re.sub(r"\(.*\)$", "", c) for c in cs}) > 1
        if siblings and len(firsts) != 1:
            keep, reason = next(iter(group)), "letter sub-forms of one group share it: the group entry"
            g = names[keep]
            for c in cs:
                for lang, ns in names[c].items():
                    for n in ns:
                        if n.lower() == key and key not in [x.lower() for x in g.get(lang, [])]:
                            g.setdefault(lang, []).append(n)
        elif len(firsts) == 1:
            keep, reason = firsts[0], "first (main) name of this code in its language"
        elif len(roots) == 1:
            root = roots[0]
            letter_level = {re.sub(r"\(.*\)$", "", c) for c in cs if c != root}
            bare = offtaxonomy.CODE_RE.match(root).group(2) is None and "(" not in root
            only = next(iter(letter_level)) if len(letter_level) == 1 else None
            if bare and only in cs and only != root and not (root in important and only not in important):
                keep = next(iter(letter_level))
                reason = "only letter sub-form sharing it"
            else:
                keep = root
                reason = "group entry"
        else:
            canon = {c for c in roots if names[c].get("en") and names[c]["en"][0].lower() == key}
            keep = sorted(roots, key=lambda c: (c not in eu_listed, c not in canon, -freq[c], code_key(c)))[0]
            reason = "in the EU Union list, then canonical English name, then label frequency, then lowest code"
        if filtered:
            reason = "code with rules or curation; then " + reason
        keep_at[key] = keep
        ambiguous.append({"name": key, "codes": sorted(owners[key], key=code_key), "kept_at": keep, "reason": reason})
    shown_twice = set()
    for c in codes:
        for lang in list(names[c]):
            kept = [n for n in names[c][lang] if keep_at.get(n.lower(), c) == c]
            # Every record needs an English name to show, even when that name is
            # shared: the parser maps a shared name to the more general code.
            if lang == "en" and not kept and names[c][lang]:
                kept = names[c][lang][:1]
                shown_twice.add(kept[0].lower())
            names[c][lang] = kept
            if not names[c][lang]:
                del names[c][lang]

    for entry in ambiguous:
        if entry["name"] in shown_twice:
            entry["allow_shared"] = True
            entry["reason"] += "; also kept as the only English name of the other codes"

    # ---------- region rules ----------
    rules = {c: {} for c in codes}
    eu_auth = set(cur["eu_authorised"])
    for c in cur["eu_subforms_inherit"]:
        if c in rules:
            p = parent[c]
            rules[c]["EU"] = {"approved": True, "warning_required": False,
                              "conditions": "Allowed as part of group %s." % p,
                              "reference": refs["eu1333"]}
    for c in eu_auth:
        if c in rules:
            r = {"approved": True, "warning_required": False, "reference": refs["eu1333"]}
            if c in cur["eu_conditions"]:
                r["conditions"] = cur["eu_conditions"][c]
            if c in ("E520", "E521", "E522", "E523", "E541", "E554"):
                r["reference"] = refs["eu380_2012"]
            rules[c]["EU"] = r
    for c, why in cur["eu_not_authorised"].items():
        if c in rules:
            rules[c]["EU"] = {"approved": False, "warning_required": False, "conditions": why,
                              "reference": refs["eu2018_98"] if c == "E203" else refs["eu1333"]}
    for grp in cur["eu_statements"].values():
        for c in grp["codes"]:
            r = rules[c].get("EU")
            if r and r["approved"]:
                r["warning_required"] = True
                if grp["statement"]:
                    r["statement"] = grp["statement"]
                r["conditions"] = grp["conditions"] + (" " + r["conditions"] if r.get("conditions") and "part of group" not in r["conditions"] else "")
                r["reference"] = refs[grp["ref"]]

    for c, v in cur["us"].items():
        if c not in rules:
            continue
        approved, sec, cond, name = v
        ref = refs[sec] if sec in refs else ecfr(sec)
        r = {"approved": approved, "warning_required": False, "conditions": cond, "reference": ref}
        if name:
            r["name"] = name
        rules[c]["US"] = r
    for c in ["E221", "E222", "E223", "E224", "E228"]:
        if "US" in rules[c]:
            rules[c]["US"]["warning_required"] = True
            rules[c]["US"]["conditions"] += " Sulfiting agents at 10 ppm or more must be declared (21 CFR 101.100(a)(4))."

    for c, per in cur["extra_rules"].items():
        for reg, (approved, warn, cond, refkey) in per.items():
            rules[c][reg] = {"approved": approved, "warning_required": warn, "conditions": cond,
                             "reference": refs[refkey]}

    # region-facts rows (high as is; medium per fact_decisions.json)
    fact_log = []
    for line in open(os.path.join(args.data, "region-facts.jsonl"), encoding="utf-8"):
        row = json.loads(line)
        code = FACT_CODE_MAP.get(row["code"], row["code"])
        key = "%s/%s" % (row["code"], row["region"])
        if code not in rules:
            fact_log.append((key, "skipped: no E-number"))
            continue
        dec = decisions.get(key, {"action": "confirm" if row["confidence"] != "high" else "high"})
        if dec["action"] == "drop":
            continue
        r = {"approved": row["approved"], "warning_required": row["warning_required"],
             "conditions": row["note"]}
        st = quoted_statement(row["note"]) if row["warning_required"] else None
        if dec.get("statement", "keep") == "omit":
            st = None
        if st:
            r["statement"] = st
        ref, _ = parse_source_ref(row["source"], row["region"], refs, row["note"])
        if ref:
            r["reference"] = ref
        for k in ("approved", "warning_required", "conditions", "reference"):
            if k in dec:
                r[k] = dec[k]
        old = rules[code].get(row["region"])
        if old and old.get("name"):
            r["name"] = old["name"]
        targets = [code]
        if code == "E220":
            targets += SULPHITE_SPREAD[row["region"]]
        for t in targets:
            rr = dict(r)
            if t != code:
                if rules[t].get(row["region"], {}).get("name"):
                    rr["name"] = rules[t][row["region"]]["name"]
            if row["region"] == "US" and t in cur["us"] and not rr.get("name") and cur["us"][t][3]:
                rr["name"] = cur["us"][t][3]
            rules[t][row["region"]] = rr

    # Notes written for shoppers replace the research notes of region-facts rows.
    for key, text in cur["shopper_notes"].items():
        code, region = key.split("/")
        for t in [code] + (SULPHITE_SPREAD[region] if code == "E220" else []):
            if region in rules[t]:
                rules[t][region]["conditions"] = text

    for c in codes:
        eu, uk = rules[c].get("EU"), rules[c].get("UK")
        if eu and uk and eu.get("statement") and uk.get("warning_required"):
            uk["statement"] = eu["statement"]

    # UK mirrors EU (GB retained law) for every code that has no UK row yet, except the
    # codes whose EU status changed after GB law split from EU law (end of 2020).
    for c in codes:
        eu = rules[c].get("EU")
        if not eu or "UK" in rules[c] or c in cur["uk_mirror_eu_except"]:
            continue
        uk = {"approved": eu["approved"], "warning_required": eu["warning_required"],
              "conditions": "As in the EU: " + lower_first(eu.get("conditions") or ("allowed." if eu["approved"] else "not allowed.")),
              "reference": refs["uk1169"] if eu.get("reference") == refs["eu1169"] else refs["uk1333"]}
        if eu.get("statement"):
            uk["statement"] = eu["statement"]
        rules[c]["UK"] = uk

    medium = apply_region_lists(cur, codes, parent, rules, refs)
    citations.replace_templates(rules, citations.group_index(cur, codes, parent, expand_codes), cur["instruments"], refs)
    citations.apply_table_conditions(cur, rules)
    inherit_group_rules(codes, parent, rules)
    apply_region_names(cur, codes, rules, by_code)
    apply_rule_overrides(cur, rules)
    write_review_section(medium)

    # ---------- records ----------
    os.makedirs(OUT_DIR, exist_ok=True)
    for f in os.listdir(OUT_DIR):
        if f.endswith(".json"):
            os.remove(os.path.join(OUT_DIR, f))
    recs = cur["records"]
    for c in codes:
        e = by_code[c]
        k = recs.get(c, {})
        nd = names[c]
        # classes: curated, else the parent's curated classes, else the taxonomy, else the E-number range
        class_from = "curated"
        if "class" in k:
            classes = k["class"]
        elif e.get("curated"):
            classes = e["class"]
        elif parent[c] and "class" in recs.get(parent[c], {}):
            classes = recs[parent[c]]["class"]
        else:
            class_from = "taxonomy"
            mand = e["props"].get("mandatory_additive_class:en", "")
            off = e["props"].get("additives_classes:en", "")
            raw = [x.strip().replace("en:", "") for x in (mand or off).split(",") if x.strip()]
            classes = []
            for x in raw:
                x = OFF_CLASS_MAP.get(x, x.replace("-", " "))
                if x not in classes:
                    classes.append(x)
            if not classes:
                classes = range_classes(c)
                class_from = "range"
        # dietary
        vmap = {"yes": "yes", "no": "no", "maybe": "depends"}
        vegan = vmap.get(e["props"].get("vegan:en", ""), "unknown")
        veg = vmap.get(e["props"].get("vegetarian:en", ""), "unknown")
        diet = {"vegan": vegan, "vegetarian": veg,
                "kosher": "depends" if vegan == "depends" else "unknown",
                "halal": "depends" if vegan == "depends" else "unknown"}
        diet.update(e.get("diet", {}))
        diet.update(k.get("diet", {}))
        pk = recs.get(parent[c], {}) if parent[c] else {}
        # sub-forms share their group's source and population cautions unless curated themselves
        source = k.get("source", pk.get("source", ["animal"] if vegan == "no" and veg == "no" else []))
        population = k.get("pop", pk.get("pop", []))
        audience = k.get("aud", pk.get("aud", []))
        r = rules[c]
        citations.cite_code(cur, c, r, classes, (names[c].get("en") or [None])[0])
        for reg in r.values():
            for key in list(reg):
                if reg[key] is None:
                    del reg[key]
        # the template leads with the class only when the class is curated or unambiguous
        lead_classes = classes if class_from == "curated" or (class_from == "taxonomy" and len(classes) == 1) else []
        plain = k.get("plain") or (pk.get("plain") if population and pk.get("pop") else None) or template_plain(lead_classes, r)
        ev = k.get("ev") or ("Regulatory" if ("EU" in r or "US" in r) else "Limited")
        # references: rule references first, then EFSA
        references = []
        for reg in REGIONS:
            ref = r.get(reg, {}).get("reference")
            ref = ref and {"label": ref["label"], "url": ref["url"]}
            if ref and ref not in references:
                references.append(ref)
        efsa = re.sub(r"^h+ttp", "http", e["props"].get("efsa_evaluation_url:en", "").strip())
        if efsa:
            date = e["props"].get("efsa_evaluation_date:en", "")[:4]
            references.append({"label": "EFSA scientific opinion" + (" (%s)" % date if date else ""),
                               "url": efsa.replace("http://dx.doi.org/", "https://doi.org/")})
        wd = e["props"].get("wikidata:en", "").strip()
        # Secondary sources (press, blogs) stay in region-facts.jsonl as our research trail;
        # shoppers see only the regulators' own pages.
        if not references:
            # identity only: no regulation or EFSA opinion on file for this code (see REVIEW.md)
            references.append({"label": "Codex CXG 36-1989, Class Names and the International Numbering System for Food Additives (identity only; no rule on file)",
                               "url": "https://www.fao.org/fao-who-codexalimentarius/codex-texts/guidelines/en/"})
        if not e.get("curated"):
            # curated entries are not from the taxonomy: no Open Food Facts source to credit
            references.append({"label": "Open Food Facts additive taxonomy (ODbL 1.0)",
                               "url": "https://world.openfoodfacts.org/additive/" + c.lower().replace("(", "").replace(")", "")})
        ctx = [n for n in k.get("ctx", [])]
        if c.split("(")[0] in cur.get("food_records", {}).get("codes", []):
            # a food in its own right: every name needs additive context
            for lang in sorted(nd):
                ctx += [n for n in nd[lang] if n not in ctx]
        elif c.split("(")[0] in cur.get("nutrient_salts", {}).get("codes", []):
            # a mineral salt: its full chemical name counts wherever it stands (fortification
            # included, as the gold truth and the shared real-photo manifest count it); other
            # names (`Kalk`, `Chalk`, `monobasic`, `magnesia`) need additive context
            for lang in sorted(nd):
                ctx += [n for n in nd[lang] if n not in ctx and not names_a_salt(n)]
        rec = {
            "code": c,
            "parent": parent[c],
            "names": {lang: nd[lang] for lang in sorted(nd)},
            "context_names": ctx,
            "class": classes,
            "dietary": diet,
            "source": source,
            "population": population,
            "region_rules": {reg: r[reg] for reg in REGIONS if reg in r},
            "evidence_level": ev,
            "concern": k.get("concern"),
            "plain_risk": {"summary": plain, "audience": audience},
            "references": references,
            "label_frequency": offtaxonomy.label_frequency(e),
            "updated_at": UPDATED_AT,
        }
        if wd:
            pass  # wikidata ids are kept out of the record format (no field for them)
        with open(os.path.join(OUT_DIR, file_name(c)), "w", encoding="utf-8") as f:
            f.write(json.dumps(rec, indent=2, sort_keys=True, ensure_ascii=False) + "\n")

    with open(os.path.join(PACKS, "base", "ambiguous-names.json"), "w", encoding="utf-8") as f:
        f.write(json.dumps({"_about": "Names that several taxonomy entries shared. Each is kept at one code only (kept_at); the validator allows no other sharing.",
                            "names": ambiguous}, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    print("wrote %d records to %s" % (len(codes), os.path.relpath(OUT_DIR)))
    for k2, why in fact_log:
        print("region-facts %s: %s" % (k2, why))


if __name__ == "__main__":
    main()
