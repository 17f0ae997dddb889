"""Table-driven checks of the generator's general name rules: python3 packs/tools/test_import_off.py"""
import json
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import citations  # noqa: E402
import import_off  # noqa: E402

BASE = os.path.join(os.path.dirname(HERE), "base")


def record(code):
    with open(os.path.join(BASE, "additives", import_off.file_name(code)), encoding="utf-8") as f:
        return json.load(f)


class USSpelling(unittest.TestCase):
    def test_table(self):
        for name, us in [
            ("Sodium aluminium phosphate", "Sodium aluminum phosphate"),
            ("Aluminium", "Aluminum"),
            ("Potassium hydrogen sulphate", "Potassium hydrogen sulfate"),
            ("Sulphur dioxide", "Sulfur dioxide"),
            ("Caramel colour", "Caramel color"),
            ("Citric acid", None),
            ("Sodium sulfite", None),
        ]:
            self.assertEqual(import_off.us_spelling(name), us, name)

    def test_generated(self):
        for code, name in [("E541", "sodium aluminum phosphate"), ("E521", "aluminum sodium sulfate")]:
            us = [n.lower() for n in record(code)["names"].get("us", [])] + \
                 [n.lower() for ns in record(code)["names"].values() for n in ns]
            self.assertIn(name, us, code)


class SharedBySiblings(unittest.TestCase):
    def test_group_keeps_name(self):
        with open(os.path.join(BASE, "ambiguous-names.json"), encoding="utf-8") as f:
            kept = {e["name"]: e["kept_at"] for e in json.load(f)["names"]}
        for name, code in [("caramel color", "E150")]:
            self.assertEqual(kept[name], code, name)
            self.assertIn(name, [n.lower() for n in record(code)["names"]["en"]])


class ContextOnly(unittest.TestCase):
    def test_nutrient_names_need_context(self):
        # Nutrient words that name an additive only after a class word: vitamins, and the
        # anions of mineral nutrients (sodium selenite, zinc gluconate).
        for code, name in [("E101", "riboflavin"), ("E516", "selenite"), ("E574", "gluconate"),
                           ("E917", "kaliumjodat")]:
            self.assertIn(name, [n.lower() for n in record(code)["context_names"]], code)

    def test_vitamin_names_are_no_names_of_nicotinic_acid(self):
        # A vitamin named as a vitamin is a nutrient (data .21): `Niacin` in flour is not E375.
        names = [n.lower() for ns in record("E375")["names"].values() for n in ns]
        for name in ["niacin", "niacine", "nicotinamide", "vitamine b3"]:
            self.assertNotIn(name, names)
        self.assertIn("nicotinic acid", names)

    def test_food_records_need_context_in_every_language(self):
        # Gelatine is a food: every name, Polish and Czech too, needs additive context.
        rec = record("E428")
        ctx = {n.lower() for n in rec["context_names"]}
        for lang, names in rec["names"].items():
            for n in names:
                self.assertIn(n.lower(), ctx, (lang, n))
        self.assertIn("żelatyna", ctx)

    def test_technological_salts_stay_plain(self):
        # Potassium citrate and calcium chloride are named bare on US labels (not nutrient salts).
        for code, name in [("E332", "potassium citrates"), ("E509", "calcium chloride")]:
            self.assertNotIn(name, [n.lower() for n in record(code)["context_names"]], code)

    def test_carbon_dioxide_is_a_plain_name(self):
        self.assertNotIn("carbon dioxide", [n.lower() for n in record("E290")["context_names"]])


