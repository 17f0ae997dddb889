/// The class words that announce an additive's function on a label, as data.
///
/// Each row maps a lowercase English id to the phrases labels use for it in
/// English (UK and US), German, French, Spanish, Italian and Dutch, plus a few
/// Polish, Finnish and Portuguese forms, the Australian/New Zealand and Indian class
/// names (`mineral salt`, `vegetable gum`, `food acid`, `class II preservative`) and the
/// US habit of naming the function after the additive (`(to preserve freshness)`). Phrases are written in their singular;
/// the name index adds the usual plural endings. Facts from the Open Food Facts
/// additive class taxonomy (ODbL) and EU Regulation 1333/2008 Annex I.
enum FunctionClasses {
    /// Id of the generic `additives:` header, which is context but no function.
    static let genericID = "additive"

    /// Function id → phrases.
    static let table: [(id: String, phrases: [String])] = [
        ("colour", [
            "colour", "color", "colouring", "coloring", "colourings", "colorings", "colorant", "colouring agent",
            "coloring agent", "colour added", "color added", "artificial colour", "artificial color",
            "natural colour", "natural color", "food colouring", "food coloring", "colouring food",
            "colouring substance", "coloring substance", "colours added", "colors added",
            "Farbstoff", "Farbstoffe", "Lebensmittelfarbe", "färbendes Lebensmittel",
            "colorant alimentaire", "colorant naturel", "colorants", "coloré avec",
            "colorante", "colorantes", "colorante alimentario", "coloranti",
            "kleurstof", "kleurstoffen", "kleuren",
            "barwnik", "barwniki", "väri", "väriaine", "corante", "corantes",
            // US and Canadian style, the function in brackets after the name: `turmeric (for color)`.
            "for color", "for colour", "to color", "to colour",
            // `colored with (beta carotene, turmeric)`, `colored with paprika extract`.
            "colored with", "coloured with",
        ]),
        ("preservative", [
            "preservative", "preservatives", "antimicrobial preservative", "preserved with",
            "Konservierungsstoff", "Konservierungsstoffe", "Konservierungsmittel",
            "conservateur", "conservateurs", "agent conservateur", "agent de conservation", "agents de conservation",
            "conservante", "conservantes", "conservador", "conservadores", "agente conservador",
            "conservanti", "agente conservante",
            "conserveermiddel", "conserveermiddelen", "conserveringsmiddel", "conserveringsmiddelen",
            "substancja konserwująca", "substancje konserwujące", "säilöntäaine",
            "class II preservative", "class I preservative",
            // US style: `BHT (to preserve freshness)`, `sorbic acid (a preservative)`.
            "to preserve freshness", "to maintain freshness", "to protect freshness", "to retain freshness",
            "for freshness", "a preservative", "as a preservative", "to prevent spoilage", "to retard spoilage",
            "mold inhibitor", "to inhibit mold", "to prevent mold",
        ]),
        ("antioxidant", [
            "antioxidant", "anti-oxidant", "antioxidants",
            "Antioxidationsmittel", "Antioxidantien", "Antioxidanzien",
            "antioxydant", "anti-oxydant", "antioxygène",
            "antioxidante", "antioxidantes", "antiossidante", "antiossidanti",
            "antioxidanten",
            "przeciwutleniacz", "przeciwutleniacze", "hapettumisenestoaine",
            "to protect flavor", "to protect flavour", "to preserve flavor", "to preserve flavour", "an antioxidant",
        ]),
        ("emulsifier", [
            "emulsifier", "emulsifiers", "emulsifying agent", "emulsifiant", "émulsifiant",
            "Emulgator", "Emulgatoren",
            "émulsifiants", "émulsionnant",
            "emulsionante", "emulsionantes", "emulgente", "emulsificante",
            "emulsionanti", "agente emulsionante",
            "emulgatoren",
            "emulgatory", "emulgointiaine",
        ]),
        ("emulsifying salt", [
            "emulsifying salt", "emulsifying salts", "Schmelzsalz", "Schmelzsalze",
            "sels émulsifiants", "sel émulsifiant", "sels de fonte", "sales fundentes", "sales emulsionantes",
            "sali di fusione", "sale di fusione", "smeltzout", "smeltzouten",
        ]),
        ("stabiliser", [
            "stabiliser", "stabilizer", "stabilising agent", "stabilizing agent",
            "Stabilisator", "Stabilisatoren",
            "stabilisant", "stabilisants", "stabilisateur", "agent stabilisant",
            "estabilizador", "estabilizadores", "estabilizante", "estabilizantes",
            "stabilizzante", "stabilizzanti", "agente stabilizzante",
            "stabilisatoren",
            "stabilizator", "stabilizatory", "stabilointiaine",
        ]),
        ("thickener", [
            "thickener", "thickening agent", "Verdickungsmittel",
            "épaississant", "agent épaississant", "épaississants",
            "espesante", "espesantes", "agente espesante",
            "addensante", "addensanti", "agente addensante",
            "verdikkingsmiddel", "verdikkingsmiddelen",
            "substancja zagęszczająca", "substancje zagęszczające", "sakeuttamisaine", "espessante",
            // Australia/New Zealand class name (Food Standards Code, Schedule 7).
            "vegetable gum",
        ]),
        ("gelling agent", [
            "gelling agent", "gelifier", "Geliermittel", "gélifiant", "agent gélifiant",
            "gelificante", "gelificantes", "agente gelificante", "gelificanti",
            "geleermiddel", "geleermiddelen", "substancja żelująca", "hyytelöimisaine",
        ]),
        ("sweetener", [
            "sweetener", "sweeteners", "artificial sweetener", "intense sweetener",
            "Süßungsmittel", "Süßstoff", "Süssstoff", "Süssungsmittel",
            "édulcorant", "édulcorants", "edulcorant", "édulcorant de synthèse",
            "edulcorante", "edulcorantes", "endulzante", "endulzantes",
            "edulcoranti", "dolcificante", "dolcificanti",
            "zoetstof", "zoetstoffen",
            "substancja słodząca", "substancje słodzące", "makeutusaine", "adoçante",
        ]),
        ("acidity regulator", [
            "acidity regulator", "acidity regulators", "acid regulator", "pH regulator", "buffering agent",
            "Säureregulator", "Säureregulatoren", "Säureregulatoren",
            "correcteur d'acidité", "correcteurs d'acidité", "régulateur d'acidité", "régulateur de l'acidité",
            "regulador de acidez", "reguladores de acidez", "regulador de la acidez", "corrector de acidez",
            "correctores de acidez",
            "correttore di acidità", "correttori di acidità", "correttore d'acidità", "regolatore di acidità",
            "regolatori di acidità",
            "zuurteregelaar", "zuurteregelaars",
            "regulator kwasowości", "regulatory kwasowości", "happamuudensäätöaine", "regulador de acidez",
            // Australia/New Zealand class name (Food Standards Code, Schedule 7).
            "alkali",
        ]),
        ("acid", [
            "acid", "acids", "acidifier", "acidulant", "acidulants",
            "Säuerungsmittel",
            "acidifiant", "acidifiants", "acidulant",
            "acidulante", "acidulantes", "acidificante", "acidificantes",
            "acidificanti", "voedingszuur", "voedingszuren", "zuurmiddel",
            // Australia/New Zealand class name: `Food Acid (330)`.
            "food acid", "for tartness",
        ]),
        ("flavour enhancer", [
            "flavour enhancer", "flavor enhancer", "flavour enhancers", "flavor enhancers", "taste enhancer",
            "Geschmacksverstärker",
            "exhausteur de goût", "exhausteurs de goût", "exhausteur de saveur", "exhausteur d'arôme",
            "potenciador del sabor", "potenciadores del sabor", "resaltador del sabor", "potenciador de sabor",
            "esaltatore di sapidità", "esaltatori di sapidità", "esaltatore di sapore",
            "smaakversterker", "smaakversterkers",
            "wzmacniacz smaku", "wzmacniacze smaku", "arominvahvenne", "intensificador de sabor",
        ]),
        ("raising agent", [
            "raising agent", "raising agents", "leavening agent", "leavening", "leavening agents",
            "Backtriebmittel", "Triebmittel",
            "poudre à lever", "poudres à lever", "agent levant", "agents levants", "poudre levante",
            "gasificante", "gasificantes", "leudante", "leudantes", "agente leudante", "gasificante",
            "agente lievitante", "agenti lievitanti", "lievitante", "lievitanti",
            "rijsmiddel", "rijsmiddelen",
            "substancja spulchniająca", "substancje spulchniające", "nostatusaine", "levedante",
        ]),
        ("humectant", [
            "humectant", "humectants", "Feuchthaltemittel", "humectante", "humectantes",
            "umidificante", "umidificanti", "umettante", "bevochtigingsmiddel", "bevochtigingsmiddelen",
            "to retain moisture", "to maintain moisture",
            "substancja utrzymująca wilgoć", "kosteudensäilyttäjä",
        ]),
        ("firming agent", [
            "firming agent", "Festigungsmittel", "affermissant", "agent affermissant",
            "endurecedor", "agente endurecedor", "agente di resistenza", "agenti di resistenza",
            "verstevigingsmiddel", "substancja wiążąca", "kiinteyttämisaine",
        ]),
        ("glazing agent", [
            "glazing agent", "coating agent", "Überzugsmittel", "agent d'enrobage", "agents d'enrobage",
            "agente de recubrimiento", "agente de glaseado", "agente di rivestimento", "agenti di rivestimento",
            "glansmiddel", "glansmiddelen", "substancja glazurująca", "pintakäsittelyaine",
        ]),
        ("flour treatment agent", [
            "flour treatment agent", "flour improver", "dough conditioner", "Mehlbehandlungsmittel",
            "agent de traitement de la farine", "agents de traitement de la farine",
            "agent de traitement de farine", "améliorant", "améliorant de panification",
            "agente de tratamiento de la harina", "mejorante", "agente di trattamento della farina",
            "agenti di trattamento della farina", "meelverbeteraar", "meelverbeteraars",
            "środek do przetwarzania mąki", "jauhonparanne",
            "dough strengthener", "bleaching agent",
            // Indian and Australian bread labels: `Improver (1100)`, `Bread improver (300, 1100)`.
            "improver", "bread improver", "dough improver",
        ]),
        ("anti-caking agent", [
            "anti-caking agent", "anticaking agent", "anti caking agent", "anti-caking", "Trennmittel",
            "Rieselhilfe", "Antiklumpmittel", "antiagglomérant", "anti-agglomérant",
            "antiaglomerante", "antiaglomerantes", "antiapelmazante", "antiagglomerante", "antiagglomeranti",
            "agente antiagglomerante", "antiklontermiddel", "antiklontermiddelen",
            "substancja przeciwzbrylająca", "paakkuuntumisenestoaine",
            "to prevent caking", "free flow agent", "flow agent",
        ]),
        ("anti-foaming agent", [
            "anti-foaming agent", "antifoaming agent", "antifoam", "Schaumverhüter",
            "antimoussant", "agent antimoussant", "antiespumante", "antischiumogeno", "antischiumogeni",
            "antischuimmiddel",
        ]),
        ("propellant", [
            "propellant", "propellent", "propellant gas", "Treibgas", "gaz propulseur", "propulseur",
            "gas propulsor", "gas propulsore", "drijfgas", "gaz nośny",
        ]),
        ("packaging gas", [
            "packaging gas", "Schutzgas", "gaz de conditionnement", "gas de envasado", "gas di confezionamento",
            "beschermgas",
        ]),
        ("sequestrant", [
            "sequestrant", "Komplexbildner", "séquestrant", "secuestrante", "sequestrante", "sequestranti",
            "complexvormer",
        ]),
        ("carrier", [
            "carrier", "Trägerstoff", "Trägerstoffe", "agent de support", "dragerstof",
        ]),
        ("bulking agent", [
            "bulking agent", "Füllstoff", "agent de charge", "agente de carga", "agente di carica", "vulstof",
        ]),
        ("foaming agent", [
            "foaming agent", "whipping agent", "Schaummittel", "agent moussant", "espumante", "agente espumante",
            "agente schiumogeno", "schuimmiddel",
        ]),
        ("colour retention agent", [
            "colour stabiliser", "color stabilizer", "colour retention agent", "Farbstabilisator",
            "stabilisant de couleur", "fixateur de couleur", "estabilizador del color",
            // Australia/New Zealand class name; US style `(to retain color)`.
            "colour fixative", "color fixative", "to retain color", "to retain colour", "to preserve color",
            "to promote color retention", "to maintain color",
        ]),
        // Australia/New Zealand class name (Food Standards Code, Schedule 7): `Mineral Salts (450, 451)`.
        // English only: `sels minéraux` and `Mineralsalze` on European labels are often nutrients.
        ("mineral salt", [
            "mineral salt",
        ]),
        // Codex/India class name (CXG 36-1989): `Carbonating agent (290)`.
        ("carbonating agent", [
            "carbonating agent",
        ]),
        // Generic headers make additive context but name no function.
        (genericID, [
            "additive", "food additive", "Zusatzstoff", "Zusatzstoffe", "additif", "additifs alimentaires",
            "aditivo", "aditivos", "additivo", "additivi", "additief", "additieven",
        ]),
        ("modified starch", [
            "modified starch", "modifizierte Stärke", "amidon modifié", "almidón modificado", "amido modificato",
            "gemodificeerd zetmeel", "skrobia modyfikowana",
        ]),
    ]

