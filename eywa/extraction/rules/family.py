"""Relationship status, partner and children, with their change forms.

Status values are the registry's: single, dating, engaged, married, divorced, separated,
widowed. "We got engaged" / "Lucia and I got married" / "I got divorced" date the change;
"my husband, Tom" names the partner and implies married; "Tobias and I broke up" and "I
broke up with Tobias" end a partnership (partner Tobias, negative) and leave the speaker
single (relationship status, positive). "We're getting married
in June" is a plan. Children: "I have two kids", "my daughter Sara", "we had a baby girl
named Ada" (children, positive, dated).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from eywa.attributes.kin import KIN_AGE, RELATIVE_ATTRIBUTE
from eywa.cessation import GONE_FOR_GOOD
from eywa.extraction.lexicon import NOT_NAMES, NOT_PEOPLE_SAID_AFTER_IS, NUMBER_WORD, PARTNER_ROLE, PARTNER_ROLE_WORDS
from eywa.extraction.rules.clause import (
    A,
    ADV,
    BE,
    HAVE,
    NAME,
    SUBJ,
    Ctx,
    asserts,
    companion,
    experiential_state,
    first_person,
    lasting,
    matches,
    openings,
    past_date,
    perfect,
    plain,
    rule,
    said_companion,
    stated_start,
)
from eywa.extraction.rules.endings import LEFT_ME
from eywa.extraction.rules.pets import named_after
from eywa.extraction.rules.phrasing import article, fact, possessive
from eywa.models import CandidateFact, SignalKind

_STATUS = r"(?P<st>married|engaged|divorced|separated|widowed|single(?!\s+(?:parent|mom|mother|dad|father)))"
_FROM_NO_ONE = rf"(?!\s+from\s+(?!{NAME}\b|(?i:my|his|her|their|our)\s+(?:husband|wife|spouse|partner|ex)\b))"
"""After "separated" or "divorced": a "from" that names no spouse ("we got separated from the
group", "I'm divorced from reality") is no status; "divorced from Tom" / "from my husband" is."""
_IS = rule(
    rf"{SUBJ}(?:{BE}|{HAVE}\s+{ADV}been)\s+{ADV}(?:happily\s+)?(?:{_STATUS}|(?P<widow>a\s+widow(?:er)?))\b"
    rf"(?!\s+(?:to|for)\s+(?!{NAME})){_FROM_NO_ONE}",
    "married engaged divorced separated widowed single widow widower",
)
_IS_FOR = rule(
    rf"{SUBJ}{HAVE}\s+{ADV}been\s+{ADV}(?:happily\s+)?{_STATUS}\b(?=\s+for\s)",
    "married engaged divorced separated widowed single",
)
""""We've been married for ten years": ``_IS`` leaves "for" out ("married for the money"), so
the status with how long is read here, and only with how long (``lasting``)."""
_NOT_STATUS = rule(
    rf"{SUBJ}{BE}\s+{ADV}not\s+(?:yet\s+)?(?P<st>married|engaged|single)\b(?!\s+(?:to|for|on|about|with)\b)",
    "married engaged single",
)
""""I'm not married": the status, negative (not "I'm not married to the idea")."""
_GOT = rule(rf"{SUBJ}(?:{HAVE})?\s+{ADV}got\s+{_STATUS}\b{_FROM_NO_ONE}", "married engaged divorced separated widowed single")
_DIVORCED = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}divorced(?:\s+(?:(?P<name>{NAME})\b(?!{A}s)|him|her"
    rf"|(?:my|our)\s+(?:husband|wife|spouse|partner)))?"
    r"(?=\s*(?:[,.!;]|$|\s+(?:in|last|this|on|after|a|an|two|three|four|five|six|seven|eight|nine|ten|years?"
    r"|when|back|recently|yesterday|finally|and|but)\b))",
    "divorced",
)
""""Sam and I divorced in 2024", "we divorced last year", "I divorced Sam": the verb says what
"got divorced" does (divorced, and the one divorced the partner no longer); only where what
follows is a time, the end of the clause or a conjunction ("I divorced myself from social
media", "they divorced the two issues" are no status)."""
_MARRIED_TO = rule(
    rf"{SUBJ}(?:\s+{ADV}(?:got\s+)?married|(?:{BE}|{HAVE}\s+{ADV}been)\s+{ADV}(?:happily\s+)?(?:married|engaged))"
    rf"\s+to\s+(?P<name>{NAME})\b",
    "married engaged",
)
""""I'm married to Tom", "I married Tom"'s "got married to", and the perfect with how long:
"I've been married to Tom for ten years" (the status and the partner since its start)."""
_TO_NAME = re.compile(rf"\s+to\s+(?P<name>{NAME})\b(?!{A}s)")
_WITH_NAME = re.compile(
    rf"(?:\s+(?:with|named|called)|,\s+(?:his|her|their)\s+name(?:\s+is|{A}s))\s+(?P<name>{NAME})\b(?!{A}s)"
)
"""Whom a relationship is with: "… in a relationship with Tom", "… dating a guy named Tom",
"… seeing someone new, his name is Tom"."""
_NAMED_DATE = re.compile(
    rf"(?<![\w'’])I\s+(?:just\s+|finally\s+)?(?:met|{A}m\s+seeing|started\s+seeing|{A}ve\s+been\s+seeing)\s+"
    r"(?:someone|somebody|a\s+(?:guy|girl|man|woman))(?:\s+new)?(?:\s+(?:at|from|through|on)\s+[\w\s]{1,30}?)?"
    rf"(?:\s+(?:named|called)|[.!,;]\s*(?:(?:[Hh]is|[Hh]er)\s+name(?:\s+is|{A}s)|(?:[Hh]e|[Ss]he){A}s\s+called))"
    rf"\s+(?P<name>{NAME})\b(?!{A}s)"
)
"""Someone the speaker met and named earlier in the turn, whom "we're dating" is with: "I met
someone! His name is Sam and we're dating", "I met a guy named Sam, we've been dating for a
month" (not "My brother met a girl named Ana, and we're dating …": the speaker met no one)."""
_FROM_NAME = re.compile(rf"\s+from\s+(?P<name>{NAME})\b(?!{A}s)")
_MARRIED_NAME = rule(
    rf"{SUBJ}\s+{ADV}married\s+(?:my\s+(?:[a-z]+\s+){{0,2}}?(?:sweetheart|love|friend|partner|boyfriend|girlfriend"
    rf"|fianc[ée]e?),?\s+)?(?P<name>{NAME})\b",
    "married",
)
""""I married Tom", "I married my college sweetheart Tom", "… my best friend, Tom": the
partner, and married."""
_TIED_KNOT = rule(rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:finally\s+)?tied\s+the\s+knot\b", "tied knot")
""""We tied the knot in June", "Tobias and I tied the knot": married (the registry's synonym),
and the one married with the partner."""
_GETTING = rule(
    rf"{SUBJ}{BE}\s+{ADV}(?:getting\s+(?P<st>married|divorced|engaged)\b|(?P<through>going\s+through\s+a\s+divorce"
    rf"|in\s+the\s+(?:middle|midst|process)\s+of\s+(?:a|an|our|my)\s+(?:ugly\s+|messy\s+)?divorce|divorcing)(?![\w'’-]))",
    "getting going middle midst process divorcing",
)
""""We're getting married", "I'm getting divorced", "I'm going through a divorce", "we're in the
middle of a divorce", "we're divorcing": a change to come (``plans``), no status of now — one
divorcing is still married (the registry holds no "divorcing"; "separated" would claim what the
turn does not say)."""
_NO_OBJECT = r"(?!\s+(?:the|a|an|my|our|his|her|their|its|it|them|this|that|these|those|into|in\s+(?:two|half))\b)"
"""After "broke up" or "split up": no object follows ("we split up the chores", "they broke up
the fight", "we split up into teams" end no relationship)."""
_BROKE_UP = rule(
    rf"{SUBJ}(?:{HAVE}|(?P<be>{BE}))?\s+{ADV}(?P<verb>broke\s+up|split\s+up|split(?={GONE_FOR_GOOD})|separated"
    rf"|(?<=\s)separating|called\s+it\s+off|called\s+it\s+quits)(?:\s+with\s+(?P<name>{NAME}))?\b{_FROM_NO_ONE}"
    rf"{_NO_OBJECT}",
    "broke split separated separating called",
)
""""Tobias and I broke up", "we split up last month", "we've split." (a bare "split" only at the
end of its clause or before when, and said of the speaker: not "we split the bill"); "my wife
and I are separating" (only after "are": a separation under way is the status of now, and the
marriage "my wife" says is not)."""
_BACK_TOGETHER = rule(
    rf"{SUBJ}(?:{HAVE}|{BE})?\s+{ADV}(?:got|get|getting|are|were)?\s*back\s+together(?:\s+with\s+(?P<name>{NAME}))?\b",
    "together",
)
""""Tobias and I got back together", "I'm back together with Tobias": that partner again, in a
relationship ("we got back together" names no one: nothing)."""
_SAID_YES = rule(rf"{SUBJ}\s+{ADV}said\s+yes\b", "yes")
_PROPOSED_TO_ME = re.compile(
    rf"\b(?P<name>{NAME})\s+(?:finally\s+|just\s+)?proposed(?:\s+to\s+me)?"
    r"(?=\s*(?:[,!]|$|\s+(?:last|this|yesterday|today|tonight|on|in|at|during|over|and)\b))"
)
_I_PROPOSED = rule(rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:finally\s+|just\s+)?proposed\s+to\s+(?P<name>{NAME})\b", "proposed")
_THEY_SAID_YES = re.compile(r"\b(?:she|he|they)\s+said\s+yes\b", re.IGNORECASE)
"""A proposal and its yes in one sentence ("Tobias proposed and I said yes!", "I proposed to
Lucia and she said yes"): engaged, to the one named (a proposal alone is only asked)."""
_APART = rule(
    rf"{SUBJ}{BE}(?:\s+{ADV}(?:(?P<longer>no\s+longer)|not)|n{A}t)\s+(?:together|with\s+(?P<name>{NAME})\b(?!{A}s))"
    r"(?(longer)|\s+(?:anymore|any\s+more)\b)",
    "together with",
)
""""Tom and I are no longer together", "I'm not with Tom anymore", "we aren't together anymore":
the partner has ended
("not together" alone may be "not together yet")."""
_ROLE = rf"(?P<role>{PARTNER_ROLE})"
_ROLE_WORDS = PARTNER_ROLE_WORDS
"""A partner's role, as the partner rules name it (and their gate words)."""
_THEY_BROKE_UP = rule(
    rf"(?<![\w'’])(?P<subj>{NAME})\s+and\s+(?:(?:his|her|their)\s+(?:ex-?\s*)?{_ROLE}\s+)?(?P<other>{NAME})"
    rf"(?:{HAVE})?\s+{ADV}(?P<verb>broke\s+up|split\s+up|separated)\b{_FROM_NO_ONE}{_NO_OBJECT}",
    "broke split separated",
)
""""Sam and his girlfriend Lily broke up", "Sam and Lily split up last month": two people Level 0
recognised, each no longer the other's partner (and single after a breakup), as "Tobias and I
broke up" says of the speaker."""
_SPOUSE = rule(
    rf"(?P<subj>\b[Mm]y|{NAME}(?={A}s))(?:{A}s)?\s+(?P<ex>ex-?\s*)?{_ROLE}\b"
    rf"(?:(?:,|\s+is\s+(?:named|called)|,\s+(?:named|called)|{A}s\s+name\s+is|(?P<is>\s+is))?\s+(?P<name>{NAME})\b(?!{A}s))?",
    _ROLE_WORDS,
)
""""my husband, Tom", "my husband Tom", "my husband is called Tom", "my girlfriend's name is
Lucia", "my wife is Eva" (``named_by_is``): the partner is named (not "my wife called Ines
yesterday", a call)."""
_IS_NAME_ENDS = re.compile(r"\s*(?:[.!?,;]|$)|\s+(?:and|who|now|too|by\s+the\s+way)\b")


def named_by_is(ctx: Ctx, m: re.Match[str]) -> bool:
    """Whether "my wife is Eva" names the one it says: a person Level 0 found, ending its
    clause ("my wife is Eva.", "… is Eva, she's a nurse"), not "my wife is Italian", "my husband
    is Catholic" nor "my sister is Eva's age"."""
    name = m.group("name")
    what = name in NOT_PEOPLE_SAID_AFTER_IS or name.endswith(("ish", "ese"))
    return name in ctx.persons and not what and _IS_NAME_ENDS.match(ctx.text, m.end()) is not None


def _name_before(is_then: str = "") -> str:
    """A name said before who they are to the speaker, with a comma ("Tobias, my husband") or
    "is" and what ``is_then`` allows after it ("Tobias is my husband", group ``is_my``: a person
    Level 0 found only, ``_is_my``); the partner, relative and child rules share it."""
    return rf"(?<![\w'’])(?P<name>{NAME})(?:,|(?P<is_my>\s+is{is_then}))\s+"


_CLAUSE_ENDS = r"(?=\s*[,.!;]|\s*$)"
"""After who they are, the clause ends ("Chris is my husband.", not "… my husband's day off")."""
_NAME_MY_SPOUSE = rule(
    _name_before(r"(?:\s+(?:now|officially))?") + rf"(?P<subj>[Mm]y)\s+{_ROLE}\b{_CLAUSE_ENDS}",
    _ROLE_WORDS,
)
""""Tobias, my husband, is a chef": the partner named before the role, as "my husband, Tobias";
"Chris is my husband." too, when Level 0 found Chris a person (``_is_my``): not "Here is my
boyfriend", nor "Sunday is my husband's day off" (the clause goes on)."""
_NAME_IS_MY_EX = rule(
    rf"(?<![\w'’])(?P<name>{NAME})(?:{A}s|\s+is)\s+(?:now\s+|officially\s+)?(?P<subj>[Mm]y)\s+ex\b"
    rf"(?:-?\s*{_ROLE}\b)?(?=\s*(?:[,.!;]|$|\s+(?:now|these\s+days|anyway)\b))",
    "ex " + _ROLE_WORDS,
)
""""Tom's my ex now", "Tom is my ex-boyfriend": the one named was the speaker's partner and is
no longer (as "my ex-husband is Tom", ``_SPOUSE``); not "Tom's my ex's brother", "Tom is my
ex-wife's lawyer" (the clause goes on) nor "That's my exam"."""
_DIED_AFTER = re.compile(rf",?\s+(?:{HAVE}\s+)?{ADV}(?:passed\s+away|passed\s+on|died)\b")
_LOST_BEFORE = re.compile(r"\blost\s+(?:my|our)\s*$", re.IGNORECASE)
""""My wife passed away", "my husband Tom died": after the role (and the name), the partner's
death, which ends the partnership and says no marriage of now."""
_HAS_SPOUSE = rule(
    rf"{SUBJ}(?:\s+{ADV}(?:have|has)|{HAVE}\s+{ADV}got|\s+{ADV}have\s+got)\s+(?:a|an)\s+(?:new\s+)?{_ROLE}\b"
    rf"(?:(?:,?\s+(?:named|called)|,|(?:\s+now)?,\s+(?:her|his|their)\s+name(?:{A}s|\s+is))\s+(?P<name>{NAME})\b(?!{A}s))?",
    _ROLE_WORDS,
)
""""I have a boyfriend named Ben", "I've got a wife, Ines", "I have a girlfriend now, her name is
Lucia": the same facts as "my boyfriend Ben"."""
_TOGETHER = rule(
    rf"{SUBJ}(?:{HAVE}\s+been|{BE})\s+{ADV}(?P<how>together|dating|a\s+couple)\b(?:\s+for\s+(?P<span>[\w\s]+))?"
    r"(?=\s*(?:$|[.!?,;:)]|\s[-–—]|\s(?:for|since|now|again|officially|already|anymore|and|but|so)\b))",
    "together dating couple",
)
""""Tom and I are together", "we've been dating for a year", "we're a couple now": said of
the two, where the clause ends or says how long; not "Tom and I are together on this project"
nor "we're dating other people"."""
_SEEING_SOMEONE = rule(
    rf"{SUBJ}(?:{BE}|{HAVE}\s+been)\s+{ADV}(?P<verb>dating|seeing)\s+(?:someone|somebody|a\s+(?:guy|girl|man|woman))"
    r"(?:\s+new)?\b",
    "dating seeing",
)
_IN_RELATIONSHIP = rule(
    rf"{SUBJ}{BE}\s+{ADV}in\s+a\s+(?:new\s+|serious\s+|committed\s+|happy\s+|loving\s+)?"
    rf"relationship\b(?!\s+with\s+(?!{NAME}\b))",
    "relationship",
)
""""I'm seeing someone", "I've been dating a guy from work", "I'm in a relationship (with
Tom)": the speaker is in a relationship, whoever with (not "a relationship with food")."""
_DIVORCE_DONE = rule(
    rf"(?P<subj>\b[Mm]y|\b[Oo]ur)\s+divorce(?:\s+(?:from|with)\s+(?P<name>{NAME})\b(?!{A}s))?\s+"
    rf"(?:(?:was|is|has\s+been|got|just)\s+)?{ADV}"
    r"(?:finali[sz]ed|final|official|through|done|went\s+through|came\s+through)\b",
    "divorce",
)
""""My divorce was finalised last month", "our divorce is final": divorced, since then; "my
divorce from Tom was finalised": and Tom is the partner no longer (a person Level 0 knows, or a
name the speaker's earlier beliefs hold as their partner)."""
_SEEING_NAMED = rule(
    rf"{SUBJ}(?:(?P<been>{HAVE}\s+{ADV}been)|\s+{ADV}(?:started|began))\s+seeing\s+(?P<name>{NAME})\b(?!{A}s)"
    r"(?=\s*(?:[,.!;]|$|\s+(?:for|since|in|last|this|a|an|two|three|four|five|six|a\s+few|recently|again)\b))",
    "seeing",
)
""""I've been seeing Tobias for a few months", "I started seeing Tobias in March": dating him,
when Level 0 knows him for a person, nothing but a time follows and, in the perfect, how long
is said right after (not "I've been seeing Tobias a lot lately", "I started seeing Tobias at
the gym on Mondays", nor "I've been seeing Dr Patel for my back")."""
_DATING = rule(rf"{SUBJ}(?:{BE}|{HAVE}\s+been)\s+{ADV}dating\s+(?P<name>{NAME})\b(?!{A}s)", "dating")
""""I'm dating Tobias (now)", "I've been dating Tobias for a year": the partner, and a
relationship (not "seeing Tobias", often a meeting)."""
_KID_ADJ = r"(?:(?:beautiful|wonderful|amazing|little|lovely|grown|young|grown-up|teenage|adult)\s+)?"
_KID_NAMES = rf"{NAME}(?:(?:\s*,\s*{NAME})*,?\s+and\s+{NAME}(?=\s*(?:[.!?,;]|$)))?"
"""One name, or a list of them closing its clause ("Leo and Sara", "Leo, Sara and Max")."""
_KIDS_COUNT = rule(
    rf"{SUBJ}(?:\s+{ADV}(?:have|has)|{HAVE}\s+{ADV}got|\s+{ADV}have\s+got)\s+(?P<n>{NUMBER_WORD})\s+{_KID_ADJ}"
    rf"(?P<kind>kids?|children|child|sons?|daughters?|twins"
    rf"|(?:boys|girls)(?=\s*(?:[.!;]|$|,\s+{NAME}|,?\s+(?:named|called|aged|ages)\b)))\b"
    rf"(?:(?:,?\s+(?:named|called)\s+|,\s+(?={_KID_NAMES}\s*(?:[.!?]|$)))(?P<name>{_KID_NAMES})\b(?!{A}s))?"
    rf"(?:,?\s+and\s+(?:(?P<n2>{NUMBER_WORD})\s+)?{_KID_ADJ}(?P<kind2>sons?|daughters?|kids?|child|children)(?![\w'’-])"
    rf"(?:,?\s+(?:named|called)\s+(?P<name2>{NAME})\b(?!{A}s))?)?",
    "kid kids children child son sons daughter daughters twins boys girls",
)
""""I have two kids", "I have a son named Leo" (the child is Leo, as of "my son Leo"); each
child named: "two kids, Leo and Sara.", "a son named Leo and a daughter named Sara"; each kind
of a list: "I've got a son and a daughter", "two sons and a daughter", "a son and daughter"."""
_COLON_NAMES = re.compile(rf"^\s*:\s*(?P<name>{_KID_NAMES})\s*[.!]*\s*$")
"""The children a count names after a colon, closing the sentence ("We have three kids: Sami,
Yara and Omar."): the colon cuts the part, so the names are read from the sentence after it."""
_MY_KID = rule(
    rf"(?P<subj>\b[Mm]y|\b[Oo]ur|{NAME}(?={A}s))(?:{A}s)?\s+(?:(?:little|baby|eldest|oldest|youngest|older|younger"
    rf"|teenage|adult|grown-up|two|three|four|first|second|third|fourth|newborn|new)\s+)?"
    rf"(?P<kind>kids|children|son|daughter|sons|daughters|twins|(?:baby|little)\s+(?:boy|girl)|baby)\b"
    rf"(?:(?:,?\s+(?:(?:named|called)\s+)?|\s+(?:is|are)\s+(?:named|called)\s+|{A}s?\s+names?\s+(?:is|are)\s+"
    rf"|\s+are\s+(?={NAME}(?:\s*,\s*{NAME})*,?\s+and\s+{NAME}\b))(?P<name>{NAME})\b)?",
    "kids children son daughter sons daughters twins baby little",
)
""""my son Leo", "our baby boy Theo", "my little girl Mia", "my son, Leo", "our second son, named Leo", "my son is called Leo", "my
daughter's name is Mia", and for several "my kids are named Leo and Mia", "my kids' names
are Leo and Mia" or "my kids are Leo and Mia" (a list of names only: "my son is Canadian"
names no child)."""
_NAME_MY_KID = rule(
    rf"{_name_before()}(?P<subj>[Mm]y|[Oo]ur)\s+(?:(?:little|baby|eldest|oldest|youngest|older|younger|first|second"
    rf"|third)\s+)?(?P<kind>son|daughter|(?:baby|little)\s+(?:boy|girl))\b{_CLAUSE_ENDS}",
    "son daughter boy girl",
)
""""Max is my son!", "Mia, our daughter, starts school soon": the child named before who they are
to the speaker, as "my son Max" (with "is", a person Level 0 found: ``_is_my``)."""
_PLURAL_KINDS = frozenset({"kids", "children", "sons", "daughters", "twins"})
_MORE_NAMES = re.compile(rf"(?:\s*,\s*{NAME}(?![\w'’]))*,?\s+and\s+{NAME}(?![\w'’])")
"""The rest of a list of names after the first ("…, Sara and Max", " and Sara")."""
_NAME_WORD = re.compile(NAME)
_NO_KIDS = rule(
    rf"{SUBJ}\s+(?:do\s+not|does\s+not|don{A}t|doesn{A}t)\s+(?:have|want)\s+(?:any\s+)?(?P<kind>kids|children)\b",
    "kids children",
)
_BABY = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:had|welcomed|adopted|gave\s+birth\s+to)\s+(?:a|our|their|his|her)\s+"
    rf"(?:(?:new|first|second|third|fourth|fifth)\s+)?"
    rf"(?:baby(?:\s+(?P<sex>girl|boy))?|(?P<kind>son|daughter)|(?:little\s+|\w+-year-old\s+)?(?P<child>boy|girl)(?![\w'’]))\b"
    rf"(?:,?\s+(?:(?:a\s+)?(?P<sex_after>girl|boy|son|daughter),?\s+)?(?:named|called)\s+(?P<name>{NAME})"
    rf"|,?\s+(?P<name_after>{NAME})\b(?!{A}s)"
    rf"|,\s+(?:her|his|their)\s+name(?:\s+is|{A}s)\s+(?P<name_is>{NAME})\b(?!{A}s))?",
    "baby son daughter boy girl",
)
""""We had a baby girl named Ada", "we just had our third baby, a boy named Leo", "we welcomed
our son Leo", "we had a baby girl, Mia", "… a baby girl, her name is Mia": a child, named when the sentence names them (the sex
said after the baby as before it); not "our son Leo's school", where the name opens something
else. A boy or a girl alone ("We adopted a little boy named Theo", "we welcomed a girl") only
adopted or welcomed ("I had a girl named Eva in my class" is no child)."""
_RELATIVE_KIND = r"(?P<kind>sister|brother|sibling|mom|mum|mother|dad|father)"
_MY_RELATIVE = rule(
    rf"(?P<subj>\b[Mm]y|\b[Oo]ur|{NAME}(?={A}s))(?:{A}s)?\s+{KIN_AGE}{_RELATIVE_KIND}\b"
    rf"(?:,?\s+|\s+is\s+(?:named|called)\s+|,\s+(?:named|called)\s+|{A}s\s+name\s+is\s+|(?P<is>\s+is\s+))(?P<name>{NAME})\b",
    "sister brother sibling mom mum mother dad father",
)
""""my sister Eva", "my older brother, Tom", "my mom is called Rosa", "my dad's name is Carl",
"Ana's sister Eva": who a named relative is to the subject (not "my brother-in-law Tom", whose
"-in" is no name)."""
_NAME_MY_RELATIVE = rule(
    rf"{_name_before()}(?P<subj>[Mm]y|[Oo]ur)\s+{KIN_AGE}{_RELATIVE_KIND}\b{_CLAUSE_ENDS}",
    "sister brother sibling mom mum mother dad father",
)
""""Lucia, my sister, works at Initech", "This is Tom, my brother.": the name before who they
are to the speaker, as "my sister Lucia"; "Lucia is my sister." when Level 0 found Lucia a
person (``_is_my``)."""
_HAS_RELATIVE = rule(
    rf"{SUBJ}(?:\s+{ADV}(?:have|has)|{HAVE}\s+{ADV}got|\s+{ADV}have\s+got)\s+(?:a|an|one)\s+{KIN_AGE}"
    rf"(?P<kind>sister|brother)(?:,?\s+(?:named|called)\s+|,\s+)(?P<name>{NAME})\b",
    "sister brother",
)
""""I have a sister named Eva", "I've got a younger brother, Tom": the same fact as "my sister Eva"."""
_ANOTHER_RELATIVE = re.compile(
    rf",?\s+and\s+(?:a|an|one)\s+{KIN_AGE}(?P<kind>sister|brother)(?:,?\s+(?:named|called)\s+|,\s+)(?P<name>{NAME})\b"
    rf"(?!{A}s)"
)
""""… and a sister named Eva" after a relative or a count of them: a second relative of the same
sentence, whom the first match (which stops at the first name) leaves."""
_RELATIVES_COUNT = rule(
    rf"{SUBJ}(?:\s+{ADV}(?:have|has)|{HAVE}\s+{ADV}got|\s+{ADV}have\s+got)\s+(?P<n>{NUMBER_WORD})\s+{KIN_AGE}"
    rf"(?P<kind>sisters|brothers|siblings|sister|brother)(?![\w'’-])"
    rf"(?:(?:,?\s+(?:named|called)\s+|,\s+)(?P<name>{_KID_NAMES})\b(?!{A}s))?"
    rf"(?:,?\s+and\s+(?P<n2>{NUMBER_WORD})\s+{KIN_AGE}(?P<kind2>sisters|brothers|sister|brother)(?![\w'’-])"
    rf"(?!,?\s+(?:named|called)\b|,\s+{NAME}))?",
    "sisters brothers siblings sister brother",
)
""""I have two brothers" (how many), "I have two brothers, Tom and Jake" / "… named Tom and
Jake" (each a sibling, the count kept in the statements); "I have a brother and a sister", "two
brothers and a sister": each kind of the list (one named is ``_HAS_RELATIVE``'s)."""
_KIN_ENDS = re.compile(r"\s*(?:[.!?;,]|$)|\s+(?:and|who|that|in|back|too|as\s+well|living|but)\b")
"""What may follow a relative said by kind alone ("I have a brother.", "… a sister who …"): not
"a sister company", "a brother-in-law"."""
_MY_RELATIVES = rule(
    rf"(?P<subj>\b[Mm]y|\b[Oo]ur|{NAME}(?={A}s))(?:{A}s)?\s+(?:(?:two|three|four|older|younger|big|little)\s+)?"
    rf"(?P<kind>sisters|brothers|siblings|parents)\b"
    rf"(?:,?\s+|\s+are\s+(?:named|called)\s+|,\s+(?:named|called)\s+|{A}\s+names\s+are\s+|\s+are\s+(?={NAME}"
    rf"(?:\s*,\s*{NAME})*,?\s+and\s+{NAME}\b))(?P<name>{NAME})(?={_MORE_NAMES.pattern})",
    "sisters brothers siblings parents",
)
""""my brothers Tom and Jake", "my parents, Rosa and Carl", "my sisters are Eva and Mia": each
name of the list a relative (a list only: "my parents Tom" is no form of speech)."""
_SINGLE_AFTER = frozenset({"broke up", "split up", "split"})
"""Breakups that leave the one who broke up single (a separation is a status of its own);
the registry makes them surfaces of ``single``, so the validator finds the value said."""
_ROLE_STATUS = {"husband": "married", "wife": "married", "spouse": "married", "boyfriend": "in a relationship",
                "girlfriend": "in a relationship"}  # fmt: skip
