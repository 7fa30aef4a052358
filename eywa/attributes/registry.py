"""The registry table: every canonical attribute, with the source of its time constant.

How a published figure becomes τ. The dimension math ages a value with the survival
function exp(−Δt/τ) (see ``eywa.nous.math.hazard``), so τ is the *mean* time a value stays
true and the *median* is τ·ln 2. Two kinds of figures are used:

* a median duration m (of tenure, of a pet's life): τ = m / ln 2. A survey of *current*
  spells (how long people have been with their employer so far) measures elapsed, not
  complete, durations; for the memoryless exponential the two have the same distribution, so
  the formula holds as stated;
* an annual rate r of change (the share of people who moved in the last year):
  1 − exp(−1/τ) = r, so τ = −1 / ln(1 − r) years.

Where no figure we trust exists, the entry says "assumption" and why. Every number is a
prior for the general population, not a fit to any conversation; ``with_overrides`` (and the
settings that call it) may replace them for a deployment that knows better.

Canonical values (see ``eywa.attributes.values``): values carry no negation ("no meat" is
meat with negative polarity) and synonyms map to one canonical (value, polarity). Diet is
multi-valued over foods and drinks with polarity: "vegetarian" is (meat, negative).
"""

from __future__ import annotations

import math

from eywa.attributes.spec import YEAR_DAYS, AttributeSpec, ValueSynonym


def tau_from_median_years(median_years: float) -> float:
    """τ in days for a value whose median duration is ``median_years``: m / ln 2."""
    return median_years / math.log(2.0) * YEAR_DAYS


def tau_from_annual_rate(rate: float) -> float:
    """τ in days for a value that changes for a share ``rate`` of people per year."""
    return -1.0 / math.log(1.0 - rate) * YEAR_DAYS


def _syn(value: str, polarity: str, *surfaces: str) -> tuple[ValueSynonym, ...]:
    return tuple(ValueSynonym.model_validate({"surface": s, "value": value, "polarity": polarity}) for s in surfaces)


SHORT_PASTIME_VERBS: dict[str, str] = {"run": "running", "jog": "jogging", "ski": "skiing", "sew": "sewing", "bike": "cycling"}
"""Verbs of pastimes too short to share a stem with the pastime ("I run every morning" says
running; "paint" and "painting" share theirs): surfaces that imply it."""

PASTIME_KINDS: dict[str, frozenset[str]] = {
    "instrument": frozenset(
        """guitar piano violin drums cello flute saxophone ukulele clarinet trumpet harp bass viola banjo
        mandolin accordion harmonica trombone oboe keyboard synthesizer""".split()
    ),
    "sport": frozenset(
        """soccer football basketball tennis golf baseball volleyball hockey badminton softball rugby cricket
        squash netball lacrosse running swimming cycling skiing surfing climbing bouldering rowing skating boxing
        karate judo taekwondo fencing archery wrestling gymnastics snowboarding jogging""".split()
    ),
}
"""Kinds of pastime a question may ask for ("What instrument does Ana play?", "What sport …"):
the words of each kind's pastimes (a value holds one of them: "bass guitar", "ice skating")."""

PASTIME_AGENTS: dict[str, str] = {
    "hiker": "hiking", "runner": "running", "swimmer": "swimming", "cyclist": "cycling", "climber": "climbing",
    "dancer": "dancing", "surfer": "surfing", "skier": "skiing", "gamer": "gaming", "reader": "reading",
    "baker": "baking", "gardener": "gardening", "knitter": "knitting", "camper": "camping", "golfer": "golf",
    "skater": "skating", "photographer": "photography", "painter": "painting", "birder": "birdwatching",
    "sailor": "sailing", "chess player": "chess", "yogi": "yoga", "cook": "cooking", "traveler": "traveling",
    "traveller": "travelling", "writer": "writing", "blogger": "blogging", "volunteer": "volunteering",
}  # fmt: skip
"""Agent nouns of pastimes: "I'm an avid hiker" says hiking. Implied surfaces of the hobby
(the validator finds "hiking" said so), not its synonyms: "I'm a cook" is no hobby by itself,
so "cook" never becomes the value "cooking"."""


