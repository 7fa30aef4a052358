"""Employer and occupation, with their change forms.

"I work at X", "I got a job at X", "I start at X on 6 May", "I joined X as a data
scientist", "I was hired by X" say where someone works (employer X, positive), and a role
said after the employer ("… at X as a product manager") is the occupation; when or where
inside the workplace may come between ("I work nights on the children's ward at X",
"I work part-time in the marketing department at X"), and so does a job contract signed ("I
signed a full-time contract with X as an illustrator"). "I left X",
"I quit X", "I handed in my notice at X", "I lost my job at X", "I was laid off from X",
"I retired from X" say where they no longer work (employer X, negative: the value stays
"X", the polarity carries the change). "I work freelance", "I've gone freelance", "I'm a
graphic designer, freelance mostly" say one works for oneself (``self-employed``). "I'm a nurse", "I work as a nurse", "I got promoted
to senior engineer", "I became a teacher", "I've been a paramedic for six years" name the
occupation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from typing import Final

from eywa.extraction.lexicon import (
    INSTITUTION_HEADS,
    NEEDS_QUALIFIER,
    NOT_JOB_MODIFIERS,
    NOT_NAMES,
    OCCUPATIONS,
    PROPER,
    WORKPLACES,
)
from eywa.extraction.rules.clause import (
    A,
    ADV,
    AND_THEN,
    BE,
    CALLED,
    FOR_A_WHILE,
    HAVE,
    NAME,
    SUBJ,
    UNTIL_A_DATE,
    WHEN_LEFT,
    Ctx,
    asserts,
    experiential_state,
    date_from,
    future_date,
    lasting,
    matches,
    past_date,
    plain,
    openings,
    rule,
    stated_start,
    tells_an_end,
)
from eywa.extraction.rules.phrasing import article, clean, date_phrase, ended_at, fact, possessive
from eywa.cessation import GONE_FOR_GOOD, ends_any
from eywa.models import CandidateFact, SignalKind

_ORG = rf"(?P<the>the\s+)?(?P<org>{PROPER})(?![\w'’])"
_TITLE = r"(?P<title>[a-z][a-z-]*(?:\s+(?!(?:at|for|with|since)\b)[a-z][a-z-]*){0,3})"
"""A job title of up to four lower-case words; never "at", "for" or "with", which open the
employer after it ("a teacher at Oakwood School"), nor "since", which opens how long ("I've
been a nurse since 2019")."""
_ROLE_AFTER = r"(?:\s+as\s+(?:a|an)\s+(?P<role>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,3}))?"
"""A role said after the employer ("I start at X as a product manager"): the occupation."""
_SHIFT = (
    r"(?:\s+(?:nights|days|weekends|evenings|mornings|afternoons|(?:night|day|late|early)\s+shifts|shifts|overtime"
    r"|part-time|part\s+time|full-time|full\s+time|remotely|from\s+home))?"
    r"(?:\s+(?:on|in)\s+the\s+(?:[\w'’-]+\s+){0,3}?(?:ward|unit|department|team|desk|floor|kitchen|branch|office"
    r"|section|site|lab|clinic))?"
    rf"(?:\s+in\s+(?!the\b){PROPER})?"
    r"(?:\s+in\s+(?!(?:the|a|an|my|his|her|our|their)\b)(?:[a-z]+|IT|HR|PR|QA|R&D)(?:\s+[a-z]+)?(?=\s+(?:at|for)\b))?"
)
"""Between "work" and the employer: when ("nights", "part-time"), where inside the workplace or
in which town ("on the cardiac ward", "I work in Berlin at Siemens") and in which field ("in
marketing", "in customer support", "in IT")."""

_WORKS = rule(
    rf"{SUBJ}(?:{BE}|{HAVE}\s+been)?\s+{ADV}(?:work|works|working|intern|interns|interning){_SHIFT}\s+"
    rf"(?:as\s+(?:a|an)\s+{_TITLE}\s+)?(?:at|for)\s+{CALLED}{_ORG}{_ROLE_AFTER}",
    "work works working intern interns interning",
)
_PLACE = (
    rf"(?:at|in|for)\s+(?:a|an|the)\s+(?P<place>(?:[a-z][a-z'’-]*\s+){{0,2}}?(?:{WORKPLACES}))"
    r"(?=\s*(?:[.!?,;]|$)|\s+(?:in|on|near|downtown|nearby|across|as|since|for|now|these|nowadays|and|but|where|with"
    r"|full-time|part-time|so|because|last|yesterday|recently|this)\b)"
)
"""A workplace said by its kind, not its name ("at a law firm", "in the local hospital"), where
its noun phrase ends."""
_WORKS_UNNAMED = rule(
    rf"{SUBJ}(?P<been>{HAVE}\s+been)?\s+{ADV}(?P<verb>work|works|working|teach|teaches){_SHIFT}\s+"
    rf"(?:as\s+(?:a|an)\s+{_TITLE}\s+)?{_PLACE}{_ROLE_AFTER}",
    "work works working teach teaches",
)
"""Work at a place said by its kind: "I work at a law firm in Chicago", "my sister works in a
hospital", "I teach at a high school", "I've been working for a nonprofit since May". The
employer is the kind of place ("law firm"), so "where does she work?" has an answer until a
name or a change comes. Not the progressive alone ("I'm working at the library today": where
one is), not "the same hospital" (whose is said elsewhere), and a bare "company" or "firm"
says nothing."""
_PLAIN_MODIFIERS: Final = frozenset("local small big large little tiny huge new nearby busy great nice good fancy".split())
"""Words before a workplace that describe it rather than say which kind it is: dropped from the
value, so "a small bakery" and "the bakery" are one employer."""
_NOT_ONE_PLACE: Final = frozenset("same other another different next first last only whole".split())
_NEEDS_KIND: Final = frozenset({"company", "corporation", "firm", "agency", "store", "shop"})
_JOINED_KIND = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:(?P<verb>got|landed|found|started)\s+(?:a|an|my)\s+"
    rf"(?:new\s+|full-time\s+|part-time\s+|first\s+|dream\s+)*(?:job|position|role)"
    rf"|(?P<hired>(?:got|was|been|{HAVE}\s+been)\s+hired))(?:\s+as\s+(?:a|an)\s+{_TITLE})?\s+{_PLACE}{_ROLE_AFTER}",
    "job position role hired",
)
""""I got a job at a bakery", "I started a new job as a nurse at the hospital", "I got hired at
a bank as a data analyst": a new employer said by its kind, from when (a start said ahead:
from then), and the job named before or after it."""
_TEACHES = rule(
    rf"{SUBJ}(?:{HAVE}\s+been|(?P<be>{BE}))?\s+{ADV}(?P<verb>teach|teaches|teaching)\s+(?!(?:a|an|the)\b)(?:[A-Za-z]+\s+){{0,2}}?"
    rf"at\s+{_ORG}",
    "teach teaches teaching",
)
""""I teach (maths) at Riverside High", "I've been teaching at X since 2019", "I'm teaching at X
now", "I'm still teaching maths at X": where one teaches is where one works. Not "I'm teaching a
workshop at X" (an event, with its article) nor "I'm teaching at X next week" (the present
progressive says a job only with "now", "still", "currently" or "these days")."""
_TEACHES_SUBJECT_AT_KIND = rule(
    rf"{SUBJ}(?P<been>{HAVE}\s+been)?\s+{ADV}(?P<verb>teach|teaches)\s+(?!(?:a|an|the|at|in|for)\b)(?:[A-Za-z]+\s+){{1,2}}?"
    rf"{_PLACE}",
    "teach teaches",
)
""""I teach maths at the high school", "I teach English at a middle school": a subject taught at a
place said by its kind, as "I teach at the high school" (``_WORKS_UNNAMED``) is."""
_SCHOOL = re.compile(r"\b(?:school|high|academy|kindergarten|preschool|pre-school)\b", re.IGNORECASE)
"""A place one teaches at that makes one a teacher: a school ("the high school", "Riverside
High", "Oak Academy"), not a university, a gym or a studio, where one teaching may be a
lecturer, a coach, an instructor."""
_TEACHES_GRADE = rule(
    rf"{SUBJ}\s+{ADV}(?P<verb>teach|teaches)\s+(?P<level>(?:(?:first|second|third|fourth|fifth|sixth|seventh|eighth"
    r"|ninth|tenth|eleventh|twelfth|1st|2nd|3rd|[4-9]th|1[0-2]th)\s+grade|kindergarten|pre-?k|preschool"
    r"|(?:high|middle|elementary|primary|secondary)\s+school)(?:\s+(?:maths?|science|english|history|art|music|french"
    r"|spanish|biology|chemistry|physics))?)(?=\s*(?:[.!;,]|$|\s+(?:at|in|now|and|but|so)\b))",
    "teach teaches",
)
""""I teach third grade", "I teach high school chemistry": a teacher (the occupation), a
school level said where the school is not; not "I teach yoga" (a class one may give)."""
_ONGOING_WORDS = re.compile(r"\b(?:now|still|currently)\b", re.IGNORECASE)
_GIG = rule(
    rf"{SUBJ}(?:(?P<been>{HAVE}\s+been)|{BE})?\s+{ADV}(?P<verb>(?:drive|drives|driving|deliver|delivers|delivering)(?:\s+part-time)?\s+for"
    rf"|(?:wait|waits|waiting)\s+tables\s+at|(?:tend|tends|tending)\s+bar\s+at)\s+{_ORG}"
    r"(?!\s+(?:this|next|tomorrow|tonight|later|on\s+(?!weekends\b)))",
    "drive drives driving deliver delivers delivering wait waits waiting tend tends tending",
)
""""I drive for Uber", "I deliver for a bakery called …", "I wait tables at Rosa's Diner", "I
tend bar at the Red Lion", "I've been driving for Uber (since May)", "I'm driving for Uber
these days": who one works for, in the habitual present; the progressive with "now" or how
long (not "I'm driving for Lyft tonight", a one-off), never a name Level 0 knows as a person."""
_GIG_ONGOING = re.compile(r"\s+(?:now|these\s+days|nowadays|full-time|part-time)\b")
_AT_NOW = rule(
    rf"{SUBJ}{BE}\s+(?:(?P<now>now|currently|still)\s+)?{ADV}at\s+{_ORG}(?(now)|\s+(?:now|these\s+days|nowadays)\b)"
    r"(?:,?\s+as\s+(?:a|an)\s+(?P<role>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,3}))?",
    "now currently still days nowadays",
)
""""I'm at Google now", "I'm still at Google": the employer, when the turn speaks of work ("I
left Initech, I'm at Google now", "new job, I'm at Google now"), names a job held there
("I'm at Google now, as a designer": the occupation too) or Google is already the speaker's
employer; alone it may be where one is standing ("I'm at Starbucks now", "I'm still at the
airport")."""
_NOW_AT = rule(
    rf"(?:[Nn]ow|[Tt]hese\s+days|[Nn]owadays),?\s+{SUBJ}{BE}\s+{ADV}at\s+{_ORG}(?![\w'’])(?!\s+(?:for|with|to)\b)",
    "now days nowadays",
)
""""Now I'm at Globex", "These days I'm at Globex": ``_AT_NOW`` with the "now" first, read on
the same terms (work talked of in the turn, or Globex already the employer)."""
_WORK_TALK = re.compile(
    r"\b(?:job|jobs|work|works|working|worked|company|employer|role|position|team|hired|joined|quit|left|switched"
    r"|boss|colleagues|coworkers|career|laid\s+off|fired|offer|notice)\b",
    re.IGNORECASE,
)
_EMPLOYED = rule(rf"{SUBJ}{BE}\s+{ADV}(?:employed|(?:self-)?contracted)\s+(?:by|at)\s+{_ORG}{_ROLE_AFTER}", "employed contracted")
""""I'm employed by Globex", "I'm employed at the Royal Navy as an engineer": the employer."""
_BEEN_AT = rule(
    rf"{SUBJ}{HAVE}\s+{ADV}been\s+(?P<prep>at|with)\s+{_ORG}(?=\s+(?:for\s+(?:about\s+|almost\s+|nearly\s+|over\s+)?"
    r"(?:\d+|a|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|several|many)\s+(?:years?|months?)"
    r"|since\s+(?:\d{4}|January|February|March|April|May|June|July|August|September|October|November|December"
    r"|last\s+(?:year|month)))\b)",
    "been",
)
""""I've been at Google for five years", "… since 2019": the employer, since then. Only with
months or years: "I've been at Starbucks for two hours" is a visit. "With" a name is a job only
where the name is no person Level 0 knows ("I've been with Acme Corp since 2019"), was the
employer already, or the sentence says the job ("… for five years as an engineer"): "I've been
with Sam for five years" is a partner (Level 0 reads a lone name after "with" as a person, so
"I've been with Globex since 2019" alone stays nothing)."""
_AS_ROLE = re.compile(r"^[^.!?;]*?\bas\s+(?:a|an)\s+(?P<role>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,3})")
_HAS_WORKED = rule(rf"{SUBJ}{HAVE}\s+{ADV}worked\s+(?:at|for)\s+{_ORG}", "worked")
""""I've worked at Initech since 2019": the present perfect with how long says one still does
(not "I worked at Initech", a past, nor "I've worked at Initech", once), and since when
(``stated_start``: 1 Jan 2019). Only with how long (``lasting``)."""
_JOB_KIND = (
    r"(?:(?!(?:going|doing)\b)[a-z]+ing|sales|office|tech|retail|summer|temp|side|desk|government|corporate|remote"
    r"|research|marketing|design)\s+"
)
"""What kind of job it is, between "a new" and "job": "a new teaching job at X", "a sales job at X"."""
_GOT_JOB = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:got|landed|accepted|found|scored|took)\s+(?:a|an|the|my)\s+"
    rf"(?:new\s+|full-time\s+|part-time\s+|dream\s+|permanent\s+)*(?:{_JOB_KIND})?(?:job|position|role|(?:job\s+)?offer"
    rf"|(?<=new\s)(?P<one>one))(?:\s+as\s+(?:a|an)\s+{_TITLE})?\s+(?:at|with|from)\s+{_ORG}{_ROLE_AFTER}",
    "job position role offer one",
)
""""I got a job at Globex", "I landed a new position with Initech as an analyst", and in a turn
about work "… but I found a new one at Initech" (the job lost or left before it)."""
_TOOK_IT = rule(rf"{SUBJ}\s+{ADV}(?P<verb>took|accepted)(?:\s+it)?(?=\s*(?:[.!;,]|$|\s+(?:and|but)\b))", "took accepted")
_OFFERED_ME = re.compile(
    rf"(?P<org>{PROPER})\s+(?:just\s+|finally\s+)?offered\s+me\s+(?:a|an|the)\s+(?:new\s+|full-time\s+|part-time\s+)*"
    r"(?:job|position|role)\b"
)
""""Initech offered me a job and I took it" / "… and I accepted": the offer accepted, as "I
accepted a job at Initech" is (an offer alone is no job)."""
_OFFER_RECEIVED = (
    r"(?:got|received)\s+(?:a|an|the)\s+(?:new\s+|full-time\s+|part-time\s+)*(?P<job>job\s+)?offer\s+from\s+(?:the\s+)?"
)
_OFFER_FROM_TAKEN = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}{_OFFER_RECEIVED}(?P<org>{PROPER}?)\s+and\s+(?:then\s+)?(?P<verb>took|accepted)(?:\s+it)?"
    r"(?=\s*(?:[.!;,]|$))",
    "offer",
)
_OFFER_GOT = re.compile(rf"(?<![\w'’])I\s+(?:just\s+|finally\s+)?{_OFFER_RECEIVED}(?P<org>{PROPER})")
""""I got a job offer from Initech and (I) accepted it": the same offer, said by the one who
received it. Level 0 reads a lone name after "from" as a person; a job offer's name is the
employer's whatever it is, a bare offer's only when it is not a person ("an offer from
Tobias" may be for a car)."""
_NEW_JOB_AS = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:got|landed|found|started|accepted|took)\s+(?:a|an|my)\s+"
    rf"(?:new\s+|full-time\s+|part-time\s+|dream\s+|first\s+)*(?:job|position|role)\s+as\s+(?:a|an)\s+{_TITLE}"
    r"(?!\s+(?:at|with|for)\b)",
    "job position role",
)
""""I started a new job as a teacher": the occupation, since then (with the workplace named,
``_GOT_JOB`` reads both)."""
_GRADUATED = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}graduated\b(?!\s+(?:from\s+)?(?:high\s+school|middle\s+school|kindergarten)\b)",
    "graduated",
)
_STILL_LEARNING = re.compile(
    r"\b(?:grad(?:uate)?\s+school|master['’]?s|phd|doctorate|med(?:ical)?\s+school|law\s+school|still\s+studying)\b",
    re.IGNORECASE,
)
""""I just graduated (from college)": no longer a student (the registry's implied surface),
unless the turn goes on to more study ("… and started grad school")."""
_WHEN_AHEAD = (
    r"(?:\s+(?:next\s+[A-Za-z]+|this\s+[A-Za-z]+"
    r"|in\s+(?:a|an|one|two|three|four|five|six|a\s+few|\d+)\s+(?:days?|weeks?|months?)|in\s+[A-Za-z0-9]+"
    r"|on\s+[A-Za-z]+(?:\s+\d{1,2}(?:st|nd|rd|th)?)?|tomorrow|soon))?"
)
"""A start said between the employer and the role ("joining Initech *next month* as an engineer")."""
_STARTS = rule(
    rf"{SUBJ}(?:{BE}|{HAVE})?\s+{ADV}(?P<verb>start|starts|started|starting|begin|begins|began|begun)\s+"
    rf"(?P<job>work(?:ing)?{_SHIFT}\s+|(?:a|my)\s+(?:(?:new|first)\s+)?(?:(?:real|proper|full-time|part-time)\s+)?"
    rf"(?:job|position|role)\s+|(?:a|my)\s+(?:new|first)\s+gig\s+)?"
    rf"(?:as\s+(?:a|an)\s+{_TITLE}\s+)?(?(job)(?:at|with|for)|(?:at|with))\s+{_ORG}{_WHEN_AHEAD}{_ROLE_AFTER}",
    "start starts started starting begin begins began begun",
)
""""I started at Globex", "I started working (from home) for Initech", "I started a (new) job at
Globex", "I start at Globex on Monday": the employer, from the start. "For" only after the work
or the job is said ("I started for the first team" is a player's); a gig only when new or first
(a musician's gigs are not jobs)."""
_SIGNED = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}signed\s+(?:on\s+)?(?:(?:a|an|my|the)\s+(?P<kind>(?:[a-z0-9-]+\s+){{0,3}}?)contract\s+)?"
    rf"(?:with|at)\s+{_ORG}{_WHEN_AHEAD}{_ROLE_AFTER}",
    "signed",
)
""""I signed a full-time contract with Pixar as an illustrator", "I signed on with Initech as an
analyst": the employer (whatever Level 0 took the name for), when the contract says it is a job
(``_JOB_CONTRACT``) or a job is said after the name ("I signed a two-year contract with
Vodafone" is a phone's, "I signed a lease with …" a home's)."""
_JOB_CONTRACT = re.compile(r"\b(?:full-time|part-time|permanent|fixed-term|employment|job|work|teaching|staff)\b")
_JOINING = rule(rf"{SUBJ}{BE}\s+{ADV}(?:officially\s+)?joining\s+{_ORG}{_WHEN_AHEAD}{_ROLE_AFTER}", "joining")
""""I'm joining Initech next month (as an engineer)": a start to come, from the date ahead, a plan
without one; only when the turn speaks of work or says the role, before or after the date ("I'm
joining Tom for lunch", "I'm joining CrossFit" are no jobs)."""
_SCHOOL_NAME = re.compile(rf"\b{INSTITUTION_HEADS}$")
"""An institution a learner starts at ("Hillview Academy", "Leeds University")."""
_AS_STAFF = re.compile(r"\b(?:work(?:ing)?|job|as\s+(?:a|an))\b")
"""A start that says it is a job ("started working at", "as a teacher")."""
_OFFER = re.compile(r"\boffer\b")
"""A job match about an offer ("got an offer from X", ``_accepted``)."""
_SCHEDULED = frozenset({"start", "starts", "starting", "begin", "begins"})
"""Present forms of "start" that, with no date placed before the turn, tell a start to come."""
_JOINED = rule(rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:joined|join|joins)\s+{_ORG}\s+as\s+(?:a|an)\s+{_TITLE}", "joined join joins")
_JOINED_NAMED = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:left{WHEN_LEFT}\s+and\s+(?:then\s+)?)?(?:officially\s+|finally\s+|recently\s+)?"
    rf"joined\s+{_ORG}(?!['’])"
    r"(?=\s*(?:[.!;,]|$)|\s+(?:last|this|in|on|back|recently|earlier|a|an|one|two|three|four|five|six|a\s+few"
    r"|several|after|and|full-time|part-time|now|since|yesterday|today)\b)",
    "joined",
)
""""I joined Initech last month", "I left last spring and joined Initech" (a reply to "Still at
Globex?"): a name joined, closing its clause or followed by when. Joined may be a gym, a club or a team as well as a workplace, so it is the
employer only where the work is said around it (``_work_context``: job words in the turn, or
in the question it answers, or a question naming the employer held), or where someone's
earlier beliefs hold the name as an employer ("Tom works at Initech", then "I joined
Initech"). Not a person Level 0 knows, not "Initech's newsletter" (a possessive), nor "the
book club at Globex" (no name joined)."""
_JOINED_WORKPLACE = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:joined|join|joins)\s+(?:a|an)\s+(?:[a-z-]+\s+){{0,2}}?"
    rf"(?:startup|start-up|company|firm|agency|consultancy|law\s+firm)\s+(?:called|named)\s+{_ORG}{_ROLE_AFTER}",
    "joined join joins",
)
""""I joined a startup called Bloop", "… a small design agency named Pixelworks": a workplace
introduced by its kind is the employer, as "joined X as a designer" is. Only kinds that are
workplaces: "joined a band called X", "a club named X" are pastimes."""
_LEFT_AND_JOINED = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?P<verb>left|quit|resigned\s+from)\s+(?:the\s+)?(?P<old>{PROPER}){WHEN_LEFT}\s+(?:and|to)\s+"
    rf"(?:then\s+)?(?P<next>join|joined|work\s+(?:at|for))\s+{_ORG}"
    rf"{_ROLE_AFTER}",
    "joined join work",
)
""""I left Initech and joined Globex": leaving the workplace the person was said to work at
(``Ctx.holds``: "Eva left Initech …" after "Eva works at Initech") to join another is a change of job, so what was joined is the employer, as
"joined X as a …" is; "joined" alone may be a club, a gym or a friend ("I left Paris and
joined Tom in Rome"). Quitting or resigning from a name says it was a job whatever was held
before ("I quit Globex to join Initech", "… and joined Initech", "… to work for Initech"),
so what comes next is the employer then too, unless it is a person Level 0 knows ("I quit
Globex and joined Tobias in Rome")."""
_WORKED_THEN_JOINED = rule(
    rf"{SUBJ}\s+{ADV}(?:worked|was\s+working)\s+(?:at|for)\s+(?:the\s+)?(?P<old>{PROPER})"
    rf"{FOR_A_WHILE}(?:,?\s+(?:until|till)\s+(?:\w+\s+){{0,2}}?\w+)?{AND_THEN}(?P<next>join|joined|work\s+(?:at|for))\s+{_ORG}"
    rf"{_ROLE_AFTER}",
    "then",
)
""""I worked at Initech for years, then joined Globex": a job held, then another joined, is a
change of job as "I left Initech and joined Globex" is, so what was joined is the employer (only
after "then": "I worked at Initech and joined a choir" may be a pastime)."""
_HIRED = rule(
    rf"{SUBJ}\s+(?:{ADV}(?:got|was|were)|{HAVE}\s+been|{A}ve\s+been)\s+{ADV}(?:hired|recruited|taken\s+on)\s+(?:at|by)\s+{_ORG}"
    rf"{_ROLE_AFTER}",
    "hired recruited taken",
)
_ORG_OPENS = r"(?<![\w'’])(?!(?:So|And|But|Then|Well|Oh|Yeah|Anyway|Now|Also|Plus|Finally|Guess\s+what)\b)"
"""Before an employer that opens its clause: a discourse word is not part of its name ("So the
Royal Navy hired me")."""
_HIRED_ME = rule(
    rf"{_ORG_OPENS}{_ORG}\s+{ADV}"
    rf"(?:(?:has|have)\s+)?(?P<verb>hired|recruited)\s+me\b(?!\s+to\s){_ROLE_AFTER}",
    "hired recruited",
)
""""Initech hired me (as a designer)": the speaker's employer, as "I was hired by Initech" is.
Not a one-off task ("Tom hired me to paint his fence"), nor a name Level 0 took for a
person; a discourse word before the name is not part of it ("So the Royal Navy hired me")."""
_LET_ME_GO = rule(
    rf"{_ORG_OPENS}{_ORG}\s+{ADV}(?:(?:has|have)\s+)?"
    rf"(?P<verb>laid\s+me\s+off|let\s+me\s+go{GONE_FOR_GOOD}|fired\s+me|sacked\s+me)\b",
    "laid let fired sacked",
)
""""Globex laid me off": the speaker works there no longer, as "I was laid off by Globex"
says it; the same guards as ``_HIRED_ME``."""
_LET_GO_PASSIVE = {"laid": "laid off", "let": "let go", "fired": "fired", "sacked": "sacked"}
_LEFT = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?P<verb>resigned\s+from|retired\s+from|quit|handed\s+in\s+(?:my|his|her)\s+(?:notice|resignation)\s+at"
    rf"|gave\s+(?:my\s+|in\s+my\s+)?notice\s+at|(?:got|was)\s+(?:laid\s+off|fired|let\s+go|made\s+redundant)\s+(?:from|by)"
    rf"|(?:lost|quit|left)\s+(?:my|his|her)\s+(?:old\s+)?job\s+(?:at|with)|stopped\s+working\s+(?:at|for)"
    rf"|left(?=\s+(?:the\s+)?{PROPER}{WHEN_LEFT}\s+(?:and|to)\s+(?:join|joined|start|started|work)\b))\s+{_ORG}",
    "resigned resignation retired quit notice laid fired let redundant job working left",
)
_USED_TO_WORK = rule(rf"{SUBJ}\s+{ADV}used\s+to\s+work\s+(?:at|for)\s+{_ORG}", "used")
""""I used to work at Globex", "we used to work for Initech": a job of a past, held no longer
(the validator reads "used to" as its end; when is not said)."""
_WORKED_UNTIL = rule(
    rf"{SUBJ}\s+{ADV}(?:worked|was\s+working)\s+(?:at|for)\s+{_ORG}{UNTIL_A_DATE}",
    "until till",
)
""""I worked at Initech until last year", "I worked for Globex for six years until 2023": the job
held until then, and held no longer (a past tense with its end; not "I worked at Initech until
midnight", whose "until" says no date Level 0 resolves in the past)."""
_JOINED_SOMEONE = re.compile(rf"{WHEN_LEFT}\s+(?:and|to)\s+(?:then\s+)?(?:join|joined)\s+(?P<who>{NAME})\b")
"""What follows "left X": joining a person Level 0 knows ("… and joined Tom in Rome")."""
_LEFT_NAMED = rule(rf"{SUBJ}(?:{HAVE})?\s+{ADV}left\s+{_ORG}", "left")
""""I left Initech (last month)", "Eva left Initech": a job left when the earlier beliefs of
whoever left hold the name as their employer (``Ctx.holds``); "left" a name alone may be a party, a town or a team."""
_MOVED_ON = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?P<verb>moved|switched|went|transferred|jumped\s+ship)\s+"
    rf"(?:from\s+(?:the\s+)?(?P<old>{PROPER})\s+)?to\s+{_ORG}",
    "moved switched went transferred jumped",
)
""""I moved from Globex to Initech", "I jumped ship to Initech": a job for another, when the earlier
beliefs hold the one left as the employer ("I moved from Denver to Austin" is a home's move,
"I switched from Android to iOS" no job at all); jumping ship is always a job's."""
_NOT_WORKS = rule(
    rf"{SUBJ}\s+(?:do\s+not|does\s+not|don{A}t|doesn{A}t|no\s+longer)\s+(?:really\s+)?(?:work|works)\s+(?:at|for)\s+{_ORG}",
    "work works",
)
_NOT_WORKING = rule(
    rf"{SUBJ}{BE}\s+(?:(?P<longer>no\s+longer)|not)\s+(?:really\s+)?working\s+(?:at|for)\s+{_ORG}"
    r"(?(longer)|(?=\s+(?:anymore|any\s+more)\b))",
    "working",
)
""""I'm no longer working at Globex", "I'm not working at Globex anymore": the job has ended (not
"I'm not working at Globex today", a day off)."""
_NOT_AT = rule(
    rf"{SUBJ}{BE}\s+(?:not|no\s+longer)\s+(?:at|with)\s+{_ORG}(?=\s+(?:anymore|any\s+more)\b|\s*[.!]?\s*$)",
    "not longer",
)
""""I'm not at Globex anymore" (as a reply to "Are you still at Globex?" reads): an end of the
job, only where the speaker's earlier beliefs hold Globex as the employer ("I'm not at
Heathrow anymore" is somewhere else)."""
_THE_KIND = rf"the\s+(?P<place>(?:[a-z][a-z'’-]*\s+){{0,2}}?(?:{WORKPLACES}))(?![\w'’-])"
"""A workplace said by its kind after "the" ("the law firm"), as one refers back to it."""
_LEFT_KIND = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?P<verb>left|quit|resigned\s+from|retired\s+from|stopped\s+working\s+(?:at|for|in)"
    rf"|(?:got|was)\s+(?:laid\s+off|fired|let\s+go|made\s+redundant)\s+(?:from|by|at)"
    rf"|(?P<not>do\s+not|does\s+not|don{A}t|doesn{A}t|no\s+longer)\s+work\s+(?:at|for|in))\s+{_THE_KIND}",
    "left quit resigned retired working laid fired let redundant work",
)
_KIND_LET_ME_GO = rule(
    rf"(?<![\w'’])[Tt]he\s+(?P<place>(?:[a-z][a-z'’-]*\s+){{0,2}}?(?:{WORKPLACES}))\s+{ADV}(?:(?:has|have)\s+)?"
    rf"(?P<verb>laid\s+me\s+off|let\s+me\s+go{GONE_FOR_GOOD}|fired\s+me|sacked\s+me)\b",
    "laid let fired sacked",
)
"""A workplace the speaker held, said by its kind, left: "I left the law firm in April", "I
don't work at the hospital anymore", "I got laid off from the warehouse", "the bakery let me
go". Only where the subject's earlier beliefs hold that kind as the employer."""
_LEFT_FOR_GOOD = re.compile(
    r"\s*(?:[.!;]|$)|\s+(?:in\s+(?:[A-Z][a-z]+|\d{4})|last\s+(?:month|year|spring|summer|autumn|fall|winter)"
    r"|(?:a|an|one|two|three|four|five|six|a\s+few|a\s+couple\s+of|\d+)\s+(?:months?|years?)\s+ago|after\s+\w+\s+years"
    r"|for\s+good|to\s+(?:join|start|work|go\s+back)|and\s+(?:joined|started|now)|(?:,\s*)?(?:for|after)\s+(?:a|an|the)\s+new)\b"
)
"""After "left the hospital": when one leaves a job, not a building ("… in April", "… last
year", "… for good", the end of the sentence; not "… at six", "… this morning", "… early")."""
_PLACE_OF_WORK = rf"(?P<org>the\s+(?:[a-z][a-z-]+\s+){{0,3}}(?:{WORKPLACES}))\b"
"""A workplace by its kind after "the" ("… my job at the bakery"), the kinds of ``WORKPLACES``."""
_LOST_JOB_AT = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?P<verb>lost|quit|left)\s+(?:my|his|her)\s+(?:old\s+)?job\s+(?:at|with)\s+{_PLACE_OF_WORK}",
    "job",
)
_MY_JOB = rule(
    rf"(?<!lost\s)(?<!quit\s)(?<!left\s)(?<!leaving\s)(?<!losing\s)(?<!old\s)(?<!start\s)(?<!starts\s)(?<!starting\s)"
    rf"(?<!begin\s)(?P<subj>\b[Mm]y|{NAME}(?={A}s))(?:{A}s)?"
    r"\s+(?:new\s+|current\s+|full-time\s+|part-time\s+|day\s+)?"
    rf"(?:job|boss|manager|colleagues|coworkers|co-workers|workplace|(?<=new\s)(?:team|role|position)"
    rf"|(?P<first>first\s+(?:day|week|month)))\s+(?:at|with)\s+{_ORG}",
    "job boss manager colleagues coworkers co workplace team role position first",
)
_JOIN_VERB = re.compile(r"\b(got|landed|accepted|found|scored|took|hired|recruited|taken|joined|join)\b")
_JOIN_VERBS = {
    "got": "got a job at", "landed": "landed a job at", "accepted": "accepted a job at", "found": "found a job at",
    "scored": "got a job at", "took": "took a job at", "hired": "was hired by", "recruited": "was recruited by", "taken": "was taken on by",
    "joined": "joined", "join": "joined",
}  # fmt: skip
_LOST_JOB_AS = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?P<verb>lost|quit|left)\s+(?:my|his|her)\s+(?:old\s+)?job\s+as\s+(?:a|an)\s+{_TITLE}",
    "job",
)
_STATUS = rule(
    rf"{SUBJ}(?:{BE}|{HAVE}\s+{ADV}been)\s+{ADV}(?P<st>unemployed|self-employed|self\s+employed|jobless|retired"
    r"|out\s+of\s+work|between\s+jobs|out\s+of\s+a\s+job|freelancing|a\s+freelancer|freelance)(?![\w-])(?!\s+(?:from|as|teacher|nurse|doctor|officer|couple)\b)",
    "unemployed self employed jobless retired out between freelancing freelancer freelance",
)
"""Whether one works at all: "I'm unemployed", "I'm between jobs", "I'm self-employed", "I'm
retired". The registry holds these as the employer's own values (``unemployed``,
``self-employed``, ``retired``), so a later job moves the same dimension."""
_NO_JOB = rule(
    rf"{SUBJ}(?:\s+{ADV}(?:do\s+not|does\s+not|don{A}t|doesn{A}t)\s+{ADV}have\s+(?:a\s+)?job"
    rf"|\s+{ADV}(?:have|has)\s+no\s+job|{BE}\s+{ADV}without\s+(?:a\s+)?job)"
    r"(?=\s*(?:[.!;,]|$)|\s+(?:right\s+now|now|at\s+the\s+moment|currently|anymore|any\s+more|at\s+present|these\s+days"
    r"|yet|since|and|but|so)\b)",
    "job",
)
""""I don't have a job (right now)", "I have no job at the moment", "I'm without a job": out of
work (``unemployed``), where the clause ends or says when; not "I don't have a job interview",
"… a job that pays well", "… work today"."""
_FOR_ONESELF = rule(
    rf"{SUBJ}(?:{BE}|{HAVE}\s+been)?\s+{ADV}(?:work|works|working)\s+for\s+(?:myself|himself|herself|themselves)\b",
    "work works working",
)
""""I work for myself now", "I've been working for myself since 2020": self-employed (not
"I worked for myself", a past)."""
_BACK_AT_WORK = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:went|gone|got|came|come)\s+back\s+to\s+work(?:ing)?\s+(?:at|for)\s+{_ORG}{_ROLE_AFTER}",
    "went gone got came come",
)
""""I went back to work at Globex": the employer again, since then."""
_OWN_BUSINESS = rule(
    rf"{SUBJ}(?:{HAVE}\s+{ADV}been|{HAVE}|{BE})?\s+{ADV}(?P<verb>started|launched|opened|founded|set\s+up|run|runs|running|own|owns)\s+"
    r"(?:my|our|his|her|their)\s+own\s+(?:(?!business|company|firm)[a-z-]+\s+){0,3}?(?P<what>business|company|firm|practice|agency|startup"
    rf"|consultancy|bakery|shop|studio|restaurant|cafe|café|salon|store|boutique|clinic|gym|bar|pub|farm)\b"
    rf"(?:,\s+|\s+(?:called|named)\s+)?(?:{_ORG})?",
    "started launched opened founded set run runs running own owns",
)
""""I started my own business", "I run my own company, Acme": working for oneself (the
registry's ``self-employed``), or at the business when it is named; not "I'm starting my own
business", a plan."""
_RUNS_NAMED_BUSINESS = rule(
    rf"{SUBJ}(?:{HAVE}\s+{ADV}been|{BE})?\s+{ADV}(?P<verb>run|runs|running|own|owns)\s+(?:a|an)\s+(?:small\s+|little\s+)?"
    r"(?P<what>business|company|firm|practice|agency|startup|consultancy|bakery|shop|studio|restaurant|cafe|café|salon)"
    rf"\s+(?:called|named)\s+{_ORG}",
    "run runs running own owns",
)
""""I own a bakery called Crumbs", "I run a small agency named Pixelworks": the business one runs
now is where one works, as "my own bakery, Crumbs" is (``_OWN_BUSINESS``); only named, and
only run or owned now (not "I opened a café called …", which may be a story)."""
_RUNS_KIND = rule(
    rf"{SUBJ}(?P<been>{HAVE}\s+{ADV}been)?\s+{ADV}(?P<verb>run|runs|running)\s+(?:a|an|the)\s+"
    r"(?P<place>(?:[a-z]+\s+){0,2}?(?:bakery|restaurant|cafe|café|salon|boutique|bookshop|bookstore|bar|pub|diner"
    r"|hotel|gym|clinic|nursery|daycare|florist|garage|brewery|winery|vineyard|farm|food\s+truck|coffee\s+shop"
    r"|flower\s+shop|bike\s+shop|dance\s+studio|yoga\s+studio|bed\s+and\s+breakfast))"
    r"(?=\s*(?:[.!?,;]|$)|\s+(?:in|on|near|by|downtown|nearby|across|with|now|and|but|so|these|since|for\s+(?!the|my|a)))",
    "run runs running",
)
""""I run a small bakery downtown", "I've been running a café in Porto for years": the business
one runs is where one works, said by its kind as "I work at a bakery" is (not "I ran a bakery",
a story; "I'm running a bakery stall", another thing; "running" only with "have been" and how
long). Owning alone says less ("I own a bakery": others may run it)."""
_RUNS: Final = {"run": "runs", "runs": "runs", "running": "runs", "own": "owns", "owns": "owns"}
_SELF_EMPLOYED = frozenset({"business", "company", "firm", "practice", "agency", "startup", "consultancy"})
"""What one's own is, unnamed, that says one works for oneself (the registry's surfaces of
``self-employed``) whatever the verb."""
_OWN_TRADE = frozenset({"bakery", "shop", "restaurant", "cafe", "café", "salon", "store", "boutique", "clinic", "gym",
                        "bar", "pub", "farm"})