"""The status a partner's role says: a boyfriend means one is in a relationship ("I have a
boyfriend"); "partner" may be a business partner and says nothing."""
_KIND_VALUE = {"kids": "children", "kid": "children", "child": "children", "children": "children", "baby": "baby",
               "sons": "sons", "daughters": "daughters", "twins": "twins", "son": "son", "daughter": "daughter"}  # fmt: skip


_UNITES = frozenset({"engaged", "married"})
"""The statuses one gets *with* someone, who is then the partner."""
_PARTS = frozenset({"divorced", "separated"})
"""The statuses one gets *from* someone, who is then the partner no longer."""


def _name(raw: str | None) -> str | None:
    return raw if raw and raw not in NOT_NAMES else None


def _named_date(ctx: Ctx, m: re.Match[str]) -> str | None:
    """Whom "we're dating" (``m``) is with when the turn named someone just before it as the one
    met ("His name is Sam and we're dating"): the last such name, a person Level 0 found in the
    turn, with no other person named between it and "we" (not "His name is Sam. Tom and I,
    we're dating")."""
    before = ctx.turn.text[: ctx.part.start + m.start()]
    named = list(_NAMED_DATE.finditer(before))
    if not named or (name := _name(named[-1].group("name"))) is None:
        return None
    persons = [sig for sig in ctx.turn.signals if sig.kind is SignalKind.PERSON and sig.end <= len(before)]
    if any(sig.start >= named[-1].end() for sig in persons):
        return None
    return name if any((sig.normalized or sig.text) == name for sig in persons) else None


