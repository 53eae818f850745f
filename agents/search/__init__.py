"""Search agents: information-set MCTS and its network-guided variant."""
