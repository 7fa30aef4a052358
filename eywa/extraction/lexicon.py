"""Word lists and regex pieces of the rule extractor.

Closed lists, on purpose: the rule extractor trades recall for precision, and an occupation,
pastime or pet outside these lists is left to an LLM extractor rather than guessed. Each
list also fixes the canonical spelling of what it names ("played volleyball", "volleyball
club" and "quit volleyball" all become the value "volleyball").
"""

from __future__ import annotations

from eywa.attributes.registry import PASTIME_AGENTS


def alternation(words: str) -> str:
    """A regex alternation of whitespace-separated entries, longest first; "_" is a space."""
    entries = sorted({w.replace("_", " ") for w in words.split()}, key=len, reverse=True)
    return "|".join(e.replace(" ", r"\s+") for e in entries)


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
    mathematician statistician pastor priest rabbi social planner screenwriter animator
    illustrator intern paralegal midwife optician physiotherapist choreographer player
    athlete gamer volunteer administrator coordinator specialist assistant worker agent
    supervisor executive owner welder butcher tailor seamstress hairdresser barber stylist florist
    surveyor auditor actuary underwriter broker trader nutritionist dietitian dietician radiologist
    pediatrician paediatrician cardiologist neurologist anesthesiologist optometrist chiropractor
    machinist builder roofer plasterer bricklayer locksmith upholsterer courier postman mailman
    lifeguard ranger policeman policewoman guard attendant zookeeper curator archivist
    archaeologist geologist astronomer ecologist botanist caregiver carer housekeeper dispatcher
    operator filmmaker cinematographer podcaster comedian producer publisher homemaker housewife
    househusband contractor lead captain sergeant lieutenant corporal commander foreman superintendent
    principal""".split()
)
"""Head nouns of jobs ("social" only as "social worker", "attendant" as "flight attendant",
"lead" as "team lead"), and the ranks one is promoted to ("captain", "sergeant", "foreman")."""

NEEDS_QUALIFIER = frozenset(
    "social player worker agent assistant owner volunteer specialist guard attendant operator lead".split()
)
"""Heads that name a job only with a modifier ("basketball player", "social worker", "team lead")."""

NOT_JOB_MODIFIERS = frozenset(
    """good bad great terrible big huge decent amazing better best worse total proud lucky busy
    aspiring wannabe amateur hobby self-taught former ex retired future fellow frustrated
    struggling hopeless awful real true natural born new old first little wonderful fantastic
    awesome happy nice proper""".split()
)
"""Modifiers that turn a job noun into a judgement ("a good cook") or a non-current job."""

PETS = alternation(
    """dog dogs puppy puppies pup pups cat cats kitten kittens kitty hamster hamsters rabbit rabbits bunny parrot
    horses snakes birds
    bird fish turtle turtles tortoise snake horse pony guinea_pig lizard ferret gecko goldfish
    chinchilla hedgehog greyhound labrador lab retriever poodle terrier beagle spaniel collie
    husky bulldog dachshund chihuahua pug shepherd tabby budgie cockatiel iguana"""
)
_BREEDS = (
    r"labrador|lab|retriever|poodle|terrier|beagle|spaniel|collie|husky|bulldog|dachshund|chihuahua|pug|shepherd"
    r"|greyhound|tabby"
)
PET_ADJECTIVES = (
    r"(?:(?:old|new|little|sweet|baby|furry|beloved|adorable|rescue|rescued|cute|tiny|young"
    r"|black|white|brown|ginger|grey|gray|tabby|fluffy|senior|second|first|two|three|golden|yellow"
    r"|[Gg]erman|chocolate|miniature|mini"
    rf"|(?i:{_BREEDS})(?=\s+(?:puppy|puppies|pup|pups|dog|dogs|kitten|kittens|cat|cats)\b))\s+)*"
)
"""Words before a pet's kind: "our old dog", and a breed before the kind it is of ("a golden
retriever puppy called Biscuit": the puppy is the pet, the breed describes it)."""
SPECIES = {
    "puppy": "dog", "puppies": "dog", "pup": "dog", "pups": "dog", "dogs": "dog", "kitten": "cat",
    "kittens": "cat", "kitty": "cat", "cats": "cat", "turtles": "turtle", "bunny": "rabbit",
    "greyhound": "dog", "labrador": "dog", "lab": "dog", "retriever": "dog", "poodle": "dog",
    "terrier": "dog", "beagle": "dog", "spaniel": "dog", "collie": "dog", "husky": "dog",
    "bulldog": "dog", "dachshund": "dog", "chihuahua": "dog", "pug": "dog", "shepherd": "dog",
    "tabby": "cat", "turtles": "turtle", "rabbits": "rabbit", "hamsters": "hamster", "birds": "bird",
    "horses": "horse", "snakes": "snake", "fishes": "fish",
}  # fmt: skip
"""A pet word's species, the canonical value of an unnamed pet."""

