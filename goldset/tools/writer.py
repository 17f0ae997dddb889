"""Writes ingredient lists whose truth is known by construction, in six languages.

Each list mixes ordinary ingredients with additives written the ways labels write
them: `E330`, `E 330`, `E-330`, `e330`, `INS 330`, `E160a(ii)`, `citric acid (E330)`,
or only a name (`acide citrique`). The writer returns the truth it put in.
"""
import json
import os
import re

from lexicon import SOURCES, code_key

HEADER = {"en": "Ingredients:", "de": "Zutaten:", "fr": "Ingrédients :", "es": "Ingredientes:",
          "it": "Ingredienti:", "nl": "Ingrediënten:"}

FOODS = {
    "en": ["sugar", "wheat flour", "water", "glucose syrup", "palm oil", "skimmed milk powder", "cocoa butter",
           "salt", "rapeseed oil", "whey powder", "tomato paste", "dried onion", "rice flour", "egg yolk",
           "hazelnuts 13%", "strawberry puree 6%", "yeast", "oat flakes", "honey", "black pepper"],
    "de": ["Zucker", "Weizenmehl", "Wasser", "Glukosesirup", "Palmöl", "Magermilchpulver", "Kakaobutter",
           "Speisesalz", "Rapsöl", "Süßmolkenpulver", "Tomatenmark", "Zwiebelpulver", "Reismehl", "Eigelb",
           "Haselnüsse 13%", "Erdbeerpüree 6%", "Hefe", "Haferflocken", "Honig", "schwarzer Pfeffer"],
    "fr": ["sucre", "farine de blé", "eau", "sirop de glucose", "huile de palme", "lait écrémé en poudre",
           "beurre de cacao", "sel", "huile de colza", "lactosérum en poudre", "concentré de tomate",
           "oignon déshydraté", "farine de riz", "jaune d'œuf", "noisettes 13%", "purée de fraise 6%",
           "levure", "flocons d'avoine", "miel", "poivre noir"],
    "es": ["azúcar", "harina de trigo", "agua", "jarabe de glucosa", "aceite de palma", "leche desnatada en polvo",
           "manteca de cacao", "sal", "aceite de colza", "suero de leche en polvo", "concentrado de tomate",
           "cebolla deshidratada", "harina de arroz", "yema de huevo", "avellanas 13%", "puré de fresa 6%",
           "levadura", "copos de avena", "miel", "pimienta negra"],
    "it": ["zucchero", "farina di frumento", "acqua", "sciroppo di glucosio", "olio di palma",
           "latte scremato in polvere", "burro di cacao", "sale", "olio di colza", "siero di latte in polvere",
           "concentrato di pomodoro", "cipolla disidratata", "farina di riso", "tuorlo d'uovo", "nocciole 13%",
           "purea di fragole 6%", "lievito", "fiocchi d'avena", "miele", "pepe nero"],
    "nl": ["suiker", "tarwebloem", "water", "glucosestroop", "palmolie", "mageremelkpoeder", "cacaoboter",
           "zout", "raapzaadolie", "weipoeder", "tomatenpuree", "gedroogde ui", "rijstmeel", "eigeel",
           "hazelnoten 13%", "aardbeienpuree 6%", "gist", "havervlokken", "honing", "zwarte peper"],
}

# Class words per language, keyed by an English id.
CLASSES = {
    "colour": {"en": "colour", "de": "Farbstoff", "fr": "colorant", "es": "colorante", "it": "colorante", "nl": "kleurstof"},
    "colours": {"en": "colours", "de": "Farbstoffe", "fr": "colorants", "es": "colorantes", "it": "coloranti", "nl": "kleurstoffen"},
    "preservative": {"en": "preservative", "de": "Konservierungsstoff", "fr": "conservateur", "es": "conservador", "it": "conservante", "nl": "conserveermiddel"},
    "antioxidant": {"en": "antioxidant", "de": "Antioxidationsmittel", "fr": "antioxydant", "es": "antioxidante", "it": "antiossidante", "nl": "antioxidant"},
    "emulsifier": {"en": "emulsifier", "de": "Emulgator", "fr": "émulsifiant", "es": "emulgente", "it": "emulsionante", "nl": "emulgator"},
    "thickener": {"en": "thickener", "de": "Verdickungsmittel", "fr": "épaississant", "es": "espesante", "it": "addensante", "nl": "verdikkingsmiddel"},
    "acid": {"en": "acidity regulator", "de": "Säureregulator", "fr": "correcteur d'acidité", "es": "corrector de acidez", "it": "correttore di acidità", "nl": "zuurteregelaar"},
    "sweetener": {"en": "sweetener", "de": "Süßungsmittel", "fr": "édulcorant", "es": "edulcorante", "it": "edulcorante", "nl": "zoetstof"},
    "enhancer": {"en": "flavour enhancer", "de": "Geschmacksverstärker", "fr": "exhausteur de goût", "es": "potenciador del sabor", "it": "esaltatore di sapidità", "nl": "smaakversterker"},
    "raising": {"en": "raising agent", "de": "Backtriebmittel", "fr": "poudre à lever", "es": "gasificante", "it": "agente lievitante", "nl": "rijsmiddel"},
    "gelling": {"en": "gelling agent", "de": "Geliermittel", "fr": "gélifiant", "es": "gelificante", "it": "gelificante", "nl": "geleermiddel"},
    "glazing": {"en": "glazing agent", "de": "Überzugsmittel", "fr": "agent d'enrobage", "es": "agente de recubrimiento", "it": "agente di rivestimento", "nl": "glansmiddel"},
}