"""A trade's premises one's own, unnamed, that say one works for oneself only when one runs it
now ("I run my own bakery", "I'm running my own salon": ``self-employed``, as the registry's
"own bakery" surfaces say): owned, it may be run by others ("I own my own shop"), a studio may
be a flat, and one opened or started is what was done, not whether it is one's work now ("I
opened my own bakery last year")."""
_SET_UP = frozenset({"runs"})
_RETIRED = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:retired|went\s+into\s+retirement)"
    r"(?=\s*(?:[.!;,]|$|\s+(?:last|this|in|on|two|three|a\s+few|a\s+couple|early|recently)\b))",
    "retired retirement",
)
""""I retired last year": the speaker no longer works (employer ``retired``, dated)."""
_LET_GO = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?P<verb>(?:got|was|were|been|{HAVE}\s+been)\s+(?:laid\s+off|fired|sacked|let\s+go"
    rf"|made\s+redundant)|lost\s+(?:my|his|her|their)\s+job"
    r"|(?:quit|left)\s+(?:my|his|her|their)\s+(?:old\s+|day\s+|full-time\s+)?job"
    r"(?!\s+(?:to|for|and\s+(?:then\s+)?(?:started|joined|took|got|found|now|am|is))\b))"
    r"(?!\s+(?:from|by|at|with|as|of|up)\b)",
    "laid fired sacked let redundant lost quit left",
)
""""I got laid off last week", "I lost my job", "I quit my job": no work now (employer
``unemployed``, dated), whichever employer it was; with the employer named ("… from Initech",
"… my job at Initech") ``_LEFT`` ends that one. Not a job quit for another ("… to start a
bakery", "… and joined Initech"): what comes next is read where it is said."""
_LAYOFF_VERB = rf"(?P<verb>laid\s+off|fired|sacked|let\s+go{GONE_FOR_GOOD}|made\s+redundant)"
_WE_LET_GO = rule(
    rf"(?<![\w'’])(?P<subj>[Ww]e)\s+{ADV}(?:got|were|(?:have|{A}ve)\s+{ADV}been)\s+{ADV}{_LAYOFF_VERB}"
    rf"(?:\s+(?:from|by|at)\s+{_ORG})?(?!\s+(?:from|by|at|with|as|of|up)\b)",
    "laid fired sacked let redundant",
)
""""We (all) got laid off (from Globex)", "we were both let go last week": whoever else "we"
are, the speaker is one of them (a move or a pet "we" share is read as the household's; a
layoff of "we" includes the speaker whatever the "we")."""
_EVERYONE = (
    r"(?:everyone|everybody|all\s+of\s+us|us\s+all|us|the\s+rest\s+of\s+us"
    r"|(?:the|our)\s+(?:whole|entire)\s+(?:team|department|staff|office|company|division|studio|crew|unit)"
    r"|(?:half|most|a\s+third|a\s+quarter|a\s+lot|many|dozens|hundreds|thousands)\s+(?:of\s+)?(?:the|its|our|their|us)"
    r"(?:\s+(?:staff|team|company|workforce|employees|people|department|workers))?"
    r"|(?:\d+|dozens\s+of|hundreds\s+of|thousands\s+of)\s+(?:people|employees|workers|staff))"
)
_MASS_LAYOFF = rule(
    rf"{_ORG_OPENS}(?:(?P<they>[Tt]hey)|(?:[Tt]he|[Mm]y|[Oo]ur)\s+(?:[a-z-]+\s+)?(?P<kind>{WORKPLACES}"
    rf"|employer|office|bosses|boss|management)|{_ORG})\s+{ADV}(?:(?:has|have|had)\s+)?{ADV}"
    rf"(?:(?:laid\s+off|fired|sacked)\s+(?P<who>{_EVERYONE})|laid\s+(?P<who_off>{_EVERYONE})\s+off"
    rf"|(?P<let>let)\s+(?P<who_go>{_EVERYONE})\s+go(?P<for_good>{GONE_FOR_GOOD})?)",
    "laid fired sacked let",
)
""""The startup laid everyone off, including me", "Globex laid off the whole team, me included",
"Globex laid off half of us, and I was one of them", "they let all of us go last week": a
layoff the speaker was in (all of "us", or said to include "me"), as "Globex laid me off" is;
not "Globex laid off half of us" alone.
Letting "us" go is a layoff only by a workplace or for good ("the police let us go" is not;
"they let us go early" neither)."""
_ME_INCLUDED = re.compile(
    r",?\s*(?:including\s+me|me\s+included|myself\s+included|and\s+I\s+was\s+(?:one\s+of\s+them|among\s+them)"
    r"|me\s+among\s+them|and\s+me\s+too)\b",
    re.IGNORECASE,
)
_US: Final = frozenset({"us", "all of us", "us all", "the rest of us"})
_IN_THE_LAYOFFS = rule(
    rf"{SUBJ}\s+{ADV}(?:was|were|got)\s+{ADV}(?:(?:one\s+of|among)\s+(?:the|those)(?:\s+(?:\d+|[a-z]+))?"
    rf"(?:\s+(?:people|ones|employees|staff|workers|colleagues|folks))?\s+(?:(?:who|that)\s+(?:got|were)\s+)?"
    rf"(?P<verb>laid\s+off|let\s+go|made\s+redundant|cut)"
    rf"|(?:caught\s+(?:up\s+)?in|hit\s+by|part\s+of)\s+(?:the|a)\s+(?:(?:latest|recent|last|big|mass|new|first|second)\s+)*"
    rf"(?:round\s+of\s+)?(?:layoffs|lay-offs|redundancies|job\s+cuts))(?:\s+(?:at|from)\s+{_ORG})?",
    "laid let redundant cut layoffs lay redundancies cuts",
)
""""I was one of the people laid off", "I was among those let go", "I got caught in the layoffs
at Globex": the speaker was laid off (``unemployed``, which ends the job held)."""
_MOVED_FOR_JOB = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:moved|relocated)\s+(?:back\s+)?(?:(?:to|here\s+to)\s+{PROPER}\s+)?"
    rf"for\s+(?:a|my|the)\s+(?:new\s+)?(?:job|position|role)\s+(?:at|with)\s+{CALLED}{_ORG}",
    "moved relocated",
)
""""I moved to Austin for a new job at Initech": the move's reason is the employer, from the
move (not "I'm moving … for a job at …", a plan, which the past tense leaves out)."""
_LAST_DAY_WAS = rule(rf"(?P<subj>\b[Mm]y|{NAME}(?={A}s))(?:{A}s)?\s+last\s+day\s+(?:at|with)\s+{_ORG}\s+(?P<tense>was|is)\b", "last")
""""My last day at Globex was Friday" (or "Tom's …"): that job ended then; "my last day at Globex is 30 April":
it ends on that day (a last day no date places is left: when it comes is not known)."""
_DAY_WAS_LAST = rule(
    r"(?<![\w'’])(?P<day>[Tt]oday|[Yy]esterday|(?:[Ll]ast\s+)?(?:[Mm]on|[Tt]ues|[Ww]ednes|[Tt]hurs|[Ff]ri|[Ss]atur|[Ss]un)day)"
    rf"\s+(?P<tense>was|is)\s+(?P<subj>my)\s+last\s+day\s+(?:at|with)\s+{_ORG}",
    "last",
)
""""Yesterday was my last day at Globex", "Friday is my last day at Globex": the day first, as
``_LAST_DAY_WAS`` reads it after."""
_STATUS_VALUE = {"self employed": "self-employed", "jobless": "unemployed", "out of work": "unemployed",
                 "between jobs": "unemployed", "out of a job": "unemployed", "freelancing": "self-employed",
                 "a freelancer": "self-employed", "freelance": "self-employed"}  # fmt: skip
