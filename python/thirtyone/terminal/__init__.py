"""The game in a terminal: the table's pieces of text, the story of a game, the Oracle's views and
keys, the prompt, the person's seat, and a session of ``thirtyone play`` from its start (a new
game or a saved one) to its end."""
