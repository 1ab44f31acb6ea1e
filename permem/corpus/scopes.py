"""Scope boundaries of a claim: the scope it was made in (two projects that disagree, a
scoped fact that tempts an answer elsewhere)."""

from __future__ import annotations

from dataclasses import dataclass

from permem.corpus.templates import Scenario, template

Options = tuple[str, ...]

ACKS = ("Noted.", "Got it.", "Okay, will do.", "Understood.", "Sure thing.")


@dataclass(frozen=True)
class Disagreement:
    """Two projects with opposite settings on one topic, a third scope with neither, a global
    preference on the same topic, and requests that make sense in all three."""

    first: str
    first_rule: Options
    second: str
    second_rule: Options
    third: str
    everywhere: Options
    asks: Options


DISAGREEMENTS = (
    Disagreement(
        first="project:thesis",
        first_rule=(
            "In the thesis project use APA citations, 7th edition.",
            "Thesis rule: every citation in APA style, author-date.",
            "All the references in my thesis need to be APA.",
            "Use APA for the thesis citations, my supervisor insists.",
        ),
        second="project:blog",
        second_rule=(
            "For the blog, no citations, just link the source inline if anything.",
            "Blog posts don't get a reference list, keep formal citations out of them.",
            "On the blog we never do citations, a hyperlink at most.",
            "No academic citations in blog posts, it scares readers off.",
        ),
        third="project:conference-talk",
        everywhere=(
            "Whenever you quote a source for me, include the page number.",
            "Any time I cite a source, double-check the year.",
            "I never cite Wikipedia as a source, anywhere.",
            "For every source I use, keep the author's full name.",
        ),
        asks=(
            "tidy up the citations for the sources in this section",
            "how should I cite this source here?",
            "add the citation for the Hartmann source to this paragraph",
            "format the source citations in this draft",
        ),
    ),
    Disagreement(
        first="project:client-report",
        first_rule=(
            "British spelling in this report, the client is in Leeds.",
            "The client report uses UK spelling: colour, organise, centre.",
            "For the Leeds client report, British English spelling throughout.",
            "UK spelling for the client report please, not American.",
        ),
        second="project:app-docs",
        second_rule=(
            "American spelling in the app docs, it's in our style guide.",
            "The docs are US English: color, organize, center.",
            "For the product docs, always American spelling.",
            "US spelling in the documentation, no British forms.",
        ),
        third="project:cover-letter",
        everywhere=(
            "When you fix my spelling, list the changes at the end.",
            "Always flag spelling changes rather than silently making them.",
            "For any spelling fix, leave product names exactly as I wrote them.",
            "Keep my spelling fixes minimal, don't rewrite my sentences.",
        ),
        asks=(
            "proofread this paragraph for spelling",
            "fix the spelling in this section",
            "check the spelling of the intro",
            "run a spelling pass over this page",
        ),
    ),
    Disagreement(
        first="project:backend",
        first_rule=(
            "Tabs for indentation in the backend repo, and 100-char lines.",
            "The backend code is indented with tabs, never spaces.",
            "Backend style: tab indentation, lines up to 100 characters.",
            "In this backend codebase we indent with tabs.",
        ),
        second="project:website",
        second_rule=(
            "Two-space indentation in the website code, Prettier defaults.",
            "The website repo uses 2 spaces, no tabs anywhere.",
            "Website code: indent with two spaces and single quotes.",
            "For the website we indent two spaces, that's the linter config.",
        ),
        third="project:scripts",
        everywhere=(
            "In any code you write for me, no single-letter variable names.",
            "Type hints on every function in my code, always.",
            "Comment my code sparingly, only the why, never the what.",
            "I want code with early returns, not deep nesting.",
        ),
        asks=(
            "reformat this function code",
            "rewrite this code snippet in the right style",
            "clean up the indentation in this code",
            "tidy this block of code before I commit",
        ),
    ),
    Disagreement(
        first="workspace:client-acme",
        first_rule=(
            "Acme reports all figures in US dollars and their fiscal year starts in July.",
            "For Acme: USD figures, fiscal year July to June.",
            "Acme's numbers are always in dollars, FY begins 1 July.",
            "Acme wants figures in USD on a July fiscal year.",
        ),
        second="workspace:client-borealis",
        second_rule=(
            "Borealis figures are in euros, on the calendar year.",
            "For Borealis: EUR figures, January to December.",
            "Borealis reports in euros, their year is the calendar year.",
            "Borealis wants every figure in EUR, calendar-year quarters.",
        ),
        third="workspace:personal-finance",
        everywhere=(
            "Round all figures to one decimal place for me.",
            "In any table of figures, negative numbers go in brackets.",
            "Always show figures with a thousands separator.",
            "Put the source of each figure in a footnote.",
        ),
        asks=(
            "convert the revenue figures for the quarterly deck",
            "prepare the figures for the year-end summary",
            "put this quarter's figures into a table",
            "check the figures on this slide",
        ),
    ),
    Disagreement(
        first="project:grant-proposal",
        first_rule=(
            "The grant proposal has to be formal, third person, no contractions.",
            "Proposal tone: formal and impersonal, 'the applicant' rather than 'I'.",
            "For the grant application keep the tone strictly formal.",
            "No jokes or contractions in the proposal, it goes to a funding panel.",
        ),
        second="project:newsletter",
        second_rule=(
            "The newsletter tone is chatty, first person, jokes welcome.",
            "Newsletter: casual and warm, like I'm writing to a friend.",
            "Keep the newsletter informal, contractions and puns are fine.",
            "For the newsletter, relaxed tone, talk to readers as 'you'.",
        ),
        third="project:wedding-speech",
        everywhere=(
            "Never use the word 'leverage' in any paragraph I write.",
            "In all my writing, short paragraphs please.",
            "Avoid clichés like 'in today's fast-paced world' in any paragraph of mine.",
            "In anything I write, spell out numbers under ten.",
        ),
        asks=(
            "rewrite the opening paragraph in the right tone",
            "polish this paragraph",
            "redo the intro paragraph, the tone feels off",
            "make this paragraph read better",
        ),
    ),
)

