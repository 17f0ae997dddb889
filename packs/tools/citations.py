"""Provision-level references for region rules.

Every rule gets {label, url, provision, checked}: the instrument and the provision that
makes the rule, a URL to the regulator's own text, and the date the fact was checked
against that text (null unless curated.json `rule_refs` records such a check).
The instruments, lists and tables are data in curated.json (`instruments`,
`region_lists[].provision`, `in_table1`); this module only picks among them.
"""

import json
import os
import re

# Template conditions that name no food and no limit; a regulator's list that names the
# code replaces them (its line and provision), else the neutral line of the list.
TEMPLATES = ("uses and limits vary by food", "Schedules 15/16")

# Health Canada list per class of the record (the first class that has a list wins).
CA_CLASS_LIST = {
    "colour": "ca_colours", "preservative": "ca_preservatives", "antioxidant": "ca_preservatives",
    "emulsifier": "ca_emulsifiers", "stabiliser": "ca_emulsifiers", "thickener": "ca_emulsifiers",
    "gelling agent": "ca_emulsifiers", "emulsifying salt": "ca_ph", "acid": "ca_ph",
    "acidity regulator": "ca_ph", "raising agent": "ca_ph", "sweetener": "ca_sweeteners",
    "anti-caking agent": "ca_anticaking", "glazing agent": "ca_glazing", "firming agent": "ca_firming",
    "sequestrant": "ca_sequestering", "flour treatment agent": "ca_dough", "humectant": "ca_other",
    "propellant": "ca_other", "packaging gas": "ca_other", "carrier": "ca_carriers",
    "enzyme": "ca_enzymes", "modified starch": "ca_starch",
}

# Parts of Health Canada's List of Permitted Preservatives (Class 1 curing, 2 antibacterial,
# 3 antifungal, 4 antioxidants), by code.
CA_PRESERVATIVE_PART = [
    (("E249", "E250", "E251", "E252"), "Part 1 (Class 1 preservatives)"),
    (("E200", "E201", "E202", "E203", "E210", "E211", "E212", "E213", "E220", "E221", "E222", "E223",
      "E224", "E225", "E228", "E234"), "Part 2 (Class 2 preservatives)"),
    (("E235", "E280", "E281", "E282", "E283"), "Part 3 (Class 3 preservatives)"),
]


def _ref(inst, provision, label=None):
    return {"label": label or "%s, %s" % (inst["label"], provision), "url": inst["url"], "provision": provision}


def _ca_list_key(url):
    m = re.search(r"lists-permitted/(\d+)-", url)
    return {"1": "ca_anticaking", "2": "ca_dough", "3": "ca_colours", "4": "ca_emulsifiers", "5": "ca_enzymes",
            "6": "ca_firming", "7": "ca_glazing", "8": "ca_other", "9": "ca_sweeteners", "10": "ca_ph",
            "11": "ca_preservatives", "12": "ca_sequestering", "13": "ca_starch", "14": "ca_yeast",
            "15": "ca_carriers"}.get(m.group(1)) if m else None


def _ca(code, rule, classes, inst, tag):
    url = rule["reference"]["url"]
    if tag:
        key, provision = tag
        return {"label": "Health Canada, " + provision, "url": inst[key]["url"], "provision": provision}
    key = _ca_list_key(url)
    if "justice.gc.ca" in url:
        m = re.search(r"section-(B[\d.]+?)(?:-\d{8})?\.html", url)
        sec = m.group(1) if m else "Part B"
        return {"label": "Food and Drug Regulations (C.R.C., c. 870), section %s" % sec, "url": url,
                "provision": "section %s" % sec}
    if key is None and "canada.ca/en/health-canada" in url and "monosodium" not in url \
            and not url.endswith("lists-permitted.html"):
        # a Health Canada notice of modification: the notice is the text that made the change
        return {"label": "Health Canada, notice of modification to the Lists of Permitted Food Additives",
                "url": url, "provision": "Notice of modification"}
    if "monosodium" in url:
        return dict(rule["reference"], provision="Guidance on glutamate (MSG is not on the Lists)")
    if key is None:
        key = next((CA_CLASS_LIST[c] for c in classes if c in CA_CLASS_LIST), None)
    if key is None:
        return None
    provision = inst[key]["title"]
    if key == "ca_preservatives":
        part = next((p for cs, p in CA_PRESERVATIVE_PART if code.split("(")[0] in cs), "Part 4 (Class 4 preservatives)")
        provision += ", " + part
    return {"label": "Health Canada, " + provision, "url": inst[key]["url"], "provision": provision}


