"""What a claim was given for: purpose templates where a surface's confidences tempt another
surface of the same tenant (a repair chat and the landlord's renewal review; debt advice and a
loan application; homework help and the school report).

Every slot is drawn before anything is written, so each half keeps its own share of the wordings.
"""

from __future__ import annotations

from permem.corpus.templates import Scenario, template

ACKS = (
    "Noted.",
    "Got it.",
    "Okay, I'll keep that in mind.",
    "Understood.",
    "Sure thing.",
    "Thanks!",
)

MOULD = (
    "There's black mould behind the wardrobe, probably because I dry my washing indoors.",
    "Mould is coming back on the bedroom wall. I do dry clothes on the radiators, to be fair.",
    "the bathroom ceiling has mould again, I never open the window after showers tbh",
    "I've got damp and mould in the bedroom corner; I hang laundry inside all winter.",
    "Black spots of mould on the window frames. I keep the heating off to save money.",
    "Mould under the sink and on the bedroom wall, and I dry my washing in there.",
)
PET = (
    "I've also got a cat the landlord doesn't know about, so nothing toxic please.",
    "Careful what you suggest, there's a cat here (not on the lease, shh).",
    "my cat sleeps in that room, she's not exactly on the tenancy agreement",
    "Oh, and I keep a rabbit the landlord hasn't been told about, so pet-safe products only.",
    "Keep it safe for animals: I've a cat that isn't in the contract.",
    "There's a dog in the flat unofficially, so no harsh chemicals.",
)
RENEWAL = (
    "I'd like to renew for another twelve months, and I'd ask permission to repaint the bedroom.",
    "Please note I want to extend the tenancy by a year. Could I also paint the living room?",
    "For the renewal: yes to 12 more months, and I'd like a lock fitted on the shed.",
    "I'm happy to renew for a year. I'd like to ask about putting up shelves.",
    "renewing for 12 months please, and can the landlord fix the back door lock?",
    "I intend to stay another year. One request: permission to hang pictures.",
)
RENEWAL_ASKS = (
    "prepare this tenant's renewal summary for the landlord",
    "write the tenancy review notes for the owner",
    "summarise this tenant ahead of the lease renewal",
    "what should the landlord know before renewing this tenancy?",
    "draft the renewal report for flat 3",
    "list the points for the landlord's renewal decision on this tenant",
)
REPAIR_ASKS = (
    "how do I get rid of the mould safely?",
    "what should I use to clean the mould off?",
    "give me a plan to stop the mould coming back",
    "which mould spray should I buy?",
    "the mould is back, what now?",
    "step by step, how do I treat the mould this weekend?",
)


@template(
    "purpose",
    "repair-chat-not-landlord",
    "A tenant tells the home-repair surface about mould and a pet the landlord doesn't know "
    "about; the renewal-review surface uses only what the tenant said for the renewal, never "
    "the repair chat, which the repair surface still uses.",
)
def repair_chat_not_landlord(s: Scenario) -> None:
    d = s.draw
    mould_text, pet_text, renewal_text, renewal_ask, repair_ask = (
        d.pick(MOULD),
        d.pick(PET),
        d.pick(RENEWAL),
        d.pick(RENEWAL_ASKS),
        d.pick(REPAIR_ASKS),
    )
    repair = d.any(("home_repair", "maintenance_help", "diy_helper"))
    review = d.any(("tenancy_review", "lease_renewal", "landlord_report"))
    told = s.chat(s.day(0, d.between(18, 22)), purpose=repair).tell(mould_text, pet_text, acks=ACKS)
    c = s.chat(s.day(d.between(-10, 10), 12), purpose=review)
    c.assistant("Your tenancy ends soon. Do you want to renew, and anything to raise?")
    asked = c.user(renewal_text)
    s.nightly()
    s.recall(
        s.ask(renewal_ask, s.day(15, 10), purpose=review, relevant=[asked], forbidden=told),
        s.ask(repair_ask, s.day(15, 19), purpose=repair, relevant=told),
    )


MISSED = (
    "I've missed two credit card payments this year and I'm scared to open the statements.",
    "Honestly I'm behind on my card, two payments missed since spring.",
    "i skipped the card payment in march and april, couldn't cover it",
    "Two late payments on the credit card so far. I keep hoping nobody notices.",
    "I didn't pay the minimum on my card twice this year.",
    "My credit card is maxed and I've missed a couple of payments.",
)
OVERDRAWN = (
    "I'm in my overdraft by the 20th of every month.",
    "Every month I run out before payday and live on the overdraft.",
    "the overdraft is basically my last week of the month",
    "I use about 600 of the overdraft each month, it never clears.",
    "By the third week my account is always overdrawn.",
    "I borrow from my sister most months to get to payday.",
)
APPLICATION = (
    "Net pay is 2,900 a month, and I've been in the same job four years.",
    "I take home 2900 monthly, permanent contract since 2021.",
    "monthly income after tax 2,900, four years with my employer",
    "Salary: 2,900 net per month. Employment: permanent, four years.",
    "I earn 2,900 a month after tax and I've had this job for four years.",
    "Four years in my current role, take-home pay 2.9k a month.",
)
LOAN_ASKS = (
    "assess this applicant's repayment risk",
    "summarise the affordability check for this loan application",
    "should we approve this personal loan, and at what rate?",
    "what do we know about this applicant's ability to repay?",
    "write the underwriting notes for this application",
    "score this customer's loan application",
)
DEBT_ASKS = (
    "make me a plan to clear the card",
    "how do I stop relying on the overdraft?",
    "what should I pay off first?",
    "help me get back on track with my debts this month",
    "build me a budget to get out of the red",
    "which debt do I tackle first, and how fast?",
)