_IS_A = rule(
    rf"{SUBJ}(?:{BE}|{HAVE}\s+{ADV}been)\s+{ADV}(?:working\s+as\s+)?(?:a|an|(?P<def>the))\s+{_TITLE}"
    rf"(?:\s+(?P<prep>at|for|with)\s+{_ORG}|\s+{_PLACE})?",
    OCCUPATIONS | {"head", "vp", "chief"},
)
""""I'm a nurse (at X)", "I'm an accountant with Globex", and with "the" where the workplace is
named ("I'm the head chef at Rosa's Kitchen"): alone, "I'm the teacher" may be a role in a
story, not a job."""
_STAY_HOME_TITLE = r"stay(?:-at-|\s+at\s+)home\s+(?:mom|mum|dad|parent|mother|father|wife|husband)"
_STAYS_HOME = rule(
    rf"{SUBJ}(?:{BE}|{HAVE}\s+{ADV}been|(?:{HAVE})?\s+{ADV}(?P<became>became|become))\s+{ADV}(?:a|an)\s+(?:full-time\s+)?"
    rf"(?P<title>{_STAY_HOME_TITLE})(?![\w-])",
    "stay",
)
""""I'm a stay-at-home mom (now)", "I became a stay-at-home dad": caring for the family is what
one does (the occupation, as "homemaker" is), and one has left paid work (the employer's
``homemaker``, which ends the job held before); said once ("I've been a stay-at-home dad") it
held then, not now."""
_LEFT_TO_STAY_HOME = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?P<verb>left|quit|gave\s+up)\s+(?:(?:my|his|her|their)\s+(?:old\s+|day\s+|full-time\s+)?job"
    rf"|(?<!left\s)work|(?:the\s+)?(?P<org>{PROPER})){WHEN_LEFT}\s+to\s+(?:be(?:come)?\s+(?:a|an)\s+(?:full-time\s+)?(?P<title>{_STAY_HOME_TITLE})"
    r"|stay\s+(?:at\s+)?home\s+with\s+(?:the|my|our|his|her|their)\s+(?:kids|children|baby|babies|son|daughter|twins|family))(?![\w-])",
    "stay",
)
""""I quit my job to be a stay-at-home mom", "I left Globex to stay home with the kids": out of
paid work since then (``homemaker``); the employer left is ended where it is named. A name
left counts where it was the employer ("I left Leeds to stay home with my family" is a
move), and "left work" never ("I left work early to stay home with my sick son": a day)."""
_HOMEMAKERS: Final = frozenset({"homemaker", "housewife", "househusband"})
"""Occupations that are no paid work: "I'm a homemaker now" is the employer's ``homemaker`` too."""
_FORMER_TITLE = rule(rf"{SUBJ}{BE}\s+{ADV}(?:a|an)\s+(?P<mod>retired|former)\s+{_TITLE}", "retired former")
""""I'm a retired teacher": retired (the employer's status); "I'm a former nurse": the
occupation no longer. ``job_title`` refuses these modifiers for "I'm a …" itself. Not "an
ex-nurse": the validator reads "ex-nurse" as one word, so the nurse would find no support."""
_NO_LONGER_TITLE = rule(
    rf"{SUBJ}(?:(?:{BE}\s+not|\s+(?:isn|aren){A}t)\s+(?=(?:a|an)\s+[a-z -]*\bany\s*more\b)|{BE}\s+no\s+longer\s+)"
    rf"(?:a|an)\s+{_TITLE}",
    "anymore more longer",
)
""""I'm not a teacher anymore", "I'm no longer a nurse", "Eva isn't a nurse anymore": the
occupation held no longer (not "I'm not a teacher", which may never have been one)."""
_USED_TO_BE = rule(rf"{SUBJ}\s+{ADV}used\s+to\s+be\s+(?:a|an)\s+{_TITLE}", "used")
""""I used to be a teacher": the occupation of a past, held no longer (the validator reads "used
to" as its end); not "I used to be a heavy smoker", which names no job (``job_title``)."""
_TRADES: Final = {"teach": "teacher", "tutor": "tutor", "coach": "coach", "lectur": "lecturer", "nurs": "nurse"}
"""Verbs of a trade whose doer is the occupation ("teaching" is what a teacher does), by stem."""
_TRADE_VERB = r"(?P<trade>teach|tutor|coach|lectur|nurs)(?:e|es|ing|s)?"
_NO_LONGER_TRADE = rule(
    rf"{SUBJ}(?:{BE}\s+not|\s+(?:isn|aren|don|doesn){A}t|\s+do(?:es)?\s+not|(?P<longer>(?:{BE})?\s+no\s+longer))\s+{_TRADE_VERB}"
    r"(?(longer)(?=\s*(?:[.!,;]|$))|\s+any\s*more\b)",
    "anymore more longer",
)
""""I'm not teaching anymore", "I don't teach any more", "I no longer teach" (also the reply
"Still teaching?" — "Not anymore.", read as the first): the trade's occupation held no longer;
only with nothing taught after the verb ("I'm not teaching yoga anymore" may be a class)."""
_RETIRED_FROM_TRADE = rule(
    rf"{SUBJ}(?:{HAVE}|{BE})?\s+{ADV}retired\s+from\s+(?P<trade>teach|tutor|coach|lectur|nurs)ing\b"
    r"(?=\s*(?:[.!?,;]|$)|\s+(?:at|in|on|last|this|after|when|two|three|a\s+few|a\s+couple|years?|back|early"
    r"|recently|and|but|so|now|for\s+good)\b)",
    "retired",
)
""""I retired from teaching last year", "I'm retired from nursing", "I retired from teaching at
Oakwood High in 2020": the trade's occupation held no longer and the employer ``retired``, from
then (not "I retired from teaching the choir", a class: what follows says when or where)."""
_WORKS_AS = rule(
    rf"{SUBJ}(?:{BE}|{HAVE}\s+been)?\s+{ADV}(?:work|works|working|(?P<freelance>freelance|freelances|freelancing))"
    rf"{_SHIFT}\s+as\s+(?:a|an)\s+{_TITLE}",
    "work works working freelance freelances freelancing",
)
""""I work as a nurse", "I work nights as a security guard" (when or where one works in
between: ``_SHIFT``), "I'm freelancing as a translator": the occupation (freelancing: and
self-employed, as "I'm freelancing" alone is)."""
_FREELANCE = r"(?P<how>freelance|freelancing|self-employed|self\s+employed)(?![\w-])"
_GONE_FREELANCE = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?P<verb>went|gone|turned)\s+(?:fully\s+)?{_FREELANCE}"
    r"(?!\s+for\s+(?:a|an|one|two|three|a\s+few|a\s+couple\s+of|\d+)\s+(?:weeks?|months?|years?)\b)",
    "went gone turned",
)
""""I've gone freelance", "I went self-employed last year": working for oneself since then
(the registry's ``self-employed``); not a spell since over ("I went freelance for a year …")."""
_WORKS_FREELANCE = rule(
    rf"{SUBJ}(?:(?P<been>{HAVE}\s+been)|{BE})?\s+{ADV}(?:(?P<verb>work|works|working)\s+(?:as\s+a\s+)?(?:freelance|freelancer)"
    r"|freelance|freelances)(?![\w-])",
    "work works working freelance freelances",
)
""""I work freelance", "I've been working freelance since 2020", "I freelance now": one's own
employer (``self-employed``); "working" only with how long or "now" ("I'm working freelance on
a logo this week" is one job). "I hired a freelance designer" has no verb of one's own work."""
_FREELANCE_AFTER = re.compile(r",?\s+(?:(?:mostly|mainly|usually|now|all)\s+)?(?:freelance|freelancing)\b(?![\w-])")
""""I'm a graphic designer, freelance mostly": the occupation held freelance, after the title."""
_HAS_WORKED_AS = rule(rf"{SUBJ}{HAVE}\s+{ADV}worked\s+as\s+(?:a|an)\s+{_TITLE}", "worked")
""""I've worked as a nurse for ten years": as ``_HAS_WORKED``, a job of now only with how long."""
_PROMOTED = rule(
    rf"{SUBJ}\s+(?:{ADV}(?:got|was)|{HAVE}\s+been|{A}ve\s+been)\s+{ADV}promoted\s+to\s+(?:a\s+|an\s+)?{_TITLE}"
    rf"(?:\s+(?:at|with)\s+{_ORG})?",
    "promoted",
)
""""I got promoted to senior engineer (at Globex)": the occupation, and the employer where it
is named (one is promoted where one works)."""
_PROMOTED_ME = rule(
    rf"{_ORG_OPENS}(?:{_ORG}|(?P<they>[Tt]hey|(?:[Mm]y|[Tt]he)\s+(?:boss|manager|company|firm|bosses))(?![\w'’]))\s+{ADV}"
    rf"(?:(?:has|have)\s+)?{ADV}promoted\s+me\s+to\s+(?:a\s+|an\s+)?{_TITLE}"
    r"(?=\s*(?:[.!?,;]|$)|\s+(?:last|this|yesterday|today|on|in|and|but|so|after|at|with)\b)",
    "promoted",
)
""""Globex promoted me to team lead", "they just promoted me to senior engineer", "my boss
promoted me to manager": the occupation, and a named promoter confirmed as the employer (one
is promoted where one works; not a person Level 0 knows: "Tom promoted me to …" names no
workplace)."""
_MY_EMPLOYER = rule(
    rf"(?P<subj>\b[Mm]y|{NAME}(?={A}s))(?:{A}s)?\s+(?:new\s+|current\s+)?employer\s+is\s+{_ORG}", "employer"
)
""""My (new) employer is Initech": the employer."""
_BECAME = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?P<verb>became|become|retrained\s+as|re-trained\s+as)\s+(?:a|an)\s+"
    rf"(?:qualified\s+|certified\s+)?{_TITLE}",
    "became become retrained re-trained",
)
""""I became a teacher", "I've retrained as an electrician" (a career changed: the occupation
since then)."""
_BECAME_SAID = {"became": "became", "become": "became", "retrained as": "retrained as", "re-trained as": "re-trained as"}
"""How a ``_BECAME`` statement says the change, by the verb the turn used."""
_IN_DEPARTMENT = rule(
    rf"{SUBJ}(?:{BE}|{HAVE}\s+been)\s+{ADV}(?:working\s+)?in\s+(?P<dept>sales|marketing|HR|IT|finance|accounting|accounts|engineering"
    rf"|operations|logistics|admin|customer\s+(?:service|support)|legal|compliance|procurement|recruiting|recruitment"
    rf"|payroll|research)\s+(?:at|for)\s+{_ORG}",
    "sales marketing hr it finance accounting accounts engineering operations logistics admin customer legal "
    "compliance procurement recruiting recruitment payroll research",
)
""""I'm in sales at Initech", "I've been in marketing at Initech since 2019": a department of
the employer (since then)."""
_LEFT_TO_BECOME = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?P<verb>left|quit)\s+(?P<what>(?:my|his|her|their)\s+(?:old\s+|day\s+)?job|(?!trying|wanting|planning|hoping|attempting)[a-z]+ing)"
    rf"\s+to\s+become\s+(?:a|an)\s+{_TITLE}",
    "left quit",
)
""""I left teaching to become a nurse", "I quit my job to become a nurse": the occupation since
then (a job quit for another says what comes next: not ``unemployed``)."""


