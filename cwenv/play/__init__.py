"""Playing at a real table: the terminal game, table-dice mode and the GM advisor."""