# Additives the writer uses: code, class, and whether a sub-form may be printed.
ADDITIVES = [
    ("E100", "colour"), ("E102", "colour"), ("E104", "colour"), ("E110", "colour"), ("E120", "colour"),
    ("E122", "colour"), ("E124", "colour"), ("E129", "colour"), ("E131", "colour"), ("E133", "colour"),
    ("E141", "colour"), ("E150a", "colour"), ("E150c", "colour"), ("E150d", "colour"), ("E153", "colour"),
    ("E160a", "colour"), ("E160b", "colour"), ("E160c", "colour"), ("E162", "colour"), ("E163", "colour"),
    ("E170", "colour"), ("E171", "colour"), ("E172", "colour"),
    ("E200", "preservative"), ("E202", "preservative"), ("E210", "preservative"), ("E211", "preservative"),
    ("E220", "preservative"), ("E223", "preservative"), ("E224", "preservative"), ("E235", "preservative"),
    ("E250", "preservative"), ("E251", "preservative"), ("E252", "preservative"), ("E282", "preservative"),
    ("E300", "antioxidant"), ("E301", "antioxidant"), ("E304", "antioxidant"), ("E306", "antioxidant"),
    ("E307", "antioxidant"), ("E320", "antioxidant"), ("E321", "antioxidant"), ("E392", "antioxidant"),
    ("E322", "emulsifier"), ("E442", "emulsifier"), ("E471", "emulsifier"), ("E472e", "emulsifier"),
    ("E472c", "emulsifier"), ("E475", "emulsifier"), ("E476", "emulsifier"), ("E481", "emulsifier"),
    ("E407", "thickener"), ("E410", "thickener"), ("E412", "thickener"), ("E414", "thickener"),
    ("E415", "thickener"), ("E466", "thickener"), ("E1422", "thickener"), ("E1442", "thickener"),
    ("E1404", "thickener"), ("E401", "thickener"), ("E406", "gelling"), ("E440", "gelling"),
    ("E260", "acid"), ("E262", "acid"), ("E270", "acid"), ("E296", "acid"), ("E325", "acid"), ("E330", "acid"),
    ("E331", "acid"), ("E332", "acid"), ("E334", "acid"), ("E338", "acid"), ("E339", "acid"), ("E341", "acid"),
    ("E450", "raising"), ("E451", "acid"), ("E452", "acid"), ("E500", "raising"), ("E501", "raising"),
    ("E503", "raising"), ("E575", "acid"),
    ("E420", "sweetener"), ("E950", "sweetener"), ("E951", "sweetener"), ("E952", "sweetener"),
    ("E954", "sweetener"), ("E955", "sweetener"), ("E960", "sweetener"), ("E965", "sweetener"),
    ("E967", "sweetener"), ("E621", "enhancer"), ("E627", "enhancer"), ("E631", "enhancer"), ("E635", "enhancer"),
    ("E901", "glazing"), ("E903", "glazing"), ("E904", "glazing"),
]

# Sub-forms labels print (E160a(ii), E450(i), E341(iii)); they compare at the parent level.
SUBFORMS = {"E160a": ["ii", "iv"], "E450": ["i", "iii"], "E341": ["i", "iii"], "E500": ["i", "ii"],
            "E451": ["i"], "E452": ["i"], "E339": ["ii"], "E501": ["ii"], "E322": ["i"], "E503": ["ii"]}

# Names the writer may use alone, per language: unambiguous additive names only.
NAME_CODES = {"E100", "E102", "E110", "E120", "E122", "E124", "E129", "E133", "E160a", "E160b", "E170",
              "E200", "E202", "E211", "E220", "E223", "E250", "E260", "E270", "E290", "E296", "E300",
              "E301", "E322", "E330", "E331", "E334", "E338", "E407", "E410", "E412", "E414", "E415",
              "E420", "E422", "E440", "E450", "E466", "E471", "E500", "E503", "E621", "E627", "E631",
              "E901", "E903", "E950", "E951", "E952", "E955", "E960", "E965", "E967"}

