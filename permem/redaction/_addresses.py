"""Street addresses: house number and street in English and continental forms, and the block
of lines (addressee, unit, city, postcode, country) around them."""

from __future__ import annotations

import re
from dataclasses import dataclass

from presidio_analyzer import LocalRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

__all__ = ["StreetAddressRecognizer"]

_UPPER = r"[A-ZÀ-ÖØ-ÞĀ-žΑ-ΩΆ-ΏА-Я]"  # an upper-case initial (Latin, Greek, Cyrillic; Latin
# Extended-A is taken whole, its cases alternate)
_FUNCTION_WORD = r"(?:and|or|to|in|at|on|of|for|with|by|per|every|from|than|the|a|an|is|are)\b"
_PARTICLE = (
    r"(?:de|del|della|delle|dei|degli|di|da|do|dos|das|du|des|la|le|les|van|von|der|den|dem|z|u"
    r"|y|e|am|an|im|nad|pod|upon|sur|of|the)"
)
_NUM = r"\d{1,6}[A-Za-z]?\b"
_SUFFIX = (
    r"(?i:street|st|avenue|ave|road|rd|lane|ln|boulevard|blvd|drive|dr|court|ct|way|place|pl"
    r"|terrace|ter|close|crescent|cres|square|sq|highway|hwy|parkway|pkwy|circle|cir|trail"
    r"|row|mews|grove|gardens|alley|str)\b\.?"
)
_DIRECTION = r"(?:N|S|E|W|NE|NW|SE|SW|North|South|East|West)\b\.?"
# Street-type words of other languages, before the name ("Via Roma 131", "rue du Centre 8") or
# ending it ("Rooseveltlaan 110", "Villacher Strasse 89"). The prefixes that are also ordinary
# words ("via", "avenue", "route") count only capitalised.
_TYPE_PREFIX = (
    r"(?:(?i:rue|rua|calle|carrer|avenida|avda|viale|piazza|vicolo|strada|travessa|praça|chemin"
    r"|allée|quai|impasse|ulica|ul|aleja|corso)|Via|Avenue|Av|Boulevard|Route|Plaza|Largo|Paseo"
    r"|Camino)\b\.?"
)
_TYPE_ENDING = (
    r"(?i:strasse|straße|gasse|weg|allee|platz|damm|vej|veien|vegen|gate|gata|gatan|vägen|gade"
    r"|laan|straat|steeg|gracht|plein|kade|dreef|singel|katu|tie|kuja|utca|ulice|stræti|straeti"
    r"|sokak|caddesi)\b"
)
# The same words standing alone after the name ("Villacher Strasse 89"), minus the ones that are
# also English words ("gate 5", "tie").
_TYPE_WORD = (
    r"(?i:strasse|straße|gasse|weg|allee|platz|vej|veien|gata|gatan|gade|laan|straat|utca|út|u\."
    r"|ulice|ulica)(?:\b|(?<=\.))"
)
_UNIT = r"(?i:apt|apartment|suite|ste|unit|flat|floor|fl|room|rm|box)\b\.?[ \t]*#?[ \t]*\w{1,6}\b"
_POSTCODE = r"(?:\d{4,6}(?:-\d{4})?|[A-Z]{1,2}\d[A-Z\d]?[ \t]?\d[A-Z]{2})\b"
_BULLET = r"(?:[ \t]*[^\w\s,]{1,3})?[ \t]*"  # "- ", "• ", "> " opening a line of a block
# Nouns that are counted, not addresses: "my flat is on level 3".
_COUNTED = (
    r"(?i:level|floor|storey|platform|gate|room|row|seat|page|line|bus|route|track|terminal"
    r"|channel|chapter|season|episode|version|day|week|year|number|no)\b"
)
# Words that announce an address, after which a name with a house number is one.
_ADDRESS_CUE = (
    r"(?i:address(?:[ \t]+is)?[ \t]*:?|li(?:ve[sd]?|ving)[ \t]+(?:on|at)|located[ \t]+(?:at|on)"
    r"|(?:station|office|house|home|flat|apartment|shop|store|entrance|stop|hotel|school"
    r"|building)[ \t]+is[ \t]+(?:on|at)|enter[ \t]+(?:on|at|from)|taxi[ \t]+to"
    r"|(?:send|ship|deliver|mail|post)\b[^.?!\n]{0,30}?\bto|(?:pick|drop)[ \t]+\w+[ \t]+(?:up|off)"
    r"[ \t]+(?:at|from))[ \t]+(?:the[ \t]+)?"
)


