"""Level 1: extractors propose candidate facts, the validator checks them against the cited
evidence, and the pipeline stores accepted beliefs (with support links) and refused
candidates (with reasons).
"""

from eywa.extraction.base import Extractor
from eywa.extraction.context import ContextualExtractor, Earlier
from eywa.extraction.clients import AnthropicClient, ChatClient, OpenAIChatClient
from eywa.extraction.llm import LLMExtractor, build_extractor
from eywa.extraction.pipeline import Explanation, Level1Report, explain, extract_beliefs
from eywa.extraction.rules import RuleExtractor
from eywa.extraction.validator import Validator

__all__ = [
    "AnthropicClient",
    "ChatClient",
    "ContextualExtractor",
    "Earlier",
    "Explanation",
    "Extractor",
    "LLMExtractor",
    "Level1Report",
    "OpenAIChatClient",
    "RuleExtractor",
    "Validator",
    "build_extractor",
    "explain",
    "extract_beliefs",
]
