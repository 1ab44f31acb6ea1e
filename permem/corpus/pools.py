"""What the corpus draws names, apps, places and zones from (all invented for the corpus)."""

from __future__ import annotations

FIRST_NAMES = (
    "Amara", "Bram", "Chiara", "Dmitri", "Elif", "Farid", "Greta", "Hiroshi", "Ines", "Jonah",
    "Keziah", "Lars", "Mei", "Nnamdi", "Oona", "Pavel", "Quinn", "Rosa", "Sanjay", "Tove",
    "Ugo", "Valeria", "Wendell", "Ximena", "Yusuf", "Zofia", "Aurelio", "Bettina", "Cormac",
    "Dalia", "Emeka", "Fenna", "Gideon", "Halima", "Ivo", "Jovana", "Kai", "Leilani", "Mateus",
    "Noor",
)  # fmt: skip

LAST_NAMES = (
    "Abernathy", "Bakshi", "Castellanos", "Delacroix", "Eriksen", "Fonseca", "Gallagher",
    "Hakimi", "Iwasaki", "Jankowski", "Kovacs", "Lindqvist", "Mbeki", "Nakashima", "Oyelaran",
    "Petrossian", "Quaresma", "Rautio", "Szabo", "Tanaka", "Uribe", "Vasquez", "Whitfield",
    "Yildirim", "Zanetti", "Achterberg", "Brennan", "Chaudhry", "Dimitriou", "Engel",
)  # fmt: skip

# Invented product names for tenants; each scenario suffixes its own code.
APPS = (
    "nestnote", "tallyhome", "brightpantry", "kitebook", "pathmark", "hearthly", "quillbox",
    "stridelab", "copperleaf", "tidewell", "lumenly", "orbitdesk", "saltmeadow", "fernpost",
    "goldfinch", "driftwood", "mossgarden", "keelhaul", "lanternly", "pebbleworks",
)  # fmt: skip

CHILD_NAMES = ("Milo", "Ada", "Theo", "Luna", "Felix", "Iris", "Otto", "Nia", "Rafi", "Sunny")

# (city, IANA zone) pairs; the message timestamps carry the zone's offset.
ZONES = (
    ("Lisbon", "Europe/Lisbon"),
    ("Berlin", "Europe/Berlin"),
    ("Helsinki", "Europe/Helsinki"),
    ("Toronto", "America/Toronto"),
    ("Denver", "America/Denver"),
    ("Seattle", "America/Los_Angeles"),
    ("Sao Paulo", "America/Sao_Paulo"),
    ("Mumbai", "Asia/Kolkata"),
    ("Singapore", "Asia/Singapore"),
    ("Tokyo", "Asia/Tokyo"),
    ("Sydney", "Australia/Sydney"),
    ("Auckland", "Pacific/Auckland"),
    ("Nairobi", "Africa/Nairobi"),
    ("London", "Europe/London"),
)

CITIES = (
    "Porto", "Valencia", "Leipzig", "Gdansk", "Ljubljana", "Ghent", "Bergen", "Tallinn",
    "Bologna", "Rotterdam", "Montreal", "Austin", "Halifax", "Perth", "Wellington", "Kyoto",
)  # fmt: skip

# Fictional numbers: the 555-01xx range, Ofcom's drama range, RFC 2606 domains.
PHONES = (
    ("+1 312 555 0147", "555 0147"),
    ("(206) 555-0183", "555-0183"),
    ("+44 7700 900461", "7700 900461"),
    ("07700 900872", "07700 900872"),
    ("+1 646 555 0119", "555 0119"),
    ("+44 20 7946 0321", "7946 0321"),
)
EMAIL_DOMAINS = ("example.com", "example.org", "example.net")
ADDRESSES = (
    "14 Larkspur Lane, Flat 3",
    "221 Cormorant Road",
    "9 Old Tannery Yard",
    "77 Quayside Terrace, apt 12",
    "3 Heron Close",
)
IBANS = ("GB33 BUKB 2020 1555 5555 55", "DE75 5121 0800 1245 1261 99", "NL91 ABNA 0417 1643 00")