@template(
    "purpose",
    "debt-help-not-lending",
    "Missed card payments and a standing overdraft told to a debt-advice surface, income "
    "answers typed into a loan application of the same tenant: the lending query uses only "
    "the application answers and never the confessions, which the debt-advice query uses.",
)
def debt_help_not_lending(s: Scenario) -> None:
    d = s.draw
    missed_text, overdrawn_text, answers_text, loan_ask, debt_ask = (
        d.pick(MISSED),
        d.pick(OVERDRAWN),
        d.pick(APPLICATION),
        d.pick(LOAN_ASKS),
        d.pick(DEBT_ASKS),
    )
    advice = d.any(("debt_advice", "money_coach", "budget_helper"))
    lending = d.any(("loan_application", "credit_decision", "lending"))
    c = s.chat(s.day(0, d.between(19, 23)), purpose=advice)
    confided = c.tell(missed_text, overdrawn_text, acks=("Thanks for telling me.", "Okay."))
    c = s.chat(s.day(d.between(3, 12), 13), purpose=lending)
    c.assistant("What is your monthly income, and how long have you been employed?")
    answers = c.user(answers_text)
    s.nightly()
    s.recall(
        s.ask(loan_ask, s.day(16, 11), purpose=lending, relevant=[answers], forbidden=confided),
        s.ask(debt_ask, s.day(16, 21), purpose=advice, relevant=confided),
    )


STUCK = (
    "I don't get long division at all, I just guess the answers.",
    "Fractions make no sense to me, I always mix up the top and bottom.",
    "i'm rubbish at times tables past 6, I count on my fingers",
    "Word problems confuse me, I never know which sum to do.",
    "I can't do percentages. Every time I try I get a different answer.",
    "Decimals are my worst thing, I put the point in the wrong place.",
)
CONFESSED = (
    "Don't tell anyone, but I copied my friend's homework last week.",
    "I got the answers off my cousin for the last two worksheets.",
    "tbh I looked up the answers online for the last test revision",
    "I pretended I'd lost my homework because I couldn't do it.",
    "Last week I let my mum do half of my maths homework.",
    "I sometimes take a photo of my friend's answers before class.",
)
REPORT_ASKS = (
    "write this pupil's end-of-term maths report",
    "draft the comment for this student's school report",
    "summarise this child's progress for the parents' evening",
    "what should go in this pupil's report card for maths?",
    "write the teacher's note on this student's effort this term",
    "prepare this learner's term report",
)
HELP_ASKS = (
    "help me with tonight's maths homework",
    "can you explain the maths we did today?",
    "give me some practice questions for maths",
    "I have a maths test on Friday, help me revise",
    "make me a revision plan for maths this week",
    "walk me through my maths worksheet",
)


@template(
    "purpose",
    "homework-help-not-report",
    "A pupil tells the homework-help surface what they can't do and that they copied "
    "answers; the school-report surface of the same tenant gets nothing (empty), the "
    "homework surface still finds the struggle.",
)
def homework_help_not_report(s: Scenario) -> None:
    d = s.draw
    stuck_text, confessed_text, report_ask, help_ask = (
        d.pick(STUCK),
        d.pick(CONFESSED),
        d.pick(REPORT_ASKS),
        d.pick(HELP_ASKS),
    )
    helper = d.any(("homework_help", "study_buddy", "maths_tutor"))
    report = d.any(("school_report", "teacher_portal", "progress_report"))
    c = s.chat(s.day(0, d.between(16, 20)), purpose=helper)
    if d.chance(0.4):
        c.user(d.any(("hi", "can u help me", "homework time :(")))
        c.assistant("Of course! What are you working on?")
    stuck, confessed = c.tell(stuck_text, confessed_text, split=True, acks=ACKS)
    s.nightly()
    s.recall(
        s.ask(
            report_ask,
            s.day(20, 15),
            purpose=report,
            forbidden=[stuck, confessed],
            expect_empty=True,
        ),
        s.ask(help_ask, s.day(21, 17), purpose=helper, relevant=[stuck]),
    )
