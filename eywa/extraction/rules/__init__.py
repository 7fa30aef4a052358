"""The offline rule-based extractor: clause analysis, phrasing, and one module per topic.

``RuleExtractor`` is the entry point. The families (``work``, ``home``, ``family``,
``pets``, ``pastimes``, ``diet``, ``life``, ``plans``, ``events``) each turn one kind of
sentence into candidate facts with canonical values; ``clause`` holds what they share about
the text (parts, subjects, negation and hedges, dates) and ``phrasing`` how a fact is
written (third-person statements, cleaned values).
"""

from eywa.extraction.rules.extractor import FAMILIES, RuleExtractor

__all__ = ["FAMILIES", "RuleExtractor"]
