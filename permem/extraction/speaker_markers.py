"""What one user message says about who is typing it (`permem.extraction.speakers` follows
the change through a conversation): the fragments that introduce someone other than the
account holder, say whose device it is, give a child's age or school year, disclaim the holder,
sign off, or hand back to the holder. `_read` collects them for one message, as offsets into
its text; `holder_names` gives the holder's names as the account id spells them.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterator
from dataclasses import dataclass, field

from spacy.lang.en.stop_words import STOP_WORDS

from permem.extraction.lexicon import OUT_OF_USE, RELATIONS
from permem.extraction.speaker_visitors import visiting_sentence, visitors_fragment
from permem.extraction.speaker_words import (
    _AGE,
    _ANY_DET,
    _CARE_ROLES,
    _DESCRIBED,
    _DEVICE,
    _GREETINGS,
    _HOME_RELATIONS,
    _I_AM,
    _KIN,
    _KIN_ADJECTIVE,
    _LEAD,
    _NAME,
    _NOT_NAME,
    _NUMBER_WORDS,
    _OTHERS,
    _POSSESSOR,
    _TRAIL,
    _YEARS,
)
from permem.prefilter import guard_patterns
from permem.records import Message

# A fragment that is only a greeting: the next one still opens the message.
_GREETING = re.compile(rf"{_GREETINGS}(?:\W+{_GREETINGS})*\W*", re.IGNORECASE)
# A message cut into fragments: the pieces between punctuation and clause-joining words. Each
# marker below must fill a whole fragment (bar greetings and a trailing word), so that a
# sentence merely containing "it's" or "I'm" is never read as an introduction.
_BREAK = re.compile(
    r"[,;:.!?\n()\[\]—–]+|\s-+\s|\s(?:and|but|so|plus|because|cause|cuz|coz)\s", re.IGNORECASE
)

_INTRO = re.compile(
    rf"{_LEAD}(?P<form>this is|this['’]s|it['’]?s|it is|{_I_AM}|im)\s+"
    rf"(?:actually\s+|really\s+|just\s+)?{_NAME}"
    r"(?P<post>(?:\s+(?:here|again|back|speaking|typing|writing|now|btw|today|on here))*)"
    rf"(?:\s+(?:and\s+)?not\s+{_NOT_NAME})?{_TRAIL}",
    re.IGNORECASE,
)
_NAMED = re.compile(
    rf"{_LEAD}(?:my name is|my name['’]s|name['’]s|call me)\s+{_NAME}"
    rf"(?:\s+(?:and\s+)?not\s+{_NOT_NAME})?{_TRAIL}",
    re.IGNORECASE,
)
_HERE = re.compile(
    rf"{_LEAD}{_NAME}\s+(?P<post>here|speaking|typing|on here)(?:\s+again)?"
    rf"(?:\s+not\s+{_NOT_NAME})?{_TRAIL}",
    re.IGNORECASE,
)
# Signed at the top: "quick note from Dan", "a message from Ines". The name says who writes.
_FROM = re.compile(
    rf"{_LEAD}(?:a\s+)?(?:quick\s+|short\s+)?(?:note|message|question|word|request)\s+from\s+"
    rf"{_NAME}{_TRAIL}",
    re.IGNORECASE,
)
_DISCLAIMER = re.compile(
    rf"{_LEAD}(?:(?:this|it)\s*(?:isn['’]?t|is not|['’]s not|aint)\s+|not\s+){_NOT_NAME}"
    r"(?:\s+(?:here|typing|speaking|writing))?" + _TRAIL,
    re.IGNORECASE,
)
# "her account page" is a page about the account, not the account in use.
_NOT_ABOUT = (
    r"(?!\s+(?:page|settings|details|number|bill|balance|password|name|email|history|screen|"
    r"case|charger|contract|plan)\b)"
)
# Borrowing (now: "borrowed" tells a story) a device that is not the speaker's own.
_BORROWING = re.compile(
    rf"^{_LEAD}(?:{_I_AM}\s+|im\s+)?(?:just\s+|only\s+)?"
    rf"(?:borrowing\s+{_ANY_DET}|(?:using|on|logged (?:in|into|on)(?:to)?)\s+{_OTHERS})"
    rf"\s+{_DEVICE}\b{_NOT_ABOUT}|"
    # Later in the fragment: "I'm using the family tablet", "it's Grandma on Lily's tablet"
    # (not "I saw it on her phone yesterday": on a device, at the fragment's end only).
    rf"\b(?:{_I_AM}|im)\s+(?:just\s+|only\s+)?(?:borrowing|using)\s+{_ANY_DET}\s+{_DEVICE}\b"
    rf"{_NOT_ABOUT}|\bon\s+{_OTHERS}\s+{_DEVICE}{_TRAIL}$|"
    # Introduced on someone else's device: "it's Pedro using Sara's login", "Dan here on her
    # laptop", "this is Ana borrowing my mum's phone".
    rf"^{_LEAD}(?:(?:it['’]?s|its|this\s+is|this['’]s)\s+(?P<who>[^\W\d_]+)|"
    rf"(?P<here>[^\W\d_]+)\s+(?:here|typing|writing))\s+(?:just\s+)?(?:borrowing|using|on|from)\s+{_ANY_DET}\s+{_DEVICE}\b{_NOT_ABOUT}",
    re.IGNORECASE,
)
# A relative lets the speaker use their device: "my mother said I can use the ipad".
_LENT = re.compile(
    rf"(?:\bmy\s+|^{_LEAD})(?:{_HOME_RELATIONS})\s+(?:\w+\s+)?"
    rf"(?:said|says|lets|let|is letting|allowed|allows|gave|gives|told me)\s+(?:me\s+)?"
    rf"(?:that\s+)?(?:i\s+(?:can|could|may|might)\s+)?"
    rf"(?:to\s+)?(?:(?:use|borrow|play on|go on|have|be on)\s+{_ANY_DET}\s+{_DEVICE}\b|"
    # "my mom said I could ask you": leave to talk to the assistant is leave to use the device.
    rf"(?:ask|talk\s+to|chat\s+(?:to|with)|type\s+to|message)\s+you\b)",
    re.IGNORECASE,
)
# The speaker is someone's relative or carer: "I'm Kai's daughter", "this is his wife", "I'm
# the babysitter", "it's Tom's little brother".
_RELATIVE_OF = re.compile(
    rf"{_LEAD}(?:{_I_AM}|im|this is|it['’]?s|its)\s+{_DESCRIBED}(?:\s+[^\W\d_]+)?{_TRAIL}",
    re.IGNORECASE,
)
# Announced in the third person: "Priya's sister here", "the nanny typing", "guest user here",
# "typed by Emma's flatmate", "quick note from Dan's wife".
_DESCRIBED_HERE = re.compile(
    rf"{_LEAD}(?:{_DESCRIBED}|{_CARE_ROLES}(?:\s+user)?)\s+(?:here|typing|writing|speaking|"
    rf"on\s+here)(?:\s+now)?{_TRAIL}|"
    rf"{_LEAD}(?:typed|written|sent|asked)\s+by\s+(?!(?:me|myself|yours\s+truly)\b)"
    rf"(?:{_DESCRIBED}|[^\W\d_]+){_TRAIL}|"
    rf"{_LEAD}(?:a\s+)?(?:quick\s+)?(?:note|message|question|word|request)\s+from\s+{_DESCRIBED}"
    rf"{_TRAIL}|"
    # "Not me typing", "not my mum typing": whoever types next is someone else.
    rf"{_LEAD}not\s+(?:me|my\s+{_KIN_ADJECTIVE}(?:{_HOME_RELATIONS}))\s+(?:typing|writing|speaking|"
    rf"here|on\s+here)(?:\s+now)?{_TRAIL}",
    re.IGNORECASE,
)
# The holder hands the account over, in the third person: "my daughter Mia is on here now",
# "this is my son typing", "my little brother wants to ask you something", "passing the
# tablet to my niece". Whoever types after it is the relative (or carer), not the holder; the
# verbs are those of taking a turn at the keyboard, not of being talked about ("my son wants
# to know why", "my husband is using the laptop" are the holder relaying or explaining).
_A_WHILE = (
    r"(?:\s+(?:for\s+(?:a\s+(?:bit|while|minute|min|sec|second|moment)|a\s+few\s+minutes)|"
    r"from\s+(?:here|me)|now|here))*"
)
# A relative's device named alone, as where the message is typed: "my mum's phone, I'm Sam".
_RELATIVES_DEVICE = re.compile(
    rf"{_LEAD}(?:(?:on|using|from)\s+)?my\s+{_KIN_ADJECTIVE}(?:{_HOME_RELATIONS})['’]s\s+"
    rf"{_DEVICE}{_TRAIL}",
    re.IGNORECASE,
)
# "I'm the kid", "this is the daughter": a household role, said by who holds it.
_HOUSEHOLD_ROLE = re.compile(
    rf"{_LEAD}(?:{_I_AM}|im|this\s+is|it['’]?s)\s+(?:just\s+)?the\s+(?:kid|child|son|daughter|"
    rf"husband|wife|boyfriend|girlfriend|partner|teenager|little\s+one){_TRAIL}",
    re.IGNORECASE,
)
_HANDED_OVER = re.compile(
    rf"{_LEAD}(?:this\s+is|it['’]?s|its|now\s+it['’]?s)\s+my\s+{_KIN}\s+"
    rf"(?:typing|writing|speaking|on\s+here|on\s+the\s+{_DEVICE}){_A_WHILE}{_TRAIL}|"
    rf"{_LEAD}my\s+{_KIN}(?:\s+|(?=['’]))(?:is|['’]s|will\s+be|is\s+going\s+to\s+be|['’]s\s+going\s+to\s+be|"
    rf"is\s+gonna\s+be|['’]s\s+gonna\s+be|will|['’]ll|wants\s+to|would\s+like\s+to|is\s+going\s+to|"
    rf"['’]s\s+going\s+to|is\s+gonna|['’]s\s+gonna|is\s+about\s+to|needs\s+to)\s+"
    rf"(?:on\s+(?:here|my\s+account|this\s+account)|typing|type|writing|write|taking\s+over|"
    rf"take\s+over|have\s+a\s+(?:go|turn)|say\s+(?:hi|hello)|talk\s+to\s+you|chat\s+with\s+you|"
    rf"ask\s+(?:you\s+)?(?:something|a\s+(?:few\s+)?(?:question|thing)s?|some\s+(?:question|thing)s|"
    rf"a\s+couple\s+of\s+(?:question|thing)s))?{_A_WHILE}{_TRAIL}|"
    rf"{_LEAD}(?:{_I_AM}\s+|im\s+)?(?:(?:just|now)\s+)?(?:passing|handing|giving|pass|hand|give)"
    rf"\s+(?:(?:the|my|this)\s+(?:{_DEVICE}|keyboard|chat)\s+(?:over\s+)?|it\s+(?:over\s+)?|"
    rf"you\s+(?:over\s+)?|over\s+)to\s+my\s+{_KIN}{_A_WHILE}{_TRAIL}",
    re.IGNORECASE,
)
# Said beside an introduction: "this is Tom, Ana's husband" (a relative of the holder's).
_HOLDERS_RELATIVE = re.compile(
    rf"{_LEAD}(?:(?:i['’]?m|i am|im)\s+)?(?P<owner>[^\W\d_]+)['’]s\s+"
    rf"(?:{'|'.join(sorted(RELATIONS, key=len, reverse=True))}){_TRAIL}",
    re.IGNORECASE,
)
# A message signed by someone: "… oat milk only for me. - Tove (Nnamdi's husband)", "…
# love from Milo (5)", "cheers, Dana". The signature covers the message it ends.
_SIGN_OFF = re.compile(
    r"(?:^|[\s.!,])(?:[-–—~]+\s*|(?:love|cheers|thanks|ta|regards|xo+|xx+|from)\W*\s+"
    rf"(?:from\s+)?){_NAME}(?:\s*\((?P<note>[^()]{{1,40}})\))?\W*$",
    re.IGNORECASE,
)
_OWNER_OF = re.compile(
    rf"^\s*(?P<owner>[^\W\d_]+)['’]s\s+(?:{'|'.join(sorted(RELATIONS, key=len, reverse=True))})"
    r"\b|^\s*(?:his|her|their|the)\s+(?:other\s+half|"
    rf"{'|'.join(sorted(RELATIONS, key=len, reverse=True))})\b|^\s*(?:age\s+)?\d{{1,2}}\s*$",
    re.IGNORECASE,
)
_CHILD_AGE = re.compile(
    rf"{_LEAD}(?:{_I_AM}|im)\s+(?:only\s+|just\s+|now\s+|almost\s+|nearly\s+)?{_AGE}{_YEARS}"
    rf"(?:\s+and\s+a\s+half)?{_TRAIL}",
    re.IGNORECASE,
)
_TURNED = re.compile(
    rf"{_LEAD}(?:my age is|i\s+(?:just\s+)?turned|{_I_AM}\s+turning|im\s+turning)\s+{_AGE}"
    rf"{_YEARS}{_TRAIL}",
    re.IGNORECASE,
)
_ORDINALS = r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth)"
_SCHOOL_NUMBERS = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen)"
_SCHOOL = re.compile(
    rf"{_LEAD}(?:{_I_AM}|im)\s+in\s+(?:(?:year|grade|class|form|p)\s*(?:\d{{1,2}}|{_SCHOOL_NUMBERS})\b|"
    rf"(?:\d{{1,2}}(?:st|nd|rd|th)|{_ORDINALS})\s+(?:grade|class|year|form)|"
    r"(?:primary|elementary|middle|grade)\s+school|kindergarten|preschool|nursery|"
    # "I'm in Mrs Lee's class": a teacher's class is a pupil's.
    r"(?:mr|mrs|ms|miss)\.?\s+[^\W\d_]+['’]s\s+class)" + _TRAIL,
    re.IGNORECASE,
)
# Visitors to the holder's place, on the device it keeps there: "we're the guests", "we're the
# couple in the holiday let this weekend", "I'm your tenant in the flat upstairs".
# Typing for someone else, the account's holder: "helping my gran with her tablet", "typing
# for her", "writing this on Keziah's behalf".
_HELPING = re.compile(
    rf"{_LEAD}(?:{_I_AM}\s+|im\s+)?(?:just\s+)?(?:helping\s+(?:out\s+)?(?:my\s+{_KIN}|{_POSSESSOR}\s+"
    rf"{_KIN}|[^\W\d_]+)\s+(?:with|on)\s+(?:her|his|their|the)\s+{_DEVICE}|"
    rf"(?:typing|writing)(?:\s+this)?\s+(?:for|on\s+behalf\s+of)\s+(?:her|him|them|my\s+{_KIN}|"
    rf"[^\W\d_]+)|(?:typing|writing)(?:\s+this)?\s+on\s+(?:her|his|their|[^\W\d_]+['’]s)\s+behalf)"
    rf"{_TRAIL}",
    re.IGNORECASE,
)
_HAND_BACK = re.compile(
    rf"{_LEAD}(?:back to me|(?:i['’]?ve|i)\s+(?:got|have)\s+(?:my|the)\s+{_DEVICE}\s+back)"
    + _TRAIL,
    re.IGNORECASE,
)

# Words that follow "I'm"/"it's" capitalised without being anyone's name.
_NOT_NAMES = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday january february march april may "
    "june july august september october november december christmas easter halloween "
    "thanksgiving xmas ramadan diwali hanukkah eid weekend tonight tomorrow today yesterday "
    "vegan vegetarian pescatarian keto paleo diabetic celiac coeliac pregnant single married "
    "divorced retired sober catholic christian muslim jewish hindu buddhist atheist agnostic "
    "protestant mormon sikh american british english french german spanish italian dutch "
    "irish scottish welsh canadian mexican brazilian chinese japanese korean indian australian "
    "african european asian polish russian greek swedish danish norwegian finnish turkish "
    "fine good great ok okay sorry sure done back home here there busy tired sick hungry "
    "late early ready new old happy sad bored cold hot raining snowing sunny cool nice fun "
    "true right wrong weird funny hard easy time bad better worse best free open closed "
    "dr mr mrs ms mx miss prof sir madam doctor professor".split()
)


@dataclass(frozen=True, slots=True)
class _Fragment:
    start: int
    end: int
    text: str


@dataclass
class _Seen:
    """What the fragments of one message say about its speaker (offsets into its text)."""

    intro: str | None = None  # the name of someone other than the holder who is typing
    other_at: int | None = None  # where the message first says someone else is typing
    holder_at: int | None = None  # where the speaker says they are the holder, or hands back
    disclaimed: list[str] = field(default_factory=list)  # who the speaker says they are not
    markers: list[tuple[int, int]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _Intro:
    start: int
    end: int
    name: str
    other: str | None  # "this is N not X": X
    first: bool  # the first fragment of the message
    named: bool  # "my name is N": about the speaker wherever it stands
    announced: bool  # "it's N here", "this is N speaking": nothing else reads like that
    marked: bool  # "N here", "it's N typing": an introduction wherever it stands
    i_am: bool


def _fragments(text: str) -> Iterator[_Fragment]:
    cursor = 0
    for match in [*_BREAK.finditer(text), None]:
        end = match.start() if match else len(text)
        piece = text[cursor:end]
        stripped = piece.strip(" \t\"'“”‘’*_~")  # noqa: RUF001
        if stripped:
            start = cursor + piece.index(stripped)
            yield _Fragment(start, start + len(stripped), stripped)
        if match:
            cursor = match.end()


def holder_names(account: str) -> tuple[frozenset[str], frozenset[str]]:
    """The holder's names as the account id spells them: whole parts and initials."""
    parts = [p for p in re.split(r"[^a-z]+", account.split("@")[0].casefold()) if p]
    return frozenset(p for p in parts if len(p) >= 2), frozenset(p for p in parts if len(p) == 1)