WORK_OPENERS = (
    "ok working on the {name} today.",
    "back on the {name}.",
    "quick {name} session before lunch.",
    "let's do some {name} stuff.",
)


def _label(scope: str) -> str:
    return scope.split(":", 1)[1].replace("-", " ")


@template(
    "scope",
    "projects-disagree",
    "Two projects (scope field) set opposite rules on one topic and a global conversation "
    "sets a preference on it; the same request in each project uses its own rule and the "
    "global one, in a third project only the global one.",
)
def projects_disagree(s: Scenario) -> None:
    d = s.draw
    dis = d.any(DISAGREEMENTS)

    def rule_chat(day: int, scope: str, wording: Options) -> str:
        c = s.chat(s.day(day, d.between(8, 21)), scope=scope)
        if d.chance(0.5):
            c.user(d.pick(WORK_OPENERS).format(name=_label(scope)))
            c.assistant(d.pick(("Sure, where were we?", "Ready when you are.", "Okay!")))
        said = c.user(d.pick(wording))
        c.assistant(d.pick(ACKS))
        return said

    days = [0, d.between(2, 5), d.between(6, 10)]
    d.rng.shuffle(days)
    first = rule_chat(days[0], dis.first, dis.first_rule)
    second = rule_chat(days[1], dis.second, dis.second_rule)
    glob = s.chat(s.day(days[2], 12)).user(d.pick(dis.everywhere))
    ask = d.pick(dis.asks)
    s.nightly()
    s.recall(
        s.ask(ask, s.day(14, 10), scope=dis.first, relevant=[first, glob], forbidden=[second]),
        s.ask(ask, s.day(14, 15), scope=dis.second, relevant=[second, glob], forbidden=[first]),
        s.ask(ask, s.day(15, 11), scope=dis.third, relevant=[glob], forbidden=[first, second]),
    )


@dataclass(frozen=True)
class Venue:
    """A scope whose facts tempt a request in another scope, and a preference for everywhere
    said plainly (global conversation) or explicitly widened inside the scope."""

    home: str
    facts: Options
    home_asks: Options
    away: str
    away_asks: Options
    everywhere: Options
    widened: Options


