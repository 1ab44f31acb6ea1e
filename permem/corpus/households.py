"""Households on one account: a child or a partner typing on the holder's account without a
`subject` field (per-person profiles are in `household_profiles`)."""

from __future__ import annotations

from dataclasses import dataclass

from permem.corpus import pools
from permem.corpus.templates import Scenario, template

Options = tuple[str, ...]


@dataclass(frozen=True)
class KidTheme:
    """One topic where the holder's taste and a child's taste collide."""

    holder: Options
    holder_later: Options
    child: Options
    asks: Options


KID_THEMES = (
    KidTheme(
        holder=(
            "I'm into slow Scandinavian crime series, the darker the better.",
            "Give me gritty detective series, Nordic noir is my thing.",
            "My favourite shows are bleak crime dramas, subtitles are fine.",
            "I watch mostly crime series, Scandi ones especially, nothing light.",
        ),
        holder_later=(
            "No laugh tracks please, I can't stand sitcom shows.",
            "I never watch anything dubbed, original audio with subtitles for every series.",
            "Nothing over an hour per episode, I watch my shows on weeknights.",
            "True crime documentary series are great for me too.",
        ),
        child=(
            "I love unicorns and rainbow cartoons!!",
            "my favourite show is the one with the singing ponies",
            "I like cartoons with dragons and princesses, no scary shows",
            "i only watch funny cartoons, crime stuff is boring",
        ),
        asks=(
            "what series should I watch tonight?",
            "recommend a crime show for my weekend",
            "find me a new show to binge after work",
            "pick a drama series for me this week",
        ),
    ),
    KidTheme(
        holder=(
            "I love spicy food, the more chilli in my dinner the better.",
            "Make every dinner hot for me, I put chilli on everything.",
            "Spicy dinners please, I'm a vindaloo kind of person.",
            "I can't get enough chilli, extra hot every time I cook dinner.",
        ),
        holder_later=(
            "I'm cutting down on red meat, chicken or fish for dinner is better.",
            "On weeknights I cook dinner in under 30 minutes, nothing fussy.",
            "I like one-pot dinners, less washing up.",
            "Lots of garlic in my dinners please, always.",
        ),
        child=(
            "I hate broccoli and spicy food is yucky",
            "I only eat plain pasta and fish fingers for dinner, no sauce",
            "I love chicken nuggets and I hate anything green",
            "spicy food burns my mouth, I like plain rice",
        ),
        asks=(
            "plan a spicy dinner for me tonight",
            "what dinner should I cook for myself?",
            "suggest three dinners for my week",
            "I need a dinner idea for tonight, just for me",
        ),
    ),
    KidTheme(
        holder=(
            "I mostly listen to jazz, Coltrane and Bill Evans.",
            "Jazz is my music, piano trios especially.",
            "When I ask for music, put on jazz, nothing with lyrics.",
            "My music is old jazz records, bebop and cool jazz.",
        ),
        holder_later=(
            "Low-key music while I work please, nothing upbeat.",
            "I like whole albums, not shuffled music playlists.",
            "No pop music for me, ever.",
            "Vinyl-era music mostly, nothing after the seventies.",
        ),
        child=(
            "my favourite song is the unicorn song and I love k-pop",
            "I love the songs from the princess movies!!!",
            "play the dinosaur song, it's my favourite music",
            "I like loud dance music and the song about the baby shark",
        ),
        asks=(
            "make me a music playlist for my evening",
            "put on some music for my drive",
            "what music should I play while I cook?",
            "queue up some music for me, I'm working",
        ),
    ),
    KidTheme(
        holder=(
            "I read mostly history, long biographies are my favourite books.",
            "Big history books for me, the thicker the better.",
            "I love reading biographies of politicians and generals.",
            "My reading is nearly all non-fiction history books.",
        ),
        holder_later=(
            "I read paper books, not e-books.",
            "No fantasy or sci-fi books for me.",
            "I've got a two-hour train commute, so long books are fine.",
            "Audiobooks for the gym, paper books at night, that's how I read.",
        ),
        child=(
            "I love books about unicorns and fairies",
            "my favourite book is about a dragon who eats socks",
            "I like comic books with cats in them",
            "books with magic ponies are the best books ever",
        ),
        asks=(
            "recommend a book for my holiday",
            "what book should I read next?",
            "find me a new history book",
            "suggest a book to take on my trip",
        ),
    ),
)

KID_INTROS = (
    "hi it's {kid}! I'm {age}",
    "{kid} typing!! im {age} and a half",
    "hello my name is {kid} and i am {age} years old",
    "this is {kid}, I'm {age}, I'm on {holder}'s tablet",
    "{holder} said I can play on here. I'm {kid} and I'm {age}",
)
KID_SIGNOFFS = (
    "{text} - {kid}, age {age}",
    "{text}. love from {kid} ({age})",
    "{text}!! from {kid} I'm {age}",
    "{text} (this is {kid} not {holder}, I'm {age})",
)
KID_ACKS = (
    "Hi {kid}! Nice to meet you.",
    "Hello {kid}! That sounds fun.",
    "Hey {kid}, thanks for telling me!",
    "Hi there {kid}!",
)
HELLO = (
    "hello",
    "hi!",
    "are you a robot?",
    "can you tell me a joke",
)