_LEARNERS = frozenset({"student", "pupil", "undergraduate", "undergrad", "postgraduate", "postgrad"})
_HEAD_OF = re.compile(
    r"(?:(?:new|deputy|assistant|associate|senior|interim)\s+)?(?:head|director|vp|vice\s+president|chief)\s+of\s+"
    r"(?!(?:the|a|an|my|our|his|her|their|it|them|this|that|state)\b)[a-z][a-z-]+(?:\s+(?:and\s+)?[a-z][a-z-]+)?"
    r"(?=\s*$|\s+(?:at|for|with)\b)"
)
"""A title said by what one heads ("head of marketing", "director of product design"), up to
the employer after it: the head noun is "head" or "director", with what they head."""


def _used_to_work(ctx: Ctx) -> Iterator[CandidateFact]:
    """"I used to work at Globex", "I used to be a teacher": the one part about a past habit
    that says something of now, that the job of then is held no longer (read before ``plain``
    turns such parts away)."""
    if not tells_an_end(ctx):
        return
    for m, s in matches(ctx, _USED_TO_WORK):
        if (org := org_name(m.group("org"))) is not None and org not in ctx.persons:
            yield fact(ctx, s, f"{s} used to work at {_the(m, org)}", "employer", org, polarity="negative",
                       confidence=0.8)
    for m, s in matches(ctx, _USED_TO_BE):
        if (title := job_title(m.group("title"))) is not None:
            yield fact(ctx, s, f"{s} used to be {article(title)} {title}", "occupation", title, polarity="negative",
                       confidence=0.75)


