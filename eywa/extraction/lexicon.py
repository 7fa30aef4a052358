"""Word lists and regex pieces of the rule extractor.

Closed lists, on purpose: the rule extractor trades recall for precision, and an occupation
or pet outside these lists is left to an LLM extractor rather than guessed.
"""

from __future__ import annotations

OCCUPATIONS = frozenset(
    """teacher nurse doctor physician surgeon dentist pharmacist veterinarian vet paramedic
    engineer developer programmer designer architect lawyer attorney accountant banker analyst
    consultant manager director ceo cto founder entrepreneur artist painter sculptor writer
    author novelist poet journalist editor reporter photographer musician singer songwriter
    composer drummer guitarist pianist actor actress dancer chef cook baker barista bartender
    waiter waitress student professor lecturer researcher scientist biologist chemist physicist
    counselor counsellor therapist psychologist psychiatrist firefighter officer detective
    pilot driver mechanic electrician plumber carpenter farmer gardener librarian cashier clerk
    secretary receptionist technician tutor coach trainer instructor nanny babysitter cleaner
    janitor realtor salesperson salesman saleswoman marketer recruiter streamer youtuber
    blogger influencer freelancer soldier sailor translator interpreter economist historian
    mathematician statistician pastor priest rabbi social""".split()
)
"""Head nouns of jobs ("social" only as "social worker")."""

NOT_JOB_MODIFIERS = frozenset(
    """good bad great terrible big huge decent amazing better best worse total proud lucky busy
    aspiring wannabe amateur hobby self-taught wannabe former ex retired future fellow
    frustrated struggling hopeless terrible awful""".split()
)
"""Modifiers that turn a job noun into a judgement ("a good cook") or a non-current job."""

PETS = (
    "dogs|dog|puppy|puppies|cats|cat|kitten|kittens|hamster|rabbit|bunny|parrot|bird|fish|turtle"
    "|tortoise|snake|horse|pony|guinea pig|lizard|ferret|gecko|goldfish|chinchilla|hedgehog"
)
PET_ADJECTIVES = "(?:old|new|little|sweet|baby|furry|beloved|two|three|adorable|rescue|cute)\\s+"

POSSESSIONS = (
    "car|house|home|bike|bicycle|motorcycle|guitar|piano|violin|cello|laptop|computer|camera"
    "|boat|apartment|condo|truck|van|telescope|keyboard|drum set|ukulele|tent|kayak|canoe|rv"
)

INSTRUMENTS_SPORTS = (
    "guitar|piano|violin|drums|cello|flute|saxophone|ukulele|clarinet|trumpet|harp|bass"
    "|soccer|football|basketball|tennis|golf|chess|baseball|volleyball|hockey|badminton"
    "|video games|board games|softball|rugby|cricket|pool|poker"
)

OUTDOOR_ACTIVITIES = (
    "hiking|camping|running|swimming|fishing|skiing|surfing|biking|cycling|climbing|kayaking"
    "|jogging|dancing|bowling|skating|snowboarding|horseback riding|rock climbing|sailing"
    "|shopping|birdwatching|canoeing|paddleboarding|walking|rowing"
)

NOT_HOBBY_GERUNDS = frozenset(
    """being having getting seeing hearing knowing thinking feeling talking saying telling
    sharing doing making knowing finding learning hearing reading_about spending trying
    keeping taking giving letting watching_you waking going_through living working""".split()
)
"""Gerunds after "I love" that describe a moment or a feeling, not a pastime."""

NOT_OBJECTS = frozenset(
    """it that this them you him her those these how what when where why who which to the_way
    being a_lot so too much more all everything anything something nothing one some any
    your his its our their there here myself yourself everyone everybody every each a an the
    doing making seeing""".split()
)
"""Objects of "I love/like" that carry no preference on their own."""

PAST_CONTEXT = (
    r"\b(?:used\s+to|when\s+i\s+was|as\s+a\s+(?:kid|child|teen|teenager)|back\s+then|back\s+in"
    r"|years\s+ago|in\s+the\s+past|growing\s+up|before\s+i|once\s+upon|anymore|no\s+longer)\b"
)

IRREGULAR_PAST = frozenset(
    """went took got had made saw ran met bought gave began came did found left read won wrote
    sang swam drove flew ate drank spoke taught caught built sold spent held kept lost paid sent
    told brought became chose fell grew heard led rode shook stood threw woke wore began drew
    hit sat slept won dug fed""".split()
)

NOT_EVENT_VERBS = frozenset(
    """thought felt knew wanted needed hoped wished used guessed wondered believed remembered
    forgot meant liked loved hated seemed appeared tried decided realized realised noticed
    figured missed expected supposed imagined""".split()
)
"""Past-tense verbs that report a state of mind, not an event worth dating."""

NUMBER_WORD = r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+)"

PROPER = r"(?:[A-Z][\w&.'’-]*)(?:\s+(?:of|de|du|la|le|&|the)?\s*[A-Z][\w&.'’-]*){0,4}"
"""A capitalised name of up to five words ("New York City", "Bank of America")."""