POSSESSIONS = (
    "car|house|home|bike|bicycle|motorcycle|motorbike|guitar|piano|violin|cello|laptop|computer"
    "|camera|boat|apartment|condo|truck|van|telescope|keyboard|drum set|ukulele|tent|kayak|canoe|rv"
)
CAR_MAKES = (
    "Tesla|Toyota|Honda|Ford|BMW|Audi|Mercedes|Volkswagen|VW|Subaru|Volvo|Nissan|Hyundai|Kia|Mazda|Jeep|Porsche"
    "|Chevy|Chevrolet|Prius|Lexus|Fiat|Peugeot|Renault|Skoda|Jaguar|Land\\s+Rover|Range\\s+Rover|Mini\\s+Cooper"
)
"""Car makes a first-person "I bought a …" names as the car itself ("I bought a Tesla")."""

PASTIMES = alternation(
    """guitar piano violin drums cello flute saxophone ukulele clarinet trumpet harp bass_guitar
    soccer football basketball tennis golf chess baseball volleyball hockey badminton
    video_games board_games softball rugby cricket poker table_tennis squash netball lacrosse
    hiking camping running swimming fishing skiing surfing cycling climbing rock_climbing
    bouldering kayaking jogging dancing bowling skating ice_skating snowboarding horse_riding
    horseback_riding sailing birdwatching canoeing paddleboarding rowing gardening baking
    cooking painting drawing sketching pottery ceramics knitting crocheting sewing quilting
    photography writing poetry journaling reading yoga pilates meditation karate judo boxing
    kickboxing taekwondo fencing archery martial_arts ballet salsa tango calligraphy origami
    woodworking scrapbooking embroidery singing acting improv gaming skateboarding weightlifting
    crossfit triathlons marathons dance stand-up_comedy coding sculpting volunteering traveling
    travelling road_trips gymnastics wrestling hunting skiing snorkeling scuba_diving diving
    stargazing bird_watching cross-stitch glassblowing jewelry_making soap_making blogging
    vlogging streaming mentoring hiking jiu-jitsu jujitsu brazilian_jiu-jitsu aikido capoeira kung_fu muay_thai
    krav_maga mma tai_chi"""
)
"""Pastimes named by a noun or gerund; a hobby value is one of these."""

ENTHUSIASTS = PASTIME_AGENTS
"""Agent nouns of pastimes: "an avid hiker" does hiking (the registry's, whose hobbies
attribute counts them as surfaces of the pastime)."""

HABITS = {
    "paint": "painting", "draw": "drawing", "write": "writing", "read": "reading", "cook": "cooking", "bake": "baking",
    "knit": "knitting", "garden": "gardening", "swim": "swimming", "run": "running", "dance": "dancing",
    "sing": "singing", "hike": "hiking", "surf": "surfing", "ski": "skiing", "skate": "skating", "climb": "climbing",
    "cycle": "cycling", "bike": "cycling", "fish": "fishing", "camp": "camping", "sew": "sewing",
    "sketch": "sketching", "journal": "journaling", "volunteer": "volunteering", "meditate": "meditation",
    "blog": "blogging", "crochet": "crocheting", "jog": "jogging", "kayak": "kayaking", "sculpt": "sculpting",
}  # fmt: skip
"""Verbs of pastimes and the pastime they name: "I paint on weekends" → painting."""

PLAYED = frozenset(
    """guitar piano violin drums cello flute saxophone ukulele clarinet trumpet harp bass guitar
    soccer football basketball tennis golf chess baseball volleyball hockey badminton video games
    board games softball rugby cricket poker table tennis squash netball lacrosse""".split()
)
"""Pastimes one *plays*; "played" is dropped from the value ("playing chess" → "chess")."""