def _is_my(ctx: Ctx, m: re.Match[str]) -> bool:
    """Whether a "<name> is my <role>" match names a person: Level 0 found the name one (a
    sentence's first word only when who it is to the speaker ends its clause), so "Here is my
    boyfriend" or "What is my husband …" name no one. A match with a comma instead is always one."""
    return not m.groupdict().get("is_my") or m.group("name") in ctx.persons


def relationships(ctx: Ctx) -> Iterator[CandidateFact]:
    """Relationship status and partner facts of one part."""
    if not plain(ctx):
        return
    if not ctx.part.negated:
        for m, s in matches(ctx, _GOT, we=True):
            st = m.group("st")
            yield fact(ctx, s, f"{s} got {st}", "relationship_status", st, valid_from=past_date(ctx, m), confidence=0.9)
            # "Ben and I got engaged": whom one gets engaged or married to is a person, so the
            # name is the partner even where Level 0 could not tell it from a capitalised word.
            to = _TO_NAME.match(ctx.text, m.end()) if st in _UNITES else None
            partner = (companion(ctx, m) or _name(said_companion(m)) or (_name(to.group("name")) if to else None)
                       ) if st in _UNITES else None
            if partner is not None:
                yield fact(ctx, s, f"{s} got {st} to {partner}", "partner", partner, valid_from=past_date(ctx, m))
            # "Tom and I got divorced": the one divorced with is the partner no longer.
            apart = _FROM_NAME.match(ctx.text, m.end()) if st in _PARTS else None
            # (Only a person Level 0 recognised: "Google and I got divorced" ends no partner.)
            if st in _PARTS and (ex := companion(ctx, m) or (
                    _name(apart.group("name")) if apart else None)) is not None:
                yield fact(ctx, s, f"{s} and {ex} got {st}", "partner", ex, polarity="negative",
                           valid_from=past_date(ctx, m), confidence=0.85)
        for m, s in matches(ctx, _DIVORCED, we=True):
            yield fact(ctx, s, f"{s} divorced", "relationship_status", "divorced", valid_from=past_date(ctx, m),
                       confidence=0.9)
            # (Only a person: "Google and I divorced" ends no partner.)
            if (ex := companion(ctx, m) or _name(m.group("name"))) is not None:
                yield fact(ctx, s, f"{s} and {ex} got divorced", "partner", ex, polarity="negative",
                           valid_from=past_date(ctx, m), confidence=0.85)
        for m, s in matches(ctx, _TIED_KNOT, we=True):
            since = past_date(ctx, m)
            yield fact(ctx, s, f"{s} tied the knot", "relationship_status", "married", valid_from=since, confidence=0.85)
            if (partner := companion(ctx, m) or _name(said_companion(m))) is not None:
                yield fact(ctx, s, f"{s} and {partner} tied the knot", "partner", partner, valid_from=since,
                           confidence=0.8)
        for m, s in matches(ctx, _GETTING, we=True):
            st = m.group("st") or "divorced"
            said = " ".join(m.group("through").split()) if m.group("through") else f"getting {st}"
            yield fact(ctx, s, f"{s} is {said}", "plans", f"get {st}", modality="planned", confidence=0.8)
        yield from _proposal_accepted(ctx)
        for m, s in matches(ctx, _BACK_TOGETHER, we=True):
            if (partner := _name(m.group("name")) or companion(ctx, m)) is not None:
                since = past_date(ctx, m)
                yield fact(ctx, s, f"{s} got back together with {partner}", "partner", partner, valid_from=since,
                           confidence=0.8)
                yield fact(ctx, s, f"{s} got back together with {partner}", "relationship_status", "in a relationship",
                           valid_from=since, confidence=0.75)
        for m, s in matches(ctx, _BROKE_UP, we=True):
            if m.group("verb") == "split" and not first_person(m):
                continue  # a bare "split" of someone else may be from a band or a firm
            if bool(m.group("be")) != (m.group("verb") == "separating"):
                continue  # "we are separating", never "we are broke up" nor a bare "we separating"
            partner = _name(m.group("name")) or companion(ctx, m)
            if partner is not None:
                yield fact(ctx, s, f"{s} broke up with {partner}", "partner", partner, polarity="negative",
                           valid_from=past_date(ctx, m), confidence=0.85)
            verb = " ".join(m.group("verb").split())
            if verb in {"separated", "separating"}:  # "Tom and I separated": a status, as "we got separated" is
                yield fact(ctx, s, f"{s} separated", "relationship_status", "separated",
                           valid_from=past_date(ctx, m), confidence=0.8)
            if verb in _SINGLE_AFTER:
                said = f"{verb} with {partner}" if partner is not None else verb
                yield fact(ctx, s, f"{s} {said} and is single", "relationship_status", "single",
                           valid_from=past_date(ctx, m), confidence=0.75)
        yield from _they_broke_up(ctx)
    part = ctx.part
    if part.negated and not (part.hedged or part.hypothetical or part.past_habit):
        for m, s in matches(ctx, _APART, we=True):
            if (partner := _name(m.group("name")) or companion(ctx, m) or _name(said_companion(m))) is not None:
                yield fact(ctx, s, f"{s} is no longer with {partner}", "partner", partner, polarity="negative",
                           confidence=0.8)
        for m, s in matches(ctx, _NOT_STATUS, we=True):
            st = m.group("st")
            yield fact(ctx, s, f"{s} is not {st}", "relationship_status", st, polarity="negative", confidence=0.85)
    if not asserts(ctx):
        return
    lasting_for = [(m, s) for m, s in matches(ctx, _IS_FOR, we=True) if lasting(ctx, m.end(), right_after=True)]
    for m, s in matches(ctx, _IS, we=True) + lasting_for:
        if experiential_state(ctx, m):
            continue  # "I've been married (twice)": it was so, not that it is
        if perfect(m) and _TO_NAME.match(ctx.text, m.end()):
            continue  # "I've been married to Tom for ten years": read with the partner below
        widow: str | None = m.groupdict().get("widow")  # "I'm a widow" (``_IS`` only)
        word = widow or str(m.group("st"))
        status = "widowed" if widow else word
        # "We've been married since 2010" / "for ten years": the start it states.
        yield fact(ctx, s, f"{s} is {word}", "relationship_status", status, valid_from=stated_start(ctx, m),
                   confidence=0.9)
        if status in _UNITES and (partner := companion(ctx, m)) is not None:
            # "Lucia and I are engaged": the one it is with is the partner, as with "got engaged".
            yield fact(ctx, s, f"{s} and {partner} are {word}", "partner", partner, valid_from=stated_start(ctx, m),
                       confidence=0.85)
        elif status in _PARTS and not perfect(m) and (ex := companion(ctx, m)) is not None:
            # "Lucia and I are divorced": no longer the partner (``eywa.cessation`` reads the end).
            yield fact(ctx, s, f"{s} is {word} from {ex}", "partner", ex, polarity="negative", confidence=0.8)
        elif status in _PARTS and (apart := _FROM_NAME.match(ctx.text, m.end())) and (ex := _name(apart.group("name"))):
            # "I'm divorced from Eva", "I'm separated from Tom": no longer the partner (when it came
            # to be the turn does not say).
            yield fact(ctx, s, f"{s} is {word} from {ex}", "partner", ex, polarity="negative", confidence=0.8)
    for m, s in matches(ctx, _MARRIED_TO, we=False) + matches(ctx, _MARRIED_NAME):
        if experiential_state(ctx, m):
            continue  # "I've been married to Tom": it was so, not that it is
        if partner := _name(m.group("name")):
            since = stated_start(ctx, m)  # "… to Tom since 2015" / "for ten years"
            yield fact(ctx, s, f"{s} is married to {partner}", "partner", partner, valid_from=since, confidence=0.85)
            if "engaged" not in m.group(0):
                yield fact(ctx, s, f"{s} is married to {partner}", "relationship_status", "married", valid_from=since,
                           confidence=0.85)  # fmt: skip
    said_to_have = {(m.start(), m.end()) for m, _ in matches(ctx, _HAS_SPOUSE)}
    # "My wife and I split up", "my husband and I got divorced": the role names whom the
    # relationship ended with, so it says no status of now.
    # "My husband left me" (``endings.LEFT_ME``): no marriage of now either.
    ended = (bool(matches(ctx, _BROKE_UP, we=True)) or any(m.group("st") in _PARTS for m, _ in matches(ctx, _GOT, we=True))
             or any(True for _ in openings(ctx, LEFT_ME, anywhere=True)))
    spouses = matches(ctx, _SPOUSE, anywhere=True) + matches(ctx, _HAS_SPOUSE)
    for m, s in spouses:
        role, partner = m.group("role"), _name(m.group("name"))
        if m.groupdict().get("is") and not named_by_is(ctx, m):
            partner = None  # "my wife is Italian"
        if _died(ctx, m):
            # "My wife passed away last year": no longer the partner, and no marriage of now.
            yield fact(ctx, s, f"{possessive(s)} {role}{f' {partner}' if partner else ''} passed away", "partner",
                       partner or role, polarity="negative", valid_from=past_date(ctx, m), confidence=0.8)
            if _ROLE_STATUS.get(role) == "married" and not m.groupdict().get("ex"):
                # A spouse's death leaves one widowed, from then ("Is Ana married?": not now).
                yield fact(ctx, s, f"{possessive(s)} {role} passed away", "relationship_status", "widowed",
                           valid_from=past_date(ctx, m), confidence=0.75)
            continue
        if m.groupdict().get("ex"):
            if partner is not None:
                yield fact(ctx, s, f"{possessive(s)} ex-{role} is {partner}", "partner", partner, polarity="negative")
            continue
        # A boyfriend named in passing ("my girlfriend and I went hiking") may be a label
        # outgrown; only "I have a boyfriend" says the status.
        if role in _ROLE_STATUS and not ended and (_ROLE_STATUS[role] == "married" or (m.start(), m.end()) in said_to_have):
            yield fact(ctx, s, f"{s} has a {role}", "relationship_status", _ROLE_STATUS[role], confidence=0.75)
        if partner is not None and partner != s and not ended:
            yield fact(ctx, s, f"{possessive(s)} {role} is {partner}", "partner", partner, confidence=0.8)
    for m, s in matches(ctx, _NAME_MY_SPOUSE, anywhere=True):
        if (partner := _name(m.group("name"))) is None or partner == s or ended or not _is_my(ctx, m):
            continue
        if _died(ctx, m):  # "Tobias, my husband, passed away": he is the one who died
            yield fact(ctx, s, f"{possessive(s)} {m.group('role')} {partner} passed away", "partner", partner,
                       polarity="negative", valid_from=past_date(ctx, m), confidence=0.8)
        else:
            yield fact(ctx, s, f"{possessive(s)} {m.group('role')} is {partner}", "partner", partner, confidence=0.8)
    for m, s in matches(ctx, _NAME_IS_MY_EX, anywhere=True):
        if (ex := _name(m.group("name"))) is not None and ex != s:
            yield fact(ctx, s, f"{ex} is {possessive(s)} ex", "partner", ex, polarity="negative", confidence=0.8)
    for m, s in matches(ctx, _DATING):
        if (partner := _name(m.group("name"))) is not None and partner != s and not experiential_state(ctx, m):
            since = stated_start(ctx, m)
            yield fact(ctx, s, f"{s} is dating {partner}", "partner", partner, valid_from=since, confidence=0.8)
            yield fact(ctx, s, f"{s} is dating {partner}", "relationship_status", "in a relationship",
                       valid_from=since, confidence=0.75)
    for m, s in matches(ctx, _SEEING_NAMED):
        partner = _name(m.group("name"))
        if partner is None or partner == s or partner not in ctx.persons:
            continue
        if m.group("been") and not lasting(ctx, m.end(), right_after=True):
            continue
        since = stated_start(ctx, m) if m.group("been") else past_date(ctx, m)
        yield fact(ctx, s, f"{s} is seeing {partner}", "partner", partner, valid_from=since, confidence=0.75)
        yield fact(ctx, s, f"{s} is seeing {partner}", "relationship_status", "in a relationship",
                   valid_from=since, confidence=0.75)
    for m, s in matches(ctx, _TOGETHER, we=True):
        since = stated_start(ctx, m)  # "… for a year": since then
        if (partner := companion(ctx, m)) is not None:
            yield fact(ctx, s, f"{s} is together with {partner}", "partner", partner, valid_from=since, confidence=0.75)
        elif m.group("how") == "dating" and m.group("subj") in ("we", "We"):
            partner = _named_date(ctx, m)
            if partner is not None and partner != s:
                yield fact(ctx, s, f"{s} is dating {partner}", "partner", partner, valid_from=since, confidence=0.75)
        if m.group("how") == "dating":  # not "together": a married couple says it too
            said = f"{s} is dating {partner}" if partner is not None else f"{s} is dating someone"
            yield fact(ctx, s, said, "relationship_status", "in a relationship", valid_from=since, confidence=0.75)
    for m, s in matches(ctx, _SEEING_SOMEONE, we=True) + matches(ctx, _IN_RELATIONSHIP, we=True):
        with_name = _WITH_NAME.match(ctx.text, m.end())
        if (partner := _name(with_name.group("name")) if with_name else None) is not None and partner != s:
            yield fact(ctx, s, f"{s} is in a relationship with {partner}", "partner", partner, confidence=0.75)
        # The status said outright ("I'm in a relationship") is as sure as "I'm married"; the
        # statement keeps the words said ("is seeing someone"), which the validator finds.
        dating: str | None = m.groupdict().get("verb")  # none: said outright
        said = f"is {dating} someone" if dating else "is in a relationship"
        yield fact(ctx, s, f"{s} {said}", "relationship_status", "in a relationship",
                   valid_from=stated_start(ctx, m), confidence=0.8 if dating else 0.9)
    for m, s in matches(ctx, _DIVORCE_DONE, we=True):
        yield fact(ctx, s, f"{s} got divorced", "relationship_status", "divorced", valid_from=past_date(ctx, m),
                   confidence=0.85)
        said = m.group("name")
        ex = (ctx.persons.get(said) or (said if ctx.holds(s, said, "partner") else None)) if said else None
        if ex is not None and ex != s:
            done = " ".join(ctx.text[m.end("name") : m.end()].split())
            yield fact(ctx, s, f"{possessive(s)} divorce from {ex} {done}", "partner", ex, polarity="negative",
                       valid_from=past_date(ctx, m), confidence=0.85)


