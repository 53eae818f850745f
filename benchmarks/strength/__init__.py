"""Agent strength: ladders and agent comparisons."""
