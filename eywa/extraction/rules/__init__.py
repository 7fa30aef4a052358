"""The offline rule-based extractor: clause analysis and one module per topic.

``RuleExtractor`` is the entry point; the families (``work``, ``home``, ``family``,
``pets``, ``pastimes``, ``life``, ``plans``) each turn one kind of sentence into candidate
facts with canonical values, and ``clause`` holds what they share (subjects, scoping of
negation and hedges, phrasing in the third person).
"""

from eywa.extraction.rules.extractor import FAMILIES, RuleExtractor

__all__ = ["FAMILIES", "RuleExtractor"]