def _they_broke_up(ctx: Ctx) -> Iterator[CandidateFact]:
    """``_THEY_BROKE_UP``: each of the two people named, no longer with the other (both
    recognised by Level 0), and single after a breakup or separated after a separation."""
    for m in openings(ctx, _THEY_BROKE_UP):
        one, other = ctx.persons.get(m.group("subj")), _name(m.group("other"))
        other = ctx.persons.get(other) if other else None
        if one is None or other is None or one == other or ctx.turn.speaker in (one, other):
            continue
        verb = " ".join(m.group("verb").split())
        when = past_date(ctx, m)
        for s, ex in ((one, other), (other, one)):
            yield fact(ctx, s, f"{s} and {ex} {verb}", "partner", ex, polarity="negative", valid_from=when,
                       confidence=0.8)
            status = "separated" if verb == "separated" else "single"
            yield fact(ctx, s, f"{s} {verb} with {ex} and is {status}" if status == "single" else f"{s} separated",
                       "relationship_status", status, valid_from=when, confidence=0.75)


def _proposal_accepted(ctx: Ctx) -> Iterator[CandidateFact]:
    """``_SAID_YES`` after a proposal to the speaker earlier in the sentence, and ``_I_PROPOSED``
    with the yes later in it: engaged, and the partner."""
    found: list[tuple[str, str, str]] = []
    for m, s in matches(ctx, _SAID_YES):
        if (asked := _PROPOSED_TO_ME.search(ctx.sentence_before(m.start()))) is not None:
            found.append((s, asked.group("name"), f"{asked.group('name')} proposed and {s} said yes"))
    for m, s in matches(ctx, _I_PROPOSED):
        if _THEY_SAID_YES.search(ctx.sentence_after(m.end())):
            found.append((s, m.group("name"), f"{s} proposed to {m.group('name')} and they said yes"))
    for s, name, said in found:
        if (partner := _name(name)) is not None and partner != s:
            yield fact(ctx, s, said, "relationship_status", "engaged", valid_from=past_date(ctx), confidence=0.8)
            yield fact(ctx, s, said, "partner", partner, valid_from=past_date(ctx), confidence=0.8)