class CuratedNames(unittest.TestCase):
    def test_names_in_a_language_the_taxonomy_lacks(self):
        # The taxonomy has no Ukrainian name for E621 or E150d; curated ones must not be dropped.
        for code, name in [("E621", "глутамат натрію"), ("E150d", "цукровий колер IV")]:
            self.assertIn(name, record(code)["names"].get("uk", []), code)

    def test_union_list_names_by_language(self):
        # packs/tools/union-list-names/hr.tsv: Croatian names, a sub-form's row landing on its
        # group when the store has no record of the sub-form (E331(i) -> E331).
        for code, name in [("E202", "Kalijev sorbat"), ("E471", "Mono- i digliceridi masnih kiselina"),
                           ("E331(i)", "Mononatrijev citrat"), ("E903", "Karnauba vosak")]:
            self.assertIn(name, record(code)["names"].get("hr", []), code)

    def test_union_list_names_fall_back_to_the_group_and_reject_unknown_codes(self):
        import tempfile
        saved = import_off.HERE
        try:
            with tempfile.TemporaryDirectory() as d:
                os.makedirs(os.path.join(d, "union-list-names"))
                path = os.path.join(d, "union-list-names", "hr.tsv")
                import_off.HERE = d
                with open(path, "w", encoding="utf-8") as f:
                    f.write("# comment\nE331(iv)\tNatrijev citrat\tnn\n")
                cur = {}
                import_off.add_union_list_names(cur, {"E331": {}})
                self.assertEqual(cur["extra_names"], {"E331": {"hr": ["Natrijev citrat"]}})
                with open(path, "w", encoding="utf-8") as f:
                    f.write("E9999\tNepoznato\tnn\n")
                with self.assertRaises(SystemExit):
                    import_off.add_union_list_names({}, {"E330": {}})
        finally:
            import_off.HERE = saved


