"""The categories of personal data the classifier recognises in a claim, by sensitivity.

`SPECIAL`: special categories (GDPR art. 9), criminal records (art. 10), a precise location
and the speaker's children: never kept without the user's confirmation, and used only by the
claim's own purpose or a purpose that declares the category (policy.may_serve). `PERSONAL`:
personal data kept without asking only where the surface's purpose needs the category
(policy.PURPOSES), finance among it.

Each entry is a class of expressions (an earning verb with a sum, a sum with a period, "in
debt", "owe ... money"), not an example sentence, matched case-insensitively as whole words
(lexicon.words). Near misses that must not match are named next to the entries and tested in
tests/test_sensitive.py. `sensitivity_of` below is the one reader.
"""

from __future__ import annotations

import functools
import re

from permem.extraction.lexicon import categories
from permem.prefilter import guard_patterns
from permem.records import Sensitivity

# Pieces of the category patterns below: classes of expressions, not example sentences.
# A sum of money: marked as money (a currency sign or word), or a bare "80k" / "six figures"
# that only counts after an earning verb ("I run 5k a week" is no income).
_MONEY = (
    r"(?:[$€£¥₹]\s?\d[\d,.]*(?:\s?(?:k|m|mn|bn|million|thousand|grand))?|"
    r"\d[\d,.]*\s?(?:k\s)?(?:dollars|euros|pounds|bucks|quid|usd|eur|gbp|grand))"
)
_AMOUNT = rf"(?:{_MONEY}|\d[\d,.]*\s?(?:k|thousand|million)|(?:five|six|seven|eight)[- ]figures?)"
# Per year, month, week or hour: a price per night or per item is no one's income.
_PERIOD = (
    r"(?:\s?(?:a|an|per|/|each|every)\s?(?:year|yr|annum|month|mo|week|wk|hour|hr|fortnight)|"
    r"\s(?:annually|yearly|monthly|weekly|hourly))"
)
_EARN = (
    r"(?:make|makes|making|made|earn|earns|earning|earned|bring home|brings home|bringing home|"
    r"bring in|brings in|bringing in|take home|takes home|pull in|pulls in|gross|grosses|net|"
    r"nets|clear|clears|paid|i'm on|i am on|im on|salary of|income of|on a salary of)"
)
_HEDGE_AMOUNT = (
    r"(?:(?:about|around|roughly|approximately|approx|over|under|almost|nearly|just|like|"
    r"close to|more than|less than|only|barely|a bit over|a little under)\s+)*"
)
# The speaker's own child, named by relation or by age ("my son", "our 7-year-old").
_MY_CHILD = (
    r"(?:my|our)\s+(?:(?:\w+|\d{1,2}[- ](?:year|yr|month)[- ]old)\s+)?(?:son|sons|daughter|"
    r"daughters|kid|kids|child|children|toddler|baby|twins|stepson|stepdaughter|stepkids|"
    r"little ones?|little (?:boy|girl)s?|teenager|teen|\d{1,2}[- ](?:year|yr|month)[- ]olds?)"
    r"(?:'s|s'|')?"
)
_CHILD_DETAIL = (
    r"(?:(?:is|are|was|turns?|turned|aged?|just turned)\s+\d{1,2}|\d{1,2}\s+and\s+\d{1,2}|"
    r"years? old|months? old|birthday|school|schools|preschool|kindergarten|nursery|daycare|"
    r"day care|grade|class|teacher|homework|elementary|primary|middle school|high school|"
    r"pediatrician|paediatrician|allergic|allergy|allergies|asthma|adhd|autism|autistic|"
    r"diagnosed|sick|ill|medication|meds|eczema|special needs|iep|speech therapy|therapist)"
)
_STREET = (
    r"(?:street|st|road|rd|avenue|ave|lane|ln|drive|dr|boulevard|blvd|court|ct|place|pl|"
    r"terrace|crescent|close|way|square|sq|parkway|pkwy|highway|hwy)\.?"
)