def job_title(words: str | None) -> str | None:
    """The job title at the start of ``words`` ("senior data scientist at …" → "senior data
    scientist"), or None when no known job noun heads it or a modifier makes it a judgement.
    """
    if not words:
        return None
    if (head := _HEAD_OF.match(words)) is not None:
        return " ".join(head.group(0).split())  # "head of marketing", "director of sales"
    parts = words.split()[:4]
    for i, word in enumerate(parts):
        if word in {"at", "for", "in", "and", "with", "who", "of", "on", "to"}:
            return None
        if word in OCCUPATIONS and not (i + 1 < len(parts) and parts[i + 1] in OCCUPATIONS):
            mods = parts[:i]
            if NOT_JOB_MODIFIERS.intersection(mods) or (word in NEEDS_QUALIFIER and not mods):
                return None
            return " ".join(parts[: i + 1])
    return None


def org_name(raw: str | None) -> str | None:
    """The organisation of a match, or None for a capitalised word that names none."""
    if raw is None:
        return None
    org = clean(raw).replace("’", "'")
    return None if not org or org.split()[0] in NOT_NAMES else org


def _workplace(words: str) -> str | None:
    """The employer a workplace said by its kind names ("small law firm" → "law firm"), or
    None when the words do not say which kind ("the same hospital", "a company")."""
    kept = [w for w in words.lower().split() if w not in _PLAIN_MODIFIERS]
    if any(w in _NOT_ONE_PLACE for w in kept) or (len(kept) == 1 and kept[0] in _NEEDS_KIND):
        return None
    return " ".join(kept)


def _the(m: re.Match[str], org: str) -> str:
    """The organisation as the statement names it ("the Royal Navy")."""
    return f"the {org}" if m.groupdict().get("the") else org