# Figures, each used below. BLS, "Employee Tenure in 2022" (USDL-22-1894, 22 Sep 2022):
# median years with the current employer 4.1 in January 2022 (3.9 in January 2024).
_EMPLOYER_MEDIAN_YEARS = 4.1
# US Census Bureau, CPS ASEC 2021 ("U.S. Migration Continued to Decline From 2020 to 2021"):
# 8.4 % of people lived in a different residence one year earlier.
_MOVER_RATE = 0.084
# O'Neill et al., "Longevity and mortality of owned dogs in England", The Veterinary Journal
# 198 (2013) 638-643: median longevity 12.0 years. A pet is mentioned, on average, half-way
# through its life (assumption), so its remaining median life is about 6 years.
_PET_REMAINING_MEDIAN_YEARS = 12.0 / 2

# Babb, Malarcher, Schauer, Asman, Jamal, "Quitting Smoking Among Adults — United States,
# 2000-2015", MMWR 65(52) (2017) 1457-1464: 7.4 % of adults who smoked in the past year had
# recently quit successfully in 2015.
_SMOKER_QUIT_RATE = 0.074

_HOME_CARERS = ("mom", "mum", "dad", "parent", "mother", "father", "wife", "husband")
"""Who stays at home with the family ("stay-at-home dad"): surfaces of the employer's ``homemaker``."""

_EMPLOYER_TAU = tau_from_median_years(_EMPLOYER_MEDIAN_YEARS)
_LIFETIME_TAU = 50 * YEAR_DAYS