# Special categories of personal data (GDPR art. 9), by category; criminal records are
# handled as special too (art. 10), and so are a precise location (where the person sleeps
# or their children are: US state laws call it sensitive personal information) and claims
# about the speaker's children (GDPR recital 38): none of them is kept without the user's
# confirmation, and none flows to a purpose that did not declare it (policy.may_serve).
SPECIAL = categories(
    {
        "health": (
            "allergic", "allergy", "allergies", r"intoleran(?:t|ce)", "coeliac", "celiac",
            r"diabet(?:es|ic)", "asthma", "epilepsy", "epileptic", "cancer", "chemo",
            "chemotherapy", "hiv", "depression", "depressed", "anxiety disorder", "adhd",
            "autism", "autistic", "bipolar", "ptsd", "ocd", "pregnant", "pregnancy", "ivf",
            "fertility", "egg retrieval", "miscarriage", "therapy", "therapist",
            "psychiatrist", "medication", "meds", "prescribed", "insulin", "surgery",
            "disability", "disabled", "wheelchair", "chronic", "diagnosed", "diagnosis",
            "migraines", "eczema", "crohn's", "ibs", "arthritis", "hypertension",
            "heart condition", "cholesterol", "phobia", "eating disorder", "anorexia",
            "bulimia", "rehab", "sober", "sobriety", "alcoholic", "addiction", "hearing aid",
            "blind", "deaf", "dyslexia", "dyslexic", "std", "sti",
            "mental health", r"panic attacks?", r"antidepressants?", "blood pressure", "pcos",
            "endometriosis", "infertility", "infertile", r"hospitali[sz]ed", "in remission",
            r"(?:have|has|with|suffer from|suffering from|diagnosed with|treated for)\s+"
            r"(?:severe\s+|chronic\s+|social\s+|generalized\s+)?anxiety",
            "insomnia", "sleep apnea", "sleep apnoea", r"seizures?", "dementia", "alzheimer's",
            "parkinson's", "multiple sclerosis", "lupus", "fibromyalgia", "thyroid",
            "schizophrenia", "schizophrenic", "suicidal", r"self[- ]harm", r"had a stroke",
            "heart attack", "concussion",
            # Measurements, check-ups and injuries: "BP was 150/95", "resting heart rate".
            r"bp", "blood sugar", "glucose", "a1c", "heart rate", "bmi", r"check-?ups?",
            r"blood tests?", r"physio(?:therapy)?", r"injur(?:y|ies|ed)", r"sprain(?:ed)?",
            r"fractured?", r"torn\s+(?:acl|ligament|meniscus|muscle)", "operation",
            r"\d{2,3}\s*/\s*\d{2,3}\s*(?:mmhg)?(?=\W|$)", r"\d{2,3}\s+over\s+\d{2,3}",
        ),
        "sex_life": (
            "gay", "lesbian", "bisexual", "bi", "queer", "trans", "transgender", "nonbinary",
            "non-binary", "asexual", "pansexual", "sex life", "my sexuality", "coming out",
            "came out", "transition", "hrt",
        ),
        "religion": (
            "muslim", "christian", "catholic", "protestant", "jewish", "hindu", "buddhist",
            "sikh", "atheist", "agnostic", "mormon", "church", "mosque", "synagogue",
            "temple", "pray", "prayer", "ramadan", "fasting for", "halal", "kosher", "sabbath",
            "shabbat", "bible", "quran", "torah", "religion", "religious", "faith",
        ),
        "politics": (
            "democrat", "republican", "labour voter", "tory", "conservative party",
            "liberal party", "socialist", "communist", "libertarian", "voted for",
            "vote for", "party member", "political", "politics", "maga", "leftist",
            r"vot(?:e|ed|ing)\s+(?:labour|tory|conservative|democrat|republican|green|liberal|"
            r"left|right|against)", "democratic party", "republican party", "green party",
            "labour party", r"(?:i'm|i am)\s+(?:a\s+)?(?:liberal|conservative|progressive)",
            r"left[- ]wing", r"right[- ]wing", "party membership",
        ),
        "ethnicity": (
            "my ethnicity", "my race", "i'm black", "i am black", "i'm white", "i am white",
            "i'm asian", "i am asian", "i'm latino", "i'm latina", "i'm hispanic",
            "indigenous", "aboriginal", "roma", "my heritage", "my ethnic background",
            r"(?:i'm|i am|im|as an?|we're|we are)\s+(?:a\s+)?(?:biracial|mixed[- ]race|"
            r"african[- ]american|asian[- ]american|native american|pacific islander|"
            r"first nations|latinx|arab|black (?:woman|man|person)|white (?:woman|man|person))",
        ),
        "union": (
            "trade union", "union member", "labor union", "labour union", "my union",
            "union rep", "shop steward", "joined the union", "union dues", "teamsters",
            r"(?:in|join|joined|joining|member of)\s+(?:a|my|our)\s+(?:trade\s+|labou?r\s+)?union",
        ),
        "biometrics": (
            "fingerprint", "face scan", "iris scan", "voiceprint", "voice print", "biometric",
            "retina scan", "palm print", "facial recognition data",
        ),
        "genetics": (
            "genetic", "genome", "dna test", r"brca[12]?", "23andme", "hereditary",
            "ancestrydna", "gene mutation", r"carrier (?:of|for) (?:the\s+)?\w+ gene",
        ),
        # Convictions, arrests, prison, probation: the person's own brush with the law, not
        # the words ("the prison break movie", "Arrested Development", "strong convictions",
        # "on probation at my new job" are no criminal record).
        "criminal": (
            "criminal record", "arrest record", "convicted", "ex-con", "ex-convict",
            r"(?:criminal|prior|previous|past|spent|drink[- ]driving|drunk[- ]driving|dui|dwi|"
            r"felony|misdemeanou?r)\s+convictions?", r"convictions?\s+for",
            r"felon(?:y|ies|s)?", r"misdemeanou?rs?",
            r"(?:was|were|been|got|get|getting|being)\s+(?:\w+\s+)?arrested",
            r"arrested\s+(?:for|in|at|last|twice|once|again)", "under arrest", "house arrest",
            r"(?:been|was|were|went|am|is|are|being|sent|ended up|landed|spent\s+\w+\s+\w+|"
            r"served\s+\w+\s+\w+|did time|time|years|months|locked up|got out|released|back|"
            r"out)\s+(?:(?:in|to|into|from|of|behind)\s+)?(?:prison|jail|juvie|"
            r"juvenile detention|a correctional facility|bars)",
            "prison sentence", "jail time", "jail sentence", "served time", r"sentenced\s+to",
            "incarcerated", "incarceration", "on parole", "parole officer", r"paroled",
            "probation officer", r"(?:on|my|violated)\s+probation(?!\s+(?:at|period|for the job))",
            "dui", "dwi", "criminal charges", "pleaded guilty", "pled guilty", "plea deal",
            r"charged\s+with\s+(?:a\s+|an\s+)?(?:crime|felony|misdemeanou?r|assault|theft|fraud|"
            r"possession|dui|dwi|battery|burglary|shoplifting)",
            "sex offender", "registered offender", "expunged", "ankle monitor",
        ),
        # Where the person can be found: a street address, coordinates, "I live at ...",
        # the school their children go to. A city or country is `location` (personal).
        "precise_location": (
            r"my\s+(?:home\s+|street\s+|mailing\s+|postal\s+|billing\s+|exact\s+)?address",
            "home address", "street address",
            r"my\s+(?:zip|zip code|postcode|post code|postal code)",
            r"(?:i|we)\s+live\s+at(?!\s+home)",
            rf"(?:i|we)\s+live\s+on\s+(?:(?-i:[A-Z0-9])[\w'-]*|\w+\s+{_STREET})",
            rf"\d{{1,5}}[a-z]?\s+(?:(?-i:[A-Z])[\w'.-]*\s+){{1,3}}{_STREET}",
            rf"\d{{1,5}}[a-z]?\s+\w+\s+{_STREET}",
            r"-?\d{1,2}\.\d{3,}\s?°?\s?[ns]?,\s*-?\d{1,3}\.\d{3,}\s?°?\s?[ew]?",
            r"\d{1,3}°\s?\d{1,2}['′]", "gps coordinates", "my coordinates",
            r"my\s+(?:house|home|flat|apartment|place|building)\s+is\s+(?:at|on)",
            r"where\s+(?:my|our)\s+(?:kids?|children|son|daughter)\s+go(?:es)?\s+to\s+school",
            r"(?:my|our)\s+(?:kids?|children|son|daughter|\d{1,2}-year-old)(?:'s|s')?\s+"
            r"(?:go(?:es)?\s+to|attends?|(?:is|are)\s+(?:at|in))\s+(?-i:[A-Z])\w*",
            r"(?:kids?|children|son|daughter)(?:'s|s'|')?\s+school\s+(?:is\s+)?(?:on|at|in)",
        ),
        "children": (
            rf"{_MY_CHILD}.{{0,60}}?{_CHILD_DETAIL}",
            rf"{_CHILD_DETAIL}.{{0,40}}?{_MY_CHILD}",
            r"(?:my|our)\s+\d{1,2}[- ](?:year|yr|month)[- ]olds?",
        ),
    }
)  # fmt: skip

