"""What holds only this time: an order for someone else (one-off-exception)."""

from __future__ import annotations

from collections.abc import Sequence

from permem.corpus.exceptions import ACKS, _chatter
from permem.corpus.templates import Scenario, template

# (the user's own taste, an order for {who}, question about the user later, who it is for)
ON_BEHALF: tuple[tuple[Sequence[str], Sequence[str], Sequence[str], Sequence[str]], ...] = (
    (
        (
            "I eat everything, proper cheesecake is my weakness.",
            "Not fussy at all, dairy, meat, the lot. Desserts with cream are my favourite.",
            "I love a rich dessert, butter and cream and all.",
            "Dessert-wise I'm a cream and butter person.",
        ),
        (
            "Ordering a vegan cake for {who}'s birthday, she's strict about it.",
            "Need a vegan cake for {who}'s party, no eggs or dairy at all.",
            "Can you find a bakery doing vegan cakes? It's for {who}, she's vegan.",
            "I'm getting {who} a plant-based birthday cake, she doesn't eat animal products.",
        ),
        (
            "suggest a dessert recipe for me this weekend",
            "what dessert should I treat myself to tonight?",
            "I fancy baking a dessert for myself, ideas?",
            "pick a dessert for me from the bakery menu",
        ),
        ("my sister", "my flatmate Jess", "my mum", "my colleague Priya"),
    ),
    (
        (
            "I'm a size small in tops and jackets.",
            "Small fits me best, for shirts and coats.",
            "I wear a small, sometimes extra small in jackets.",
            "Size S for me, tops and outerwear.",
        ),
        (
            "Order a size XL hoodie for {who}, he's tall.",
            "Buying {who} a jumper, get it in XL.",
            "Gift for {who}: the navy fleece in extra large.",
            "I'm ordering an XL rain jacket for {who}, he's a big guy.",
        ),
        (
            "find me a rain jacket in my size",
            "what size should I order in this winter coat for me?",
            "pick a size for the linen shirt I'm buying myself",
            "order me a jacket for spring, my size",
        ),
        ("my husband", "my dad", "my brother", "my son"),
    ),
    (
        (
            "Jazz is my music, Coltrane and Bill Evans mostly.",
            "I mostly listen to jazz, the older the better.",
            "My music taste is jazz, piano trios especially.",
            "Jazz all day for me, nothing with autotune.",
        ),
        (
            "Make a K-pop playlist for {who}'s tenth birthday party.",
            "I need party music for {who}'s sleepover, she loves K-pop and Taylor Swift.",
            "Playlist for the kids' party on Saturday: {who} wants all the K-pop hits.",
            "{who} asked me for a birthday playlist, all K-pop, can you help?",
        ),
        (
            "make me a playlist for my commute",
            "suggest music for me to cook to tonight",
            "put together some music for my Sunday morning",
            "what music should I put on while I work?",
        ),
        ("my niece", "my daughter", "my goddaughter", "my little cousin"),
    ),
    (
        (
            "I don't drink alcohol, just so you know.",
            "I'm teetotal, no drink for me.",
            "I never drink, alcohol's not my thing.",
            "No alcohol for me, ever, I'm a soft drink person.",
        ),
        (
            "Picking a peaty Islay whisky for {who}'s 60th.",
            "Need a good bottle of red for {who}, he's a wine snob.",
            "Help me choose a single malt as a present for {who}.",
            "Gift for {who}: a nice bottle of bourbon, he loves the stuff.",
        ),
        (
            "suggest a drink to order at the work dinner",
            "what should I drink at the wedding reception?",
            "pick a drink for me at the bar tonight",
            "what drink goes with my pizza tonight?",
        ),
        ("my father-in-law", "my dad", "my boss", "my neighbour Tom"),
    ),
)


@template(
    "one-off-exception",
    "for-someone-else",
    "An order or gift for someone else (a vegan cake for a sister, an XL hoodie for a husband) "
    "is not the user's own diet or size; the user's own stated taste is relevant later.",
)
def for_someone_else(s: Scenario) -> None:
    d = s.draw
    own, orders, asks, people = d.any(ON_BEHALF)
    who = d.any(people)
    order = d.pick(orders).format(who=who)
    c1 = s.chat(s.day(0, d.between(9, 21)))
    _chatter(s, c1)
    mine = c1.user(d.pick(own))
    c1.assistant(d.any(ACKS))
    c2 = s.chat(s.day(d.between(5, 25), d.between(9, 21)))
    theirs = c2.tell(
        order,
        d.pick(("Thanks!", "Nothing too fancy.", "I need it sorted by Friday.", "Any ideas?")),
        acks=("Sure, looking now.", "Happy to help."),
    )
    c2.assistant(d.any(("Here are some options.", "Found a few!", "Happy to help with that.")))
    s.nightly()
    s.recall(
        s.ask(d.pick(asks), s.day(d.between(40, 70), 19), relevant=[mine], forbidden=theirs[:1])
    )