def _au(code, rule, classes, inst, tag):
    url, cond = rule["reference"]["url"], rule.get("conditions", "")
    if tag:
        key, provision = tag
        return _ref(inst[key], provision)
    if "F2015L00442" in url:
        return _ref(inst["au_s16"], "S16—3" if "colour" in classes else "S16—2")
    if "productsafety" in url or "accc" in url:
        return dict(rule["reference"], provision="Ban on mini jelly cups containing konjac")
    if "sulphite" in cond.lower():
        return _ref(inst["au_sch9"], "S9 mandatory declarations (for 1.2.3—4)")
    if "laxative" in cond or "phenylalanine" in cond:
        return _ref(inst["au_sch9"], "S9—2")
    if code == "E621" and rule["approved"]:
        return _ref(inst["au_std124"], "1.2.4—7 and Schedule 8")
    if not rule["approved"]:
        return _ref(inst["au_s15"], "S15—5 and S16 (not listed)")
    if "colour" in classes and "F2015L00439" not in url:
        return _ref(inst["au_s16"], "S16—3")
    return _ref(inst["au_s15"], "S15—5")


def _in(code, rule, classes, inst, tag):
    if tag:
        key, provision = tag
        return _ref(inst[key], provision)
    cond = rule.get("conditions", "")
    if "colour" in classes:
        return _ref(inst["in_fpsfa"], "Appendix A (colours)")
    if "sweetener" in classes:
        return _ref(inst["in_fpsfa"], "Appendix A (sweeteners)")
    if "allergen" in cond:
        return _ref(inst["in_label"], "Declaration of allergens (sulphites)")
    return _ref(inst["in_fpsfa"], "Appendix A")


def _us(code, rule, inst):
    ref = rule["reference"]
    url = ref["url"]
    m = re.search(r"title-21/section-([\d.]+)", url)
    if m:
        return {"label": ref["label"] if ref["label"].startswith("21 CFR") else "21 CFR " + m.group(1),
                "url": url, "provision": "§" + m.group(1)}
    m = re.search(r"part-(\d+)(?:/subpart-([A-Z]))?", url)
    if m and "ecfr.gov" in url:
        provision = "Part %s" % m.group(1) + (", Subpart %s" % m.group(2) if m.group(2) else "")
        return {"label": "21 CFR " + provision, "url": url, "provision": provision}
    if "FR-2024-07-03" in url:
        return dict(ref, label="FDA final rule of 3 July 2024 (brominated vegetable oil; 21 CFR 180.30 revoked)",
                    provision="21 CFR 180.30 (revoked)")
    if "gras-notice" in url:
        return dict(ref, provision="GRAS Notice Inventory (FDA had no questions)")
    if "food-additive-status" in url:
        return dict(ref, provision="Food Additive Status List (entry for the substance)")
    if "scogs" in url:
        return dict(ref, provision="SCOGS report 25")
    return dict(ref, provision=ref["label"])


