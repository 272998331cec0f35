"""Diagnostics: what every check reports, the rule registry, and output formats."""

from toolkit.diagnostics.diagnostic import Diagnostic, Severity, Span
from toolkit.diagnostics.registry import REGISTRY, Rule, RuleSelection, rule

__all__ = ["REGISTRY", "Diagnostic", "Rule", "RuleSelection", "Severity", "Span", "rule"]