_DESCRIBED_BY_PLACE = re.compile(r"[-'’](?:based|born|bred|raised|ish|like|side|area|way)$")


def _is_name(word: str, *, strict: bool) -> bool:
    """A word that can be a person's given name here: not a function or calendar word, and
    (when `strict`) written with a capital."""
    lower = word.casefold()
    if len(lower) < 2 or lower in STOP_WORDS or lower in _NOT_NAMES:
        return False
    # "I'm London-based", "I'm Brooklyn-born": a place made into a description, no name.
    if _DESCRIBED_BY_PLACE.search(lower):
        return False
    return word[:1].isupper() or not strict


def _age(match: re.Match[str]) -> int:
    value = match.group("age").casefold()
    return int(value) if value.isdigit() else _NUMBER_WORDS[value]


def _intro(fragment: _Fragment, first: bool) -> _Intro | None:
    # Which form matched is told by the match, not by `match.re` (the patterns stand behind
    # their string test, permem.prefilter, and are not the compiled objects).
    intro = _INTRO.fullmatch(fragment.text)
    named = None if intro else _NAMED.fullmatch(fragment.text)
    signed = None if intro or named else _FROM.fullmatch(fragment.text)
    match = intro or named or signed or _HERE.fullmatch(fragment.text)
    if match is None or not _is_name(match.group("name"), strict=False):
        return None
    other = match.groupdict().get("not")
    i_am = intro is not None and match.group("form").casefold() in {"i'm", "i’m", "im", "i am"}
    post = "from" if signed is not None else (match.groupdict().get("post") or "").strip()
    if post.casefold() in ("now", "today") and not first:
        # "We switched banks, it's Monzo now": a new value after a change, not someone typing
        # (an introduction that opens the message still counts: "it's Tom now, Ana's asleep").
        post = ""
    return _Intro(
        fragment.start, fragment.end, match.group("name"),
        other if other and _is_name(other, strict=False) else None,
        first, named is not None, intro is not None and not i_am and bool(post), bool(post),
        i_am,
    )  # fmt: skip