FOOTERS = {
    "en": ["Store in a cool, dry place.", "May contain traces of nuts.", "Energy 1650 kJ / 394 kcal per 100 g.",
           "Best before: see top of pack.", "Packed in a protective atmosphere."],
    "de": ["Kühl und trocken lagern.", "Kann Spuren von Schalenfrüchten enthalten.", "Brennwert 1650 kJ / 394 kcal je 100 g.",
           "Mindestens haltbar bis: siehe Deckel.", "Unter Schutzatmosphäre verpackt."],
    "fr": ["À conserver dans un endroit frais et sec.", "Peut contenir des traces de fruits à coque.",
           "Énergie 1650 kJ / 394 kcal pour 100 g.", "À consommer de préférence avant : voir couvercle.",
           "Conditionné sous atmosphère protectrice."],
    "es": ["Conservar en lugar fresco y seco.", "Puede contener trazas de frutos de cáscara.",
           "Valor energético 1650 kJ / 394 kcal por 100 g.", "Consumir preferentemente antes de: ver tapa.",
           "Envasado en atmósfera protectora."],
    "it": ["Conservare in luogo fresco e asciutto.", "Può contenere tracce di frutta a guscio.",
           "Energia 1650 kJ / 394 kcal per 100 g.", "Da consumarsi preferibilmente entro: vedi coperchio.",
           "Confezionato in atmosfera protettiva."],
    "nl": ["Koel en droog bewaren.", "Kan sporen van noten bevatten.", "Energie 1650 kJ / 394 kcal per 100 g.",
           "Ten minste houdbaar tot: zie deksel.", "Verpakt onder beschermende atmosfeer."],
}


def load_label_names():
    """{code: {lang: [names]}} from the curated synonyms and the Dutch list (not the raw taxonomy)."""
    out = {}
    with open(os.path.join(SOURCES, "additive-names.jsonl"), encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if r["origin"] == "off-taxonomy" or r["code"] not in NAME_CODES:
                continue
            if r["name"].lower() in ("msg", "natron", "carmine", "carmines", "carmin", "carmins", "carmín",
                                     "carminio", "karmijn", "fd&c yellow no. 5", "fd&c red no. 40", "yellow 5", "red 40"):
                continue
            out.setdefault(r["code"], {}).setdefault(r["lang"], []).append(r["name"])
    return out


def code_text(code, rng, lang):
    """A printed form of `code`: spacing, hyphen, case, INS prefix, sub-form vary as on real labels."""
    m = re.match(r"E(\d+)([a-h]?)", code)
    num, letter = m.group(1), m.group(2)
    sub = ""
    if code in SUBFORMS and rng.random() < 0.3:
        r = rng.choice(SUBFORMS[code])
        sub = rng.choice(["(%s)" % r, " (%s)" % r, r])
    style = rng.random()
    if style < 0.45:
        s = "E%s%s" % (num, letter)
    elif style < 0.65:
        s = "E %s%s" % (num, letter)
    elif style < 0.78:
        s = "E-%s%s" % (num, letter)
    elif style < 0.86:
        s = "e%s%s" % (num, letter)
    elif style < 0.93 and lang == "en":
        s = "INS %s%s" % (num, letter)
    else:
        s = "E%s%s" % (num, letter.upper() if letter and rng.random() < 0.5 else letter)
    return s + sub


def write_text(lang, rng, names, n_additives=None, plan=None):
    """One ingredient list: (text, truth codes, namesOnly codes, plan).

    `plan` fixes which additives appear and how (code, name, or name with code) so a
    mixed-language panel can repeat the same product in several languages.
    """
    if plan is None:
        k = n_additives or rng.randint(2, 7)
        picks = rng.sample(ADDITIVES, k)
        plan = []
        for code, cls in picks:
            nameable = code in names and lang_names(names, code, lang)
            r = rng.random()
            how = "code" if not nameable or r < 0.5 else ("name" if r < 0.8 else "both")
            plan.append((code, cls, how))
    foods = rng.sample(FOODS[lang], rng.randint(4, 9))
    items = list(foods)
    truth, only = set(), set()
    groups = {}
    for code, cls, how in plan:
        name = rng.choice(lang_names(names, code, lang)) if how != "code" else None
        if how == "code":
            piece = code_text(code, rng, lang)
            truth.add(code)
        elif how == "name":
            piece = name
            only.add(code)
        else:
            piece = "%s (%s)" % (name, code_text(code, rng, lang))
            truth.add(code)
        groups.setdefault(cls, []).append(piece)
    for cls, pieces in groups.items():
        word = CLASSES["colours" if cls == "colour" and len(pieces) > 1 else cls][lang]
        if rng.random() < 0.5:
            items.append("%s: %s" % (word, ", ".join(pieces)))
        else:
            items.append("%s (%s)" % (word, ", ".join(pieces)))
    # Keep foods first and additives spread out, as on labels.
    head, tail = items[:2], items[2:]
    rng.shuffle(tail)
    body = ", ".join(head + tail) + "."
    text = "%s %s" % (HEADER[lang], body)
    if rng.random() < 0.6:
        text += " " + " ".join(rng.sample(FOOTERS[lang], rng.randint(1, 2)))
    return text, sorted(truth, key=code_key), sorted(only - truth, key=code_key), plan


def lang_names(names, code, lang):
    return names.get(code, {}).get(lang, [])


def plan_for_panel(rng, names, langs):
    """A plan usable in every language of a mixed panel: names only where all languages have one."""
    picks = rng.sample(ADDITIVES, rng.randint(2, 5))
    plan = []
    for code, cls in picks:
        nameable = all(lang_names(names, code, l) for l in langs)
        r = rng.random()
        plan.append((code, cls, "code" if not nameable or r < 0.5 else ("name" if r < 0.8 else "both")))
    return plan