# Personal data that is not special but is handled strictly (quasi-identifiers included).
PERSONAL = categories(
    {
        # The speaker's own money: income, debts, wealth, credit, hardship, banking and tax,
        # and sums with an earning verb or a period ("I make $250k a year", "I'm on 45k",
        # "$1,800 a month"). Not "I'm saving this article", "pay attention", "my phone broke"
        # or a price ("hotels under $200 a night").
        "finance": (
            # income
            r"salar(?:y|ies)", "income", r"wages?", "minimum wage", r"pay ?checks?",
            r"payslips?", r"pay stubs?", r"take[- ]home(?: pay)?", r"pay (?:rise|raise|cut|grade)",
            "my pay", "my bonus", "payday", "paid", "get paid", "getting paid",
            rf"{_EARN}\s+{_HEDGE_AMOUNT}{_AMOUNT}", rf"{_MONEY}{_PERIOD}",
            rf"{_AMOUNT}\s+(?:salary|income|a year|per year|per annum)", "earn",
            r"(?:five|six|seven)[- ]figure (?:salary|income|job)",
            # debts
            "debt", "debts", "in debt", "loan", "loans", r"student loans?", "mortgage",
            "overdraft", "overdrawn", r"bankrupt(?:cy)?", r"insolven(?:t|cy)",
            r"foreclos(?:ure|ed)", "repossessed", r"debt collectors?", "collections agency",
            r"payday loans?", "behind on", "arrears", "maxed out", "owing",
            rf"owe[sd]?\s+(?:\w+\s+){{0,3}}?(?:{_AMOUNT}|money|the bank|taxes|back taxes|rent|"
            r"thousands|hundreds|a lot|a fortune)",
            # wealth and savings (not "saving this article")
            "savings", "net worth", "investments", "my investments", "emergency fund",
            r"retirement (?:fund|savings|account)", "pension", r"401\(?k\)?", "roth ira",
            r"(?:investment|stock|crypto) portfolio", "index funds", "brokerage account",
            "inheritance", r"saving (?:up|money)",
            r"sav(?:e|ing)\s+(?:up\s+)?for\s+(?:a|an|my|our|the)\s+(?:house|home|car|wedding|"
            r"deposit|down payment|retirement|mortgage)", "down payment",
            # credit
            "credit score", "credit rating", "credit history", "credit report", "bad credit",
            "fico", "credit card debt",
            # hardship
            r"(?:i'm|i am|im|we're|we are|i was|totally|flat|so|pretty|dead|stone)\s+broke",
            "afford", "paycheck to paycheck", r"money(?:'s| is) tight", r"tight on (?:money|cash)",
            r"short on (?:money|cash)", "strapped for cash",
            r"financial(?:ly)?\s+(?:trouble|struggl\w*|hardship|difficult\w*|stress)",
            "struggling financially", "food stamps", "welfare", "on benefits",
            "unemployment benefits", "universal credit",
            # banking and tax
            # "budget for the new phone" is a price range for a purchase, not the finances.
            "bank", "bank account", "account balance", "bills",
            r"budget(?!\s+for\s+(?:the|a|an|this|that|my)\s)", "money", "rent",
            "tax return", "tax bracket", "tax refund", "my taxes", "back taxes",
        ),
        "location": (
            "live in", "living in", "lives in", "based in", "moved to", "home in",
            "my address", "my street", "my neighbourhood", "my neighborhood", "parents' in",
            "staying in", "i'm from", "i am from", "originally from", "grew up in",
            "born in", "hometown", "growing up", "grew up", "here in", "back home in",
            "where i live",
            "my city", "my town", "my country", "locals", "our neighborhood", "move to",
        ),
        "relationships": (
            "married", "divorced", "single", "widowed", "engaged", "wife", "husband",
            "girlfriend", "boyfriend", "partner", "dating", "separated", "fiance", "fiancé",
            "my ex", "post-divorce", "divorce", "breakup", "break-up", "spouse", "honeymoon",
        ),
        # An age, not a length of time: "I'm 34", "a 40-year-old", "12 years old", not "I've
        # been here 12 years".
        "age": (r"\d{1,2}\s*(?:years?|yrs?)\s*old", r"\d{1,2}\s*y/?o\b", r"\d{2}-year-old",
                r"i'm\s+\d{2}", r"aged\s+\d{1,2}",
                r"i am\s+\d{2}", "my age", "year old", "years old", r"turned \d{2}",
                "in my (?:twenties|thirties|forties|fifties|sixties|20s|30s|40s|50s|60s)",
                "retired", "teenager"),
        "sex": ("as a woman", "as a man", "as a guy", "as a girl", "i'm a woman",
                "i'm a man", "i'm a guy", "i'm a girl", "female", "male", "being a man",
                "being a woman", "as a mom", "as a dad", "as a mother", "as a father"),
        "education": (
            "degree", "phd", "master's", "masters", "bachelor's", "bachelors", "high school",
            "college", "university", "graduated", "diploma", "dropout", "grad school",
            "studied", "majored", "major in", "my studies", "my thesis", "uni", "undergrad",
            "study", "studies", "studying", "semester", "lectures", "campus", "coursework",
            r"(?:history|maths?|chemistry|physics|biology|economics|law|philosophy|psychology|"
            r"literature|anthropology|sociology|engineering) (?:class|classes|course|degree|"
            r"lectures?|seminars?)",
            "postgrad", "alumni", "alumnus", "school days",
        ),
        "occupation": (
            "work as", "job as", "my job", "i'm a nurse", "i'm a teacher", "i'm a doctor",
            "i'm an engineer", "i'm a developer", "i'm a lawyer", "profession", "my career",
            "my boss", "employer", "colleague", "coworker", "i'm a student", "my company",
            "my shift", "trucker", "truck driver",
        ),
    }
)  # fmt: skip