def _died(ctx: Ctx, m: re.Match[str]) -> bool:
    """Whether the partner a ``_SPOUSE`` match names died: "my wife (Ines) passed away",
    "my husband died", or "I lost my wife" before it."""
    return bool(_DIED_AFTER.match(ctx.text, m.end())) or bool(_LOST_BEFORE.search(ctx.text[: m.start() + 2]))


def children(ctx: Ctx) -> Iterator[CandidateFact]:
    """Children facts of one part."""
    if not plain(ctx):
        return
    for m, s in matches(ctx, _NO_KIDS):
        if "want" not in m.group(0):
            yield fact(ctx, s, f"{s} does not have {m.group('kind')}", "children", "children", polarity="negative",
                       confidence=0.8)
    if ctx.part.negated:
        return
    for m, s in matches(ctx, _BABY, we=True):
        if m.group("child") and not re.search(r"\b(?:adopted|welcomed)\b", m.group(0)):
            continue
        name = _name(m.group("name") or m.group("name_after") or m.group("name_is") or named_after(ctx, m.end()))
        sex = m.group("sex") or {"son": "boy", "daughter": "girl"}.get(m.group("sex_after") or "", m.group("sex_after"))
        kind = m.group("kind") or m.group("child") or (f"baby {sex}" if sex else "baby")
        value = name or _KIND_VALUE.get(kind, kind)
        said = f" named {name}" if name else ""
        verb = "adopted" if "adopted" in m.group(0) else "gave birth to" if "birth" in m.group(0) else "had"
        yield fact(ctx, s, f"{s} {verb} a {kind}{said}", "children", value, valid_from=past_date(ctx, m),
                   confidence=0.85)
    for m, s in matches(ctx, _KIDS_COUNT, we=True):
        n, kind = m.group("n"), m.group("kind")
        if n in {"a", "an", "one"} and kind.endswith("s"):
            continue
        if m.group("kind2") and (second := _name(m.group("name2"))) is not None and second != s:
            yield fact(ctx, s, f"{s} has a {m.group('kind2')} named {second}", "children", second, confidence=0.85)
        elif (kind2 := m.group("kind2")) and not m.group("name2"):
            # "a son and a daughter", "two sons and a daughter": the second kind of the list too
            n2 = m.group("n2") or article(kind2)
            if not (n2 in {"a", "an", "one"} and kind2.endswith(("s", "children"))):
                yield fact(ctx, s, f"{s} has {n2} {kind2}", "children", f"{n2} {kind2}", confidence=0.85)
        listed = m.group("name") or ((after := _COLON_NAMES.match(ctx.sentence_after(m.end()))) and after.group("name"))
        names = [name for name in _NAME_WORD.findall(listed or "") if _name(name) and name != s]
        if n in {"a", "an", "one"} and len(names) == 1:
            yield fact(ctx, s, f"{s} has {n} {kind} named {names[0]}", "children", names[0], confidence=0.85)
            continue
        if len(names) < 2:
            yield fact(ctx, s, f"{s} has {n} {kind}", "children", f"{n} {kind}", confidence=0.9)
        # "two kids, Leo and Sara": each a child, and no third member "two kids" beside them
        # in the set (its statements keep the count).
        for name in names if len(names) > 1 else []:
            yield fact(ctx, s, f"{s} has {n} {kind}, one named {name}", "children", name, confidence=0.85)
    named_before = [(m, s) for m, s in matches(ctx, _NAME_MY_KID, we=True, anywhere=True) if _is_my(ctx, m)]
    for m, s in named_before:
        if (name := _name(m.group("name"))) is not None and name != s:
            yield fact(ctx, s, f"{possessive(s)} {' '.join(m.group('kind').split())} is {name}", "children", name,
                       confidence=0.8)
    for m, s in matches(ctx, _MY_KID, we=True, anywhere=True):
        if not m.group("name") and any(named.end() == m.end() for named, _ in named_before):
            continue  # "Max is my son": the son is Max (above), not a son besides him
        kind, name = " ".join(m.group("kind").split()), _name(m.group("name"))
        if name is not None and name != s:
            verb = "include" if kind in _PLURAL_KINDS else "is"
            yield fact(ctx, s, f"{possessive(s)} {kind} {verb} {name}", "children", name, confidence=0.8)
            # "my kids Leo and Sara": a plural kind names each child of the list that follows.
            more = _MORE_NAMES.match(ctx.text, m.end()) if kind in _PLURAL_KINDS else None
            for other in _NAME_WORD.findall(more.group(0)) if more else []:
                if _name(other) and other != s:
                    yield fact(ctx, s, f"{possessive(s)} {kind} are {name} and {other}", "children", other,
                               confidence=0.8)
        elif name is None and kind != "baby" and kind in _KIND_VALUE:  # "our baby (boy)" may be on the way
            plural = kind.endswith("s") or kind == "children"
            yield fact(ctx, s, f"{s} has {'' if plural else 'a '}{kind}", "children", _KIND_VALUE[kind],
                       confidence=0.75)