@template(
    "shared-device",
    "kid-borrows-account",
    "A child types on a parent's account (no `subject` field), says their name and age and "
    "what they like; the child's tastes are forbidden for the holder's own query, while the "
    "holder's earlier and later claims stay relevant.",
)
def kid_borrows_account(s: Scenario) -> None:
    d = s.draw
    theme = d.any(KID_THEMES)
    kid, age, holder = d.any(pools.CHILD_NAMES), d.between(5, 11), s.person.first
    mine = [s.chat(s.day(0, 20)).user(d.pick(theme.holder))]

    c = s.chat(s.day(d.between(2, 8), 16, d.between(0, 50)))
    if d.chance(0.4):
        c.user(d.pick(HELLO))
        c.assistant("Hello! What would you like to do?")
    fill = {"kid": kid, "age": age, "holder": holder}
    intro = d.pick(KID_INTROS).format(**fill)
    taste = d.pick(theme.child)
    form = d.any(("together", "apart", "signed"))
    if form == "together":
        child = [c.user(f"{intro}. {taste}")]
    elif form == "apart":
        child = [c.user(intro)]
        c.assistant(d.pick(KID_ACKS).format(kid=kid))
        child.append(c.user(taste))
    else:
        child = [c.user(d.pick(KID_SIGNOFFS).format(text=taste, **fill))]
    if d.chance(0.5):
        c.assistant(d.pick(("Oh, lovely!", "That's great!", "Cool!", "Wow, tell me more.")))
        child.append(
            c.user(
                d.pick(
                    (
                        "and I love unicorns more than anything",
                        "also my favourite colour is purple and I hate baths",
                        "I want a puppy called Sprinkles",
                        "and I'm scared of the dark",
                    )
                )
            )
        )

    # The holder is back, in a conversation of their own some days later.
    mine.append(s.chat(s.day(d.between(10, 14), 21)).user(d.pick(theme.holder_later)))
    s.nightly()
    s.recall(s.ask(d.pick(theme.asks), s.day(18, 19), relevant=mine, forbidden=child))


@dataclass(frozen=True)
class Clash:
    """The holder's standing preference, the other adult's opposite one, and the request."""

    holder: Options
    holder_more: Options
    partner: Options
    partner_more: Options
    asks: Options


CLASHES = (
    Clash(
        holder=(
            "Whole milk for me, I drink a big glass every night.",
            "I go through a lot of cheese and milk, put the full-fat dairy in my order.",
            "Greek yoghurt and whole milk are always on my shopping list.",
            "I love dairy, proper butter and cheese in every grocery order.",
        ),
        holder_more=(
            "And no plastic bags in my grocery delivery, ever.",
            "Always swap to the store brand for my groceries if it's cheaper.",
            "Deliveries after 6pm for me please, I'm out during the day.",
            "Bananas for me should be green, they ripen on the counter.",
        ),
        partner=(
            "I'm lactose intolerant, so no milk or cheese for me.",
            "Dairy makes me really sick, lactose intolerant.",
            "I can't have lactose at all, oat milk only for me.",
            "No dairy in anything for me, I'm lactose intolerant.",
        ),
        partner_more=(
            "and I'm vegetarian too",
            "oh and I hate coriander",
            "also I only eat gluten-free bread",
            "and I'm off sugar this year",
        ),
        asks=(
            "restock my usual milk and yoghurt",
            "do my weekly grocery order",
            "add breakfast things to my shopping order",
            "fill my grocery basket for this week",
        ),
    ),
    Clash(
        holder=(
            "I always want a window seat on flights, I sleep against the wall.",
            "Window seat every time I fly, please.",
            "Book me by the window on any flight, I like to look out.",
            "For flights I'm a window person, never the middle.",
        ),
        holder_more=(
            "And I never check a bag, carry-on only for my flights.",
            "Morning flights for me, I hate landing late at night.",
            "I don't pay for priority boarding on flights, waste of money.",
            "I always fly with the cheapest seat class.",
        ),
        partner=(
            "I need an aisle seat, I'm 6'4 and my knees can't take it.",
            "Aisle seats only for me, I get claustrophobic by the window.",
            "Please always give me the aisle, I'm up and down the whole flight.",
            "I must have an aisle seat, bad back.",
        ),
        partner_more=(
            "and I always want the vegetarian meal on flights",
            "also I need extra legroom if there is any",
            "and I hate early flights",
            "oh and I always check a big bag",
        ),
        asks=(
            "pick my seat for the flight on Friday",
            "check me in for my flight tomorrow and choose a seat",
            "book my seat for the Lisbon flight",
            "which seat should I take on my flight?",
        ),
    ),
    Clash(
        holder=(
            "My coffee order is a double espresso, no sugar.",
            "I drink strong coffee, double shot, black.",
            "Coffee for me is always a double espresso, the stronger the better.",
            "Black coffee, extra shot, that's my usual order.",
        ),
        holder_more=(
            "And pastries for me should be savoury, never sweet.",
            "I pick my coffee up at 8 on the way to work.",
            "Oat cookies with the coffee if they have them.",
            "Always the biggest coffee size for me.",
        ),
        partner=(
            "I only drink decaf, caffeine gives me palpitations.",
            "No caffeine for me at all, decaf or herbal tea.",
            "I can't have coffee with caffeine, it keeps me up for days.",
            "Decaf only for me, doctor's orders.",
        ),
        partner_more=(
            "and oat milk in everything",
            "also extra sugar please, lots",
            "and I'm off gluten",
            "and a large size, always",
        ),
        asks=(
            "order my usual coffee for pickup",
            "get me a coffee on the way in",
            "what coffee should I order this morning?",
            "reorder my coffee from the usual place",
        ),
    ),
    Clash(
        holder=(
            "I run early, 6am, before work, that's the only time that works.",
            "Schedule my workouts at dawn, I'm a morning runner.",
            "I train first thing in the morning, around 6.",
            "Morning runs only for me, before 7.",
        ),
        holder_more=(
            "I do a long run every Sunday, at least 20 km.",
            "Two rest days a week for me, Monday and Thursday.",
            "I like running routes along the river.",
            "I track my workouts in kilometres, not miles.",
        ),
        partner=(
            "I'm a night owl, put my workouts after 8pm.",
            "I can't exercise before noon, evenings only for me.",
            "Late workouts for me, 9pm is perfect.",
            "Mornings are a no, I train after dinner.",
        ),
        partner_more=(
            "and I prefer the gym to running outside",
            "also I do yoga on Sundays",
            "and I use miles, not km",
            "and no runs longer than 5k for me",
        ),
        asks=(
            "schedule my run for tomorrow",
            "plan my workouts for next week",
            "when should I fit in my run on Saturday?",
            "set up my morning run reminders",
        ),
    ),
)

