"""Households on one account: per-person profiles that carry `subject`
`<account>:<person>`."""

from __future__ import annotations

from dataclasses import dataclass

from permem.corpus import pools
from permem.corpus.templates import Scenario, template

Options = tuple[str, ...]


@dataclass(frozen=True)
class Profiles:
    """The holder's taste, a household member's opposite one, and a request for either."""

    member: str  # "elder" or "teen"
    holder: Options
    other: Options
    other_more: Options
    asks: Options


PROFILES = (
    Profiles(
        member="elder",
        holder=(
            "HIIT and burpees for me, I like being wrecked after a workout.",
            "Hard workouts please, sprints and jumping, as intense as it gets.",
            "My workouts should be high intensity, box jumps and kettlebells.",
            "I love a brutal circuit workout, lots of jumping.",
        ),
        other=(
            "I had a new hip put in, so nothing high impact, gentle walking and swimming only.",
            "At my age a workout means slow stretching, no jumping at all please.",
            "My knees are bad, I need seated exercises, nothing on the floor.",
            "Gentle workouts for me, chair yoga and short walks.",
        ),
        other_more=(
            "And I'd like the instructions read out slowly.",
            "I get dizzy if I get up too fast, keep that in mind.",
            "Mornings are best for my exercise, after breakfast.",
            "I do my walk with the dog, 20 minutes.",
        ),
        asks=(
            "plan a workout for me this morning",
            "give me a 20 minute workout",
            "what exercise should I do today?",
            "build my workout routine for the week",
        ),
    ),
    Profiles(
        member="elder",
        holder=(
            "I salt everything, bland food is my nightmare.",
            "Lots of salt and soy sauce in my cooking please.",
            "I like my food properly salty, don't be shy with the salt.",
            "Season everything heavily for me, salt and more salt.",
        ),
        other=(
            "The doctor has me on a low-salt diet, so no added salt in my food.",
            "I must keep salt down for my heart, no salty sauces.",
            "Nothing salty for me, my blood pressure is being watched.",
            "I'm not allowed much salt, please leave it out of my recipes.",
        ),
        other_more=(
            "And soft foods are easier for me, my teeth are not great.",
            "I like my vegetables cooked very soft.",
            "Small portions for me, I don't eat much any more.",
            "No spicy food for me either.",
        ),
        asks=(
            "how should I season the soup for my lunch?",
            "give me a recipe for my dinner, something savoury",
            "what should I cook for myself tonight?",
            "adjust this stew recipe for me",
        ),
    ),
    Profiles(
        member="teen",
        holder=(
            "Quiet classical music for me, piano or strings.",
            "When I ask for music I mean classical, Bach or Debussy.",
            "I listen to calm classical music, nothing with a beat.",
            "Classical music only for me, softly.",
        ),
        other=(
            "only drum and bass for me, LOUD",
            "i listen to drill and grime, nothing old",
            "put on hyperpop, the more chaotic the better",
            "heavy metal or nothing, turn it up",
        ),
        other_more=(
            "and never play anything my parents like",
            "also no songs older than 2020",
            "and I want the explicit versions",
            "make the playlists at least 3 hours",
        ),
        asks=(
            "play some music while I cook",
            "make me a playlist for tonight",
            "what music should I put on for my homework?",
            "queue some music for my bath",
        ),
    ),
    Profiles(
        member="teen",
        holder=(
            "I go to bed at 10 and wake up at 6, set my alarms around that.",
            "Lights out at 10 for me, alarm at 6 on weekdays.",
            "My alarm is 6am every weekday, bed by 10.",
            "I'm up at 6, so my bedtime reminder is 9:30.",
        ),
        other=(
            "my alarm should be 7:45 not a minute earlier",
            "never wake me before 8 on school days, bus is at 8:20",
            "I sleep till 11 on weekends, don't set any alarm",
            "alarm at 7:30 please, and snooze allowed",
        ),
        other_more=(
            "and I stay up till midnight on fridays",
            "and my alarm stays off in the school holidays",
            "and no bedtime reminders for me, that's embarrassing",
            "I want the alarm to be a song, not a beep",
        ),
        asks=(
            "set my alarm for tomorrow",
            "when should my alarm go off on Monday?",
            "set up my bedtime and alarm for the week",
            "what time should I wake up tomorrow?",
        ),
    ),
)


@template(
    "shared-device",
    "per-person-subjects",
    "A household member's messages carry `subject` `<account>:<person>` and state the opposite "
    "of the holder on the same topic; the member's query finds only the member's claims, the "
    "holder's query only the holder's; neither statement supersedes the other.",
)
def per_person_subjects(s: Scenario) -> None:
    d = s.draw
    prof = d.any(PROFILES)
    if prof.member == "elder":
        name = s.other_person().first
    else:
        name = d.any(pools.CHILD_NAMES)
    member = f"{s.account}:{name.lower()}"
    device = f"sess-{d.any(('living-room-speaker', 'family-tablet', 'kitchen-display'))}-{s.code}"
    # The holder speaks as the account (sometimes saying so in the subject field).
    own_fields = {"subject": s.account} if d.chance(0.4) else {}
    member_first = d.chance(0.5)
    start = d.between(0, 3)
    holder_day, member_day = (start + 4, start) if member_first else (start, start + 4)

    mine = s.chat(s.day(holder_day, 8), session=device, **own_fields).user(d.pick(prof.holder))
    c = s.chat(s.day(member_day, 17), subject=member, session=device)
    if d.chance(0.4):
        c.user(d.pick(("hi", "hello there", "can you hear me?", "ok is this my profile?")))
        c.assistant(
            d.pick((f"Hi {name}!", "Yes, I'm here.", f"Hello {name}, this is your profile."))
        )
    theirs = c.tell(d.pick(prof.other), d.pick(prof.other_more), acks=("Okay.", "Noted."))
    ask = d.pick(prof.asks)
    when = s.day(12, 18)
    s.nightly()
    s.recall(
        s.ask(ask, when, subject=member, relevant=theirs, forbidden=[mine]),
        s.ask(ask, when, relevant=[mine], forbidden=theirs),
    )