_ARRIVAL_WORDS = 6
# The speaker's own device out of use: what they borrow stands in for it.
_MINE = (
    rf"(?:{_DEVICE}|samsung|galaxy|pixel|android|nokia|motorola|moto|huawei|xiaomi|oneplus|"
    r"thinkpad|surface|dell|lenovo|screen)"
)
_OWN_DEVICE_DOWN = re.compile(
    rf"\bmy\s+(?:\w+\s+)?{_MINE}['’]?s?\b[^.!?]{{0,30}}?\b{OUT_OF_USE}\b|"
    rf"\b{OUT_OF_USE}\s+my\s+(?:\w+\s+)?{_MINE}\b",
    re.IGNORECASE,
)


def _strong(text: str) -> bool:
    """A fragment that alone says someone other than the holder is typing: a device that is
    someone else's, a relative's permission to use it, being someone's relative or a visitor
    to the holder's place, a child's age or school year."""
    if _BORROWING.search(text) or _LENT.search(text) or _SCHOOL.fullmatch(text):
        return True
    if _RELATIVE_OF.fullmatch(text) or visitors_fragment(text):
        return True
    if _DESCRIBED_HERE.fullmatch(text):
        return True
    if _HELPING.fullmatch(text):
        return True
    if any(p.fullmatch(text) for p in (_HANDED_OVER, _RELATIVES_DEVICE, _HOUSEHOLD_ROLE)):
        return True
    for pattern in (_CHILD_AGE, _TURNED):
        age = pattern.fullmatch(text)
        if age is not None and 3 <= _age(age) <= 17:
            return True
    return False


