"""Automobile (Martin Wallace): the car-industry economic game for 3-5 players."""