class Citations(unittest.TestCase):
    """Every region rule cites the provision that makes it, with the regulator's own text."""
    GENERIC = ("fssai.gov.in/cms/food-safety-and-standards-regulations.php", "food-additives/lists-permitted.html",
               "foodstandards.gov.au/food-standards-code", "legislation.gov.uk/eur/2008/1333",
               "codex-texts/guidelines")
    # Standard 1.2.4 has no stored URL of its own text yet (see REVIEW.md).
    KNOWN_INDEX = {("E621", "AU")}

    def rules(self):
        import glob
        for path in sorted(glob.glob(os.path.join(BASE, "additives", "*.json"))):
            with open(path, encoding="utf-8") as f:
                rec = json.load(f)
            for region, rule in rec["region_rules"].items():
                yield rec["code"], region, rule

    def test_every_rule_cites_a_provision_and_a_checked_date_or_null(self):
        import re
        n = 0
        for code, region, rule in self.rules():
            ref = rule["reference"]
            self.assertTrue(ref.get("provision"), (code, region))
            self.assertNotIn(None, [ref.get("checked", "")], (code, region))
            self.assertTrue("checked" not in ref or re.fullmatch(r"\d{4}-\d{2}-\d{2}", ref["checked"]), (code, region))
            generic = ref["url"].endswith(self.GENERIC[3]) or any(g in ref["url"] for g in self.GENERIC if g != self.GENERIC[3])
            if (code, region) not in self.KNOWN_INDEX:
                self.assertFalse(generic, (code, region, ref["url"]))
            n += 1
        self.assertGreater(n, 2000)

    def test_no_citation_names_an_amount(self):
        # A card names the provision, never a dose (BasePackTests checks the cards themselves).
        for code, region, rule in self.rules():
            for k in ("label", "provision"):
                self.assertIsNone(citations.AMOUNT.search(rule["reference"].get(k) or ""), (code, region, k))
        self.assertEqual(citations.without_amounts("Table 14 (14.2.2, 14.2.3, 500 mg/kg)"), "Table 14 (14.2.2, 14.2.3)")
        self.assertEqual(citations.without_amounts("Table 5 (5.2.2 soft candy, 4,500 mg/kg) and item 1.1.2 (10 mg/kg)"),
                         "Table 5 (5.2.2 soft candy) and item 1.1.2")

    def test_a_checked_provision_is_named_once(self):
        ref = record("E330")["region_rules"]["EU"]["reference"]
        self.assertEqual(ref["label"], "Reg. (EC) No 1333/2008 on food additives, Annex II, Part B (E 330 Citric acid)")
        self.assertEqual(ref["provision"], "Annex II, Part B (E 330 Citric acid)")

    def test_a_check_date_only_where_one_is_recorded(self):
        with open(os.path.join(HERE, "curated.json"), encoding="utf-8") as f:
            cur = json.load(f)
        # Check days come from rule_refs, or from a rule_override's own reference (dated rules).
        recorded = {k for k, v in cur["rule_refs"].items() if isinstance(v, dict) and v.get("checked")}
        recorded |= {k for k, v in cur["rule_overrides"].items()
                     if isinstance(v, dict) and isinstance(v.get("reference"), dict) and v["reference"].get("checked")}
        recorded |= set(citations.load_checks(os.path.join(HERE, "checks")))
        dated = {"%s/%s" % (c, r) for c, r, rule in self.rules() if rule["reference"].get("checked")}
        self.assertEqual(dated, recorded)

    def test_facts_fixed_with_their_citations(self):
        ca = record("E212")["region_rules"]["CA"]
        self.assertTrue(ca["approved"])
        self.assertIn("Part 2", ca["reference"]["provision"])
        self.assertEqual(ca["reference"]["checked"], "2026-11-27")
        self.assertIn("S18", record("E924")["region_rules"]["AU"]["reference"]["provision"])
        self.assertIn("S16", record("E128")["region_rules"]["AU"]["reference"]["provision"])
        self.assertIn("cocktail cherries", record("E127")["region_rules"]["AU"]["conditions"])
        self.assertIn("S15—5", record("E127")["region_rules"]["AU"]["reference"]["provision"])
        self.assertNotIn("chewing gum", record("E171")["region_rules"]["IN"]["conditions"])

    def test_templates_replaced(self):
        for code, region, rule in self.rules():
            cond = rule.get("conditions", "")
            for template in ("bread, biscuits and other foods", "vary by food", "Schedules 15/16"):
                self.assertNotIn(template, cond, (code, region))
        # Citric acid: the current Appendix A (FSSAI compendium, 2022) lists it in the GMP Table, for all food
        # categories except the Annex to GMP; the 2011 bread and biscuit table (Table 1) is no longer in force.
        self.assertIn("most foods", record("E330")["region_rules"]["IN"]["conditions"])
        self.assertIn("GMP Table", record("E330")["region_rules"]["IN"]["reference"]["provision"])

    def test_lines_from_lists_and_tables_are_plain(self):
        # Conditions of every generated rule (and the lines lists and tables give): at most 18 words, grade 6.
        import validate
        with open(os.path.join(HERE, "curated.json"), encoding="utf-8") as f:
            cur = json.load(f)
        lines = [g["conditions"] for r in ("CA", "AU", "IN") for g in cur["region_lists"][r]]
        lines += [v["conditions"] for v in cur["rule_refs"].values() if isinstance(v, dict) and "conditions" in v]
        lines += [rule["conditions"] for c, r, rule in self.rules() if r == "IN" and "bread and biscuit" in rule.get("conditions", "")]
        lines += [rule.get("conditions", "") for c, r, rule in self.rules()]
        long = [x for x in lines if validate.condition_problems(x)]
        self.assertEqual(long, [])

    def test_a_quoted_label_statement_is_not_counted(self):
        import validate
        india = "A synthetic colour India allows. The label must say: \u201cContains permitted synthetic food colour(s)\u201d."
        self.assertEqual(validate.condition_problems(india), [])
        self.assertEqual(validate.condition_problems("word " * 19 + "\u201cContains permitted natural colour(s)\u201d."),
                         ["has 19 words (max 18)"])
        self.assertEqual(len(validate.condition_problems("Authorised internationally. \u201cContains colour(s)\u201d.")), 1)
        self.assertEqual(len(validate.condition_problems("The label must say: \u201c" + "word " * 19)), 1)

    def test_table_line_per_column(self):
        import citations
        for cols, want in [(["GMP", None], "bread, no set limit; not in biscuits"),
                           ([None, "limit"], "not in bread; biscuits, up to a limit"),
                           (["GMP", "GMP"], "bread and biscuits, no set limit"),
                           (["limit", "GMP"], "bread, up to a limit; biscuits, no set limit")]:
            rules = {"E1": {"IN": {"_provision": ("in_fpsfa", "Appendix A, Table 1"), "conditions": "x"}}}
            citations.apply_table_conditions({"in_table1": {"E1": cols}}, rules)
            self.assertIn(want, rules["E1"]["IN"]["conditions"], cols)


if __name__ == "__main__":
    unittest.main()