@dataclass(frozen=True)
class _AddressPatterns:
    """The address regexes for one kind of text: cased, or typed all in lower case."""

    cores: tuple[re.Pattern[str], ...]
    cued: re.Pattern[str]
    tail: re.Pattern[str]

    @classmethod
    def build(cls, cased: bool) -> _AddressPatterns:
        # A word of a street or place name: capitalised, or in a lower-case text any word
        # that is not a function word ("10 and 12." is no address).
        cap = (
            rf"(?:{_UPPER}[\w'’.-]*|\d+(?:st|nd|rd|th)\b)"
            if cased
            else rf"(?:(?!{_FUNCTION_WORD}|{_PARTICLE}\b)[^\W\d_][\w'’.-]*|\d+(?:st|nd|rd|th)\b)"
        )
        initial = _UPPER if cased else r"[^\W\d_]"
        name = (
            rf"(?:{_PARTICLE}[ \t]+){{0,2}}{cap}(?:[ \t]+(?:{_PARTICLE}[ \t]+){{0,2}}{cap}){{0,3}}"
        )
        end = r"|[.?!]|$" if cased else ""
        cores = [
            # 12 Baker Street, 1600 N Pennsylvania Ave NW
            rf"\b{_NUM}[ \t]+(?:{_DIRECTION}[ \t]+)?{name}[ \t]+{_SUFFIX}(?:[ \t]+{_DIRECTION})?",
            # Via dei Fiorentini 17, 33 avenue de Provence
            rf"\b{_TYPE_PREFIX}[ \t]+{name}[ \t]+{_NUM}",
            rf"\b{_NUM}[ \t]+(?i:{_TYPE_PREFIX})[ \t]+{name}",
            # Rooseveltlaan 110, Villacher Strasse 89, Wesselényi u. 94
            rf"\b(?:{initial}[\w'-]+?{_TYPE_ENDING}|{cap}[ \t]+{_TYPE_WORD})\.?[ \t]+{_NUM}",
            # building number, street, house number, then the end of the line or a unit:
            # 583 Magrethevej 298 (a year first is a date: "2019 Python 3")
            rf"\b(?!(?:19|20)\d\d\b)\d{{2,6}}[ \t]+{name}[ \t]+{_NUM}"
            rf"(?=[ \t]*(?:[\n,.;?!]|$|{_UNIT}))",
            # PO Box 123, P.O. Box 104
            r"\b(?i:p\.?[ \t]?o\.?[ \t]?box|post[ \t]+office[ \t]+box)[ \t]+\d+\b",
            # US military: PSC 1234, Box 5678 / APO AE 12345; USNS Name / FPO AA 12345
            r"\b(?:PSC|CMR|Unit)[ \t]+\d+,?[ \t]+Box[ \t]+\d+\s*,?\s*(?:APO|FPO|DPO)[ \t]+A[AEP]"
            r"[ \t]+\d{5}\b",
            rf"\b(?:USNS|USS|USCGC)[ \t]+{name}\s*,?\s*FPO[ \t]+A[AEP][ \t]+\d{{5}}\b",
            # a unit on its own (Apt 4B, Suite 200), and the address line just above it
            rf"(?:^{_BULLET}(?:{_NUM}[ \t]+)*{name}[ \t]+{_NUM}(?:[ \t]+{name})?[ \t]*\n{_BULLET})?"
            r"\b(?:(?i:apt|apartment|suite)\b\.?|Flat)[ \t]*#?[ \t]*\d[\w-]{0,5}\b",
            # the corner of Kuusiku 7 and Alexander Flat
            rf"\b(?i:(?:the[ \t]+)?corner[ \t]+of)[ \t]+(?:{_NUM}[ \t]+)?{name}(?:[ \t]+{_SUFFIX})?"
            rf"(?:[ \t]+{_NUM})?[ \t]+(?:and|&)[ \t]+(?:{_NUM}[ \t]+)?{name}(?:[ \t]+{_SUFFIX})?",
        ]
        line = (
            rf"(?:(?:{cap}|\d[\w-]*|{_PARTICLE})[ \t]+){{0,4}}(?:{cap}|\d[\w-]*)"
            if cased
            else rf"(?:(?:[^\W\d_][\w'’.-]*[ \t]+){{0,3}}{_POSTCODE}|(?:[^\W\d_][\w'’.-]*[ \t]+)?"
            r"[^\W\d_][\w'’.-]*)"
        )
        tail = (
            # the next line of a block: city, "state postcode", country
            rf"[ \t]*\.?[ \t]*\n{_BULLET},?[ \t]*(?:{_UNIT}|{line})(?=[ \t]*(?:\n|$|[,.;:?!]))"
            # after a comma: unit, postcode, or a place followed by another part or the end
            # (", Springfield, OR 97403", not ", I prefer"; in lower case not the end either:
            # ", prefer quiet")
            rf"|[ \t]*,[ \t]*(?:{_UNIT}|{_POSTCODE}|{name}(?=[ \t]*(?:[,\n;:]{end})"
            rf"|[ \t]+{_POSTCODE}|[ \t]+[A-Z]{{2}}\b))"
            # after a space: unit, postcode, a city in capitals, "street", or words before a unit
            # ("Aqqusinersuaq 176 Pinto Hill / Suite 487")
            rf"|[ \t]+(?:{_UNIT}|{_POSTCODE}|{_UPPER}{{2,}}\b(?:[ \t]+{name})?|(?i:street|st)\b\.?"
            rf"|{name}(?=[ \t]*\n{_BULLET}{_UNIT}|[ \t]+{_UNIT}))"
        )
        return cls(
            cores=tuple(re.compile(core, re.MULTILINE) for core in cores),
            # ...and what follows it ends the phrase: "lives on Elm 5 days a week" is no address
            cued=re.compile(
                rf"{_ADDRESS_CUE}(?P<address>{_NUM}[ \t]+{name}|(?!{_COUNTED}){name}[ \t]+{_NUM})"
                rf"(?=[ \t]*(?:[\n,.;?!]|$|(?i:street|st)\b|{_UNIT})|[ \t]+{name}[ \t]*\n)"
            ),
            tail=re.compile(tail),
        )


