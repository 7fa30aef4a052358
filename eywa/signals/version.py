"""The version of what Level 0's detectors find in a turn.

Every stored turn records the ``SIGNALS_VERSION`` its signals and mentions were detected
under (turns stored before versions existed count as 0). ``Memory.reprocess`` (``eywa
reprocess``) detects the signals of turns stored under an older version again, updates what
Level 0 derived from them and re-runs Level 1 on the turns whose signals or mentions changed
(``eywa.rederive``), so a store upgraded in place answers as a fresh ingest of its turns.

Bump ``SIGNALS_VERSION`` whenever a change to ``eywa.signals`` (dates, mentions, cues,
quantities, identifiers) or to Level 0's mention linking (``eywa.batches``) changes what is
detected in some text: a change that leaves the output the same needs no bump, and a bump
costs every store one re-detection of all its turns. ``tests/unit/test_signals_version_pin.py``
pins a digest of the detection of a fixed set of turns to the version, so a change that
forgets the bump fails there.
"""

from __future__ import annotations

from typing import Final

__all__ = ["SIGNALS_VERSION", "current_signals_version"]

SIGNALS_VERSION: Final = 14
"""1: the first recorded version (session 28); stores written before hold 0. 2: a sentence's
first word is a person when a verb of a person's life follows it ("Priya works at Globex
now."), so a fact said of someone before they spoke is read of them. 3: a known first name
followed by another capitalised name ("a novel by Ana Ferrante") is not that person: the
longer name is an entity of its own. 4: "left" before a capitalised word is such a verb too
("Eva left Globex and joined Initech", said before Eva was introduced). 5: "switched jobs",
"changed careers", "relocated to" and "I left" with only when after it ("Nope, I left in May")
are change cues (the job or home said before ended), and a
sentence's first word before who it is to the speaker between commas is a person ("Eva, my
sister, works at Globex"); the held-out turns' digest is unchanged (none says them). 6: a
lone name after "hired by", "recruited by", "employed by" or "offer from" is an organisation
("I got hired by Initech"), not a person; an answering "No" after an interjection ("Haha no,
I still live in Lyon", "No no, …") negates nothing, as a bare "No," did not (the held-out
turns' digest changed with this one). 7: a bare weekday after "I start" names the one to come
("I start on Monday"). 8: vaping again and being back on cigarettes (or to smoking) are
change cues, as smoking again was (the held-out turns' digest is unchanged). 9: "I haven't
smoked in six months" (also "vaped", "had a cigarette", with for or since) is a change cue:
the habit said before has ended. 10: a diet or a habit said not to have lasted ("the vegetarian
thing didn't last"), a wagon fallen off ("I fell off the keto wagon") and "done with being …"
are change cues; a nationality or a creed ("I'm Irish", "my family is Catholic") is no person
(the held-out turns' digest changed with this one). 11: a food eaten said of now ("I eat meat
now", "… these days"), a promotion ("I got promoted to captain") and a wedding called off ("the
wedding's off") are change cues: the diet, the title or the engagement said before has ended
(the held-out turns' digest is unchanged). 12: a job started ("I started working for Initech",
"I started a job at Hooli", "I started at Globex") is a change cue: the job said before has
ended; so is a state said of now at the end of its clause ("I live in Leeds now", "I work at
Initech now", "I'm a manager now"; not "I'm so tired now", "I'm still at Globex now") (the
held-out turns' digest changed with this one). 13: a sentence's first word followed by who it is
to the speaker, ending the clause, is a person ("Chris is my husband.", "Lena is my sister!";
not "Here is my boyfriend", "Sunday is my husband's day off") (the held-out turns' digest is
unchanged). 14: the speaker's new home ("Just got the keys to our new home in York!", "Loving
my new flat") is a change cue: the home said before has ended (the held-out turns' digest is
unchanged).
"""


def current_signals_version() -> int:
    """``SIGNALS_VERSION``, read when called: the stores stamp new turns with it, and tests
    simulate a store written by an older release by patching the constant."""
    return int(globals()["SIGNALS_VERSION"])
