"""Word lists of content the user shows rather than says (`permem.extraction.quoted`):
document nouns, text tasks, presenting and received-from phrases, mail lines and headers.
Re-exported by `permem.extraction.lexicon`."""

from __future__ import annotations

import re

from permem.extraction.wordlist import words
from permem.prefilter import guard_patterns

# Content the user shows rather than says (`permem.extraction.quoted`): the nouns that name
# a piece of text, the tasks done on one, and the ways of presenting one.
DOCUMENT_NOUN = words(
    r"e-?mails?", r"mails?", r"messages?", "msgs?", r"texts?", r"dms?", r"reviews?", r"posts?",
    r"comments?", r"letters?", r"notes?", r"memos?", r"chats?", r"transcripts?",
    r"conversations?", r"threads?", r"articles?", r"essays?", r"paragraphs?", r"passages?",
    r"documents?", r"docs?", r"papers?", r"reports?", r"tweets?", "replies", "reply",
    r"responses?", r"announcements?", r"drafts?", r"snippets?", "code", r"scripts?",
    r"logs?", r"excerpts?", r"quotes?", "story", "stories", "bio", r"descriptions?",
    r"listings?", r"statements?", "speech", r"poems?", "lyrics", "feedback",
    r"complaints?", r"newsletters?", r"pages?", r"sections?", "cover letter", "resume",
    "cv", "abstract", r"captions?", "blurb", r"proposals?", r"contracts?", r"invitations?",
    r"voicemails?", r"sms", r"whatsapps?", r"slack", r"ads?", r"job posting", "wording",
    r"sentences?", r"lines?", "the following", "below",
)  # fmt: skip
TEXT_TASK = words(
    r"summari[sz]e", r"summari[sz]ing", "summary of", "tl;?dr", "translate", "translating",
    "translation of", "proofread", "proof-read", "reply to", "respond to", "answer",
    "rewrite", "rephrase", "paraphrase", "reword", "edit", "review", "check", "fix",
    "improve", "shorten", "polish", "correct", "critique", "grade", "evaluate",
    r"analy[sz]e", "explain", "interpret", "decode", "format", "clean up", "look at",
    "look over", "go over", "read", "what do you think", "what do you make", "thoughts on",
    "opinion on", "feedback on", "what does", "is this", "how should i",
)  # fmt: skip
# The task done directly on a quotation that follows it: `translate "I am vegetarian"`.
QUOTATION_TASK = re.compile(
    r"\b(?:summari[sz]e|translate|proofread|rewrite|rephrase|paraphrase|reword|spell-?check|"
    r"correct|polish|shorten|reply to|respond to|transcribe|pronounce|meaning of)"
    r"\s*(?:this|that|it|the phrase|the sentence|the line)?\s*$",
    re.IGNORECASE,
)
PRESENTING = re.compile(
    r"(?:^|\b)(?:here'?s|here is|here are|this is|these are|below is|below are|following is|"
    r"see below|pasting|pasted|copied|copy-?pasted|forwarding|i got|i received|we got|"
    r"got this|received this|look at this|check this out|check out this)\b",
    re.IGNORECASE,
)
# Where a clause asks for something: a task on a text counts only there ("can you proofread
# this post:"), not inside a statement ("I always check my email").
REQUEST_CLAUSE = re.compile(
    r"(?:^|[,;:(]\s*|\b(?:and|so|but|then|also|now)\s+)[\W_]{0,3}(?:(?:hey|hi|ok|okay|now|please|"
    r"pls|kindly|quickly|just|can you|could you|would you|will you|help me|i need you to|"
    r"i'd like you to|i want you to|i need to|i have to|how do i|how should i|how can i|"
    r"how would you|what should i|you can|could u|can u)\s+)*(?=" + TEXT_TASK.pattern + ")",
    re.IGNORECASE,
)
# Someone else's text introduced by who produced it: "this is what my boss sent me:".
RECEIVED_FROM = re.compile(
    r"\b(?:sent|forwarded|wrote|posted|texted|emailed|e-mailed|messaged|dm'?ed|left|"
    r"replied|commented|tweeted|published)\b(?:\s+(?:me|us|him|her|them|to me|to us))?"
    r"(?:\s+(?:this|the following|today|yesterday|earlier|just now|back))?\s*$",
    re.IGNORECASE,
)
# Forwarded and replied-to mail: the separator lines, the "On <date>, <name> wrote:" line and
# the header keys of mail clients in a few languages.
FORWARD_LINE = re.compile(
    r"[ \t>]*(?:-{2,}|_{2,}|\*{2,})?\s*(?:forwarded message|original message|forwarded by\b.*|"
    r"message transféré|message d'origine|weitergeleitete nachricht|"
    r"ursprüngliche nachricht|mensaje reenviado|mensaje original)\s*(?:-{2,}|_{2,}|\*{2,})?\s*$|"
    r"[ \t>]*begin forwarded message\s*:?\s*$",
    re.IGNORECASE,
)
REPLY_HEADER = re.compile(
    r"^[ \t]*(?:On|Le|Am|El|Il|Op|Den|Em)\b[^\n]{0,200}?(?:\n[^\n]{0,120}?)?"
    r"\b(?:wrote|a écrit|schrieb|escribió|ha scritto|scrisse|schreef|skrev|escreveu)\s*:[ \t]*$",
    re.MULTILINE,
)
MAIL_HEADER = re.compile(
    r"[ \t>]*(?P<key>from|to|cc|bcc|subject|date|sent|reply-to|de|para|asunto|von|an|betreff|"
    r"objet|à|envoyé|fecha|datum)[ \t]*:[ \t]*\S",
    re.IGNORECASE,
)
# Labels that end in a colon without being somebody speaking.
NOT_A_SPEAKER = frozenset(
    "note notes also ps p.s update edit example examples answer question q a summary tldr "
    "reminder important context background goal goals todo step tip warning fyi btw re "
    "subject from to date sent cc bcc pros cons result results input output error "
    "breakfast lunch dinner monday tuesday wednesday thursday friday saturday sunday "
    "today tomorrow yesterday morning evening night".split()
)
# A word that points at text shown next to the sentence.
DEICTIC = words(
    "this", "these", "that", "the following", "following", "below", "attached", "above",
    "my", "his", "her", "their", "our", "a", "an",
)  # fmt: skip


# Last, so that what imports these names gets them guarded (permem.prefilter).
guard_patterns(globals())