def employment(ctx: Ctx) -> Iterator[CandidateFact]:
    """Employer and occupation facts of one part."""
    yield from _used_to_work(ctx)
    if not plain(ctx):
        return
    yield from _joins(ctx)
    yield from _leaves(ctx)
    for m, s in matches(ctx, _NO_LONGER_TITLE):  # a negation of its own: before ``asserts``
        if (title := job_title(m.group("title"))) is not None:
            yield fact(ctx, s, f"{s} is no longer {article(title)} {title}", "occupation", title, polarity="negative",
                       confidence=0.8)
    for m, s in matches(ctx, _NO_LONGER_TRADE):
        title = _TRADES[m.group("trade").lower()]
        yield fact(ctx, s, f"{s} is no longer {article(title)} {title}", "occupation", title, polarity="negative",
                   confidence=0.75)
    for m, s in matches(ctx, _RETIRED_FROM_TRADE):
        if not ctx.part.negated:
            title, since = _TRADES[m.group("trade").lower()], past_date(ctx, m)
            said = f"{s} retired from {m.group('trade').lower()}ing"
            yield fact(ctx, s, said, "occupation", title, polarity="negative", valid_from=since, confidence=0.8)
            yield fact(ctx, s, said, "employer", "retired", valid_from=since, confidence=0.8)
    if not asserts(ctx):
        return
    for m, s in matches(ctx, _WORKS) + matches(ctx, _EMPLOYED) + matches(ctx, _MY_JOB, anywhere=True):
        starts = m.re is _MY_JOB.pattern and _STARTS_AHEAD.match(ctx.text, m.end()) is not None
        if (org := org_name(m.group("org"))) and starts and future_date(ctx) is None:
            # "My new job at Globex starts Monday" (a day Level 0 did not place): a start to
            # come, a plan until it is said done (as "I start at Globex on Monday").
            yield fact(ctx, s, f"{s} starts at {org}", "plans", f"start at {org}", modality="planned",
                       confidence=0.75)
        elif org and (m.groupdict().get("first") or starts) and (start := future_date(ctx)):
            # "my first day at Globex is 6 May", "my new job at Globex starts on 6 June": from then.
            yield _starts_on(ctx, s, org, start)
        elif org:
            # "My first day at Globex was 6 May", "my new job at Globex started last Monday": since then.
            began = (past_date(ctx, m) if m.groupdict().get("first") or _STARTED_AFTER.match(ctx.text, m.end())
                     else stated_start(ctx, m))  # fmt: skip
            yield fact(ctx, s, f"{s} works at {_the(m, org)}", "employer", org, valid_from=began, confidence=0.9)
            yield from _title(ctx, s, m)
    for m, s in matches(ctx, _WORKS_UNNAMED) + matches(ctx, _TEACHES_SUBJECT_AT_KIND):
        if (place := _workplace(m.group("place"))) and (m.group("verb") != "working" or (
                m.group("been") and lasting(ctx, m.end()))):
            verb = "teaches" if m.group("verb").startswith("teach") else "works"
            yield fact(ctx, s, f"{s} {verb} at {article(place)} {place}", "employer", place,
                       valid_from=stated_start(ctx, m), confidence=0.8)
            yield from _title(ctx, s, m)
            if verb == "teaches":
                yield from _teacher_at(ctx, s, place, m)
    for m, s in matches(ctx, _TEACHES):
        if m.group("be"):  # "I'm teaching at X": a job only when said to go on
            goes_on = _ONGOING_WORDS.search(ctx.text, m.end("be"), m.start("verb")) is not None
            if not (goes_on or _GIG_ONGOING.match(ctx.text, m.end())) or m.group("verb") != "teaching":
                continue
        if (org := org_name(m.group("org"))) and (m.group("verb") != "teaching" or m.group("be") or lasting(ctx, m.end())):
            yield fact(ctx, s, f"{s} teaches at {_the(m, org)}", "employer", org, valid_from=stated_start(ctx, m),
                       confidence=0.85)
            yield from _teacher_at(ctx, s, org, m)
    for m, s in matches(ctx, _TEACHES_GRADE):
        yield fact(ctx, s, f"{s} is a teacher, and {m.group('verb')} {m.group('level')}", "occupation", "teacher",
                   confidence=0.8)
    for m, s in matches(ctx, _GIG):
        ongoing = not m.group("verb").split()[0].endswith("ing") or m.group("been") or lasting(ctx, m.end())
        ongoing = ongoing or _GIG_ONGOING.match(ctx.text, m.end()) is not None
        if ongoing and (org := org_name(m.group("org"))) and org not in ctx.persons:
            verb = " ".join(m.group("verb").split())
            yield fact(ctx, s, f"{s} {verb} {_the(m, org)}", "employer", org, valid_from=stated_start(ctx, m),
                       confidence=0.8)
    for m, s in matches(ctx, _AT_NOW) + matches(ctx, _NOW_AT):
        org, role = org_name(m.group("org")), job_title(m.groupdict().get("role"))
        if org is not None and (role or _WORK_TALK.search(ctx.turn.text) or ctx.holds(s, org, "employer")
                                or _names_a_job_held(ctx, s, org)):
            yield fact(ctx, s, f"{s} works at {_the(m, org)} now", "employer", org, confidence=0.85)
            yield from _title(ctx, s, m)
    for m, s in matches(ctx, _BEEN_AT):
        if (org := org_name(m.group("org"))) is None:
            continue
        said_as = _AS_ROLE.match(ctx.sentence_after(m.end()))
        titled = said_as is not None and job_title(said_as.group("role")) is not None
        if m.group("prep") == "with" and org in ctx.persons and not (titled or ctx.holds(s, org, "employer")):
            continue  # "I've been with Sam for five years": a partner, as likely as a job
        yield fact(ctx, s, f"{s} works at {_the(m, org)}", "employer", org, valid_from=stated_start(ctx, m),
                   confidence=0.8)
    for m, s in matches(ctx, _HAS_WORKED):
        if lasting(ctx, m.end(), right_after=True) and (org := org_name(m.group("org"))):
            yield fact(ctx, s, f"{s} works at {_the(m, org)}", "employer", org, valid_from=stated_start(ctx, m),
                       confidence=0.85)
    for m, s in matches(ctx, _FOR_ONESELF):
        if not experiential_state(ctx, m):
            oneself = m.group(0).split()[-1].lower()  # "myself": the speaker, said as "themselves"
            said = f"{s} works for {'themselves' if oneself == 'myself' else oneself}"
            yield fact(ctx, s, said, "employer", "self-employed", valid_from=stated_start(ctx, m), confidence=0.85)
    for m, s in matches(ctx, _BACK_AT_WORK):
        if org := org_name(m.group("org")):
            yield fact(ctx, s, f"{s} went back to work at {_the(m, org)}", "employer", org, valid_from=past_date(ctx, m),
                       confidence=0.85)
            yield from _title(ctx, s, m)
    for m, s in matches(ctx, _OWN_BUSINESS):
        org, what = org_name(m.group("org")), m.group("what")
        verb = " ".join(m.group("verb").split())
        verb = _RUNS.get(verb, verb)  # "Ana runs her own business" (a past verb stays: "started")
        if org is not None:
            yield fact(ctx, s, f"{s} {verb} {possessive(s)} own {what}, {org}", "employer", org,
                       valid_from=past_date(ctx, m), confidence=0.8)
        elif what in _SELF_EMPLOYED or (what in _OWN_TRADE and verb in _SET_UP):
            yield fact(ctx, s, f"{s} {verb} {possessive(s)} own {what}", "employer", "self-employed",
                       valid_from=past_date(ctx, m), confidence=0.8)
    for m, s in matches(ctx, _RUNS_KIND):
        running = m.group("verb") == "running"
        if (place := _workplace(m.group("place"))) and (not running or (m.group("been") and lasting(ctx, m.end()))):
            yield fact(ctx, s, f"{s} runs {article(place)} {place}", "employer", place,
                       valid_from=stated_start(ctx, m), confidence=0.8)
    for m, s in matches(ctx, _RUNS_NAMED_BUSINESS):
        if (org := org_name(m.group("org"))) is not None and not experiential_state(ctx, m):
            what = m.group("what")
            yield fact(ctx, s, f"{s} {_RUNS[m.group('verb')]} {article(what)} {what}, {org}", "employer", org,
                       confidence=0.8)
    for m, s in matches(ctx, _STATUS):
        if experiential_state(ctx, m):
            continue  # "I've been unemployed": once, not now
        said = " ".join(m.group("st").split())
        yield fact(ctx, s, f"{s} is {said}", "employer", _STATUS_VALUE.get(said, said),
                   valid_from=stated_start(ctx, m), confidence=0.85)
    yield from _freelance(ctx)
    worked_as = [(m, s) for m, s in matches(ctx, _HAS_WORKED_AS) if lasting(ctx, m.end(), right_after=True)]
    for m, s in matches(ctx, _IS_A) + matches(ctx, _WORKS_AS) + worked_as:
        if experiential_state(ctx, m):
            continue  # "I've been a nurse (at Initech)": once, not now
        if m.groupdict().get("def") and not (m.groupdict().get("org") or m.groupdict().get("place")):
            continue  # "I'm the teacher (here)": a role, unless the workplace is named
        said_title = m.group("title")
        if m.groupdict().get("org") and said_title.startswith("new "):
            said_title = said_title[4:]  # "I'm the new manager at Globex": new there, a manager all the same
        freelance = m.re is _IS_A.pattern and not (m.groupdict().get("org") or m.groupdict().get("place")) and (
            said_title.startswith("freelance ") or _FREELANCE_AFTER.match(ctx.text, m.end()) is not None)
        said_title = said_title.removeprefix("freelance ")  # "a freelance translator": a translator, one's own employer
        if title := job_title(said_title):
            # "I've been a paramedic for six years": the start it states (none for "I'm a nurse").
            began = stated_start(ctx, m)
            yield fact(ctx, s, f"{s} is {article(title)} {title}", "occupation", title, valid_from=began,
                       confidence=0.8)
            if title in _HOMEMAKERS:  # "I'm a homemaker now": no paid work
                yield fact(ctx, s, f"{s} is {article(title)} {title}", "employer", "homemaker", valid_from=began,
                           confidence=0.8)
            # "I'm a student at Oxford": where a learner is is a school (the education rule's),
            # not an employer.
            if (
                "org" in m.groupdict() and (org := org_name(m.group("org"))) and title.split()[-1] not in _LEARNERS
                and not (m.groupdict().get("prep") == "with" and org in ctx.persons)  # "a teacher with Tom": a colleague
            ):
                yield fact(ctx, s, f"{s} works at {_the(m, org)}", "employer", org, valid_from=began, confidence=0.85)
            if (
                m.groupdict().get("place") and title.split()[-1] not in _LEARNERS
                and (place := _workplace(m.group("place")))
            ):  # "I'm a nurse at the local hospital"
                yield fact(ctx, s, f"{s} works at {article(place)} {place}", "employer", place, valid_from=began,
                           confidence=0.8)
            if m.groupdict().get("freelance") or freelance:  # "I'm freelancing as a translator": one's own employer
                yield fact(ctx, s, f"{s} freelances as {article(title)} {title}", "employer", "self-employed",
                           valid_from=began, confidence=0.85)
    for m, s in matches(ctx, _STAYS_HOME):
        if not experiential_state(ctx, m):
            title = " ".join(m.group("title").split())
            said = f"{s} {'became' if m.group('became') else 'is'} {article(title)} {title}"
            began = past_date(ctx, m) if m.group("became") else stated_start(ctx, m)
            yield fact(ctx, s, said, "occupation", title, valid_from=began, confidence=0.8)
            yield fact(ctx, s, said, "employer", "homemaker", valid_from=began, confidence=0.8)
    for m, s in matches(ctx, _LEFT_TO_STAY_HOME):
        org = m.group("org")
        if not ctx.part.negated and not (m.group("verb") == "left" and org and not ctx.holds(s, clean(org), "employer")):
            said = f"{s} {ctx.text[m.end('subj') : m.end()].strip()}"
            yield fact(ctx, s, said, "employer", "homemaker", valid_from=past_date(ctx, m), confidence=0.8)
            if title := m.group("title"):
                title = " ".join(title.split())
                yield fact(ctx, s, said, "occupation", title, valid_from=past_date(ctx, m), confidence=0.8)
    for m, s in matches(ctx, _FORMER_TITLE):
        if experiential_state(ctx, m) or (title := job_title(m.group("title"))) is None:
            continue
        mod = m.group("mod")
        said = f"{s} is {article(mod)} {mod} {title}"
        if mod == "retired":
            yield fact(ctx, s, said, "employer", "retired", confidence=0.8)
        else:
            yield fact(ctx, s, said, "occupation", title, polarity="negative", confidence=0.8)
    for m, s in matches(ctx, _NEW_JOB_AS):
        if not ctx.part.negated and (title := job_title(m.group("title"))):
            yield fact(ctx, s, f"{s} {ctx.text[m.end('subj') : m.end()].strip()}", "occupation", title,
                       valid_from=past_date(ctx, m), confidence=0.8)
    for m, s in matches(ctx, _GRADUATED):
        if not ctx.part.negated and _STILL_LEARNING.search(ctx.turn.text) is None:
            yield fact(ctx, s, f"{s} graduated", "occupation", "student", polarity="negative",
                       valid_from=past_date(ctx, m), confidence=0.75)
    for m, s in matches(ctx, _LEFT_TO_BECOME):
        if not ctx.part.negated and (title := job_title(m.group("title"))):
            what = re.sub(r"\b(?:my|his|her|their)\b", possessive(s), m.group("what"))
            yield fact(ctx, s, f"{s} {m.group('verb')} {what} to become {article(title)} {title}", "occupation", title,
                       valid_from=past_date(ctx, m), confidence=0.8)
    for m, s in matches(ctx, _PROMOTED) + matches(ctx, _BECAME):
        if title := job_title(m.group("title")):
            verb = "was promoted to" if "promoted" in m.group(0) else (
                f"{_BECAME_SAID[' '.join(m.group('verb').split())]} {article(title)}")
            yield fact(ctx, s, f"{s} {verb} {title}", "occupation", title,
                       valid_from=past_date(ctx, m), confidence=0.8)
            if "org" in m.groupdict() and (org := org_name(m.group("org"))):
                yield fact(ctx, s, f"{s} was promoted to {title} at {_the(m, org)}", "employer", org,
                           confidence=0.85)
    yield from _promoted_me(ctx)
    for m, s in matches(ctx, _IN_DEPARTMENT):
        if not experiential_state(ctx, m) and (org := org_name(m.group("org"))):
            yield fact(ctx, s, f"{s} works in {m.group('dept')} at {_the(m, org)}", "employer", org,
                       valid_from=stated_start(ctx, m), confidence=0.85)
    for m, s in matches(ctx, _MY_EMPLOYER, anywhere=True):
        if org := org_name(m.group("org")):
            yield fact(ctx, s, f"{possessive(s)} employer is {_the(m, org)}", "employer", org, confidence=0.85)


def _freelance(ctx: Ctx) -> Iterator[CandidateFact]:
    """Working freelance (``_GONE_FREELANCE``, ``_WORKS_FREELANCE``): the employer
    ``self-employed``, since the change or the start stated."""
    for m, s in matches(ctx, _GONE_FREELANCE):
        how = " ".join(m.group("how").split())
        yield fact(ctx, s, f"{s} went {how}", "employer", "self-employed", valid_from=past_date(ctx, m),
                   confidence=0.8)
    for m, s in matches(ctx, _WORKS_FREELANCE):
        progressive = m.group("verb") == "working"
        if experiential_state(ctx, m) or (progressive and not (
                (m.group("been") and lasting(ctx, m.end())) or _GIG_ONGOING.match(ctx.text, m.end()))):
            continue
        yield fact(ctx, s, f"{s} works freelance", "employer", "self-employed", valid_from=stated_start(ctx, m),
                   confidence=0.8)


def _names_a_job_held(ctx: Ctx, s: str, org: str) -> bool:
    """Whether the turn says a change (a Level 0 correction cue) and names another workplace
    ``s``'s earlier beliefs hold as the employer: "I'm not at Globex anymore, I'm at Initech
    now" speaks of work when Globex was the job ("Globex is far, I'm at Heathrow now" does not)."""
    if not any(signal.kind is SignalKind.CORRECTION for signal in ctx.turn.signals):
        return False
    held = [value for value, (attribute, _) in ctx.named.get(s.casefold(), {}).items() if attribute == "employer"]
    text = ctx.turn.text.casefold()
    return any(v != org.casefold() and re.search(rf"(?<![\w'’]){re.escape(v)}(?![\w'’])", text) for v in held)


def _promoted_me(ctx: Ctx) -> Iterator[CandidateFact]:
    """"Globex promoted me to team lead" (``_PROMOTED_ME``): the speaker's new title, and the
    employer it names."""
    speaker = ctx.turn.speaker
    if not speaker or not asserts(ctx):
        return
    for m in openings(ctx, _PROMOTED_ME):
        org = org_name(m.group("org")) if m.group("org") else None
        if org is not None and org in ctx.persons:
            org = None  # "Tom promoted me": a person, no workplace
        if not (title := job_title(m.group("title"))):
            continue
        when = past_date(ctx, m)
        yield fact(ctx, speaker, f"{speaker} was promoted to {title}", "occupation", title, valid_from=when,
                   confidence=0.8)
        if org is not None:
            yield fact(ctx, speaker, f"{_the(m, org)} promoted {speaker} to {title}", "employer", org, confidence=0.85)


def _teacher_at(ctx: Ctx, s: str, place: str, m: re.Match[str]) -> Iterator[CandidateFact]:
    """Teaching at a school is being a teacher ("I teach at Riverside High", "I teach maths at the
    high school"), unless the sentence names the job otherwise ("… as a librarian"). Said with
    "teach" or "teaches", whose word the validator finds in "teacher" ("teaching" it does not)."""
    named_otherwise = m.groupdict().get("role") or m.groupdict().get("title")
    if m.group("verb") in {"teach", "teaches"} and _SCHOOL.search(place) and not named_otherwise:
        where = _the(m, place) if place[:1].isupper() else f"the {place}"
        yield fact(ctx, s, f"{s} is a teacher at {where}", "occupation", "teacher", confidence=0.8)


def _title(ctx: Ctx, s: str, m: re.Match[str]) -> Iterator[CandidateFact]:
    """The occupation a job match names, before the employer ("as a nurse at X") or after it."""
    groups = m.groupdict()
    if title := job_title(groups.get("title")) or job_title(groups.get("role")):
        yield fact(ctx, s, f"{s} is {article(title)} {title}", "occupation", title, confidence=0.8)