SPECS: tuple[AttributeSpec, ...] = (
    AttributeSpec(
        name="employer", cardinality="single", tau_days=_EMPLOYER_TAU,
        wh_words=("where", "which", "who", "whom"),
        cessation_ends=True,
        tau_source="BLS Employee Tenure in 2022: median tenure with the current employer 4.1 "
        "years (Jan 2022) → τ = 4.1 / ln 2 ≈ 5.9 years.",
        description="Organisation the subject works for (one at a time), or whether they work at "
        "all: 'unemployed', 'self-employed', 'retired', 'homemaker' (a stay-at-home parent).",
        aliases=("company", "workplace", "works_at", "works_for", "job_company", "work", "job", "employed_at"),
        words=("work", "works", "working", "worked", "job", "jobs", "employer", "employed", "company",
               "boss", "office", "hired", "fired", "quit", "retired", "retirement", "unemployed", "self-employed"),
        synonyms=_syn("self-employed", "positive", "freelance", "freelancer", "self employed", "own boss", "own business",
                      "own company", "own firm", "own practice", "own agency", "own consultancy", "own startup",
                      # "I run my own bakery": a trade's premises one runs ("own" alone is no surface).
                      *(f"own {trade}" for trade in ("bakery", "shop", "restaurant", "cafe", "café", "salon", "store",
                                                     "boutique", "clinic", "gym", "bar", "pub", "farm")))
        + _syn("unemployed", "positive", "jobless", "out of work", "between jobs", "out of a job", "laid off",
               "made redundant", "let go", "fired", "sacked")
        + _syn("retired", "positive", "retiree", "in retirement")
        + _syn("homemaker", "positive", "housewife", "househusband", "home maker",
               *(f"stay{at}home {who}" for at in ("-at-", " at ") for who in _HOME_CARERS)),
        # "I quit to stay home with the kids": out of paid work, said as staying home (never
        # rewritten to it).
        implied=_syn("homemaker", "positive", "stay home", "stays home", "staying home")
        # "I got caught in the layoffs": out of work, said as the layoffs one was in.
        + _syn("unemployed", "positive", "layoffs", "lay-offs", "redundancies", "job cuts")
        # "I don't have a job right now", "I have no job", "I'm without a job": out of work, said
        # as having a job denied (not "job" alone: "I don't like my job" says no such thing).
        + _syn("unemployed", "negative", "have a job", "has a job", "no job", "without a job"),
        change_values=("retired", "unemployed", "homemaker"),
        leading_words=("at", "for", "with", "work", "works", "working", "job", "employed"),
    ),
    AttributeSpec(
        name="occupation", cardinality="single", tau_days=_EMPLOYER_TAU,
        wh_words=("what",),
        cessation_ends=True,
        tau_source="assumption: an occupation outlasts an employer (people change employer "
        "more often than profession), so the employer's τ (≈ 5.9 years, BLS 2022) is a lower "
        "bound; the lower bound is used.",
        description="The subject's job title or profession.",
        aliases=("job_title", "profession", "role", "career", "title"),
        words=("job", "jobs", "occupation", "profession", "career", "title", "work", "works"),
        # "I just graduated": no longer a student, said as the graduation (never rewritten to it).
        implied=_syn("student", "negative", "graduated"),
        value_case="lower",
        leading_words=("a", "an", "work", "works", "working", "as"),
        named_by_head=True,
    ),
    AttributeSpec(
        name="residence", cardinality="single", tau_days=tau_from_annual_rate(_MOVER_RATE),
        wh_words=("where", "which"),
        cessation_ends=True,
        tau_source="US Census CPS ASEC 2021: 8.4 % of people moved in the past year → "
        "τ = −1 / ln(1 − 0.084) ≈ 11.4 years.",
        description="Place (city, country, area) where the subject lives now.",
        aliases=("location", "city", "home", "lives_in", "address", "live", "lives", "town", "current_city"),
        words=("live", "lives", "living", "lived", "home", "city", "town", "moved", "move", "moving",
               "address", "reside", "resides", "apartment", "neighbourhood", "neighborhood"),
        leading_words=("in", "at", "near", "live", "lives", "living"),
    ),
    AttributeSpec(
        name="origin", cardinality="single", tau_days=_LIFETIME_TAU,
        wh_words=("where", "which"),
        tau_source="assumption: where someone comes from does not change; 50 years (an adult "
        "lifetime) only bounds how stale the evidence may grow.",
        description="Where the subject comes from; effectively permanent.",
        aliases=("hometown", "home_country", "nationality", "from", "born_in", "birthplace"),
        words=("from", "born", "hometown", "grew", "nationality", "origin", "raised"),
        leading_words=("from", "in"),
    ),
    AttributeSpec(
        name="relationship_status", cardinality="single", tau_days=5 * YEAR_DAYS,
        wh_words=("what",),
        cessation_ends=True,
        tau_source="assumption: 5 years, between marriages (median duration of women's first "
        "marriages 20.8 years, Census ACS 'Marital Events of Americans: 2009'; first marriages "
        "that end in divorce last a median 8 years, Census P70-125) and dating or engaged "
        "states, which change within months to a few years.",
        description="Single, dating, engaged, married, divorced, widowed or separated.",
        # "I'm divorced", "widowed", "separated" say by themselves that the marriage held
        # before ended, as "retired" ends a job: the hazard is raised before they are observed.
        change_values=("divorced", "widowed", "separated"),
        aliases=("marital_status", "relationship", "married", "single", "dating"),
        words=("married", "marriage", "single", "dating", "divorced", "engaged", "relationship",
               "wife", "husband", "spouse", "partner", "boyfriend", "girlfriend", "widowed"),
        synonyms=_syn("married", "positive", "wed", "wedded", "tied the knot")
        + _syn("in a relationship", "positive", "dating someone", "seeing someone", "taken", "back together")
        + _syn("widowed", "positive", "widow", "widower")
        + _syn("engaged", "positive", "said yes")
        + _syn("married", "negative", "unmarried")
        + _syn("single", "positive", "broke up", "split up")
        # "My husband left me", "my wife walked out on me": the marriage is not over on paper.
        + _syn("separated", "positive", "left me", "walked out on me")
        + _syn("in a relationship", "positive", "boyfriend", "girlfriend", "has a boyfriend", "has a girlfriend"),
        # "My wife passed away": widowed, said as a spouse who ended (never rewritten to it).
        implied=_syn("widowed", "negative", "wife", "husband", "spouse")
        # "The wedding is off", "our wedding was cancelled": engaged no longer, said as the
        # wedding called off (the forms ``eywa.extraction.rules.endings`` reads).
        + _syn("engaged", "negative", *(f"wedding{be} {off}" for be in ("'s", "’s", " is", " was", " has been")
                                        for off in ("off", "cancelled", "canceled", "called off"))),
        value_case="lower",
    ),
    AttributeSpec(
        name="partner", cardinality="single", tau_days=5 * YEAR_DAYS,
        wh_words=("who", "whom"),
        cessation_ends=True,
        tau_source="assumption: the same 5 years as relationship_status (see there).",
        description="Name or description of the subject's partner or spouse.",
        aliases=("spouse", "husband", "wife", "boyfriend", "girlfriend", "significant_other", "fiance", "fiancé",
                 "fiancee", "fiancée"),
        words=("partner", "spouse", "husband", "wife", "boyfriend", "girlfriend", "married", "dating", "engaged",
               "fiance", "fiancé", "fiancee", "fiancée"),
        leading_words=("partner", "spouse", "husband", "wife", "boyfriend", "girlfriend", "fiance",
                       "fiancé", "fiancee", "fiancée"),
        ended_by=("relationship_status", ("single", "divorced", "widowed", "separated")),
    ),
    AttributeSpec(
        name="children", cardinality="multi", tau_days=_LIFETIME_TAU,
        wh_words=("who",),
        tau_source="assumption: a child stays a child; 50 years only bounds staleness.",
        description="The subject's children (names, count or description).",
        aliases=("kids", "child", "son", "daughter", "sons", "daughters"),
        words=("children", "child", "kids", "kid", "son", "sons", "daughter", "daughters", "baby"),
    ),
    AttributeSpec(
        name="siblings", cardinality="multi", tau_days=_LIFETIME_TAU,
        wh_words=("who",),
        tau_source="assumption: a sibling stays a sibling; 50 years only bounds staleness.",
        description="The subject's brothers and sisters, by name.",
        aliases=("sibling", "sister", "sisters", "brother", "brothers"),
        words=("sibling", "siblings", "sister", "sisters", "brother", "brothers"),
    ),
    AttributeSpec(
        name="parents", cardinality="multi", tau_days=_LIFETIME_TAU,
        wh_words=("who",),
        tau_source="assumption: a parent stays a parent; 50 years only bounds staleness.",
        description="The subject's mother and father, by name.",
        aliases=("parent", "mother", "father", "mom", "mum", "dad"),
        words=("parent", "parents", "mother", "father", "mom", "mum", "dad", "mommy", "daddy"),
    ),
    AttributeSpec(
        name="pets", cardinality="multi", tau_days=tau_from_median_years(_PET_REMAINING_MEDIAN_YEARS),
        cessation_ends=True,
        tau_source="O'Neill et al. 2013 (Vet J 198:638): median dog longevity 12.0 years; "
        "mentioned at mid-life (assumption) → 6 remaining years → τ = 6 / ln 2 ≈ 8.7 years.",
        description="Animals the subject owns (kinds or names); a pet that died or was given "
        "away is the value with negative polarity.",
        aliases=("pet", "dog", "cat", "animal", "animals", "dogs", "cats"),
        # The kinds of pet the rules read a pet by (``eywa.extraction.lexicon.PETS``) that name
        # nothing else: "What is Bo's parrot called?" asks for a pet as "… dog called?" does.
        # Left out, words that also name a food, a place or a pastime ("fish", "bird", "lab",
        # "horse", "pig").
        words=("pet", "pets", "dog", "dogs", "cat", "cats", "animal", "animals", "puppy", "kitten",
               "pup", "kitty", "parrot", "hamster", "rabbit", "bunny", "turtle", "tortoise", "snake", "lizard",
               "ferret", "gecko", "goldfish", "chinchilla", "hedgehog", "budgie", "cockatiel", "iguana",
               "puppies", "bunnies", "greyhound", "labrador", "retriever", "poodle", "terrier", "beagle", "spaniel", "collie",
               "bulldog", "dachshund", "chihuahua"),
        # A breed, a young one or a pet name of a kind is said of that kind: "a beagle named
        # Rex" is a dog, as the rules read an unnamed one (``eywa.extraction.lexicon.SPECIES``).
        synonyms=_syn("dog", "positive", "dogs", "puppy", "puppies", "pup", "pups", "greyhound", "labrador",
                      "retriever", "poodle", "terrier", "beagle", "spaniel", "collie", "bulldog", "dachshund",
                      "chihuahua")
        + _syn("cat", "positive", "cats", "kitten", "kittens", "kitty")
        + _syn("rabbit", "positive", "rabbits", "bunny", "bunnies"),
    ),
    AttributeSpec(
        name="hobbies", cardinality="multi", tau_days=2 * YEAR_DAYS,
        cessation_ends=True,
        tau_source="assumption: 2 years; no population figure for how long a pastime lasts.",
        description="Activities the subject does regularly for pleasure; a hobby given up is "
        "the value with negative polarity.",
        aliases=("hobby", "activities", "activity", "pastime", "pastimes", "interests", "sport", "sports"),
        words=("hobby", "hobbies", "pastime", "pastimes", "sport", "sports", "play", "plays",
               "playing", "free", "activity", "activities", "instrument", "instruments"),
        value_case="lower",
        leading_words=("do", "does", "doing", "play", "plays", "playing", "go", "goes", "going",
                       "practice", "practise", "practicing", "practising"),
        implied=tuple(syn for agent, pastime in PASTIME_AGENTS.items() for syn in _syn(pastime, "positive", agent))
        + tuple(syn for verb, pastime in SHORT_PASTIME_VERBS.items() for syn in _syn(pastime, "positive", verb, f"{verb}s")),
    ),
    AttributeSpec(
        name="likes", cardinality="multi", tau_days=3 * YEAR_DAYS,
        cessation_ends=True,
        tau_source="assumption: 3 years; tastes drift slowly and no population figure exists.",
        description="Things the subject likes or loves.",
        aliases=("like", "preference", "preferences", "favorite", "favourite", "loves", "love"),
        words=("like", "likes", "love", "loves", "favorite", "favourite", "enjoy", "enjoys", "prefer", "prefers"),
    ),
    AttributeSpec(
        name="dislikes", cardinality="multi", tau_days=3 * YEAR_DAYS,
        cessation_ends=True,
        tau_source="assumption: the same 3 years as likes.",
        description="Things the subject dislikes or hates.",
        aliases=("dislike", "hates", "hate", "aversion"),
        words=("dislike", "dislikes", "hate", "hates", "detest", "detests"),
    ),
    AttributeSpec(
        name="diet", cardinality="multi", tau_days=3 * YEAR_DAYS,
        cessation_ends=True,
        tau_source="assumption: 3 years. Faunalytics' study of current and former vegetarians "
        "and vegans (2014) found 84 % lapse, 53 % of the lapsed within a year; those who keep "
        "the diet past that keep it long, so no single median describes it.",
        description="Foods and drinks the subject eats (positive) or avoids (negative); "
        "'vegetarian' is meat with negative polarity, 'vegan' animal products with negative "
        "polarity, 'teetotal' alcohol with negative polarity.",
        aliases=("dietary_preference", "dietary_preferences", "food", "foods", "eats", "eating_habits",
                 "vegetarian", "dietary_restriction", "dietary_restrictions"),
        words=("diet", "eat", "eats", "eating", "ate", "food", "foods", "meat", "vegetarian", "vegan",
               "pescatarian", "drink", "drinks", "alcohol"),
        synonyms=_syn("meat", "negative", "vegetarian", "veggie", "vegetarianism", "meatless",
                      "pescatarian", "pescetarian")
        + _syn("animal products", "negative", "vegan", "veganism", "plant-based", "plant based")
        + _syn("alcohol", "negative", "teetotal", "teetotaler", "teetotaller", "sober")
        + _syn("meat", "positive", "meat eater", "meat-eater", "carnivore", "omnivore", "meats",
               "non-vegetarian", "non vegetarian")
        + _syn("animal products", "positive", "non-vegan", "non vegan")
        + _syn("alcohol", "positive", "drink", "drinking", "booze", "alcoholic drinks"),
        # A pescatarian eats fish, which a vegetarian does not: "Is a pescatarian vegetarian?"
        # asks about fish as well as meat, and the fish answers it (no). A vegan eats no meat
        # either: "Does a vegan eat meat?" is answered "not meat", not only "not animal products".
        implied=_syn("fish", "positive", "pescatarian", "pescetarian")
        + _syn("fish", "negative", "vegetarian", "veggie", "vegan")
        + _syn("meat", "negative", "vegan"),
        value_case="lower",
        leading_words=("eat", "eats", "eating", "ate", "eaten", "drink", "drinks", "drinking", "any"),
    ),
    AttributeSpec(
        name="habits", cardinality="multi", tau_days=tau_from_annual_rate(_SMOKER_QUIT_RATE),
        cessation_ends=True,
        tau_source="Babb et al., MMWR 65(52) (2017): 7.4 % of adults who smoked in the past year "
        "had recently quit (2015) → τ = −1 / ln(1 − 0.074) ≈ 13 years, for smoking; other "
        "habits are assumed alike.",
        description="Habits such as smoking or vaping; one given up is the value with negative "
        "polarity (drinking is the diet's 'alcohol').",
        aliases=("habit", "smoking", "smoker", "vaping"),
        words=("habit", "habits", "smoke", "smokes", "smoking", "smoker", "smokers", "vape", "vapes", "vaping",
               "cigarette", "cigarettes"),
        synonyms=_syn("smoking", "positive", "smoke", "smokes", "smoker", "cigarettes")
        + _syn("smoking", "negative", "non-smoker", "nonsmoker", "non smoker", "ex-smoker", "ex smoker")
        + _syn("vaping", "positive", "vape", "vapes", "vaper")
        + _syn("vaping", "negative", "non-vaper", "ex-vaper", "ex vaper"),
        value_case="lower",
        leading_words=("do", "does"),
    ),
    AttributeSpec(
        name="education", cardinality="multi", tau_days=20 * YEAR_DAYS,
        # "I dropped out of college", "I quit my PhD": studies that ended (a degree once earned
        # is not ended by anything said later: no rule proposes that).
        cessation_ends=True,
        tau_source="assumption: 20 years; a degree once earned stays true, studies in progress "
        "last years (a bachelor's degree is nominally 4).",
        description="Schools, degrees and fields of study.",
        aliases=("school", "degree", "studies", "university", "college", "major"),
        words=("school", "study", "studies", "studied", "studying", "degree", "university", "college",
               "graduate", "graduated", "major", "education"),
        # "Where did Ana study?", "What did Ana study?", "Which university did Ana go to?":
        # a school attended stays part of one's story, asked in the past tense.
        wh_words=("where", "what", "which"),
        lasting=True,
    ),
    AttributeSpec(
        name="languages", cardinality="multi", tau_days=_LIFETIME_TAU,
        tau_source="assumption: a language one speaks is kept for life (50 years, as origin); "
        "one learned is education until it is said to be spoken.",
        description="Languages the subject speaks; one they do not is the value with negative polarity.",
        aliases=("language", "spoken_languages", "tongue"),
        words=("language", "languages", "speak", "speaks", "spoken", "fluent", "bilingual", "tongue"),
        wh_words=("what", "which"),
    ),
    AttributeSpec(
        name="health", cardinality="multi", tau_days=YEAR_DAYS,
        cessation_ends=True,
        tau_source="assumption: 1 year; acute conditions resolve within months, chronic ones "
        "are restated when they matter.",
        description="Health conditions, injuries and allergies; one that healed is the value "
        "with negative polarity.",
        aliases=("medical", "condition", "conditions", "illness", "health_condition", "allergies", "allergy"),
        words=("health", "sick", "ill", "illness", "condition", "allergic", "allergy", "diagnosed",
               "injury", "injured", "disease"),
        value_case="lower",
        # "I have asthma" answers "Is Ana asthmatic?", "I'm allergic to peanuts" (value
        # "peanuts allergy") "Is Ana allergic to peanuts?": a condition is asked about in
        # another form of its words than it was said in.
        word_forms=True,
    ),
    AttributeSpec(
        name="plans", cardinality="multi", tau_days=120.0,
        tau_source="assumption: 4 months; plans either happen or are dropped within a season.",
        description="Things the subject intends to do.",
        aliases=("plan", "intention", "intentions", "goal", "goals"),
        words=("plan", "plans", "planning", "intend", "intends", "goal", "goals", "future"),
        value_case="lower",
    ),
    AttributeSpec(
        name="life_events", cardinality="multi", tau_days=YEAR_DAYS,
        tau_source="assumption: 1 year; a dated event stays true but its relevance fades.",
        description="Things that happened to or were done by the subject, with dates.",
        aliases=("events", "event", "life_event", "activity_event", "experience", "milestone"),
        words=("event", "events", "happened", "milestone"),
    ),
    AttributeSpec(
        name="possessions", cardinality="multi", tau_days=4 * YEAR_DAYS,
        cessation_ends=True,
        tau_source="assumption: 4 years; a thing sold or lost is the value with negative polarity.",
        description="Notable things the subject owns (car, house, instrument).",
        aliases=("possession", "owns", "belongings", "own"),
        words=("own", "owns", "owned", "bought", "possessions", "car", "cars", "drive", "drives"),
        value_case="lower",
    ),
    AttributeSpec(
        name="age", cardinality="single", tau_days=YEAR_DAYS / 2,
        tau_source="arithmetic, no survey: an age in whole years holds for one year, and said at "
        "a random point of that year it stays true for the rest of it, half a year on average "
        "→ τ = 0.5 years (a year on, the number said is no longer claimed as now).",
        description="The subject's age in years.",
        words=("age", "old"),
    ),
)
"""Every canonical attribute, in the order the LLM prompt lists them."""