def relatives(ctx: Ctx) -> Iterator[CandidateFact]:
    """Named siblings and parents of one part: "my sister Eva" is Eva, a sibling of the
    speaker, whose statement keeps the relation's word ("Ana's sister is Eva") so that
    "Ana's sister" can be told from "Ana's brother" among the siblings (``eywa.read.relatives``)."""
    if not plain(ctx) or ctx.part.negated:
        return
    found = matches(ctx, _MY_RELATIVE, we=True, anywhere=True) + matches(ctx, _HAS_RELATIVE, we=True)
    for m, s in found + matches(ctx, _NAME_MY_RELATIVE, we=True, anywhere=True):
        kind, name = m.group("kind"), _name(m.group("name"))
        if (m.groupdict().get("is") and not named_by_is(ctx, m)) or not _is_my(ctx, m):
            continue  # "my sister is Canadian"
        if name is not None and name != s:
            yield fact(ctx, s, f"{possessive(s)} {kind} is {name}", RELATIVE_ATTRIBUTE[kind], name, confidence=0.8)
        yield from _another_relative(ctx, s, m.end())
    for m, s in matches(ctx, _MY_RELATIVES, we=True, anywhere=True):
        kind = m.group("kind")
        more = _MORE_NAMES.match(ctx.text, m.end())
        names = [m.group("name"), *_NAME_WORD.findall(more.group(0) if more else "")]
        for name in (n for n in names if _name(n) and n != s):
            yield fact(ctx, s, f"{possessive(s)} {kind} include {name}", RELATIVE_ATTRIBUTE[kind], name, confidence=0.8)
    for m, s in matches(ctx, _RELATIVES_COUNT, we=True):
        n, kind = m.group("n"), m.group("kind")
        one = n in {"a", "an", "one"}
        if one != (kind in {"sister", "brother"}) or (one and m.group("name")):
            continue  # "one sisters", "two brother"; "a sister named Eva" is ``_HAS_RELATIVE``'s
        if one and not m.group("kind2") and not _KIN_ENDS.match(ctx.text, m.end()):
            continue  # "a sister company"
        names = [name for name in _NAME_WORD.findall(m.group("name") or "") if _name(name) and name != s]
        if not names:
            said = f"{article(kind) if n in {'a', 'an'} else n} {kind}"  # "an older brother": "a brother"
            yield fact(ctx, s, f"{s} has {said}", "siblings", said, confidence=0.85)
        for name in names:
            yield fact(ctx, s, f"{s} has {n} {kind}, one named {name}", "siblings", name, confidence=0.8)
        if (kind2 := m.group("kind2")) and ((n2 := m.group("n2")) in {"a", "an", "one"}) == (kind2 in {"sister", "brother"}):
            said = f"{article(kind2) if n2 in {'a', 'an'} else n2} {kind2}"
            yield fact(ctx, s, f"{s} has {said}", "siblings", said, confidence=0.85)
        yield from _another_relative(ctx, s, m.end())


def _another_relative(ctx: Ctx, s: str, end: int) -> Iterator[CandidateFact]:
    """The relative "… and a sister named Eva" names after a relative's match that ends at ``end``."""
    if (more := _ANOTHER_RELATIVE.match(ctx.text, end)) is not None:
        kind, name = more.group("kind"), _name(more.group("name"))
        if name is not None and name != s:
            yield fact(ctx, s, f"{possessive(s)} {kind} is {name}", RELATIVE_ATTRIBUTE[kind], name, confidence=0.8)
