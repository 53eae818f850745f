"""Loose Caboose! (Michiel de Wit, Gamewright 2022): push-your-luck track laying with dice."""
