"""Speed: how fast the environments, agents, training and compile run."""
