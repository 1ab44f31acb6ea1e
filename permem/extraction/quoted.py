"""Spans of a user message that are not the user's own words: quoted, pasted, forwarded, fenced.

A user who pastes an e-mail, a review, a chat or a code block into a message is showing the
assistant someone else's text, not saying anything about themselves. `quoted_spans(text)`
finds those spans; extraction treats every sentence inside one like a sentence of a document
(never a user fact or instruction: at most untrusted evidence the write gate rejects).

Contract: the spans are sorted, disjoint, non-empty character ranges of `text`; the quoting
marks themselves (fences, ">" markers, quotation marks) stay outside wherever they are easy to
tell apart, so the user's own words and the quoted words never share a sentence. `pieces(text)`
partitions the whole text into alternating own/quoted pieces. The forms, each looked for only
outside the spans of the forms before it:

1. fenced blocks (``` or ~~~; unclosed: to the end of the message);
2. e-mail quoting: the text after ">" markers at the start of a line;
3. forwarded or replied-to messages: a "Forwarded message" / "Original Message" /
   "Begin forwarded message:" line or a block of two or more mail headers (From:, To:,
   Subject:, Date:, ...): to the end of the message; an "On <date>, <name> wrote:" line: to
   the end of the ">" block that follows it, or to the end of the message when none does;
4. indented code blocks (four spaces or a tab, after a blank line);
5. pasted chat transcripts: a run of "Name: text" lines in which some speaker speaks twice,
   or which carry timestamps;
6. text in quotation marks (straight, curly, single, guillemets; one line or several) that is
   pasted text rather than a scare quote or a title: six words or more, a line break, a
   sentence inside, or a whole quoted sentence, unless it is title-cased; any length right
   after a task done on text ("translate", "reply to") or a lead-in; an unclosed quotation
   only after a lead-in; never a quotation that is the whole message;
7. a lead-in that says text follows -- a task on a document noun ("summarize this email"), a
   presentation ("here's the review") or who produced it ("what my boss sent me") -- ending
   with a colon, or alone on its line before more lines: the rest of the message; and a
   closing request about "this"/"the above" text after a blank line: everything before it.

The patterns and the tests of a candidate span are in `permem.extraction.quoted_forms`; this
module runs the forms in order.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from permem.extraction import lexicon as lx
from permem.extraction.quoted_forms import (
    _CLOSERS,
    _ELISION,
    _FENCE_OPEN,
    _INDENTED,
    _LEAD_IN_REACH,
    _LIST_ITEM,
    _OPEN_AFTER,
    _QUOTE_MARKERS,
    _SHOWN,
    _SPEAKER_LINE,
    _WORDS,
    QuotedSpan,
    _blank,
    _Line,
    _lines,
    _merge,
    _pasted,
    is_lead_in,
)
from permem.prefilter import guard_patterns

__all__ = ["QuotedSpan", "is_lead_in", "pieces", "quoted_spans"]


_WORD_CHAR = re.compile(r"\w")


class _Finder:
    """Collects spans form by form; a later form only looks where no earlier one matched."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = _lines(text)
        self.spans: list[QuotedSpan] = []
        # One flag a character, so that checking a position costs the same however many
        # spans a long paste (a thousand quoted lines) has produced.
        self.covered = bytearray(len(text))
        # Characters that quotation closing may still scan: nested, unclosed quotation marks
        # ("““““...") must not make one message cost quadratic time.
        self.scan_budget = 8 * len(text) + 1000
        # Likewise the characters of lead-in sentences the word lists may read.
        self.lead_budget = 2 * len(text) + 2000
        # Where the first word (`_WORDS`) starts and the last one ends: a word starts and ends
        # with a word character, so these are the first and the last of them.
        first = _WORD_CHAR.search(text)
        last = _WORD_CHAR.search(text[::-1])
        self.first_word = first.start() if first else len(text)
        self.last_word = len(text) - last.start() if last else 0

    def taken(self, position: int) -> bool:
        """`position`, or the first non-blank character from it, is inside a span."""
        while position < len(self.text) - 1 and self.text[position] in " \t":
            position += 1
        return position < len(self.text) and self.covered[position] == 1

    def add(self, start: int, end: int, form: str) -> None:
        while start < end and self.text[start].isspace():
            start += 1
        while end > start and self.text[end - 1].isspace():
            end -= 1
        if start < end:
            self.spans.append(QuotedSpan(start, end, form))
            self.covered[start:end] = b"\x01" * (end - start)

    def free(self) -> Iterator[tuple[int, int]]:
        """The stretches of text no span covers yet."""
        cursor = 0
        for span in sorted(self.spans, key=lambda s: s.start):
            if span.start > cursor:
                yield cursor, span.start
            cursor = max(cursor, span.end)
        if cursor < len(self.text):
            yield cursor, len(self.text)

    # 1. fenced blocks
    def fenced(self) -> None:
        index = 0
        while index < len(self.lines):
            a, b = self.lines[index]
            opening = _FENCE_OPEN.match(self.text, a, b)
            if opening is None or self.taken(a):
                index += 1
                continue
            fence = opening.group("fence")
            closing = re.compile(rf"[ \t]{{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
            end = next(
                (
                    i
                    for i in range(index + 1, len(self.lines))
                    if closing.match(self.text, *self.lines[i])
                ),
                None,
            )
            body_end = self.lines[end][0] if end is not None else len(self.text)
            self.add(b + 1, body_end, "fenced")
            index = end + 1 if end is not None else len(self.lines)

    # 2. e-mail quoting
    def quote_markers(self) -> None:
        for a, b in self.lines:
            if self.taken(a):
                continue
            markers = _QUOTE_MARKERS.match(self.text, a, b)
            if markers is not None:
                self.add(markers.end(), b, "quote_marker")

    # 3. forwarded and replied-to messages
    def forwarded(self) -> None:
        end_of_text = len(self.text)
        for index, (a, b) in enumerate(self.lines):
            if self.taken(a):
                continue
            if lx.FORWARD_LINE.match(self.text, a, b):
                self.add(a, end_of_text, "forwarded")
                return
            if self._header_block(index):
                self.add(a, end_of_text, "forwarded")
                return
        for match in lx.REPLY_HEADER.finditer(self.text):
            if self.taken(match.start()):
                continue
            after = match.end() + 1
            following = [
                line for line in self.lines if line[0] >= after and not _blank(self.text, line)
            ]
            quoted = bool(following) and _QUOTE_MARKERS.match(self.text, *following[0]) is not None
            self.add(match.start(), match.end() if quoted else end_of_text, "forwarded")

    def _header_block(self, index: int) -> bool:
        keys: set[str] = set()
        for a, b in self.lines[index : index + 6]:
            header = lx.MAIL_HEADER.match(self.text, a, b)
            if header is None:
                break
            keys.add(header.group("key").lower())
        return len(keys) >= 2

    # 4. indented code blocks
    def indented(self) -> None:
        block: list[int] = []  # start of the first body, end of the last line

        def close() -> None:
            if block:
                self.add(block[0], block[1], "indented")
                block.clear()

        # Only after a blank line: leading spaces at the start of a message are not code.
        previous_blank = False
        for a, b in self.lines:
            blank = _blank(self.text, (a, b))
            body = _INDENTED.match(self.text, a, b)
            starts = previous_blank and body is not None and not _LIST_ITEM.match(self.text, a, b)
            if body is not None and not self.taken(a) and (block or starts):
                if not block:
                    block.extend((body.start("body"), b))
                block[1] = b
            elif not blank:
                close()
            previous_blank = blank
        close()

    # 5. chat transcripts
    def transcripts(self) -> None:
        run: list[tuple[_Line, str, bool]] = []
        for line in [*self.lines, (len(self.text), len(self.text))]:
            a, b = line
            match = None if self.taken(a) else _SPEAKER_LINE.match(self.text, a, b)
            speaker = match.group("speaker").strip("<>").lower() if match else ""
            if match and speaker not in lx.NOT_A_SPEAKER:
                run.append((line, speaker, match.group("stamp") is not None))
                continue
            if match is None and run and _blank(self.text, line) and a < len(self.text):
                continue
            speakers = [s for _, s, _ in run]
            stamped = sum(1 for _, _, s in run if s)
            if len(run) >= 2 and (len(set(speakers)) < len(speakers) or stamped >= 2):
                self.add(run[0][0][0], run[-1][0][1], "transcript")
            run = []

    # 6. quotations
    def quotations(self) -> None:
        for a, b in list(self.free()):
            self._quotations_in(a, b)

    def _quotations_in(self, a: int, b: int) -> None:
        text = self.text
        position = a
        while position < b:
            opening = self._next_opening(position, b)
            if opening is None:
                return
            closers = _CLOSERS[text[opening]]
            close = self._closing(opening, b, closers)
            introduced = self.introduced(a, opening)
            if close is None:
                if introduced:
                    self.add(opening + 1, b, "quotation")
                    return
                position = opening + 1
                continue
            body = text[opening + 1 : close]
            # A message that is nothing but one quotation has no one else to attribute it to.
            whole = self.first_word > opening and self.last_word <= close + 1
            if not whole and (_pasted(body) or (introduced and _WORDS.search(body))):
                self.add(opening + 1, close, "quotation")
            position = close + 1

    def _next_opening(self, start: int, end: int) -> int | None:
        text = self.text
        for i in range(start, end):
            char = text[i]
            if char not in _CLOSERS:
                continue
            before = text[i - 1] if i > 0 else " "
            after = text[i + 1] if i + 1 < len(text) else " "
            if after.isspace() and char not in "«‹":  # noqa: RUF001
                continue
            if char in "\"'" and before not in _OPEN_AFTER:
                continue
            if char == "‘" and before.isalnum():  # noqa: RUF001
                continue
            if char == "'" and (not after.isalnum() or _ELISION.match(self.text, i)):
                continue
            return i
        return None

    def _closing(self, opening: int, end: int, closers: str) -> int | None:
        text = self.text
        opener = text[opening]
        depth = 0
        for i in range(opening + 1, end):
            self.scan_budget -= 1
            if self.scan_budget < 0:
                return None
            char = text[i]
            if char == "\n" and opener == "'":
                return None  # a straight single quote does not run over lines
            if opener not in closers and char == opener:
                depth += 1
                continue
            if char not in closers:
                continue
            after = text[i + 1] if i + 1 < len(text) else " "
            if char in "'’" and (after.isalnum() or text[i - 1].isspace()):  # noqa: RUF001
                continue  # an apostrophe ("don't")
            if char == "'" and text[i - 1] in "sS" and not after.isalnum():
                continue  # a plural possessive ("others' opinions")
            if depth:
                depth -= 1
                continue
            return i
        return None

    def _sentence_before(self, floor: int, position: int) -> str:
        """The sentence that runs up to `position` (a lead-in is short: looking back a few
        hundred characters at most keeps a long paste linear)."""
        text = self.text
        floor = max(floor, position - _LEAD_IN_REACH)
        start = position
        while start > floor:
            char = text[start - 1]
            if char == "\n" or (char in ".!?…" and start < position and text[start].isspace()):
                break
            start -= 1
        return text[start:position].strip()

    def lead_in(self, lead: str) -> bool:
        """`is_lead_in`, within the message's budget of lead-in characters."""
        self.lead_budget -= len(lead)
        return self.lead_budget >= 0 and is_lead_in(lead)

    def introduced(self, floor: int, position: int) -> bool:
        """A lead-in, or a task on the text ("translate"), runs up to the quotation mark."""
        if self.lead_budget < 0:
            return False
        lead = self._sentence_before(floor, position)
        return self.lead_in(lead) or (
            self.lead_budget >= 0 and lx.QUOTATION_TASK.search(lead) is not None
        )

    # 7. lead-ins
    def lead_ins(self) -> None:
        text = self.text
        for a, b in list(self.free()):
            for colon in re.finditer(r"[:：](?=\s|$)", text[a:b]):  # noqa: RUF001
                position = a + colon.start()
                if self.lead_budget < 0:
                    break
                if not self.lead_in(self._sentence_before(a, position)):
                    continue
                rest = position + 1
                while rest < len(text) and text[rest].isspace():
                    rest += 1
                # A quotation, fence or ">" block after the colon had its own chance above.
                if rest < len(text) and not self.taken(rest) and text[rest] not in _SHOWN:
                    self.add(rest, len(text), "lead_in")
                    return
        if self._lead_in_line() or self.spans:
            return
        self._closing_request()

    def _lead_in_line(self) -> bool:
        """A request alone on its line ("Proofread my cover letter") above the text itself."""
        text = self.text
        for index, (a, b) in enumerate(self.lines[:-1]):
            line = text[a:b].strip()
            if not line or self.taken(a) or len(_WORDS.findall(line)) > 15:
                continue
            if not (self.lead_in(line) and lx.DEICTIC.search(line)):
                continue
            rest = [x for x in self.lines[index + 1 :] if not _blank(text, x)]
            if rest:
                self.add(rest[0][0], len(text), "lead_in")
                return True
        return False

    def _closing_request(self) -> None:
        """ "<pasted text>\n\nCan you summarize this email?": the text above the request."""
        text = self.text
        content = [x for x in self.lines if not _blank(text, x)]
        if len(content) < 2:
            return
        a, b = content[-1]
        last = text[a:b].strip()
        separated = _blank(text, self.lines[self.lines.index(content[-1]) - 1])
        refers = re.search(r"\b(?:this|that|the above|above|these)\b", last, re.I)
        above = text[content[0][0] : a]
        # Only a text long enough to have been pasted: a short statement above a request
        # ("I'm vegetarian.\n\nCan you review this post?") stays the user's own.
        long_enough = len(_WORDS.findall(above)) >= 20
        short_request = len(_WORDS.findall(last)) <= 15
        if separated and refers and long_enough and short_request and self.lead_in(last):
            self.add(content[0][0], a, "lead_in")


def quoted_spans(text: str) -> list[QuotedSpan]:
    """The spans of `text` that are someone else's words (see the module docstring)."""
    finder = _Finder(text)
    finder.fenced()
    finder.quote_markers()
    finder.forwarded()
    finder.indented()
    finder.transcripts()
    finder.quotations()
    finder.lead_ins()
    return _merge(finder.spans)


def pieces(text: str) -> list[tuple[int, int, bool]]:
    """`text` cut into consecutive `(start, end, quoted)` pieces that cover all of it."""
    found: list[tuple[int, int, bool]] = []
    cursor = 0
    for span in quoted_spans(text):
        if span.start > cursor:
            found.append((cursor, span.start, False))
        found.append((span.start, span.end, True))
        cursor = span.end
    if cursor < len(text):
        found.append((cursor, len(text), False))
    return found


# Last, so that what imports these names gets them guarded (permem.prefilter).
guard_patterns(globals())
