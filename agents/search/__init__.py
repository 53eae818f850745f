"""The search agent (information-set MCTS, ``mcts``): the agent (``mcts``), its jitted
simulation loop (``loops``), the leaf-evaluation template (``leaf``) and each game's
strengths for it (``leaf_<game>``)."""