_OCCUPATION = re.compile(
    r"\b(?:i'm|i am|im|i work as|work as|working as|job as|career as)\s+(?:an?\s+)?"
    r"(?:[a-z-]+\s+){0,2}(?:[a-z]{2,}(?:er|or|ist|ian|ant|ent|ess)|nurse|chef|cook|pilot|"
    r"surgeon|student|intern|trucker|barista|mechanic|plumber|electrician|carpenter|"
    r"pharmacist|paramedic|firefighter|cop|soldier|vet|ceo|cto|founder|freelancer)\b",
    re.IGNORECASE,
)
_NOT_OCCUPATION = re.compile(
    r"\b(?:fan|lover|beginner|user|member|reader|player|runner|gamer|follower|believer|"
    r"customer|owner|eater|drinker|sleeper|worrier|fighter|parent|mother|father|vegetarian|"
    r"pescatarian|introvert|extrovert)\b",
    re.IGNORECASE,
)


@functools.lru_cache(maxsize=8192)
def sensitivity_of(text: str) -> tuple[Sensitivity, frozenset[str]]:
    """The strictest sensitivity the text carries, and every category seen.

    The categories are sensitive.SPECIAL's (special) and sensitive.PERSONAL's plus `occupation`
    (personal). Pure and cached: recall recomputes a stored claim's categories with it, since
    the row keeps only the sensitivity (policy.may_serve).
    """
    special = {name for name, pattern in SPECIAL.items() if pattern.search(text)}
    personal = {name for name, pattern in PERSONAL.items() if pattern.search(text)}
    if _OCCUPATION.search(text) and not _NOT_OCCUPATION.search(text):
        personal.add("occupation")
    if special:
        return Sensitivity.SPECIAL, frozenset(special | personal)
    if personal:
        return Sensitivity.PERSONAL, frozenset(personal)
    return Sensitivity.NONE, frozenset()


guard_patterns(globals())