def _eu(code, rule, inst):
    ref, url = rule["reference"], rule["reference"]["url"]
    if "2008/1333" in url and "eur-lex" in url:
        if "Annex V" in ref["label"]:
            return _ref(inst["eu1333"], "Art. 24 and Annex V")
        return _ref(inst["eu1333"], "Annex II, Parts B and E" if rule["approved"] else "Annex II, Part B (not listed)")
    if "2011/1169" in url and "eur-lex" in url:
        sulphite = code.split("(")[0] in ("E220", "E221", "E222", "E223", "E224", "E225", "E226", "E227", "E228")
        return _ref(inst["eu1169"], "Annex II, point 12" if sulphite else "Annex III")
    m = re.search(r"/annex/([IVX]+)(/part/(\d+))?", url)
    if m:
        provision = "Annex %s" % m.group(1) + (", Part %s" % m.group(3) if m.group(3) else "")
        return dict(ref, provision=provision)
    provision = {"2022/63": "Art. 1 and Annex", "2018/98": "Art. 1 and Annex", "2012/380": "Art. 1 and Annex",
                 "2007/884": "Art. 1"}
    for k, p in provision.items():
        if k in url:
            return dict(ref, provision=p)
    return dict(ref, provision=ref["label"])


def _register_entry(code):
    """The FSA register has one entry per E number: "E322(i)" falls under "E 322"."""
    base = re.sub(r"\(.*\)$", "", code)
    return re.sub(r"^E(\d)", r"E \1", base), base != code


def _uk(code, rule, eu, inst, name=None):
    """Great Britain. Since 1 April 2025 (SI 2025/361) the FSA Register of Food Additive Authorisations
    is GB's list of authorised additives: Annexes II and III of assimilated Reg. 1333/2008 were revoked
    and the authorisations in them carried onto the register with their terms."""
    url = rule["reference"]["url"]
    if "eur/2011/1169" in url:
        return _ref(inst["uk1169"], "Annex III")
    if "annex" in url and "2008/1333" not in url:
        return dict(rule["reference"], provision="Annex")
    if eu and eu["reference"].get("provision") == "Art. 24 and Annex V" and rule.get("warning_required"):
        return _ref(inst["uk1333_v"], "Art. 24 and Annex V")
    entry, sub = _register_entry(code)
    if not rule["approved"]:
        return _ref(inst["uk_register"], "no entry for %s" % entry)
    if sub:
        return _ref(inst["uk_register"], "%s (group entry, covers %s)" % (entry, code))
    return _ref(inst["uk_register"], "%s %s" % (entry, name) if name else entry)


def group_index(cur, codes, parent, expand_codes):
    """region -> code -> the first region_lists entry that names the code."""
    out = {}
    for region, groups in cur["region_lists"].items():
        idx = out.setdefault(region, {})
        for g in groups:
            if g.get("label_statement_for_existing"):
                continue
            for spec in g["codes"]:
                for c in expand_codes(spec, codes, parent):
                    idx.setdefault(c, g)
    return out


def replace_templates(rules, groups, inst, refs):
    """A template line ("uses and limits vary by food") gives way to the line and provision
    of the regulator's list that names the code."""
    for code, per in rules.items():
        for region, rule in per.items():
            if not any(t in rule.get("conditions", "") for t in TEMPLATES):
                continue
            g = groups.get(region, {}).get(code)
            if g:
                rule["conditions"] = g["conditions"]
                if g.get("provision"):
                    rule["_provision"] = tuple(g["provision"])
                else:
                    rule["reference"] = refs[g["ref"]] if not g["ref"].startswith("cfr:") else rule["reference"]
            elif region == "CA":
                rule["conditions"] = "On a Health Canada list, for the foods and amounts it sets."
            elif region == "AU":
                rule["conditions"] = "Allowed by the Code in the foods it names. Labels show its class and number."


def apply_table_conditions(cur, rules):
    """India's bread and biscuit table (Appendix A, Table 1): the line says what each column reads."""
    for code, cols in cur["in_table1"].items():
        if code.startswith("_"):
            continue
        bread, biscuits = cols
        rule = rules.get(code, {}).get("IN")
        if not rule or rule.get("_provision", ("", ""))[1] != "Appendix A, Table 1":
            continue
        def part(food, v):
            return {"GMP": "%s, no set limit" % food, "limit": "%s, up to a limit" % food, None: "not in %s" % food}[v]
        cols = part("bread and biscuits", bread) if bread == biscuits else "%s; %s" % (part("bread", bread), part("biscuits", biscuits))
        rule["conditions"] = "India's bread and biscuit table: %s. Other tables add foods." % cols