class StreetAddressRecognizer(LocalRecognizer):
    """House number + street (English and continental forms), PO boxes, military addresses.

    A match is extended backwards over a leading building number and forwards over the unit,
    city, state, postcode and country that follow it on the same line or the next ones. In a
    block of lines ("Name / Company / street / city"), the lines above the street are the
    addressee: the first is taken as a PERSON, the others as part of the address.
    """

    def __init__(self) -> None:
        self._cased = _AddressPatterns.build(cased=True)
        self._uncased = _AddressPatterns.build(cased=False)
        self._lead = re.compile(r"\d{1,6}[ \t]+$")
        self._header = re.compile(rf"^{_BULLET}(?P<line>[^\W\d_][^\d\n.?!:;]{{0,60}}?)[ \t]*$")
        super().__init__(supported_entities=["STREET_ADDRESS"], name="StreetAddressRecognizer")

    def load(self) -> None:
        """Nothing to load."""

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        patterns = self._cased if any(ch.isupper() for ch in text) else self._uncased
        spans = [m.span() for core in patterns.cores for m in core.finditer(text)]
        spans += [m.span("address") for m in patterns.cued.finditer(text)]
        results, covered = [], 0
        for start, end in sorted(spans):
            if end <= covered:
                continue  # inside an address already extended
            if lead := self._lead.search(text, 0, start):
                start = lead.start()
            while tail := patterns.tail.match(text, end):
                end = tail.end()
            covered = max(covered, end)
            results.append(RecognizerResult("STREET_ADDRESS", start, end, 0.9))
            if "\n" in text[start:end]:
                results += self._addressee(text, start)
        return results

    def _addressee(self, text: str, start: int) -> list[RecognizerResult]:
        """The name (and company) lines directly above a multi-line address block."""
        line_start = text.rfind("\n", 0, start) + 1
        if text[line_start:start].strip(" \t?*•·>-"):
            return []  # the address does not open its line
        found: list[tuple[int, int]] = []
        end = line_start - 1
        while end > 0 and len(found) < 2:
            begin = text.rfind("\n", 0, end) + 1
            if text[begin:end].strip():
                header = self._header.match(text[begin:end])
                if header is None:
                    break
                found.append((begin + header.start("line"), begin + header.end("line")))
            end = begin - 1
        return [
            RecognizerResult("PERSON" if i == len(found) - 1 else "STREET_ADDRESS", s, e, 0.9)
            for i, (s, e) in enumerate(found)
        ]