def _joins(ctx: Ctx) -> Iterator[CandidateFact]:
    if ctx.part.negated:
        return
    yield from _joined_by_kind(ctx)
    changed = [
        (m, s) for m, s in matches(ctx, _LEFT_AND_JOINED)
        if (ctx.holds(s, clean(m.group("old")), "employer") or m.group("verb") != "left")
        and clean(m.group("org")) not in ctx.persons
    ] + [(m, s) for m, s in matches(ctx, _WORKED_THEN_JOINED) if clean(m.group("org")) not in ctx.persons]
    joined = matches(ctx, _JOINED) + matches(ctx, _JOINED_WORKPLACE)
    for m, s in matches(ctx, _GOT_JOB) + matches(ctx, _HIRED) + joined + changed:
        if m.groupdict().get("one") and not _WORK_TALK.search(ctx.turn.text):
            continue  # "I got a new one at the Apple Store": a phone, unless the turn is about work
        if org := org_name(m.group("org")):
            said = _JOIN_VERB.search(m.group(0))
            # "I took the offer from Globex" accepts it as "I accepted …" does; "I took a job at
            # Globex" is the job.
            accepted = said is not None and (
                said.group(1) == "accepted" or (said.group(1) == "took" and _OFFER.search(m.group(0)) is not None)
            )
            if m.re is _GOT_JOB.pattern and (accepted or _OFFER.search(m.group(0))):
                verb = "took an offer from" if said is not None and said.group(1) == "took" else "accepted a job at"
                yield from _accepted(ctx, s, m, org, accepted=accepted, verb=verb)
                continue
            if m.re is _GOT_JOB.pattern and (start := future_date(ctx) or _start_said(ctx)) is not None:
                # "I got a job at Globex, starting in June", "I got a new job at Globex!
                # Starting next Monday.": the employer from then.
                yield _starts_on(ctx, s, org, start)
                yield from _title(ctx, s, m)
                continue
            verb = _JOIN_VERBS[said.group(1)] if said else "got a job at"
            if (m.groupdict().get("next") or "").startswith("work"):
                verb = "works at"  # "I quit Globex to work for Initech"
            yield fact(ctx, s, f"{s} {verb} {_the(m, org)}", "employer", org, valid_from=past_date(ctx, m), confidence=0.85)
            yield from _title(ctx, s, m)
    for m in openings(ctx, _LET_ME_GO):
        if not ctx.part.negated and (org := org_name(m.group("org"))) and org not in ctx.persons and ctx.turn.speaker:
            s, verb = ctx.turn.speaker, _LET_GO_PASSIVE[m.group("verb").split()[0]]
            yield fact(ctx, s, f"{s} was {verb} by {_the(m, org)}", "employer", org, polarity="negative",
                       valid_from=past_date(ctx, m), confidence=0.8)
            yield from _out_of_work(ctx, s, m, f"{s} was {verb} by {_the(m, org)}")
    for m in _hired_me(ctx):
        if (org := org_name(m.group("org"))) and ctx.turn.speaker:
            s = ctx.turn.speaker
            yield fact(ctx, s, f"{s} was {m.group('verb')} by {_the(m, org)}", "employer", org, valid_from=past_date(ctx, m),
                       confidence=0.85)
            yield from _title(ctx, s, m)
    yield from _joining(ctx)
    yield from _joined_named(ctx)
    yield from _offer_taken(ctx)
    for m, s in matches(ctx, _SIGNED):
        org, title = org_name(m.group("org")), job_title(m.group("role"))
        # Level 0 reads a lone name after "with" as a person: a contract that is a job names an employer all the same.
        if org is None or not (title or _JOB_CONTRACT.search(m.group("kind") or "")):
            continue
        start = future_date(ctx)
        how = "a contract" if m.group("kind") is not None else "on" if " on " in m.group(0) else ""
        yield fact(ctx, s, " ".join(f"{s} signed {how} with {_the(m, org)}".split()),
                   "employer", org, valid_from=start or past_date(ctx, m), confidence=0.8)
        yield from _title(ctx, s, m)
    for m, s in matches(ctx, _STARTS):
        if org := org_name(m.group("org")):
            start = future_date(ctx) or past_date(ctx, m)
            if start is None and m.group("verb") in _SCHEDULED:
                # "I start at Globex on Monday" (a day Level 0 did not place), "I'm starting at
                # Globex": a start to come, not one that happened; a plan until it is said done.
                yield fact(ctx, s, f"{s} starts at {org}", "plans", f"start at {org}", modality="planned",
                           confidence=0.75)
                continue
            upcoming = start is not None and start > ctx.turn.observed_at
            when = f" {date_phrase(start, _granularity(ctx, start))}" if start is not None else ""
            statement = f"{s} starts at {org}{when}" if upcoming else f"{s} started at {org}{when}"
            if s != ctx.turn.speaker and _SCHOOL_NAME.search(org) and not _AS_STAFF.search(m.group(0)):
                # "My son Leo started at Hillview Academy": a school, his (the speaker's own
                # start there may be a teacher's, and stays an employer).
                yield fact(ctx, s, statement, "education", org, valid_from=start, confidence=0.8)
                continue
            yield fact(ctx, s, statement, "employer", org, valid_from=start, confidence=0.85)
            yield from _title(ctx, s, m)


_JOB_TALK = re.compile(
    r"\b(?:job|jobs|work|works|working|worked|company|employer|role|position|hired|boss|colleagues|coworkers|career"
    r"|laid\s+off|fired|notice|salary|promoted|interview)\b",
    re.IGNORECASE,
)
"""Words of a job that say nothing else (``_WORK_TALK`` without "left", "quit", "joined",
"switched" or "team", which as often leave a town, a habit or a club)."""


def _work_context(ctx: Ctx, m: re.Match[str]) -> bool:
    """Whether work is spoken of around a match that may or may not be a job: a word of a job
    (``_JOB_TALK``) in the turn outside the match ("new job, I joined Initech"), or in the question of the turn
    just before, put by someone else ("How's work?", "How's the job going?"), or that question
    names an employer the speaker's earlier beliefs hold ("Still at Globex?")."""
    start, end = ctx.part.start + m.start(), ctx.part.start + m.end()
    text = ctx.turn.text
    if _JOB_TALK.search(text[:start]) or _JOB_TALK.search(text[end:]):
        return True
    before = ctx.previous
    if before is None or before.session != ctx.turn.session or before.speaker == ctx.turn.speaker:
        return False
    asked = " ".join(q.group(0) for q in re.finditer(r"[^.!?]*\?", before.text))
    if not asked:
        return False
    held = ctx.named.get((ctx.turn.speaker or "").casefold(), {})
    names = [value for attribute, value in held.values() if attribute == "employer"]
    return _JOB_TALK.search(asked) is not None or any(
        re.search(rf"(?<![\w'’]){re.escape(n)}(?![\w'’])", asked, re.IGNORECASE) for n in names)


def _joined_named(ctx: Ctx) -> Iterator[CandidateFact]:
    """``_JOINED_NAMED``: the employer joined, where work is spoken of or the name is an
    employer someone's earlier beliefs hold."""
    if ctx.part.negated:
        return
    for m, s in matches(ctx, _JOINED_NAMED):
        org = org_name(m.group("org"))
        if org is None or org in ctx.persons or clean(m.group("org")) in ctx.persons:
            continue
        someones = any(ctx.holds(person, org, "employer") for person in ctx.named)
        if someones or _work_context(ctx, m):
            yield fact(ctx, s, f"{s} joined {_the(m, org)}", "employer", org, valid_from=past_date(ctx, m),
                       confidence=0.8)


def _joining(ctx: Ctx) -> Iterator[CandidateFact]:
    """``_JOINING``: the employer from the start ahead, or the plan to join."""
    for m, s in matches(ctx, _JOINING):
        org = org_name(m.group("org"))
        if org is None or org in ctx.persons or not (m.group("role") or _WORK_TALK.search(ctx.turn.text)):
            continue
        if (start := future_date(ctx)) is not None:
            yield _starts_on(ctx, s, org, start)
            yield from _title(ctx, s, m)
        else:
            yield fact(ctx, s, f"{s} is joining {org}", "plans", f"join {org}", modality="planned", confidence=0.75)


def _offer_taken(ctx: Ctx) -> Iterator[CandidateFact]:
    """``_TOOK_IT`` after an offer made to the speaker earlier in the sentence
    (``_OFFERED_ME``), or an offer received and taken (``_OFFER_FROM_TAKEN``): ``_accepted``."""
    for m, s in matches(ctx, _TOOK_IT):
        before = ctx.sentence_before(m.start())
        offered = _OFFERED_ME.search(before) or _OFFER_GOT.search(before)
        if s == ctx.turn.speaker and offered is not None and (org := org_name(offered.group("org"))) is not None:
            if offered.groupdict().get("job") or org not in ctx.persons:
                yield from _accepted(ctx, s, m, org, accepted=True, verb=f"{m.group('verb')} the job offered by")
    for m, s in matches(ctx, _OFFER_FROM_TAKEN):
        if (org := org_name(m.group("org"))) is not None and (m.group("job") or org not in ctx.persons):
            yield from _accepted(ctx, s, m, org, accepted=True, verb=f"{m.group('verb')} the job offered by")


def _hired_me(ctx: Ctx) -> Iterator[re.Match[str]]:
    """Matches of ``_HIRED_ME`` that open a clause and whose hirer is no person Level 0 knows."""
    return (m for m in openings(ctx, _HIRED_ME) if clean(m.group("org")) not in ctx.persons)


def _accepted(
    ctx: Ctx, s: str, m: re.Match[str], org: str, *, accepted: bool, verb: str = "accepted a job at"
) -> Iterator[CandidateFact]:
    """An offer is not yet a job, and one accepted is a start to come: "I got an offer from
    Globex" says nothing of where one works, and "I accepted an offer from Globex" / "a
    position at Globex" is often said before a notice period ends. Accepted, with a date
    ahead in the sentence ("starting in June"), the employer from that date, as "I start at
    Globex in June" is; without one, a plan until a start is said ("I start at Globex on 6
    May"), as "I'm starting at Globex" is."""
    if not accepted:
        return
    start = future_date(ctx) or _start_said(ctx)
    if start is None:
        yield fact(ctx, s, f"{s} {verb} {org}", "plans", f"start at {org}", modality="planned", confidence=0.75)
        # No planned employer observation: in the single-valued dimension a value named for
        # the first time takes a share of UNSEEN (``eywa.nous.math.categorical_instant``), so
        # with no employer held the plan tied UNSEEN, and a later denial of another employer
        # made it the mode before its start (the demo's "Fernbrook" from 18 April).
        return
    yield _starts_on(ctx, s, org, start)
    yield from _title(ctx, s, m)


_STARTS_AHEAD = re.compile(r"\s+(?:starts|begins|is\s+starting|kicks\s+off)\b")
"""A job said to start, right after "my new job at X": a start to come."""
_STARTED_AFTER = re.compile(r"\s+(?:started|began|kicked\s+off)\b")
"""A job said to have started, right after "my new job at X": since the day said."""
_START_WORDS = re.compile(r"\b(?:start|starts|starting|begin|begins|beginning|first\s+day)\b", re.IGNORECASE)


def _start_said(ctx: Ctx) -> datetime | None:
    """A start ahead said in another sentence of the turn ("I accepted a job at Globex! I start
    on 6 May."): the first date after the turn in a sentence with a word of starting."""
    return _date_ahead(ctx, _START_WORDS)


def _date_ahead(ctx: Ctx, words: re.Pattern[str], granularity: str | None = None) -> datetime | None:
    """The first date after the turn (of ``granularity``, when given) in a sentence of the turn
    that ``words`` finds a word in."""
    for sentence in re.finditer(r"[^.!?;]+", ctx.turn.text):
        if not words.search(sentence.group(0)):
            continue
        for signal in ctx.turn.signals:
            if (signal.kind is SignalKind.DATE and signal.window_start is not None
                    and (granularity is None or signal.granularity == granularity)
                    and sentence.start() <= signal.start < sentence.end()
                    and signal.window_start > ctx.turn.observed_at):  # fmt: skip
                return signal.window_start
    return None


_INVOLUNTARY = re.compile(r"(?:got|was)\s+(?:laid\s+off|fired|let\s+go|made\s+redundant)\b|lost\s+\S+\s+job\b")
"""A job ended by the employer ("I got laid off from Globex", "I lost my job at Globex"), not
left for another."""
_NEXT_JOB = re.compile(
    r"\b(?:join(?:ed|ing)?|hired|landed|(?:start(?:ed|ing)?|work(?:ing)?)\s+(?:at|for|with)|new\s+(?:job|position|role|gig)"
    r"|(?:found|got|landed)\s+(?:a\s+|another\s+)?(?:new\s+)?(?:job|position|role|work)|(?:found|got|landed)\s+a\s+new\s+one"
    r"|freelanc(?:e|es|ing|er)|self-employed|work(?:ing)?\s+for\s+myself|(?:my|our)\s+own\s+(?:[a-z-]+\s+){0,3}?(?:business|company|firm))\b",
    re.IGNORECASE,
)
"""Words after a layoff that say what came next ("… but I joined Initech", "… and found a new job",
"… so I'm freelancing now")."""