DIETS = alternation("vegetarian vegan pescatarian pescetarian dairy-free gluten-free keto paleo flexitarian")
FOODS = alternation(
    """meat red_meat fish seafood dairy pork beef chicken eggs gluten sugar cheese milk meat_or_fish
    animal_products shellfish alcohol coffee caffeine soda"""
)

DEGREES = alternation(
    """master's masters master's_degree masters_degree bachelor's bachelors bachelor's_degree
    degree phd doctorate mba diploma certificate associate's_degree postgraduate
    undergraduate_degree law_degree nursing_degree teaching_degree"""
)
WORKPLACES = alternation(
    """hospital clinic school high_school elementary_school middle_school primary_school
    secondary_school kindergarten preschool nursery daycare college university bank law_firm
    restaurant cafe café diner bakery hotel factory warehouse supermarket grocery_store store shop
    bookstore pharmacy library museum gallery startup start-up agency company corporation nonprofit
    non-profit charity gym salon garage farm lab laboratory call_center call_centre pub newspaper
    magazine nursing_home care_home retirement_home shelter dental_practice consultancy
    publishing_house theater theatre airline dealership brewery winery vineyard spa studio firm plant
    community_center community_centre medical_center medical_centre distribution_center distribution_centre
    garden_center garden_centre data_center data_centre fitness_center leisure_centre recreation_center
    shopping_center shopping_centre mall"""
)
"""Kinds of workplace a job is said to be at without a name: "I work at a law firm", "I work
in a hospital" (the employer is then what kind of place it is); the same kinds are the ones a
job is lost at ("she lost her job at the bakery") and a layoff comes from ("the startup laid
everyone off"). A centre only as a kind of one: "the city centre" is no workplace."""

INSTITUTION_HEADS = (
    r"(?:University|Uni(?![\w-])|College|School|Academy|Institute|Polytechnic|Conservatory"
    r"|(?<=\w\s)(?:High|Elementary|Middle)(?![\w'’-]))"
)
"""The last word of a school's name; "High", "Elementary" and "Middle" only after a name
("Oakwood High", "Lincoln Elementary": how people shorten "… High School")."""

LANGUAGES = alternation(
    """english german french spanish italian portuguese japanese chinese mandarin cantonese korean russian
    arabic hindi urdu bengali punjabi tamil telugu marathi gujarati persian farsi dutch flemish swedish
    norwegian danish finnish icelandic polish czech slovak hungarian romanian bulgarian serbian croatian
    ukrainian greek turkish hebrew yiddish latin welsh gaelic irish catalan basque galician tagalog
    filipino indonesian malay vietnamese thai swahili amharic somali yoruba igbo hausa zulu afrikaans
    sign_language asl"""
)
"""Languages by name: learned (education) or spoken (``languages``). "Irish", "Filipino" and the
like name people too: the rules read them as languages only after "speak", "fluent in" …"""

BODY_PARTS = alternation(
    """arm arms leg legs ankle ankles wrist wrists knee knees hip back shoulder shoulders neck
    foot feet hand hands finger fingers toe toes rib ribs elbow collarbone nose jaw"""
)
_CONDITIONS = """asthma diabetes type_1_diabetes type_2_diabetes adhd anxiety depression arthritis migraines eczema
    epilepsy insomnia cancer covid the_flu a_cold celiac_disease crohn's ibs ptsd autism dyslexia tinnitus
    high_blood_pressure a_concussion pneumonia ADHD IBS PTSD OCD COVID"""
CONDITIONS = alternation(_CONDITIONS)
"""Conditions by name; the acronyms also as they are written ("I have ADHD")."""
CONDITION_NAMES = tuple(dict.fromkeys(w.replace("_", " ").lower() for w in _CONDITIONS.split()))
"""The conditions of ``CONDITIONS``, each once, in lower case ("celiac disease")."""

NOT_HOBBY_GERUNDS = frozenset(
    """being having getting seeing hearing knowing thinking feeling talking saying telling
    sharing doing making finding spending trying keeping taking giving letting waking living
    working going looking coming putting using helping watching playing learning exploring
    creating chatting connecting catching hanging reminding bringing checking experimenting
    spreading supporting seeing sitting staying starting setting showing reaching hearing
    knowing listening meeting growing teaching""".split()
)
"""Gerunds after "I love" that need an object to name a pastime ("playing" alone says nothing)."""