VENUES = (
    Venue(
        home="workspace:bakery",
        facts=(
            "All bakery recipes are scaled to 40 portions and weighed in grams.",
            "In the bakery we bake for 40, so scale every recipe to 40 portions.",
            "Shop recipes: always 40 portions, grams only, no cups.",
            "Every recipe in here is for the shop, 40 portions, metric weights.",
        ),
        home_asks=(
            "scale the croissant recipe for tomorrow's bake",
            "write up the sourdough recipe for the shop",
            "turn this brownie recipe into a shop recipe",
            "give me the scone recipe for Saturday",
        ),
        away="project:family-dinners",
        away_asks=(
            "scale the lasagne recipe for Sunday lunch",
            "write a recipe for my kid's birthday cake",
            "give me a recipe for a weeknight curry",
            "adapt this pancake recipe for breakfast tomorrow",
        ),
        everywhere=(
            "I'm allergic to hazelnuts, never put them in a recipe.",
            "No hazelnuts in any recipe for me, allergy.",
            "Keep every recipe hazelnut-free, I react badly to them.",
            "Hazelnut allergy here, leave them out of all recipes.",
        ),
        widened=(
            "Not just for the bakery, for anything I cook: no hazelnuts in any recipe, allergy.",
            "This goes for everything, not only the shop: I'm allergic to hazelnuts.",
            "In general, anywhere, leave hazelnuts out of my recipes, I'm allergic.",
            "Outside the bakery too: I can't have hazelnuts in any recipe.",
        ),
    ),
    Venue(
        home="project:band",
        facts=(
            "Everything in the band is in drop D tuning, our singer can't reach the high notes.",
            "Band songs are all in drop D, tuned down for the vocals.",
            "For the band we play in drop D tuning, always.",
            "Our band's tuning is drop D on every song.",
        ),
        home_asks=(
            "work out the chords for the new band song",
            "write a riff for the band's next song",
            "tab out the chorus for the band",
            "what tuning do we use for the new song?",
        ),
        away="project:guitar-lessons",
        away_asks=(
            "what tuning should I use for this classical study?",
            "write out the chords for my lesson piece",
            "tab the first exercise for my lesson",
            "which tuning is my lesson song in?",
        ),
        everywhere=(
            "I'm left-handed, so mirror any chord diagrams for me.",
            "Left-handed player here, flip the chord charts.",
            "All chord diagrams for me need to be left-handed.",
            "I play left-handed, so draw the chords mirrored.",
        ),
        widened=(
            "And in general, not just the band: I'm left-handed, mirror the chord diagrams.",
            "For any music stuff at all: left-handed, flip every chord chart.",
            "This applies everywhere, not only here: draw chords left-handed for me.",
            "Outside the band too: I'm a lefty, chord diagrams mirrored.",
        ),
    ),
    Venue(
        home="workspace:nonprofit",
        facts=(
            "Grant budgets here are in Canadian dollars with a 15% overhead line.",
            "Every budget in the nonprofit gets a 15% overhead line, CAD.",
            "Nonprofit budgets: CAD, overhead at 15 percent as its own line.",
            "For the charity's budgets always add overhead at 15%, in Canadian dollars.",
        ),
        home_asks=(
            "draft the budget for the literacy grant",
            "build a budget table for the youth program",
            "what should the budget for the food drive look like?",
            "lay out the budget lines for the new grant",
        ),
        away="project:home-reno",
        away_asks=(
            "draw up a budget for the bathroom reno",
            "make a budget for redoing the kitchen floor",
            "what budget lines do I need for the new deck?",
            "budget the garden shed project",
        ),
        everywhere=(
            "Put the totals at the top of any budget you make for me.",
            "In every budget, totals first, details after.",
            "I like budgets with the grand total at the very top.",
            "For any budget: total on top, then the breakdown.",
        ),
        widened=(
            "Not just here, for every budget anywhere: put totals at the top.",
            "This goes for all my budgets, not only the nonprofit: total first.",
            "In general, any budget for me starts with the grand total.",
            "Everywhere, not only this workspace: budgets open with the total.",
        ),
    ),
    Venue(
        home="workspace:support-team",
        facts=(
            "Support team meetings are at 9:15, agendas capped at three items.",
            "Our team standup is 9:15 sharp and the agenda never has more than three points.",
            "For the support team: meetings at 9:15, three agenda items max.",
            "Team meetings here start 9:15, keep the agenda to three items.",
        ),
        home_asks=(
            "set up the agenda for Monday's team meeting",
            "plan the next support team meeting",
            "write the meeting agenda for the team",
            "when is the team meeting and what goes on the agenda?",
        ),
        away="project:book-club",
        away_asks=(
            "set up the agenda for the next book club meeting",
            "plan our book club meeting for next month",
            "write an agenda for the book club",
            "when should the book club meeting be?",
        ),
        everywhere=(
            "For any meeting I run, send the agenda a day ahead.",
            "Every meeting agenda of mine goes out the day before.",
            "I always circulate the agenda 24 hours before a meeting.",
            "Agendas for my meetings should be shared a day early.",
        ),
        widened=(
            "This is for all my meetings, not just work: agenda goes out a day ahead.",
            "In general, anywhere: send my meeting agendas the day before.",
            "Not only for the team, for any meeting I run: agenda 24 hours ahead.",
            "Outside work too, every meeting agenda of mine goes out a day early.",
        ),
    ),
)


@template(
    "scope",
    "scoped-fact-tempts-elsewhere",
    "A fact stated in one workspace or project (scope field) serves that scope and is "
    "forbidden for a similar request in another project; a preference for everywhere (said in "
    "a global chat, or widened explicitly inside the project) serves both.",
)
def scoped_fact_tempts_elsewhere(s: Scenario) -> None:
    d = s.draw
    v = d.any(VENUES)
    c = s.chat(s.day(0, d.between(9, 18)), scope=v.home)
    if d.chance(0.5):
        c.user(d.pick(WORK_OPENERS).format(name=_label(v.home)))
        c.assistant(d.pick(("Sure.", "Let's go.", "Okay, what do you need?")))
    fact = c.user(d.pick(v.facts))
    c.assistant(d.pick(ACKS))
    if d.chance(0.5):
        wide = c.user(d.pick(v.widened))
        c.assistant(d.pick(ACKS))
    else:
        wide = s.chat(s.day(d.between(-6, 6), 20)).user(d.pick(v.everywhere))
    s.nightly()
    s.recall(
        s.ask(d.pick(v.home_asks), s.day(11, 10), scope=v.home, relevant=[fact, wide]),
        s.ask(d.pick(v.away_asks), s.day(11, 19), scope=v.away, relevant=[wide], forbidden=[fact]),
    )