def _out_of_work(ctx: Ctx, s: str, m: re.Match[str], said: str) -> Iterator[CandidateFact]:
    """Laid off, fired or let go by a named employer: out of work since (the registry's
    ``unemployed``, as "I got laid off" alone says), unless the turn goes on to a next job."""
    if _NEXT_JOB.search(ctx.turn.text, ctx.part.start + m.end()) is None:
        yield fact(ctx, s, f"{said} and is unemployed", "employer", "unemployed", valid_from=past_date(ctx, m),
                   confidence=0.75)


def _starts_on(ctx: Ctx, s: str, org: str, start: datetime) -> CandidateFact:
    """The employer from a start still ahead when the turn was said."""
    return fact(ctx, s, f"{s} starts at {org} {date_phrase(start, _granularity(ctx, start))}", "employer", org,
                valid_from=start, confidence=0.85)


def _joined_by_kind(ctx: Ctx) -> Iterator[CandidateFact]:
    """A new job at a workplace said by its kind ("I got a job at a bakery"), from when."""
    for m, s in matches(ctx, _JOINED_KIND):
        if kind := _workplace(m.group("place")):
            verb = "was hired at" if m.group("hired") else f"{m.group('verb')} a job at"
            start = future_date(ctx) or past_date(ctx, m)
            yield fact(ctx, s, f"{s} {verb} {article(kind)} {kind}", "employer", kind, valid_from=start, confidence=0.85)
            yield from _title(ctx, s, m)


def _left_by_kind(ctx: Ctx) -> Iterator[CandidateFact]:
    """A workplace held by its kind, left ("I left the law firm in April", "the bakery let me go")."""
    for m, s in matches(ctx, _LEFT_KIND):
        kind = _workplace(m.group("place"))
        negated = re.search(r"\b(?:not|never|n[’']t)\b", ctx.text[m.end("subj") : m.start("verb")])
        if kind is None or not ctx.holds(s, kind, "employer") or negated or (ctx.part.negated and not m.group("not")):
            continue
        if m.group("verb") == "left" and _LEFT_FOR_GOOD.match(ctx.turn.text, ctx.part.start + m.end()) is None:
            continue  # "I left the hospital at six": the building, for the day
        verb = "does not work at" if m.group("not") else " ".join(m.group("verb").split())
        said = f"{s} {verb} the {m.group('place')}"
        yield fact(ctx, s, said, "employer", kind, polarity="negative", valid_from=past_date(ctx, m), confidence=0.8)
        if _INVOLUNTARY.match(verb):
            yield from _out_of_work(ctx, s, m, said)
    speaker = ctx.turn.speaker or ""
    for m in openings(ctx, _KIND_LET_ME_GO) if speaker and not ctx.part.negated else ():
        if (kind := _workplace(m.group("place"))) and ctx.holds(speaker, kind, "employer"):
            said = f"{speaker} was {_LET_GO_PASSIVE[m.group('verb').split()[0]]} by the {m.group('place')}"
            yield fact(ctx, speaker, said, "employer", kind, polarity="negative", valid_from=past_date(ctx, m),
                       confidence=0.8)
            yield from _out_of_work(ctx, speaker, m, said)


def _leaves(ctx: Ctx) -> Iterator[CandidateFact]:
    for m, s in matches(ctx, _LOST_JOB_AT):
        place = " ".join(m.group("org").split()[1:])
        said = f"{s} {m.group('verb')} {possessive(s)} job at the {place}"
        yield fact(ctx, s, said, "employer", place, polarity="negative", valid_from=past_date(ctx, m), confidence=0.8)
        if m.group("verb") == "lost":
            yield from _out_of_work(ctx, s, m, said)
    for m, s in matches(ctx, _NOT_WORKS) + matches(ctx, _NOT_WORKING):
        if org := org_name(m.group("org")):
            yield fact(ctx, s, f"{s} does not work at {_the(m, org)}", "employer", org, polarity="negative", confidence=0.85)
    for m, s in matches(ctx, _NOT_AT):
        if (org := org_name(m.group("org"))) and ctx.holds(s, org, "employer"):
            yield fact(ctx, s, f"{s} is not at {_the(m, org)} anymore", "employer", org, polarity="negative",
                       confidence=0.8)
    for m, s in matches(ctx, _LOST_JOB_AS):
        if (title := job_title(m.group("title"))) and not ctx.part.negated:
            yield fact(ctx, s, f"{s} {m.group('verb')} {possessive(s)} job as {article(title)} {title}", "occupation",
                       title, polarity="negative", valid_from=past_date(ctx, m), confidence=0.85)
    for m, s in matches(ctx, _LEFT):
        org = org_name(m.group("org"))
        if org is None or re.search(r"\b(?:not|never|n[’']t)\b", ctx.text[m.end("subj") : m.start("org")]):
            continue
        joined = _JOINED_SOMEONE.match(ctx.text, m.end())
        if m.group("verb") == "left" and joined is not None and joined.group("who") in ctx.persons:
            continue  # "I left Paris and joined Tom in Rome": a journey, not a job
        verb = re.sub(r"\s+", " ", m.group("verb"))
        verb = re.sub(r"\b(?:my|his|her)\b", possessive(s), verb)
        if "notice" in verb and (last := last_day(ctx)) is not None:
            # "I handed in my notice at Initech, my last day is 30 April": still there until then.
            yield fact(ctx, s, f"{s} {verb} {_the(m, org)}, until {date_phrase(last, 'day')[3:]}",
                       "employer", org, polarity="negative", valid_from=last, confidence=0.85)
            continue
        yield fact(ctx, s, f"{s} {verb} {_the(m, org)}", "employer", org, polarity="negative",
                   valid_from=past_date(ctx, m), confidence=0.85)
        if _INVOLUNTARY.match(verb):
            yield from _out_of_work(ctx, s, m, f"{s} {verb} {_the(m, org)}")
        if verb == "retired from":
            yield fact(ctx, s, f"{s} retired from {_the(m, org)}", "employer", "retired", valid_from=past_date(ctx, m),
                       confidence=0.8)
    yield from _left_by_kind(ctx)
    for m, s in matches(ctx, _WORKED_THEN_JOINED):
        # "I worked at Initech for years, then joined Globex": the job held before, ended.
        old, org = org_name(m.group("old")), clean(m.group("org"))
        if not ctx.part.negated and old is not None and org not in ctx.persons and old != org_name(org):
            yield fact(ctx, s, f"{s} worked at {old}, then joined {org}", "employer", old, polarity="negative",
                       valid_from=past_date(ctx, m), confidence=0.8)
    for m, s in matches(ctx, _WORKED_UNTIL):
        if ctx.part.negated or ctx.part.hedged or (org := org_name(m.group("org"))) is None:
            continue
        if (ended := ended_at(ctx, m)) is None:
            continue  # "until then": no date of the past to end it at
        yield fact(ctx, s, f"{s} worked at {_the(m, org)} until {ended[1]}",
                   "employer", org, polarity="negative", valid_from=ended[0], confidence=0.8)
    for m, s in matches(ctx, _LEFT_NAMED):
        org = org_name(m.group("org"))
        if org is not None and not ctx.part.negated and ctx.holds(s, org, "employer"):
            yield fact(ctx, s, f"{s} left {_the(m, org)}", "employer", org, polarity="negative",
                       valid_from=past_date(ctx, m), confidence=0.85)
    for m, s in matches(ctx, _MOVED_ON):
        old, org = org_name(m.group("old")), org_name(m.group("org"))
        held = old is not None and ctx.holds(s, old, "employer")
        if ctx.part.negated or org is None or not (held or m.group("verb").startswith("jumped")):
            continue
        verb, since = " ".join(m.group("verb").split()), past_date(ctx, m)
        if old is not None and held:
            yield fact(ctx, s, f"{s} {verb} from {old} to {_the(m, org)}", "employer", old, polarity="negative",
                       valid_from=since, confidence=0.85)
        yield fact(ctx, s, f"{s} {verb}{f' from {old}' if held else ''} to {_the(m, org)}", "employer", org,
                   valid_from=since, confidence=0.85)
    last_days = matches(ctx, _LAST_DAY_WAS, anywhere=True) + matches(ctx, _DAY_WAS_LAST, anywhere=True)
    for m, s in last_days:
        if ctx.part.negated or (org := org_name(m.group("org"))) is None:
            continue
        if m.re is _DAY_WAS_LAST.pattern:
            when = " ".join(w.capitalize() if w.endswith("day") and w not in ("today", "yesterday") else w
                            for w in m.group("day").lower().split())  # "last Friday", "today"
        else:  # "… was Friday", "… is 30 April": what follows says the day
            when = re.split(r"[.!?;,]", ctx.text[m.end() :], maxsplit=1)[0].strip()
        # the day named, from the match on: past for "was", either side of the turn for "is"
        day = date_from(ctx, m, past=m.group("tense") == "was" and m.re is _LAST_DAY_WAS.pattern)
        since = day.window_start if day is not None else None
        if m.group("tense") == "is" and since is None:
            continue
        yield fact(ctx, s, f"{possessive(s)} last day at {_the(m, org)} {m.group('tense')} {when}".rstrip(), "employer",
                   org, polarity="negative", valid_from=since, confidence=0.8)
    for m, s in matches(ctx, _MOVED_FOR_JOB):
        if not ctx.part.negated and (org := org_name(m.group("org"))):
            yield fact(ctx, s, f"{s} moved for a job at {_the(m, org)}", "employer", org, valid_from=past_date(ctx, m),
                       confidence=0.8)
    for m, s in matches(ctx, _LET_GO):
        if not ctx.part.negated:
            verb = re.sub(r"\b(?:my|his|her|their)\b", possessive(s), " ".join(m.group("verb").split()))
            yield fact(ctx, s, f"{s} {verb} and is unemployed", "employer", "unemployed",
                       valid_from=past_date(ctx, m), confidence=0.75)
    for m, s in matches(ctx, _RETIRED):
        if not ctx.part.negated:
            yield fact(ctx, s, f"{s} retired", "employer", "retired", valid_from=past_date(ctx, m), confidence=0.8)
    for m, s in matches(ctx, _NO_JOB):
        if not experiential_state(ctx, m):  # read in a negated part: the negation is the rule's own
            yield fact(ctx, s, f"{s} has no job", "employer", "unemployed", valid_from=stated_start(ctx, m),
                       confidence=0.75)
    yield from _laid_off_with_others(ctx)


def _laid_off_with_others(ctx: Ctx) -> Iterator[CandidateFact]:
    """A layoff of many that took the speaker with them (``_WE_LET_GO``, ``_MASS_LAYOFF``,
    ``_IN_THE_LAYOFFS``): out of work unless a next job follows, and the employer named left
    where the turn says it ended ("we were laid off from Globex"; "I got caught in the layoffs
    at Globex" says the layoff, not what ended: the ``unemployed`` it makes ends Globex)."""
    speaker = ctx.turn.speaker
    if ctx.part.negated or not speaker:
        return
    for m, s in matches(ctx, _WE_LET_GO, we=True) + matches(ctx, _IN_THE_LAYOFFS):
        org = org_name(m.group("org")) if m.group("org") else None
        if m.re is _IN_THE_LAYOFFS.pattern and not m.group("verb"):
            said = f"{s} {ctx.text[m.end('subj') : m.end()].strip().rstrip('.!?,;')}"
        else:
            said = f"{s} was {' '.join(m.group('verb').split())}{f' from {_the(m, org)}' if org else ''}"
        yield from _laid_off(ctx, s, m, said, org)
    for m in openings(ctx, _MASS_LAYOFF):
        who = " ".join((m.group("who") or m.group("who_off") or m.group("who_go")).split())
        included = _ME_INCLUDED.match(ctx.sentence_after(m.end())) is not None or who.lower() in _US
        if not included or (m.group("let") and (m.group("for_good") is None or (who.lower() == "us" and m.group("they")))):
            continue  # "they let us go (early)": from where, or for how long, it does not say
        org = org_name(m.group("org")) if m.group("org") else None
        if org is not None and org in ctx.persons:
            continue  # "Tom let us all go": a person Level 0 knows
        verb = "let go" if m.group("let") else "fired" if "fired" in m.group(0) else "laid off"
        said = f"{speaker} was {verb}{f' by {_the(m, org)}' if org else ''} with {who}"
        yield from _laid_off(ctx, speaker, m, said, org)


def _laid_off(ctx: Ctx, s: str, m: re.Match[str], said: str, org: str | None) -> Iterator[CandidateFact]:
    """The employer named left, where a cessation of the turn ends it, and out of work since
    (``_out_of_work``)."""
    if org is not None and ends_any(ctx.turn.text, org.split()):
        yield fact(ctx, s, said, "employer", org, polarity="negative", valid_from=past_date(ctx, m), confidence=0.8)
    yield from _out_of_work(ctx, s, m, said)


_LAST_DAY = re.compile(
    r"\blast\s+day\b|\b(?:leave|leaving|finish|finishing|stay|staying|work|working)\s+(?:there\s+)?(?:until|till|through)\b",
    re.IGNORECASE,
)
"""Words that say the day a notice runs out ("my last day is 30 April", "I'm working until 30 April")."""


def last_day(ctx: Ctx) -> datetime | None:
    """The last day of a notice the turn states: a day after the turn, in a sentence that
    says it is the last ("my last day is 30 April"). A notice with no last day stated ends
    the job when said (no day is invented)."""
    return _date_ahead(ctx, _LAST_DAY, "day")


def _granularity(ctx: Ctx, moment: object) -> str | None:
    return next((d.granularity for d in ctx.dates if d.window_start == moment), None)
