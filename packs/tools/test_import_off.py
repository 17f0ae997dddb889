"""Table-driven checks of the generator's general name rules: python3 packs/tools/test_import_off.py"""
import json
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
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

if __name__ == "__main__":
    unittest.main()
