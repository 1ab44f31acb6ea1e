"""Classes of issue 15, eleventh round, in wordings of our own (not the corpus's): a change
taken back by its kind ("I've cut out sugar" ends "chocolate at my desk"), a return to what
held before said without "I" ("Went back to Windows"), the change a return ends, and a
product named with an article ("the Mac"), which is no person.

Each was found by writing a class's wordings ourselves for a template whose held-apart
variants failed, and running them through the nightly run and recall, never by reading them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from permem import policy
from permem.extraction.lexicon import PAST_HABIT
from permem.extraction.modality import lapse_then_return, retracts, returns, undecided_beside
from permem.extraction.sent_rules import scheduled_delivery
from permem.nlp import load_pipeline
from permem.records import Kind
from permem.redaction import Redactor
from permem.settings import Settings
from tests.conftest import days, ingest, read_claims, recalled_claims, user_line

TS = datetime(2026, 5, 2, 12, 0, tzinfo=UTC)  # a Saturday


def nightly_of(settings: Settings, tmp_path: Path, lines: list[tuple[str, str]]) -> None:
    """Run the nightly job over ana's messages `lines` (text, RFC 3339 time), each in a
    conversation of its own."""
    ingest(settings, tmp_path / "log.jsonl", [
        user_line(f"m{n}", text, ts=ts, conversation_id=f"c{n}")
        for n, (text, ts) in enumerate(lines, start=1)
    ])  # fmt: skip


# ---------------------------------------------------------------------------- kinds


@pytest.mark.parametrize(
    ("taken_back", "claim", "named"),
    [
        ("I've cut out caffeine", "a latte every morning", True),
        ("Doctor says no more caffeine", "cold brew is my afternoon pick-me-up", True),
        ("I'm teetotal now", "Friday nights are for a couple of pints", True),
        ("no alcohol at all for me now", "I love a glass of red wine with dinner", True),
        ("We dropped all our streaming services", "We pay for Disney+ for the kids", True),
        ("Deleted all my social media", "I'm on Instagram most evenings", True),
        ("I've given up meat", "a steak most Fridays", True),
        ("Quit smoking last month", "about five cigarettes a day", True),
        ("cut out sugar completely", "chocolate at my desk every afternoon", True),
        # A thing of two words is named only by both: white wine is no flat white.
        ("no more caffeine", "white wine with fish", False),
        ("no more white wine", "a flat white every day", False),
        # A kind names its things, not the other way round, and not things of other kinds.
        ("no more lattes", "I love my caffeine", False),
        ("I've given up meat", "salmon on Fridays", False),
        ("Quit social media", "I read the news on the train", False),
    ],
)  # fmt: skip
def test_a_kind_taken_back_names_its_things(taken_back: str, claim: str, named: bool) -> None:
    words = policy.reference_words(claim)
    retracted = policy.retracted_words(taken_back) | policy.ruled_out_words(taken_back)
    assert policy.named_by_kind(retracted, words) is named


@pytest.mark.parametrize(
    ("before", "change", "question", "kept"),
    [
        ("I have a latte every morning.", "My doctor told me to cut out caffeine, so I have.",
         "what should I order at the cafe?", "My doctor told me to cut out caffeine, so I have"),
        ("I snack on chocolate at my desk every afternoon.", "I've cut out sugar completely.",
         "ideas for an afternoon snack at work", "I've cut out sugar completely"),
        ("I smoke about five cigarettes a day.", "Quit smoking last month!",
         "help me plan a healthier week", "Quit smoking last month"),
    ],
)  # fmt: skip
def test_what_a_kind_takes_back_is_no_longer_used(
    hashing: Settings, tmp_path: Path, before: str, change: str, question: str, kept: str
) -> None:
    nightly_of(hashing, tmp_path, [
        (before, "2026-03-02T10:00:00Z"),
        (change, "2026-04-02T10:00:00Z"),
    ])  # fmt: skip
    assert recalled_claims(hashing, question, ts="2026-06-01T10:00:00Z") == [kept]


# ---------------------------------------------------------------------------- returns


@pytest.mark.parametrize(
    ("said", "is_return"),
    [
        ("Went back to Windows, Linux was too fiddly.", True),
        ("Switched back to Lightroom, Darktable was too slow.", True),
        ("Back on the train since Monday, same route as before.", True),
        ("Back to the Pixel, the iPhone wasn't for me.", True),
        ("Got the bike back, same commute as I used to have.", True),
        # A day of return, or work after a leave, is no return to an old state.
        ("I'm back on the 22nd.", False),
        ("Back by Monday, promise.", False),
        ("Back to work on Monday after my leave.", False),
        ("Can we go back to the first option?", False),
    ],
)  # fmt: skip
def test_a_return_is_said_without_i(said: str, is_return: bool) -> None:
    assert returns(said) is is_return
    if is_return:  # a return is a retraction cue too; what is no return may still be one
        assert retracts(said)


@pytest.mark.parametrize(
    ("said", "past"),
    [
        ("same commute as I used to have", False),
        ("I ride it like I used to", False),
        ("I used to cycle to work", True),
    ],
)
def test_a_comparison_with_the_past_is_no_past_habit(said: str, past: bool) -> None:
    assert (PAST_HABIT.search(said) is not None) is past


def test_a_return_said_with_a_start_lasts() -> None:
    [read] = read_claims("Back on the train since Monday, same route as before.", ts=TS)
    assert days(read) == ("2026-05-02", None)  # "since Monday" is no end


@pytest.mark.parametrize(
    ("first", "change", "back", "question", "recalled"),
    [
        ("I run Windows on my desktop.", "Switched to Linux Mint last month.",
         "Went back to Windows, Linux was too fiddly.", "how do I install a printer driver?",
         ["I run Windows on my desktop", "Went back to Windows, <PERSON> was too fiddly"]),
        ("I edit photos in Lightroom.", "Trying Darktable instead, it's free.",
         "Switched back to Lightroom, Darktable was too slow.", "how do I batch export my photos?",
         ["I edit photos in Lightroom", "Switched back to Lightroom, Darktable was too slow"]),
        ("My tablet is an iPad with the Pencil.",
         "New tablet: a Galaxy Tab. Everything's Android now.",
         "I returned the Galaxy. Same tablet as before now.",
         "how do I take a screenshot on my tablet?",
         ["My tablet is an iPad with the Pencil", "Same tablet as before now",
          "I returned the Galaxy"]),
    ],
)  # fmt: skip
def test_a_return_ends_the_change_it_names(
    hashing: Settings,
    tmp_path: Path,
    first: str,
    change: str,
    back: str,
    question: str,
    recalled: list[str],
) -> None:
    nightly_of(hashing, tmp_path, [
        (first, "2026-03-02T10:00:00Z"),
        (change, "2026-04-02T10:00:00Z"),
        (back, "2026-05-02T10:00:00Z"),
    ])  # fmt: skip
    got = recalled_claims(hashing, question, ts="2026-06-01T10:00:00Z")
    assert sorted(got) == sorted(recalled), got


def test_a_return_keeps_what_it_names_that_was_no_change(hashing: Settings, tmp_path: Path) -> None:
    nightly_of(hashing, tmp_path, [
        ("I ride a road bike to work.", "2026-03-02T10:00:00Z"),
        ("My bike has a blue frame.", "2026-03-20T10:00:00Z"),
        ("Back on the bike this week, same route as before.", "2026-05-02T10:00:00Z"),
    ])  # fmt: skip
    got = recalled_claims(hashing, "what colour is my bike?", ts="2026-06-01T10:00:00Z")
    assert "My bike has a blue frame" in got, got


# ---------------------------------------------------------------------------- names


@pytest.fixture(scope="module")
def redactor() -> Redactor:
    return Redactor(load_pipeline())


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("I gave the Mac back.", "the Mac"),
        ("Back to the Pixel, the iPhone wasn't for me.", "the Pixel"),
        ("Switched to Linux Mint last month.", "Linux Mint"),
    ],
)
def test_a_product_with_an_article_is_no_person(redactor: Redactor, text: str, kept: str) -> None:
    assert kept in redactor.redact(text).redacted


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("I had lunch with a Sarah from accounts.", "Sarah"),
        ("Ask Dr Patel about it.", "Patel"),
        ("My sister Anna loves jazz.", "Anna"),
    ],
)
def test_people_are_still_names(redactor: Redactor, text: str, name: str) -> None:
    assert name not in redactor.redact(text).redacted


def test_a_return_after_its_own_message_took_back_the_change(
    hashing: Settings, tmp_path: Path
) -> None:
    """The return names nothing that was replaced ("my old e-reader"), but its own message
    took back the change: what the change had replaced holds again."""
    nightly_of(hashing, tmp_path, [
        ("I read on a Kobo Libra.", "2026-03-02T10:00:00Z"),
        ("got a Kindle for my birthday, goodbye Kobo", "2026-04-02T10:00:00Z"),
        ("The Kindle went back to the shop, I'm on my old e-reader again, same as before.",
         "2026-05-02T10:00:00Z"),
    ])  # fmt: skip
    got = recalled_claims(
        hashing, "how do I load an epub on my e-reader?", ts="2026-06-01T10:00:00Z"
    )
    assert "I read on a Kobo Libra" in got, got
    assert not any("birthday" in claim for claim in got), got


def test_a_denied_again_is_no_return(hashing: Settings, tmp_path: Path) -> None:
    nightly_of(hashing, tmp_path, [
        ("I gave up sweets years ago, fruit only.", "2026-03-02T10:00:00Z"),
        ("ate a slice of cake at the office party, not starting again though",
         "2026-04-02T10:00:00Z"),
    ])  # fmt: skip
    got = recalled_claims(hashing, "suggest a dessert for me", ts="2026-06-01T10:00:00Z")
    assert got == ["I gave up sweets years ago, fruit only"], got


# ---------------------------------------------------------------------------- deliveries


@pytest.mark.parametrize(
    ("said", "standing"),
    [
        ("Give me the market update at 9.", True),
        ("Make the news briefing 8 instead.", True),
        ("I want my horoscope at breakfast.", True),
        ("Daily news roundup at 8, please.", True),
        ("Send the weather at 6:30 every morning.", True),
        ("Best time for my daily recap is 8pm.", True),
        # One occasion, a question about the world, or what the user will do.
        ("Send me the summary at 9 tonight.", False),
        ("What's the weather at 3pm?", False),
        ("I'll send the report at 5pm.", False),
        ("I love a long breakfast.", False),
    ],
)  # fmt: skip
def test_when_something_sent_arrives_is_a_standing_arrangement(said: str, standing: bool) -> None:
    assert scheduled_delivery(said) is standing
    read = read_claims(said, ts=TS)
    assert any(r.kind is Kind.INSTRUCTION for r in read) is standing, read


@pytest.mark.parametrize(
    ("first", "change", "question", "in_app1"),
    [
        ("Give me the market update at 9.", "Make the market update 11 instead, in this app.",
         "when will my market update come tomorrow?",
         "Make the market update 11 instead, in this app"),
        ("Daily news roundup at 8, please.", "Here I'd rather get the news roundup at noon.",
         "schedule my news roundup for Saturday", "Here I'd rather get the news roundup at noon"),
    ],
)  # fmt: skip
def test_a_delivery_changed_in_one_app_stays_in_the_other(
    hashing: Settings, tmp_path: Path, first: str, change: str, question: str, in_app1: str
) -> None:
    ingest(hashing, tmp_path / "log.jsonl", [
        user_line("m1", first, ts="2026-03-02T10:00:00Z", tenant="app1"),
        user_line("m2", first, ts="2026-03-03T10:00:00Z", tenant="app2", conversation_id="c2"),
        user_line("m3", change, ts="2026-03-10T10:00:00Z", tenant="app1", conversation_id="c3"),
    ])  # fmt: skip
    assert recalled_in(hashing, "app1", question) == [in_app1]
    assert recalled_in(hashing, "app2", question) == [first.rstrip(".")]


def recalled_in(settings: Settings, tenant: str, text: str) -> list[str]:
    from permem.recall import Recaller, parse_query
    from permem.runtime import runtime

    rt = runtime(settings)
    query = {
        "query_id": "q", "tenant": tenant, "actor": "ana", "subject": "ana",
        "purpose": "assistant", "scope": "global", "ts": "2026-03-20T12:00:00Z", "text": text,
    }  # fmt: skip
    return [r.record.claim for r in Recaller(rt.db, rt.index, rt.embedder).recall(
        parse_query(query)).records]  # fmt: skip


# ---------------------------------------------------------------------------- where one works


def test_where_the_user_works_from_changes_from_its_date(hashing: Settings, tmp_path: Path) -> None:
    nightly_of(hashing, tmp_path, [
        ("I work from home, no commute at all.", "2026-03-02T10:00:00Z"),
        ("Heads up: starting June 1 we're hybrid, three days in the office.",
         "2026-04-02T10:00:00Z"),
    ])  # fmt: skip
    before = recalled_claims(hashing, "plan my week", ts="2026-05-11T10:00:00Z")
    after = recalled_claims(hashing, "plan my week", ts="2026-06-13T10:00:00Z")
    assert before == ["I work from home, no commute at all"], before
    assert after == ["starting June 1 we're hybrid, three days in the office"], after


# ---------------------------------------------------------------------------- undecided beside


@pytest.mark.parametrize(
    "weighed",
    [
        "A vegan month, maybe. Still thinking.",
        "Going vegan with my sister? I'll think about it.",
        "My sister wants me to go vegan with her. Haven't decided.",
        "Haven't decided anything. Considering a vegan month.",
    ],
)
def test_a_remark_beside_a_sentence_leaves_it_undecided(
    hashing: Settings, tmp_path: Path, weighed: str
) -> None:
    nightly_of(hashing, tmp_path, [
        ("Omnivore here, I love a roast chicken.", "2026-04-02T10:00:00Z"),
        (weighed, "2026-04-10T10:00:00Z"),
    ])  # fmt: skip
    got = recalled_claims(hashing, "what should I cook tonight?", ts="2026-05-01T10:00:00Z")
    assert sorted(got) == ["I love a roast chicken", "Omnivore here"], got


@pytest.mark.parametrize(
    ("text", "undecided"),
    [
        ("A vegan month, maybe. Still thinking.", True),
        # A remark of its own is no remark about its neighbour.
        ("I'm vegan. Still not sure what to cook for the party on Saturday though.", False),
    ],
)
def test_only_a_short_remark_covers_its_neighbour(text: str, undecided: bool) -> None:
    end = text.index(".") + 1
    assert undecided_beside(text, 0, end) is undecided


# ---------------------------------------------------------------------------- starts said before


@pytest.mark.parametrize(
    ("said", "start"),
    [
        ("On 1 September the new rota starts and I'm on early shifts.", "2026-09-01"),
        ("My new job starts on the 15th, I'll be working nights.", "2026-05-15"),
        ("The new timetable starts Monday. I'll take the 7:40 bus.", "2026-05-04"),
    ],
)
def test_a_start_said_before_a_claim_starts_it(said: str, start: str) -> None:
    last = read_claims(said, ts=TS)[-1]
    assert days(last)[0] == start, last


def test_what_starts_later_does_not_move_what_is_said_before_it() -> None:
    vegan = read_claims("I'm vegan. My course starts on the 10th.", ts=TS)[0]
    assert days(vegan) == ("2026-05-02", None)


@pytest.mark.parametrize(
    ("said", "until"),
    [
        # Every week at work, no end.
        ("From 20 August we're in the office Tuesday to Thursday.", None),
        ("After the 20th of August I'll be back at HQ Tuesday to Thursday.", None),
        # One stretch.
        ("I'm away Tuesday to Thursday.", "2026-05-08"),
    ],
)
def test_a_run_of_weekdays_at_work_is_every_week(said: str, until: str | None) -> None:
    [read] = read_claims(said, ts=TS)
    assert days(read)[1] == until, read


# ---------------------------------------------------------------------------- stand-ins for now


@pytest.mark.parametrize(
    "stand_in",
    [
        "My Pixel's screen died, so I'm on my partner's old iPhone until the repair shop calls.",
        "My phone got stolen, using a cheap burner for now until the insurance pays out.",
    ],
)
def test_a_device_used_for_now_is_a_stand_in(
    hashing: Settings, tmp_path: Path, stand_in: str
) -> None:
    nightly_of(hashing, tmp_path, [
        ("For phone stuff: I use an iPhone 14.", "2026-02-10T10:00:00Z"),
        (stand_in, "2026-03-05T10:00:00Z"),
    ])  # fmt: skip
    later = recalled_claims(
        hashing, "how do I block a number that keeps calling me?", ts="2026-04-22T10:00:00Z"
    )
    assert later == ["For phone stuff: I use an iPhone 14"], later


@pytest.mark.parametrize(
    ("said", "start"),
    [
        # "We'll" is the speaker too.
        ("We'll be in the office from September.", "2026-09-01"),
        # A frequency before the start is no count of days before it.
        ("We're all back in the office three days a week from September.", "2026-09-01"),
    ],
)
def test_a_change_from_a_later_date_said_with_we(said: str, start: str) -> None:
    [read] = read_claims(said, ts=TS)
    assert read.topic == "workplace"
    assert days(read) == (start, None), read


# ---------------------------------------------------------------------------- stays, longer said


@pytest.mark.parametrize(
    ("said", "window"),
    [
        ("Quick heads up before I forget: for the whole of next month I'll be looking after my "
         "parents' farmhouse just outside Cork, so plan around that.",
         ("2026-06-01", "2026-07-01")),
        ("So, news: work is sending me to our Lisbon team from the 3rd until the 21st of next "
         "month, which means local is Lisbon then.", ("2026-06-03", "2026-06-22")),
        ("We're renting a little place by the sea in Brittany for most of August, so "
         "suggestions should be for there.", ("2026-08-01", "2026-09-01")),
    ],
)  # fmt: skip
def test_a_stay_said_at_length_is_where_the_user_is(said: str, window: tuple[str, str]) -> None:
    [read] = [r for r in read_claims(said, ts=TS) if r.topic == "home"]
    assert days(read) == window, read


# ---------------------------------------------------------------------------- rules for others


@pytest.mark.parametrize(
    "rule",
    [
        "When booking on behalf of my manager, always use the corporate card.",
        "Anything I arrange for colleagues: economy class unless the flight is over five hours.",
    ],
)
def test_a_standing_rule_for_others_is_kept_for_others(
    hashing: Settings, tmp_path: Path, rule: str
) -> None:
    nightly_of(hashing, tmp_path, [
        (rule, "2026-06-02T10:00:00Z"),
        ("My own flights: aisle seat, no red-eyes.", "2026-06-02T10:01:00Z"),
    ])  # fmt: skip
    for_boss = recalled_claims(
        hashing, "which Wednesday flight to Leipzig is best for Mateus?", ts="2026-06-06T10:00:00Z"
    )
    assert for_boss == [rule.rstrip(".")], for_boss
    own = recalled_claims(
        hashing, "book me a flight to Leipzig on Wednesday", ts="2026-06-06T10:00:00Z"
    )
    assert own == ["My own flights: aisle seat, no red-eyes"], own


# ---------------------------------------------------------------------------- one piece's format


@pytest.mark.parametrize(
    ("rule", "exception", "task", "later"),
    [
        ("Always answer me in English.", "For the Berlin client deck only, German please.",
         "draft the title slide for the deck", "how do I descale a kettle?"),
        ("Metric units for everything, please.",
         "The recipe I'm sending my US friend should use cups.",
         "convert the flour amount in the recipe", "how much flour for a loaf of bread?"),
    ],
)  # fmt: skip
def test_one_piece_said_by_only_or_by_whom_it_goes_to(
    hashing: Settings, tmp_path: Path, rule: str, exception: str, task: str, later: str
) -> None:
    nightly_of(hashing, tmp_path, [
        (rule, "2026-03-15T12:00:00Z"),
        (exception, "2026-04-08T15:00:00Z"),
    ])  # fmt: skip
    assert recalled_claims(hashing, task, ts="2026-04-08T15:20:00Z") == [exception.rstrip(".")]
    assert recalled_claims(hashing, later, ts="2026-05-23T12:00:00Z") == [rule.rstrip(".")]


# ---------------------------------------------------------------------------- a lapse, then back


@pytest.mark.parametrize(
    ("rule", "lapse", "question"),
    [
        ("I don't drink alcohol at all.",
         "Had a glass of champagne at my sister's wedding, back on the wagon now.",
         "what should I order at the bar tonight?"),
        ("No caffeine for me.",
         "I had an espresso this morning, first in months. Back to herbal tea again now.",
         "what should I drink this afternoon?"),
        ("I stopped eating sugar.", "Caved and had cake at the office party. Back to my usual "
         "today.", "suggest a snack"),
        ("I'm vegetarian.", "Slipped and had a burger last night, but I'm back on track.",
         "plan my dinners this week"),
    ],
)  # fmt: skip
def test_a_lapse_then_a_return_is_about_that_once(
    hashing: Settings, tmp_path: Path, rule: str, lapse: str, question: str
) -> None:
    nightly_of(hashing, tmp_path, [
        (rule, "2026-05-12T10:00:00Z"),
        (lapse, "2026-05-30T10:00:00Z"),
    ])  # fmt: skip
    got = recalled_claims(hashing, question, ts="2026-07-24T10:00:00Z")
    assert got == [rule.rstrip(".")], got


@pytest.mark.parametrize(
    ("text", "lapse"),
    [
        ("Had a glass of champagne at my sister's wedding, back on the wagon now.", True),
        ("I had a MacBook for a year. Went back to Windows.", False),
        ("Had cake at the party last night.", False),
    ],
)
def test_a_lapse_needs_its_once_and_the_return(text: str, lapse: bool) -> None:
    assert lapse_then_return(text) is lapse


@pytest.mark.parametrize(
    ("said", "ends"),
    [
        # A change that starts with the period named lasts: no end of its own.
        ("From this week my manager is Ana.", None),
        ("Tomas has a new swimming coach from this term.", None),
        ("After this month I'm on the evening rota.", None),
        # Unless the sentence names where it ends.
        ("From this week to the 30th I'm on nights.", "2026-05-31"),
    ],
)
def test_what_starts_with_this_week_or_month_lasts(said: str, ends: str | None) -> None:
    [claim] = read_claims(said, ts=TS)
    assert days(claim)[1] == ends, claim