def _read(message: Message, known_holder: set[str], words: Container[str]) -> _Seen:
    """Every marker of a change (or hand-back) of speaker in one message."""
    seen = _Seen()
    full, initials = holder_names(message.account)

    def holder_like(name: str, *, loose: bool) -> bool:
        lower = name.casefold()
        return lower in full or lower in known_holder or (loose and lower[:1] in initials)

    intros: list[_Intro] = []
    disclaimers: list[tuple[_Fragment, str, bool]] = []
    strong: list[_Fragment] = []
    appositions: list[tuple[_Fragment, str]] = []
    opening = True
    for fragment in _fragments(message.text):
        first, opening = opening, opening and _GREETING.fullmatch(fragment.text) is not None
        if _HAND_BACK.fullmatch(fragment.text):
            seen.holder_at = fragment.start if seen.holder_at is None else seen.holder_at
            seen.markers.append((fragment.start, fragment.end))
        elif _strong(fragment.text) and not (
            # "My Samsung died; borrowing my dad's iPhone": the holder's stand-in device.
            _BORROWING.search(fragment.text) and _OWN_DEVICE_DOWN.search(message.text)
        ):
            strong.append(fragment)
            borrowing = _BORROWING.search(fragment.text)
            who = borrowing and (borrowing.group("who") or borrowing.group("here"))
            if who and _is_name(who, strict=False) and who.casefold() not in RELATIONS:
                # "it's Pedro using Sara's login": the borrower names themself.
                intros.append(_Intro(fragment.start, fragment.end, who, None, first,
                                     False, True, True, False))  # fmt: skip
        elif (relative := _HOLDERS_RELATIVE.fullmatch(fragment.text)) is not None:
            if holder_like(relative.group("owner"), loose=False):
                strong.append(fragment)
            else:
                appositions.append((fragment, relative.group("owner")))
        elif (intro := _intro(fragment, first)) is not None:
            intros.append(intro)
        elif (disclaimer := _DISCLAIMER.fullmatch(fragment.text)) is not None:
            name = disclaimer.group("not")
            if _is_name(name, strict=False):
                disclaimers.append((fragment, name, first))
    for fragment, whose in appositions:
        # "This is Dana, Keziah's carer": said right after an introduction, whose relative or
        # carer the speaker is names the holder.
        if any(0 <= fragment.start - intro.end <= 3 for intro in intros):
            strong.append(fragment)
            known_holder.add(whose.casefold())
            seen.disclaimed.append(whose.casefold())
    visiting = visiting_sentence(message.text)
    if visiting is not None:
        # "Hello, we're visiting for the week and staying at this place".
        strong.append(_Fragment(*visiting, message.text[visiting[0] : visiting[1]]))
        before = message.text[: visiting[0]]
        if 0 < len(before.split()) <= _ARRIVAL_WORDS:
            # "Just got in! We booked the apartment for three nights.": the visitors' arrival.
            strong.append(_Fragment(0, visiting[0], before))
    signed = _SIGN_OFF.search(message.text)
    if signed is not None and _is_name(signed.group("name"), strict=True):
        note = signed.group("note")
        owner = _OWNER_OF.match(note) if note else None
        name = signed.group("name")
        # The signer is someone else: a relative of a named person, or not the holder.
        if owner is not None or not holder_like(name, loose=True):
            if owner is not None and owner.groupdict().get("owner"):
                known_holder.add(owner.group("owner").casefold())
                seen.disclaimed.append(owner.group("owner").casefold())
            seen.intro = name
            seen.other_at = 0
            seen.markers.append((signed.start("name"), signed.end()))
    named_others = [i.other for i in intros if i.other is not None]
    # Someone else is typing by the message's own say: strong markers, or "not X" naming the
    # holder (at the start, or beside an introduction).
    disclaiming = bool(named_others) or any(
        (first or intros) and holder_like(name, loose=True) for _, name, first in disclaimers
    )
    if intros and disclaimers:
        disclaiming = True  # "not Quinn — it's Wendell"
    context = bool(strong) or disclaiming
    for intro in intros:
        if holder_like(intro.name, loose=not (context or intro.other)):
            if intro.first or intro.named or intro.marked or intro.i_am:
                seen.holder_at = intro.start if seen.holder_at is None else seen.holder_at
                seen.markers.append((intro.start, intro.end))
            continue
        capital = intro.name[:1].isupper()
        # Alone, an introduction says "my name is N" or "it's N here", or opens the message
        # ("Hey, it's Tobias", "I'm Omar", "Jonas here") with a capitalised word that is no
        # English word ("Omnivore here, love a roast" describes the holder; a name that is
        # also a word, "I'm Grace", needs more). Anywhere else ("what's the dog called? it's
        # Rex"), or in lower case, it needs the rest of the message to say someone else is
        # typing ("its luna, im 9").
        alone = intro.named or (
            capital
            and (intro.first or intro.marked)
            and (intro.announced or intro.name.casefold() not in words)
        )
        if context or intro.other is not None or alone:
            seen.intro = seen.intro or intro.name
            seen.other_at = (
                intro.start if seen.other_at is None else min(seen.other_at, intro.start)
            )
            seen.markers.append((intro.start, intro.end))
    if disclaiming or strong:
        seen.disclaimed += [name.casefold() for _, name, _ in disclaimers] + [
            n.casefold() for n in named_others
        ]
        for fragment in [*strong, *(f for f, _, _ in disclaimers)]:
            seen.markers.append((fragment.start, fragment.end))
            seen.other_at = (
                fragment.start if seen.other_at is None else min(seen.other_at, fragment.start)
            )
    return seen


# Last, so that what imports these names gets them guarded (permem.prefilter).
guard_patterns(globals())