PARTNER_INTROS = (
    "hey it's {other}, {holder}'s {rel}, using this account for a sec.",
    "{other} here ({holder}'s {rel}), we share this login.",
    "Not {holder} this time, it's {other}, the {rel}.",
    "This is {other}, {holder}'s {rel}, typing on the family account.",
)
PARTNER_SIGNOFFS = (
    "{text} - {other} ({holder}'s {rel})",
    "{text} Thanks, {other} ({rel}, not {holder})",
    "{text} // {other}, {holder}'s {rel}",
    "{text} That was {other}, {holder}'s {rel}, by the way.",
)
RELATIONS = ("husband", "wife", "partner", "other half")
HANDBACKS = (
    "ok {holder} again, thanks {other}.",
    "Right, it's {holder} back now.",
    "{holder} here again, {other} is done.",
    "Back to me, {holder}.",
)


@template(
    "shared-device",
    "partner-on-family-login",
    "A spouse or partner announces themselves on a shared family login and states an opposite "
    "preference; the holder's own claims stay relevant, the partner's are forbidden; sometimes "
    "the holder takes the keyboard back in the same conversation.",
)
def partner_on_family_login(s: Scenario) -> None:
    d = s.draw
    clash = d.any(CLASHES)
    other, holder = s.other_person().first, s.person.first
    rel = d.any(RELATIONS)
    fill = {"other": other, "holder": holder, "rel": rel}
    mine = [s.chat(s.day(0, 8)).user(d.pick(clash.holder))]

    c = s.chat(s.day(d.between(3, 12), 19, d.between(0, 40)))
    claim = d.pick(clash.partner)
    form = d.any(("together", "apart", "signed"))
    if form == "together":
        theirs = [c.user(f"{d.pick(PARTNER_INTROS).format(**fill)} {claim}")]
    elif form == "apart":
        theirs = [c.user(d.pick(PARTNER_INTROS).format(**fill))]
        c.assistant(d.pick((f"Hi {other}!", f"Hello {other}, go ahead.", "Sure, what's up?")))
        theirs.append(c.user(claim))
    else:
        theirs = [c.user(d.pick(PARTNER_SIGNOFFS).format(text=claim, **fill))]
    c.assistant(d.pick(("Noted.", "Got it.", "Thanks, I'll keep that in mind.", "Okay!")))
    if d.chance(0.5):
        theirs.append(c.user(d.pick(clash.partner_more)))
        c.assistant("Okay.")
    if d.chance(0.5):
        handback = d.pick(HANDBACKS).format(**fill)
        mine.append(c.user(f"{handback} {d.pick(clash.holder_more)}"))
    else:
        mine.append(s.chat(s.day(d.between(13, 16), 9)).user(d.pick(clash.holder_more)))
    s.nightly()
    s.recall(s.ask(d.pick(clash.asks), s.day(20, 8), relevant=mine, forbidden=theirs))
