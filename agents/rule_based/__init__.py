"""The rule-based agents, one module per game: a jitted ``policy(code, p, obs, mask,
words)`` kernel that plays from what the seat sees (code 0 random, 1 rule-based)."""
