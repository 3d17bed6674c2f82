"""What is kept on disk: saved games (written as a game goes, replayed to resume it) and the
record of finished games (SQLite), with the decisions noted as a game goes and what the record
says."""
