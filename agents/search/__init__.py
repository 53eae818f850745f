"""The search agents: information-set MCTS (``mcts``: the agent, its jitted simulation loop
``loops``, the leaf-evaluation template ``leaf`` and each game's strengths ``leaf_<game>``)
and its network-guided PUCT variant (``net_mcts``, loop ``net_loops``)."""
