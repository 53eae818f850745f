"""Tuned agents: policies driven by a vector of parameters fitted to play (issue 22), and
their shipped vectors. Empty for now; the rule-based agents of ``agents/rule_based`` are
their starting point."""