# An amount in a citation ("Table 5 (5.2.2 soft candy, 4,500 mg/kg)"): a card names the
# provision, never a dose, so amounts are cut from provisions and labels.
AMOUNT = re.compile(r"[,;]?\s*(?:e\.g\.\s*)?\d{1,3}(?:[, ]\d{3})*(?:\.\d+)?\s?(?:mg|g|µg|mcg)\s?(?:/|per\s)\s?(?:kg|l|L|day|lb|pound)\b(?:\s+as\s+[\w ]+?(?=[),;]|$))?")


def without_amounts(text):
    """`text` with every amount cut, and the brackets and commas it leaves tidied."""
    text = AMOUNT.sub("", text)
    text = re.sub(r"\(\s*[,;]?\s*\)", "", text)
    text = re.sub(r"\(\s*[,;]\s*", "(", text)
    text = re.sub(r"\s+([),])", r"\1", text)
    return re.sub(r"\s{2,}", " ", text).strip()


def load_checks(folder):
    """Rule checks, one file per region (`checks/CA.json`): CODE → {checked, provision, read}.

    Each entry records that someone read the rule's fact in the regulator's own text on the
    `checked` day (`read`: what the text says, in short). A check confirms the built rule as it
    is; a fact that differs is corrected in `rule_refs` or `rule_overrides`, not here.
    """
    checks = {}
    if not os.path.isdir(folder):
        return checks
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        region = name[:-5]
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            data = json.load(f)
        for code, entry in data.items():
            if code.startswith("_"):
                continue
            if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", entry.get("checked") or ""):
                raise ValueError("%s %s: `checked` must be a YYYY-MM-DD day" % (name, code))
            checks["%s/%s" % (code, region)] = entry
    return checks


def cite_code(cur, code, per, classes, name=None):
    """Gives each rule of one code its provision-level reference; `checked` comes from `rule_refs` only."""
    inst, overrides = cur["instruments"], cur["rule_refs"]
    for region in ("EU", "US", "UK", "CA", "AU", "IN"):
        rule = per.get(region)
        if not rule:
            continue
        tag = rule.pop("_provision", None)
        key = "%s/%s" % (code, region)
        over = overrides.get(key)
        if over:
            ref = {k: over[k] for k in ("label", "url", "provision")}
            for k in ("approved", "conditions", "warning_required"):
                if k in over:
                    rule[k] = over[k]
        elif region == "EU":
            ref = _eu(code, rule, inst)
        elif region == "UK":
            ref = _uk(code, rule, per.get("EU"), inst, name)
        elif region == "US":
            ref = _us(code, rule, inst)
        elif region == "CA":
            ref = _ca(code, rule, classes, inst, tag) or dict(rule["reference"], provision="Lists of Permitted Food Additives")
        elif region == "AU":
            ref = _au(code, rule, classes, inst, tag)
        else:
            ref = _in(code, rule, classes, inst, tag)
        # A check day only where the rule was read in the regulator's own text. No key otherwise:
        # an explicit null would mark the rule unchecked (yellow) even in a pack that does not
        # declare "rules_checked" (see packs/README.md).
        check = cur.get("rule_checks", {}).get(key)
        if over and over.get("checked"):
            ref["checked"] = over["checked"]
        elif check:
            ref["checked"] = check["checked"]
            if check.get("provision"):
                # The label names the provision it was made with; it names the checked one instead.
                old, label = ref.get("provision") or "", ref.get("label") or ""
                if old and label.endswith(old):
                    prefix, parts = label[:-len(old)], check["provision"].split(", ")
                    while len(parts) > 1 and parts[0] in prefix:
                        parts.pop(0)
                    ref["label"] = prefix + ", ".join(parts)
                ref["provision"] = check["provision"]
        for k in ("label", "provision"):
            if ref.get(k):
                ref[k] = without_amounts(ref[k])
        rule["reference"] = ref