    /// Group words whose members are nutrients, not additives: `Vitamins (B1, B6, E)`.
    static let nutrientPhrases: [String] = [
        "vitamin", "vitamins", "Vitamine", "Vitaminen", "vitamines", "vitamina", "vitaminas", "witaminy",
        "mineral", "minerals", "Mineralstoffe", "minéraux", "minerales", "minerali", "mineralen",
        "substances d'apport minéral", "trace elements", "Spurenelemente", "oligo-éléments",
    ]
}

/// How many class words the parser knows per label language, for `scan pack validate`.
public enum ClassWordCounts {
    /// EU official languages and Norwegian (`nb`), in the order reports list them.
    public static let labelLanguages = ["bg", "cs", "da", "de", "el", "en", "es", "et", "fi", "fr", "ga", "hr", "hu",
                                        "it", "lt", "lv", "mt", "nl", "pl", "pt", "ro", "sk", "sl", "sv", "nb"]
    /// Languages of the hand-written table (its rows mix them, so they are counted together).
    public static let handLanguages = ["en", "de", "fr", "es", "it", "nl"]

    /// Phrases of the hand-written table (English, German, French, Spanish, Italian, Dutch and a few others).
    public static var handTable: Int { FunctionClasses.table.reduce(0) { $0 + $1.phrases.count } }

    /// Taxonomy class words per language (the languages the hand table does not cover).
    public static var perLanguage: [String: Int] {
        FunctionClasses.taxonomyTable.reduce(into: [:]) { $0[$1.lang, default: 0] += $1.phrases.count }
    }
}
