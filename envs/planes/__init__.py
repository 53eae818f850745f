"""Planes (AEG 2014): the airport game for 2-4 players, both airports and all 15 cards."""