NOT_OBJECTS = frozenset(
    """it that this them you him her those these how what when where why who which to the_way
    being a_lot so too much more all everything anything something nothing one some any
    your his its our their there here myself yourself everyone everybody every each a an the
    doing making seeing us me people each_other having getting when_people seeing_you""".split()
)
"""Objects of "I love/like" that carry no preference on their own."""

IRREGULAR_PAST = frozenset(
    """went took got had made saw ran met bought gave began came did found left read won wrote
    sang swam drove flew ate drank spoke taught caught built sold spent held kept lost paid sent
    told brought became chose fell grew heard led rode shook stood threw woke wore drew hit sat
    slept dug fed""".split()
)

NOT_EVENT_VERBS = frozenset(
    """thought felt knew wanted needed hoped wished used guessed wondered believed remembered
    forgot meant liked loved hated seemed appeared tried decided realized realised noticed
    figured missed expected supposed imagined learned learnt heard told said
    asked mentioned talked agreed enjoyed appreciated reminded""".split()
)
"""Past-tense verbs that report a state of mind or speech, not an event worth dating."""

NUMBER_WORD = r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+)"

PARTNER_ROLE = r"(?:husband|wife|fianc[ée]e?|boyfriend|girlfriend|partner|spouse)"
"""The words a partner is named by ("my husband", "Tobias, my girlfriend"), as the partner and
ending rules read them (``PARTNER_ROLE_WORDS``: their gate words)."""
PARTNER_ROLE_WORDS = "husband wife fiance fiancé fiancee fiancée boyfriend girlfriend partner spouse"

NAME_THEN_VERB = (
    r"[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?\s+(?!(?:his|its|this|as|us|plus|thus|across|towards|perhaps|always|sometimes)\b)"
    r"(?:is|was|has|had|does|did|got|gets|went|goes|left|quit|can|will|would|just|also|still|now|[a-z]+s|[a-z]+ed)\b"
)
"""Someone named who does something ("Tom works", "Eva Park moved"): after "and", a clause of
its own ("I work at Globex and Tom works at Initech"), not the rest of a name."""
PROPER = rf"(?:[A-Z][\w&.'’-]*)(?:\s+(?:of|de|du|la|le|&|the|and(?!\s+{NAME_THEN_VERB}))?\s*[A-Z][\w&.'’-]*){{0,4}}"
"""A capitalised name of up to five words ("New York City", "Bank of America", "Johnson and
Johnson"; not "Globex and Tom" in "I work at Globex and Tom works at Initech")."""

NOT_PEOPLE_SAID_AFTER_IS = frozenset(
    """American Canadian Mexican Brazilian Argentinian Argentine Chilean Peruvian Colombian Venezuelan Cuban
    Jamaican Haitian Dominican Ecuadorian Bolivian Uruguayan Paraguayan Guatemalan Honduran Salvadoran Nicaraguan
    Indian Pakistani Bangladeshi Nepali Iranian Iraqi Israeli Saudi Syrian Egyptian Moroccan Algerian Tunisian
    Libyan Nigerian Kenyan Ghanaian Ethiopian Eritrean Somali Ugandan Tanzanian Rwandan Zimbabwean Zambian
    Cameroonian Senegalese Russian Ukrainian Belarusian Georgian Armenian Azerbaijani Kazakh Uzbek Italian German
    Austrian Belgian Dutch French Swiss Norwegian Hungarian Romanian Bulgarian Serbian Croatian Bosnian Slovenian
    Slovak Czech Greek Cypriot Australian Korean Thai Filipino Filipina Indonesian Malaysian Singaporean
    Mongolian Tibetan Afghan Latino Latina Latinx Hispanic Asian African European Caribbean Arab Persian Catalan
    Basque Welsh Scottish Irish English British Chinese Japanese Vietnamese Catholic Christian Jewish Muslim
    Hindu Buddhist Protestant Mormon Orthodox Atheist Agnostic Sikh Quaker Baptist Methodist Lutheran""".split()
)
"""Capitalised words that say what someone is, not who ("my wife is Italian", "my dad is
Catholic"): no name after "is" (``rules.family.named_by_is``); with any word in -ish or -ese."""

NOT_NAMES = frozenset(
    """I The A An My Our Your His Her Their This That These Those It We You He She They Mom Mum Dad
    God Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May
    June July August September October November December Christmas Easter Home Work School Uni""".split()
)
"""Capitalised words that a name slot must not take."""
